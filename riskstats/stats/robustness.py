"""The robustness table of issue 19: each notebook's findings, one row per finding and population of bots,
with the estimate, its 95% interval, its sample size and whether the finding's claim holds there.

This module owns the row format (`ROBUSTNESS_COLUMNS`), `robustness_rows` (rows of one finding from a table
of estimates), `write_robustness` (``data/robustness/<notebook>.csv``, written by
`riskstats.runs.results.write_files`) and `read_robustness` (every notebook's rows, each population put in
one of the `GROUPS`, and the findings' verdicts per group). Whether a claim holds is the caller's judgement
from the interval (for example ``ci_low > share`` for "seat 0 wins more than its fair share"), passed in as
``holds``; whether the interval supports the opposite claim (``ci_high < share``: the finding is reversed)
is passed in as ``reversed``. A row that neither holds nor is reversed is inconclusive (`ROW_VERDICTS`).
Each row also carries the claim's ``reference`` (the null value it is tested against) and a two-sided
``p_value`` against it (`normal_p_value` from the interval unless the caller gives an exact one); the
verdicts under the ladder's top tier, adjusted over the whole table, are `riskstats.stats.verdicts`'.

>>> import pandas as pd
>>> est = pd.DataFrame({"population": ["p"], "bots": ["a,a"], "trials": [100], "win_rate": [0.6],
...                     "ci_low": [0.5], "ci_high": [0.7]})
>>> robustness_rows("04", "seat 0 wins more than 1/2", est, est.ci_low > 0.5)[["n", "holds"]].values.tolist()
[[100, False]]
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from riskstats.intervals import Z95

ROBUSTNESS_COLUMNS = ("notebook", "finding", "population", "bots", "n", "estimate", "ci_low", "ci_high", "holds",
                      "reversed", "reference", "p_value")
"""The columns of a robustness row: ``bots`` are the full specs of the bots that played (with parameters);
``reversed`` (added after ``holds``, which keeps its meaning) is True where the interval supports the opposite of
the claim (the sign flips and the interval excludes the claim's reference); ``reference`` is that null value (0
for an effect, 1/n for a fair share, 0.5 for "more than half", 0.02 for an ECE threshold; NaN for a claim with
none, such as "X is the cheapest") and ``p_value`` the two-sided p of the estimate against it (NaN without a
reference). Columns are only ever appended, so older CSVs still read (`read_robustness`)."""
OPTIONAL_COLUMNS = ("note",)
"""Columns a notebook may add to its rows and `write_robustness` keeps: ``note``, the notebook's words on a finding
(for example why it has no top-tier rows)."""
ROW_VERDICTS = ("holds", "reversed", "inconclusive")
"""A row's verdict: the claim holds, its opposite holds (reversed), or the interval supports neither."""
TOP_TIER = {
    "search": {"bot": "search:rollouts=8:horizon=1:plans=6:value=formula",
               "population": "search in every seat (top tier)"},
    "search:value=model": {"bot": "search:rollouts=8:horizon=0:plans=8:value=model",
                           "population": "search:value=model in every seat (top tier)"},
}
"""The ladder's top tier (issue #29; ``data/value_bot/issue30/ladder``): every bot whose rating interval overlaps
the best one's (`riskstats.stats.verdicts.ladder_tiers`). Tier name -> the full spec of the bot that plays every
seat and the population label its robustness rows carry (the treated seat may add options, ``:fortify=1``)."""
CONTEXT = ("value:rollouts=1:plans=4", "heuristic", "mixed")
"""The groups kept as context beside the top tier: `value` in every seat (the old "strong" population, named by its
bot), one-ply heuristics only, and line-ups mixing bots."""
GROUPS = (*TOP_TIER, *CONTEXT)
"""The population groups of the table (`population_group`), named by bot: the two top tiers, then the context."""


def normal_p_value(estimate, ci_low, ci_high, reference):
    """Two-sided p of ``estimate`` against ``reference`` from its 95% interval, by the normal approximation:
    se = (ci_high - ci_low) / (2 * `Z95`), z = (estimate - reference) / se. NaN where the reference is NaN; a zero
    width gives 0 (1 where the estimate equals the reference).

    >>> round(float(normal_p_value(0.1, 0.0, 0.2, 0.0)), 4)  # the interval just touches 0
    0.05
    >>> float(normal_p_value(0.1, 0.0, 0.2, float("nan")))
    nan
    """
    from scipy.stats import norm

    estimate, low, high, reference = np.broadcast_arrays(*(np.asarray(x, float) for x in
                                                           (estimate, ci_low, ci_high, reference)))
    se = (high - low) / (2 * Z95)
    diff = np.abs(estimate - reference)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = 2 * norm.sf(diff / se)
    p = np.where(se > 0, p, np.where(diff > 0, 0.0, 1.0))
    return np.where(np.isnan(reference), np.nan, p)


