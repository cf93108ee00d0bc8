"""The ``riskstats`` command line: a thin skin over the library.

Each command parses its options, calls one library function and prints a table (or JSON with
``--json``). Library errors (`RiskstatsError`) and usage errors become a one-line message on stderr
and exit status 2; nothing here computes odds. Heavy modules (numba, pandas) are imported inside the
commands that need them, so start-up stays quick.

The command names, argument names and JSON keys are a contract relied on by scripts: add, never rename.
"""
import contextlib
import functools
import inspect
import json
import math
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
from riskstats.odds.dice import DiceRules

CONVENTION = "attackers = armies able to roll (one more stays on the attacking territory)"
BOT_NAMES = ("random", "aggressive", "continent", "defensive", "mission", "capital", "search", "value",
             "continent-tuned")
"""The bots (`riskstats.game.registry.BOTS`' names, kept here so that ``--help`` needs no numba;
a test holds the two equal)."""
MAX_STATES = 250_000_000
"""Largest battle-state count (attackers x defenders, summed over a chain) ``odds`` and ``chain`` take:
about 15,800 a side, a few seconds. The library has no such limit."""
MAX_TABLE_ROWS = 1_000_000
"""Most rows ``table`` prints (one per battle: 1,000 a side, a 25 MB CSV)."""
ODDS_HINT_STATES = 100
"""Above this many end states ``odds`` points to ``--top`` and ``--summary`` under the table."""
MAX_NEED_DEFENDERS = 5_000
"""Most defenders (summed over a chain) ``need`` takes: its search solves many battles of that size."""


class _OneLineErrors(TyperGroup):
    """Turn usage and library errors into one line on stderr and exit status 2, no traceback."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
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


_NEGATIVE = re.compile(r"-(\d[\d_]*(\.\d*)?|\.\d+)([eE][-+]?\d+)?")
"""A negative number, as `_whole` and `real_number` read them."""


class _NumbersMayBeNegative(TyperCommand):
    """A command whose arguments are numbers: ``-5`` reaches the argument's parser and the library's check
    ("attackers must be ...") instead of click's "No such option: -5"; any other unknown option is still
    refused as click refuses it."""

    def __init__(self, *args, **kwargs):
        kwargs["context_settings"] = {**(kwargs.get("context_settings") or {}), "ignore_unknown_options": True}
        super().__init__(*args, **kwargs)

    def parse_args(self, ctx, args):
        import click

        known = {opt for param in self.get_params(ctx) for opt in (*param.opts, *param.secondary_opts)}
        for arg in args:
            if arg == "--":
                break
            if arg.startswith("-") and not _NEGATIVE.fullmatch(arg) and arg.split("=", 1)[0] not in known:
                raise click.NoSuchOption(arg.split("=", 1)[0], ctx=ctx)
        return super().parse_args(ctx, args)


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
    # the command line prints its own compile notice (`_compile_notice`): the library's is for Python callers
    os.environ.setdefault("RISKSTATS_COMPILE_NOTICE", "0")


@contextlib.contextmanager
def _compile_notice(needed: bool = True):
    """Print "compiling (first run only)…" on stderr once if numba compiles a kernel inside the block
    (a cold cache); silent when every kernel loads from the cache. ``needed=False`` skips numba entirely."""
    if not needed:
        yield
        return
    from riskstats._numba import on_compile

    with on_compile(lambda: typer.echo("compiling (first run only)…", err=True)):
        yield


def _check_states(command: str, attackers: int, defenders: int, limit: int = MAX_STATES,
                  what: str = "battle states", scale: str = "about 15,800 a side, a few seconds") -> None:
    """Refuse work too large to answer in a few seconds (`MAX_STATES`, `MAX_TABLE_ROWS`)."""
    if attackers > 0 and defenders > 0 and attackers * defenders > limit:
        raise RiskstatsError(
            f"{command}: {attackers:,} attackers x {defenders:,} defenders = {attackers * defenders:,} {what}, "
            f"over the command line's limit of {limit:,} ({scale}); call riskstats from Python for more")


def _uses_kernels(attackers: int, defenders: int, exact: bool = False) -> bool:
    from riskstats.odds.battle import INTERPRETED_STATES

    return not exact and attackers * defenders > INTERPRETED_STATES


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


def with_rules(command):
    """Give a command the shared dice-rule options; it receives them as one ``rules`` argument."""
    signature = inspect.signature(command)
    names = [p.name for p in _RULE_PARAMETERS]

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        rules = DiceRules(**{name: kwargs.pop(name) for name in names})
        return command(*args, rules=rules, **kwargs)

    kept = [p for p in signature.parameters.values() if p.name != "rules"]
    wrapper.__signature__ = signature.replace(parameters=kept + _RULE_PARAMETERS)
    return wrapper


Attackers = Annotated[int, typer.Argument(parser=whole_number, metavar="A", help="Attackers (armies able to roll).")]
Defenders = Annotated[int, typer.Argument(parser=whole_number, metavar="D", help="Defenders.")]
DefenderList = Annotated[list[int], typer.Argument(
    parser=whole_number, metavar="D1 [D2 ...]", help="Defenders of each territory, in the order attacked.")]
StopAt = Annotated[int, typer.Option(parser=whole_number, help="Stop once down to this many attackers.")]
Cautious = Annotated[bool, typer.Option(help="With --stop-at: never roll more dice than the attackers above it.")]
Goal = Annotated[int, typer.Option(parser=whole_number, help="Succeed once the defender is down to this many.")]
Leave = Annotated[int, typer.Option(parser=whole_number, help="Armies left in each conquered territory.")]
Exact = Annotated[bool, typer.Option(help="Rational arithmetic; probabilities printed as fractions.")]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
TerritoryArmies = Annotated[bool, typer.Option(
    "--territory-armies", help="Read the attacking number as armies on the territory (one stays behind).")]


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


def _console(**options):
    """A rich console on stdout: the terminal's width, or `PIPE_WIDTH` when writing to a pipe or a file."""
    import os

    from rich.console import Console

    if not sys.stdout.isatty() and not os.environ.get("COLUMNS"):
        options.setdefault("width", PIPE_WIDTH)
    return Console(**options)


def _print_table(title: str, columns: list[str], rows, caption: str | None = None, compact: bool = False) -> None:
    """Print a rich table; ``compact``: no vertical lines, for tables that must fit 80 columns."""
    from rich import box
    from rich.table import Table

    table = Table(title=title, caption=caption,
                  **({"box": box.SIMPLE_HEAD, "show_edge": False, "padding": 0} if compact else {}))
    for i, column in enumerate(columns):
        table.add_column(column, justify="left" if compact and i == 0 else "right")
    for row in rows:
        table.add_row(*(str(cell) for cell in row))
    _console().print(table)


def _attackers(value: int, territory_armies: bool) -> int:
    if not territory_armies:
        return value
    if value < 2:
        raise RiskstatsError(f"--territory-armies: a territory needs at least 2 armies to attack "
                             f"(one stays behind), got {value}")
    return value - 1


def _rules_dict(rules: DiceRules) -> dict:
    from dataclasses import asdict

    return asdict(rules)


def _percent(p) -> str:
    return f"{100 * float(p):.4f}%"


def _rate(p) -> str:
    """A win rate estimated from games: one decimal, as its interval."""
    return f"{100 * float(p):.1f}%"


