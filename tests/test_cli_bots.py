"""The bots and tune commands, and bot parameters on the command line, through typer's CliRunner."""
import json

import pytest
from typer.testing import CliRunner

from riskstats.cli import app
from riskstats.game.bots.catalog import CATALOG

runner = CliRunner()


def one_line_error(result, *words):
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1 and result.output.startswith("error:")
    for word in words:
        assert word in result.output


def test_bots_lists_every_bot_with_its_parameters():
    payload = json.loads(runner.invoke(app, ["bots", "--json"]).output)
    assert [b["name"] for b in payload["bots"]] == list(CATALOG)
    defensive = next(b for b in payload["bots"] if b["name"] == "defensive")
    assert [p["name"] for p in defensive["params"]] == ["threshold", "max_conquests", "sure_threshold", "trade_at",
                                                      "fortify", "reinforce", "claim"]
    assert defensive["params"][1]["integer"] and defensive["description"].startswith("Trades cards only")
    result = runner.invoke(app, ["bots"])
    assert result.exit_code == 0 and "entrance_weight" in result.output and "continent-tuned" in result.output


@pytest.mark.parametrize("columns, width", [(None, 100), ("80", 80), ("120", 120)])
def test_bots_wraps_every_table_to_the_width(monkeypatch, columns, width):
    """Every bot's table and description fit the terminal's width, or 100 columns on a pipe (issue 42, item 4:
    the aggressive and continent tables ran to 527 characters in a file)."""
    from riskstats.cli.common import PROSE_PIPE_WIDTH

    assert PROSE_PIPE_WIDTH == 100
    monkeypatch.delenv("COLUMNS", raising=False)
    result = runner.invoke(app, ["bots"], env={"COLUMNS": columns})  # CliRunner's stdout is no terminal: a pipe
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(map(len, lines)) <= width
    assert [name for name in CATALOG if any(line.strip() == name for line in lines)] == list(CATALOG)
    text = " ".join(result.stdout.replace("│", " ").split())
    assert "attacks while the best attack's exact P(conquer) is at least this" in text  # wrapped, not cut


def test_selfplay_takes_bot_parameters():
    result = runner.invoke(app, ["selfplay", "--games", "6", "--players", "3", "--bots",
                                 "continent:threshold=0.6:card_threshold=0.8,aggressive", "--seed", "2", "--json"])
    assert result.exit_code == 0, result.output
    assert set(json.loads(result.stdout)["bots"]) == {"continent:threshold=0.6:card_threshold=0.8", "aggressive"}


@pytest.mark.parametrize("bots, words", [
    ("continent:treshold=0.6,aggressive", ["treshold", "continent"]),
    ("continent:threshold=1.5", ["threshold=1.5", "out of range"]),
])
def test_bad_bot_parameters_are_one_line(bots, words):
    result = runner.invoke(app, ["selfplay", "--games", "2", "--players", "3", "--bots", bots])
    one_line_error(result, *words)


def test_tune_resumes_and_reports_fresh_games(tmp_path):
    pytest.importorskip("optuna")
    args = ["tune", "aggressive", "--against", "continent,defensive", "--players", "3", "--games-per-trial", "9",
            "--seed", "3", "--storage", f"sqlite:///{tmp_path}/sub/tune.db", "--check-games", "12", "--json"]
    first = runner.invoke(app, [*args, "--trials", "2"])
    assert first.exit_code == 0, first.output
    payload = json.loads(runner.invoke(app, [*args, "--trials", "3"]).stdout)  # stderr: "resumed: ..."
    assert [t["number"] for t in payload["trials"]] == [0, 1, 2]
    assert payload["trials"][:2] == json.loads(first.stdout)["trials"]
    assert payload["best"]["games"] == 12 and payload["default"]["bot"] == "aggressive"
    assert payload["against"] == "continent,defensive" and payload["games_per_trial"] == 9
    table = runner.invoke(app, [*args[:-1], "--trials", "3"])
    assert table.exit_code == 0 and "Measured again on 12 fresh games" in table.output


def test_tune_plays_the_two_player_game_as_selfplay_does(tmp_path):
    """--players 2 tunes in the two-player game with the neutral, as selfplay plays it (issue 32 §7)."""
    pytest.importorskip("optuna")
    result = runner.invoke(app, ["tune", "continent", "--against", "aggressive", "--players", "2", "--trials", "1",
                                 "--games-per-trial", "2", "--check-games", "2", "--seed", "1",
                                 "--storage", f"sqlite:///{tmp_path}/t.db", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["players"] == 2 and payload["variant"] == "two-player" and payload["against"] == "aggressive"
    assert payload["best"]["games"] == payload["default"]["games"] == 2


def test_tune_errors_are_one_line(tmp_path):
    pytest.importorskip("optuna")
    base = ["tune", "aggressive", "--players", "3", "--trials", "1", "--games-per-trial", "3",
            "--storage", f"sqlite:///{tmp_path}/t.db"]
    one_line_error(runner.invoke(app, [*base, "--against", "wizard"]), "wizard")
    fixed = "aggressive:threshold=0.5:trade_at=3"
    one_line_error(runner.invoke(app, ["tune", fixed, *base[2:], "--against", "random"]), "no parameter left")
