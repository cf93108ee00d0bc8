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


def test_steps_run_side_by_side_each_after_the_steps_it_reuses():
    """With two processes, the game loop and the odds start at once; self-play, which reuses the game
    loop's kernels, starts only when the game step has ended. The table keeps `STEPS`' order."""
    events = []
    table = warm_cache(["odds", "selfplay", "game"], workers=2,
                       progress=lambda k, n, step, s, c: events.append((step.name, "end" if s else "start")))
    assert table["step"].tolist() == ["game", "selfplay", "odds"] and (table["seconds"] > 0).all()
    assert events[:2] == [("game", "start"), ("odds", "start")]
    assert events.index(("selfplay", "start")) > events.index(("game", "end"))
    assert sorted(events) == sorted((name, when) for name in ("game", "selfplay", "odds") for when in ("start", "end"))


def test_every_step_is_named_and_documented():
    assert len({step.name for step in STEPS}) == len(STEPS) and all(step.covers for step in STEPS)
    names = [step.name for step in STEPS]
    assert all(after in names[:names.index(step.name)] for step in STEPS for after in step.after)  # earlier steps


@pytest.mark.parametrize("only", [["genius"], []])
def test_unknown_steps_are_refused(only):
    with pytest.raises(RiskstatsError, match="compile step"):
        warm_cache(only)


def test_workers_must_be_a_positive_whole_number():
    with pytest.raises(RiskstatsError, match="workers must be at least 1, got 0"):
        warm_cache(["odds"], workers=0)


def test_in_cache_reads_the_cache_files_of_a_steps_kernels(tmp_path, monkeypatch):
    """A step is in the cache once numba has written its kernels' index files: missing before the first call,
    there after it (a kernel of a module that imports riskstats, cached under NUMBA_CACHE_DIR)."""
    import importlib
    import sys

    from riskstats.runs.warmup import Step, in_cache

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "warmup_probe.py").write_text("from riskstats._numba import jit\n\n\n@jit\ndef double(x):\n"
                                             "    return 2 * x\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "warmup_probe", raising=False)
    probe = importlib.import_module("warmup_probe")
    step = Step("probe", "a test kernel", lambda: None, kernels=("warmup_probe.double",))
    assert not in_cache(step)
    assert probe.double(21) == 42  # compiled, and written to the cache
    assert in_cache(step) and in_cache(Step("none", "no kernels", lambda: None))


def test_the_expected_compile_times_are_the_measured_ones():
    """A first run states a step's `Step.cold_cpu_s`: the CPU seconds data/engine_speed/compile_vs_54f06c5.csv
    measured from an empty cache, rounded to the nearest 10 s."""
    from pathlib import Path

    import pandas as pd

    table = pd.read_csv(Path(__file__).parents[2] / "data" / "engine_speed" / "compile_vs_54f06c5.csv")
    cold = table[table["run"] == "cold"].set_index("command")["cpu_s"]
    timed = {step.name: step.cold_cpu_s for step in STEPS if step.cold_cpu_s is not None}
    assert set(timed) == {"game", "selfplay", "evaluate", "search"}  # search: a first selfplay with a search seat
    assert all(abs(seconds - cold[name]) <= 5 for name, seconds in timed.items()), (timed, cold.to_dict())