@app.command("round", cls=_NumbersMayBeNegative)
@with_rules
def round_(
    adice: Annotated[int, typer.Argument(parser=whole_number, metavar="ADICE", help="Dice the attacker rolls.")],
    ddice: Annotated[int, typer.Argument(parser=whole_number, metavar="DDICE", help="Dice the defender rolls.")],
    as_json: JsonFlag = False,
    *,
    rules: DiceRules,
):
    """The exact outcome table of one roll, as fractions and decimals."""
    fractions = rules.outcome_fractions(adice, ddice)
    k = len(fractions) - 1
    outcomes = [{"attacker_loses": i, "defender_loses": k - i, "p": float(f), "fraction": _number(f)}
                for i, f in enumerate(fractions)]
    if as_json:
        _print_json({"attacker_dice": adice, "defender_dice": ddice,
                     "rules": _rules_dict(rules), "outcomes": outcomes})
        return
    _print_table(f"One roll: {adice} attacker dice vs {ddice} defender dice",
                 ["attacker loses", "defender loses", "fraction", "p"],
                 [(o["attacker_loses"], o["defender_loses"], o["fraction"], f"{o['p']:.6f}") for o in outcomes])


@app.command(cls=_NumbersMayBeNegative)
@with_rules
def odds(
    attackers: Attackers,
    defenders: Defenders,
    stop_at: StopAt = 0,
    cautious: Cautious = False,
    goal: Goal = 0,
    exact: Exact = False,
    territory_armies: TerritoryArmies = False,
    top: Annotated[int | None, typer.Option(
        "--top", parser=whole_number, metavar="N",
        help="Show only the N most likely end states (JSON: outcomes holds those N, most likely first).")] = None,
    summary_only: Annotated[bool, typer.Option(
        "--summary", help="Show only the summary, no end states (JSON: no outcomes list).")] = False,
    as_json: JsonFlag = False,
    *,
    rules: DiceRules,
):
    """Exact odds and end-state distribution of one battle."""
    from riskstats.odds.battle import battle_odds

    attackers = _attackers(attackers, territory_armies)
    _check_states("odds", attackers, defenders)
    with _compile_notice(_uses_kernels(attackers, defenders, exact)):
        result = battle_odds(attackers, defenders, rules, stop_at=stop_at, goal=goal, cautious=cautious,
                             exact=exact)
    if top is not None and top < 1:
        raise RiskstatsError(f"--top must be at least 1, got {top}")
    if top is not None and summary_only:
        raise RiskstatsError("give --top N or --summary, not both")
    order = sorted(zip(result.attackers_left.tolist(), result.defenders_left.tolist(), result.p))
    states = len(order)
    if top is not None:
        order = sorted(order, key=lambda row: -float(row[2]))[:top]
    payload = {
        "attackers": result.attackers,
        "defenders": result.defenders,
        "stop_at": stop_at,
        "goal": goal,
        "rules": _rules_dict(rules),
        "convention": CONVENTION,
        "p_win": _number(result.p_win),
        "p_lose": _number(result.p_lose),
        **({"p_goal": _number(result.p_goal)} if goal else {}),
        "expected_attacker_losses": _number(result.expected_attacker_losses),
        "expected_defender_losses": _number(result.expected_defender_losses),
        "sd_attacker_losses": result.sd_attacker_losses,
        "sd_defender_losses": result.sd_defender_losses,
        "outcomes": [{"attackers_left": a, "defenders_left": d, "p": _number(p)} for a, d, p in order],
    }
    if top is not None:
        payload["outcomes_total"] = states
    if summary_only:
        del payload["outcomes"]
        payload["outcomes_total"] = states
    if as_json:
        _print_json(payload)
        return
    caption = CONVENTION
    if goal:  # the battle ends at the goal, so it never reaches a conquest: no P(win) row
        summary = [(f"P(defenders <= {goal})", _percent(result.p_goal)),
                   ("P(attacker stops first)", _percent(result.p_lose))]
        caption = f"the battle ends once the defender is down to {goal}; {CONVENTION}"
    else:
        summary = [("P(win)", _percent(result.p_win)), ("P(lose)", _percent(result.p_lose))]
    summary += [
        ("attacker losses", f"{float(result.expected_attacker_losses):.3f} ± {result.sd_attacker_losses:.3f}"),
        ("defender losses", f"{float(result.expected_defender_losses):.3f} ± {result.sd_defender_losses:.3f}"),
    ]
    title = f"{result.attackers} attackers vs {defenders} defenders"
    _print_table(title, ["", "value"], summary, caption=caption)
    if summary_only:
        return
    note = None
    if top is not None:
        shown = sum(float(p) for _, _, p in order)
        note = f"the {len(order):,} most likely of {states:,} end states: {100 * shown:.2f}% of the probability"
    elif states > ODDS_HINT_STATES:
        note = f"{states:,} end states: --top N shows the N most likely, --summary none"
    _print_table("End states" if top is None else f"End states (top {top})", ["attackers left", "defenders left", "p"],
                 [(a, d, p if exact else f"{p:.6f}") for a, d, p in order], caption=note)


@app.command()
@with_rules
def table(
    attackers: Annotated[int, typer.Option("--attackers", parser=whole_number, help="Largest number of attackers.")],
    defenders: Annotated[int, typer.Option("--defenders", parser=whole_number, help="Largest number of defenders.")],
    output_format: Annotated[str, typer.Option("--format", help="text, csv or json.")] = "text",
    stop_at: StopAt = 0,
    goal: Goal = 0,
    as_json: JsonFlag = False,
    *,
    rules: DiceRules,
):
    """P(win) for every battle from 1..N attackers against 1..M defenders."""
    from riskstats.odds.battle import win_table

    if output_format not in ("text", "csv", "json"):
        raise RiskstatsError(f"--format must be text, csv or json, got {output_format!r}")
    if as_json and output_format not in ("text", "json"):
        raise RiskstatsError(f"give --json or --format {output_format}, not both")
    output_format = "json" if as_json else output_format
    _check_states("table", attackers, defenders, MAX_TABLE_ROWS, "rows", "1,000 a side")
    with _compile_notice(attackers > 0 and defenders > 0 and _uses_kernels(attackers, defenders)):
        frame = win_table(attackers, defenders, rules, stop_at=stop_at, goal=goal)
    if output_format == "csv":
        typer.echo(frame.to_csv(index=False), nl=False)
    elif output_format == "json":
        typer.echo(frame.to_json(orient="records"))
    else:
        column = frame.columns[-1]
        grid = frame.pivot(index="attackers", columns="defenders", values=column)
        rows = [[a, *(f"{p:.3f}" for p in values)] for a, values in zip(grid.index, grid.to_numpy())]
        _print_table(f"{column} by attackers (rows) and defenders (columns)",
                     ["A \\ D", *map(str, grid.columns)], rows, caption=CONVENTION)


