"""The selfplay command, through typer's CliRunner."""
import json

import pandas as pd
from typer.testing import CliRunner

from riskstats.cli import app

runner = CliRunner()


def test_selfplay_json_summary():
    result = runner.invoke(app, ["selfplay", "--games", "6", "--players", "3", "--bots", "aggressive,continent",
                                 "--seed", "2", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["games"] == 6 and set(payload["bots"]) == {"aggressive", "continent"}


def test_selfplay_table_and_out(tmp_path):
    result = runner.invoke(app, ["selfplay", "--games", "4", "--players", "4", "--bots", "random"])
    assert result.exit_code == 0 and "Win rate by bot" in result.output
    out = tmp_path / "games.csv"
    result = runner.invoke(app, ["selfplay", "--games", "4", "--players", "2", "--bots", "random,aggressive",
                                 "--variant", "two-player", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert len(pd.read_csv(out)) == 4


def test_selfplay_errors_are_one_line():
    for args in (["--bots", "wizard"], ["--bots", "random", "--variant", "risk2210"],
                 ["--bots", "random", "--out", "x.txt"]):
        result = runner.invoke(app, ["selfplay", "--games", "2", "--players", "4", *args])
        assert result.exit_code == 2
        assert len(result.output.strip().splitlines()) == 1 and result.output.startswith("error:")
