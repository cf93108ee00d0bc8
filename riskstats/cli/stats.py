"""The commands over finished games, a skin over `riskstats.stats`: report (tables of win rates, ratings,
game lengths) and show (a position drawn on its board).
"""
from typing import Annotated

import typer

from riskstats.cli.common import (
    JsonFlag,
    _print_json,
    _print_table,
    whole_number,
)
from riskstats.errors import RiskstatsError


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
    from riskstats.stats.report import load_games, write_report
    from riskstats.stats.report import report as make_report

    rep = make_report(load_games(results), boot=boot, seed=seed)
    if out is not None:
        written = write_report(rep, out)
    if as_json:
        _print_json(rep.to_dict())
        return
    for section in rep.sections():
        _print_table(section.title, list(section.columns), section.rows, caption=section.caption)
    t = rep.truncated
    typer.echo(f"truncated (turn or move cap): {t['games']} of {rep.games} games ({100 * t['share']:.2f}%, 95% CI "
               f"{100 * t['ci_low']:.2f}-{100 * t['ci_high']:.2f}%)")
    if out is not None:
        typer.echo(f"wrote {len(written)} files to {out}")


def show(
    position: Annotated[str, typer.Argument(metavar="POSITION", help="A position file (JSON, docs/positions.md).")],
    out: Annotated[str, typer.Option("--out", help="The image to write: .png, .svg or .pdf.")],
    title: Annotated[str | None, typer.Option("--title", help="The map's title (default: board and players).")]
    = None,
    dpi: Annotated[int, typer.Option("--dpi", parser=whole_number, help="Resolution of a .png.")] = 110,
):
    """Draw a position on its board: territories coloured by owner with their armies written, continents
    outlined and labelled, borders and sea lines, whose move it is, the phase, the reserve and each seat's
    cards (riskstats.plots.board_map); the same is printed."""
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

    from riskstats.stats.board_map import board_map, seat_status, status_lines

    ax = board_map(text, title=title or f"{Path(position).name}: territories by owner, armies written")
    try:
        ax.figure.savefig(out, dpi=dpi, bbox_inches="tight")
    except OSError as error:
        raise RiskstatsError(f"cannot write {out!r}: {error.strerror}") from None
    finally:
        plt.close(ax.figure)
    typer.echo(f"wrote {out}")
    for line in status_lines(seat_status(text)):
        typer.echo(line)
