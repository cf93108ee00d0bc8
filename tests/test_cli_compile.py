"""riskstats compile: progress on stderr, a summary line, one-line errors."""
from typer.testing import CliRunner

from riskstats.cli import app

runner = CliRunner()


def test_compile_shows_each_step_and_a_summary():
    result = runner.invoke(app, ["compile", "--only", "game,selfplay"])
    assert result.exit_code == 0, result.output
    assert "[1/2] game: Game(...).play" in result.stderr and "[2/2] selfplay:" in result.stderr
    assert "of 2 steps in" in result.stdout


def test_compile_refuses_an_unknown_step():
    result = runner.invoke(app, ["compile", "--only", "game,nonsense"])
    assert result.exit_code != 0
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "nonsense" in lines[0], result.output


def one_step(monkeypatch, *steps):
    """Make `STEPS` these (name, run) pairs: the real steps take minutes."""
    from riskstats.runs import warmup

    monkeypatch.setattr(warmup, "STEPS", tuple(warmup.Step(name, f"the test's {name} step", run)
                                               for name, run in steps))


def test_compile_shows_a_spinner_with_each_step_its_time_and_the_kernel_compiling(monkeypatch):
    """On a terminal a spinner on stderr names the step under way with its running time and the kernel
    numba compiles; the step's first and last lines (with its seconds) are printed as always."""
    import re
    import time

    from numba import njit

    from riskstats.cli import runs as cli_runs

    def tiny():
        @njit  # not cached: compiled on every call
        def tiny_kernel(x):
            return x + 1

        tiny_kernel(1)
        time.sleep(1.3)  # the spinner's clock passes a second

    one_step(monkeypatch, ("tiny", tiny))
    monkeypatch.setattr(cli_runs, "_on_terminal", lambda stream: True)
    result = runner.invoke(app, ["compile"])
    assert result.exit_code == 0, result.output
    err = result.stderr
    assert "[1/1] tiny: the test's tiny step…" in err and re.search(r"\[1/1\] tiny: compiled in \d+ s", err)
    assert "[1/1] compiling tiny kernels…" in err  # the spinner's line
    assert re.search(r"done, \S*test_cli_compile\.tiny_kernel", err) and "0:00:01" in err
    assert "compiled 1 of 1 steps in" in result.stdout


def test_compile_off_a_terminal_prints_lines_only(monkeypatch):
    one_step(monkeypatch, ("quiet", lambda: None))
    result = runner.invoke(app, ["compile"])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == ["[1/1] quiet: the test's quiet step…", "[1/1] quiet: cached in 0 s"]


def test_an_interrupted_compile_says_what_is_cached(monkeypatch):
    def interrupted():
        raise KeyboardInterrupt  # Ctrl-C during a step

    one_step(monkeypatch, ("first", lambda: None), ("second", interrupted))
    result = runner.invoke(app, ["compile", "--workers", "1"])  # the test's steps live in this process
    assert result.exit_code == 130, result.output
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("interrupted after 0 s: the steps finished (first) are in the cache"), last
    assert "run riskstats compile again to finish" in last


def test_the_spinner_names_the_steps_kernels_and_counts_them_not_numbas_helpers():
    """Issue 56: the compile spinner showed numba's internals (numba.np.arrayobj.impl); it names riskstats'
    kernel compiling now and counts the ones done."""
    from riskstats.cli.common import _Spinner

    spinner = _Spinner()
    spinner.show("compiling the selfplay kernels…")
    spinner.kernel_started("riskstats.game.loop._play")
    spinner.kernel_started("numba.np.arrayobj.impl")
    assert spinner.text() == "0 done, game.loop._play"
    spinner.kernel_ended("numba.np.arrayobj.impl")
    spinner.kernel_started("riskstats.game.bots.hunter._kill_plan")
    spinner.kernel_ended("riskstats.game.bots.hunter._kill_plan")
    assert spinner.text() == "1 done, game.loop._play"
    spinner.kernel_ended("riskstats.game.loop._play")
    assert spinner.text() == "2 done"
    spinner.show("the next step")
    assert spinner.text() == ""