@app.command(cls=_NumbersMayBeNegative)
@with_rules
def chain(
    attackers: Attackers,
    defenders: DefenderList,
    leave: Leave = 1,
    stop_at: StopAt = 0,
    exact: Exact = False,
    territory_armies: TerritoryArmies = False,
    as_json: JsonFlag = False,
    *,
    rules: DiceRules,
):
    """Exact odds of conquering a chain of territories in order."""
    from riskstats.odds.chain import chain_odds

    attackers = _attackers(attackers, territory_armies)
    total = sum(max(d, 0) for d in defenders)
    _check_states("chain", attackers, total)
    with _compile_notice(_uses_kernels(attackers, total, exact)):
        result = chain_odds(attackers, defenders, rules, leave=leave, stop_at=stop_at, exact=exact)
    payload = {
        "attackers": result.attackers,
        "defenders": list(result.defenders),
        "leave": leave,
        "rules": _rules_dict(rules),
        "convention": CONVENTION,
        "p_all": _number(result.p_all),
        "p_at_least": [_number(p) for p in result.p_at_least],
        "expected_armies_left": _number(result.expected_armies_left),
    }
    if as_json:
        _print_json(payload)
        return
    rows = [(k, d, _percent(p)) for k, (d, p) in enumerate(zip(result.defenders, result.p_at_least), 1)]
    _print_table(f"Chain from {result.attackers} attackers, leaving {leave} per territory",
                 ["k", "defenders", "P(at least k conquered)"], rows,
                 caption=f"expected armies left {float(result.expected_armies_left):.3f}; {CONVENTION}")


@app.command(cls=_NumbersMayBeNegative)
@with_rules
def need(
    defenders: DefenderList,
    p: Annotated[float, typer.Option("--p", parser=real_number, help="Wanted P(conquering all), in (0, 1].")],
    leave: Leave = 1,
    as_json: JsonFlag = False,
    *,
    rules: DiceRules,
):
    """The smallest number of attackers that wins with probability at least P."""
    from riskstats.odds.chain import attackers_needed

    total = sum(max(d, 0) for d in defenders)
    if total > MAX_NEED_DEFENDERS:
        raise RiskstatsError(f"need: {total:,} defenders in all, over the command line's limit of "
                             f"{MAX_NEED_DEFENDERS:,} (a few seconds); call riskstats.attackers_needed from "
                             "Python for more")
    with _compile_notice():
        result = attackers_needed(defenders, p, rules, leave=leave)
    payload = {"defenders": defenders, "p": p, "attackers": result.attackers,
               "territory_armies": result.attackers + 1, "p_win": result.p_win, "convention": CONVENTION}
    if as_json:
        _print_json(payload)
        return
    _print_table(f"Attackers needed for P >= {p} against {' then '.join(map(str, defenders))}",
                 ["attackers", "armies on territory", "P(win)"],
                 [(result.attackers, result.attackers + 1, _percent(result.p_win))], caption=CONVENTION)


def _policy_grid(table, territory: int, defenders: int) -> None:
    """Print one territory's policy as a grid: attackers down, defenders across; dice rolled, or "-" to stop."""
    rows = table[table.territory == territory]
    cells = {(a, d): (str(n) if act == "attack" else "-")
             for a, d, act, n in zip(rows.attackers, rows.defenders, rows.action, rows.dice)}
    attackers = sorted(set(rows.attackers))
    _print_table(f"Policy, territory {territory}: dice to roll (- = stop)",
                 ["a \\ d", *map(str, range(1, defenders + 1))],
                 [(a, *(cells[a, d] for d in range(1, defenders + 1))) for a in attackers])


@app.command("policy", cls=_NumbersMayBeNegative)
@with_rules
def policy_(
    attackers: Attackers,
    defenders: DefenderList,
    value: Annotated[list[float], typer.Option(
        "--value", parser=real_number,
        help="Worth of a conquest, in armies: once for every territory, or once per territory.")],
    cost: Annotated[float, typer.Option(parser=real_number, help="Payoff lost per attacking army lost.")] = 1.0,
    survivor_value: Annotated[float, typer.Option(
        parser=real_number, help="Payoff per attacking army alive at the end.")] = 0.0,
    kill_value: Annotated[float, typer.Option(
        parser=real_number, help="Payoff per defending army destroyed.")] = 0.0,
    defender: Annotated[str, typer.Option(
        help="best: the defender picks its dice knowing how many the attacker rolls (minimax); after_roll: "
             "knowing the attacker's faces; max: always its most.")] = "best",
    leave: Leave = 1,
    exact: Exact = False,
    territory_armies: TerritoryArmies = False,
    as_json: JsonFlag = False,
    *,
    rules: DiceRules,
):
    """The optimal way to attack: when to stop and how many dice, beside fixed stop rules."""
    from riskstats.odds.policy import chain_policy

    values = value[0] if len(value) == 1 else value
    result = chain_policy(_attackers(attackers, territory_armies), defenders, values, rules, leave=leave,
                          cost=cost, survivor_value=survivor_value, kill_value=kill_value, defender=defender,
                          exact=exact)
    table = result.table
    summary = result.summary
    payload = {
        "attackers": result.attackers,
        "defenders": list(result.defenders),
        "value": [_number(v) for v in result.values_per_territory],
        "cost": _number(result.cost),
        "survivor_value": _number(result.survivor_value),
        "kill_value": _number(result.kill_value),
        "defender": defender,
        "leave": leave,
        "rules": _rules_dict(rules),
        "convention": CONVENTION,
        "expected_value": _number(result.expected_value),
        "p_win": _number(result.p_win),
        "baseline": {name: _number(v) for name, v in result.baseline.items()},
        "best_baseline": result.best_baseline,
        "value_of_choice": _number(result.value_of_choice),
        "policy": [{"territory": int(k), "attackers": int(a), "defenders": int(d), "action": act, "dice": int(n),
                    "defender_dice": int(m), "p_defender_fewer": _number(q)}
                   for k, a, d, act, n, m, q in zip(table.territory, table.attackers, table.defenders, table.action,
                                                    table.dice, table.defender_dice, table.p_defender_fewer)],
    }
    if as_json:
        _print_json(payload)
        return
    shown = [name for name in summary.index if not name.startswith("stop_at_")]
    shown.insert(2, max((n for n in summary.index if n.startswith("stop_at_")),
                        key=lambda n: summary.expected_value[n], default="attack_to_end"))
    _print_table(f"{result.attackers} attackers vs {' then '.join(map(str, result.defenders))} defenders",
                 ["policy", "expected value", "P(win)", "attacker losses", "defender losses"],
                 [(name, f"{float(summary.expected_value[name]):.4f}", _percent(summary.p_win[name]),
                   f"{float(summary.expected_attacker_losses[name]):.3f}",
                   f"{float(summary.expected_defender_losses[name]):.3f}") for name in dict.fromkeys(shown)],
                 caption=f"value of the choice {float(result.value_of_choice):.4f} over {result.best_baseline}; "
                         f"{CONVENTION}")
    for k, d in enumerate(result.defenders, 1):
        _policy_grid(table, k, d)


_SIMULATE_EXACT_STATES = 10**7
"""Largest attackers x defenders for which ``simulate`` also prints the exact value."""


def _positive_count(option: str, text: str) -> int:
    """Parse a count given as ``1000000``, ``1_000_000`` or ``1e6`` (`_whole`); anything else is a
    `RiskstatsError`."""
    value = _whole(text)
    if value is None or value < 1:
        raise RiskstatsError(f"{option} must be a positive whole number like 1e6, got {text!r}")
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


