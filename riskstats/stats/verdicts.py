"""The verdict of each finding of the robustness table under the rating ladder's top tier (issue #29).

This module owns the tiers of a ladder (`ladder_tiers`: the top tier is every bot whose rating interval overlaps
the best one's, then the same again on the rest), the family-wise adjustment of the table's p-values
(`adjust`: `ADJUST_METHOD` at `ALPHA`, in two families: the top tier's rows, which judge the findings, and the
context rows, adjusted apart so that they neither dilute nor borrow from the judging rows), the verdict of each
finding from its rows in the top-tier populations (`finding_verdicts`, `VERDICTS`), `judge_table`, which writes the
adjusted columns back into every notebook's CSV (as every notebook's writer does,
`riskstats.stats.robustness.adjust_folder`) and ``verdicts.csv`` beside them, and `write_verdicts`, which adds
``tiers.csv``. The rows, their
columns and their population groups are `riskstats.stats.robustness`'; the ladder is
`riskstats.stats.ratings.luce`'s (winner-only Luce ratings on the Elo scale with 95% bootstrap intervals).

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
``complete`` says whether every top tier was. The ladder's Luce fit should be read beside its tiers: ``tiers.csv``
carries the fit's p-values (G2, Pearson, parametric bootstrap) and whether any rejects the model at `ALPHA`.

>>> import pandas as pd
>>> ladder = pd.DataFrame({"bot": ["a", "b", "c"], "elo": [250, 235, 214], "ci_low": [240, 220, 198],
...                        "ci_high": [272, 252, 228]})
>>> ladder_tiers(ladder)[["bot", "tier"]].values.tolist()
[['a', 1], ['b', 1], ['c', 2]]
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from riskstats.errors import RiskstatsError
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
           "ladder_tiers", "write_verdicts"]

VERDICTS = ("holds", "fails", "tier-dependent", "inconclusive", "mixed", "no top-tier rows")
"""A finding's verdict under the top tier (module docstring)."""
CONTEXT_COLUMNS = ("heuristic", "value:rollouts=1:plans=4")
"""The old populations whose group verdicts (`riskstats.stats.robustness.group_verdict`) stand beside the top
tier's in `finding_verdicts`."""
OLD = "value:rollouts=1:plans=4"
"""The old population (once "strong") that ``changed`` compares the top tier's verdict with."""
FIT_COLUMNS = {"p_value": "fit_p_g2", "pearson_p": "fit_p_pearson", "p_boot": "fit_p_boot"}
"""The ladder fit's p-values (`riskstats.stats.ratings.luce_fit`) -> their columns in `ladder_tiers`' table."""
MIN_EXPECTED = 5.0
"""The smallest expected cell count at which G2's and Pearson's chi-square p-values are reported (Cochran's rule);
below it `ladder_tiers` leaves them empty and only the parametric bootstrap's p is read."""


