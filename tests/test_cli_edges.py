"""The rough edges of the new-user trial (issue 13, section 4): each one a CliRunner test."""
import json
import os
import subprocess
import sys

import pandas as pd
import pytest
from typer.testing import CliRunner

from riskstats.cli import BOT_NAMES, MAX_STATES, app

runner = CliRunner()
SELFPLAY = ["selfplay", "--players", "3", "--bots", "aggressive,continent", "--seed", "3"]


def one_line_error(result, *words):
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.output
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


# ------------------------------------------------------------ tracebacks become one-line errors
def test_unwritable_selfplay_out_is_one_line():
    one_line_error(runner.invoke(app, [*SELFPLAY, "--games", "2", "--out", "/proc/nope"]), "/proc/nope")


def test_malformed_scheduler_is_one_line():
    pytest.importorskip("distributed")
    one_line_error(runner.invoke(app, [*SELFPLAY, "--games", "2", "--scheduler", "notaurl"]), "notaurl")


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    run = tmp_path_factory.mktemp("edges") / "run"
    assert runner.invoke(app, [*SELFPLAY, "--games", "6", "--chunk-size", "2", "--out", str(run)]).exit_code == 0
    return run


def test_report_out_must_be_a_writable_directory_of_its_own(tmp_path, run_dir):
    existing = tmp_path / "afile"
    existing.write_text("x")
    one_line_error(runner.invoke(app, ["report", str(run_dir), "--out", str(existing)]), "not a directory")
    one_line_error(runner.invoke(app, ["report", str(run_dir), "--out", "/proc/nope/report"]), "cannot write")
    before = sorted(p.name for p in run_dir.iterdir())
    one_line_error(runner.invoke(app, ["report", str(run_dir), "--out", str(run_dir)]), "holds a run")
    other = tmp_path / "other"
    assert runner.invoke(app, [*SELFPLAY, "--games", "2", "--out", str(other)]).exit_code == 0
    one_line_error(runner.invoke(app, ["report", str(run_dir), "--out", str(other)]), "holds a run")
    assert sorted(p.name for p in run_dir.iterdir()) == before and len(list(other.iterdir())) == 2
    fresh = tmp_path / "rep"
    result = runner.invoke(app, ["report", str(run_dir), "--out", str(fresh)])
    assert result.exit_code == 0 and (fresh / "ratings.csv").exists()
    assert runner.invoke(app, ["report", str(run_dir), "--out", str(fresh)]).exit_code == 0  # a report folder again


# ------------------------------------------------------------ resume that tells the truth
def test_a_csv_run_resumes_and_says_it_is_complete(tmp_path):
    out = tmp_path / "games.csv"
    args = [*SELFPLAY, "--games", "6", "--chunk-size", "4", "--out", str(out)]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "wrote 6 games" in first.stderr and "Win rate by bot" in first.stdout
    text = out.read_text()
    assert json.loads((tmp_path / "games.csv.json").read_text())["games"] == 6
    again = runner.invoke(app, args)
    assert again.exit_code == 0, again.output
    assert "complete, nothing to play: 6 games" in again.stderr and "wrote" not in again.output
    assert first.stdout == again.stdout and out.read_text() == text
    from riskstats.runs.results import read_results

    assert read_results(out).attrs["run"]["seed"] == 3
    one_line_error(runner.invoke(app, [*SELFPLAY[:-1], "4", "--games", "6", "--out", str(out)]),
                   "holds a different run: seed: stored 3, asked 4")


def test_a_partial_run_says_how_many_games_were_present(tmp_path):
    run = tmp_path / "run"
    args = [*SELFPLAY, "--games", "10", "--chunk-size", "4", "--out", str(run), "--json"]
    full = runner.invoke(app, args)
    (run / "part-000000000004-000000000008.parquet").unlink()
    resumed = runner.invoke(app, args)
    assert resumed.exit_code == 0, resumed.output
    assert "resumed: 6 of 10 games present" in resumed.stderr and "wrote 4 games" in resumed.stderr
    first, second = json.loads(full.stdout), json.loads(resumed.stdout)
    assert (first["games_played"], second["games_played"]) == (10, 4)
    assert {k: v for k, v in first.items() if k != "games_played"} == \
        {k: v for k, v in second.items() if k != "games_played"}


# ------------------------------------------------------------ output that doesn't mislead
def test_odds_with_a_goal_shows_no_zero_win_row():
    result = runner.invoke(app, ["odds", "20", "12", "--goal", "2"])
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "P(win)" not in text and "96.8477%" in text and "down to 2" in text
    assert "P(win)" in runner.invoke(app, ["odds", "20", "12"]).stdout


