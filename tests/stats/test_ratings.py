"""Bradley-Terry ratings: closed-form two-bot fits, a known ordering, and the pair decomposition."""
import math

import numpy as np
import pandas as pd
import pytest

from riskstats.stats.ratings import (
    ELO,
    bradley_terry,
    pairwise_results,
    pairwise_table,
    plackett_luce,
    rating_differences,
)


def pairs(counts):
    rows = [(w, lo) for (w, lo), n in counts.items() for _ in range(n)]
    return pd.DataFrame(rows, columns=["winner", "loser"])


def test_two_bots_match_the_closed_form():
    fit = bradley_terry(pairs({("a", "b"): 30, ("b", "a"): 10})).set_index("bot")
    diff = fit.theta["a"] - fit.theta["b"]
    assert diff == pytest.approx(math.log(3), abs=2e-3)  # the weak prior shrinks by < 0.1%
    assert fit.theta.sum() == pytest.approx(0, abs=1e-12)
    # Var(theta_a - theta_b) = 1 / (n p (1 - p)); each centred strength has half its sd
    assert fit.se["a"] == pytest.approx(0.5 / math.sqrt(40 * 0.75 * 0.25), rel=1e-2)
    assert fit.elo["a"] == pytest.approx(400 / math.log(10) * fit.theta["a"])


def test_known_ordering_is_recovered():
    rng = np.random.default_rng(0)
    truth = {"strong": 1.0, "middle": 0.0, "weak": -1.0}
    rows = []
    for _ in range(3000):
        a, b = rng.choice(list(truth), 2, replace=False)
        p = 1 / (1 + math.exp(truth[b] - truth[a]))
        rows.append((a, b) if rng.random() < p else (b, a))
    fit = bradley_terry(pd.DataFrame(rows, columns=["winner", "loser"]))
    assert list(fit.bot) == ["strong", "middle", "weak"]
    for row in fit.itertuples():
        assert abs(row.theta - truth[row.bot]) < 3 * row.se


def test_a_bot_that_never_loses_stays_finite():
    fit = bradley_terry(pairs({("a", "b"): 5, ("b", "c"): 5})).set_index("bot")
    assert np.isfinite(fit.theta).all() and fit.theta["a"] > fit.theta["b"] > fit.theta["c"]


def test_multiplayer_games_decompose_into_winner_beats_each_loser():
    games = pd.DataFrame({"bots": ["a,b,c", "b,c,a", "a,a,b"], "winner": [0, 2, 1], "truncated": [False] * 3})
    got = pairwise_results(games)
    assert sorted(map(tuple, got.to_numpy())) == [("a", "b"), ("a", "b"), ("a", "b"), ("a", "c"), ("a", "c")]
    table = pairwise_table(got).set_index(["bot", "opponent"])
    assert table.loc[("a", "b"), "wins"] == 3 and table.loc[("a", "b"), "share"] == 1.0


# ---------------------------------------------------------------- Plackett-Luce
def pl_games(strength, games, players, seed):
    """Synthetic games: line-ups drawn from ``strength`` (bot -> theta), finishing orders drawn from the
    Plackett-Luce model (the Gumbel trick: sort theta + Gumbel noise), places written as self-play does."""
    rng = np.random.default_rng(seed)
    names = list(strength)
    rows = []
    for _ in range(games):
        seats = rng.choice(names, players, replace=False)
        keys = np.array([strength[b] for b in seats]) + rng.gumbel(size=players)
        place = np.empty(players, int)
        place[np.argsort(-keys)] = np.arange(1, players + 1)
        rows.append({"bots": ",".join(seats), "winner": int(np.argmin(place)), "places": ",".join(map(str, place))})
    return pd.DataFrame(rows)


def test_plackett_luce_fit_agrees_with_choix():
    choix = pytest.importorskip("choix")
    from riskstats.stats.ratings import PRIOR_SD, finishing_choices

    games = pl_games({"a": 0.8, "b": 0.1, "c": -0.2, "d": -0.7}, 300, 4, seed=3)
    fit = plackett_luce(games, boot=20).set_index("bot")
    names, _, _ = finishing_choices(games)
    rankings = [tuple(names.index(b) for _, b in sorted(zip(map(int, p.split(",")), row.split(","))))
                for row, p in zip(games.bots, games.places)]
    ref = choix.opt_rankings(len(names), rankings, alpha=1 / PRIOR_SD ** 2, tol=1e-12)
    assert np.allclose(fit.loc[names, "theta"], ref - ref.mean(), atol=1e-4)  # choix stops at its tol