def ladder_tiers(ladder: pd.DataFrame, fit: pd.DataFrame | None = None) -> pd.DataFrame:
    """Each bot's tier in a rating ladder: tier 1 is every bot whose interval overlaps the best one's (highest
    ``elo``), tier 2 the same among the bots left, and so on.

    Parameters
    ----------
    ladder : pandas.DataFrame
        One row per bot (``ladder.csv``): columns ``bot``, ``elo``, ``ci_low``, ``ci_high`` (others are kept).
    fit : pandas.DataFrame, optional
        The ladder's goodness-of-fit row (``ladder_fit.csv``: ``p_value`` of G2, ``pearson_p``, ``p_boot``).

    Returns
    -------
    pandas.DataFrame
        The ladder by rating, with ``tier`` and ``tier_best`` (the bot whose interval defines the tier) after
        ``bot``; with ``fit``, also ``fit_p_g2``, ``fit_p_pearson``, ``fit_p_boot`` (the fit's p-values, NaN
        where it has none, the two chi-square ones also where the fit's smallest expected count is below
        `MIN_EXPECTED`) and ``fit_rejected`` (any below `ALPHA`: the Luce model does not fit, and the tiers
        should be read with that caveat).

    >>> ladder = pd.DataFrame({"bot": ["c", "a", "b"], "elo": [0.0, 10.0, 5.0], "ci_low": [-4.0, 6.0, 1.0],
    ...                        "ci_high": [4.0, 14.0, 9.0]})
    >>> ladder_tiers(ladder)[["bot", "tier", "tier_best"]].values.tolist()
    [['a', 1, 'a'], ['b', 1, 'a'], ['c', 2, 'c']]
    """
    need = [c for c in ("bot", "elo", "ci_low", "ci_high") if c not in ladder.columns]
    if need:
        raise RiskstatsError(f"the ladder has no {', '.join(map(repr, need))} column")
    if len(ladder) == 0:
        raise RiskstatsError("the ladder has no bots")
    if ladder[["elo", "ci_low", "ci_high"]].isna().any().any():
        raise RiskstatsError("every bot of the ladder needs a rating and an interval")
    out = ladder.sort_values("elo", ascending=False, kind="stable").reset_index(drop=True)
    low, high = out["ci_low"].to_numpy(float), out["ci_high"].to_numpy(float)
    tier = np.zeros(len(out), int)
    best = np.empty(len(out), object)
    number = 1
    while (tier == 0).any():
        top = int(np.flatnonzero(tier == 0)[0])  # sorted by rating: the best bot left
        members = (tier == 0) & (high >= low[top]) & (low <= high[top])
        tier[members], best[members] = number, out["bot"].iloc[top]
        number += 1
    out.insert(1, "tier", tier)
    out.insert(2, "tier_best", best)
    if fit is not None:
        if len(fit) != 1:
            raise RiskstatsError(f"the ladder's fit should be one row, got {len(fit)}")
        small = "min_expected" in fit.columns and float(fit["min_expected"].iloc[0]) < MIN_EXPECTED
        for source, column in FIT_COLUMNS.items():
            asymptotic = source != "p_boot"  # a chi-square reference: meaningless with tiny expected counts
            out[column] = float(fit[source].iloc[0]) if source in fit.columns and not (small and asymptotic) \
                else np.nan
        out["fit_rejected"] = bool((out[list(FIT_COLUMNS.values())].iloc[0] < ALPHA).any())
    return out


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


def finding_verdicts(rows: pd.DataFrame) -> pd.DataFrame:
    """One verdict per finding under the ladder's top tier (module docstring), beside the old populations'.

    Parameters
    ----------
    rows : pandas.DataFrame
        Robustness rows of every notebook, with the adjusted columns of `adjust` (if they lack them, `adjust`
        is applied to these rows as the family); an optional ``note`` column gives a notebook's words on a
        finding (such as why it has no top-tier rows).

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
        ``new_estimate`` (the intervals of both, for changed findings), ``complete`` (every top tier measured) and
        ``note``.

    >>> tier = {t: e["population"] for t, e in TOP_TIER.items()}
    >>> rows = pd.DataFrame({"notebook": "04", "finding": "f", "population": [tier["search"],
    ...                      tier["search:value=model"], "value in every seat (strong)"], "bots": "b", "n": 100,
    ...                      "estimate": [0.1, -0.1, 0.1], "ci_low": [0.05, -0.15, 0.05],
    ...                      "ci_high": [0.15, -0.05, 0.15], "holds": [True, False, True],
    ...                      "reversed": [False, True, False], "reference": 0.0})
    >>> finding_verdicts(rows)[["verdict", "tiers", "changed"]].values.tolist()
    [['tier-dependent', 'search; search:value=model', True]]
    """
    need = [c for c in ("notebook", "finding", "population", "n", "estimate", "ci_low", "ci_high", "holds")
            if c not in rows.columns]
    if need:
        raise RiskstatsError(f"the rows have no {', '.join(map(repr, need))} column")
    if not set(ADJUSTED_COLUMNS) <= set(rows.columns):
        rows = adjust(rows)
    rows = complete_rows(rows).reset_index(drop=True)
    rows["notebook"] = notebook_number(rows["notebook"])
    rows["group"] = [population_group(p) for p in rows["population"]]
    rows["row_verdict"] = _row_verdicts(rows["holds_adjusted"], rows["reversed_adjusted"])
    rows["row_unadjusted"] = _row_verdicts(rows["holds"], rows["reversed"])
    out = []
    for (notebook, finding), g in rows.groupby(["notebook", "finding"], sort=False):
        top = {t: g[g.group == t] for t in TOP_TIER}
        measured = [t for t, r in top.items() if len(r)]
        verdict = _verdict({t: top[t].row_verdict for t in measured})
        if 0 < len(measured) < len(TOP_TIER):
            verdict = f"{verdict} ({measured[0]} only)"
        top_rows = g[g.group.isin(TOP_TIER)]
        old = g[g.group == OLD]
        changed = bool(measured) and len(old) > 0 and _verdict({OLD: old.row_verdict}) != verdict
        notes = g["note"].dropna().astype(str).str.strip() if "note" in g else pd.Series([], dtype=str)
        out.append({
            "notebook": notebook, "finding": finding, "verdict": verdict,
            "verdict_unadjusted": _verdict({t: top[t].row_unadjusted for t in measured})
            + (f" ({measured[0]} only)" if 0 < len(measured) < len(TOP_TIER) else ""),
            **{f"verdict {t}": _tier_verdict(top[t].row_verdict) if t in measured else "" for t in TOP_TIER},
            "tiers": "; ".join(measured), "n_top": top_rows["n"].min() if len(top_rows) else pd.NA,
            **{t: _intervals(top[t]) for t in TOP_TIER},
            **{c: group_verdict(g.row_verdict[g.group == c]) if (g.group == c).any() else "" for c in CONTEXT_COLUMNS},
            "changed": changed, "old_estimate": _intervals(old) if changed else "",
            "new_estimate": "; ".join(f"{t}: {_intervals(top[t])}" for t in measured) if changed else "",
            "complete": len(measured) == len(TOP_TIER),
            "note": "; ".join(dict.fromkeys(n for n in notes if n)),
        })
    columns = ["notebook", "finding", "verdict", "verdict_unadjusted", *(f"verdict {t}" for t in TOP_TIER), "tiers",
               "n_top", *TOP_TIER, *CONTEXT_COLUMNS,
               "changed", "old_estimate", "new_estimate", "complete", "note"]
    frame = pd.DataFrame(out, columns=columns)
    frame["n_top"] = frame["n_top"].astype("Int64")
    return frame


