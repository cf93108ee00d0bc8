"""The verdict of each finding of the robustness table under the rating ladder's top tier (issue #29).

This module owns the tiers of a ladder (`ladder_tiers`: the top tier is every bot whose rating interval overlaps
the best one's, then the same again on the rest), the family-wise adjustment of the whole table's p-values
(`adjust`: `ADJUST_METHOD` at `ALPHA` over every notebook's rows that have a p), the verdict of each finding from
its rows in the top-tier populations (`finding_verdicts`, `VERDICTS`) and `write_verdicts`, which writes the
adjusted columns back into each notebook's CSV and ``verdicts.csv`` and ``tiers.csv`` beside them. The rows, their
columns and their population groups are `riskstats.stats.robustness`'; the ladder is
`riskstats.stats.ratings.luce`'s (winner-only Luce ratings on the Elo scale with 95% bootstrap intervals).

A finding's verdict, judged on the adjusted rows of the top-tier populations (`riskstats.stats.robustness.TOP_TIER`):

- ``holds``: every top-tier row holds (in both top tiers);
- ``fails``: every top-tier row is reversed (the opposite claim holds in both);
- ``tier-dependent``: the two top tiers disagree, one holding and the other reversed;
- ``inconclusive``: some top-tier row neither holds nor is reversed (its interval contains the null);
- ``mixed``: no row is inconclusive, but within one tier some rows hold and some are reversed (say, by player
  count);
- ``no top-tier rows``: the finding was not measured in the top tier (the rows' ``note`` says why, if given).

A finding measured in one top tier only is judged by that tier alone and says so in its verdict (``holds (search
only)``: not evidence about Risk by the rule above, which asks for both); ``tiers`` names the tiers judged and
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
from riskstats.stats.robustness import (
    OPTIONAL_COLUMNS,
    ROBUSTNESS_COLUMNS,
    TOP_TIER,
    complete_rows,
    group_verdict,
    notebook_files,
    notebook_number,
    population_group,
)

ADJUST_METHOD = "holm"
"""The family-wise adjustment of the table's p-values (`statsmodels.stats.multitest.multipletests`' name): Holm's
step-down, over every notebook's rows that have a p."""
ALPHA = 0.05
"""The family-wise error rate: an adjusted p below it keeps a row's verdict."""
ADJUSTED_COLUMNS = ("p_adjusted", "holds_adjusted", "reversed_adjusted")
"""The columns `adjust` appends to the rows (and `write_verdicts` to each notebook's CSV)."""
VERDICTS = ("holds", "fails", "tier-dependent", "inconclusive", "mixed", "no top-tier rows")
"""A finding's verdict under the top tier (module docstring)."""
CONTEXT_COLUMNS = ("heuristic", "value:rollouts=1:plans=4")
"""The old populations whose group verdicts (`riskstats.stats.robustness.group_verdict`) stand beside the top
tier's in `finding_verdicts`."""
OLD = "value:rollouts=1:plans=4"
"""The old population (once "strong") that ``changed`` compares the top tier's verdict with."""
FIT_COLUMNS = {"p_value": "fit_p_g2", "pearson_p": "fit_p_pearson", "p_boot": "fit_p_boot"}
"""The ladder fit's p-values (`riskstats.stats.ratings.luce_fit`) -> their columns in `ladder_tiers`' table."""


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
        where it has none) and ``fit_rejected`` (any below `ALPHA`: the Luce model does not fit, and the tiers
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
        for source, column in FIT_COLUMNS.items():
            out[column] = float(fit[source].iloc[0]) if source in fit.columns else np.nan
        out["fit_rejected"] = bool((out[list(FIT_COLUMNS.values())].iloc[0] < ALPHA).any())
    return out


def adjust(rows: pd.DataFrame, method: str = ADJUST_METHOD, alpha: float = ALPHA) -> pd.DataFrame:
    """The rows with family-wise adjusted p-values and verdicts (`ADJUSTED_COLUMNS`) over the whole table.

    The family is every row with a ``p_value`` (pass all notebooks' rows at once); rows without one (a claim
    with no reference, such as "X is the cheapest") are outside it and keep their verdicts: ``p_adjusted`` is
    their ``p_value`` (NaN) and ``holds_adjusted`` / ``reversed_adjusted`` are ``holds`` / ``reversed``.

    Parameters
    ----------
    rows : pandas.DataFrame
        Robustness rows (`riskstats.stats.robustness.ROBUSTNESS_COLUMNS`; older rows are completed by
        `riskstats.stats.robustness.complete_rows`).
    method : str
        A `statsmodels.stats.multitest.multipletests` method (default `ADJUST_METHOD`, Holm).
    alpha : float
        The family-wise rate (default `ALPHA`).

    Returns
    -------
    pandas.DataFrame
        A copy of ``rows`` with ``p_adjusted``, ``holds_adjusted`` (``holds`` and ``p_adjusted < alpha``) and
        ``reversed_adjusted`` (``reversed`` and ``p_adjusted < alpha``), replacing any already there.

    >>> rows = pd.DataFrame({"estimate": [0.1, 0.1, 0.1], "ci_low": [0.0] * 3, "ci_high": [0.2] * 3,
    ...                      "holds": [True, True, True], "p_value": [0.01, 0.04, np.nan]})
    >>> adjust(rows)[["p_adjusted", "holds_adjusted"]].values.tolist()
    [[0.02, True], [0.04, True], [nan, True]]
    """
    from statsmodels.stats.multitest import multipletests

    if not 0 < alpha < 1:
        raise RiskstatsError(f"alpha must lie between 0 and 1, got {alpha}")
    rows = complete_rows(rows)
    p = rows["p_value"].to_numpy(float)
    family = ~np.isnan(p)
    adjusted = p.copy()
    if family.any():
        try:
            adjusted[family] = multipletests(p[family], alpha=alpha, method=method)[1]
        except ValueError as error:
            raise RiskstatsError(f"cannot adjust by {method!r}: {error}") from None
    keep = ~family | (adjusted < alpha)
    rows["p_adjusted"] = adjusted
    rows["holds_adjusted"] = rows["holds"].to_numpy(bool) & keep
    rows["reversed_adjusted"] = rows["reversed"].to_numpy(bool) & keep
    return rows


def _row_verdicts(holds, reversed_) -> np.ndarray:
    return np.where(np.asarray(holds, bool), "holds", np.where(np.asarray(reversed_, bool), "reversed",
                                                                  "inconclusive"))


def _verdict(by_tier: dict) -> str:
    """The verdict (`VERDICTS`) of a finding from its row verdicts in each tier measured (tier -> list)."""
    by_tier = {t: list(v) for t, v in by_tier.items() if len(v)}
    if not by_tier:
        return "no top-tier rows"
    every = {v for verdicts in by_tier.values() for v in verdicts}
    if "inconclusive" in every:
        return "inconclusive"
    if every == {"holds"}:
        return "holds"
    if every == {"reversed"}:
        return "fails"
    uniform = all(group_verdict(v) in ("holds", "reversed") for v in by_tier.values())
    return "tier-dependent" if uniform else "mixed"


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
        ``"search; search:value=model"``), ``n_top`` (the smallest n among them), one column per top tier
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
            "tiers": "; ".join(measured), "n_top": top_rows["n"].min() if len(top_rows) else pd.NA,
            **{t: _intervals(top[t]) for t in TOP_TIER},
            **{c: group_verdict(g.row_verdict[g.group == c]) if (g.group == c).any() else "" for c in CONTEXT_COLUMNS},
            "changed": changed, "old_estimate": _intervals(old) if changed else "",
            "new_estimate": "; ".join(f"{t}: {_intervals(top[t])}" for t in measured) if changed else "",
            "complete": len(measured) == len(TOP_TIER),
            "note": "; ".join(dict.fromkeys(n for n in notes if n)),
        })
    columns = ["notebook", "finding", "verdict", "verdict_unadjusted", "tiers", "n_top", *TOP_TIER, *CONTEXT_COLUMNS,
               "changed", "old_estimate", "new_estimate", "complete", "note"]
    frame = pd.DataFrame(out, columns=columns)
    frame["n_top"] = frame["n_top"].astype("Int64")
    return frame