def test_known_strengths_are_recovered_within_intervals():
    truth = {"strong": 1.0, "good": 0.4, "fair": -0.3, "weak": -1.1}
    fit = plackett_luce(pl_games(truth, 1500, 3, seed=11), boot=400, seed=2).set_index("bot")
    for bot, theta in truth.items():
        elo = ELO * (theta - np.mean(list(truth.values())))
        assert fit.ci_low[bot] < elo < fit.ci_high[bot], bot
    assert fit["rank"].to_dict() == {"strong": 1, "good": 2, "fair": 3, "weak": 4}
    assert (fit.ci_high - fit.ci_low).max() < 120  # informative, not just wide
    assert (fit.games == fit.seats).all() and fit.seats.sum() == 1500 * 3


def test_equal_strengths_are_reported_as_a_tie():
    fit = plackett_luce(pl_games({"x": 0.5, "y": 0.5, "z": -1.0}, 1000, 2, seed=5), boot=400, seed=1).set_index("bot")
    assert fit["rank"].to_dict() == {"x": 1, "y": 1, "z": 3}
    diffs = rating_differences(pl_games({"x": 0.5, "y": 0.5, "z": -1.0}, 1000, 2, seed=5), boot=400, seed=1)
    tie = diffs[(diffs.bot == "x") & (diffs.opponent == "y")].iloc[0]
    assert tie.ci_low < 0 < tie.ci_high and not tie.significant
    assert diffs[diffs.opponent == "z"].significant.all()


def test_bootstrap_is_seeded():
    games = pl_games({"a": 0.3, "b": 0.0, "c": -0.3}, 200, 3, seed=1)
    pd.testing.assert_frame_equal(plackett_luce(games, boot=50, seed=4), plackett_luce(games, boot=50, seed=4))
    assert not plackett_luce(games, boot=50, seed=4).equals(plackett_luce(games, boot=50, seed=5))


@pytest.mark.slow
def test_bootstrap_intervals_cover_the_truth():
    """Coverage sanity: over 60 synthetic data sets the 95% intervals of a fixed difference hold the truth
    in 50 to 60 of them (a binomial(60, 0.95) lies there with probability 0.998). Pairwise Bradley-Terry's
    standard error of the same games is smaller than the spread of its own estimate over the 60 data
    sets: each four-player win is counted as three independent comparisons."""
    truth = {"a": 0.6, "b": 0.0, "c": -0.2, "d": -0.4}
    covered = 0
    bt_theta, bt_se = [], []
    for rep in range(60):
        games = pl_games(truth, 200, 4, seed=100 + rep)
        diffs = rating_differences(games, boot=300, seed=rep)
        ab = diffs[(diffs.bot == "a") & (diffs.opponent == "b")].iloc[0]
        covered += ab.ci_low < ELO * 0.6 < ab.ci_high
        bt = bradley_terry(pairwise_results(games.assign(truncated=False))).set_index("bot")
        bt_theta.append(bt.theta["a"])
        bt_se.append(bt.se["a"])
    assert 50 <= covered <= 60
    assert np.std(bt_theta, ddof=1) > 1.2 * np.mean(bt_se)


def test_finishing_choices_skip_ties_and_fall_back_to_the_winner():
    from riskstats.stats.ratings import finishing_choices

    games = pd.DataFrame({"bots": ["a,b,c,d", "a,b,c,d"], "winner": [-1, 1], "places": ["1,4,1,1", "3,1,2,4"]})
    names, events, per_game = finishing_choices(games)
    assert names == ["a", "b", "c", "d"]
    # truncated game: a, c, d tied first, b out first: no term at all (b is alone at the bottom)
    assert per_game[0] == []
    # full order b > c > a > d: b from all, c from {a, c, d}, a from {a, d}
    assert [tuple(events[e]) for e in per_game[1]] == [(1, 1, 1, 1, 1), (2, 1, 0, 1, 1), (0, 1, 0, 0, 1)]
    names, events, per_game = finishing_choices(games.drop(columns="places"))
    assert per_game[0] == [] and [tuple(events[e]) for e in per_game[1]] == [(1, 1, 1, 1, 1)]


def test_a_bot_that_never_wins_a_place_has_an_open_interval_and_no_rank_claim():
    # z finishes last in every game: no finite strength; every resample agrees, so its bootstrap spread is 0
    games = pd.DataFrame({"bots": "x,y,z", "winner": 0, "places": ["1,2,3", "2,1,3"] * 10})
    fit = plackett_luce(games, boot=100).set_index("bot")
    assert fit.ci_low["z"] == -np.inf and np.isfinite(fit.ci_high["z"]) and fit.elo_se["z"] == np.inf
    assert fit["rank"].to_dict() == {"x": 1, "y": 1, "z": 1}
    diffs = rating_differences(games, boot=100).set_index(["bot", "opponent"])
    assert diffs.ci_high[("x", "z")] == np.inf and diffs.p_value[("x", "z")] == 1.0
