"""scripts/make/findings.py (issue 52 item 2): the one command that reruns the findings' experiments reads the top tier
from the one place (riskstats.runs.tiers.TIER_SETS), plays a small sample of the same code, and resumes."""

import pandas as pd
import pytest

from tests.scripts import load_script

SEARCH, MODEL = "search:rollouts=8:horizon=1:plans=6:value=formula", "search:rollouts=8:horizon=0:plans=8:value=model"


@pytest.fixture(scope="module")
def findings():
    return load_script("make", "findings.py")


def test_each_set_plays_its_own_tiers_and_the_judging_one_what_was_committed(findings, tmp_path):
    from riskstats.runs.tiers import JUDGING

    steps = {s["name"]: s for s in findings.plan("top_hunter", tmp_path) if "cells" in s}
    assert set(steps) == set(findings.EXPERIMENTS)
    for step in steps.values():
        lineups = [c["label"]["bots"] for c in step["cells"]]
        assert all(b.startswith("hunter") for b in lineups) and step["out"].name == "top_hunter"
        players = [c["label"]["players"] for c in step["cells"]]
        against = [b.split(",")[1] for b in lineups if "," in b and not b.split(",")[1].startswith("hunter")]
        assert against and set(against) == ({MODEL} if set(players) == {2} else {SEARCH})  # the next best by format
    assert steps["continent_first_top"]["spec"]["games"] == 5000
    judged = findings.plan(JUDGING, tmp_path)  # the judging set's: the hunter's (issue 52)
    assert all(c["label"]["bots"].startswith("hunter") for s in judged for c in s.get("cells", ()))
    former = findings.plan("top", tmp_path)
    assert all("hunter" not in c["label"]["bots"] for s in former for c in s.get("cells", ()))


def test_a_sample_run_plays_resumes_and_logs(findings, tmp_path, capsys):
    args = ["--set", "top_hunter", "--games", "4", "--only", "two_player_top", "--out", str(tmp_path), "--workers", "1"]
    assert findings.main(args) == 0
    from riskstats.runs.experiment import read_experiment

    games = read_experiment(tmp_path / "two_player" / "top_hunter")
    assert len(games) == 8 and set(games.lineup) == {"hunter", f"hunter,{MODEL}"}
    assert findings.main(args) == 0  # resumed: nothing left to play
    log = pd.read_csv(tmp_path / "findings_runs.csv")
    assert log.played.tolist() == [8, 0] and (log.games == 8).all()
    assert findings.main(["--set", "nope", "--list"]) == 1
    assert "unknown tier set 'nope'" in capsys.readouterr().err


def test_a_set_with_sizes_reruns_the_programs_with_its_tiers_and_a_sample_shrinks_every_size(findings, tmp_path):
    steps = {s["name"]: s for s in findings.plan("top_hunter", tmp_path) if "program" in s}
    assert set(steps) == set(findings.PROGRAMS)
    assert all(s["argv"][:2] == ["--set", "top_hunter"] for s in steps.values())
    assert steps["placement_experiment"]["out"] == tmp_path / "placement" / "top_hunter"
    cards = dict(zip(steps["card_escalation"]["argv"][::2], steps["card_escalation"]["argv"][1::2]))
    assert cards["--timing-games"] == "4000" and cards["--out"] == str(tmp_path / "card_escalation")
    sample = {s["name"]: s["argv"] for s in findings.plan("top_hunter", tmp_path, games=3) if "program" in s}
    breaking = dict(zip(sample["break_value"][::2], sample["break_value"][1::2]))
    assert breaking["--games"] == breaking["--chunk"] == "3" and breaking["--outcomes"] == "4"
    assert not [s for s in findings.plan("top", tmp_path) if "program" in s]  # its programs' runs predate the sets


def test_a_sample_program_run_writes_each_tier_and_logs_it(findings, tmp_path):
    args = ["--set", "top_hunter", "--games", "3", "--only", "mission_games", "--out", str(tmp_path)]
    assert findings.main(args) == 0
    for folder in ("hunter", "next_best"):
        games = pd.read_csv(tmp_path / "missions" / "top_hunter" / folder / "games.csv")
        assert len(games) == 3 and games.bots.str.contains("hunter").all()
    log = pd.read_csv(tmp_path / "findings_runs.csv")
    assert log.experiment.tolist() == ["mission_games"] and log.cpu_s.iloc[0] > 0
