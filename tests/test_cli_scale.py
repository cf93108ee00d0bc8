"""The selfplay (chunked, resumable), experiment and report commands through CliRunner."""
import json

import pandas as pd
from typer.testing import CliRunner

from riskstats.cli import app
from riskstats.runs.selfplay import play_games

runner = CliRunner()


def one_line_error(result):
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1 and result.output.startswith("error:")


def test_selfplay_directory_resume_and_report(tmp_path):
    args = ["selfplay", "--games", "30", "--players", "3", "--bots", "aggressive,continent,defensive", "--seed", "6",
            "--chunk-size", "8", "--workers", "2", "--out", str(tmp_path / "run")]
    result = runner.invoke(app, args)
    assert result.exit_code == 0 and "wrote 30 games" in result.output
    (tmp_path / "run" / "part-000000000008-000000000016.parquet").unlink()
    assert runner.invoke(app, args).exit_code == 0
    result = runner.invoke(app, ["report", str(tmp_path / "run"), "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    expected = play_games(30, 3, ["aggressive", "continent", "defensive"], seed=6)
    wins = expected.winner_bot.value_counts()
    assert {r["bot"]: r["wins"] for r in payload["win_rate_by_bot"]} == {b: int(wins.get(b, 0)) for b in
                                                                          ["aggressive", "continent", "defensive"]}
    result = runner.invoke(app, ["report", str(tmp_path / "run"), "--out", str(tmp_path / "rep")])
    assert result.exit_code == 0 and "Bradley-Terry" in result.output
    assert (tmp_path / "rep" / "ratings.png").exists() and (tmp_path / "rep" / "win_rate_by_bot_seat.csv").exists()


def test_experiment_command(tmp_path):
    spec = tmp_path / "grid.toml"
    spec.write_text('games = 6\nseed = 1\n[grid]\nplayers = [3]\nbots = ["aggressive,defensive"]\n'
                    '[grid.rules]\nfortify = ["connected", "adjacent"]\n')
    result = runner.invoke(app, ["experiment", str(spec), "--out", str(tmp_path / "exp"), "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["games"] == 12 and {r["rules.fortify"] for r in payload["cells"]} == {"connected", "adjacent"}
    result = runner.invoke(app, ["experiment", str(spec), "--out", str(tmp_path / "exp")])
    assert result.exit_code == 0 and "Experiment" in result.output
    assert runner.invoke(app, ["report", str(tmp_path / "exp"), "--json"]).exit_code == 0


def test_bad_input_is_one_line_before_any_game(tmp_path):
    base = ["selfplay", "--games", "2", "--bots", "random"]
    one_line_error(runner.invoke(app, [*base, "--players", "7"]))
    one_line_error(runner.invoke(app, [*base, "--players", "4", "--variant", "two-player"]))
    one_line_error(runner.invoke(app, [*base, "--players", "4", "--workers", "0"]))
    one_line_error(runner.invoke(app, [*base, "--players", "4", "--out", "x.txt"]))
    one_line_error(runner.invoke(app, [*base, "--players", "4", "--scheduler", "tcp://a:1", "--dask-local", "2"]))
    run = tmp_path / "run"
    assert runner.invoke(app, [*base, "--players", "4", "--out", str(run)]).exit_code == 0
    one_line_error(runner.invoke(app, [*base, "--players", "3", "--out", str(run)]))
    (tmp_path / "foreign.csv").write_text("a,b\n1,2\n")
    one_line_error(runner.invoke(app, ["report", str(tmp_path / "foreign.csv")]))
    one_line_error(runner.invoke(app, ["report", str(tmp_path / "nothing")]))
    (tmp_path / "bad.toml").write_text('games = 2\n[grid]\nplayers = [7]\nbots = ["random"]\n')
    one_line_error(runner.invoke(app, ["experiment", str(tmp_path / "bad.toml"), "--out", str(tmp_path / "e")]))
    csv = tmp_path / "games.csv"
    assert runner.invoke(app, [*base, "--players", "4", "--out", str(csv)]).exit_code == 0
    assert len(pd.read_csv(csv)) == 2
    assert runner.invoke(app, ["report", str(csv), "--json"]).exit_code == 0
