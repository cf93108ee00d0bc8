"""The command line's common machinery, shared by every part of it; it defines no command.

It owns the group that turns usage and library errors into one line on stderr (`_OneLineErrors`), the
command class whose errors name the options as typed (`_NamesWhatWasTyped`: ``--stop-at``, not ``stop_at``) and
the one whose arguments may be negative numbers (`_NumbersMayBeNegative`), the one parser of every
count and number (`_whole`, `whole_number`, `real_number`, `_positive_count`), the shared dice-rule
options with the app's dice augments (`with_rules`) and the Balanced Blitz switch (`BalancedBlitz`,
`mode_payload`), the attackers convention and the bot names, JSON and table printing, how
probabilities and win rates are written, the progress bars (and the compile steps' spinner, `_Spinner`), the
one line Ctrl-C leaves (`_interruptible`: how far the work got, what is kept; exit 130) and the compile notices:
the odds commands' one line (`_compile_notice`: their kernels compile in seconds) and a game command's first run
(`_first_run`: the expected CPU time, the spinner, the time it took).
The commands live in the parts (`riskstats.cli.odds`, `.game`, `.runs`, `.stats`, `.analysis`);
`riskstats.cli` registers them.
Nothing here imports numba or pandas at import time.
"""
import contextlib
import difflib
import functools
import inspect
import json
import os
import re
import sys
import time
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Annotated

import typer
from typer.core import TyperCommand, TyperGroup

from riskstats.errors import RiskstatsError
from riskstats.game.bots.catalog import CATALOG
from riskstats.intervals import percent_interval
from riskstats.odds.dice import DiceRules

CONVENTION = "attackers = armies able to roll (one more stays on the attacking territory)"
BOT_NAMES = tuple(CATALOG)
"""The bots' names, read from the catalogue (`riskstats.game.bots.catalog`, which needs no numba)."""


class _OneLineErrors(TyperGroup):
    """Turn usage and library errors into one line on stderr and exit status 2, no traceback."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            with _interrupts_out_of_llvmlite():
                result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except RiskstatsError as error:
            typer.echo(f"error: {error}", err=True)
            sys.exit(2)
        except typer.Abort:
            typer.echo("aborted", err=True)
            sys.exit(130)
        except Exception as error:  # click's usage errors, whichever click typer ships with
            if not (hasattr(error, "format_message") and hasattr(error, "exit_code")):
                raise
            typer.echo(f"error: {error.format_message()}", err=True)
            sys.exit(error.exit_code)
        sys.exit(result if isinstance(result, int) else 0)


INTERRUPT_RETRY = 0.05
"""Seconds after which a Ctrl-C that came while numba's compiler ran Python inside llvmlite is raised again."""


def _in_llvmlite(frame) -> bool:
    """Whether Python runs inside llvmlite now: ``frame`` or a caller of it is llvmlite's code."""
    while frame is not None:
        if f"{os.sep}llvmlite{os.sep}" in frame.f_code.co_filename:
            return True
        frame = frame.f_back
    return False


def _interrupt(signum, frame):
    """The command line's SIGINT handler: KeyboardInterrupt, as Python's own, unless Python runs inside
    llvmlite, where numba's compiler calls back into Python from C: an exception raised there is swallowed
    ("Exception ignored on calling ctypes callback function") and leaves numba broken, so that the command
    dies of "no compiled object yet" with a traceback. Then the signal comes again `INTERRUPT_RETRY`
    seconds later, by when the compiler is out of it."""
    if _in_llvmlite(frame):
        import threading

        retry = threading.Timer(INTERRUPT_RETRY, os.kill, (os.getpid(), signum))
        retry.daemon = True
        retry.start()
        return
    raise KeyboardInterrupt


