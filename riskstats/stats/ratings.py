"""Ratings of bots from self-play games: Plackett-Luce over finishing orders (the honest model) and
pairwise Bradley-Terry (kept for comparison).

**Plackett-Luce** (`plackett_luce`) models a game's finishing order as a sequence of choices: the winner
is drawn from all seats with probability proportional to exp(theta) of each seat's bot, then second
place from the seats left, and so on (a bot in two seats counts twice). The order comes from the
self-play column ``places`` (`riskstats.runs.selfplay.finishing_places`: the winner, then the
elimination order reversed). Seats that share a place (the survivors of a truncated game, or the
players still in when a mission or capital game is won) contribute no choice term among themselves, only
as members of the earlier choice sets: a partial likelihood, exact for the order that was observed.
Tables without ``places`` (runs written before it) give the winner's choice only. Strengths are fitted
by maximum likelihood with scipy (`tests/stats/test_ratings.py` checks the fit against the ``choix``
library). Uncertainty comes from a bootstrap over *games*: games are resampled with replacement and
refitted, and each interval is the percentile interval of the refits. A bot that never won a place it
was up for (or always won it) has no finite maximum-likelihood strength; its interval is open on that
side (infinite) and it is not ranked against anyone. A bot's ``rank`` is 1 plus the
number of bots credibly stronger than it: those whose bootstrap difference from it excludes zero after
Holm's correction over all pairs (the p-value of a difference is the normal one with its bootstrap
standard deviation, which is not limited by the number of resamples as a count of resamples is).
Bots whose strengths the data do not separate share a rank.

**Bradley-Terry** (`bradley_terry`, `pairwise_results`) decomposes each game into pairs: the winner
beats each other bot seated in it (one comparison per losing seat; seats held by the winner's own bot
and truncated games give none). Its standard errors are too small for multiplayer games: one win
becomes P-1 "independent" comparisons that all share one outcome, so the information is counted about
P-1 times (standard errors about sqrt(P-1) too small), and the order among the losers is thrown away.
P(i beats j) = 1 / (1 + exp(theta_j - theta_i)), centred to mean 0; ``elo`` is the same on the Elo
scale (400 / ln 10 per unit). Standard errors come from the inverse Hessian of the log-likelihood
(restricted to centred strengths). A weak normal prior (sd 10 on theta) keeps both fits finite when a
bot never loses; it moves ordinary ratings by far less than their errors.

>>> import pandas as pd
>>> pairs = pd.DataFrame({"winner": ["a", "a", "a", "b", "b", "c"], "loser": ["b", "c", "b", "c", "c", "a"]})
>>> fit = bradley_terry(pairs)
>>> list(fit["bot"])
['a', 'b', 'c']
"""
from __future__ import annotations

import math

import numpy as np

from riskstats.intervals import wilson_interval

PRIOR_SD = 10.0
ELO = 400 / math.log(10)
BOOT = 1000
"""Bootstrap resamples of `plackett_luce` by default."""


def pairwise_results(table):
    """One row per decomposed comparison: ``winner``, ``loser`` (bot names) of a games table."""
    import pandas as pd

    won = table[~table["truncated"].astype(bool)]
    winners, losers = [], []
    for bots, winner in zip(won["bots"], won["winner"]):
        seats = bots.split(",")
        w = seats[int(winner)]
        for s, b in enumerate(seats):
            if s != winner and b != w:
                winners.append(w)
                losers.append(b)
    return pd.DataFrame({"winner": winners, "loser": losers}, dtype=object)


