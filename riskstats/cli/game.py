"""The commands over one game, a skin over `riskstats.game`: bots, evaluate, position new, position names.

It owns how an evaluation is printed (percentages to the digits its rollouts support) and how a
position template is written (one key, and one territory, a line).
"""
import json
import math
import sys
from typing import Annotated

import typer

from riskstats.cli.common import (
    BOT_NAMES,
    PROSE_PIPE_WIDTH,
    JsonFlag,
    _console,
    _count_or_zero,
    _first_run,
    _interruptible,
    _on_terminal,
    _percent,
    _print_json,
    _print_table,
    _progress,
    _progress_lines,
    whole_number,
)
from riskstats.errors import RiskstatsError

POSITION_HELP = "Write positions by hand (docs/positions.md): a template to edit, the territory names."
"""The help of the ``position`` group, whose commands are `position_new` and `position_names`."""


def bots_(as_json: JsonFlag = False):
    """Every bot: what it does, its parameters with their defaults and ranges (set them as name:key=value)."""
    from riskstats.game.bots.catalog import catalog_rows

    rows = catalog_rows()
    if as_json:
        _print_json({"bots": rows})
        return
    from rich.table import Table

    console = _console(PROSE_PIPE_WIDTH)
    for row in rows:
        table = Table(title=row["name"], caption=row["description"], caption_justify="left", title_justify="left")
        for column in ("parameter", "default", "range"):
            table.add_column(column, no_wrap=True)
        table.add_column("meaning", ratio=1)  # the prose: wrapped to the width left
        for p in row["params"]:
            span = f"{p['low']:g}-{p['high']:g}" + (", whole" if p["integer"] else "")
            table.add_row(p["name"], f"{p['default']:g}", span, p["meaning"])
        console.print(table)


def _rollout_count(text: str) -> int:
    """evaluate's --rollouts: a count (1e3 style), 0 for the fitted position value alone."""
    return _count_or_zero("--rollouts", text)


def _print_model_evaluation(position: str, result, model: str) -> None:
    """evaluate --rollouts 0 as tables: the model's P(win) of each player and of each candidate move."""
    name = "" if model == "model" else f" {model!r}"
    _print_table(f"P(win) from {position}: the fitted position value{name} (no rollouts)", ["player", "P(win)"],
                 [(r.player, _percent(r.p_win)) for r in result.players.itertuples()],
                 caption="riskstats.position_value: a model fitted on self-play (docs/position_value.md)")
    if len(result.moves):
        _print_table(f"Best next moves of player {result.player}", ["move", "P(win)"],
                     [(r.move, _percent(r.p_win)) for r in result.moves.itertuples()],
                     caption="the model's value of the position each move leads to (chance: mean of seeded "
                             "outcomes)")


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
    model: Annotated[str, typer.Option(help="With --rollouts 0, the fitted position value answering: model "
                                            "(fitted on heuristic play), strong (refitted with search "
                                            "self-play added) or boosted (boosted trees fitted on every "
                                            "phase of heuristic, search and value-bot play).")] = "model",
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
    from riskstats.game.evaluate import MOVE_MEANING, tied_with_best
    from riskstats.runs.warmup import step_for

    kept = "none kept (every estimate needs all its rollouts); fewer --rollouts finish sooner"
    terminal = _on_terminal(sys.stdout)
    with (_interruptible("rollouts", kept) as noting,
          _progress(count > 0 and not as_json and terminal, "evaluate", "rollouts") as bar,
          _progress_lines(count > 0 and not terminal, "evaluate", "rollout games") as lines,
          _first_run(step_for("evaluate", bot) if count > 0 else None)):
        result = evaluate_position(text, bot, count, seed, top=top, model=model, progress=noting(bar or lines))
    if as_json:
        _print_json(result.as_dict())
        return
    if count == 0:
        _print_model_evaluation(position, result, model)
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
        _print_table(f"Best next moves of player {result.player}",
                     ["move", "P(win)", "95% interval", "vs best", f"{bot}'s own"],
                     [(r.move, _percent_to(r.p_win, digits),
                       f"{_percent_to(r.ci_low, digits)} to {_percent_to(r.ci_high, digits)}", mark,
                       "own" if r.own else "")
                      for r, mark in zip(result.moves.itertuples(), marks)],
                     caption=f"{MOVE_MEANING.format(bot=bot)}; not separated: its 95% interval overlaps the best "
                             "move's, so these rollouts do not rank the two; "
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


def position_names(as_json: JsonFlag = False):
    """The classic board's territory names by continent, with the other names a position may use."""
    from riskstats.game.rules.board import classic_board

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
