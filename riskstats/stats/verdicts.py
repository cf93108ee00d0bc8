"""The verdict of each finding of the robustness table under the top tier (issue #29), and the tiers themselves.

This module owns the tiers of the bots (`pair_tiers`: from direct head-to-head rates, no rating model; tier 1 is
every bot that no bot beats head to head after Holm's adjustment over the pairs, then the same again among the rest;
`tiers_table` for the four-player ladder with every line-up on its own deals, the two-player round robin and, as
context, the four-player ladder whose line-ups share their deals; `tier_one`, each format's tier 1), the family-wise
adjustment of the table's p-values (`adjust`: `ADJUST_METHOD` at `ALPHA`, in two families: the top tier's rows,
which judge the findings, and the context rows, adjusted apart so that they neither dilute nor borrow from the
judging rows), the verdict of each finding from its rows in the top-tier populations (`finding_verdicts`,
`VERDICTS`), `judge_table`, which writes the adjusted columns back into every notebook's CSV (as every notebook's
writer does, `riskstats.stats.robustness.adjust_folder`) and ``verdicts.csv`` beside them, and `write_verdicts`,
which adds ``tiers.csv`` and ``head_to_head.csv`` from the committed per-game tables (`TIER_TABLES`). The rows,
their columns, their population groups and the top tier they are judged by (`riskstats.stats.robustness.TOP_TIER`)
are `riskstats.stats.robustness`'; the head-to-head rates are `riskstats.stats.head_to_head.pair_rates`'.

The judging populations are the tier-1 bot of each format by direct head to head (``tiers.csv``: ``tier``, the
four-player ladder on its own deals; ``tier_2p``, the two-player round robin); `TOP_TIER` names them, and a test
checks that its bots are the union of `tier_one` of the committed ``tiers.csv``.

A finding's verdict, judged on the adjusted rows of the top-tier populations (`riskstats.stats.robustness.TOP_TIER`):

- ``holds``: every top-tier row holds (in both top tiers);
- ``fails``: every top-tier row is reversed (the opposite claim holds in both);
- ``tier-dependent``: the two top tiers differ: one shows the claim (or its opposite) and the other shows the
  opposite or nothing (its interval contains the null); ``verdict <tier>`` says which tier shows what;
- ``inconclusive``: neither top tier shows the claim or its opposite;
- ``mixed``: within one tier the rows differ (say, by player count);
- ``no top-tier rows``: the finding was not measured in the top tier (the rows' ``note`` says why, if given).

A finding measured in one top tier only is judged by that tier alone and says so in its verdict (``holds (search
only)``: not the two-tier evidence the rule above asks for); ``tiers`` names the tiers judged and
``complete`` says whether every top tier was. ``tiers.csv`` also carries, as context, the tiers of the ladder
whose line-ups share their deals (with its design effect) and the own-deals ladder's Luce ratings, with its fit's
p-values (the chi-square ones only where every expected count reaches `MIN_EXPECTED`).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from riskstats.errors import RiskstatsError
from riskstats.runs.tiers import JUDGING, LADDERS
from riskstats.stats.head_to_head import pair_rates
from riskstats.stats.ratings import MIN_EXPECTED  # noqa: F401 - where the chi-square p-values are dropped
from riskstats.stats.robustness import (  # the adjustment lives with the rows; re-exported here
    ADJUST_METHOD,
    ADJUSTED_COLUMNS,
    ALPHA,
    FAMILIES,
    TOP_TIER,
    adjust,
    adjust_folder,
    complete_rows,
    group_verdict,
    notebook_files,
    notebook_number,
    population_group,
)

__all__ = ["ADJUST_METHOD", "ADJUSTED_COLUMNS", "ALPHA", "FAMILIES", "adjust", "finding_verdicts", "judge_table",
           "pair_beats", "pair_tiers", "tier_one", "tiers_table", "top_tier_matches",
           "write_verdicts"]

VERDICTS = ("holds", "fails", "tier-dependent", "inconclusive", "mixed", "no top-tier rows")
"""A finding's verdict under the top tier (module docstring)."""
CONTEXT_COLUMNS = ("heuristic", "value:rollouts=1:plans=4")
"""The old populations whose group verdicts (`riskstats.stats.robustness.group_verdict`) stand beside the top
tier's in `finding_verdicts`."""
OLD = "value:rollouts=1:plans=4"
"""The old population (once "strong") that ``changed`` compares the top tier's verdict with."""
FIT_COLUMNS = {"p_value": "fit_p_g2", "pearson_p": "fit_p_pearson", "p_boot": "fit_p_boot"}
"""The ladder fit's p-values (`riskstats.stats.ratings.luce_fit`) -> their columns in `tiers_table`'s table."""


