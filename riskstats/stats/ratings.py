"""Bradley-Terry ratings of bots from self-play games, fitted by maximum likelihood with scipy.

Multiplayer games are decomposed into pairs: the winner of a game beats each other bot seated in it
(one comparison per losing seat; seats held by the winner's own bot and truncated games give none).
A bot's strength is ``theta`` with P(i beats j) = 1 / (1 + exp(theta_j - theta_i)), centred to mean 0;
``elo`` is the same on the Elo scale (400 / ln 10 per unit). Standard errors come from the inverse
Hessian of the log-likelihood (restricted to centred strengths). A weak normal prior (sd 10 on theta)
keeps the fit finite when a bot never loses; it moves ordinary ratings by far less than their errors.

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