def bradley_terry(pairs):
    """Fit Bradley-Terry strengths to ``pairs`` (columns winner, loser).

    Returns
    -------
    pandas.DataFrame
        Columns bot, theta, se, elo, elo_se, comparisons, wins; sorted strongest first.
    """
    import pandas as pd
    from scipy.optimize import minimize

    names = sorted(set(pairs["winner"]) | set(pairs["loser"]))
    index = {b: i for i, b in enumerate(names)}
    n = len(names)
    if n == 0:
        return pd.DataFrame(columns=["bot", "theta", "se", "elo", "elo_se", "comparisons", "wins"])
    w = pairs["winner"].map(index).to_numpy(int)
    lo = pairs["loser"].map(index).to_numpy(int)
    count = np.zeros((n, n))
    np.add.at(count, (w, lo), 1.0)

    def nll(theta):
        diff = theta[:, None] - theta[None, :]
        value = np.sum(count * np.logaddexp(0.0, -diff)) + theta @ theta / (2 * PRIOR_SD ** 2)
        p = 1 / (1 + np.exp(-diff))  # P(row beats column)
        grad_matrix = count * (1 - p)
        grad = -(grad_matrix.sum(1) - grad_matrix.sum(0)) + theta / PRIOR_SD ** 2
        return value, grad

    fit = minimize(nll, np.zeros(n), jac=True, method="L-BFGS-B", options={"gtol": 1e-10, "maxiter": 10_000})
    theta = fit.x - fit.x.mean()
    p = 1 / (1 + np.exp(-(theta[:, None] - theta[None, :])))
    weight = (count + count.T) * p * (1 - p)
    hessian = np.diag(weight.sum(1)) - weight + np.eye(n) / PRIOR_SD ** 2
    centre = np.eye(n) - 1.0 / n
    cov = centre @ np.linalg.inv(hessian) @ centre
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    frame = pd.DataFrame({"bot": names, "theta": theta, "se": se, "elo": ELO * theta, "elo_se": ELO * se,
                          "comparisons": count.sum(1) + count.sum(0), "wins": count.sum(1)})
    return frame.sort_values("theta", ascending=False, ignore_index=True)


def pairwise_table(pairs, fit=None):
    """Head-to-head shares of each ordered bot pair with 95% Wilson intervals and the fitted BT probability."""
    import pandas as pd

    fit = bradley_terry(pairs) if fit is None else fit
    theta = dict(zip(fit["bot"], fit["theta"]))
    counts = pairs.groupby(["winner", "loser"]).size()
    rows = []
    for a in fit["bot"]:
        for b in fit["bot"]:
            if a == b:
                continue
            wins, losses = int(counts.get((a, b), 0)), int(counts.get((b, a), 0))
            if wins + losses == 0:
                continue
            low, high = wilson_interval(wins, wins + losses)
            rows.append({"bot": a, "opponent": b, "comparisons": wins + losses, "wins": wins,
                         "share": wins / (wins + losses), "ci_low": low, "ci_high": high,
                         "bt_p": 1 / (1 + math.exp(theta[b] - theta[a]))})
    return pd.DataFrame(rows, columns=["bot", "opponent", "comparisons", "wins", "share", "ci_low", "ci_high",
                                       "bt_p"])


# ---------------------------------------------------------------- Plackett-Luce
def finishing_choices(table):
    """The Plackett-Luce choice events of a games table: ``(names, events, game_events)``.

    ``names`` are the bots (sorted); ``events`` is an int array with one row per distinct event:
    column 0 the chosen bot, columns 1.. the number of seats of each bot in the choice set;
    ``game_events`` lists, game by game, the event rows it contributes.
    """
    bots = table["bots"].str.split(",").to_list()
    names = sorted({b for row in bots for b in row})
    index = {b: i for i, b in enumerate(names)}
    if "places" in table.columns:
        places = [[int(x) for x in row.split(",")] for row in table["places"]]
    else:  # the winner only: winner first, everyone else tied below
        places = [[1 if s == w else 2 for s in range(len(row))] for row, w in zip(bots, table["winner"])]
    rows, lookup, game_events = [], {}, []
    for seats, place in zip(bots, places):
        ids = [index[b] for b in seats]
        order = sorted(range(len(ids)), key=lambda s: place[s])
        events = []
        for k, s in enumerate(order[:-1]):
            tied = (k > 0 and place[order[k - 1]] == place[s]) or place[order[k + 1]] == place[s]
            if tied:
                continue
            key = (ids[s], *np.bincount([ids[t] for t in order[k:]], minlength=len(names)))
            if key not in lookup:
                lookup[key] = len(rows)
                rows.append(key)
            events.append(lookup[key])
        game_events.append(events)
    events = np.array(rows, np.int64).reshape(len(rows), len(names) + 1)
    return names, events, game_events