def robustness_rows(notebook: str, finding: str, estimates: pd.DataFrame, holds, reversed=None,
                    population: str = "population", reference=np.nan, p_value=None) -> pd.DataFrame:
    """Rows of the robustness table for one finding, one per row of ``estimates``.

    Parameters
    ----------
    notebook, finding : str
        The notebook (``"04"``) and the finding's claim in words.
    estimates : pandas.DataFrame
        Columns ``population`` (or the one named by ``population``), ``bots``, ``n`` or ``trials``,
        ``estimate`` or ``win_rate``, ``ci_low``, ``ci_high``.
    holds : array of bool
        Per row: whether the claim holds in that population, judged by the interval.
    reversed : array of bool, optional
        Per row: whether the interval supports the opposite claim (for "A beats B": the interval lies below 0).
        None: no row is reversed (a claim with no opposite, such as "A is the cheapest").
    reference : float or array of float
        The null value the claim is tested against (0 for an effect, 1/n for a fair share, 0.5 for "more than
        half", 0.02 for an ECE threshold); NaN (the default) for a claim with none.
    p_value : array of float, optional
        Per row: the caller's own two-sided p against ``reference`` (an exact test); by default `normal_p_value`
        of the estimate and its interval.

    >>> est = pd.DataFrame({"population": ["p"], "bots": ["a,a"], "n": [100], "estimate": [0.1],
    ...                     "ci_low": [0.0], "ci_high": [0.2]})
    >>> robustness_rows("02", "A beats B", est, [False], reference=0)[["reference", "p_value"]].round(4).values.tolist()
    [[0.0, 0.05]]
    """
    from riskstats.errors import RiskstatsError

    holds = np.asarray(holds, bool)
    reversed = np.zeros(len(holds), bool) if reversed is None else np.asarray(reversed, bool)
    if len(holds) != len(estimates) or len(reversed) != len(estimates):
        raise RiskstatsError(f"need one holds flag per row: {len(holds)} for {len(estimates)} rows"
                             if len(holds) != len(estimates) else
                             f"need one reversed flag per row: {len(reversed)} for {len(estimates)} rows")
    if (holds & reversed).any():
        raise RiskstatsError("a row cannot both hold and be reversed")
    need = [c for c in (population, "bots", "ci_low", "ci_high") if c not in estimates.columns]
    if need:
        raise RiskstatsError(f"the estimates have no {', '.join(map(repr, need))} column")
    n = estimates["n"] if "n" in estimates.columns else estimates["trials"]
    value = estimates["estimate"] if "estimate" in estimates.columns else estimates["win_rate"]
    low, high = estimates["ci_low"].to_numpy(float), estimates["ci_high"].to_numpy(float)
    reference = np.broadcast_to(np.asarray(reference, float), len(estimates)).copy()
    if p_value is None:
        p_value = normal_p_value(value.to_numpy(float), low, high, reference)
    else:
        p_value = np.broadcast_to(np.asarray(p_value, float), len(estimates)).copy()
        if ((p_value < 0) | (p_value > 1)).any():
            raise RiskstatsError("a p_value must lie in [0, 1]")
    return pd.DataFrame({"notebook": notebook, "finding": finding,
                         "population": estimates[population].to_numpy(), "bots": estimates["bots"].to_numpy(),
                         "n": n.to_numpy(int), "estimate": value.to_numpy(float), "ci_low": low, "ci_high": high,
                         "holds": holds, "reversed": reversed, "reference": reference, "p_value": p_value})


def write_robustness(rows, folder, notebook: str) -> pd.DataFrame:
    """Write robustness rows (a DataFrame, or a list of them) to ``folder/<notebook>.csv``; return them.

    The columns written are `ROBUSTNESS_COLUMNS` and any `OPTIONAL_COLUMNS` the rows have; rows made without a
    ``reference`` get NaN there, and without a ``p_value`` `normal_p_value`'s (NaN without a reference). Then the
    whole table in ``folder`` is adjusted again (`riskstats.stats.verdicts.judge_table`): every notebook's file
    gains the adjusted columns and ``verdicts.csv`` is rewritten, whichever notebook runs last."""
    from riskstats.runs.results import write_files

    frame = pd.concat(rows, ignore_index=True) if isinstance(rows, list | tuple) else rows
    frame = complete_rows(frame)
    frame = frame[[*ROBUSTNESS_COLUMNS, *(c for c in OPTIONAL_COLUMNS if c in frame)]].reset_index(drop=True)
    write_files(folder, {notebook: frame}, {})
    from riskstats.stats.verdicts import judge_table

    judge_table(folder)
    return frame


def complete_rows(rows: pd.DataFrame) -> pd.DataFrame:
    """``rows`` with the columns appended to `ROBUSTNESS_COLUMNS` since it was first written filled in where
    missing: ``reversed`` False, ``reference`` NaN, ``p_value`` `normal_p_value`'s (a copy)."""
    rows = rows.copy()
    rows["reversed"] = rows["reversed"].fillna(False).astype(bool) if "reversed" in rows else False
    if "reference" not in rows:
        rows["reference"] = np.nan
    rows["reference"] = rows["reference"].astype(float)
    computed = normal_p_value(rows["estimate"], rows["ci_low"], rows["ci_high"], rows["reference"])
    rows["p_value"] = rows["p_value"].astype(float).fillna(pd.Series(computed, rows.index)) if "p_value" in rows \
        else computed
    return rows


