"""A game command's first run (`riskstats.cli.common._first_run`): what it waits for while numba compiles.

The real first compile takes one to two CPU minutes, so these tests drive the notice with tiny kernels that
are never cached (plain ``njit``: compiled in a fraction of a second on every call) and a test step in
`riskstats.runs.warmup.STEPS`; one CLI test runs selfplay for real and holds that a warm cache prints nothing.
"""
import re
import sys

from numba import njit
from typer.testing import CliRunner

from riskstats.cli import app, common
from riskstats.runs import warmup

runner = CliRunner()
DONE = re.compile(r"compiled in \d+ s \(\d+ CPU s\); later runs load it")


def kernels():
    """(a stray kernel, the step's outer kernel, its callee), fresh and uncached: each compiles when called."""
    @njit
    def stray(x):
        return x - 1

    @njit
    def callee(x):
        return x + 1

    @njit
    def outer(x):
        return callee(x) * 2

    return stray, outer, callee


def test_step(monkeypatch, outer, cached: bool, cpu=42.0):
    """Make `STEPS` one test step, its outer kernel ``outer``, cached or not."""
    name = f"{outer.py_func.__module__}.{outer.py_func.__name__}"
    monkeypatch.setattr(warmup, "STEPS", (warmup.Step("fake", "the test's step", lambda: None, kernels=(name,),
                                                      cold_cpu_s=cpu),))
    monkeypatch.setattr(warmup, "in_cache", lambda step: cached)


test_step.__test__ = False  # a helper, not a test


def test_a_first_run_off_a_terminal_says_what_it_waits_for_then_how_long_it_took(monkeypatch, capsys):
    """One line when numba starts compiling: the step, its expected CPU time, and riskstats compile; one line
    once the step's outer kernel is compiled (a stray kernel compiled first does not end it), before the
    command goes on."""
    stray, outer, _ = kernels()
    test_step(monkeypatch, outer, cached=False)
    with common._first_run("fake"):
        stray(1)
        print("between", file=sys.stderr)
        outer(1)
        print("after", file=sys.stderr)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == ("compiling the fake kernels, first run only: about 42 CPU s (riskstats compile does it "
                        "ahead; later runs load them)…")
    assert lines[1] == "between" and DONE.fullmatch(lines[2]) and lines[3:] == ["after"], lines


def test_a_step_without_a_measured_time_says_no_figure(monkeypatch, capsys):
    _, outer, _ = kernels()
    test_step(monkeypatch, outer, cached=False, cpu=None)
    with common._first_run("fake"):
        outer(1)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "compiling the fake kernels, first run only (riskstats compile does it ahead; later runs " \
                       "load them)…" and DONE.fullmatch(lines[1]) and len(lines) == 2, lines


def test_a_cached_step_that_still_compiles_says_so_without_a_figure(monkeypatch, capsys):
    """The step's kernels are in the cache, but one compiles for new argument types: no first-run figure, and
    done as soon as numba stops compiling."""
    stray, outer, _ = kernels()
    test_step(monkeypatch, outer, cached=True)
    with common._first_run("fake"):
        stray(1)
        print("after", file=sys.stderr)
        outer(1)  # compiles too, after the notice is over: no more lines
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "compiling kernels missing from the cache (riskstats compile does it ahead)…"
    assert DONE.fullmatch(lines[1]) and lines[2:] == ["after"], lines


def test_nothing_compiled_nothing_said(monkeypatch, capsys):
    _, outer, _ = kernels()
    test_step(monkeypatch, outer, cached=False)
    with common._first_run("fake"):
        pass  # the step's kernels were missing, but this run needed none of them
    with common._first_run(None):
        pass
    assert capsys.readouterr().err == ""


def test_an_interrupted_first_run_leaves_no_done_line(monkeypatch, capsys):
    stray, outer, _ = kernels()
    test_step(monkeypatch, outer, cached=False)
    try:
        with common._first_run("fake"):
            stray(1)
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        pass
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("compiling the fake kernels"), lines


def test_on_a_terminal_a_spinner_shows_the_step_its_time_and_the_kernel(monkeypatch, capsys):
    """On a terminal (stderr; stdout a pipe) the notice's line, and under it `riskstats compile`'s spinner: the
    running time, the step and the kernel numba compiles; it goes when the compile ends, and the line with its
    time stays."""
    _, outer, _ = kernels()
    test_step(monkeypatch, outer, cached=False)
    monkeypatch.setattr(common, "_on_terminal", lambda stream: stream is sys.stderr)
    with common._first_run("fake"):
        outer(1)
    err = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", capsys.readouterr().err)  # no colours, no cursor moves
    assert err.startswith("compiling the fake kernels, first run only: about 42 CPU s (riskstats compile does it")
    assert re.search(r"0:00:0\d compiling the fake kernels… \d+ done, \S*\.callee", err), err
    assert re.search(r"done, \S*\.outer", err) and DONE.fullmatch(err.splitlines()[-1].split("\r")[-1]), err


def test_selfplay_from_a_warm_cache_prints_nothing_on_stderr():
    """The first of these runs may compile (a cold cache: exactly the two lines); the second loads every kernel
    and says nothing."""
    command = ["selfplay", "--games", "2", "--players", "3", "--bots", "random", "--seed", "5"]
    first = runner.invoke(app, command)
    assert first.exit_code == 0, first.output
    said = first.stderr.splitlines()
    assert said == [] or (len(said) == 2 and said[0].startswith("compiling the selfplay kernels, first run only: "
                                                                "about 90 CPU s") and DONE.fullmatch(said[1])), said
    again = runner.invoke(app, command)
    assert again.exit_code == 0 and again.stderr == "" and again.stdout == first.stdout


def test_a_line_up_with_a_look_ahead_seat_waits_for_the_search_step():
    assert warmup.step_for("selfplay", "random,search:rollouts=2") == "search"
    assert warmup.step_for("selfplay", "aggressive, value-tuned") == "search"
    assert warmup.step_for("evaluate", "search") == "search"
    assert warmup.step_for("selfplay", "random,hunter:kill=0.3") == "selfplay"
    assert warmup.step_for("evaluate", "no-such-bot") == "evaluate"  # the command's own check reports it
    assert next(s for s in warmup.STEPS if s.name == "search").cold_cpu_s > next(
        s for s in warmup.STEPS if s.name == "selfplay").cold_cpu_s


def test_the_commands_name_the_step_their_line_up_compiles(monkeypatch, tmp_path):
    """selfplay, tune and evaluate hand `_first_run` the search step when a seat looks ahead (stopped there)."""
    from riskstats.cli import game, runs

    steps = []

    def first_run(step=None, needed=True):
        steps.append(step)
        raise SystemExit(3)

    monkeypatch.setattr(runs, "_first_run", first_run)
    monkeypatch.setattr(game, "_first_run", first_run)
    runner.invoke(app, ["selfplay", "--games", "1", "--players", "2", "--bots", "search,random"])
    runner.invoke(app, ["selfplay", "--games", "1", "--players", "2", "--bots", "hunter,random"])
    runner.invoke(app, ["tune", "aggressive", "--against", "value", "--players", "2", "--trials", "1",
                        "--games-per-trial", "10", "--storage", f"sqlite:///{tmp_path / 'study.db'}"])
    assert steps == ["search", "selfplay", "search"]
