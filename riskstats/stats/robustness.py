"""The robustness table of issue 19: each notebook's findings, one row per finding and population of bots,
with the estimate, its 95% interval, its sample size and whether the finding's claim holds there.

This module owns the row format (`ROBUSTNESS_COLUMNS`), `robustness_rows` (rows of one finding from a table
of estimates), `write_robustness` (``data/robustness/<notebook>.csv``, written by
`riskstats.runs.results.write_files`) and `read_robustness` (every notebook's rows, each population put in
one of the `GROUPS`, and the findings' verdicts per group). Whether a claim holds is the caller's judgement
from the interval (for example ``ci_low > share`` for "seat 0 wins more than its fair share"), passed in as
``holds``; whether the interval supports the opposite claim (``ci_high < share``: the finding is reversed)
is passed in as ``reversed``. A row that neither holds nor is reversed is inconclusive (`ROW_VERDICTS`).

>>> import pandas as pd
>>> est = pd.DataFrame({"population": ["p"], "bots": ["a,a"], "trials": [100], "win_rate": [0.6],
...                     "ci_low": [0.5], "ci_high": [0.7]})
>>> robustness_rows("04", "seat 0 wins more than 1/2", est, est.ci_low > 0.5)[["n", "holds"]].values.tolist()
[[100, False]]
"""
from __future__ import annotations

import numpy as np
import pandas as pd

ROBUSTNESS_COLUMNS = ("notebook", "finding", "population", "bots", "n", "estimate", "ci_low", "ci_high", "holds",
                      "reversed")
"""The columns of a robustness row: ``bots`` are the full specs of the bots that played (with parameters);
``reversed`` (added after ``holds``, which keeps its meaning) is True where the interval supports the opposite of
the claim (the sign flips and the interval excludes the claim's reference)."""
ROW_VERDICTS = ("holds", "reversed", "inconclusive")
"""A row's verdict: the claim holds, its opposite holds (reversed), or the interval supports neither."""
GROUPS = ("heuristic", "strong", "search check", "mixed")
"""The population groups of the table: one-ply heuristics only; `value` in every seat (the strong population);
`search` in every seat (a smaller check); and line-ups mixing `value` with heuristics."""


def robustness_rows(notebook: str, finding: str, estimates: pd.DataFrame, holds, reversed=None,
                    population: str = "population") -> pd.DataFrame:
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
    return pd.DataFrame({"notebook": notebook, "finding": finding,
                         "population": estimates[population].to_numpy(), "bots": estimates["bots"].to_numpy(),
                         "n": n.to_numpy(int), "estimate": value.to_numpy(float),
                         "ci_low": estimates["ci_low"].to_numpy(float),
                         "ci_high": estimates["ci_high"].to_numpy(float), "holds": holds,
                         "reversed": reversed})


def write_robustness(rows, folder, notebook: str) -> pd.DataFrame:
    """Write robustness rows (a DataFrame, or a list of them) to ``folder/<notebook>.csv``; return them."""
    from riskstats.runs.results import write_files

    frame = pd.concat(rows, ignore_index=True) if isinstance(rows, list | tuple) else rows
    frame = frame[list(ROBUSTNESS_COLUMNS)].reset_index(drop=True)
    write_files(folder, {notebook: frame}, {})
    return frame


def population_group(population: str) -> str:
    """The group (`GROUPS`) of a notebook's population label.

    >>> [population_group(p) for p in ("continent in every seat (heuristic)", "value in every seat (strong)",
    ...                                "search in every seat (strong, small check)", "search", "value vs heuristics")]
    ['heuristic', 'strong', 'search check', 'search check', 'mixed']
    """
    text = population.lower()
    if "search" in text:
        return "search check"
    if "strong" in text:
        return "strong"
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

    Rows written before the ``reversed`` column existed are read as not reversed.
    """
    from pathlib import Path

    from riskstats.errors import RiskstatsError

    files = sorted(Path(folder).glob("*.csv"))
    if not files:
        raise RiskstatsError(f"no robustness rows (*.csv) in {folder}")
    rows = pd.concat([pd.read_csv(f, dtype={"notebook": str}) for f in files], ignore_index=True)
    missing = set(ROBUSTNESS_COLUMNS) - set(rows.columns) - {"reversed"}
    if missing:
        raise RiskstatsError(f"robustness rows lack the columns {', '.join(sorted(missing))}")
    rows["notebook"] = rows["notebook"].str.extract(r"^(\d+)", expand=False).fillna(rows["notebook"])
    rows["reversed"] = rows["reversed"].fillna(False).astype(bool) if "reversed" in rows else False
    rows["verdict"] = np.where(rows["holds"], "holds", np.where(rows["reversed"], "reversed", "inconclusive"))
    rows["group"] = [population_group(p) for p in rows["population"]]
    rows["interval"] = [f"{e:.3g} [{lo:.3g}, {hi:.3g}]" for e, lo, hi in
                        zip(rows["estimate"], rows["ci_low"], rows["ci_high"])]

    verdicts = rows.pivot_table(index=["notebook", "finding"], columns="group", values="verdict",
                                aggfunc=group_verdict)
    verdicts = verdicts[[g for g in GROUPS if g in verdicts.columns]]
    verdicts.columns.name = None
    return rows, verdicts.reset_index()
