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
