"""Robustness rows: one per finding and population, written as the notebook's CSV."""
import numpy as np
import pandas as pd
import pytest

from riskstats.errors import RiskstatsError
from riskstats.stats.robustness import ROBUSTNESS_COLUMNS, robustness_rows, write_robustness


def test_rows_are_written_with_the_columns_of_the_table(tmp_path):
    est = pd.DataFrame({"population": ["heuristic", "strong"], "bots": ["a,a", "v,v"], "trials": [100, 200],
                        "win_rate": [0.6, 0.52], "ci_low": [0.51, 0.45], "ci_high": [0.69, 0.59]})
    rows = robustness_rows("04", "seat 0 wins more than 1/2", est, est.ci_low > 0.5)
    assert rows.holds.tolist() == [True, False] and rows.n.tolist() == [100, 200]
    written = write_robustness([rows, rows.iloc[:1]], tmp_path / "robustness", "04")
    back = pd.read_csv(tmp_path / "robustness" / "04.csv", dtype={"notebook": str})
    from riskstats.stats.verdicts import ADJUSTED_COLUMNS

    # the writer adjusts the whole folder's table after writing (issue #39): the adjusted columns follow the rows
    assert tuple(back.columns) == (*ROBUSTNESS_COLUMNS, *ADJUSTED_COLUMNS) and len(back) == 3
    assert back[list(ROBUSTNESS_COLUMNS)].equals(written)
    assert back.reference.isna().all() and back.p_value.isna().all()  # a claim given no reference has no p


def test_one_flag_per_row():
    est = pd.DataFrame({"population": ["p"], "bots": ["a"], "n": [3], "estimate": [0.1], "ci_low": [0.0],
                        "ci_high": [0.2]})
    with pytest.raises(RiskstatsError, match="one holds flag per row"):
        robustness_rows("04", "x", est, [True, False])


def test_read_robustness_groups_populations_and_judges_each_finding(tmp_path):
    from riskstats.stats.robustness import read_robustness

    est = pd.DataFrame({"population": ["continent in every seat (heuristic)", "random in every seat (heuristic)",
                                       "value in every seat (strong)"],
                        "bots": ["c,c", "r,r", "v,v"], "trials": [100, 100, 200],
                        "win_rate": [0.6, 0.49, 0.62], "ci_low": [0.51, 0.4, 0.55], "ci_high": [0.69, 0.58, 0.69]})
    write_robustness(robustness_rows("04", "seat 0 wins more than 1/2", est, est.ci_low > 0.5),
                     tmp_path, "04_selfplay")
    rows, verdicts = read_robustness(tmp_path)
    assert rows["notebook"].unique().tolist() == ["04"]
    assert rows["group"].tolist() == ["heuristic"] * 2 + ["value:rollouts=1:plans=4"]
    assert rows["interval"].iloc[0] == "0.6 [0.51, 0.69]"
    assert verdicts.to_dict("records") == [{"notebook": "04", "finding": "seat 0 wins more than 1/2",
                                            "heuristic": "mixed", "value:rollouts=1:plans=4": "holds"}]
    assert rows["verdict"].tolist() == ["holds", "inconclusive", "holds"]
    with pytest.raises(RiskstatsError, match="no robustness rows"):
        read_robustness(tmp_path / "empty")


def test_reversed_findings_are_named_apart_from_inconclusive_ones(tmp_path):
    """Issue #29 §2: a finding whose interval excludes 0 with the opposite sign is "reversed", not "fails"."""
    from riskstats.stats.robustness import group_verdict, read_robustness

    est = pd.DataFrame({"population": ["continent in every seat (heuristic)", "value in every seat (strong)",
                                       "search in every seat (strong, small check)"],
                        "bots": ["c", "v", "s"], "n": [100, 100, 100], "estimate": [0.05, -0.08, -0.01],
                        "ci_low": [0.02, -0.11, -0.04], "ci_high": [0.08, -0.05, 0.02]})
    rows = robustness_rows("02", "A beats B", est, est.ci_low > 0, est.ci_high < 0)
    assert rows.reversed.tolist() == [False, True, False]
    write_robustness(rows, tmp_path, "02")
    back, verdicts = read_robustness(tmp_path)
    assert back.verdict.tolist() == ["holds", "reversed", "inconclusive"]
    assert verdicts.iloc[0][["heuristic", "value:rollouts=1:plans=4", "search"]].tolist() == [
        "holds", "reversed", "inconclusive"]
    assert group_verdict(["reversed", "inconclusive"]) == "fails"
    with pytest.raises(RiskstatsError, match="both hold and be reversed"):
        robustness_rows("02", "x", est, [True] * 3, [True] * 3)
    with pytest.raises(RiskstatsError, match="one reversed flag per row"):
        robustness_rows("02", "x", est, [True] * 3, [False])


def test_rows_written_before_the_reversed_column_read_as_not_reversed(tmp_path):
    from riskstats.stats.robustness import read_robustness

    pd.DataFrame({"notebook": ["07"], "finding": ["x"], "population": ["heuristic"], "bots": ["c"], "n": [10],
                  "estimate": [0.1], "ci_low": [0.0], "ci_high": [0.2], "holds": [False]}).to_csv(
        tmp_path / "07.csv", index=False)
    rows, verdicts = read_robustness(tmp_path)
    assert rows.reversed.tolist() == [False] and verdicts.heuristic.tolist() == ["inconclusive"]