@app.command(cls=_NumbersMayBeNegative)
@with_rules
def simulate(
    attackers: Attackers,
    defenders: Defenders,
    trials: Annotated[str, typer.Option(help="Battles to simulate: a positive whole number, 1e6 style allowed.")]
    = "1000000",
    seed: Annotated[int | None, typer.Option(
        parser=whole_number, help="Seed of the random streams (default: fresh, and printed).")] = None,
    stop_at: StopAt = 0,
    cautious: Cautious = False,
    goal: Goal = 0,
    territory_armies: TerritoryArmies = False,
    as_json: JsonFlag = False,
    *,
    rules: DiceRules,
):
    """Monte Carlo estimate of one battle, with a 95% Wilson interval beside the exact value."""
    from riskstats.odds.battle import battle_odds
    from riskstats.odds.simulate import simulate_battles

    count = _positive_count("--trials", trials)
    attackers = _attackers(attackers, territory_armies)
    with _compile_notice(), _LateProgress("simulating", not as_json and sys.stdout.isatty()) as progress:
        sample = simulate_battles(attackers, defenders, rules, trials=count, seed=seed, stop_at=stop_at,
                                  goal=goal, cautious=cautious, progress=progress)
    exact = None
    if attackers * defenders <= _SIMULATE_EXACT_STATES:
        exact = battle_odds(attackers, defenders, rules, stop_at=stop_at, goal=goal, cautious=cautious)
    low, high = sample.p_win_interval()
    frame = sample.outcomes
    payload = {
        "trials": sample.trials,
        "seed": sample.seed,
        "p_win": sample.p_win,
        "ci_low": low,
        "ci_high": high,
        "p_win_exact": None if exact is None else float(exact.p_win),
        **({} if exact is not None else {"exact_note": _skipped_exact(attackers, defenders)}),
        **({"p_goal": sample.p_goal,
            "p_goal_exact": None if exact is None else float(exact.p_goal)} if goal else {}),
        "battles_per_second": sample.battles_per_second,
        "outcomes": [{"attackers_left": int(a), "defenders_left": int(d), "p": float(p)}
                     for (a, d), p in frame.p.items()],
    }
    if as_json:
        _print_json(payload)
        return
    exact_p = exact.outcomes.p if exact is not None else None
    summary = [("P(win) simulated", _percent(sample.p_win)),
               ("95% interval (Wilson)", f"{_percent(low)} to {_percent(high)}"),
               ("P(win) exact", _skipped_exact(attackers, defenders) if exact is None else _percent(exact.p_win))]
    if goal:
        summary.append((f"P(defenders <= {goal}) simulated", _percent(sample.p_goal)))
    summary.append(("battles per second", f"{sample.battles_per_second:,.0f}"))
    _print_table(f"{attackers} attackers vs {defenders} defenders: {sample.trials:,} battles, seed {sample.seed}",
                 ["", "value"], summary, caption=CONVENTION)
    _print_table("End states", ["attackers left", "defenders left", "simulated p", "exact p"],
                 [(a, d, f"{p:.6f}", "-" if exact_p is None else f"{exact_p.get((a, d), 0.0):.6f}")
                  for (a, d), p in frame.p.items()])


def _skipped_exact(attackers: int, defenders: int) -> str:
    return (f"not computed: {attackers:,} x {defenders:,} states, over {_SIMULATE_EXACT_STATES:,}; "
            "see riskstats odds")


Workers = Annotated[int | None, typer.Option("--workers", parser=whole_number, help="Threads (default: all cores).")]
Scheduler = Annotated[str | None, typer.Option("--scheduler", help="Run on this Dask scheduler (tcp://host:port).")]
DaskLocal = Annotated[int | None, typer.Option("--dask-local", parser=whole_number,
                                               help="Start a local Dask cluster with N worker processes.")]


@contextlib.contextmanager
def _progress(enabled: bool, label: str):
    """A rich progress bar with games/s and ETA, as a ``progress(done, total)`` callback (None when off)."""
    if not enabled:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[rate]} games/s"),
                  TextColumn("ETA"), TimeRemainingColumn()) as bar:
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
def _resumable(out):
    """Turn Ctrl-C into a one-line note that finished chunks are kept (exit 130)."""
    try:
        yield
    except KeyboardInterrupt:
        where = f" in {out}" if out else ""
        typer.echo(f"interrupted: finished chunks are kept{where}; run the same command again to resume", err=True)
        raise typer.Exit(130) from None


def _interval(r) -> str:
    return f"{100 * r['ci_low']:.1f}-{100 * r['ci_high']:.1f}%"


_EVERY_SEAT = "- (every seat)"
"""In place of the interval of a bot that sits in every seat of every game: its share is fixed by construction."""


def _every_seat_note(fixed: list, players: int) -> str | None:
    """The caption under a win-rate-by-bot table with a bot in every seat."""
    if not any(fixed):
        return None
    return (f"- (every seat): a bot in all {players} seats of every game wins every decided game by construction: "
            "no interval, the rate says nothing about its strength")


@app.command()
def selfplay(
    games: Annotated[int, typer.Option("--games", parser=whole_number, help="Number of games.")],
    players: Annotated[int, typer.Option("--players", parser=whole_number, help="Players per game (2: two-player).")],
    bots: Annotated[str, typer.Option("--bots", help=f"Bots, comma-separated, each a name with optional "
                                                      f"parameters (continent:threshold=0.6,aggressive); seats in "
                                                      f"order, cyclic. Built in: {', '.join(BOT_NAMES)}; see "
                                                      f"riskstats bots.")],
    variant: Annotated[str, typer.Option("--variant", help="classic, two-player, mission or capital.")] = "classic",
    seed: Annotated[int, typer.Option("--seed", parser=whole_number, help="Seed of the whole run.")] = 0,
    out: Annotated[str | None, typer.Option(
        "--out", help="Write the games: a directory of Parquet parts, or one .parquet or .csv file. "
                      "Resumes a run already there.")] = None,
    mission_deck: Annotated[str, typer.Option("--mission-deck", help="mission: standard (12) or european (14).")]
    = "standard",
    mission_target_lost: Annotated[str, typer.Option(
        "--mission-target-lost", help="mission: a target eliminated by another counts as achieved or "
                                      "becomes 24_territories.")] = "achieved",
    capital_short: Annotated[bool, typer.Option("--capital-short", help="capital: the short game.")] = False,
    as_json: JsonFlag = False,
    workers: Workers = None,
    chunk_size: Annotated[int, typer.Option("--chunk-size", parser=whole_number, help="Games per chunk.")] = 1000,
    scheduler: Scheduler = None,
    dask_local: DaskLocal = None,
):
    """Play complete games between built-in bots (seats rotate by game; seat 0 moves first)."""
    from pathlib import Path

    from riskstats.runs.results import iter_results
    from riskstats.runs.tournament import RunConfig, run_selfplay
    from riskstats.stats.report import SUMMARY_COLUMNS, SummaryTally

    if out is not None and Path(out).suffix not in ("", ".parquet", ".csv"):
        raise RiskstatsError(f"--out must be a directory or end in .parquet or .csv, got {out!r}")
    given = {"mission_deck": mission_deck, "mission_target_lost": mission_target_lost, "capital_short": capital_short}
    defaults = {"mission_deck": "standard", "mission_target_lost": "achieved", "capital_short": False}
    rules = {name: value for name, value in given.items() if value != defaults[name]}
    variant = "two-player" if players == 2 and variant == "classic" else variant  # 2 players: the neutral game
    config = RunConfig(games=games, players=players, bots=bots, variant=variant, seed=seed, rules=rules,
                       chunk_size=chunk_size)
    present = []  # the games already in --out, from run_selfplay's first progress call

    def track(done, total, bar):
        if not present:
            present.append(done)
            if out is not None and done == total:
                typer.echo(f"complete, nothing to play: {total:,} games in {out}", err=True)
            elif done:
                typer.echo(f"resumed: {done:,} of {total:,} games present in {out}", err=True)
        if bar:
            bar(done, total)

    with (_resumable(out), _compile_notice(),
          _progress(not as_json and sys.stdout.isatty(), "self-play") as bar):
        frame = run_selfplay(config, out, workers=workers, scheduler=scheduler, dask_local=dask_local,
                             progress=functools.partial(track, bar=bar), load=out is None)
    before = present[0] if present else 0
    played = games - before
    tally = SummaryTally()
    if out is not None:  # the summary streams the run back one piece at a time: memory stays flat
        if played:
            typer.echo(f"wrote {played:,} games to {out}" + (f" ({games:,} in all)" if before else ""), err=True)
        for piece in iter_results(out, SUMMARY_COLUMNS):
            tally.add(piece)
    else:
        tally.add(frame)
    result = tally.result()
    reasons = tally.reasons()
    if as_json:
        _print_json({"games": games, "players": players, "variant": variant, "seed": seed, **result,
                     "win_reasons": reasons, **({"out": out, "games_played": played} if out is not None else {})})
        return
    fixed = [r["seats"] == result["games"] * players for r in result["bots"].values()]
    _print_table(f"Win rate by bot ({games:,} games, {variant}, {players} players)",
                 ["bot", "decided games", "wins", "win rate", "95% CI"],
                 [(b, r["decided"], r["wins"], _rate(r["win_rate"]),
                   _EVERY_SEAT if f else f"{100 * r['ci95'][0]:.1f}-{100 * r['ci95'][1]:.1f}%")
                  for (b, r), f in zip(result["bots"].items(), fixed)], caption=_every_seat_note(fixed, players))
    _print_table("Win rate by seat (seat 0 moves first)", ["seat", "wins", "win rate", "95% CI"],
                 [(s, r["wins"], _rate(r["win_rate"]), f"{100 * r['ci95'][0]:.1f}-{100 * r['ci95'][1]:.1f}%")
                  for s, r in result["seats"].items()],
                 caption=f"mean turns {result['mean_turns']:.1f}, mean rounds {result['mean_rounds']:.1f}, "
                         f"truncated {result['truncated']}; ended by: "
                         + ", ".join(f"{k} {v}" for k, v in reasons.items()))