def _pl_fit(events, counts, start):
    """Centred maximum a-posteriori strengths of Plackett-Luce choice ``events`` seen ``counts`` times.

    ``counts`` is [U] or a batch [B, U] (one fit per row; ``start`` then [B, n]). The log-likelihood plus
    the normal prior is strictly concave, so Newton's method (steps capped at 2 per strength) converges.
    """
    counts = np.atleast_2d(np.asarray(counts, float))
    seats = events[:, 1:].astype(float)                              # [U, n]
    n = seats.shape[1]
    picked = counts @ np.eye(n)[events[:, 0]]                        # [B, n] times each bot was chosen
    theta = np.array(np.broadcast_to(start, (counts.shape[0], n)), float)
    ridge = np.eye(n) / PRIOR_SD ** 2
    for _ in range(200):
        weights = seats[None] * np.exp(theta - theta.max(1, keepdims=True))[:, None, :]   # [B, U, n]
        share = weights / weights.sum(2, keepdims=True)
        expected = np.einsum("bu,bun->bn", counts, share)
        grad = picked - expected - theta / PRIOR_SD ** 2
        hessian = (np.einsum("bu,bun,bum->bnm", counts, share, share) - expected[:, :, None] * np.eye(n)
                   - ridge)
        step = np.linalg.solve(hessian, -grad[:, :, None])[:, :, 0]
        theta += np.clip(step, -2.0, 2.0)
        if np.abs(step).max() < 1e-10:
            break
    theta -= theta.mean(1, keepdims=True)
    return theta if np.ndim(start) == 2 or counts.shape[0] > 1 else theta[0]


