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


def test_report_on_an_experiment_is_per_cell_with_treatment_effects(tmp_path):
    spec = tmp_path / "grid.toml"
    spec.write_text('games = 30\nseed = 2\n[grid]\nplayers = [3, 4]\nbots = ["aggressive,continent,defensive"]\n'
                    '[grid.params]\naggressive = [[0.5], [0.8]]\n')
    assert runner.invoke(app, ["experiment", str(spec), "--out", str(tmp_path / "exp")]).exit_code == 0
    result = runner.invoke(app, ["report", str(tmp_path / "exp"), "--json", "--boot", "50"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert [(c["cell"], c["players"], c["params.aggressive"]) for c in payload["cells"]] == [
        ("cell-000", 3, "threshold=0.5"), ("cell-001", 3, "threshold=0.8"), ("cell-002", 4, "threshold=0.5"),
        ("cell-003", 4, "threshold=0.8")]  # named, not the file's vectors [0.5] and [0.8]
    seats = [(r["cell"], r["seat"]) for r in payload["win_rate_by_seat"]]
    assert seats == [(f"cell-00{c}", s) for c in range(4) for s in range(3 if c < 2 else 4)]
    assert {r["share"] for r in payload["win_rate_by_seat"]} == {1 / 3, 1 / 4}
    assert all({"rank", "ci_low", "ci_high", "cell"} <= set(r) for r in payload["ratings"])
    effects = payload["treatment_effects"]
    assert [(e["cell"], e["control_cell"], e["treatment"]) for e in effects] == [
        ("cell-001", "cell-000", "threshold=0.8"), ("cell-003", "cell-002", "threshold=0.8")]
    assert all(e["games"] == 30 and e["ci_low"] <= e["effect"] <= e["ci_high"] for e in effects)
    result = runner.invoke(app, ["report", str(tmp_path / "exp"), "--boot", "50", "--out", str(tmp_path / "rep")])
    assert result.exit_code == 0 and "cell-003: 4 players, classic," in result.output  # rich wraps the rest
    assert "aggressive:threshold=0.8" in result.output
    assert "Treatment effects" in result.output and "Plackett-Luce" in result.output
    assert (tmp_path / "rep" / "win_rate_by_seat_cell-002.png").exists()
    # the paired interval's method is named, and the correlation that makes it narrower or wider is shown
    text = " ".join(result.output.replace("│", " ").split())
    assert "the paired interval (MOVER of Clopper-Pearson (discordant split) and Wilson (discordant share))" in text
    assert "corr." in text and "the paired interval is the narrower where it is positive" in text


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