@app.command()
def experiment(
    file: Annotated[str, typer.Argument(metavar="FILE", help="Experiment TOML file (see riskstats.runs.experiment).")],
    out: Annotated[str, typer.Option("--out", help="Directory for the cells' results (resumed if there).")],
    as_json: JsonFlag = False,
    workers: Workers = None,
    scheduler: Scheduler = None,
    dask_local: DaskLocal = None,
):
    """Play every cell of an experiment grid, each into its own sub-directory of --out."""
    from riskstats.runs.experiment import run_experiment
    from riskstats.stats.report import cell_win_rates

    with _resumable(out), _compile_notice(), _progress(not as_json and sys.stdout.isatty(), "experiment") as progress:
        table = run_experiment(file, out, workers=workers, scheduler=scheduler, dask_local=dask_local,
                               progress=progress)
    present = table.attrs.get("games_present", 0)
    if present == len(table):
        typer.echo(f"complete, nothing to play: {len(table):,} games in {out}", err=True)
    elif present:
        typer.echo(f"resumed: {present:,} of {len(table):,} games were present in {out}", err=True)
    rows = cell_win_rates(table).to_dict("records")
    if as_json:
        _print_json({"out": out, "games": len(table), "cells": rows})
        return
    extra = [k for k in (rows[0] if rows else {}) if k.startswith(("rules.", "params."))]
    _print_table(f"Experiment {file}: {len(table)} games in {out}",
                 ["cell", "variant", "players", *extra, "bot", "decided games", "win rate", "95% CI", "mean turns"],
                 [(r["cell"], r["variant"], r["players"], *(r[k] for k in extra), r["bot"], r["trials"],
                   _rate(r["win_rate"]), _interval(r), f"{r['mean_turns']:.1f}") for r in rows])


@app.command()
def report(
    results: Annotated[str, typer.Argument(metavar="RESULTS", help="A results directory, .parquet or .csv file, "
                                                                    "or an experiment directory.")],
    out: Annotated[str | None, typer.Option("--out", help="Write CSV tables and PNG plots into this directory.")]
    = None,
    as_json: JsonFlag = False,
    boot: Annotated[int, typer.Option("--boot", parser=whole_number,
                                      help="Bootstrap resamples of the games for the ratings' intervals.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", parser=whole_number, help="Seed of the bootstrap.")] = 0,
):
    """Win rates (95% Wilson intervals), Luce ratings of who wins with their fit test (bootstrap intervals),
    the Plackett-Luce survival measure and game lengths of self-play results; an experiment cell by cell."""
    from riskstats.stats.report import cell_titles, load_games, write_report
    from riskstats.stats.report import report as make_report

    rep = make_report(load_games(results), boot=boot, seed=seed)
    if out is not None:
        written = write_report(rep, out)
    if as_json:
        _print_json(rep.to_dict())
        return
    for cell, label in cell_titles(rep.cells):
        def part(frame, cell=cell):
            return (frame if cell is None else frame[frame["cell"] == cell]).to_dict("records")

        where = "" if label is None else f" - {label}"
        games = rep.games if cell is None else int(rep.cells.set_index("cell").games[cell])
        seats = part(rep.seats)
        bots = part(rep.bots)
        fixed = [bool(r["every_seat"]) for r in bots]
        _print_table(f"Win rate by bot ({games} games){where}",
                     ["bot", "decided games", "wins", "win rate", "95% CI", "truncated"],
                     [(r["bot"], r["trials"], r["wins"], _rate(r["win_rate"]), _EVERY_SEAT if f else _interval(r),
                       r["truncated"]) for r, f in zip(bots, fixed)],
                     caption="trials are games: a bot in two seats of a game counts once; games stopped at the "
                             "turn cap are left out (no winner) and counted apart"
                             + (f"; {_every_seat_note(fixed, len(seats))}" if any(fixed) else ""))
        _print_table(f"Win rate by seat (seat 0 moves first){where}",
                     ["seat", "games", "wins", "win rate", "95% CI", "vs fair share"],
                     [(r["seat"], r["trials"], r["wins"], _rate(r["win_rate"]), _interval(r),
                       ("above" if r["win_rate"] > r["share"] else "below") if r["significant"] else "not separated")
                      for r in seats],
                     caption=f"fair share 1/{len(seats)} of the decided games: exact binomial test per seat, "
                             "Holm-corrected over seats")
        _print_table(f"Win rate by bot and seat{where}", ["bot", "seat", "games", "wins", "win rate", "95% CI"],
                     [(r["bot"], r["seat"], r["trials"], r["wins"], _rate(r["win_rate"]), _interval(r))
                      for r in part(rep.bot_seats)])
        _report_ratings(rep, part, where, boot)
        _print_table(f"Bradley-Terry ratings (winner beats each loser; Elo scale, mean 0){where}",
                     ["bot", "rating", "std. error", "comparisons", "wins"],
                     [(r["bot"], f"{r['elo']:+.0f}", f"{r['elo_se']:.0f}", int(r["comparisons"]), int(r["wins"]))
                      for r in part(rep.bradley_terry)],
                     caption=None if len(seats) == 2 else
                     "for comparison only: its errors are too small, each win counted as P-1 pairs")
        _print_table(f"Game length (turns){where}", ["games", "count", "mean", "median", "5%", "95%"],
                     [(r["games"], r["count"], f"{r['mean']:.1f}", f"{r['median']:.0f}", f"{r['p5']:.0f}",
                       f"{r['p95']:.0f}") for r in part(rep.lengths) if r["measure"] == "turns"])
    if rep.effects is not None:
        _print_table("Treatment effects on the bot's win rate (points; arms paired by seed)",
                     ["cell", "treatment", "games", "effect", "95% CI", "unpaired CI", "sig."],
                     [(r["cell"], f"{r['bot']} {r['treatment']} vs {r['control']}", r["games"],
                       f"{100 * r['effect']:+.1f}", f"{100 * r['ci_low']:+.1f}..{100 * r['ci_high']:+.1f}",
                       f"{100 * r['unpaired_ci_low']:+.1f}..{100 * r['unpaired_ci_high']:+.1f}",
                       "yes" if r["significant"] else "no") for r in rep.effects.to_dict("records")],
                     caption="common random numbers: both arms play the same seeds; McNemar's exact test, "
                             "Holm-corrected over the treatments")
    t = rep.truncated
    typer.echo(f"truncated (turn or move cap): {t['games']} of {rep.games} games ({100 * t['share']:.2f}%, 95% CI "
               f"{100 * t['ci_low']:.2f}-{100 * t['ci_high']:.2f}%)")
    if out is not None:
        typer.echo(f"wrote {len(written)} files to {out}")


