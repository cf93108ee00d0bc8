"""The ``riskstats`` command line: a thin skin over the library.

Each command parses its options, calls one library function and prints a table (or JSON with
``--json``). Library errors (`RiskstatsError`) and usage errors become a one-line message on stderr
and exit status 2; nothing here computes odds. Heavy modules (numba, pandas) are imported inside the
commands that need them, so start-up stays quick.

The command names, argument names and JSON keys are a contract relied on by scripts: add, never rename.

The commands live in modules that mirror the library's parts; this module makes the app and registers
them, in the order ``riskstats --help`` lists them (`COMMANDS`, `POSITION_COMMANDS`)::

    `common`     the machinery every part shares: one-line errors, number parsers, dice-rule options,
                 JSON and table printing, progress bars, the compile notices
    `odds`       round, odds, table, chain, need, policy, simulate    (riskstats.odds)
    `game`       bots, evaluate, position new, position names         (riskstats.game)
    `runs`       selfplay, experiment, tune, compile                  (riskstats.runs)
    `stats`      report, show                                         (riskstats.stats)
    `analysis`   continents, cards                                    (riskstats.analysis)

May import: every layer of the library, inside the commands that need it (``import riskstats.cli``
loads neither numba nor pandas).
"""
import inspect
import os
from typing import Annotated

import typer

from riskstats.cli import analysis, game, odds, runs, stats
from riskstats.cli.common import (
    BOT_NAMES,
    CONVENTION,
    PIPE_WIDTH,
    _NamesWhatWasTyped,
    _NumbersMayBeNegative,
    _OneLineErrors,
    _whole,
    real_number,
    whole_number,
    with_rules,
)
from riskstats.cli.game import _supported_digits
from riskstats.cli.odds import MAX_NEED_DEFENDERS, MAX_STATES, MAX_TABLE_ROWS, ODDS_HINT_STATES
from riskstats.cli.runs import _terminate_as_interrupt, _tune_verdict

__all__ = ["app", "main", "COMMANDS", "POSITION_COMMANDS", "BOT_NAMES", "CONVENTION", "PIPE_WIDTH", "MAX_STATES",
           "MAX_TABLE_ROWS", "ODDS_HINT_STATES", "MAX_NEED_DEFENDERS", "whole_number", "real_number", "with_rules",
           # private helpers the tests import from here
           "_whole", "_supported_digits", "_terminate_as_interrupt", "_tune_verdict"]

app = typer.Typer(
    cls=_OneLineErrors,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    help="Exact odds and fast simulations for the board game Risk. " + CONVENTION + ".",
)


def _show_version(value: bool) -> None:
    if value:
        from riskstats import __version__

        typer.echo(f"riskstats {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[bool, typer.Option("--version", callback=_show_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
):
    """Exact odds and fast simulations for the board game Risk."""
    # the command line prints its own compile notices (`_compile_notice`, `_first_run`): the library's is for Python
    # callers
    os.environ.setdefault("RISKSTATS_COMPILE_NOTICE", "0")


_NUMBERS = _NumbersMayBeNegative
COMMANDS = (
    ("round", odds.round_, _NUMBERS),
    ("odds", odds.odds, _NUMBERS),
    ("table", odds.table, None),
    ("chain", odds.chain, _NUMBERS),
    ("need", odds.need, _NUMBERS),
    ("policy", odds.policy_, _NUMBERS),
    ("simulate", odds.simulate, _NUMBERS),
    ("selfplay", runs.selfplay, None),
    ("experiment", runs.experiment, None),
    ("report", stats.report, None),
    ("bots", game.bots_, None),
    ("tune", runs.tune, None),
    ("continents", analysis.continents, None),
    ("cards", analysis.cards, None),
    ("evaluate", game.evaluate, None),
    ("compile", runs.compile_kernels, None),
    ("show", stats.show, None),
)
"""Every top-level command: its name, the function behind it, and its command class (`_NumbersMayBeNegative`
where the arguments are numbers that may be negative; None: `_NamesWhatWasTyped`), in the order of ``--help``."""
POSITION_COMMANDS = (
    ("new", game.position_new),
    ("names", game.position_names),
)
"""The commands of ``riskstats position``, in the order of its ``--help``."""


def _terminal_help(doc: str) -> str:
    """A command's docstring as its ``--help`` text: each paragraph one line, for the terminal to wrap (typer
    keeps a docstring's own line breaks in the commands list of ``riskstats --help``, which broke sentences
    mid-line at any width)."""
    return "\n\n".join(" ".join(paragraph.split()) for paragraph in inspect.cleandoc(doc).split("\n\n"))


def _register() -> None:
    """Add `COMMANDS` to the app, and the ``position`` group with `POSITION_COMMANDS` after them."""
    for name, command, cls in COMMANDS:
        app.command(name, cls=cls or _NamesWhatWasTyped, help=_terminal_help(command.__doc__))(command)
    position_app = typer.Typer(no_args_is_help=True, help=game.POSITION_HELP)
    for name, command in POSITION_COMMANDS:
        position_app.command(name, cls=_NamesWhatWasTyped, help=_terminal_help(command.__doc__))(command)
    app.add_typer(position_app, name="position")


_register()


def main() -> None:
    """Console-script entry point."""
    app()