def pair_beats(rates: pd.DataFrame, alpha: float = ALPHA, method: str = ADJUST_METHOD) -> pd.DataFrame:
    """Which bot beats which head to head: ``rates`` (`riskstats.stats.head_to_head.pair_rates`) with each pair's
    p-value adjusted over every unordered pair of each player count (``p_adjusted``, ``method`` at ``alpha``) and
    ``beats``: ``bot`` finishes ahead of ``opponent`` in more than half their decided games and the adjusted p is
    below ``alpha`` (the pair's interval at the adjusted level lies wholly above 1/2).

    >>> rates = pd.DataFrame({"players": 2, "bot": ["a", "b"], "opponent": ["b", "a"], "share": [0.7, 0.3],
    ...                       "p_value": [0.001, 0.001]})
    >>> pair_beats(rates)[["bot", "p_adjusted", "beats"]].values.tolist()
    [['a', 0.001, True], ['b', 0.001, False]]
    """
    from statsmodels.stats.multitest import multipletests

    need = {"players", "bot", "opponent", "share", "p_value"} - set(rates.columns)
    if need:
        raise RiskstatsError(f"the rates have no {', '.join(map(repr, sorted(need)))} column")
    out = rates.reset_index(drop=True).copy()
    key = [tuple(sorted(pair)) for pair in zip(out.bot, out.opponent)]
    out["p_adjusted"] = np.nan
    for _, part in out.assign(key=key).groupby("players"):
        once = part.drop_duplicates("key").dropna(subset=["p_value"])  # each unordered pair tested once
        if len(once):
            adjusted = dict(zip(once.key, multipletests(once.p_value, alpha=alpha, method=method)[1]))
            out.loc[part.index, "p_adjusted"] = [adjusted.get(k, np.nan) for k in part.key]
    out["beats"] = (out["share"] > 0.5) & (out["p_adjusted"] < alpha)
    return out


def _top_set(beats: np.ndarray) -> np.ndarray:
    """The bots no bot outside the set beats (the Schwartz set of the ``beats[i, j]``: i beats j relation): the
    unbeaten bots, or where beats run in a cycle, every bot of a cycle that nothing outside it beats."""
    reach = beats.copy()
    for k in range(len(reach)):  # transitive closure (Warshall)
        reach |= reach[:, [k]] & reach[[k], :]
    # i is in the set when every bot that reaches i is reached back by i
    return np.array([all(reach[i, j] for j in range(len(reach)) if reach[j, i]) for i in range(len(reach))], bool)


