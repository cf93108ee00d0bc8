"""Seat effects in self-play: each seat's win share against the fair share 1/P, the tests of it (with Holm over
the whole family), whether populations of bots differ in it, and who is knocked out first.

This module owns the seat tables of notebook 04 (issue 19, §3 "04"). It reads games tables
(`riskstats.runs.selfplay.play_games`, `riskstats.runs.experiment.read_experiment`) and plays no game;
``arms`` reads committed experiments through `riskstats.runs.experiment`. Conventions:

- **Trials are decided games.** A game stopped at the turn cap has no winner: it is counted in
  ``truncated`` (with its share and a 95% Wilson interval) beside every rate and left out of every test
  against the fair share, never a loss for every seat. Every seat sits in every stalled game, so leaving
  them out conditions all seats alike.
- **A population** is the bots that sit in a game's seats: ``"value in every seat"`` when one bot holds
  every seat, else the mixed line-up itself (``"mixed: random,aggressive,..."``). ``bots`` keeps the full
  spec of each bot (with its parameters), as played.
- **The family** of seat tests (`seat_tests`) is every test one analysis makes: per arm (population x
  player count x setting) the G-test of the winning seat's distribution against 1/P and the exact
  binomial test of seat 0 against 1/P, and per player count and setting the G-test that the populations
  share one distribution of the winning seat. Holm's correction runs over all of them together.
"""
from __future__ import annotations

import json
from collections.abc import Iterable

import numpy as np
import pandas as pd

from riskstats.intervals import wilson_interval

ARM = ("population", "players", "setting")
"""The columns that identify an arm: games that are alike and are tested together."""


def population_of(lineup: str, players: int | None = None) -> str:
    """The population a line-up (comma-joined bot specs) stands for: a tier's (`riskstats.runs.tiers.tier_of`, the
    line-up cycled over ``players`` seats if given) by the tier's population label (`riskstats.runs.tiers.TIER_SETS`)
    without its " (top tier)", one bot in every seat by its name, any other by its bots' names.

    >>> population_of("value:rollouts=1:plans=4,value:rollouts=1:plans=4")
    'value in every seat'
    >>> population_of("random,aggressive")
    'mixed: random,aggressive'
    >>> population_of(",".join(["search:rollouts=8:horizon=0:plans=8:value=model"] * 4))  # a top tier: its name
    'search:value=model in every seat'
    >>> population_of("hunter,search:rollouts=8:horizon=1:plans=6:value=formula", players=3)
    'hunter against the next best'
    """
    from riskstats.runs.tiers import every_tier, population_name, tier_of

    names = [b.strip() for b in lineup.split(",") if b.strip()]
    tier = tier_of(",".join((names * int(players))[:int(players)] if players else names))
    if tier is not None:
        return population_name(every_tier()[tier])
    if len(set(names)) == 1:
        return f"{names[0].split(':')[0]} in every seat"
    return "mixed: " + ",".join(n.split(":")[0] for n in names)


def setting_of(rules: dict) -> str:
    """A short name for a game's rules: ``classic`` (or its variant) and, for the two-player game, the
    neutral or 50 armies each with the claim.

    >>> setting_of({"variant": "two-player", "two_player_classic_50": True, "setup": "deal"})
    '50 each, dealt'
    >>> setting_of({"variant": "two-player", "two_player_classic_50": False, "setup": "deal"})
    'neutral (40 each + 40 neutral)'
    """
    variant = rules.get("variant", "classic")
    if variant != "two-player":
        return variant
    if not rules.get("two_player_classic_50", False):
        return "neutral (40 each + 40 neutral)"
    return "50 each, dealt" if rules.get("setup") == "deal" else "50 each, claim by choice"