def test_territory_armies_names_the_input():
    line = one_line_error(runner.invoke(app, ["odds", "1", "5", "--territory-armies"]), "at least 2 armies")
    assert "got 1" in line and "got 0" not in line
    assert json.loads(runner.invoke(app, ["odds", "2", "5", "--territory-armies", "--json"]).stdout)["attackers"] == 1


def test_table_refuses_csv_and_json_together():
    one_line_error(runner.invoke(app, ["table", "--attackers", "2", "--defenders", "2", "--format", "csv", "--json"]),
                   "not both")
    both = runner.invoke(app, ["table", "--attackers", "2", "--defenders", "2", "--format", "json", "--json"])
    assert both.exit_code == 0 and len(json.loads(both.stdout)) == 4


def test_simulate_says_why_there_is_no_exact_value():
    args = ["simulate", "4000", "3000", "--trials", "20", "--seed", "1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0 and "not computed" in result.stdout and "10,000,000" in result.stdout
    payload = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    assert payload["p_win_exact"] is None and "not computed" in payload["exact_note"]


def test_selfplay_json_counts_games_and_seats_per_bot():
    payload = json.loads(runner.invoke(app, [*SELFPLAY, "--games", "6", "--json"]).stdout)
    # aggressive,continent over 3 seats: aggressive sits twice in every game
    assert payload["bots"]["aggressive"]["games"] == 6 and payload["bots"]["aggressive"]["seats"] == 12
    assert payload["bots"]["continent"]["games"] == 6 and payload["bots"]["continent"]["seats"] == 6
    assert sum(r["wins"] for r in payload["bots"].values()) == 6 - payload["truncated"]


# ------------------------------------------------------------ runaway work is refused
def test_runaway_odds_and_need_are_refused_quickly():
    line = one_line_error(runner.invoke(app, ["odds", "1000000", "1000000"]), f"{MAX_STATES:,}")
    assert "1,000,000,000,000" in line
    one_line_error(runner.invoke(app, ["table", "--attackers", "1001", "--defenders", "1000"]),
                   "= 1,001,000 rows, over the command line's limit of 1,000,000")
    one_line_error(runner.invoke(app, ["chain", "100000", "5000", "5000"]), "limit")
    one_line_error(runner.invoke(app, ["need", "1000000", "--p", "0.5"]), "limit of 5,000")
    assert runner.invoke(app, ["need", "10", "--p", "0.5"]).exit_code == 0


# ------------------------------------------------------------ the CLI explains itself
def test_version():
    from riskstats import __version__

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.strip() == f"riskstats {__version__}"


def test_selfplay_help_lists_the_bots():
    from riskstats.game.bots.catalog import BOTS

    assert BOT_NAMES == tuple(BOTS)
    text = " ".join(runner.invoke(app, ["selfplay", "--help"]).stdout.split())
    assert all(name in text for name in BOT_NAMES)


def test_continents_fits_80_columns_and_explains_itself():
    result = runner.invoke(app, ["continents"], terminal_width=80)
    assert result.exit_code == 0
    assert max(map(len, result.stdout.splitlines())) <= 80
    text = " ".join(result.stdout.split())
    assert "North America" in text and "entries: territories outside it" in text and "payback turns:" in text


def test_compile_notice_on_a_cold_cache_only(tmp_path):
    """A fresh numba cache compiles (one line on stderr, JSON on stdout intact); the next run loads it."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    command = [sys.executable, "-m", "riskstats", "odds", "100", "100", "--json"]
    cold = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    assert cold.stderr.strip() == "compiling (first run only)…"
    assert json.loads(cold.stdout)["p_win"] > 0.5
    warm = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    assert warm.stderr == "" and warm.stdout == cold.stdout


def test_on_compile_calls_back_once_per_compiling_block():
    from numba import njit

    from riskstats._numba import on_compile

    calls = []
    f = njit(lambda x: x + 1)
    with on_compile(lambda: calls.append(1)):
        assert f(1) == 2 and f(2.5) == 3.5  # two compilations, one call
    assert calls == [1]
    with on_compile(lambda: calls.append(2)):
        f(3)  # compiled already
    assert calls == [1]


def test_out_prints_the_same_tables_as_a_run_in_memory(tmp_path):
    """--out only adds files and the status lines on stderr: the tables are those of a run in memory."""
    memory = runner.invoke(app, [*SELFPLAY, "--games", "4"])
    stored = runner.invoke(app, [*SELFPLAY, "--games", "4", "--out", str(tmp_path / "r.parquet")])
    assert memory.exit_code == stored.exit_code == 0
    assert memory.stdout == stored.stdout
    assert len(pd.read_parquet(tmp_path / "r.parquet")) == 4