def _report_ratings(rep, part, where, boot):
    """`report`'s two rating tables: the Luce model of who wins, then the Plackett-Luce survival measure,
    each with its fit test in the caption."""
    from riskstats.stats.report import fit_words

    fits = {r["model"].split(" ")[0]: r for r in part(rep.rating_fit)} if rep.rating_fit is not None else {}
    ranks = ("equal ranks are ties: a rank is claimed only where the bootstrap interval of the difference "
             "excludes 0")
    if rep.ratings is not None:
        _print_table(f"Luce ratings (who wins; Elo scale, mean 0){where}",
                     ["rank", "bot", "rating", "95% CI", "wins", "decided games"],
                     [(r["rank"], r["bot"], f"{r['elo']:+.0f}", f"{r['ci_low']:+.0f} to {r['ci_high']:+.0f}",
                       r["wins"], r["games"]) for r in part(rep.ratings)],
                     caption=f"95% intervals from {boot} bootstrap resamples of the games; {ranks}; "
                             + (fit_words(fits["luce"]) if "luce" in fits else "no fit test"))
    _print_table(f"Plackett-Luce survival measure (finishing order; Elo scale, mean 0){where}",
                 ["rank", "bot", "rating", "95% CI", "games"],
                 [(r["rank"], r["bot"], f"{r['elo']:+.0f}", f"{r['ci_low']:+.0f} to {r['ci_high']:+.0f}",
                   r["games"]) for r in part(rep.survival)],
                 caption="rewards surviving as well as winning: not the rating; "
                         + (fit_words(fits["plackett-luce"]) if "plackett-luce" in fits else "no fit test"))


@app.command("bots")
def bots_(as_json: JsonFlag = False):
    """Every bot: what it does, its parameters with their defaults and ranges (set them as name:key=value)."""
    from riskstats.game.registry import catalog_rows

    rows = catalog_rows()
    if as_json:
        _print_json({"bots": rows})
        return
    from rich.table import Table

    console = _console()
    for row in rows:
        table = Table(title=row["name"], caption=row["description"], caption_justify="left", title_justify="left")
        for column in ("parameter", "default", "range", "meaning"):
            table.add_column(column)
        for p in row["params"]:
            span = f"{p['low']:g}-{p['high']:g}" + (", whole" if p["integer"] else "")
            table.add_row(p["name"], f"{p['default']:g}", span, p["meaning"])
        console.print(table)


@app.command()
def tune(
    bot: Annotated[str, typer.Argument(metavar="BOT", help="The bot to tune; parameters given (name:key=value) "
                                                           "stay fixed.")],
    against: Annotated[str, typer.Option("--against", help="Line-up in the other seats, comma-separated, cyclic.")],
    players: Annotated[int, typer.Option("--players", parser=whole_number, help="Players per game.")],
    trials: Annotated[int, typer.Option("--trials", parser=whole_number, help="Complete trials the study "
                                                                              "should hold.")],
    games_per_trial: Annotated[int, typer.Option("--games-per-trial", parser=whole_number,
                                                 help="Games played by each trial.")],
    storage: Annotated[str, typer.Option("--storage", help="Optuna storage URL, e.g. sqlite:///runs/tune.db; "
                                                           "rerun the same command to resume.")],
    variant: Annotated[str, typer.Option("--variant", help="classic, two-player, mission or capital.")] = "classic",
    seed: Annotated[int, typer.Option("--seed", parser=whole_number, help="Seed of the study.")] = 0,
    study: Annotated[str | None, typer.Option("--study", help="Study name (default: made from the "
                                                              "arguments).")] = None,
    check_games: Annotated[int, typer.Option("--check-games", parser=whole_number,
                                             help="Fresh games measuring the best parameters and the "
                                                  "defaults again.")] = 4000,
    as_json: JsonFlag = False,
):
    """Tune a bot's parameters for win rate against a line-up (Optuna; resumable study)."""
    from riskstats.runs.tune import tune as run_tune

    try:
        with _terminate_as_interrupt(), _trial_progress(not as_json and sys.stdout.isatty()) as progress:
            table = run_tune(bot, against, players, variant, trials=trials, games_per_trial=games_per_trial,
                             seed=seed, storage=storage, study=study, check_games=check_games, progress=progress,
                             found=_found_trials)
    except KeyboardInterrupt:
        typer.echo(f"interrupted: finished trials are kept in {storage} (the one cut short is marked failed); "
                   "run the same command again to resume", err=True)
        raise typer.Exit(130) from None
    best, default = table.attrs.get("best"), table.attrs.get("default")
    if as_json:
        _print_json({"study": table.attrs["study"], "storage": storage, **table.attrs["config"],
                     "trials": json.loads(table.to_json(orient="records")), "best": best, "default": default,
                     "found": table.attrs.get("found")})
        return
    done = table[table.state == "complete"]
    rows = done.sort_values(["win_rate", "number"], ascending=[False, True]).head(5)
    params = [c for c in table.columns if c not in ("number", "state", "bot", "games", "wins", "win_rate",
                                                       "ci_low", "ci_high")]
    _print_table(f"Study {table.attrs['study']!r}: {len(done)} complete trials (top 5, tuning games)",
                 ["trial", *params, "games", "win rate", "95% CI"],
                 [(r["number"], *(f"{r[p]:.4g}" for p in params), r["games"], _rate(r["win_rate"]), _interval(r))
                  for r in rows.to_dict("records")])
    if best is None:
        return
    _print_table(f"Measured again on {best['games']} fresh games (seeds never used in tuning)",
                 ["bot", "wins", "win rate", "95% CI"],
                 [(f"best (trial {best['trial']}): {best['bot']}", best["wins"], _rate(best["win_rate"]),
                   _interval(best)),
                  (f"defaults: {default['bot']}", default["wins"], _rate(default["win_rate"]), _interval(default))],
                 caption=_tune_verdict(best, default))


