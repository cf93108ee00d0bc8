"""Ratings of bots from self-play games: who wins (the winner-only Luce model, the primary rating), who
survives (Plackett-Luce over finishing orders, a separately named survival measure) and pairwise
Bradley-Terry (kept for comparison). Every rating comes with a goodness-of-fit test of its model.

**Luce, who wins** (`luce`, the rating a report leads with) models the winner of a game alone: the
winner is drawn from the seats with probability proportional to exp(theta) of each seat's bot, so
P(bot b wins a game) = k_b exp(theta_b) / sum_j k_j exp(theta_j), k_j the seats bot j holds. Every
decided game is one observation; a game stopped at the turn cap has no winner and is left out (its count
is reported, it is never a loss). With one line-up the fitted strengths are the logs of the win shares
(the fit is saturated); across line-ups it pools what each says. The objective is choix's
``opt_top1`` MAP objective with ``alpha = 1 / (2 PRIOR_SD**2)`` (``tests/stats/test_ratings.py`` holds the
fits to 1e-8); the fit itself is a batched Newton solver of that objective, because choix's gradient
drops repeated items (a bot in two seats) and its per-game Python loop is too slow for the bootstrap.

**Plackett-Luce, who survives** (`plackett_luce`) models the whole finishing order as a sequence of such
choices: the winner from all seats, then second place from the seats left, and so on. The order comes
from the self-play column ``places`` (`riskstats.runs.selfplay.finishing_places`: the winner, then the
elimination order reversed). Seats that share a place (the survivors of a truncated game, or the players
still in when a mission or capital game is won) contribute no choice term among themselves, only as
members of the earlier choice sets. It rewards surviving as much as winning, and does not fit self-play
(its fit test says so): use it as a survival measure, not as the rating.

**Fit tests** (`luce_fit`, `plackett_luce_fit`): the likelihood-ratio statistic G^2 and Pearson's X^2 over
the cells the model predicts against the saturated model that gives each its own distribution: for the
Luce model every seating as played (which bot in which seat, so the test also asks whether a bot's chance
depends on its seat, which the model ignores) x its winning bot; for Plackett-Luce every choice set (the
bots still to be placed) x the bot chosen. Degrees of freedom: sum over seatings (sets) of (bots in it - 1)
minus (bots - 1); p from the chi-square law, and from a parametric bootstrap (winners redrawn from the
fitted model, each seating's (set's) number of games kept, refitted), which holds when cells are small.
A saturated fit (0 degrees of freedom) has nothing to test: p is NaN.

**Uncertainty and ranks** (both models): games are resampled with replacement and refitted; each interval
is the percentile interval of the refits, and every pair's difference gets the percentile interval of
its refitted differences. A bot's ``rank`` is 1 plus the number of bots whose difference from it has an
interval entirely above 0, so a rank is claimed exactly where the printed interval of a difference
excludes 0 (each pair at the stated level, not corrected over pairs; ``p_holm`` gives that correction for
readers who want it). Bots the data do not separate share a rank. A bot that never won a choice it was
up for (or won every one) has no finite maximum-likelihood strength and every resample agrees, so the
bootstrap says nothing about it: its interval is open on that side. In the Luce model a pair with such a
bot is judged by the exact conditional test the model implies (among games both sat in and one of them
won, the share won by each is binomial; the interval is Clopper-Pearson's, on the Elo scale); in
Plackett-Luce such a pair is not separated (its interval is the whole line).

**Bradley-Terry** (`bradley_terry`, `pairwise_results`) decomposes each game into pairs: the winner
beats each other bot seated in it (one comparison per losing seat; seats held by the winner's own bot
and truncated games give none). Its standard errors are too small for multiplayer games: one win
becomes P-1 "independent" comparisons that all share one outcome, so the information is counted about
P-1 times (standard errors about sqrt(P-1) too small), and the order among the losers is thrown away.
P(i beats j) = 1 / (1 + exp(theta_j - theta_i)), centred to mean 0; ``elo`` is the same on the Elo
scale (400 / ln 10 per unit). Standard errors come from the inverse Hessian of the log-likelihood
(restricted to centred strengths). A weak normal prior (sd 10 on theta) keeps every fit finite when a
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
MIN_EXPECTED = 5.0
"""The smallest expected cell count at which a fit's chi-square p-values (G2's ``p_value``, Pearson's ``pearson_p``)
are reported (Cochran's rule): below it they are kept in the fit's row, beside ``min_expected``, but not printed
(`riskstats.stats.report.fit_words`) nor carried into ``tiers.csv`` (`riskstats.stats.verdicts.tiers_table`);
the parametric bootstrap's ``p_boot`` is the one to read. A fit written to a file (``ladder_fit.csv``,
`reported_fit`) leaves them blank there."""


def reported_fit(fit):
    """A fit test's rows as they are written to a file (``ladder_fit.csv``): the chi-square p-values (G2's
    ``p_value``, Pearson's ``pearson_p``) blank (NaN) in a row whose smallest expected count ``min_expected`` is below
    `MIN_EXPECTED`; the statistics, the parametric bootstrap's ``p_boot`` and the rest as they are. A copy.

    >>> import pandas as pd
    >>> fit = pd.DataFrame({"g2": [5771.4, 3.2], "p_value": [0.927, 0.2], "pearson_p": [5.5e-6, 0.3],
    ...                     "p_boot": [0.008, 0.25], "min_expected": [0.04, 6.0]})
    >>> reported_fit(fit)[["p_value", "pearson_p", "p_boot"]].values.tolist()
    [[nan, nan, 0.008], [0.2, 0.3, 0.25]]
    """
    out = fit.copy()
    if "min_expected" in out.columns:
        small = out["min_expected"].to_numpy(float) < MIN_EXPECTED
        for column in ("p_value", "pearson_p"):
            if column in out.columns:
                out[column] = out[column].astype(float).mask(small)
    return out


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


def winner_choices(table):
    """The Luce model's choice events of a games table: `finishing_choices` of the winners alone (one
    event per decided game, none for a game without a winner)."""
    return finishing_choices(table.drop(columns="places", errors="ignore"))


def _bootstrap(choices, n_games, boot, seed):
    """(fitted theta, bootstrap theta draws [boot, bots], unbounded [bots, 2]) of choice events.

    Games (``n_games``, including those that give no event) are resampled with replacement and refitted.
    ``unbounded[i]`` says whether bot i's strength has no lower bound (it was never chosen: never won a
    choice it was up for) and no upper bound (chosen every time it was up): there the maximum of the
    likelihood is at infinity, every resample agrees, and the bootstrap's spread means nothing."""
    names, events, game_events = choices
    patterns, game_pattern = np.unique(np.array([",".join(map(str, e)) for e in game_events], dtype=object),
                                       return_inverse=True)
    by_pattern = np.zeros((len(patterns), len(events)))
    for i, pattern in enumerate(patterns):
        for e in (int(x) for x in pattern.split(",") if x):
            by_pattern[i, e] += 1
    freq = np.bincount(game_pattern, minlength=len(patterns))
    theta = _pl_fit(events, freq @ by_pattern, np.zeros(len(names)))
    resample = np.random.default_rng(seed).multinomial(n_games, freq / freq.sum(), size=boot)  # games
    draws = np.concatenate([_pl_fit(events, part @ by_pattern, np.tile(theta, (len(part), 1)))
                            for part in np.array_split(resample, max(1, boot // 250))])
    seen = (freq @ by_pattern) > 0
    up = events[seen, 1:] > 0                                        # [events seen, bots]: bot in the set
    chosen = np.eye(len(names), dtype=bool)[events[seen, 0]]
    unbounded = np.stack([~(up & chosen).any(0), ~(up & ~chosen).any(0)], axis=1)
    return theta, draws, unbounded


def _pl_bootstrap(table, boot, seed):
    """(names, fitted theta, bootstrap theta draws [boot, bots], unbounded [bots, 2]) of Plackett-Luce."""
    choices = finishing_choices(table)
    return (choices[0], *_bootstrap(choices, len(table), boot, seed))


def _seat_counts(table, names):
    """(seats [games, bots]: seats each bot holds in each game, winner [games]: the winning bot's index or -1)."""
    index = {b: i for i, b in enumerate(names)}
    rows = table["bots"].str.split(",").to_list()
    seats = np.zeros((len(rows), len(names)), np.int64)
    for g, row in enumerate(rows):
        for b in row:
            seats[g, index[b]] += 1
    seat = table["winner"].to_numpy(int)
    winner = np.array([index[row[w]] if w >= 0 else -1 for row, w in zip(rows, seat)], np.int64)
    return seats, winner


def _elo_logit(x):
    return -np.inf if x <= 0 else np.inf if x >= 1 else ELO * math.log(x / (1 - x))


def _conditional_pair(seats, winner, level):
    """The Luce model's exact test of a pair (i, j): (low, high, p) of the Elo difference i - j.

    Among the games both sat in and one of them won, the model makes i's share of those wins binomial with
    log-odds theta_i - theta_j + log(k_i / k_j): a Clopper-Pearson interval (shifted by the mean seat
    log-ratio) and the exact binomial test at the share equal strengths give (exact when the two hold
    equal seats in every such game, the usual design)."""
    from scipy.stats import binomtest
    from statsmodels.stats.proportion import proportion_confint

    def pair(i, j):
        both = (seats[:, i] > 0) & (seats[:, j] > 0)
        won_i, won_j = both & (winner == i), both & (winner == j)
        a, m = int(won_i.sum()), int(won_i.sum() + won_j.sum())
        if m == 0:
            return -np.inf, np.inf, 1.0
        either = won_i | won_j
        offset = float(np.log(seats[either, i] / seats[either, j]).mean())
        share = 1 / (1 + math.exp(-offset))
        low, high = proportion_confint(a, m, alpha=1 - level, method="beta")
        shift = ELO * offset
        return _elo_logit(low) - shift, _elo_logit(high) - shift, float(binomtest(a, m, share).pvalue)
    return pair


def _differences(names, theta, draws, unbounded, level, exact=None):
    """Every pair's strength difference (Elo) with its bootstrap percentile interval, the bootstrap p-value
    (twice the share of refits on the far side of 0), Holm's adjustment, and ``significant`` (the interval
    excludes 0). A pair with an unbounded strength is judged by ``exact(i, j) -> (low, high, p)`` when
    given, else gets the interval (-inf, inf) and p = 1."""
    import pandas as pd
    from statsmodels.stats.multitest import multipletests

    alpha = 1 - level
    rows = []
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i < j:
                d = draws[:, i] - draws[:, j]
                low, high = ELO * np.quantile(d, [alpha / 2, 1 - alpha / 2])
                p = min(1.0, 2 * min(float((d <= 0).mean()), float((d >= 0).mean())))
                method = "bootstrap"
                if unbounded[i].any() or unbounded[j].any():
                    if exact is not None:
                        (low, high, p), method = exact(i, j), "exact"
                    else:  # the refits all agree at the prior's bound: they say nothing either way
                        low, high, p, method = -np.inf, np.inf, 1.0, "open"
                rows.append({"bot": a, "opponent": b, "elo_diff": ELO * (theta[i] - theta[j]),
                             "ci_low": low, "ci_high": high, "p_value": p, "method": method})
    frame = pd.DataFrame(rows, columns=["bot", "opponent", "elo_diff", "ci_low", "ci_high", "p_value", "method"])
    frame["p_holm"] = multipletests(frame["p_value"], method="holm")[1] if len(frame) else []
    frame["significant"] = (frame["ci_low"] > 0) | (frame["ci_high"] < 0)
    return frame


def _ranks(names, diffs):
    """1 + the number of bots credibly stronger (their difference's interval lies above 0), per bot."""
    stronger = {b: 0 for b in names}
    for r in diffs[diffs["significant"]].itertuples():
        stronger[r.opponent if r.ci_low > 0 else r.bot] += 1
    return [1 + stronger[b] for b in names]


def _fit_test(model, seats, wins, theta, boot, seed):
    """A model's goodness of fit over cells: rows of ``seats`` [S, bots] are the choice situations (a
    seating, or a choice set), ``wins`` [S, bots] the times each bot was chosen there; one-row DataFrame."""
    import pandas as pd
    from scipy.stats import chi2

    seats, wins = np.asarray(seats, float), np.asarray(wins, float)
    S, n = seats.shape
    total = wins.sum(1)
    inside = seats > 0

    def shares(th):                                                   # th [B, n] -> [B, S, n]
        w = seats[None] * np.exp(th - th.max(1, keepdims=True))[:, None, :]
        return w / w.sum(2, keepdims=True)

    def g2(observed, expected):                                       # [B, S, n] each -> [B]
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = np.where(observed > 0, observed * np.log(observed / expected), 0.0)
        return 2 * terms.sum((1, 2))

    expected = total[:, None] * shares(theta[None])[0]
    statistic = float(g2(wins[None], expected[None])[0])
    with np.errstate(divide="ignore", invalid="ignore"):
        pearson = float(np.where(inside & (expected > 0), (wins - expected) ** 2 / expected, 0.0).sum())
    rated = int(inside[total > 0].any(0).sum())
    df = int((inside[total > 0].sum(1) - 1).sum()) - (rated - 1)
    used = inside & (total[:, None] > 0)
    p_boot = np.nan
    if df > 0 and boot:
        keys, rows, column = {}, [], np.full((S, n), -1)
        for s, b in zip(*np.nonzero(inside)):
            key = (int(b), *seats[s].astype(np.int64))
            column[s, b] = keys.setdefault(key, len(keys))
            if column[s, b] == len(rows):
                rows.append(key)
        events = np.array(rows, np.int64)
        to_events = np.zeros((S * n, len(rows)))
        cells = np.flatnonzero(inside.ravel())
        to_events[cells, column.ravel()[cells]] = 1.0
        rng = np.random.default_rng(seed)
        probs = shares(theta[None])[0]
        extreme = 0
        for part in np.array_split(np.arange(boot), max(1, boot // 100)):
            drawn = rng.multinomial(total.astype(np.int64), probs, size=(len(part), S)).astype(float)
            refit = _pl_fit(events, drawn.reshape(len(part), S * n) @ to_events, np.tile(theta, (len(part), 1)))
            extreme += int((g2(drawn, total[None, :, None] * shares(refit)) >= statistic - 1e-9).sum())
        p_boot = (1 + extreme) / (boot + 1)
    return pd.DataFrame([{"model": model, "observations": int(total.sum()), "cells": int(inside[total > 0].sum()),
                          "df": df, "g2": statistic, "p_value": float(chi2.sf(statistic, df)) if df > 0 else np.nan,
                          "pearson": pearson, "pearson_p": float(chi2.sf(pearson, df)) if df > 0 else np.nan,
                          "p_boot": p_boot, "boot": int(boot) if df > 0 else 0,
                          "min_expected": float(expected[used].min()) if used.any() else np.nan}])


def _check_boot(boot, level):
    from riskstats.errors import RiskstatsError, check_int

    boot = check_int("boot", boot, 20)
    if not 0 < level < 1:
        raise RiskstatsError(f"level must lie in (0, 1), got {level}")
    return boot


def _check(table, boot, seed, level):
    from riskstats.errors import RiskstatsError, check_int

    boot = _check_boot(boot, level)
    seed = check_int("seed", seed, 0)
    if len(table) == 0:
        raise RiskstatsError("no games to rate")
    return boot, seed


def _interval_columns(theta, draws, unbounded, level):
    low, high = np.quantile(draws, [(1 - level) / 2, (1 + level) / 2], axis=0)
    low[unbounded[:, 0]], high[unbounded[:, 1]] = -np.inf, np.inf
    sd = np.where(unbounded.any(1), np.inf, draws.std(0, ddof=1))
    return {"elo": ELO * theta, "ci_low": ELO * low, "ci_high": ELO * high, "elo_se": ELO * sd, "theta": theta,
            "se": sd}


# ---------------------------------------------------------------- Luce: who wins
def luce_model(table, *, boot: int = BOOT, seed: int = 0, level: float = 0.95):
    """The Luce (who wins) ratings, their pairwise differences and the model's fit test:
    ``(ratings, differences, fit)``; see `luce`, `rating_differences` and `luce_fit`. One fit and one
    bootstrap serve all three."""
    import pandas as pd

    from riskstats.errors import RiskstatsError

    boot, seed = _check(table, boot, seed, level)
    choices = winner_choices(table)
    names = choices[0]
    if len(choices[1]) == 0:
        raise RiskstatsError("no game has a winner: nothing to rate")
    resample_seed, fit_seed = np.random.SeedSequence(seed).spawn(2)
    theta, draws, unbounded = _bootstrap(choices, len(table), boot, np.random.default_rng(resample_seed))
    seats, winner = _seat_counts(table, names)
    diffs = _differences(names, theta, draws, unbounded, level, _conditional_pair(seats, winner, level))
    decided = winner >= 0
    games = ((seats > 0) & decided[:, None]).sum(0)
    wins = np.bincount(winner[decided], minlength=len(names))
    ratings = pd.DataFrame({"bot": names, "rank": _ranks(names, diffs),
                            **_interval_columns(theta, draws, unbounded, level),
                            "games": games, "wins": wins, "win_rate": wins / np.maximum(games, 1),
                            "truncated": ((seats > 0) & ~decided[:, None]).sum(0), "seats": seats.sum(0)})
    ratings = ratings.sort_values(["rank", "theta"], ascending=[True, False], ignore_index=True)
    seating, where = np.unique(table["bots"].to_numpy()[decided].astype(str), return_inverse=True)
    cell_seats = np.zeros((len(seating), len(names)))
    cell_wins = np.zeros((len(seating), len(names)))
    for s, g in zip(where, np.flatnonzero(decided)):
        cell_seats[s] = seats[g]
        cell_wins[s, winner[g]] += 1
    fit = _fit_test("luce (who wins)", cell_seats, cell_wins, theta, boot, np.random.default_rng(fit_seed))
    return ratings, diffs, fit


def luce(table, *, boot: int = BOOT, seed: int = 0, level: float = 0.95):
    """Luce ratings of who wins: the primary rating of the bots of a games table (see the module docstring).

    Parameters
    ----------
    table : pandas.DataFrame
        A self-play table (columns bots, winner: the winning seat, -1 for a game without a winner).
    boot : int
        Bootstrap resamples of the games (at least 20); the fit test's parametric bootstrap uses as many.
    seed : int
        Seed of the bootstraps.
    level : float
        Confidence level of the intervals and of the separations behind ``rank``.

    Returns
    -------
    pandas.DataFrame
        One row per bot, by rank then strength: bot, rank (1 + the number of bots whose difference from it
        has an interval above 0; equal ranks are ties), elo (strength on the Elo scale, mean 0), ci_low,
        ci_high (bootstrap percentile interval, Elo), elo_se (bootstrap standard deviation), theta and se
        (the natural log-strength scale), games (decided games it played: its trials, one per game whatever
        its seats), wins, win_rate (wins / games), truncated (games it played that nobody won, left out)
        and seats (seats it held in all games). `luce_fit` tests the model.

    Examples
    --------
    >>> import pandas as pd
    >>> winners = [0] * 40 + [1] * 19 + [2]  # a wins 40 of 60 three-player games, b 19, c 1
    >>> games = pd.DataFrame({"bots": "a,b,c", "winner": winners})
    >>> luce(games, boot=400, seed=1)[["bot", "rank", "wins"]].values.tolist()
    [['a', 1, 40], ['b', 2, 19], ['c', 3, 1]]
    """
    return luce_model(table, boot=boot, seed=seed, level=level)[0]


def luce_fit(table, *, boot: int = BOOT, seed: int = 0):
    """The Luce model's goodness-of-fit test over seating x winner cells (see the module docstring).

    Returns
    -------
    pandas.DataFrame
        One row: model, observations (decided games), cells (seating x bot cells), df, g2 and p_value
        (likelihood ratio against the saturated model, chi-square), pearson and pearson_p (Pearson's X^2),
        p_boot (parametric bootstrap of g2 with ``boot`` refits), boot and min_expected (the smallest expected
        count). With df = 0 (each line-up seated one way only) the fit is saturated and the p-values are
        NaN.

    Examples
    --------
    >>> import pandas as pd
    >>> games = pd.DataFrame({"bots": ["a,b", "b,a"] * 20, "winner": [0, 0] * 15 + [0, 1] * 5})
    >>> fit = luce_fit(games, boot=100)  # the first seat wins 35 of 40: a seat effect the model lacks
    >>> int(fit.df.iloc[0]), bool(fit.p_value.iloc[0] < 0.001)
    (1, True)
    """
    return luce_model(table, boot=boot, seed=seed)[2]


# ---------------------------------------------------------------- Plackett-Luce: who survives
def plackett_luce_model(table, *, boot: int = BOOT, seed: int = 0, level: float = 0.95):
    """The Plackett-Luce (survival) ratings, differences and fit test: ``(ratings, differences, fit)``."""
    import pandas as pd

    boot, seed = _check(table, boot, seed, level)
    names, theta, draws, unbounded = _pl_bootstrap(table, boot, seed)
    diffs = _differences(names, theta, draws, unbounded, level)
    seats = pd.Series([b for row in table["bots"].str.split(",") for b in row]).value_counts()
    games = pd.Series([b for row in table["bots"].str.split(",") for b in set(row)]).value_counts()
    ratings = pd.DataFrame({"bot": names, "rank": _ranks(names, diffs),
                            **_interval_columns(theta, draws, unbounded, level),
                            "games": [int(games[b]) for b in names], "seats": [int(seats[b]) for b in names]})
    ratings = ratings.sort_values(["rank", "theta"], ascending=[True, False], ignore_index=True)
    _, events, game_events = finishing_choices(table)
    counts = np.bincount(np.array([e for g in game_events for e in g], np.int64), minlength=len(events))
    sets, where = np.unique(events[:, 1:], axis=0, return_inverse=True)
    chosen = np.zeros(sets.shape)
    np.add.at(chosen, (where.ravel(), events[:, 0]), counts)
    fit_seed = np.random.SeedSequence(seed).spawn(2)[1]
    fit = _fit_test("plackett-luce (who survives)", sets, chosen, theta, boot, np.random.default_rng(fit_seed))
    return ratings, diffs, fit


def plackett_luce(table, *, boot: int = BOOT, seed: int = 0, level: float = 0.95):
    """Plackett-Luce ratings over finishing orders: the survival measure, not the rating (see the module
    docstring; `plackett_luce_fit` tests it).

    Parameters
    ----------
    table : pandas.DataFrame
        A self-play table (columns bots, winner and, when present, places).
    boot : int
        Bootstrap resamples of the games (at least 20).
    seed : int
        Seed of the bootstrap.
    level : float
        Confidence level of the intervals and of the separations behind ``rank``.

    Returns
    -------
    pandas.DataFrame
        One row per bot, by rank then strength: bot, rank (1 + the number of bots whose difference from it
        has an interval above 0; equal ranks are ties), elo (strength on the Elo scale, mean 0), ci_low,
        ci_high (its bootstrap percentile interval, Elo), elo_se (bootstrap standard deviation, Elo), theta
        and se (the same on the natural log-strength scale), games (games it played) and seats (seats it
        held).

    Examples
    --------
    >>> import pandas as pd
    >>> orders = ["1,2,3"] * 6 + ["2,1,3", "1,3,2", "3,1,2", "2,3,1"] * 2 + ["3,2,1"] * 2
    >>> games = pd.DataFrame({"bots": "a,b,c", "winner": 0, "places": orders * 6})  # places rule
    >>> fit = plackett_luce(games, boot=200, seed=1)
    >>> fit[["bot", "rank"]].values.tolist()  # a and b are not separated: they share rank 1
    [['a', 1], ['b', 1], ['c', 3]]
    """
    return plackett_luce_model(table, boot=boot, seed=seed, level=level)[0]


def plackett_luce_fit(table, *, boot: int = BOOT, seed: int = 0):
    """Plackett-Luce's goodness-of-fit test over choice set x chosen bot cells: the columns of `luce_fit`
    (the parametric bootstrap keeps each choice set's count and redraws its choices)."""
    return plackett_luce_model(table, boot=boot, seed=seed)[2]


MODELS = {"luce": luce_model, "plackett-luce": plackett_luce_model}
"""The rating models by name: each returns (ratings, differences, fit)."""


def rating_differences(table, *, boot: int = BOOT, seed: int = 0, level: float = 0.95, model: str = "luce"):
    """Every pair of bots' strength difference (Elo) with its interval, in ``model`` (`MODELS`).

    Returns
    -------
    pandas.DataFrame
        bot, opponent, elo_diff (bot minus opponent), ci_low, ci_high (bootstrap percentile interval; for
        a pair with a bot of no finite strength, the Luce model's exact conditional interval),
        p_value (the bootstrap's two-sided p, or the exact test's), method ("bootstrap", "exact" or
        "open"), p_holm (Holm-adjusted over all pairs) and significant (the interval excludes 0: what
        ``rank`` counts).
    """
    from riskstats.errors import RiskstatsError

    if model not in MODELS:
        raise RiskstatsError(f"model must be one of {', '.join(MODELS)}, got {model!r}")
    return MODELS[model](table, boot=boot, seed=seed, level=level)[1]
