"""The Wilson interval."""
from riskstats.intervals import wilson_interval


def test_wilson_interval():
    low, high = wilson_interval(0, 100)
    assert low == 0 and 0.03 < high < 0.04
    assert wilson_interval(100, 100)[1] == 1
    assert wilson_interval(30, 100)[0] < 0.3 < wilson_interval(30, 100)[1]

