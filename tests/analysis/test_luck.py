"""Luck against skill: exact game counts and the paired seat-swap design."""
import numpy as np
import pytest
from scipy.stats import binom

from riskstats.analysis.luck import _exact_power, elo_win_probability, games_to_separate, seed_share
from riskstats.errors import RiskstatsError
from riskstats.runs.selfplay import play_games


def test_game_counts_fall_with_the_gap_and_reach_the_power():
    frame = games_to_separate([25, 50, 100, 200])
    assert frame["games"].is_monotonic_decreasing
    assert (frame["power_at_games"] >= 0.8).all()
    # close to the normal approximation, never far below it
    assert ((frame["games"] >= 0.8 * frame["games_normal"]) & (frame["games"] <= 1.5 * frame["games_normal"])).all()


def test_exact_power_is_the_binomial_tails():
    n, p = 40, 0.7
    k = int(binom.isf(0.025, n, 0.5)) + 1  # the smallest count of an upper-tail rejection
    assert binom.sf(k - 1, n, 0.5) <= 0.025 < binom.sf(k - 2, n, 0.5)
    assert np.isclose(_exact_power(np.array([n]), p, 0.05)[0], binom.sf(k - 1, n, p) + binom.cdf(n - k, n, p))
    # at no difference the test's size is at most alpha
    assert (_exact_power(np.arange(1, 300), 0.5, 0.05) <= 0.05 + 1e-12).all()


def test_the_power_stays_above_target_from_the_answer_on():
    games = int(games_to_separate([100])["games"].iloc[0])
    p = elo_win_probability(100)
    assert (_exact_power(np.arange(games, 4 * games), p, 0.05) >= 0.8).all()
    assert _exact_power(np.array([games - 1]), p, 0.05)[0] < 0.8


def test_bad_gaps():
    with pytest.raises(RiskstatsError, match="positive"):
        games_to_separate([0])
    with pytest.raises(RiskstatsError, match="max_games"):
        games_to_separate([1], max_games=100)


def test_seed_share_on_swapped_runs():
    first = play_games(120, 2, "continent-tuned,random", seed=3)
    second = play_games(120, 2, "random,continent-tuned", seed=3)
    frame = seed_share(first, second, "continent-tuned", boot=200).set_index("measure")
    assert frame.loc["bot edge", "estimate"] > 0.6  # continent-tuned beats random
    assert frame.loc["bot edge", "ci_low"] > 0.5
    assert frame.loc["bot edge", "n"] + frame.loc["bot edge", "truncated"] == 240
    r = frame.loc["seed correlation"]
    assert -1 <= r.ci_low <= r.estimate <= r.ci_high <= 1


def test_the_seed_correlation_is_one_when_the_seed_alone_decides_the_seat():
    import pandas as pd

    rng = np.random.default_rng(1)
    seat = rng.integers(0, 2, 400)  # the seed's favoured seat wins both games of its pair
    first = pd.DataFrame({"seed": np.arange(400), "players": 2, "bots": np.where(np.arange(400) % 2, "b,a", "a,b"),
                          "winner": seat})
    first["winner_bot"] = [row.bots.split(",")[w] for row, w in zip(first.itertuples(), seat)]
    second = first.assign(bots=np.where(np.arange(400) % 2, "a,b", "b,a"))
    second["winner_bot"] = [row.bots.split(",")[w] for row, w in zip(second.itertuples(), seat)]
    frame = seed_share(first, second, "a", boot=100).set_index("measure")
    assert frame.loc["seed correlation", "estimate"] == pytest.approx(1.0)
    assert frame.loc["bot edge", "ci_low"] < 0.5 < frame.loc["bot edge", "ci_high"]  # a is no stronger than b
    with pytest.raises(RiskstatsError, match="other way round"):
        seed_share(first, first, "random")
    with pytest.raises(RiskstatsError, match="same seeds"):
        seed_share(first, play_games(120, 2, "random,continent-tuned", seed=4), "random")
