"""riskstats.runs.warmup: compiling ahead (``riskstats compile``)."""
import pytest

from riskstats.errors import RiskstatsError
from riskstats.runs.warmup import STEPS, warm_cache


def test_warm_cache_runs_the_steps_asked_for_and_reports_each():
    calls = []
    table = warm_cache(["selfplay", "game"], progress=lambda k, n, step, s, c: calls.append((k, n, step.name, s)))
    assert table["step"].tolist() == ["game", "selfplay"]  # in STEPS' order
    assert list(table.columns) == ["step", "covers", "seconds", "compiled"] and (table["seconds"] > 0).all()
    assert [(k, n, name) for k, n, name, _ in calls] == [(1, 2, "game"), (1, 2, "game"), (2, 2, "selfplay"),
                                                         (2, 2, "selfplay")]
    assert calls[0][3] is None and calls[1][3] > 0  # before the step, then its seconds
    again = warm_cache(["game"])
    assert not again["compiled"].any()  # everything loads from the cache now


def test_every_step_is_named_and_documented():
    assert len({step.name for step in STEPS}) == len(STEPS) and all(step.covers for step in STEPS)


@pytest.mark.parametrize("only", [["genius"], []])
def test_unknown_steps_are_refused(only):
    with pytest.raises(RiskstatsError, match="compile step"):
        warm_cache(only)