@contextlib.contextmanager
def _interrupts_out_of_llvmlite():
    """Within the block, Ctrl-C is `_interrupt`'s (when Python's own handler holds SIGINT, in the main
    thread; otherwise nothing changes)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    signal.signal(signal.SIGINT, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _as_typed(message: str, params) -> str:
    """A library error's ``message`` in the words the user typed: a parameter's Python name (``stop_at``,
    ``defender_sides``, ``attackers``) becomes its option (``--stop-at``, ``--defender-sides``) or its argument's
    name in the help (``ATTACKERS``), where it stands as a name: any name with an underscore, and any other
    name before "must" ("attackers must be ...", "goal must be ...")."""
    typed = {}
    for param in params:
        if param.name is None:
            continue
        if param.param_type_name == "argument":
            shown = re.match(r"[A-Z][A-Z0-9_]*", param.metavar or "")
            typed[param.name] = shown.group() if shown else param.name.upper()
        else:
            long = [opt for opt in param.opts if opt.startswith("--")]
            if long:
                typed[param.name] = long[0]

    def swap(match):
        return typed.get(match.group(), match.group())

    message = re.sub(r"(?<![-\w.])[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b", swap, message)  # not --top, not rules.x
    return re.sub(r"(?<![-\w.])[a-z][a-z0-9]*\b(?= must\b)", swap, message)


class _NamesWhatWasTyped(TyperCommand):
    """A command whose library errors name the options and arguments as typed (`_as_typed`), not as the
    library's parameters."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except RiskstatsError as error:
            typed = _as_typed(str(error), self.get_params(ctx))
            if typed == str(error):
                raise
            raise RiskstatsError(typed) from error


_NEGATIVE = re.compile(r"-(\d[\d_]*(\.\d*)?|\.\d+)([eE][-+]?\d+)?")
"""A negative number, as `_whole` and `real_number` read them."""


class _NumbersMayBeNegative(_NamesWhatWasTyped):
    """A command whose arguments are numbers: ``-5`` reaches the argument's parser and the library's check
    ("attackers must be ...") instead of click's "No such option: -5"; any other unknown option is still
    refused, through the context's own usage error (whichever click typer runs on: typer 0.26 on carries its
    own, so riskstats imports no click)."""

    def __init__(self, *args, **kwargs):
        kwargs["context_settings"] = {**(kwargs.get("context_settings") or {}), "ignore_unknown_options": True}
        super().__init__(*args, **kwargs)

    def parse_args(self, ctx, args):
        known = {opt for param in self.get_params(ctx) for opt in (*param.opts, *param.secondary_opts)}
        for arg in args:
            if arg == "--":
                break
            name = arg.split("=", 1)[0]
            if arg.startswith("-") and not _NEGATIVE.fullmatch(arg) and name not in known:
                close = difflib.get_close_matches(name, sorted(known), n=1)
                ctx.fail(f"No such option: {name}" + (f" (did you mean {close[0]}?)" if close else ""))
        return super().parse_args(ctx, args)


@contextlib.contextmanager
def _compile_notice(needed: bool = True):
    """Print "compiling (first run only)…" on stderr once if numba compiles a kernel inside the block
    (a cold cache); silent when every kernel loads from the cache. ``needed=False`` skips numba entirely.
    The odds commands' notice (seconds of compiling); a game command's, which compiles for minutes, is
    `_first_run`."""
    if not needed:
        yield
        return
    from riskstats._numba import on_compile

    with on_compile(lambda: typer.echo("compiling (first run only)…", err=True)):
        yield


def _whole(text: str) -> int | None:
    """``text`` as a whole number, or None: ``1000000``, ``1_000_000``, ``-5``, or ``1e6`` / ``2.5e3`` when
    the value is whole (read exactly, so ``1e12`` is 10**12). The one parser of every count and number of
    the command line."""
    text = str(text).strip()
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    if not value.is_finite() or value.adjusted() > 100 or value != value.to_integral_value():
        return None
    return int(value)


def whole_number(text: str) -> int:
    """Parse a whole-number argument (`_whole`'s forms), naming the value when it is not one."""
    value = _whole(text)
    if value is None:
        raise typer.BadParameter(f"{text!r} is not a whole number (write 1000000, 1_000_000 or 1e6)")
    return value


def real_number(text: str) -> float:
    """Parse a real-number argument, naming the value when it is not one."""
    try:
        return float(text)
    except ValueError:
        raise typer.BadParameter(f"{text!r} is not a number") from None


