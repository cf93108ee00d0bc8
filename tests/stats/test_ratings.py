"""Ratings: Bradley-Terry (closed-form two-bot fits, a known ordering, the pair decomposition), the Luce
model of who wins (against choix, ranks from its intervals, its fit test, agreement with win rates on real
self-play) and the Plackett-Luce survival measure."""
import math

import numpy as np
import pandas as pd
import pytest

from riskstats.stats.ratings import (
    ELO,
    bradley_terry,
    luce,
    luce_fit,
    luce_model,
    pairwise_results,
    pairwise_table,
    plackett_luce,
    plackett_luce_fit,
    rating_differences,
    reported_fit,
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
    # choix's penalty is alpha * sum(theta^2); our prior's is sum(theta^2) / (2 PRIOR_SD^2)
    ref = choix.opt_rankings(len(names), rankings, alpha=1 / (2 * PRIOR_SD ** 2), tol=1e-12)
    assert np.allclose(fit.loc[names, "theta"], ref - ref.mean(), atol=1e-8)


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
    diffs = rating_differences(pl_games({"x": 0.5, "y": 0.5, "z": -1.0}, 1000, 2, seed=5), boot=400, seed=1,
                               model="plackett-luce")
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
        diffs = rating_differences(games, boot=300, seed=rep, model="plackett-luce")
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
    diffs = rating_differences(games, boot=100, model="plackett-luce").set_index(["bot", "opponent"])
    assert diffs.ci_high[("x", "z")] == np.inf and diffs.p_value[("x", "z")] == 1.0
    assert diffs.method[("x", "z")] == "open" and not diffs.significant[("x", "z")]


# ---------------------------------------------------------------- Luce: who wins
def luce_games(strength, lineups, games_per_seating, seed, seat_edge=0.0):
    """Synthetic decided games: every line-up in every rotation, ``games_per_seating`` games each, the
    winner drawn from the Luce model (plus ``seat_edge`` on the log-strength of seat 0)."""
    rng = np.random.default_rng(seed)
    rows = []
    for lineup in lineups:
        for r in range(len(lineup)):
            seats = list(lineup[r:]) + list(lineup[:r])
            theta = np.array([strength[b] for b in seats]) + seat_edge * (np.arange(len(seats)) == 0)
            p = np.exp(theta) / np.exp(theta).sum()
            for w in rng.choice(len(seats), games_per_seating, p=p):
                rows.append({"bots": ",".join(seats), "winner": int(w)})
    return pd.DataFrame(rows)


def test_luce_fit_agrees_with_choix_opt_top1():
    choix = pytest.importorskip("choix")
    from riskstats.stats.ratings import PRIOR_SD, winner_choices

    lineups = [("a", "b", "c"), ("a", "b", "d"), ("b", "c", "d"), ("a", "c", "d")]
    games = luce_games({"a": 0.8, "b": 0.1, "c": -0.2, "d": -0.7}, lineups, 25, seed=3)
    fit = luce(games, boot=20).set_index("bot")
    names = winner_choices(games)[0]
    data = [(names.index(row.split(",")[w]), [names.index(b) for s, b in enumerate(row.split(",")) if s != w])
            for row, w in zip(games.bots, games.winner)]
    ref = choix.opt_top1(len(names), data, alpha=1 / (2 * PRIOR_SD ** 2), tol=1e-12)
    assert np.allclose(fit.loc[names, "theta"], ref - ref.mean(), atol=1e-8)


def test_one_lineup_gives_the_log_win_shares():
    """With one line-up the Luce model is saturated: strengths are the logs of the win shares (up to the
    weak prior), and the fit test has nothing to test."""
    games = pd.DataFrame({"bots": ["a,b,c", "b,c,a", "c,a,b"] * 20, "winner": [0, 2, 1] * 10 + [1, 1, 0] * 10})
    ratings, _, fit = luce_model(games, boot=50)
    r = ratings.set_index("bot")
    wins = games.apply(lambda g: g.bots.split(",")[g.winner], axis=1).value_counts()
    expected = np.log(wins / wins.sum())
    assert r.wins.to_dict() == wins.to_dict()
    assert np.allclose(r.theta[wins.index], expected - expected.mean(), atol=1e-3)
    assert (r.games == 60).all() and (r.win_rate == r.wins / 60).all()
    assert fit.df.iloc[0] == 3 * 2 - 2 and fit.cells.iloc[0] == 9  # three seatings, each its own cells


def test_a_bot_that_almost_never_wins_never_shares_the_top_rank():
    """The issue's table: 40, 19 and 1 wins in 60 three-player games. The rank comes from the intervals of
    the differences: the one-win bot is below both others."""
    games = pd.DataFrame({"bots": ["a,b,c", "b,c,a", "c,a,b"] * 20, "winner": 0})
    winners = ["a"] * 40 + ["b"] * 19 + ["c"]
    games["winner"] = [row.split(",").index(w) for row, w in zip(games.bots, winners)]
    ratings, diffs, _ = luce_model(games, boot=1000, seed=7)
    assert ratings.set_index("bot")["rank"].to_dict() == {"a": 1, "b": 2, "c": 3}
    d = diffs.set_index(["bot", "opponent"])
    assert d.ci_low[("a", "c")] > 0 and d.ci_low[("b", "c")] > 0 and d.significant.all()
    assert (d.method == "bootstrap").all()
    # the rank agrees with the printed intervals: significant exactly where the interval excludes 0
    assert (d.significant == ((d.ci_low > 0) | (d.ci_high < 0))).all()


def test_a_bot_that_never_wins_is_judged_by_the_exact_conditional_test():
    few = pd.DataFrame({"bots": ["a,b,z", "b,z,a", "z,a,b"], "winner": [0, 2, 2]})  # a wins 2, b 1, z none
    fit = luce(few, boot=50).set_index("bot")
    assert fit.ci_low["z"] == -np.inf and fit["rank"]["z"] == 1  # 3 games cannot separate anyone
    diffs = rating_differences(few, boot=50).set_index(["bot", "opponent"])
    assert diffs.method[("a", "z")] == "exact" and diffs.p_value[("a", "z")] == pytest.approx(0.5)
    many = pd.concat([few] * 10, ignore_index=True)  # a 20 wins to z's 0: p = 2 / 2^20
    fit = luce(many, boot=50).set_index("bot")
    assert fit["rank"]["a"] == 1 and fit["rank"]["z"] == 3
    diffs = rating_differences(many, boot=50).set_index(["bot", "opponent"])
    assert diffs.p_value[("a", "z")] == pytest.approx(2 * 0.5 ** 20) and diffs.ci_low[("a", "z")] > 0
    assert diffs.ci_high[("a", "z")] == np.inf


def test_luce_fit_test_accepts_the_model_and_rejects_a_seat_effect():
    strength = {"a": 0.6, "b": 0.2, "c": -0.1, "d": -0.7}
    lineups = [("a", "b", "c"), ("a", "b", "d"), ("a", "c", "d"), ("b", "c", "d")]
    fit = luce_fit(luce_games(strength, lineups, 40, seed=1), boot=200, seed=1).iloc[0]
    assert fit.df == 4 * 3 * 2 - 3 and fit.observations == 4 * 3 * 40
    assert fit.p_value > 0.01 and fit.p_boot > 0.01
    skewed = luce_fit(luce_games(strength, lineups, 40, seed=1, seat_edge=0.8), boot=200, seed=1).iloc[0]
    assert skewed.p_value < 1e-6 and skewed.p_boot == pytest.approx(1 / 201)


def test_a_written_fit_has_no_chi_square_p_where_expected_counts_are_small():
    """`reported_fit` (what scripts/bench/bench_strength.py writes to ladder_fit.csv): a line-up seen a few times leaves
    expected counts below MIN_EXPECTED, and the G2 and Pearson p-values are blanked; a large sample keeps them."""
    from riskstats.stats.ratings import MIN_EXPECTED

    strength = {"a": 0.6, "b": 0.2, "c": -0.1, "d": -0.7}
    lineups = [("a", "b", "c"), ("a", "b", "d"), ("a", "c", "d"), ("b", "c", "d")]
    few = luce_fit(luce_games(strength, lineups, 3, seed=1), boot=20, seed=1)
    many = luce_fit(luce_games(strength, lineups, 200, seed=1), boot=20, seed=1)
    assert few.min_expected.iloc[0] < MIN_EXPECTED <= many.min_expected.iloc[0]
    written = reported_fit(few).iloc[0]
    assert np.isnan(written.p_value) and np.isnan(written.pearson_p)
    assert written.g2 == few.g2.iloc[0] and written.p_boot == few.p_boot.iloc[0] and few.p_value.notna().all()
    pd.testing.assert_frame_equal(reported_fit(many), many)


def test_luce_is_seeded_and_skips_games_without_a_winner():
    games = luce_games({"a": 0.3, "b": 0.0, "c": -0.3}, [("a", "b", "c")], 30, seed=2)
    pd.testing.assert_frame_equal(luce(games, boot=50, seed=4), luce(games, boot=50, seed=4))
    stalled = pd.concat([games, pd.DataFrame({"bots": ["a,b,c"] * 5, "winner": -1})], ignore_index=True)
    with_stalls = luce(stalled, boot=50, seed=4).set_index("bot")
    assert (with_stalls.truncated == 5).all() and (with_stalls.games == 90).all()
    assert np.allclose(with_stalls.theta, luce(games, boot=50, seed=4).set_index("bot").theta[with_stalls.index])


def test_plackett_luce_has_its_own_fit_test():
    games = pl_games({"a": 0.8, "b": 0.1, "c": -0.2, "d": -0.7}, 400, 4, seed=3)
    fit = plackett_luce_fit(games, boot=100).iloc[0]
    # choice sets of one 4-bot line-up: the full set (3 df), four 3-bot sets (2 each), six pairs (1 each)
    assert fit.model.startswith("plackett-luce") and fit.df == 3 + 4 * 2 + 6 - 3
    assert fit.p_value > 0.01


@pytest.mark.slow
def test_luce_ratings_agree_with_win_rates_on_real_self_play():
    """The issue's run: 2,000 four-player games of continent, aggressive, defensive and random. Wherever two
    bots' win-rate intervals separate, the Luce ratings order them the same way and rank them apart; the
    survival measure's fit test rejects Plackett-Luce on the same games."""
    from riskstats.runs.selfplay import play_games
    from riskstats.stats.report import win_rates

    games = play_games(2000, 4, "continent,aggressive,defensive,random", seed=1)
    ratings, _, fit = luce_model(games, boot=500, seed=1)
    rates = win_rates(games, "bot").set_index("bot")
    r = ratings.set_index("bot").loc[rates.index]
    assert (r.wins == rates.wins).all() and (r.games == rates.trials).all()
    separated = 0
    for a in rates.index:
        for b in rates.index:
            if rates.ci_low[a] > rates.ci_high[b]:
                separated += 1
                assert r.elo[a] > r.elo[b] and r["rank"][a] < r["rank"][b], (a, b)
    assert separated >= 3
    assert fit.df.iloc[0] == 4 * 3 - 3  # the four rotations of one line-up
    assert plackett_luce_fit(games, boot=100).p_value.iloc[0] < 1e-6