def _tune_verdict(best: dict, default: dict) -> str:
    """Which side the fresh games favour: the tuned parameters, the defaults, or neither."""
    rates = f"{_rate(best['win_rate'])} against {_rate(default['win_rate'])}"
    if best["ci_low"] > default["ci_high"]:
        return f"the intervals separate in favour of the tuned parameters: best beats the defaults, {rates}"
    if best["ci_high"] < default["ci_low"]:
        return (f"the intervals separate in favour of the defaults: they beat best, {rates} (the tuning "
                "games' best was luck, or overfitted those games)")
    leader = "best" if best["win_rate"] > default["win_rate"] else "the defaults"
    if best["win_rate"] == default["win_rate"]:
        return f"the intervals overlap: no ranking ({rates})"
    return f"the intervals overlap: no ranking ({leader} ahead, {rates}, within the noise)"


def _found_trials(counts: dict) -> None:
    """Say what a study already held when `tune` opened it (nothing for a new study)."""
    if not counts["trials"]:
        return
    parts = [f"{counts['complete']} complete", f"{counts['failed']} failed"]
    if counts["marked_failed"]:
        parts[-1] += f" ({counts['marked_failed']} left running by an interrupted run, marked failed now)"
    if counts["running"]:
        parts.append(f"{counts['running']} running elsewhere")
    typer.echo(f"resumed: the study holds {counts['trials']} trials ({', '.join(parts)})", err=True)


@contextlib.contextmanager
def _terminate_as_interrupt():
    """Within the block, SIGTERM (``kill``, ``timeout``) interrupts like Ctrl-C, so cleanup code runs."""
    import signal

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    try:
        old = signal.signal(signal.SIGTERM, interrupt)
    except (ValueError, OSError):  # not the main thread: leave the default
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


@contextlib.contextmanager
def _trial_progress(enabled: bool):
    """A rich progress bar over trials, showing the best win rate so far."""
    if not enabled:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("tuning"), BarColumn(), MofNCompleteColumn(), TextColumn("best {task.fields[best]}"),
                  TextColumn("ETA"), TimeRemainingColumn()) as bar:
        task = bar.add_task("tuning", total=None, best="-")

        def update(done, total, best):
            bar.update(task, completed=done, total=total, best="-" if best is None else _rate(best))

        yield update


@app.command()
def continents(
    defenders: Annotated[int, typer.Option(parser=whole_number, help="Armies on each territory attacked.")] = 3,
    p: Annotated[float, typer.Option("--p", parser=real_number, help="Wanted P(taking the whole continent).")]
    = 0.8,
    as_json: JsonFlag = False,
):
    """What each continent is worth: bonus per border, and the exact cost of taking it."""
    from riskstats.analysis.continents import continent_cost, continent_facts

    if not 0 < p < 1:
        raise RiskstatsError(f"p must lie in (0, 1), got {p}")
    with _compile_notice():
        frame = continent_facts().merge(continent_cost(defenders=defenders, p=p),
                                        on=["continent", "bonus", "territories"])
    if as_json:
        _print_json({"defenders": defenders, "p": p, "continents": frame.to_dict("records")})
        return
    _print_table(f"Continents: {defenders} defenders per territory, a force sized for P(all) >= {p}",
                 ["continent", "bonus", "terri-\ntories", "borders", "entries", "bonus/\nborder", "attackers",
                  "expected\nlosses", "payback\nturns"],
                 [(r.continent, r.bonus, r.territories, r.borders, r.entries, f"{r.bonus_per_border:.2f}",
                   r.attackers_needed, f"{r.expected_losses:.1f}", f"{r.payback_turns:.1f}")
                  for r in frame.itertuples()], compact=True,
                 caption="borders: its territories next to another continent; entries: territories outside it "
                         f"next to it, where attacks come from; attackers: the force (armies able to roll; one more "
                         f"stays behind) that takes every territory with P >= {p}; expected losses: armies that "
                         "force loses on average; "
                         "payback turns: expected losses / bonus, the turns of holding it that earn them back")


@app.command()
def cards(
    max_cards: Annotated[int, typer.Option(parser=whole_number, help="Largest hand.")] = 6,
    as_json: JsonFlag = False,
):
    """The exact chance that a hand drawn from the classic deck holds a valid set."""
    from riskstats.analysis.cards import board_deck, set_odds

    deck = board_deck()
    frame = set_odds(deck, max_cards)
    rows = [{"cards": int(r.cards), "p_set": r.p_set, "fraction": _number(r.fraction)} for r in frame.itertuples()]
    if as_json:
        _print_json({"deck": deck, "odds": rows})
        return
    _print_table("P(a hand holds a valid set), classic 44-card deck", ["cards", "fraction", "p"],
                 [(r["cards"], r["fraction"], f"{r['p_set']:.6f}") for r in rows])


def _rollout_count(text: str) -> int:
    """evaluate's --rollouts: a positive count (1e3 style), or 0 for the fitted position value alone."""
    try:
        if float(text) == 0:
            return 0
    except ValueError:
        pass
    return _positive_count("--rollouts", text)


def _print_model_evaluation(position: str, result) -> None:
    """evaluate --rollouts 0 as tables: the model's P(win) of each player and of each candidate move."""
    _print_table(f"P(win) from {position}: the fitted position value (no rollouts)", ["player", "P(win)"],
                 [(r.player, _percent(r.p_win)) for r in result.players.itertuples()],
                 caption="riskstats.position_value: a model fitted on self-play (docs/position_value.md)")
    if len(result.moves):
        _print_table(f"Best next moves of player {result.player}", ["move", "P(win)"],
                     [(r.move, _percent(r.p_win)) for r in result.moves.itertuples()],
                     caption="the model's value of the position each move leads to (chance: mean of seeded "
                             "outcomes)")