_RULES = "Dice rules"
_RULE_PARAMETERS = [
    inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=Annotated[
        kind, typer.Option(flag, help=text, rich_help_panel=_RULES, parser=whole_number if kind is int else None)])
    for name, kind, default, flag, text in [
        ("attacker_dice", int, 3, "--attacker-dice", "Most dice the attacker may roll (1-3)."),
        ("defender_dice", int, 2, "--defender-dice", "Most dice the defender may roll (1-3)."),
        ("attacker_sides", int, 6, "--attacker-sides", "Faces of the attacker's dice."),
        ("defender_sides", int, 6, "--defender-sides", "Faces of the defender's dice."),
        ("ties", str, "defender", "--ties", "Who wins ties: defender or attacker."),
        ("defender_modifier", int, 0, "--defender-modifier",
         "Added to the defender's highest die (+1 bunker, -1 ammo shortage)."),
    ]
]
_AUGMENT_PARAMETERS = [
    inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Annotated[
        list[str] | None, typer.Option(flag, help=text, rich_help_panel=_RULES, metavar="NAME")])
    for name, flag, text in [
        ("attacker_augment", "--attacker-augment",
         "The official app's augment of the attacking territory: zombie (one die fewer). Repeatable."),
        ("defender_augment", "--defender-augment",
         "The official app's augment of the defending territory: capital or wall (one more die), zombie "
         "(loses ties). Repeatable."),
    ]
]


def with_rules(command):
    """Give a command the shared dice-rule options and the app's dice augments (``--attacker-augment``,
    ``--defender-augment``, `riskstats.odds.augments`); it receives them as one ``rules`` argument (the
    augments applied), and as ``augments`` (``{"attacker": [...], "defender": [...]}``) when it takes one."""
    signature = inspect.signature(command)
    names = [p.name for p in _RULE_PARAMETERS]
    wants_augments = "augments" in signature.parameters

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        from riskstats.odds.augments import with_augments

        rules = DiceRules(**{name: kwargs.pop(name) for name in names})
        augments = {"attacker": list(kwargs.pop("attacker_augment") or []),
                    "defender": list(kwargs.pop("defender_augment") or [])}
        for side in ("attacker", "defender"):
            try:
                rules = with_augments(rules, **{side: augments[side]})
            except RiskstatsError as error:
                raise RiskstatsError(f"--{side}-augment: {error}") from None
        if wants_augments:
            kwargs["augments"] = augments
        return command(*args, rules=rules, **kwargs)

    kept = [p for p in signature.parameters.values() if p.name not in ("rules", "augments")]
    wrapper.__signature__ = signature.replace(parameters=kept + _RULE_PARAMETERS + _AUGMENT_PARAMETERS)
    return wrapper


BalancedBlitz = Annotated[bool, typer.Option(
    "--balanced-blitz", help="Balanced Blitz, the official app's dice mode (published parameters 0.05, 1.3, 0.1, "
                             "1.8), instead of true random.")]


def balance_of(balanced_blitz: bool, exact: bool = False):
    """The library's ``balance=`` for the ``--balanced-blitz`` flag; refuses ``--exact`` beside it."""
    if not balanced_blitz:
        return None
    if exact:
        raise RiskstatsError("--exact cannot be combined with --balanced-blitz: Balanced Blitz raises probabilities "
                             "to real powers, which leaves the fractions; drop --exact")
    return "blitz"


def mode_payload(balance) -> dict:
    """The JSON keys that say which dice mode an answer used: ``mode`` ("true random" or "Balanced Blitz")
    and ``balance`` (the four parameters, or null)."""
    from dataclasses import asdict

    from riskstats.odds.balance import mode_name, resolve_balance

    rules = resolve_balance(balance)
    return {"mode": mode_name(rules), "balance": None if rules is None else asdict(rules)}


JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


def _number(value):
    """JSON form of a probability or expectation: a float, or "numerator/denominator" when exact."""
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    return float(value)


def _print_json(payload: dict) -> None:
    typer.echo(json.dumps(payload, indent=2))


PIPE_WIDTH = 1000
"""Width of the rich console when stdout is no terminal (a pipe or a file) and COLUMNS is not set: tables
are written whole, not cut to rich's default of 80 columns."""


PROSE_PIPE_WIDTH = 100
"""Width of the rich console on a pipe or a file (COLUMNS not set) for tables of prose (``riskstats bots``'
meanings and descriptions): wrapped to be read, as a terminal would."""


def _console(pipe_width: int = PIPE_WIDTH, **options):
    """A rich console on stdout: the terminal's width, or ``pipe_width`` (`PIPE_WIDTH`: tables whole;
    `PROSE_PIPE_WIDTH`: prose wrapped) when writing to a pipe or a file."""
    from rich.console import Console

    if not sys.stdout.isatty() and not os.environ.get("COLUMNS"):
        options.setdefault("width", pipe_width)
    return Console(**options)