def judge_table(folder, method: str = ADJUST_METHOD, alpha: float = ALPHA) -> pd.DataFrame:
    """Adjust every notebook's rows in ``folder`` together, write them back and write ``verdicts.csv``; return the
    verdicts.

    `riskstats.stats.robustness.adjust_folder` (each notebook's rows written back with `ADJUSTED_COLUMNS` appended,
    as every notebook's writer also does), then ``verdicts.csv`` (`finding_verdicts`). Running it again gives the
    same files.
    """
    from riskstats.runs.results import write_files

    verdicts = finding_verdicts(adjust_folder(folder, method, alpha))
    write_files(folder, {"verdicts": verdicts}, {})
    return verdicts


def write_verdicts(folder, ladder, fit=None, method: str = ADJUST_METHOD, alpha: float = ALPHA) -> pd.DataFrame:
    """Judge every finding of the robustness table in ``folder`` under the ladder's top tier; write the results.

    `judge_table` (the adjusted columns in every notebook's CSV, and ``verdicts.csv``), then ``tiers.csv``
    (`ladder_tiers` of ``ladder`` with its fit's p-values) into ``folder``.

    Parameters
    ----------
    folder : path
        The robustness table's folder.
    ladder : path
        The rating ladder (``data/value_bot/issue30/ladder/ladder.csv``).
    fit : path, optional
        Its fit test; by default ``ladder_fit.csv`` beside it, if there.
    method, alpha
        As for `adjust`.

    Returns
    -------
    pandas.DataFrame
        The verdicts (`finding_verdicts`).
    """
    from pathlib import Path

    from riskstats.runs.results import write_files

    if not notebook_files(folder):
        raise RiskstatsError(f"no robustness rows (<notebook>.csv) in {folder}")
    ladder = Path(ladder)
    fit = ladder.with_name("ladder_fit.csv") if fit is None else Path(fit)
    if not ladder.is_file():
        raise RiskstatsError(f"no ladder at {ladder}")
    tiers = ladder_tiers(pd.read_csv(ladder), pd.read_csv(fit) if fit.is_file() else None)
    verdicts = judge_table(folder, method, alpha)
    write_files(folder, {"tiers": tiers}, {})
    return verdicts
