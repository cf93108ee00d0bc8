"""The Wilson interval."""
import pytest

from riskstats.errors import RiskstatsError
from riskstats.intervals import wilson_interval


def test_wilson_interval():
    low, high = wilson_interval(0, 100)
    assert low == 0 and 0.03 < high < 0.04
    assert wilson_interval(100, 100)[1] == 1
    assert wilson_interval(30, 100)[0] < 0.3 < wilson_interval(30, 100)[1]


def test_wilson_interval_matches_statsmodels():
    from statsmodels.stats.proportion import proportion_confint

    for k, n in [(0, 7), (3, 7), (7, 7), (412, 1000)]:
        assert wilson_interval(k, n) == pytest.approx(proportion_confint(k, n, method="wilson"), abs=1e-12)


@pytest.mark.parametrize(("k", "n", "message"), [
    (-1, 10, "successes must be from 0 to trials"),
    (11, 10, "successes must be from 0 to trials"),
    (0, 0, "trials must be at least 1, got 0"),
    (0, -3, "trials must be at least 1, got -3"),
    (1.5, 10, "successes must be a whole number"),
])
def test_wilson_interval_refuses_impossible_counts(k, n, message):
    with pytest.raises(RiskstatsError, match=message):
        wilson_interval(k, n)


def test_wilson_interval_takes_numpy_counts():
    import numpy as np

    assert wilson_interval(np.int64(3), np.int64(10)) == wilson_interval(3, 10)
    assert wilson_interval(np.float64(3.0), 10) == wilson_interval(3, 10)