def _print_table(title: str, columns: list[str], rows, caption: str | None = None, compact: bool = False,
                 fold: tuple[str, ...] = ()) -> None:
    """Print a rich table; ``compact``: no vertical lines, for tables that must fit 80 columns; ``fold``: the
    columns whose long text folds onto more lines where the terminal is too narrow, never cut with an ellipsis
    (a bot spec the reader copies), aligned left."""
    from rich import box
    from rich.table import Table

    table = Table(title=title, caption=caption,
                  **({"box": box.SIMPLE_HEAD, "show_edge": False, "padding": 0} if compact else {}))
    for i, column in enumerate(columns):
        table.add_column(column, justify="left" if compact and i == 0 or column in fold else "right",
                         **({"overflow": "fold"} if column in fold else {}))
    for row in rows:
        table.add_row(*(str(cell) for cell in row))
    _console().print(table)


def _percent(p) -> str:
    return f"{100 * float(p):.4f}%"


def _positive_count(option: str, text: str) -> int:
    """Parse a count given as ``1000000``, ``1_000_000`` or ``1e6`` (`_whole`); anything else is a
    `RiskstatsError`."""
    value = _whole(text)
    if value is None or value < 1:
        raise RiskstatsError(f"{option} must be a positive whole number like 1e6, got {text!r}")
    return value


def _count_or_zero(option: str, text: str) -> int:
    """Parse a count that may be 0 (``0``, ``1000``, ``1_000`` or ``1e3``); anything else is a `RiskstatsError`
    that says 0 is allowed."""
    value = _whole(text)
    if value is None or value < 0:
        raise RiskstatsError(f"{option} must be a whole number, 0 or more, like 1e3, got {text!r}")
    return value


class _LateProgress:
    """A ``progress(done, total)`` callback that shows a rich bar once a run has lasted ``after`` seconds."""

    def __init__(self, label: str, enabled: bool, after: float = 2.0):
        self.label, self.enabled, self.after = label, enabled, after
        self.start = time.perf_counter()
        self.bar = self.task = None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            if not self.enabled or time.perf_counter() - self.start < self.after:
                return
            from rich.progress import Progress

            self.bar = Progress(transient=True)
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=total)
        self.bar.update(self.task, completed=done)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.stop()


@contextlib.contextmanager
def _progress(enabled: bool, label: str, unit: str = "games"):
    """A rich progress bar with ``unit``/s (games/s, rollouts/s) and ETA, as a ``progress(done, total)``
    callback (None when off)."""
    if not enabled:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(),
                  TextColumn(f"{{task.fields[rate]}} {unit}/s"), TextColumn("ETA"), TimeRemainingColumn()) as bar:
        state = {}

        def update(done, total):
            now = time.perf_counter()
            if not state:
                state.update(task=bar.add_task(label, total=total, completed=done, rate="-"), t0=now, done0=done)
            rate = (done - state["done0"]) / max(now - state["t0"], 1e-9)
            shown = f"{rate:,.0f}" if done > state["done0"] else "-"
            bar.update(state["task"], completed=done, total=total, rate=shown)

        yield update


@contextlib.contextmanager
def _progress_lines(enabled: bool, label: str, unit: str = "rollouts", after: float = 2.0):
    """Progress for a pipe or a file, where no bar draws: one line on stderr once the work has run ``after``
    seconds past its first piece (which may have compiled), with the work's size, its rate and the time it is
    expected to take, and one when it is done, with its wall and CPU time. A ``progress(done, total)`` callback
    (None when off)."""
    if not enabled:
        yield None
        return
    state = {}

    def update(done, total):
        now = time.perf_counter()
        if not state:  # the first piece is over: time the rest from here
            state.update(t0=now, done0=done, total=total, said=False)
            return
        state["done"] = done
        ran = now - state["t0"]
        if not state["said"] and ran >= after and done > state["done0"]:
            rate = (done - state["done0"]) / ran
            typer.echo(f"{label}: {total:,} {unit} at {rate:,.0f}/s: about {(total - done) / rate:,.0f} s to go",
                       err=True)
            state["said"] = True

    began = (time.perf_counter(), time.process_time())
    yield update
    if state.get("done", state.get("done0", 0)) and state.get("total"):
        wall, cpu = time.perf_counter() - began[0], time.process_time() - began[1]
        typer.echo(f"{label}: {state['total']:,} {unit} in {wall:,.0f} s ({cpu:,.0f} CPU s, "
                   f"{state['total'] / max(wall, 1e-9):,.0f}/s)", err=True)


