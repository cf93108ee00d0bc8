"""The selfplay command, through typer's CliRunner."""
import json

import pandas as pd
import pytest
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


def test_selfplay_with_more_bots_than_seats_is_an_error_and_writes_nothing(tmp_path):
    """Six bots for four seats used to play the first four and record all six (issue 32)."""
    out = tmp_path / "runs" / "mix"
    result = runner.invoke(app, ["selfplay", "--games", "2000", "--players", "4", "--bots",
                                 "continent,aggressive,defensive,random,value,search", "--seed", "3",
                                 "--out", str(out)])
    assert result.exit_code == 2
    assert result.output.startswith("error: 6 bots for 4 seats: continent, aggressive, defensive, random, value, "
                                    "search") and len(result.output.strip().splitlines()) == 1
    assert not out.exists()


def test_resuming_another_run_names_its_differences_first(tmp_path):
    """The "different run" line leads with the settings that differ, not the records' parameter arrays."""
    from riskstats.runs.results import open_run
    from riskstats.runs.tournament import RunConfig

    out = tmp_path / "mix"
    open_run(out, RunConfig(2000, 4, ("continent", "aggressive", "defensive", "random"), seed=3).record())
    result = runner.invoke(app, ["selfplay", "--games", "2000", "--players", "3", "--bots",
                                 "continent,aggressive,defensive", "--seed", "0", "--out", str(out)])
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1
    assert result.output.startswith(f"error: {out} holds a different run: players: stored 4, asked 3; seed: "
                                    "stored 3, asked 0; bots: ")
    assert "[" not in result.output and len(result.output) < 300 + len(str(out))


def test_selfplay_two_players_is_the_neutral_game():
    result = runner.invoke(app, ["selfplay", "--games", "4", "--players", "2", "--bots", "aggressive,random",
                                 "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["variant"] == "two-player" and set(payload["win_reasons"]) <= {"opponent_eliminated", "turn_cap"}


def test_selfplay_out_summary_streams_and_equals_the_loaded_one(tmp_path, monkeypatch):
    """With --out the summary is counted piece by piece from the file (never read whole), and it is the summary of
    the whole table, for a run directory, a .parquet and a .csv file alike."""
    from riskstats.runs import results
    from riskstats.runs.results import read_results
    from riskstats.stats.report import summary

    monkeypatch.setattr(results, "ROW_GROUP", 4)  # several row groups and CSV pieces
    args = ["selfplay", "--games", "15", "--players", "3", "--bots", "aggressive,continent,random", "--seed", "5",
            "--chunk-size", "4", "--json"]
    loaded = json.loads(runner.invoke(app, args).stdout)  # no --out: the table in memory
    read_whole = []  # calls of the reader of whole tables
    reader = results._read_results
    monkeypatch.setattr(results, "_read_results", lambda *a: read_whole.append(a) or reader(*a))
    for name in ("run", "games.parquet", "games.csv"):
        out = tmp_path / name
        payload = json.loads(runner.invoke(app, [*args, "--out", str(out)]).stdout)
        assert not read_whole, name
        for key in ("bots", "seats", "mean_turns", "mean_rounds", "truncated", "win_reasons", "games"):
            assert payload[key] == loaded[key], (name, key)
        table = read_results(out)
        expected = json.loads(json.dumps(summary(table)))
        assert {k: payload[k] for k in expected} == expected
        assert payload["win_reasons"] == table["win_reason"].value_counts().to_dict()
        read_whole.clear()


@pytest.mark.parametrize("out", [False, True])
def test_ctrl_c_stops_a_selfplay_chunk_at_once(tmp_path, out):
    """Chunks of 100,000 games take minutes each, but Ctrl-C (a real SIGINT, sent 3 s after the bar shows,
    in the first chunk) ends the run within seconds, exit 130: the games are played in short calls. With
    --out the finished chunks are kept (none here) and the chunk under way is not; without, nothing is."""
    from riskstats.runs.selfplay import play_games
    from tests.cli_helpers import interrupt_on_a_terminal

    play_games(2, 3, ["aggressive"])  # the kernel into numba's cache
    args = ["selfplay", "--games", "1e6", "--players", "3", "--bots", "aggressive", "--chunk-size", "1e5"]
    if out:
        args += ["--out", tmp_path / "run"]
    status, err, took, screen = interrupt_on_a_terminal(args, rb"games/s", delay=3.0)
    assert took is not None, (status, err, screen[-2000:])
    assert status == 130 and took < 3, (status, took, err)
    if out:
        assert "finished chunks are kept in" in err and "the chunk under way is not" in err
        assert not list((tmp_path / "run").glob("part-*"))
    else:
        assert "interrupted: no games kept" in err


def test_selfplay_takes_any_rule_option_as_key_value():
    result = runner.invoke(app, ["selfplay", "--games", "4", "--players", "3", "--bots", "aggressive", "--json",
                                 "--rule", "max_turns=2", "--rule", "fortify=adjacent",
                                 "--rule", "dice.defender_dice=3"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["truncated"] == 4  # every game stopped at the two-turn cap
    for args, message in ((["--mission-deck", "european", "--rule", "mission_deck=standard"], "given twice"),
                          (["--rule", "colour=red"], "unknown rule option colour"),
                          (["--rule", "variant=mission"], "unknown rule option variant")):
        result = runner.invoke(app, ["selfplay", "--games", "2", "--players", "4", "--bots", "random", *args])
        assert result.exit_code == 2 and message in result.output
        assert len(result.output.strip().splitlines()) == 1 and result.output.startswith("error:")


def test_experiment_takes_rule_options_over_the_files(tmp_path):
    spec = tmp_path / "grid.toml"
    spec.write_text('games = 3\nseed = 1\n[rules]\nmax_turns = 50\n[grid]\nplayers = [3]\nbots = ["aggressive"]\n')
    result = runner.invoke(app, ["experiment", str(spec), "--out", str(tmp_path / "exp"), "--json",
                                 "--rule", "max_turns=2"])
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "exp" / "experiment.json").read_text())
    assert manifest["cells"][0]["run"]["rules"]["max_turns"] == 2
