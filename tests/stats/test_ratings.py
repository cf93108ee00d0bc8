"""Bradley-Terry ratings: closed-form two-bot fits, a known ordering, and the pair decomposition."""
import math

import numpy as np
import pandas as pd
import pytest

from riskstats.stats.ratings import bradley_terry, pairwise_results, pairwise_table


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