def pair_tiers(rates: pd.DataFrame, alpha: float = ALPHA, method: str = ADJUST_METHOD) -> pd.DataFrame:
    """Tiers from head-to-head rates, no rating model: tier 1 is every bot that no bot beats head to head.

    **The rule.** A beats B when A finishes ahead of B in more than half of their decided games and the two-sided
    p of "half" (`riskstats.stats.head_to_head.pair_rates`' cluster-aware score test), Holm-adjusted over every
    pair of bots of the table (`pair_beats`), is below ``alpha``: the pair's interval at the family-wise level
    lies wholly above 1/2. **Tier 1** is every bot that no bot beats; should beats run in a cycle that leaves no bot
    unbeaten, tier 1 is the smallest set that no bot outside it beats (the Schwartz set: the cycle's bots share
    the tier). **Tier 2** is the same among the bots left (beats by tier-1 bots no longer count), and so on. Two
    bots in one tier are not separated by this evidence (neither beats the other), which does not make them equal;
    a bot in a lower tier is beaten by at least one bot of a higher tier.

    Parameters
    ----------
    rates : pandas.DataFrame
        `riskstats.stats.head_to_head.pair_rates` of one player count (both orders of every pair).
    alpha, method
        The family-wise error rate and the adjustment (`ADJUST_METHOD`).

    Returns
    -------
    pandas.DataFrame
        One row per bot, by tier, then by bots beaten minus bots beaten by (most first): ``bot``, ``tier``,
        ``beats`` (bots it beats), ``beaten`` (bots that beat it), ``beaten_by`` (those bots with their share
        ``"x 59.1% [55.0%, 63.1%]"``, joined by ``"; "``), ``players``.

    >>> rates = pd.DataFrame({"players": 4, "bot": ["a", "b", "a", "c", "b", "c"],
    ...                       "opponent": ["b", "a", "c", "a", "c", "b"], "share": [0.5, 0.5, 0.7, 0.3, 0.7, 0.3],
    ...                       "ci_low": 0.4, "ci_high": 0.8, "p_value": [0.9, 0.9, 1e-4, 1e-4, 1e-4, 1e-4]})
    >>> pair_tiers(rates)[["bot", "tier", "beaten"]].values.tolist()
    [['a', 1, 0], ['b', 1, 0], ['c', 2, 2]]
    """
    if rates["players"].nunique() != 1:
        raise RiskstatsError("pair_tiers needs the rates of one player count")
    judged = pair_beats(rates, alpha, method)
    names = list(dict.fromkeys([*judged.bot, *judged.opponent]))
    index = {name: k for k, name in enumerate(names)}
    beats = np.zeros((len(names), len(names)), bool)
    for a, b in judged.loc[judged.beats, ["bot", "opponent"]].itertuples(index=False):
        beats[index[a], index[b]] = True
    tier = np.zeros(len(names), int)
    number = 1
    while (tier == 0).any():
        left = np.flatnonzero(tier == 0)
        top = _top_set(beats[np.ix_(left, left)])
        tier[left[top]] = number
        number += 1
    winners = judged[judged.beats]
    by = {b: "; ".join(f"{r.bot} {r.share:.1%} [{r.ci_low:.1%}, {r.ci_high:.1%}]" for r in part.itertuples())
          for b, part in winners.groupby("opponent")}
    out = pd.DataFrame({"bot": names, "tier": tier, "beats": beats.sum(1), "beaten": beats.sum(0),
                        "beaten_by": [by.get(n, "") for n in names], "players": int(judged.players.iloc[0])})
    out["order"] = out.beats - out.beaten
    out = out.sort_values(["tier", "order", "bot"], ascending=[True, False, True], kind="stable")
    return out.drop(columns="order").reset_index(drop=True)


LUCE_COLUMNS = ("elo", "ci_low", "ci_high", "games", "wins", "win_rate")
"""The Luce ladder's columns (``ladder.csv``, `riskstats.stats.ratings.luce`) that `tiers_table` carries as
context: they do not set the tiers (the model fails its bootstrap fit test on both committed four-player ladders)."""
DESIGNS = ("own deals", "round robin", "shared deals")
"""The per-game tables of `tiers_table`, as ``head_to_head.csv``'s ``design`` names them: the four-player ladder
with every line-up on its own deals (``tier``), the two-player round robin (``tier_2p``) and the four-player ladder
whose line-ups all replay the same deals (``tier_shared_deals``, context: a pair's games cluster in a few deals)."""


