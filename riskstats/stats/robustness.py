"""The robustness table of issue 19: each notebook's findings, one row per finding and population of bots,
with the estimate, its 95% interval, its sample size and whether the finding's claim holds there.

This module owns the row format (`ROBUSTNESS_COLUMNS`), `robustness_rows` (rows of one finding from a table
of estimates) and `write_robustness` (``data/robustness/<notebook>.csv``, written by
`riskstats.runs.results.write_files`). Whether a claim holds is the caller's judgement from the interval
(for example ``ci_low > share`` for "seat 0 wins more than its fair share"), passed in as ``holds``.

>>> import pandas as pd
>>> est = pd.DataFrame({"population": ["p"], "bots": ["a,a"], "trials": [100], "win_rate": [0.6],
...                     "ci_low": [0.5], "ci_high": [0.7]})
>>> robustness_rows("04", "seat 0 wins more than 1/2", est, est.ci_low > 0.5)[["n", "holds"]].values.tolist()
[[100, False]]
"""
from __future__ import annotations

import numpy as np
import pandas as pd

ROBUSTNESS_COLUMNS = ("notebook", "finding", "population", "bots", "n", "estimate", "ci_low", "ci_high", "holds")
"""The columns of a robustness row: ``bots`` are the full specs of the bots that played (with parameters)."""


def robustness_rows(notebook: str, finding: str, estimates: pd.DataFrame, holds,
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
    """
    from riskstats.errors import RiskstatsError

    holds = np.asarray(holds, bool)
    if len(holds) != len(estimates):
        raise RiskstatsError(f"need one holds flag per row: {len(holds)} for {len(estimates)} rows")
    need = [c for c in (population, "bots", "ci_low", "ci_high") if c not in estimates.columns]
    if need:
        raise RiskstatsError(f"the estimates have no {', '.join(map(repr, need))} column")
    n = estimates["n"] if "n" in estimates.columns else estimates["trials"]
    value = estimates["estimate"] if "estimate" in estimates.columns else estimates["win_rate"]
    return pd.DataFrame({"notebook": notebook, "finding": finding,
                         "population": estimates[population].to_numpy(), "bots": estimates["bots"].to_numpy(),
                         "n": n.to_numpy(int), "estimate": value.to_numpy(float),
                         "ci_low": estimates["ci_low"].to_numpy(float),
                         "ci_high": estimates["ci_high"].to_numpy(float), "holds": holds})


def write_robustness(rows, folder, notebook: str) -> pd.DataFrame:
    """Write robustness rows (a DataFrame, or a list of them) to ``folder/<notebook>.csv``; return them."""
    from riskstats.runs.results import write_files

    frame = pd.concat(rows, ignore_index=True) if isinstance(rows, list | tuple) else rows
    frame = frame[list(ROBUSTNESS_COLUMNS)].reset_index(drop=True)
    write_files(folder, {notebook: frame}, {})
    return frame