def write_verdicts(folder, ladder, fit=None, method: str = ADJUST_METHOD, alpha: float = ALPHA) -> pd.DataFrame:
    """Judge every finding of the robustness table in ``folder`` under the ladder's top tier; write the results.

    Reads every notebook's ``<notebook>.csv`` in ``folder`` (``data/robustness``;
    `riskstats.stats.robustness.notebook_files`), adjusts the p-values over the whole table (`adjust`), writes
    each notebook's rows back with `ADJUSTED_COLUMNS` appended (after `ROBUSTNESS_COLUMNS`, which older files gain,
    and any ``note``), and writes ``verdicts.csv`` (`finding_verdicts`) and ``tiers.csv`` (`ladder_tiers` of
    ``ladder`` with its fit's p-values) into ``folder``. Running it again gives the same files.

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

    files = notebook_files(folder)
    if not files:
        raise RiskstatsError(f"no robustness rows (<notebook>.csv) in {folder}")
    ladder = Path(ladder)
    fit = ladder.with_name("ladder_fit.csv") if fit is None else Path(fit)
    if not ladder.is_file():
        raise RiskstatsError(f"no ladder at {ladder}")
    tiers = ladder_tiers(pd.read_csv(ladder), pd.read_csv(fit) if fit.is_file() else None)
    frames, optional = [], {}
    for f in files:
        frame = pd.read_csv(f, dtype={"notebook": str})
        missing = set(ROBUSTNESS_COLUMNS) - set(frame.columns) - {"reversed", "reference", "p_value"}
        if missing:
            raise RiskstatsError(f"the rows of {f.name} lack the columns {', '.join(sorted(missing))}")
        frames.append(frame.assign(_file=f.stem))
        optional[f.stem] = [c for c in OPTIONAL_COLUMNS if c in frame.columns]
    rows = adjust(pd.concat(frames, ignore_index=True), method, alpha)
    tables = {stem: part[[*ROBUSTNESS_COLUMNS, *optional[stem], *ADJUSTED_COLUMNS]].reset_index(drop=True)
              for stem, part in rows.groupby("_file", sort=False)}
    verdicts = finding_verdicts(rows)
    write_files(folder, {**tables, "verdicts": verdicts, "tiers": tiers}, {})
    return verdicts
