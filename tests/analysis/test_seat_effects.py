"""Seat effects: shares against 1/P, the family of tests with Holm, first out, stalled games kept out."""
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from riskstats.analysis.seat_effects import arms, first_out, label_arms, seat_shares, seat_tests
from riskstats.errors import RiskstatsError

EXPERIMENTS = Path(__file__).resolve().parents[2] / "scripts" / "experiments"


def games(population, players, winners, stalled=0):
    winner = list(winners) + [-1] * stalled
    return pd.DataFrame({"population": population, "players": players, "setting": "classic",
                         "bots": ",".join(["x"] * players), "winner": winner,
                         "truncated": [False] * len(winners) + [True] * stalled})


def test_a_stalled_game_is_no_trial_and_is_reported():
    table = games("p", 4, [0] * 10 + [1] * 10 + [2] * 10 + [3] * 10, stalled=10)
    shares = seat_shares(table)
    assert shares.trials.tolist() == [40] * 4 and shares.truncated.tolist() == [10] * 4
    assert shares.truncated_share.iloc[0] == pytest.approx(0.2)
    assert shares.win_rate.tolist() == [0.25] * 4  # not 10/50: a stalled game is no loss for every seat
    tests = seat_tests(table)
    fair = tests[tests.test == "fair share"].iloc[0]
    assert fair.n == 40 and fair.truncated == 10 and fair.statistic == pytest.approx(0.0)


def test_the_g_test_matches_the_formula_and_holm_runs_over_the_whole_family():
    a = games("a", 3, [0] * 50 + [1] * 30 + [2] * 20)
    b = games("b", 3, [0] * 34 + [1] * 33 + [2] * 33)
    tests = seat_tests(pd.concat([a, b], ignore_index=True))
    assert tests.test.tolist() == ["fair share", "seat 0", "fair share", "seat 0", "populations differ"]
    observed = np.array([50, 30, 20])
    g2 = 2 * (observed * np.log(observed / (100 / 3))).sum()
    assert tests.statistic.iloc[0] == pytest.approx(g2) and tests.df.iloc[0] == 2
    differ = tests.iloc[-1]
    assert differ.population == "a | b" and differ.df == 2 and differ.n == 200
    # Holm over all five: the smallest p is multiplied by 5
    assert tests.p_holm.min() == pytest.approx(min(1.0, 5 * tests.p_value.min()))
    assert bool(tests.significant.iloc[0]) and not bool(tests.significant.iloc[2])


def test_populations_that_agree_are_not_separated():
    rng = np.random.default_rng(3)
    both = pd.concat([games(p, 4, rng.integers(0, 4, 2000)) for p in ("a", "b")], ignore_index=True)
    differ = seat_tests(both).query("test == 'populations differ'").iloc[0]
    assert differ.p_value > 0.001 and differ.df == 3


def test_first_out_by_bot_and_by_seat_from_the_places():
    table = pd.DataFrame({"bots": ["a,b,c,d", "b,c,d,a", "c,d,a,b", "d,a,b,c", "a,b,c,d"],
                          "places": ["1,4,2,3", "4,1,3,2", "2,3,1,4", "1,1,1,1", "2,1,4,3"],
                          "players": 4, "winner": [0, 1, 2, -1, 1], "truncated": [False] * 3 + [True, False]})
    bots = first_out(table, groups=()).set_index("bot")
    assert bots.first_out.to_dict() == {"a": 0, "b": 3, "c": 1, "d": 0}
    assert bots.trials.tolist() == [4] * 4 and bots.no_elimination.iloc[0] == 1 and bots.fair.iloc[0] == 0.25
    seats = first_out(table, by="seat", groups=()).set_index("seat")
    assert seats.first_out.tolist() == [1, 1, 1, 1]


def test_bad_input_is_one_line():
    with pytest.raises(RiskstatsError, match="population"):
        seat_tests(pd.DataFrame({"bots": ["a,a"], "winner": [0], "players": 2, "truncated": False}))
    with pytest.raises(RiskstatsError, match="by must be"):
        first_out(games("p", 3, [0]), by="turn")


def test_the_committed_experiments_in_small(tmp_path):
    """The notebook's experiments (scripts/experiments/*.toml), a few games each: labelled and tested."""
    from riskstats.runs.experiment import load_experiment, run_experiment

    folders = []
    for name, players in (("seat_advantage_value", [3]), ("two_player_value", [2]),
                          ("first_player_heuristic", [2])):
        spec = load_experiment(EXPERIMENTS / f"{name}.toml") | {"games": 12, "chunk_size": 12}
        spec["grid"] = spec["grid"] | {"players": players}
        if name == "first_player_heuristic":
            spec["grid"] = spec["grid"] | {"bots": ["random", "aggressive"]}
        run_experiment(spec, tmp_path / name)
        folders.append(tmp_path / name)
    table = arms(folders)
    assert set(table.population) == {"value in every seat", "random in every seat", "aggressive in every seat"}
    assert set(table.setting) == {"classic", "neutral (40 each + 40 neutral)", "50 each, claim by choice",
                                  "50 each, dealt"}
    assert "value:rollouts=1:plans=4" in table.bots.iloc[0]  # the full spec, as played
    tests = seat_tests(table)
    assert (tests.p_holm >= tests.p_value).all() and len(tests) >= 2 * 4
    assert len(label_arms(table)) == len(table)