def test_rows_carry_their_reference_and_a_two_sided_p_value():
    """Issue #29: each row says what its claim is tested against and how surely (normal approximation from the
    interval, or the caller's exact p)."""
    from scipy.stats import norm

    from riskstats.stats.robustness import Z95, normal_p_value

    est = pd.DataFrame({"population": ["a", "b"], "bots": ["x", "y"], "n": [100, 100], "estimate": [0.3, 0.26],
                        "ci_low": [0.27, 0.22], "ci_high": [0.33, 0.30]})
    rows = robustness_rows("04", "seat 0 wins more than 1/4", est, est.ci_low > 0.25, est.ci_high < 0.25,
                           reference=0.25)
    se = 0.06 / (2 * Z95)
    assert rows.reference.tolist() == [0.25, 0.25]
    assert rows.p_value.iloc[0] == pytest.approx(2 * norm.sf(0.05 / se))
    assert rows.p_value.iloc[0] < 0.05 < rows.p_value.iloc[1]  # the interval decides as the p does
    exact = robustness_rows("04", "x", est, [True, False], reference=[0.25, 0.25], p_value=[0.001, 0.4])
    assert exact.p_value.tolist() == [0.001, 0.4]
    assert normal_p_value(0.5, 0.5, 0.5, 0.5) == 1.0 and normal_p_value(0.6, 0.6, 0.6, 0.5) == 0.0
    with pytest.raises(RiskstatsError, match=r"lie in \[0, 1\]"):
        robustness_rows("04", "x", est, [True, False], p_value=[2.0, 0.1])


def test_top_tier_and_old_populations_are_grouped_by_bot(tmp_path):
    """The groups are named by bot (issue #29): the two top tiers, the old "(strong)" population as its bot
    value:rollouts=1:plans=4, and the earlier small search check as tier search; derived tables in the folder
    (verdicts.csv, tiers.csv) are not read as rows."""
    from riskstats.stats.robustness import FORMER, GROUPS, TOP_TIER, population_group, read_robustness

    assert GROUPS == (*TOP_TIER, *FORMER, "value:rollouts=1:plans=4", "heuristic", "mixed")
    assert set(TOP_TIER) | set(FORMER) == {"search", "search:value=model", "hunter", "hunter against the next best"}
    assert {t: population_group(e["population"]) for t, e in TOP_TIER.items()} == {t: t for t in TOP_TIER}
    assert population_group("search in every seat (strong, small check)") == "search"
    from riskstats.runs.tiers import TIER_SETS

    est = pd.DataFrame({"population": [TIER_SETS["top"]["search:value=model"]["population"]], "bots": ["m,m"],
                        "n": [10], "estimate": [0.1], "ci_low": [0.05], "ci_high": [0.15]})
    write_robustness(robustness_rows("02", "x", est, [True], reference=0.0), tmp_path, "02")
    pd.DataFrame({"tier": [1]}).to_csv(tmp_path / "tiers.csv", index=False)
    rows, verdicts = read_robustness(tmp_path)
    assert rows.group.tolist() == ["search:value=model"] and verdicts["search:value=model"].tolist() == ["holds"]
    assert rows.p_value.iloc[0] < 0.001


def test_every_committed_p_value_agrees_with_its_own_interval():
    """Issue #39 item 1: across the whole committed table, a row's p is below 0.05 exactly where its 95% interval
    excludes the reference; for an equivalence row (reference: the margin,
    `riskstats.stats.compare.equivalence_p_value`) exactly where the interval decides, within +-margin or beyond."""
    from riskstats.analysis.paths import data_dir
    from riskstats.stats.robustness import notebook_files

    rows = pd.concat([pd.read_csv(f, dtype={"notebook": str}) for f in notebook_files(data_dir() / "robustness")],
                     ignore_index=True)
    rows = rows[rows.reference.notna() & rows.p_value.notna()]
    # a calibration row's p is the consistency test's and its interval a bootstrap over games, biased upwards in
    # small samples: two tests, and its verdict asks both (notebook 06 §8); here the two agree for the other rows
    consistency = rows.finding.str.contains("consistency resampling")
    assert (rows[consistency].p_value < 0.05).sum() <= (rows[consistency].ci_low > rows[consistency].reference).sum()
    rows = rows[~consistency]
    assert len(rows) > 100
    equivalence = rows.finding.str.contains("equivalence")
    excludes = (rows.ci_low > rows.reference) | (rows.ci_high < rows.reference)
    within = ((rows.ci_low > -rows.reference) & (rows.ci_high < rows.reference)) | (rows.ci_low > rows.reference) \
        | (rows.ci_high < -rows.reference)
    agrees = np.where(equivalence, within, excludes) == (rows.p_value < 0.05)
    assert agrees.all(), rows.loc[~agrees, ["notebook", "finding", "population", "ci_low", "ci_high", "reference",
                                            "p_value"]].to_string()