def _pl_bootstrap(table, boot, seed):
    """(names, fitted theta, bootstrap theta draws [boot, bots], unbounded [bots, 2]).

    ``unbounded[i]`` says whether bot i's strength has no lower bound (it was never chosen: never won a
    place it was up for) and no upper bound (chosen every time it was up): there the maximum of the
    likelihood is at infinity, every resample agrees, and the bootstrap's spread means nothing."""
    names, events, game_events = finishing_choices(table)
    patterns, game_pattern = np.unique(np.array([",".join(map(str, e)) for e in game_events], dtype=object),
                                       return_inverse=True)
    by_pattern = np.zeros((len(patterns), len(events)))
    for i, pattern in enumerate(patterns):
        for e in (int(x) for x in pattern.split(",") if x):
            by_pattern[i, e] += 1
    freq = np.bincount(game_pattern, minlength=len(patterns))
    theta = _pl_fit(events, freq @ by_pattern, np.zeros(len(names)))
    resample = np.random.default_rng(seed).multinomial(len(table), freq / freq.sum(), size=boot)  # games
    draws = np.concatenate([_pl_fit(events, part @ by_pattern, np.tile(theta, (len(part), 1)))
                            for part in np.array_split(resample, max(1, boot // 250))])
    seen = (freq @ by_pattern) > 0
    up = events[seen, 1:] > 0                                        # [events seen, bots]: bot in the set
    chosen = np.eye(len(names), dtype=bool)[events[seen, 0]]
    unbounded = np.stack([~(up & chosen).any(0), ~(up & ~chosen).any(0)], axis=1)
    return names, theta, draws, unbounded


def _differences(names, theta, draws, unbounded, level):
    """Every ordered pair's strength difference (Elo) with its bootstrap interval and Holm-adjusted p; a
    pair with an unbounded strength gets an unbounded interval and p = 1."""
    import pandas as pd
    from scipy.stats import norm
    from statsmodels.stats.multitest import multipletests

    rows = []
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i < j:
                d = draws[:, i] - draws[:, j]
                p = 2 * norm.sf(abs(theta[i] - theta[j]) / max(d.std(ddof=1), 1e-300))
                low, high = np.quantile(d, [(1 - level) / 2, (1 + level) / 2])
                if unbounded[i].any() or unbounded[j].any():
                    low = -np.inf if unbounded[i, 0] or unbounded[j, 1] else low
                    high = np.inf if unbounded[i, 1] or unbounded[j, 0] else high
                    p = 1.0
                rows.append({"bot": a, "opponent": b, "elo_diff": ELO * (theta[i] - theta[j]),
                             "ci_low": ELO * low, "ci_high": ELO * high, "p_value": p})
    frame = pd.DataFrame(rows, columns=["bot", "opponent", "elo_diff", "ci_low", "ci_high", "p_value"])
    frame["p_holm"] = multipletests(frame["p_value"], method="holm")[1] if len(frame) else []
    frame["significant"] = frame["p_holm"] < 1 - level
    return frame


def _check_boot(boot, level):
    from riskstats.errors import RiskstatsError, check_int

    boot = check_int("boot", boot, 20)
    if not 0 < level < 1:
        raise RiskstatsError(f"level must lie in (0, 1), got {level}")
    return boot


def plackett_luce_ratings(table, *, boot: int = BOOT, seed: int = 0, level: float = 0.95):
    """Plackett-Luce ratings and their pairwise differences: ``(ratings, differences)``.

    See `plackett_luce` (``ratings``) and `rating_differences` (``differences``); this fits and
    bootstraps once for both.
    """
    import pandas as pd

    from riskstats.errors import RiskstatsError, check_int

    boot = _check_boot(boot, level)
    seed = check_int("seed", seed, 0)
    if len(table) == 0:
        raise RiskstatsError("no games to rate")
    names, theta, draws, unbounded = _pl_bootstrap(table, boot, seed)
    diffs = _differences(names, theta, draws, unbounded, level)
    stronger = {b: 0 for b in names}
    for r in diffs[diffs["significant"]].itertuples():
        stronger[r.opponent if r.elo_diff > 0 else r.bot] += 1
    seats = pd.Series([b for row in table["bots"].str.split(",") for b in row]).value_counts()
    games = pd.Series([b for row in table["bots"].str.split(",") for b in set(row)]).value_counts()
    low, high = np.quantile(draws, [(1 - level) / 2, (1 + level) / 2], axis=0)
    low[unbounded[:, 0]], high[unbounded[:, 1]] = -np.inf, np.inf
    sd = np.where(unbounded.any(1), np.inf, draws.std(0, ddof=1))
    ratings = pd.DataFrame({"bot": names, "rank": [1 + stronger[b] for b in names], "elo": ELO * theta,
                            "ci_low": ELO * low, "ci_high": ELO * high, "elo_se": ELO * sd, "theta": theta,
                            "se": sd, "games": [int(games[b]) for b in names],
                            "seats": [int(seats[b]) for b in names]})
    ratings = ratings.sort_values(["rank", "theta"], ascending=[True, False], ignore_index=True)
    return ratings, diffs


def plackett_luce(table, *, boot: int = BOOT, seed: int = 0, level: float = 0.95):
    """Plackett-Luce ratings of the bots of a games table over finishing orders (see the module docstring).

    Parameters
    ----------
    table : pandas.DataFrame
        A self-play table (columns bots, winner and, when present, places).
    boot : int
        Bootstrap resamples of the games (at least 20).
    seed : int
        Seed of the bootstrap.
    level : float
        Confidence level of the intervals and of the test behind ``rank``.

    Returns
    -------
    pandas.DataFrame
        One row per bot, by rank then strength: bot, rank (1 + the number of bots credibly stronger;
        equal ranks are ties), elo (strength on the Elo scale, mean 0), ci_low, ci_high (its bootstrap
        percentile interval, Elo), elo_se (bootstrap standard deviation, Elo), theta and se (the same on
        the natural log-strength scale), games (games it played) and seats (seats it held).

    Examples
    --------
    >>> import pandas as pd
    >>> orders = ["1,2,3"] * 6 + ["2,1,3", "1,3,2", "3,1,2", "2,3,1"] * 2 + ["3,2,1"] * 2
    >>> games = pd.DataFrame({"bots": "a,b,c", "winner": 0, "places": orders * 6})  # places rule
    >>> fit = plackett_luce(games, boot=200, seed=1)
    >>> fit[["bot", "rank"]].values.tolist()  # a and b are not separated: they share rank 1
    [['a', 1], ['b', 1], ['c', 3]]
    """
    return plackett_luce_ratings(table, boot=boot, seed=seed, level=level)[0]


def rating_differences(table, *, boot: int = BOOT, seed: int = 0, level: float = 0.95):
    """Every pair of bots' Plackett-Luce strength difference (Elo) with its bootstrap interval.

    Returns
    -------
    pandas.DataFrame
        bot, opponent, elo_diff (bot minus opponent), ci_low, ci_high (bootstrap percentile interval),
        p_value (two-sided, normal with the bootstrap standard deviation),
        p_holm (Holm-adjusted over all pairs) and significant (``p_holm < 1 - level``).
    """
    return plackett_luce_ratings(table, boot=boot, seed=seed, level=level)[1]