@app.command()
def evaluate(
    position: Annotated[str, typer.Argument(help="A position file (JSON, docs/positions.md).")],
    bot: Annotated[str, typer.Option("--bot", help=f"The bot playing every seat in the rollouts: "
                                                  f"{', '.join(BOT_NAMES)}. The default, aggressive, is the "
                                                  "fastest that ends games reliably; the answer is the chance "
                                                  "if every seat plays like this bot, and differs between bots "
                                                  "(continent-tuned: stronger, about as fast; search: "
                                                  "stronger, far slower).")] = "aggressive",
    rollouts: Annotated[str, typer.Option(help="Rollouts per estimate (each player's, each candidate move's); "
                                               "1e3 style allowed; 0: the fitted position value alone, "
                                               "instantly.")] = "500",
    seed: Annotated[int, typer.Option(parser=whole_number, help="Seed of the rollouts' dice and draw piles.")] = 0,
    top: Annotated[int, typer.Option(parser=whole_number, help="How many of the best next moves to show.")] = 5,
    as_json: JsonFlag = False,
):
    """Each player's chance of winning from a position (95% Wilson interval), and the best next moves of
    the player to move, by rollouts to the end of the game."""
    from pathlib import Path

    from riskstats.game.evaluate import evaluate as evaluate_position

    count = _rollout_count(rollouts)
    try:
        text = Path(position).read_text()
    except OSError as error:
        raise RiskstatsError(f"cannot read position file {position!r}: {error.strerror}") from None
    from riskstats.game.evaluate import tied_with_best

    with _compile_notice():
        result = evaluate_position(text, bot, count, seed, top=top)
    if as_json:
        _print_json(result.as_dict())
        return
    if count == 0:
        _print_model_evaluation(position, result)
        return
    digits = _supported_digits(result.players)
    _print_table(f"P(win) from {position}: {result.rollouts:,} rollouts with {bot} bots, seed {result.seed}",
                 ["player", "P(win)", "95% interval"],
                 [(r.player, _percent_to(r.p_win, digits),
                   f"{_percent_to(r.ci_low, digits)} to {_percent_to(r.ci_high, digits)}")
                  for r in result.players.itertuples()],
                 caption=f"a game that reaches the turn cap is won by nobody; {_digits_note(digits, result.rollouts)}")
    if len(result.moves):
        digits = _supported_digits(result.moves)
        tied = tied_with_best(result.moves)
        marks = ["best" if i == 0 else ("not separated" if t else "below") for i, t in enumerate(tied)]
        _print_table(f"Best next moves of player {result.player}", ["move", "P(win)", "95% interval", "vs best"],
                     [(r.move, _percent_to(r.p_win, digits),
                       f"{_percent_to(r.ci_low, digits)} to {_percent_to(r.ci_high, digits)}", mark)
                      for r, mark in zip(result.moves.itertuples(), marks)],
                     caption="each move played first, then the rest of the game on the same seeds; not separated: "
                             "its 95% interval overlaps the best move's, so these rollouts do not rank the two; "
                             + _digits_note(digits, result.rollouts))


def _supported_digits(frame) -> int:
    """Decimals of a percentage that rollouts support: one significant digit of the widest 95% interval's
    half-width (13.5 points from 50 rollouts: none; 1.0 point from 10,000: one), at most 4."""
    half = float(((frame["ci_high"] - frame["ci_low"]) / 2).max()) * 100 if len(frame) else 0.0
    if not half > 0:
        return 4
    return int(min(4, max(0, -math.floor(math.log10(half)))))


def _percent_to(p, digits: int) -> str:
    return f"{100 * float(p):.{digits}f}%"


def _digits_note(digits: int, rollouts: int) -> str:
    return (f"rounded to {'whole percent' if digits == 0 else f'{digits} decimal' + ('s' if digits > 1 else '')}"
            f", what {rollouts:,} rollouts support")


position_app = typer.Typer(no_args_is_help=True, help="Write positions by hand (docs/positions.md): a template "
                                                       "to edit, the territory names.")
app.add_typer(position_app, name="position")


@position_app.command("new")
def position_new(
    players: Annotated[int, typer.Option("--players", parser=whole_number, help="Players (2: two-player).")],
    variant: Annotated[str | None, typer.Option(
        "--variant", help="classic, two-player, mission or capital (default: classic; two-player for 2).")] = None,
):
    """Print a valid position to edit, e.g. riskstats position new --players 3 > pos.json: every territory
    by name and continent, dealt round the seats, turn 1 of player 0 with its reserve to place; then
    riskstats evaluate pos.json."""
    from riskstats.game.position import template_position

    typer.echo(_position_text(template_position(players, variant)))


def _position_text(pos: dict) -> str:
    """A position as JSON with one key, and one territory, a line."""
    lines = []
    for key, value in pos.items():
        if key == "territories":
            body = ",\n".join(f"  {json.dumps(name)}: {json.dumps(v)}" for name, v in value.items())
            lines.append(f' "territories": {{\n{body}\n }}')
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}"


@position_app.command("names")
def position_names(as_json: JsonFlag = False):
    """The classic board's territory names by continent, with the other names a position may use."""
    from riskstats.game.board import classic_board

    board = classic_board()
    others = {}
    for alias, name in board.aliases.items():
        others.setdefault(name, []).append(alias)
    rows = [{"continent": board.continents[int(board.arrays.continent_of[t])], "territory": name,
             "aliases": others.get(name, [])} for t, name in enumerate(board.territories)]
    if as_json:
        _print_json({"board": board.name, "territories": rows,
                     "continents": [{"continent": c, "aliases": others.get(c, [])} for c in board.continents]})
        return
    _print_table(f"Territories of the {board.name} board ({len(rows)})", ["continent", "territory", "also"],
                 [(r["continent"], r["territory"], ", ".join(r["aliases"])) for r in rows],
                 caption="a position may name a territory by its name or any of its other names")


@app.command("compile")
def compile_kernels(
    only: Annotated[str | None, typer.Option(
        "--only", help="Comma-separated steps: game, selfplay, evaluate, step, odds, search (default all).")] = None,
):
    """Compile every kernel ahead into numba's cache (once after installing or upgrading; minutes), so that
    no first run waits; a step already cached only loads (seconds)."""
    from riskstats.runs.warmup import warm_cache

    def show(k, n, step, seconds, compiled):
        if seconds is None:
            typer.echo(f"[{k}/{n}] {step.name}: {step.covers}…", err=True)
        else:
            typer.echo(f"[{k}/{n}] {step.name}: {'compiled' if compiled else 'cached'} in {seconds:.0f} s", err=True)

    start = time.perf_counter()
    steps = None if only is None else [name.strip() for name in only.split(",") if name.strip()]
    table = warm_cache(steps, progress=show)
    typer.echo(f"compiled {int(table['compiled'].sum())} of {len(table)} steps in {time.perf_counter() - start:.0f} s; "
               "later runs load them from the cache")


@app.command()
def show(
    position: Annotated[str, typer.Argument(metavar="POSITION", help="A position file (JSON, docs/positions.md).")],
    out: Annotated[str, typer.Option("--out", help="The image to write: .png, .svg or .pdf.")],
    title: Annotated[str | None, typer.Option("--title", help="The map's title (default: board and players).")]
    = None,
    dpi: Annotated[int, typer.Option("--dpi", parser=whole_number, help="Resolution of a .png.")] = 110,
):
    """Draw a position on its board: territories coloured by owner with their armies written, continents
    outlined and labelled, borders and sea lines (riskstats.plots.board_map)."""
    from pathlib import Path

    if Path(out).suffix.lower() not in (".png", ".svg", ".pdf"):
        raise RiskstatsError(f"--out must end in .png, .svg or .pdf, got {out!r}")
    if not 20 <= dpi <= 600:
        raise RiskstatsError(f"--dpi must be from 20 to 600, got {dpi}")
    try:
        text = Path(position).read_text()
    except OSError as error:
        raise RiskstatsError(f"cannot read position file {position!r}: {error.strerror}") from None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from riskstats.stats.board_map import board_map

    ax = board_map(text, title=title or f"{Path(position).name}: territories by owner, armies written")
    try:
        ax.figure.savefig(out, dpi=dpi, bbox_inches="tight")
    except OSError as error:
        raise RiskstatsError(f"cannot write {out!r}: {error.strerror}") from None
    finally:
        plt.close(ax.figure)
    typer.echo(f"wrote {out}")


def main() -> None:
    """Console-script entry point."""
    app()
