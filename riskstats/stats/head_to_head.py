"""Head-to-head rates of a per-game table: for each ordered pair of bots seated in the same games, the share of
their decided games the first finished ahead, with a cluster-aware Wilson interval and the matching score test of
one half (`pair_rates`, issue #39). Playing the games is `riskstats.analysis.strength`'s (`ladder_games`); the tiers
read from these rates are `riskstats.stats.verdicts`'.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterable

import numpy as np
import pandas as pd

from riskstats.errors import RiskstatsError

__all__ = ["PAIR_OUTCOMES", "pair_rates"]

PAIR_OUTCOMES = ("place", "win")
"""What "ahead" means in `pair_rates`: ``place``, a better finishing place (the winner first, then the seats in
order of elimination, the last out highest); ``win``, the game's winner, counting only games one of the two won."""


def pair_rates(games: pd.DataFrame, bots: Iterable[str] | None = None, by: str = "place",
               level: float = 0.95) -> pd.DataFrame:
    """The head-to-head matrix of a per-game table, long form: for each ordered pair of bots seated in the same
    games, the share of their decided games in which the first finished ahead of the second, with its interval.

    **Ahead** (``by``, `PAIR_OUTCOMES`): ``"place"`` compares the two seats' finishing places (column ``places``,
    `riskstats.runs.selfplay.finishing_places`: 1 for the winner, then by order of elimination, so in a finished
    Classic game every pair is ordered); a game is decided for the pair unless both share a place (a game cut at the
    turn cap with both in play). ``"win"``: the first bot won; a game is decided for the pair only if one of the two
    won (a third seat's win drops it). Two-player games with the neutral: both read as "won the game".

    **Interval**: Wilson's score interval at ``level`` on the effective number of decided games, their number over
    the design effect of the clusters (at least 1, so never narrower than the plain Wilson interval), with the
    Student t quantile on clusters - 1 degrees of freedom in place of the normal one (where every cluster holds one
    decided game, the plain Wilson interval). A cluster is the pair's games played from one seed (column ``seed``;
    without it each game is its own): the seatings of one deal (`riskstats.analysis.strength.ladder_games` with
    ``every_seat``) are not independent trials, and neither are a ladder's line-ups where they replay the same seeds
    (in the committed shared-deals four-player ladder the design effect is about 3.5: a seed favours some seats in
    every line-up dealt from it). The design effect is the cluster-robust (ratio-estimator) variance of
    the share over the binomial one. ``p_value`` is the matching score test of ``share = 1/2`` on the same
    effective count and t reference, so it is below ``1 - level`` exactly when the interval excludes 1/2. A game
    holds several pairs (six in a four-player game); each pair's rate counts it once, and the dependence between
    pairs is left to the caller's multiple-test adjustment (`riskstats.stats.verdicts.pair_tiers`: Holm, valid
    under any dependence).

    Parameters
    ----------
    games : pandas.DataFrame
        A per-game table (`riskstats.analysis.strength.ladder_games`, `riskstats.runs.selfplay.play_games`):
        ``bots`` (seat order, comma-separated), ``places`` (for ``"place"``) or ``winner`` (seat, -1 if none; for
        ``"win"``), ``players``, and optionally ``seed`` (the clusters).
    bots : iterable of str, optional
        The bots to pair, in this order (default: every bot of the table, sorted).
    by : {"place", "win"}
    level : float
        The intervals' coverage.

    Returns
    -------
    pandas.DataFrame
        One row per ordered pair that met: ``players``, ``bot``, ``opponent``, ``met`` (games both sat in),
        ``decided``, ``wins`` (games ``bot`` finished ahead), ``share`` (wins / decided), ``ci_low``, ``ci_high``,
        ``deff`` (the design effect used), ``clusters`` (seeds with a decided game), ``p_value``.
        ``rows.pivot(index="bot", columns="opponent", values="share")`` is the matrix.

    >>> g = pd.DataFrame({"players": 4, "bots": ["a,b,c,d"] * 4, "winner": [0, 0, 1, 2],
    ...                   "places": ["1,2,3,4", "1,3,2,4", "2,1,3,4", "4,2,1,3"]})
    >>> r = pair_rates(g, ["a", "b"])
    >>> r[["bot", "opponent", "decided", "wins", "share"]].values.tolist()
    [['a', 'b', 4, 2, 0.5], ['b', 'a', 4, 2, 0.5]]
    >>> pair_rates(g, ["a", "b"], by="win")[["bot", "decided", "wins"]].values.tolist()
    [['a', 3, 2], ['b', 3, 1]]
    """
    from scipy.stats import t as student

    if by not in PAIR_OUTCOMES:
        raise RiskstatsError(f"by must be one of {', '.join(PAIR_OUTCOMES)}, got {by!r}")
    if not 0 < level < 1:
        raise RiskstatsError(f"level must be between 0 and 1, got {level!r}")
    need = {"bots", "players", "places" if by == "place" else "winner"} - set(games.columns)
    if need:
        raise RiskstatsError(f"the games have no {', '.join(sorted(need))} column")
    if len(games) == 0:
        raise RiskstatsError("no games to pair")
    seats = games["bots"].str.split(",", expand=True).to_numpy(object)  # games x seats
    P = seats.shape[1]
    if by == "place":
        rank = games["places"].str.split(",", expand=True).to_numpy(float)  # lower is ahead
    else:
        winner = games["winner"].to_numpy(int)
        rank = np.where(np.arange(P)[None, :] == winner[:, None], 1.0, 2.0)  # the winner ahead of everyone
        rank[winner < 0] = 1.0
    cluster = games.groupby("seed", sort=False).ngroup().to_numpy() if "seed" in games else np.arange(len(games))
    parts = []
    for i, j in itertools.permutations(range(P), 2):
        a, b = seats[:, i], seats[:, j]
        ahead = rank[:, i] < rank[:, j]
        decided = rank[:, i] != rank[:, j]
        if by == "win":
            decided &= (rank[:, i] == 1) | (rank[:, j] == 1)
        parts.append(pd.DataFrame({"bot": a, "opponent": b, "cluster": cluster, "met": 1,
                                   "decided": decided.astype(int), "wins": (ahead & decided).astype(int),
                                   "players": games["players"].to_numpy()}))
    long = pd.concat(parts, ignore_index=True)
    long = long[long.bot.notna() & long.opponent.notna() & (long.bot != long.opponent)]
    names = list(dict.fromkeys(bots)) if bots is not None else sorted(set(long.bot))
    long = long[long.bot.isin(names) & long.opponent.isin(names)]
    per = long.groupby(["players", "bot", "opponent", "cluster"], sort=False)[["met", "decided", "wins"]].sum()
    rows = []
    for (players, a, b), c in per.groupby(level=["players", "bot", "opponent"], sort=False):
        n, w = int(c.decided.sum()), int(c.wins.sum())
        share = w / n if n else np.nan
        deff = 1.0
        k = int((c.decided > 0).sum())
        single = bool((c.decided <= 1).all())  # independent games: the plain Wilson interval
        if n and 0 < share < 1 and k > 1 and not single:
            robust = k / (k - 1) * float(((c.wins - share * c.decided) ** 2).sum()) / n ** 2
            deff = max(1.0, robust / (share * (1 - share) / n))
        low = high = p = np.nan
        if n:
            dof = np.inf if single else max(k - 1, 1)
            z = float(student.ppf(0.5 + level / 2, dof))
            m = n / deff
            centre = (share + z * z / (2 * m)) / (1 + z * z / m)
            half = z / (1 + z * z / m) * np.sqrt(share * (1 - share) / m + z * z / (4 * m * m))
            low, high = max(0.0, centre - half), min(1.0, centre + half)
            p = float(2 * student.sf(abs(share - 0.5) / np.sqrt(0.25 / m), dof))
        rows.append({"players": int(players), "bot": a, "opponent": b, "met": int(c.met.sum()), "decided": n,
                     "wins": w, "share": share, "ci_low": low, "ci_high": high, "deff": deff, "clusters": k,
                     "p_value": p})
    out = pd.DataFrame(rows, columns=["players", "bot", "opponent", "met", "decided", "wins", "share", "ci_low",
                                      "ci_high", "deff", "clusters", "p_value"])
    order = {name: k for k, name in enumerate(names)}
    return out.sort_values(["players", "bot", "opponent"], key=lambda s: s.map(order) if s.name != "players"
                           else s, kind="stable").reset_index(drop=True)
