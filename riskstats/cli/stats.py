"""The commands over finished games, a skin over `riskstats.stats`: report (tables of win rates, ratings,
game lengths) and show (a position drawn on its board).
"""
from typing import Annotated

import typer

from riskstats.cli.common import (
    _EVERY_SEAT,
    JsonFlag,
    _every_seat_note,
    _interval,
    _print_json,
    _print_table,
    _rate,
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
