"""Tuning a bot with Optuna: reproducible, resumable studies (riskstats.runs.tune)."""
import numpy as np
import pandas as pd
import pytest

from riskstats.errors import RiskstatsError
from riskstats.game.bots.catalog import parse_bot
from riskstats.runs.selfplay import play_games
from riskstats.runs.tune import check_seeds, measure_bot, trial_seeds, tune

pytest.importorskip("optuna")

TINY = {"bot": "aggressive", "against": "continent,defensive", "players": 3, "games_per_trial": 12, "seed": 5,
        "check_games": 0}


def study(tmp_path, trials, name="db", **kwargs):
    return tune(**(TINY | {"trials": trials, "storage": f"sqlite:///{tmp_path / name}.db"} | kwargs))


def test_a_trial_plays_its_own_seeds(tmp_path):
    table = study(tmp_path, 2)
    assert table["state"].tolist() == ["complete", "complete"] and table["games"].tolist() == [12, 12]
    for row in table.itertuples():
        spec = parse_bot(row.bot)
        assert spec.values == (row.threshold, row.trade_at, 0.0, 0.0, 0.0)
        assert spec.given == ("threshold", "trade_at", "fortify", "reinforce", "claim")
        again = measure_bot(row.bot, TINY["against"], 3, seeds=trial_seeds(5, row.number, 12))
        assert (again["wins"], again["win_rate"]) == (row.wins, row.win_rate)
        assert row.ci_low <= row.win_rate <= row.ci_high


def test_measure_bot_counts_the_candidate_seat():
    seeds = trial_seeds(1, 0, 9)
    result = measure_bot("aggressive", ["aggressive"], 3, seeds=seeds)
    # three copies of one bot: the candidate seat wins a third of the decided games or so, and the
    # count must equal the games won by seat (-g) mod 3
    table = play_games(9, 3, ["aggressive"] * 3, seeds=seeds)
    assert result["wins"] == int((table.winner == (-table.game) % 3).sum())
    assert result["games"] == 9 and result["bot"] == "aggressive"


def test_same_arguments_same_study(tmp_path):
    a = study(tmp_path, 3, "a")
    b = study(tmp_path, 3, "b")
    pd.testing.assert_frame_equal(a, b)


def test_resume_continues_and_matches_a_straight_run(tmp_path):
    first = study(tmp_path, 2, "resumed")
    resumed = study(tmp_path, 4, "resumed")
    assert len(resumed) == 4 and (resumed.state == "complete").all()
    pd.testing.assert_frame_equal(resumed.head(2), first)  # the first two unchanged
    straight = study(tmp_path, 4, "straight")
    pd.testing.assert_frame_equal(resumed, straight)  # the sampler is seeded per trial
    assert len(study(tmp_path, 4, "resumed")) == 4  # nothing left to do


def test_interrupted_trial_is_kept_as_failed_and_the_study_resumes(tmp_path, monkeypatch):
    from riskstats.runs import tune as module

    real = module.measure_bot
    calls = []

    def cut_in_third_trial(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt  # Ctrl-C while the third trial plays
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "measure_bot", cut_in_third_trial)
    with pytest.raises(KeyboardInterrupt):
        study(tmp_path, 4, "cut")
    monkeypatch.setattr(module, "measure_bot", real)
    table = study(tmp_path, 4, "cut")
    assert table.state.tolist() == ["complete", "complete", "fail", "complete", "complete"]
    pd.testing.assert_frame_equal(table.head(2), study(tmp_path, 2, "other"))


def test_fixed_parameters_stay_fixed(tmp_path):
    table = study(tmp_path, 2, bot="continent:entrance_weight=1", against="aggressive")
    assert "entrance_weight" not in table.columns and {"threshold", "card_threshold"} <= set(table.columns)
    assert all(parse_bot(b).values[2] == 1.0 for b in table.bot)


def test_best_is_measured_again_on_fresh_seeds(tmp_path):
    table = study(tmp_path, 3, check_games=30)
    best, default = table.attrs["best"], table.attrs["default"]
    top = table.loc[table.win_rate.idxmax()]
    assert best["trial"] == top.number and best["bot"] == top.bot and best["games"] == 30
    style = {"fortify": 0.0, "reinforce": 0.0, "claim": 0.0}  # not tunable, at their defaults
    assert best["params"] == {"threshold": top.threshold, "trade_at": top.trade_at} | style
    assert default["params"] == {"threshold": 0.5, "trade_at": 3} | style
    assert best["ci_low"] <= best["win_rate"] <= best["ci_high"]
    fresh = set(check_seeds(5, 30).tolist())
    assert not fresh & set(np.concatenate([trial_seeds(5, n, 12) for n in table.number]).tolist())
    assert measure_bot(best["bot"], TINY["against"], 3, seeds=check_seeds(5, 30))["wins"] == best["wins"]


@pytest.mark.parametrize("kwargs, message", [
    ({"bot": "wizard"}, "unknown bot"),
    ({"bot": "aggressive:threshold=0.5:trade_at=3"}, "no parameter left to tune"),
    ({"against": "aggressive:threshold=2"}, "out of range"),
    ({"players": 7}, "players"),
    ({"against": "continent,defensive,random"}, "against: 3 bots for 2 seats"),
    ({"trials": 0}, "trials"),
    ({"games_per_trial": 0}, "games_per_trial"),
    ({"storage": "runs/tune.db"}, "database URL"),
])
def test_bad_input(tmp_path, kwargs, message):
    with pytest.raises(RiskstatsError, match=message):
        tune(**(TINY | {"trials": 1, "storage": f"sqlite:///{tmp_path}/db.db"} | kwargs))


def test_two_players_tune_in_the_two_player_game(tmp_path):
    """Two players in "classic" is the two-player game with the neutral, as in play_games (issue 32 §7)."""
    table = study(tmp_path, 1, players=2, against="continent", games_per_trial=4)
    assert table.attrs["config"]["variant"] == "two-player" and table.attrs["config"]["against"] == "continent"
    assert table.games.tolist() == [4]
    one = measure_bot(table.bot[0], "continent", 2, "two-player", seeds=trial_seeds(5, 0, 4))
    assert table.wins.tolist() == [one["wins"]]


def test_a_study_name_holds_one_tuning(tmp_path):
    study(tmp_path, 1, study="mine")
    with pytest.raises(RiskstatsError, match="tunes something else"):
        study(tmp_path, 1, study="mine", seed=6)