def tiers_table(four: pd.DataFrame, two: pd.DataFrame | None = None, ladder: pd.DataFrame | None = None,
                fit: pd.DataFrame | None = None, alpha: float = ALPHA, method: str = ADJUST_METHOD,
                shared: pd.DataFrame | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The tiers of the bots from their per-game tables (`pair_tiers` of `riskstats.stats.head_to_head.pair_rates`,
    finishing places), four-player and, with ``two``, two-player; ``tiers.csv`` and ``head_to_head.csv``.

    Parameters
    ----------
    four : pandas.DataFrame
        The four-player ladder's per-game table, every line-up on its own deals
        (``ladder_own_seeds/ladder_games.csv.gz``): ``tier``, whose tier 1 is one of the judging populations.
    two : pandas.DataFrame, optional
        The two-player round robin's per-game table (``round_robin_games.csv.gz``): ``tier_2p`` and the rest,
        whose tier 1 is the other.
    ladder, fit : pandas.DataFrame, optional
        The Luce ladder of ``four`` (``ladder.csv``) and its fit test (``ladder_fit.csv``), carried as context
        (`LUCE_COLUMNS`; ``fit_p_g2``, ``fit_p_pearson``, ``fit_p_boot``, ``fit_rejected``). G2's and Pearson's
        chi-square p-values are left empty where the fit's smallest expected count is below `MIN_EXPECTED` (then
        only the parametric bootstrap's p is read).
    shared : pandas.DataFrame, optional
        A four-player ladder whose line-ups replay the same deals (``ladder/ladder_games.csv.gz``), as context:
        ``tier_shared_deals`` and ``deff_shared_deals``, the median design effect of the bot's pairs there
        (`riskstats.stats.head_to_head.pair_rates`' ``deff``: how many games weigh like one).

    Returns
    -------
    tiers : pandas.DataFrame
        One row per bot, by four-player tier: ``bot``, ``tier``, ``beats``, ``beaten``, ``beaten_by`` (four-player,
        `pair_tiers`), the same with ``_2p`` for two-player, ``tier_shared_deals`` and ``deff_shared_deals``, then
        the Luce context.
    head_to_head : pandas.DataFrame
        The matrices long form (`pair_beats`: ``design`` (`DESIGNS`), ``players``, ``bot``, ``opponent``, ...,
        ``deff``, ..., ``p_adjusted``, ``beats``).
    """
    def matrix(games, design):
        return pair_beats(pair_rates(games), alpha, method).assign(design=design)

    matrices = [matrix(four, DESIGNS[0])]
    tiers = pair_tiers(matrices[0], alpha, method).drop(columns="players")
    order = list(tiers.bot)  # the four-player order first
    if two is not None:
        matrices.append(matrix(two, DESIGNS[1]))
        second = pair_tiers(matrices[-1], alpha, method).drop(columns="players")
        order += [b for b in second.bot if b not in set(order)]
        tiers = tiers.merge(second.add_suffix("_2p").rename(columns={"bot_2p": "bot"}), on="bot", how="outer")
    if shared is not None:
        matrices.append(matrix(shared, DESIGNS[2]))
        third = pair_tiers(matrices[-1], alpha, method)[["bot", "tier"]].rename(columns={"tier": "tier_shared_deals"})
        third["deff_shared_deals"] = third.bot.map(matrices[-1].groupby("bot").deff.median())
        order += [b for b in third.bot if b not in set(order)]
        tiers = tiers.merge(third, on="bot", how="outer")
    tiers = tiers.set_index("bot").loc[order].reset_index()
    ints = [c for c in ("tier", "tier_2p", "tier_shared_deals") if c in tiers.columns]
    tiers[ints] = tiers[ints].astype("Int64")
    if ladder is not None:
        keep = ["bot", *(c for c in LUCE_COLUMNS if c in ladder.columns)]
        tiers = tiers.merge(ladder[keep], on="bot", how="left")
    if fit is not None:
        if len(fit) != 1:
            raise RiskstatsError(f"the ladder's fit should be one row, got {len(fit)}")
        small = "min_expected" in fit.columns and float(fit["min_expected"].iloc[0]) < MIN_EXPECTED
        for source, column in FIT_COLUMNS.items():
            asymptotic = source != "p_boot"  # a chi-square reference: meaningless with tiny expected counts
            tiers[column] = float(fit[source].iloc[0]) if source in fit.columns and not (small and asymptotic) \
                else np.nan
        tiers["fit_rejected"] = bool((tiers[list(FIT_COLUMNS.values())].iloc[0] < alpha).any())
    head_to_head = pd.concat(matrices, ignore_index=True)
    return tiers, head_to_head[["design", *(c for c in head_to_head.columns if c != "design")]]


def tier_one(tiers: pd.DataFrame) -> dict:
    """The judging populations' bots from a tiers table (``tiers.csv``, `tiers_table`): each format's tier 1 by
    direct head to head, ``{"tier": [...], "tier_2p": [...]}`` (the four-player ladder on its own deals and the
    two-player round robin; a format the table lacks is left out). `riskstats.stats.robustness.TOP_TIER` holds the
    union of these bots (a test ties them).

    >>> tier_one(pd.DataFrame({"bot": ["a", "b", "c"], "tier": [1, 2, 1], "tier_2p": [2, 1, 3]}))
    {'tier': ['a', 'c'], 'tier_2p': ['b']}
    """
    return {c: tiers.bot[tiers[c] == 1].tolist() for c in ("tier", "tier_2p") if c in tiers.columns}


def top_tier_matches(tiers: pd.DataFrame, top_tier: dict | None = None) -> bool:
    """Whether the judging populations' bots (``top_tier``, default `riskstats.stats.robustness.TOP_TIER`) are
    exactly the union of each format's tier 1 in ``tiers`` (`tier_one`), a catalogue name and its full spec
    counting as one bot (`riskstats.game.bots.catalog.parse_bot`).

    >>> top = {"s": {"bot": "search:rollouts=8:horizon=1:plans=6:value=formula"}, "r": {"bot": "random"}}
    >>> tiers = pd.DataFrame({"bot": ["search", "random", "aggressive"], "tier": [1, 2, 3], "tier_2p": [2, 1, 3]})
    >>> top_tier_matches(tiers, top), top_tier_matches(tiers.assign(tier_2p=[1, 2, 3]), top)
    (True, False)
    """
    from riskstats.game.bots.catalog import parse_bot

    def bot(spec):
        parsed = parse_bot(spec)
        return parsed.id, parsed.values

    top_tier = TOP_TIER if top_tier is None else top_tier
    union = {bot(b) for bots in tier_one(tiers).values() for b in bots}
    return union == {bot(entry["bot"]) for entry in top_tier.values()}


def _row_verdicts(holds, reversed_) -> np.ndarray:
    return np.where(np.asarray(holds, bool), "holds", np.where(np.asarray(reversed_, bool), "reversed",
                                                                  "inconclusive"))


def _tier_verdict(verdicts) -> str:
    """One tier's verdict from its row verdicts: ``holds`` / ``reversed`` / ``inconclusive`` where every row says
    so, ``mixed`` where they differ."""
    verdicts = set(verdicts)
    return verdicts.pop() if len(verdicts) == 1 else "mixed"


def _verdict(by_tier: dict) -> str:
    """The verdict (`VERDICTS`) of a finding from its row verdicts in each tier measured (tier -> list).

    >>> [_verdict(v) for v in ({"a": ["holds"], "b": ["holds"]}, {"a": ["holds"], "b": ["inconclusive"]},
    ...                        {"a": ["reversed"], "b": ["holds"]}, {"a": ["inconclusive"], "b": ["inconclusive"]},
    ...                        {"a": ["holds", "inconclusive"], "b": ["holds"]}, {"a": ["reversed"]})]
    ['holds', 'tier-dependent', 'tier-dependent', 'inconclusive', 'mixed', 'fails']
    """
    by_tier = {t: _tier_verdict(v) for t, v in by_tier.items() if len(v)}
    if not by_tier:
        return "no top-tier rows"
    every = set(by_tier.values())
    if "mixed" in every:
        return "mixed"
    if len(every) > 1:
        return "tier-dependent"
    return {"holds": "holds", "reversed": "fails", "inconclusive": "inconclusive"}[every.pop()]


def _intervals(rows: pd.DataFrame) -> str:
    return "; ".join(f"{e:.3g} [{lo:.3g}, {hi:.3g}] ({n})" for e, lo, hi, n in
                     zip(rows["estimate"], rows["ci_low"], rows["ci_high"], rows["n"]))


OUTSIDE_COLUMNS = ("outside", "outside_estimate", "outside_bots")
"""The verdict table's columns from the outside experiments (`riskstats.analysis.outside_findings.outside_verdicts`,
issue 52): the finding's verdict against Domination's hard AI (``holds``, ``reversed``, ``inconclusive``; empty where
it was not checked there), its estimate with interval and n, and who played it."""


def finding_verdicts(rows: pd.DataFrame, outside: pd.DataFrame | None = None, tiers=None) -> pd.DataFrame:
    """One verdict per finding under the top tier (module docstring), beside the old populations' and, where it was
    checked there, its verdict against Domination's hard AI.

    Parameters
    ----------
    rows : pandas.DataFrame
        Robustness rows of every notebook, with the adjusted columns of `adjust` (if they lack them, `adjust`
        is applied to these rows as the family); an optional ``note`` column gives a notebook's words on a
        finding (such as why it has no top-tier rows).
    outside : pandas.DataFrame, optional
        `riskstats.analysis.outside_findings.outside_verdicts`: ``notebook``, ``finding`` and `OUTSIDE_COLUMNS`; a
        finding there that the rows lack is an error (its words must be the notebook's).
    tiers : dict, optional
        The judging tiers (default `TOP_TIER`); the rows' adjusted columns must be `adjust`'s for the same tiers.

    Returns
    -------
    pandas.DataFrame
        One row per notebook (its number) and finding, in the rows' order: ``verdict`` (on the adjusted rows),
        ``verdict_unadjusted`` (the same rule on ``holds`` and ``reversed``), ``tiers`` (the top tiers with rows,
        ``"search; search:value=model"``), ``verdict <tier>`` per top tier (its own rows' verdict: ``holds``,
        ``reversed``, ``inconclusive`` or ``mixed``; empty where not measured), ``n_top`` (the smallest n among
        them), one column per top tier
        (``search``, ``search:value=model``: each row's ``"estimate [low, high] (n)"``, joined by ``"; "``),
        ``heuristic`` and ``value:rollouts=1:plans=4`` (the old populations' group verdicts on the adjusted rows;
        empty where not measured), ``changed`` (the verdict differs from the one the same rule gives the
        ``value:rollouts=1:plans=4`` rows, both measured; holds and holds is unchanged), ``old_estimate`` and
        ``new_estimate`` (the intervals of both, for changed findings), ``complete`` (every top tier measured),
        ``note`` and `OUTSIDE_COLUMNS` (empty where not checked outside).

    >>> from riskstats.runs.tiers import TIER_SETS
    >>> tier = {t: e["population"] for t, e in TIER_SETS["top"].items()}
    >>> rows = pd.DataFrame({"notebook": "04", "finding": "f", "population": [tier["search"],
    ...                      tier["search:value=model"], "value in every seat (strong)"], "bots": "b", "n": 100,
    ...                      "estimate": [0.1, -0.1, 0.1], "ci_low": [0.05, -0.15, 0.05],
    ...                      "ci_high": [0.15, -0.05, 0.15], "holds": [True, False, True],
    ...                      "reversed": [False, True, False], "reference": 0.0})
    >>> finding_verdicts(rows, tiers=TIER_SETS["top"])[["verdict", "tiers", "changed"]].values.tolist()
    [['tier-dependent', 'search; search:value=model', True]]
    """
    need = [c for c in ("notebook", "finding", "population", "n", "estimate", "ci_low", "ci_high", "holds")
            if c not in rows.columns]
    if need:
        raise RiskstatsError(f"the rows have no {', '.join(map(repr, need))} column")
    tiers = TOP_TIER if tiers is None else tiers
    if not set(ADJUSTED_COLUMNS) <= set(rows.columns):
        rows = adjust(rows, tiers=tiers)
    rows = complete_rows(rows).reset_index(drop=True)
    rows["notebook"] = notebook_number(rows["notebook"])
    rows["group"] = [population_group(p) for p in rows["population"]]
    rows["row_verdict"] = _row_verdicts(rows["holds_adjusted"], rows["reversed_adjusted"])
    rows["row_unadjusted"] = _row_verdicts(rows["holds"], rows["reversed"])
    out = []
    for (notebook, finding), g in rows.groupby(["notebook", "finding"], sort=False):
        top = {t: g[g.group == t] for t in tiers}
        measured = [t for t, r in top.items() if len(r)]
        verdict = _verdict({t: top[t].row_verdict for t in measured})
        if 0 < len(measured) < len(tiers):
            verdict = f"{verdict} ({measured[0]} only)"
        top_rows = g[g.group.isin(tiers)]
        old = g[g.group == OLD]
        changed = bool(measured) and len(old) > 0 and _verdict({OLD: old.row_verdict}) != verdict
        notes = g["note"].dropna().astype(str).str.strip() if "note" in g else pd.Series([], dtype=str)
        out.append({
            "notebook": notebook, "finding": finding, "verdict": verdict,
            "verdict_unadjusted": _verdict({t: top[t].row_unadjusted for t in measured})
            + (f" ({measured[0]} only)" if 0 < len(measured) < len(tiers) else ""),
            **{f"verdict {t}": _tier_verdict(top[t].row_verdict) if t in measured else "" for t in tiers},
            "tiers": "; ".join(measured), "n_top": top_rows["n"].min() if len(top_rows) else pd.NA,
            **{t: _intervals(top[t]) for t in tiers},
            **{c: group_verdict(g.row_verdict[g.group == c]) if (g.group == c).any() else "" for c in CONTEXT_COLUMNS},
            "changed": changed, "old_estimate": _intervals(old) if changed else "",
            "new_estimate": "; ".join(f"{t}: {_intervals(top[t])}" for t in measured) if changed else "",
            "complete": len(measured) == len(tiers),
            "note": "; ".join(dict.fromkeys(n for n in notes if n)),
        })
    columns = ["notebook", "finding", "verdict", "verdict_unadjusted", *(f"verdict {t}" for t in tiers), "tiers",
               "n_top", *tiers, *CONTEXT_COLUMNS,
               "changed", "old_estimate", "new_estimate", "complete", "note"]
    frame = pd.DataFrame(out, columns=columns)
    frame["n_top"] = frame["n_top"].astype("Int64")
    checked = {}
    if outside is not None:
        for r in outside.assign(notebook=notebook_number(outside["notebook"])).itertuples(index=False):
            checked[(r.notebook, r.finding)] = r
        missing = set(checked) - set(zip(frame["notebook"], frame["finding"]))
        if missing:
            notebook, finding = sorted(missing)[0]
            raise RiskstatsError(f"the outside verdicts name a finding the robustness rows lack: notebook "
                                 f"{notebook}, {finding!r}")
    for column in OUTSIDE_COLUMNS:
        frame[column] = [getattr(checked[k], column) if k in checked else ""
                         for k in zip(frame["notebook"], frame["finding"])]
    return frame


def verdict_changes(rows: pd.DataFrame, before: str, after: str = JUDGING) -> pd.DataFrame:
    """The answers that changed when the top tier moved from the tier set ``before`` to ``after``
    (`riskstats.runs.tiers.TIER_SETS`): every finding judged by each set's tiers as if it were the judging one (its
    rows the top-tier family of `adjust`, the rest context), side by side.

    Returns
    -------
    pandas.DataFrame
        One row per finding: ``notebook``, ``finding``, ``before`` and ``after`` (`finding_verdicts`' ``verdict``
        under each set), ``changed`` (the verdicts differ, whichever tiers measured them), ``before_tiers`` and
        ``after_tiers`` (each tier's own verdict, ``tier: verdict``, joined by ``"; "``), ``before_estimates`` and
        ``after_estimates`` (each tier's rows, ``tier: estimate [low, high] (n)``), and ``why``: in words, which of
        the new tiers' rows decided the new verdict against the old one.
    """
    from riskstats.runs.tiers import TIER_SETS

    judged = {}
    for name in (before, after):
        if name not in TIER_SETS:
            raise RiskstatsError(f"unknown tier set {name!r}; choose from {', '.join(TIER_SETS)}")
        tiers = TIER_SETS[name]
        verdicts = finding_verdicts(adjust(rows.drop(columns=list(ADJUSTED_COLUMNS), errors="ignore"), tiers=tiers),
                                    tiers=tiers)
        verdicts["tier_verdicts"] = ["; ".join(f"{t}: {r[f'verdict {t}'] or 'not measured'}" for t in tiers)
                                     for _, r in verdicts.iterrows()]
        verdicts["estimates"] = ["; ".join(f"{t}: {r[t]}" for t in tiers if r[t]) for _, r in verdicts.iterrows()]
        judged[name] = verdicts.set_index(["notebook", "finding"])
    old, new = judged[before], judged[after]
    out = pd.DataFrame({"before": old.verdict, "after": new.verdict.reindex(old.index)}).reset_index()
    out["changed"] = out.before.str.split(" (", regex=False).str[0] != out.after.str.split(" (", regex=False).str[0]
    for side, frame in (("before", old), ("after", new)):
        out[f"{side}_tiers"] = frame.tier_verdicts.reindex(out.set_index(["notebook", "finding"]).index).to_numpy()
        out[f"{side}_estimates"] = frame.estimates.reindex(out.set_index(["notebook", "finding"]).index).to_numpy()
    out["why"] = [_why(r) for r in out.itertuples()]
    return out


def _why(row) -> str:
    """In words, why a finding's verdict moved from ``before`` to ``after`` (`verdict_changes`)."""
    if not row.changed:
        return ""
    if row.after.startswith("no top-tier rows"):
        return "not measured in the new top tier"
    if row.before.startswith("no top-tier rows"):
        return f"measured for the first time in the top tier: {row.after_tiers}"
    return f"the new top tier's rows say {row.after_tiers} where the former's said {row.before_tiers}"


def judge_table(folder, method: str = ADJUST_METHOD, alpha: float = ALPHA,
                outside: pd.DataFrame | None = None) -> pd.DataFrame:
    """Adjust every notebook's rows in ``folder`` together, write them back and write ``verdicts.csv``; return the
    verdicts.

    `riskstats.stats.robustness.adjust_folder` (each notebook's rows written back with `ADJUSTED_COLUMNS` appended,
    as every notebook's writer also does), then ``verdicts.csv`` (`finding_verdicts`, with the ``outside``
    verdicts). Running it again gives the same files.
    """
    from riskstats.runs.results import write_files

    verdicts = finding_verdicts(adjust_folder(folder, method, alpha), outside)
    write_files(folder, {"verdicts": verdicts}, {})
    return verdicts


LADDER_GAMES, ROUND_ROBIN_GAMES = "ladder_games.csv.gz", "round_robin_games.csv.gz"
"""The per-game tables beside a ``ladder.csv`` that `write_verdicts` reads the tiers from: the four-player ladder
(every line-up of 4) and the two-player round robin (every pair, both seatings of each seed)."""
TIER_TABLES = LADDERS[JUDGING]
"""The committed tables `write_verdicts` reads by default, under ``data/``: the judging set's ladders
(`riskstats.runs.tiers.LADDERS`): the four-player ladder with every line-up on its own deals (``ladder.csv``, its fit
and its per-game table beside it: ``tier`` and the Luce context), the two-player round robin (``tier_2p``) and, where
the set has one, a four-player ladder whose line-ups replay the same deals (``tier_shared_deals``, context)."""


def write_verdicts(folder, ladder=None, fit=None, method: str = ADJUST_METHOD, alpha: float = ALPHA,
                   two_player=None, shared_deals=None, data=None, outside: pd.DataFrame | None = None,
                   changed_from: str | None = None) -> pd.DataFrame:
    """Judge every finding of the robustness table in ``folder`` under the top tier; write the results.

    `judge_table` (the adjusted columns in every notebook's CSV, and ``verdicts.csv``), then ``tiers.csv`` and
    ``head_to_head.csv`` (`tiers_table`) into ``folder``: the four-player tiers from the per-game table beside
    ``ladder`` (`LADDER_GAMES`, required), the two-player ones from ``two_player``, the shared-deals context from
    ``shared_deals``, with the Luce ladder and its fit as context.

    Parameters
    ----------
    folder : path
        The robustness table's folder.
    ladder : path, optional
        The four-player rating ladder with its per-game table beside it; by default the committed tables
        (`TIER_TABLES` under ``data``, each default below then read from there too).
    fit : path, optional
        Its fit test; by default ``ladder_fit.csv`` beside it, if there.
    method, alpha
        As for `adjust` (and the tiers' adjustment over the pairs).
    two_player : path, optional
        The two-player round robin's per-game table; by default `ROUND_ROBIN_GAMES` beside ``ladder``, if there.
    shared_deals : path, optional
        A four-player per-game table whose line-ups share their deals (context); by default none.
    data : path, optional
        The data folder that `TIER_TABLES` lie in (without ``ladder``); by default the folder above ``folder``.
    outside : pandas.DataFrame, optional
        The findings' verdicts against Domination's hard AI (`riskstats.analysis.outside_findings.outside_verdicts`),
        for ``verdicts.csv``'s `OUTSIDE_COLUMNS` (`finding_verdicts`).
    changed_from : str, optional
        A former judging tier set (`riskstats.runs.tiers.TIER_SETS`): also write ``verdict_changes.csv``, every
        finding's verdict under it and under the judging set (`verdict_changes`).

    Returns
    -------
    pandas.DataFrame
        The verdicts (`finding_verdicts`).
    """
    from pathlib import Path

    from riskstats.runs.results import write_files

    if not notebook_files(folder):
        raise RiskstatsError(f"no robustness rows (<notebook>.csv) in {folder}")
    if ladder is None:
        data = Path(folder).parent if data is None else Path(data)
        committed = {name: data / path for name, path in TIER_TABLES.items()}
        ladder = committed["ladder"]
        two_player = committed["two_player"] if two_player is None else two_player
        shared_deals = committed.get("shared_deals") if shared_deals is None else shared_deals
    ladder = Path(ladder)
    fit = ladder.with_name("ladder_fit.csv") if fit is None else Path(fit)
    if not ladder.is_file():
        raise RiskstatsError(f"no ladder at {ladder}")
    four = ladder.with_name(LADDER_GAMES)
    two = ladder.with_name(ROUND_ROBIN_GAMES) if two_player is None else Path(two_player)
    if not four.is_file():
        raise RiskstatsError(f"no per-game ladder table at {four}: the tiers are computed from it")
    if shared_deals is not None and not Path(shared_deals).is_file():
        raise RiskstatsError(f"no per-game table at {shared_deals}")
    tiers, head_to_head = tiers_table(pd.read_csv(four), pd.read_csv(two) if two.is_file() else None,
                                      pd.read_csv(ladder), pd.read_csv(fit) if fit.is_file() else None, alpha, method,
                                      pd.read_csv(shared_deals) if shared_deals is not None else None)
    verdicts = judge_table(folder, method, alpha, outside)
    tables = {"tiers": tiers, "head_to_head": head_to_head}
    if changed_from is not None:
        rows = pd.concat([pd.read_csv(f, dtype={"notebook": str}) for f in notebook_files(folder)], ignore_index=True)
        tables["verdict_changes"] = verdict_changes(rows, changed_from)
    write_files(folder, tables, {})
    return verdicts
