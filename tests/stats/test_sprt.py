"""The sequential probability ratio test (GSPRT, logistic Elo) that stops a head-to-head comparison."""
import math

import numpy as np
import pytest

from riskstats.errors import RiskstatsError
from riskstats.stats.sprt import bounds, elo_score, sprt, sprt_walk


def test_decisive_games_give_the_binomial_llr_by_hand():
    s0, s1 = 0.5, 1 / (1 + 10 ** (-5 / 400))
    assert elo_score(5.0) == pytest.approx(s1)
    hand = 530 * math.log(s1 / s0) + 470 * math.log((1 - s1) / (1 - s0))
    test = sprt(530, 0, 470)
    assert test.llr == pytest.approx(hand, rel=1e-12) and test.games == 1000 and test.score == 0.53
    assert (test.lower, test.upper) == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
    assert test.decision == "continue" and hand < test.upper


def test_the_trinomial_llr_is_the_ratio_of_the_constrained_maximum_likelihoods():
    """Checked against a direct maximisation of the win/draw/loss likelihood with the score fixed."""
    from scipy.optimize import minimize_scalar

    wins, draws, losses = 420, 180, 400
    counts = np.array([losses, draws, wins], float)

    def best(s):  # p_win free, p_draw = 2 (s - p_win), p_loss = 1 - p_win - p_draw
        def minus(p_win):
            p = np.array([1 - p_win - 2 * (s - p_win), 2 * (s - p_win), p_win])
            return np.inf if (p <= 0).any() else -float(counts @ np.log(p))
        lo, hi = max(0.0, 2 * s - 1), s
        return -minimize_scalar(minus, bounds=(lo + 1e-12, hi - 1e-12), method="bounded",
                                options={"xatol": 1e-13}).fun

    hand = best(float(elo_score(30.0))) - best(float(elo_score(-10.0)))
    assert sprt(wins, draws, losses, elo0=-10, elo1=30).llr == pytest.approx(hand, abs=1e-6)


def test_a_stream_at_plus_20_elo_accepts_h1_and_one_at_minus_10_accepts_h0():
    rng = np.random.default_rng(2026)
    better = (rng.random(60_000) < elo_score(20.0)).astype(float)
    walk = sprt_walk(better)
    assert walk.decision == "H1" and walk.llr >= walk.upper and walk.games < walk.played
    worse = (rng.random(60_000) < elo_score(-10.0)).astype(float)
    assert sprt_walk(worse).decision == "H0"
    # with draws (a game cut at the turn cap scores 1/2): a trinomial stream at +20 Elo
    u = rng.random(60_000)
    p_win, p_draw = elo_score(20.0) - 0.1, 0.2  # score = p_win + p_draw / 2
    with_draws = np.where(u < p_win, 1.0, np.where(u < p_win + p_draw, 0.5, 0.0))
    walk = sprt_walk(with_draws)
    assert walk.decision == "H1" and walk.draws > 0
    assert walk.llr == pytest.approx(sprt(walk.wins, walk.draws, walk.losses).llr)


def test_the_walk_stops_at_the_first_game_past_a_bound():
    walk = sprt_walk([1.0] * 300)
    step = math.log(elo_score(5.0) / 0.5)
    assert walk.games == math.ceil(bounds()[1] / step) and walk.played == 300
    short = sprt_walk([1.0, 0.0] * 10)
    assert short.decision == "continue" and short.games == 20


def test_bad_input_is_refused():
    with pytest.raises(RiskstatsError, match="elo1 must exceed elo0"):
        sprt(1, 0, 1, elo0=5, elo1=0)
    with pytest.raises(RiskstatsError, match="alpha must lie"):
        sprt(1, 0, 1, alpha=0.7)
    with pytest.raises(RiskstatsError, match="whole number"):
        sprt(-1, 0, 1)
    with pytest.raises(RiskstatsError, match="each score"):
        sprt_walk([1.0, 0.3])
    assert sprt(0, 0, 0).llr == 0.0 and sprt(0, 0, 0).decision == "continue"
