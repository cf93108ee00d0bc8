"""Robustness rows: one per finding and population, written as the notebook's CSV."""
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
    assert tuple(back.columns) == ROBUSTNESS_COLUMNS and len(back) == 3 and back.equals(written)


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
    assert rows["notebook"].unique().tolist() == ["04"] and rows["group"].tolist() == ["heuristic"] * 2 + ["strong"]
    assert rows["interval"].iloc[0] == "0.6 [0.51, 0.69]"
    assert verdicts.to_dict("records") == [{"notebook": "04", "finding": "seat 0 wins more than 1/2",
                                            "heuristic": "mixed", "strong": "holds"}]
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
    assert verdicts.iloc[0][["heuristic", "strong", "search check"]].tolist() == ["holds", "reversed", "inconclusive"]
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