@contextlib.contextmanager
def _interruptible(unit: str, kept: str):
    """Ctrl-C (KeyboardInterrupt) within the block: one line on stderr saying how far the work got and what
    is ``kept`` of it, then exit 130. Yields ``noting(bar)``, which makes the ``progress(done, total)``
    callback to hand the library: it notes how far the work got and passes each call on to ``bar`` (a
    `_progress` or `_LateProgress` callback, or None). Open the bar inside this block, so that it is gone
    before the line is written."""
    seen = []

    def noting(bar):
        def progress(done, total):
            seen[:] = [done, total]
            if bar is not None:
                bar(done, total)
        return progress

    try:
        yield noting
    except KeyboardInterrupt:
        where = f"after {seen[0]:,} of {seen[1]:,} {unit}" if seen else f"before any {unit} finished"
        typer.echo(f"interrupted {where}: {kept}", err=True)
        raise typer.Exit(130) from None


def _on_terminal(stream) -> bool:
    """Whether ``stream`` (sys.stdout, sys.stderr) is a terminal: live progress is drawn only there."""
    return stream.isatty()


class _Spinner:
    """A spinner on a terminal with a step's name, its running time and the kernel numba compiles now, on
    ``console`` (default: a console on stderr). `show` starts a fresh timer for a step, `kernel_started` and
    `kernel_ended` follow numba's compile events (`_compile_listener`). ``riskstats compile``'s and a first game
    command's (`_first_run`)."""

    def __init__(self, console=None):
        from rich.console import Console
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        self.bar = Progress(SpinnerColumn(), TimeElapsedColumn(), TextColumn("{task.description}"),
                            TextColumn("{task.fields[kernel]}"),
                            console=console or Console(stderr=True, force_terminal=True), transient=True)
        self.task = None
        self.compiling = []  # the step's kernels being compiled, callers first (`_ours`)
        self.done = 0  # the step's kernels compiled since it began

    def start(self) -> None:
        self.bar.start()

    def stop(self) -> None:
        self.show(None)
        self.bar.stop()

    def show(self, text: str | None) -> None:
        """Show the step ``text`` with a fresh timer (None: no step)."""
        if self.task is not None:
            self.bar.remove_task(self.task)
            self.task = None
        self.done = 0
        if text is not None:
            self.task = self.bar.add_task(text, kernel="")
            self._kernel()

    def kernel_started(self, name: str) -> None:
        """numba starts compiling ``name`` (``module.function``); the helpers numba compiles on the way are not
        shown (`_ours`): the spinner names the step's own kernels."""
        if _ours(name):
            self.compiling.append(name)
            self._kernel()

    def kernel_ended(self, name: str) -> None:
        if _ours(name):
            if name in self.compiling:
                self.compiling.remove(name)
            self.done += 1
            self._kernel()

    def text(self) -> str:
        """What the spinner shows after the step: how many of its kernels are compiled, and the one compiling now
        (``12 done, game.bots.hunter.hunt._kill_plan``; short, so that a narrow terminal does not cut it)."""
        now = f", {self.compiling[-1].removeprefix('riskstats.')}" if self.compiling else ""
        return f"{self.done} done{now}" if self.done or now else ""

    def _kernel(self) -> None:
        if self.task is not None:
            self.bar.update(self.task, kernel=self.text())
            self.bar.refresh()


def _ours(name: str) -> bool:
    """Whether the kernel ``module.function`` is a step's own (riskstats', or a caller's), not one of the helpers
    numba compiles on the way (``numba.np.arrayobj.impl``: 192 such names in a game step)."""
    return not name.startswith(("numba.", "?."))


def _compile_listener(started, ended):
    """`riskstats._numba.compile_listener` with each kernel named ``module.function``: ``started(name)`` when numba
    starts compiling it, ``ended(name)`` when it is done."""
    from riskstats._numba import compile_listener

    def name(func) -> str:
        return f"{getattr(func, '__module__', '?')}.{getattr(func, '__name__', '?')}"

    return compile_listener(lambda func: started(name(func)), lambda func: ended(name(func)))


@contextlib.contextmanager
def _step_spinner(enabled: bool):
    """A spinner on stderr (a terminal) with a step's name, its running time and the kernel numba compiles
    now (`_Spinner`); yields ``show(text)``, which starts a fresh timer for the step ``text`` (None: stop
    showing). Off: a no-op."""
    if not enabled:
        yield lambda text: None
        return
    from numba.core import event

    spinner = _Spinner()
    spinner.start()
    try:
        with event.install_listener("numba:compile", _compile_listener(spinner.kernel_started, spinner.kernel_ended)):
            yield spinner.show
    finally:
        spinner.stop()


