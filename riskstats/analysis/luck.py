"""Luck against skill: how many games separate two bots, and how much of a result the seed decides.

- `games_to_separate`: the fewest two-player games (decided ones) in which an exact two-sided binomial
  test tells apart two bots whose strength differs by a given number of Elo points (the stronger wins a
  game with probability 1 / (1 + 10^(-d/400))), at a given power. Exact binomial power is a sawtooth in
  the number of games, so the answer is the first n from which the power never falls below the target
  again (up to ``max_games``); the normal approximation (statsmodels) is given beside it.
- `seed_share`: a paired design on one seed list. Two runs play the same games (same seeds: the same
  deal, the same dice stream) with the two bots' seats swapped. Three figures, each with its interval:
  the stronger bot's edge (its win rate), the first mover's edge (seat 0's win rate), and how far the
  same seat wins both games of a pair beyond what the line-ups predict: the correlation of "seat 0 won"
  between the two games after removing each line-up's mean (the bots' edge would otherwise dominate
  it), the share of the seat outcome's variance that the seed (deal and dice) fixes whoever sits where.
  Positive: the seed favours a seat; negative: it favours a bot, whatever its seat; 0: it decides
  nothing the bots do not. The dice stream is shared, but the games part as soon as the bots play
  differently, so the correlation measures the deal and the early dice more than the late ones.
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from riskstats.errors import RiskstatsError, check_int
from riskstats.intervals import wilson_interval


def elo_win_probability(elo: float) -> float:
    """The stronger side's chance to win one game, ``elo`` points apart (logistic Elo scale).

    >>> round(elo_win_probability(100), 4)
    0.6401
    """
    return 1.0 / (1.0 + 10.0 ** (-float(elo) / 400.0))


def _exact_power(n: np.ndarray, p: float, alpha: float) -> np.ndarray:
    from scipy.stats import binom

    # the two-sided equal-tails test of 1/2 rejects for X >= k or X <= n - k, k the smallest count with
    # P(X >= k | 1/2) <= alpha / 2
    k = binom.isf(alpha / 2, n, 0.5) + 1
    return binom.sf(k - 1, n, p) + binom.cdf(n - k, n, p)


def games_to_separate(elo: Iterable[float], level: float = 0.95, power: float = 0.8,
                      max_games: int = 2_000_000) -> pd.DataFrame:
    """The decided two-player games needed to tell apart two bots ``elo`` points apart.

    Parameters
    ----------
    elo : iterable of float
        Strength differences in Elo points, each > 0.
    level : float
        The test's confidence level (alpha = 1 - level, two-sided).
    power : float
        The chance of a significant result that is wanted.
    max_games : int
        Largest number of games searched.

    Returns
    -------
    DataFrame
        One row per difference: ``elo``, ``p`` (the stronger bot's chance per game), ``games`` (exact:
        the first n from which the power stays at least ``power``), ``power_at_games`` and
        ``games_normal`` (the normal approximation, statsmodels' ``NormalIndPower`` for one sample).

    >>> games_to_separate([200])[["elo", "games"]].to_dict("records")
    [{'elo': 200.0, 'games': 33}]
    """
    from statsmodels.stats.power import NormalIndPower
    from statsmodels.stats.proportion import proportion_effectsize

    if not 0 < level < 1 or not 0 < power < 1:
        raise RiskstatsError(f"level and power must lie in (0, 1), got {level} and {power}")
    max_games = check_int("max_games", max_games, 1)
    rows = []
    for d in elo:
        d = float(d)
        if not np.isfinite(d) or d <= 0:
            raise RiskstatsError(f"an Elo difference must be a positive number, got {d}")
        p = elo_win_probability(d)
        normal = NormalIndPower().solve_power(proportion_effectsize(p, 0.5), alpha=1 - level, power=power, ratio=0)
        top = int(min(max_games, max(100, 4 * np.ceil(normal) + 100)))
        n = np.arange(1, top + 1)
        below = np.flatnonzero(_exact_power(n, p, 1 - level) < power)
        if len(below) and below[-1] == top - 1:
            raise RiskstatsError(f"{d:g} Elo needs more than max_games={max_games} games")
        games = int(n[below[-1] + 1]) if len(below) else 1
        rows.append({"elo": d, "p": p, "games": games,
                     "power_at_games": float(_exact_power(np.array([games]), p, 1 - level)[0]),
                     "games_normal": int(np.ceil(normal))})
    return pd.DataFrame(rows)


def _seat0_won(table: pd.DataFrame) -> np.ndarray:
    return np.where(table["winner"].to_numpy() < 0, -1, (table["winner"].to_numpy() == 0).astype(int))


def seed_share(first: pd.DataFrame, second: pd.DataFrame, bot: str, boot: int = 2000, seed: int = 0,
               level: float = 0.95) -> pd.DataFrame:
    """Bot edge, seat edge and the seed's share of a two-player result, from two seat-swapped runs.

    Parameters
    ----------
    first, second : DataFrame
        `play_games` tables of the same seeds and two-bot line-up, with the line-up reversed in ``second``
        (``play_games(n, 2, "A,B", seed=s)`` and ``play_games(n, 2, "B,A", seed=s)``: game g of each has
        the same seed and the bots in swapped seats).
    bot : str
        The bot whose edge is reported (one of the two).
    boot : int
        Bootstrap resamples of the pairs, for the correlation's interval.
    seed : int
        Seed of the bootstrap.
    level : float

    Returns
    -------
    DataFrame
        Rows ``bot edge`` (``bot``'s win rate over both runs' decided games), ``seat edge`` (seat 0's win
        rate) and ``seed correlation`` (of "seat 0 won" between a pair's games, each centred on its line-up's
        mean, over pairs decided in both runs; percentile bootstrap interval), each with ``estimate``,
        ``ci_low``, ``ci_high``, ``n``
        (games, or pairs for the correlation) and ``truncated`` (games, or pairs, left out as stalled).
    """
    from statistics import NormalDist

    if len(first) != len(second) or not np.array_equal(first["seed"].to_numpy(), second["seed"].to_numpy()):
        raise RiskstatsError("the two runs must play the same seeds in the same order")
    if not (first["players"] == 2).all() or not (second["players"] == 2).all():
        raise RiskstatsError("seed_share compares two-player games")
    swapped = first["bots"].str.split(",").str[::-1].str.join(",")
    if not np.array_equal(swapped.to_numpy(), second["bots"].to_numpy()):
        raise RiskstatsError("the second run must seat the bots the other way round in every game")
    if bot not in set(first["bots"].str.split(",").explode()):
        raise RiskstatsError(f"bot {bot!r} does not play in these games")
    boot = check_int("boot", boot, 10)
    z = NormalDist().inv_cdf(0.5 + level / 2)
    both = pd.concat([first, second], ignore_index=True)
    decided = both[both["winner"] >= 0]
    rows = []
    for label, wins in (("bot edge", int((decided["winner_bot"] == bot).sum())),
                        ("seat edge", int((decided["winner"] == 0).sum()))):
        low, high = wilson_interval(wins, len(decided), z) if len(decided) else (np.nan, np.nan)
        rows.append({"measure": label, "estimate": wins / len(decided) if len(decided) else np.nan,
                     "ci_low": low, "ci_high": high, "n": len(decided), "truncated": len(both) - len(decided)})
    a, b = _seat0_won(first), _seat0_won(second)
    keep = (a >= 0) & (b >= 0)
    a, b = a[keep].astype(float), b[keep].astype(float)
    _, lineup = np.unique(first["bots"].to_numpy()[keep], return_inverse=True)

    def phi(i):  # the correlation of the pairs i's outcomes, each centred on its line-up's mean
        x, y, g = a[i], b[i], lineup[i]
        counts = np.bincount(g).clip(1)
        x = x - (np.bincount(g, x) / counts)[g]
        y = y - (np.bincount(g, y) / counts)[g]
        norm = np.sqrt((x * x).sum() * (y * y).sum())
        return float((x * y).sum() / norm) if norm > 0 else np.nan

    rng = np.random.default_rng(seed)
    draws = [phi(i) for i in rng.integers(0, len(a), (boot, len(a)))] if len(a) else []
    low, high = (np.nanquantile(draws, [(1 - level) / 2, (1 + level) / 2]) if len(draws) else (np.nan, np.nan))
    rows.append({"measure": "seed correlation", "estimate": phi(np.arange(len(a))) if len(a) else np.nan,
                 "ci_low": float(low),
                 "ci_high": float(high), "n": int(keep.sum()), "truncated": int((~keep).sum())})
    return pd.DataFrame(rows)
