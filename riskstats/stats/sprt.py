"""The sequential probability ratio test that stops a head-to-head comparison of two bots: the generalised SPRT
of the engine-testing communities (Fishtest, cutechess-cli), on the logistic Elo scale.

This module owns `sprt` (the test's state after some games: log-likelihood ratio, bounds, decision), `sprt_walk`
(the test run game by game over a sequence of results, stopped where it decides) and `elo_score` (the expected
score of an Elo difference). Playing the games is `riskstats.analysis.strength.head_to_head_sprt`'s.

The hypotheses are on the candidate's Elo difference to the baseline: H0 ``elo = elo0`` (default 0: no better)
against H1 ``elo = elo1`` (default 5), each turned into an expected score per game s = 1 / (1 + 10^(-elo/400))
(`elo_score`). Each game is a win (score 1), a draw (1/2; in Risk a game cut at the turn cap) or a loss (0):

- with no draws the results are binomial and the log-likelihood ratio is exact:
  LLR = W log(s1 / s0) + L log((1 - s1) / (1 - s0));
- with draws it is the generalised (trinomial) LLR: under each hypothesis the win/draw/loss probabilities are the
  ones closest to the observed frequencies (maximum likelihood) whose expected score is s, p_i = f_i / (1 + λ(x_i -
  s)) with λ solving Σ f_i (x_i - s) / (1 + λ(x_i - s)) = 0, and LLR = Σ n_i log(p_i(s1) / p_i(s0)); an outcome
  never seen counts as `PSEUDO_COUNT` games, as Fishtest does, so that both fits exist.

The test stops for H1 once LLR >= log((1 - beta) / alpha) and for H0 once LLR <= log(beta / (1 - alpha)) (Wald's
bounds; alpha and beta the error rates, default 0.05 each); between them it continues.

>>> round(float(sprt(60, 0, 40)["llr"]), 4)
0.2775
>>> sprt(60, 0, 40)["decision"]
'continue'
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from riskstats.errors import RiskstatsError

PSEUDO_COUNT = 1e-3
"""The games an outcome (win, draw or loss) never seen counts as in the trinomial LLR."""
DECISIONS = ("H1", "H0", "continue")
"""The test's decision: accept H1 (the candidate is elo1 better), accept H0 (it is not), or play on."""


def elo_score(elo):
    """The expected score per game of an Elo difference: 1 / (1 + 10^(-elo / 400)).

    >>> float(elo_score(0.0)), round(float(elo_score(400.0)), 4)
    (0.5, 0.9091)
    """
    return 1.0 / (1.0 + 10.0 ** (-np.asarray(elo, float) / 400.0))


def bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's bounds on the LLR: (log(beta / (1 - alpha)), log((1 - beta) / alpha)).

    >>> [round(b, 4) for b in bounds()]
    [-2.9444, 2.9444]
    """
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not 0 < value < 0.5:
            raise RiskstatsError(f"{name} must lie between 0 and 0.5, got {value}")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def _fit_log_probs(freq: np.ndarray, x: np.ndarray, s: float) -> np.ndarray:
    """log p_i of the outcome probabilities closest to ``freq`` (all positive) with expected score ``s``."""
    from scipy.optimize import brentq

    d = x - s  # one outcome below s (a loss) and one above (a win): the root lies strictly inside
    low, high = -1.0 / d.max(), -1.0 / d.min()
    margin = 1e-12 * (high - low)

    def slope(lam):
        return float(np.sum(freq * d / (1.0 + lam * d)))

    lam = brentq(slope, low + margin, high - margin, xtol=1e-14, rtol=1e-14, maxiter=200)
    return np.log(freq) - np.log1p(lam * d)


def _llr(wins: int, draws: int, losses: int, s0: float, s1: float) -> float:
    """The log-likelihood ratio of H1 (expected score s1) against H0 (s0) after these games."""
    if wins + draws + losses == 0:
        return 0.0
    if draws == 0:
        return wins * math.log(s1 / s0) + losses * math.log((1 - s1) / (1 - s0))
    counts = np.array([losses, draws, wins], float)
    counts[counts == 0] = PSEUDO_COUNT
    freq = counts / counts.sum()
    x = np.array([0.0, 0.5, 1.0])
    return float(np.sum(counts * (_fit_log_probs(freq, x, s1) - _fit_log_probs(freq, x, s0))))


def _check(wins, draws, losses, elo0, elo1, alpha, beta):
    counts = []
    for name, value in (("wins", wins), ("draws", draws), ("losses", losses)):
        if isinstance(value, bool) or not float(value).is_integer() or value < 0:
            raise RiskstatsError(f"{name} must be a whole number of games, 0 or more, got {value}")
        counts.append(int(value))
    if not elo1 > elo0:
        raise RiskstatsError(f"elo1 must exceed elo0, got elo0={elo0}, elo1={elo1}")
    return (*counts, float(elo_score(elo0)), float(elo_score(elo1)), *bounds(alpha, beta))


def _decision(llr: float, lower: float, upper: float) -> str:
    return "H1" if llr >= upper else "H0" if llr <= lower else "continue"


def sprt(wins: int, draws: int, losses: int, elo0: float = 0.0, elo1: float = 5.0, alpha: float = 0.05,
         beta: float = 0.05) -> pd.Series:
    """The SPRT of H0 ``elo0`` against H1 ``elo1`` after ``wins``, ``draws`` and ``losses`` of the candidate.

    Parameters
    ----------
    wins, draws, losses : int
        The candidate's results against the baseline (a draw: a game with no winner, such as one cut at the
        turn cap).
    elo0, elo1 : float
        The Elo differences of H0 and H1 (``elo1 > elo0``).
    alpha, beta : float
        The rates of accepting H1 when H0 is true and H0 when H1 is (each below 0.5).

    Returns
    -------
    pandas.Series
        games, wins, draws, losses, score (the mean score per game), llr, lower and upper (Wald's bounds), decision
        (`DECISIONS`), elo0, elo1, alpha, beta.

    >>> test = sprt(620, 0, 380)
    >>> test["decision"], round(float(test["llr"]), 3)
    ('H1', 3.35)
    >>> sprt(30, 10, 60)["decision"]
    'continue'
    """
    wins, draws, losses, s0, s1, lower, upper = _check(wins, draws, losses, elo0, elo1, alpha, beta)
    games = wins + draws + losses
    llr = _llr(wins, draws, losses, s0, s1)
    return pd.Series({"games": games, "wins": wins, "draws": draws, "losses": losses,
                      "score": (wins + draws / 2) / games if games else np.nan, "llr": llr, "lower": lower,
                      "upper": upper, "decision": _decision(llr, lower, upper), "elo0": float(elo0),
                      "elo1": float(elo1), "alpha": float(alpha), "beta": float(beta)}, name="sprt")


def sprt_walk(scores, elo0: float = 0.0, elo1: float = 5.0, alpha: float = 0.05, beta: float = 0.05) -> pd.Series:
    """The SPRT run game by game over a sequence of results, stopped at the first game where it decides.

    Parameters
    ----------
    scores : array of float
        The candidate's score in each game, in the order played: 1 (win), 0.5 (draw) or 0 (loss).
    elo0, elo1, alpha, beta
        As for `sprt`.

    Returns
    -------
    pandas.Series
        `sprt` of the games up to the one where the test decided (all of them, decision ``"continue"``, if it never
        did), with ``played`` (the games in the sequence) after ``games`` (the games the test used).

    >>> walk = sprt_walk([1.0] * 300)  # wins only: H1 after log(19) / log(s1 / s0) games
    >>> walk["decision"], int(walk["games"]), int(walk["played"])
    ('H1', 207, 300)
    """
    scores = np.asarray(scores, float).ravel()
    if not np.isin(scores, (0.0, 0.5, 1.0)).all():
        raise RiskstatsError("each score must be 1 (a win), 0.5 (a draw) or 0 (a loss)")
    _, _, _, s0, s1, lower, upper = _check(0, 0, 0, elo0, elo1, alpha, beta)
    wins, draws = np.cumsum(scores == 1.0), np.cumsum(scores == 0.5)
    losses = np.arange(1, len(scores) + 1) - wins - draws
    stop = len(scores)
    for g in range(len(scores)):
        if _decision(_llr(int(wins[g]), int(draws[g]), int(losses[g]), s0, s1), lower, upper) != "continue":
            stop = g + 1
            break
    used = (int(wins[stop - 1]), int(draws[stop - 1]), int(losses[stop - 1])) if stop else (0, 0, 0)
    result = sprt(*used, elo0=elo0, elo1=elo1, alpha=alpha, beta=beta)
    return pd.concat([result[:"games"], pd.Series({"played": len(scores)}), result["wins":]]).rename("sprt")