class _FirstRun:
    """What `_first_run` tells the user, driven by numba's compile events: see there."""

    def __init__(self, step, terminal: bool):
        from riskstats.runs.warmup import in_cache

        self.step, self.terminal = step, terminal
        self.cold = step is not None and not in_cache(step)
        self.waiting = set(step.kernels) if self.cold else set()  # outermost kernels not compiled yet
        self.depth = 0
        self.spinner = None
        self.started = None  # (wall, CPU) seconds when the notice came
        self.done = False

    def notice(self) -> str:
        if not self.cold:
            return "compiling kernels missing from the cache (riskstats compile does it ahead)…"
        cost = f": about {self.step.cold_cpu_s:.0f} CPU s" if self.step.cold_cpu_s else ""
        return (f"compiling the {self.step.name} kernels, first run only{cost} (riskstats compile does it ahead; "
                "later runs load them)…")

    def kernel_started(self, name: str) -> None:
        self.depth += 1
        if self.done:
            return
        if self.started is None:
            self.started = (time.perf_counter(), time.process_time())
            typer.echo(self.notice(), err=True)
            if self.terminal:
                self.spinner = _Spinner(_live_console())
                self.spinner.start()
                self.spinner.show(f"compiling the {self.step.name} kernels…" if self.cold else "compiling…")
        if self.spinner is not None:
            self.spinner.kernel_started(name)

    def kernel_ended(self, name: str) -> None:
        self.depth = max(self.depth - 1, 0)
        if self.done:
            return
        if self.spinner is not None:
            self.spinner.kernel_ended(name)
        self.waiting.discard(name)
        if self.depth == 0 and not self.waiting:
            self.finish()

    def finish(self, said: bool = True) -> None:
        """The compile is over: stop the spinner; ``said``: print how long it took."""
        if self.done or self.started is None:
            return
        self.done = True
        if self.spinner is not None:
            self.spinner.stop()
        if said:
            wall, cpu = time.perf_counter() - self.started[0], time.process_time() - self.started[1]
            typer.echo(f"compiled in {wall:.0f} s ({cpu:.0f} CPU s); later runs load it", err=True)


def _live_console():
    """The console a first run's spinner draws on: rich's own (stdout) when stdout is a terminal, where a
    command's progress bar already draws, so that the spinner nests in it rather than fight it over the
    cursor; else a console on stderr (None)."""
    if not _on_terminal(sys.stdout):
        return None
    from rich import get_console

    return get_console()


@contextlib.contextmanager
def _first_run(step: str | None = None, needed: bool = True):
    """Say what a game command waits for while numba compiles its kernels (a first run, or the first after
    riskstats changed), and nothing when every kernel loads from the cache.

    When numba starts compiling, one line on stderr says so and that ``riskstats compile`` does it ahead; on a
    terminal (stderr) a spinner under it shows the running time, the step and the kernel compiling now
    (`_Spinner`, as ``riskstats compile`` does). When the ``step``'s kernels (`riskstats.runs.warmup.STEPS`)
    are missing from the cache (`in_cache`), that is a first run: the line names the step and the CPU time it
    is expected to take (its measured ``cold_cpu_s``), and the compile is over once the step's outermost
    kernels are compiled; otherwise (a kernel cached for other argument types; ``step`` None) once numba
    stops compiling. Then one line says how long it took, wall and CPU. ``needed=False`` skips numba
    entirely. Enter it after a command's progress bar, so that the spinner ends first.
    """
    if not needed:
        yield
        return
    from numba.core import event

    from riskstats.runs.warmup import STEPS

    first = _FirstRun(next(s for s in STEPS if s.name == step) if step is not None else None,
                      _on_terminal(sys.stderr))
    ok = False
    try:
        with event.install_listener("numba:compile", _compile_listener(first.kernel_started, first.kernel_ended)):
            yield
        ok = True
    finally:
        first.finish(said=ok)


def _interval(r) -> str:
    """The interval of a row with ``ci_low`` and ``ci_high`` (`riskstats.intervals.percent_interval`)."""
    return percent_interval(r["ci_low"], r["ci_high"])