def notebook_files(folder) -> list:
    """The notebooks' robustness CSVs in ``folder``: ``<notebook>.csv`` whose name starts with a digit (so the
    tables derived from them, ``verdicts.csv`` and ``tiers.csv``, are not read as rows)."""
    from pathlib import Path

    return sorted(Path(folder).glob("[0-9]*.csv"))


def notebook_number(notebook: pd.Series) -> pd.Series:
    """Notebook names cut to their number (``"03_card_escalation"`` -> ``"03"``); names with none kept.

    >>> notebook_number(pd.Series(["03_card_escalation", "04", "x"])).tolist()
    ['03', '04', 'x']
    """
    notebook = notebook.astype(str)
    return notebook.str.extract(r"^(\d+)", expand=False).fillna(notebook)


def population_group(population: str) -> str:
    """The group (`GROUPS`) of a notebook's population label: a top tier's label (`TOP_TIER`) is that tier;
    any other label naming ``search:value=model`` (or ``value=model`` with search) is that tier, any other naming
    ``search`` is tier ``search`` (the earlier, smaller "search in every seat (strong, small check)" runs of the
    same bot); the old "... (strong)" population, `value` in every seat, is ``value:rollouts=1:plans=4``;
    heuristics only is ``heuristic``; anything else ``mixed``.

    >>> [population_group(p) for p in ("continent in every seat (heuristic)", "value in every seat (strong)",
    ...                                "search in every seat (strong, small check)", "search in every seat (top tier)",
    ...                                "search:value=model in every seat (top tier)", "value vs heuristics")]
    ['heuristic', 'value:rollouts=1:plans=4', 'search', 'search', 'search:value=model', 'mixed']
    """
    for tier, entry in TOP_TIER.items():
        if population == entry["population"]:
            return tier
    text = population.lower()
    if "search" in text:
        return "search:value=model" if "value=model" in text else "search"
    if "strong" in text or "value:rollouts=1:plans=4" in text:
        return "value:rollouts=1:plans=4"
    if "heuristic" in text and "value" not in text:
        return "heuristic"
    return "mixed"


def group_verdict(verdicts) -> str:
    """One verdict from the row verdicts (`ROW_VERDICTS`) of a group: ``holds`` or ``reversed`` where every row
    says so, ``inconclusive`` where none holds and none is reversed, ``fails`` where none holds and some (not
    all) are reversed, ``mixed`` where some hold and some do not.

    >>> [group_verdict(v) for v in (["holds", "holds"], ["reversed"], ["inconclusive", "reversed"],
    ...                             ["inconclusive"], ["holds", "reversed"])]
    ['holds', 'reversed', 'fails', 'inconclusive', 'mixed']
    """
    verdicts = set(verdicts)
    if verdicts == {"holds"}:
        return "holds"
    if "holds" in verdicts:
        return "mixed"
    if verdicts == {"reversed"}:
        return "reversed"
    return "fails" if "reversed" in verdicts else "inconclusive"


def read_robustness(folder) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every notebook's robustness rows from ``folder`` (``data/robustness``), and the verdicts per group.

    Returns
    -------
    rows : DataFrame
        The rows of every ``<notebook>.csv`` (notebook cut to its number, ``"03"``), with ``group`` and
        ``interval`` (estimate [low, high]) added.
    verdicts : DataFrame
        One row per notebook and finding, one column per group that measured it (`group_verdict` of its
        rows; rows of one group may be several line-ups or player counts).

    Only files named for a notebook (`notebook_files`) are read. Rows written before the ``reversed`` column existed
    are read as not reversed, before ``reference`` as having none (and no ``p_value``; `complete_rows`).
    """
    from riskstats.errors import RiskstatsError

    files = notebook_files(folder)
    if not files:
        raise RiskstatsError(f"no robustness rows (<notebook>.csv) in {folder}")
    rows = pd.concat([pd.read_csv(f, dtype={"notebook": str}) for f in files], ignore_index=True)
    missing = set(ROBUSTNESS_COLUMNS) - set(rows.columns) - {"reversed", "reference", "p_value"}
    if missing:
        raise RiskstatsError(f"robustness rows lack the columns {', '.join(sorted(missing))}")
    rows = complete_rows(rows)
    rows["notebook"] = notebook_number(rows["notebook"])
    rows["verdict"] = np.where(rows["holds"], "holds", np.where(rows["reversed"], "reversed", "inconclusive"))
    rows["group"] = [population_group(p) for p in rows["population"]]
    rows["interval"] = [f"{e:.3g} [{lo:.3g}, {hi:.3g}]" for e, lo, hi in
                        zip(rows["estimate"], rows["ci_low"], rows["ci_high"])]

    verdicts = rows.pivot_table(index=["notebook", "finding"], columns="group", values="verdict",
                                aggfunc=group_verdict)
    verdicts = verdicts[[g for g in GROUPS if g in verdicts.columns]]
    verdicts.columns.name = None
    return rows, verdicts.reset_index()