def label_arms(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with ``population`` (from the line-up, `population_of`), ``setting`` (from its ``rules``
    JSON column, ``{"rules": {...}, "board": ...}``, by `setting_of`) and ``lineup`` (the bots as seated in
    the first game) where missing."""
    from riskstats.errors import RiskstatsError

    for column in ("bots", "winner", "players", "truncated"):
        if column not in table.columns:
            raise RiskstatsError(f"the games table has no {column!r} column")
    out = table.copy()
    if "lineup" not in out.columns:
        out["lineup"] = out["bots"]
    if "population" not in out.columns:
        out["population"] = [population_of(b, p) for b, p in zip(out["lineup"].astype(str), out["players"])]
    if "setting" not in out.columns:
        if "rules" in out.columns:
            names = {r: setting_of(json.loads(r).get("rules", {})) for r in out["rules"].astype(str).unique()}
            out["setting"] = out["rules"].astype(str).map(names)
        else:
            out["setting"] = out.get("variant", "classic")
    return out


def arms(folders: Iterable) -> pd.DataFrame:
    """The games of committed experiments (folders written by ``riskstats experiment``), one table labelled
    by `label_arms`; the experiment folder's name is kept in ``source``."""
    from pathlib import Path

    from riskstats.errors import RiskstatsError
    from riskstats.runs.experiment import read_experiment

    frames = [label_arms(read_experiment(f)).assign(source=Path(f).name) for f in folders]
    if not frames:
        raise RiskstatsError("give at least one experiment folder")
    return pd.concat(frames, ignore_index=True)


def _groups(table, by):
    return table.groupby(list(by), sort=False) if by else [((), table)]


def _key(by, name):
    return dict(zip(by, name if isinstance(name, tuple) else (name,)))


def _check_by(table, by):
    from riskstats.errors import RiskstatsError

    missing = [c for c in by if c not in table.columns]
    if missing:
        raise RiskstatsError(f"the games table has no {', '.join(map(repr, missing))} column (label_arms adds them)")


def seat_shares(table: pd.DataFrame, by: Iterable[str] = ARM) -> pd.DataFrame:
    """Every seat's win rate in each arm against the fair share 1/P.

    Returns
    -------
    pandas.DataFrame
        One row per arm and seat: the ``by`` columns, ``bots`` (the first game's line-up as seated),
        ``seat``, ``trials`` (decided games), ``wins``, ``win_rate``, ``ci_low``, ``ci_high`` (95% Wilson),
        ``share`` (1/P), ``excess`` (win_rate - share) with ``excess_low``/``excess_high``, ``games``,
        ``truncated`` (stalled games, left out) and ``truncated_share`` with its Wilson interval
        (``truncated_low``, ``truncated_high``).

    Examples
    --------
    >>> games = pd.DataFrame({"bots": "a,a,a", "winner": [0, 0, 1, 2, -1, 0], "players": 3,
    ...                       "truncated": [False] * 4 + [True, False]})
    >>> seat_shares(games, by=())[["seat", "trials", "wins", "truncated"]].values.tolist()
    [[0, 5, 3, 1], [1, 5, 1, 1], [2, 5, 1, 1]]
    """
    by = list(by)
    _check_by(table, by)
    rows = []
    for name, part in _groups(table, by):
        players = int(part["players"].iloc[0])
        winner = part["winner"].to_numpy(int)
        decided = int((winner >= 0).sum())
        stalled = len(part) - decided
        t_low, t_high = wilson_interval(stalled, len(part))
        for seat in range(players):
            wins = int((winner == seat).sum())
            low, high = wilson_interval(wins, decided) if decided else (np.nan, np.nan)
            rate = wins / decided if decided else np.nan
            rows.append({**_key(by, name), "bots": part["bots"].iloc[0], "seat": seat, "trials": decided,
                         "wins": wins, "win_rate": rate, "ci_low": low, "ci_high": high, "share": 1 / players,
                         "excess": rate - 1 / players, "excess_low": low - 1 / players,
                         "excess_high": high - 1 / players, "games": len(part), "truncated": stalled,
                         "truncated_share": stalled / len(part), "truncated_low": t_low, "truncated_high": t_high})
    return pd.DataFrame(rows)


def _g_test(counts, expected):
    from scipy.stats import power_divergence

    statistic, p = power_divergence(counts, expected, lambda_="log-likelihood")
    return float(statistic), float(p)


def seat_tests(table: pd.DataFrame, by: Iterable[str] = ARM, across: str = "population",
               level: float = 0.05) -> pd.DataFrame:
    """The family of seat tests of a games table, with Holm's correction over all of them.

    Per arm (the ``by`` columns): ``fair share``, the G-test (likelihood ratio) of the winning seat's counts
    against 1/P each (P - 1 degrees of freedom), and ``seat 0``, the exact two-sided binomial test of seat
    0's wins against 1/P. Per value of the ``by`` columns other than ``across`` that holds two arms or
    more: ``populations differ``, the G-test of homogeneity of the winning seat's distribution over the
    arms (an arms x seats contingency table, (arms - 1)(P - 1) degrees of freedom, no continuity
    correction). Decided games only: stalled games are counted in ``truncated``.

    Returns
    -------
    pandas.DataFrame
        One row per test: ``test``, the ``by`` columns (``across`` lists the arms compared in a
        ``populations differ`` row), ``n`` (decided games), ``truncated``, ``statistic`` (G², or seat 0's
        wins), ``df``, ``estimate`` (seat 0's win rate for ``seat 0``, else NaN), ``p_value``, ``p_holm``
        (over every row) and ``significant`` (p_holm < ``level``).

    Examples
    --------
    >>> games = pd.DataFrame({"bots": "a,a", "players": 2, "population": ["x"] * 40 + ["y"] * 40,
    ...                       "winner": [0] * 30 + [1] * 10 + [0] * 20 + [1] * 20, "truncated": False})
    >>> tests = seat_tests(games, by=("population", "players"))
    >>> tests[["test", "population", "n", "df"]].values.tolist()[-1]
    ['populations differ', 'x | y', 80, 1]
    """
    from scipy.stats import binomtest, chi2_contingency
    from statsmodels.stats.multitest import multipletests

    from riskstats.errors import RiskstatsError

    by = list(by)
    _check_by(table, by)
    if not 0 < level < 1:
        raise RiskstatsError(f"level must lie in (0, 1), got {level}")
    rows, counts = [], {}
    for name, part in _groups(table, by):
        key = _key(by, name)
        players = int(part["players"].iloc[0])
        winner = part["winner"].to_numpy(int)
        won = np.bincount(winner[winner >= 0], minlength=players)[:players]
        n = int(won.sum())
        stalled = len(part) - n
        counts[tuple(key.items())] = (won, stalled)
        if n == 0:
            continue
        g2, p = _g_test(won, np.full(players, n / players))
        rows.append({"test": "fair share", **key, "n": n, "truncated": stalled, "statistic": g2,
                     "df": players - 1, "estimate": np.nan, "p_value": p})
        rows.append({"test": "seat 0", **key, "n": n, "truncated": stalled, "statistic": float(won[0]), "df": 0,
                     "estimate": won[0] / n, "p_value": float(binomtest(int(won[0]), n, 1 / players).pvalue)})
    if across in by:
        rest = [c for c in by if c != across]
        keys = [dict(k) for k in counts]
        for value in dict.fromkeys(tuple(k[c] for c in rest) for k in keys):
            members = [k for k in keys if tuple(k[c] for c in rest) == value]
            grid = np.array([counts[tuple(k.items())][0] for k in members if counts[tuple(k.items())][0].sum()])
            if len(grid) < 2:
                continue
            seen = grid.sum(0) > 0  # a seat no arm's winner sat in adds nothing to the table
            g2, p, df, _ = chi2_contingency(grid[:, seen], correction=False, lambda_="log-likelihood")
            rows.append({"test": "populations differ", **dict(zip(rest, value)),
                         across: " | ".join(str(k[across]) for k in members), "n": int(grid.sum()),
                         "truncated": int(sum(counts[tuple(k.items())][1] for k in members)),
                         "statistic": float(g2), "df": int(df), "estimate": np.nan, "p_value": float(p)})
    columns = ["test", *by, "n", "truncated", "statistic", "df", "estimate", "p_value"]
    frame = pd.DataFrame(rows, columns=columns)
    frame["p_holm"] = multipletests(frame["p_value"], method="holm")[1] if len(frame) else []
    frame["significant"] = frame["p_holm"] < level
    return frame


def first_out(table: pd.DataFrame, by: str = "bot", groups: Iterable[str] = ARM) -> pd.DataFrame:
    """Who is knocked out first, per bot or per seat, from each game's finishing places (column ``places``,
    `riskstats.runs.selfplay.finishing_places`: the first seat out has place P).

    A game counts when some seat was eliminated (games of 3 or more players); a game with no elimination
    (stalled, or won by a mission or capitals with everyone in) is counted in ``no_elimination`` and left
    out. Per bot, a game is one trial of every bot in it (its ``seats`` in that game make its fair share
    seats / P); per seat, every counted game is a trial of each seat (fair share 1/P).

    Returns
    -------
    pandas.DataFrame
        One row per group and ``by`` value: the ``groups`` columns, ``bots`` (the group's first game as
        seated), ``by``, ``trials``, ``first_out``, ``share``
        (first_out / trials), ``ci_low``, ``ci_high`` (95% Wilson), ``fair`` (the share with no bot or seat
        effect), ``p_value`` (exact binomial test against ``fair``; NaN where a bot's seats vary between
        games), ``no_elimination``.

    Examples
    --------
    >>> games = pd.DataFrame({"bots": ["a,b,c", "b,c,a", "c,a,b"], "places": ["1,3,2", "3,1,2", "2,1,3"],
    ...                       "players": 3, "winner": [0, 1, 1], "truncated": False})
    >>> first_out(games, groups=())[["bot", "trials", "first_out"]].values.tolist()
    [['a', 3, 0], ['b', 3, 3], ['c', 3, 0]]
    """
    from scipy.stats import binomtest

    from riskstats.errors import RiskstatsError

    if by not in ("bot", "seat"):
        raise RiskstatsError(f"by must be 'bot' or 'seat', got {by!r}")
    if "places" not in table.columns:
        raise RiskstatsError("the games table has no 'places' column: play it with this version of riskstats")
    groups = list(groups)
    _check_by(table, groups)
    rows = []
    for name, part in _groups(table, groups):
        players = int(part["players"].iloc[0])
        if players < 3:
            continue
        places = np.array([[int(x) for x in p.split(",")] for p in part["places"]])
        out = places == players                      # [games, seats]: the first seat out has place P
        counted = out.any(1)
        seats = part["bots"].str.split(",").to_list()
        key = _key(groups, name)
        if by == "seat":
            labels = list(range(players))
            held = np.ones((len(part), players), int)
            first = out.astype(int)
        else:
            labels = sorted({b for row in seats for b in row})
            index = {b: i for i, b in enumerate(labels)}
            held = np.zeros((len(part), len(labels)), int)
            first = np.zeros((len(part), len(labels)), int)
            for g, row in enumerate(seats):
                for s, b in enumerate(row):
                    held[g, index[b]] += 1
                    first[g, index[b]] += int(out[g, s])
        for i, label in enumerate(labels):
            games = counted & (held[:, i] > 0)
            trials, k = int(games.sum()), int(first[games, i].sum())
            fair_seats = np.unique(held[games, i])
            fair = float(held[games, i].mean() / players) if trials else np.nan
            low, high = wilson_interval(k, trials) if trials else (np.nan, np.nan)
            p = float(binomtest(k, trials, fair).pvalue) if trials and len(fair_seats) == 1 else np.nan
            rows.append({**key, "bots": part["bots"].iloc[0], by: label, "trials": trials, "first_out": k,
                         "share": k / trials if trials else np.nan,
                         "ci_low": low, "ci_high": high, "fair": fair, "p_value": p,
                         "no_elimination": int((~counted).sum())})
    return pd.DataFrame(rows)
