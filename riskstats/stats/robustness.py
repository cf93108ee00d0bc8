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
``p_value`` against it (`normal_p_value` from the interval unless the caller gives an exact one). The
family-wise adjustment of the p-values also lives here (`adjust`, in `FAMILIES`; `adjust_folder` rewrites every
notebook's file with `ADJUSTED_COLUMNS`, and `write_robustness` calls it), so that every table carries the adjusted
columns whichever notebook wrote last; the verdicts under the top tier are `riskstats.stats.verdicts`'.

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
from riskstats.runs.tiers import JUDGING, TIER_SETS, TOP_TIER  # the tiers the findings are judged by (their one place)

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
FORMER = tuple(tier for name, tiers in TIER_SETS.items() if name != JUDGING for tier in tiers)
"""The tiers of the other tier sets (`riskstats.runs.tiers.TIER_SETS`): the findings' former (or candidate) top tiers,
kept as context."""
CONTEXT = (*FORMER, "value:rollouts=1:plans=4", "heuristic", "mixed")
"""The groups kept as context beside the top tier: the other sets' tiers (`FORMER`), `value` in every seat (the old
"strong" population, named by its bot), one-ply heuristics only, and line-ups mixing bots."""
GROUPS = (*TOP_TIER, *CONTEXT)
"""The population groups of the table (`population_group`), named by bot: the top tiers, then the context."""
ADJUST_METHOD = "holm"
"""The family-wise adjustment of the table's p-values (`statsmodels.stats.multitest.multipletests`' name): Holm's
step-down, within each of `FAMILIES`."""
FAMILIES = ("top tier", "context")
"""The adjustment's families (`adjust`): the rows of the top-tier populations, which judge the findings (a finding
holds only where both tiers show it, an intersection-union test, so the family is these rows), and every other row
with a p (context: the heuristic, value-bot and mixed populations), adjusted apart. Within a family, rows that repeat
the same test (same group, n, estimate, interval and p) count once."""
ALPHA = 0.05
"""The family-wise error rate: an adjusted p below it keeps a row's verdict."""
ADJUSTED_COLUMNS = ("p_adjusted", "holds_adjusted", "reversed_adjusted", "family")
"""The columns `adjust` appends to the rows (and `adjust_folder` to each notebook's CSV): ``family`` is the row's
Holm family (`FAMILIES`; empty for a row without a p)."""


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
    whole table in ``folder`` is adjusted again (`adjust_folder`): every notebook's file carries the adjusted
    columns, whichever notebook runs last (``verdicts.csv`` is `riskstats.stats.verdicts.judge_table`'s)."""
    from riskstats.runs.results import write_files

    frame = pd.concat(rows, ignore_index=True) if isinstance(rows, list | tuple) else rows
    frame = complete_rows(frame)
    frame = frame[[*ROBUSTNESS_COLUMNS, *(c for c in OPTIONAL_COLUMNS if c in frame)]].reset_index(drop=True)
    write_files(folder, {notebook: frame}, {})
    adjust_folder(folder)
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
    """The group (`GROUPS`) of a notebook's population label: a tier's label (of any set, `TIER_SETS`) is that tier,
    as is any other label naming a hunter tier (the longest name it contains); any other label naming
    ``search:value=model`` (or ``value=model`` with search) is that tier, any other naming ``search`` is tier
    ``search`` (the earlier, smaller "search in every seat (strong, small check)" runs of the same bot); the old
    "... (strong)" population, `value` in every seat, is ``value:rollouts=1:plans=4``; heuristics only is
    ``heuristic``; anything else ``mixed``.

    >>> [population_group(p) for p in ("continent in every seat (heuristic)", "value in every seat (strong)",
    ...                                "search in every seat (strong, small check)", "search in every seat (top tier)",
    ...                                "search:value=model in every seat (top tier)", "value vs heuristics",
    ...                                "hunter against the next best (top tier)", "hunter vs heuristics")]
    ... # doctest: +NORMALIZE_WHITESPACE
    ['heuristic', 'value:rollouts=1:plans=4', 'search', 'search', 'search:value=model', 'mixed',
     'hunter against the next best', 'hunter']
    """
    tiers = {tier: entry for entries in TIER_SETS.values() for tier, entry in entries.items()}
    for tier, entry in tiers.items():
        if population == entry["population"]:
            return tier
    named = [tier for tier in tiers if tier in population and tier.startswith("hunter")]
    if named:  # a label naming the hunter's tier, as "hunter against the next best vs heuristics": the longest name
        return max(named, key=len)
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


def adjust(rows: pd.DataFrame, method: str = ADJUST_METHOD, alpha: float = ALPHA, tiers=None) -> pd.DataFrame:
    """The rows with family-wise adjusted p-values and verdicts (`ADJUSTED_COLUMNS`), within each of `FAMILIES`.

    The top-tier family is every row of a top-tier population (`riskstats.stats.robustness.population_group` in
    `TOP_TIER`) with a ``p_value``; the context family every other row with one. Rows that repeat one test (the
    same group, n, estimate, interval and p) enter their family once and share its adjusted p. Rows without a p (a
    claim with no reference, such as "X is the cheapest") are outside both and keep their verdicts: ``p_adjusted``
    is their ``p_value`` (NaN), ``holds_adjusted`` / ``reversed_adjusted`` are ``holds`` / ``reversed`` and
    ``family`` is empty.

    Parameters
    ----------
    rows : pandas.DataFrame
        Robustness rows (`riskstats.stats.robustness.ROBUSTNESS_COLUMNS`; older rows are completed by
        `riskstats.stats.robustness.complete_rows`); pass every notebook's rows at once.
    method : str
        A `statsmodels.stats.multitest.multipletests` method (default `ADJUST_METHOD`, Holm).
    alpha : float
        The family-wise rate (default `ALPHA`).
    tiers : dict, optional
        The tiers of the judging family (default `TOP_TIER`; another set's, `riskstats.runs.tiers.TIER_SETS`, to
        judge the rows as that set would).

    Returns
    -------
    pandas.DataFrame
        A copy of ``rows`` with ``p_adjusted``, ``holds_adjusted`` (``holds`` and ``p_adjusted < alpha``),
        ``reversed_adjusted`` (``reversed`` and ``p_adjusted < alpha``) and ``family``, replacing any already there.

    >>> top = TIER_SETS["top"]  # a set's tiers, judging as that set would
    >>> tier = top["search"]["population"]
    >>> rows = pd.DataFrame({"population": [tier, tier, "heuristic", tier], "n": [10, 20, 10, 30],
    ...                      "estimate": 0.1, "ci_low": 0.0, "ci_high": 0.2, "holds": True,
    ...                      "p_value": [0.01, 0.04, 0.04, np.nan]})
    >>> adjust(rows, tiers=top)[["p_adjusted", "holds_adjusted", "family"]].values.tolist()
    [[0.02, True, 'top tier'], [0.04, True, 'top tier'], [0.04, True, 'context'], [nan, True, '']]
    """
    from statsmodels.stats.multitest import multipletests

    if not 0 < alpha < 1:
        from riskstats.errors import RiskstatsError

        raise RiskstatsError(f"alpha must lie between 0 and 1, got {alpha}")
    rows = complete_rows(rows)
    p = rows["p_value"].to_numpy(float)
    groups = [population_group(str(x)) for x in rows["population"]] if "population" in rows else \
        [next(iter(TOP_TIER))] * len(rows)
    tiers = TOP_TIER if tiers is None else tiers
    top = np.array([g in tiers for g in groups], bool)
    family = np.where(np.isnan(p), "", np.where(top, FAMILIES[0], FAMILIES[1]))
    numbers = np.column_stack([rows[c].to_numpy(float) if c in rows else np.zeros(len(rows))
                               for c in ("n", "estimate", "ci_low", "ci_high")] + [p])
    key = np.array([f"{g}|{np.round(x, 12).tolist()}" for g, x in zip(groups, numbers)], dtype=object)
    adjusted = p.copy()
    for name in FAMILIES:
        members = np.flatnonzero(family == name)
        if not len(members):
            continue
        tests, first, which = np.unique(key[members], return_index=True, return_inverse=True)
        try:
            adjusted[members] = multipletests(p[members[first]], alpha=alpha, method=method)[1][which]
        except ValueError as error:
            from riskstats.errors import RiskstatsError

            raise RiskstatsError(f"cannot adjust by {method!r}: {error}") from None
    keep = (family == "") | (adjusted < alpha)
    rows["p_adjusted"] = adjusted
    rows["holds_adjusted"] = rows["holds"].to_numpy(bool) & keep
    rows["reversed_adjusted"] = rows["reversed"].to_numpy(bool) & keep
    rows["family"] = family
    return rows


def adjust_folder(folder, method: str = ADJUST_METHOD, alpha: float = ALPHA) -> pd.DataFrame:
    """Adjust every notebook's rows in ``folder`` together (`adjust`) and write each notebook's file back with
    `ADJUSTED_COLUMNS` appended (after `ROBUSTNESS_COLUMNS`, which older files gain, and any `OPTIONAL_COLUMNS`);
    return all the adjusted rows, with the file each came from in ``_file``. `write_robustness` calls it after
    writing a notebook's rows, so every table carries the adjusted columns whatever order the notebooks run in."""
    from riskstats.errors import RiskstatsError
    from riskstats.runs.results import write_files

    files = notebook_files(folder)
    if not files:
        raise RiskstatsError(f"no robustness rows (<notebook>.csv) in {folder}")
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
    write_files(folder, tables, {})
    return rows
