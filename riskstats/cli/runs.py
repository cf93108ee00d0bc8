"""The commands that play many games, a skin over `riskstats.runs`: selfplay, experiment, tune, compile.

It owns what a long run does on the command line: resuming (a note of what was already there), Ctrl-C
and SIGTERM (finished work is kept, exit 130), the worker and Dask options, and tune's verdict on the
fresh games.
"""
import contextlib
import functools
import json
import os
import sys
import time
from typing import Annotated

import typer

from riskstats.cli.common import (
    BOT_NAMES,
    JsonFlag,
    _first_run,
    _interval,
    _on_terminal,
    _print_json,
    _print_table,
    _progress,
    _step_spinner,
    whole_number,
)
from riskstats.errors import RiskstatsError
from riskstats.intervals import EVERY_SEAT, every_seat_note, percent, percent_interval, seated, seats_note

Workers = Annotated[int | None, typer.Option("--workers", parser=whole_number, help="Threads (default: all cores).")]
Scheduler = Annotated[str | None, typer.Option("--scheduler", help="Run on this Dask scheduler (tcp://host:port).")]
DaskLocal = Annotated[int | None, typer.Option("--dask-local", parser=whole_number,
                                               help="Start a local Dask cluster with N worker processes.")]
Rule = Annotated[list[str] | None, typer.Option(
    "--rule", metavar="KEY=VALUE", help="A rule option, repeatable: fortify=adjacent, max_turns=200, "
                                        "dice.defender_dice=3, ... (every GameRules option; docs/rules.md).")]


def _rule_options(named: dict, texts) -> dict:
    """The rule options of a command: its named options (``--mission-deck`` ...) and its ``--rule`` texts
    (`riskstats.game.rules.options.parse_rules`), those at their defaults left out; one option given both
    ways is an error."""
    from riskstats.game.rules.options import RULE_OPTIONS, parse_rules

    extra = parse_rules(texts)
    named = {name: value for name, value in named.items() if value != RULE_OPTIONS[name].default}
    twice = sorted(set(named) & set(extra))
    if twice:
        raise RiskstatsError(f"rule option {twice[0]} given twice: as --{twice[0].replace('_', '-')} and --rule")
    return {name: value for name, value in (named | extra).items() if value != RULE_OPTIONS[name].default}


@contextlib.contextmanager
def _resumable(out):
    """Turn Ctrl-C into a one-line note of what is kept (exit 130): with ``out``, the finished chunks (the
    one under way is played again on resuming); without, nothing."""
    try:
        yield
    except KeyboardInterrupt:
        if out:
            typer.echo(f"interrupted: finished chunks are kept in {out}, the chunk under way is not; run the same "
                       "command again to resume", err=True)
        else:
            typer.echo("interrupted: no games kept (without --out the games are held in memory); give --out to keep "
                       "finished chunks and resume", err=True)
        raise typer.Exit(130) from None


def selfplay(
    games: Annotated[int, typer.Option("--games", parser=whole_number, help="Number of games.")],
    players: Annotated[int, typer.Option("--players", parser=whole_number, help="Players per game (2: two-player).")],
    bots: Annotated[str, typer.Option("--bots", help=f"Bots, comma-separated, seats in order, cyclic "
                                                      f"(aggressive,random): each a name with optional parameters, "
                                                      f"as continent:threshold=0.6. Built in: "
                                                      f"{', '.join(BOT_NAMES)}; see riskstats bots.")],
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
    rule: Rule = None,
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
    from riskstats.runs.warmup import step_for
    from riskstats.stats.report import SUMMARY_COLUMNS, SummaryTally

    if out is not None and Path(out).suffix not in ("", ".parquet", ".csv"):
        raise RiskstatsError(f"--out must be a directory or end in .parquet or .csv, got {out!r}")
    from riskstats.game.rules.options import variant_for

    rules = _rule_options({"mission_deck": mission_deck, "mission_target_lost": mission_target_lost,
                           "capital_short": capital_short}, rule)
    variant = variant_for(variant, players)  # 2 players: the neutral game
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

    with (_resumable(out), _progress(not as_json and sys.stdout.isatty(), "self-play") as bar,
          _first_run(step_for("selfplay", bots))):
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
    held = {b: 1 if f else r["seats"] // result["games"] for (b, r), f in zip(result["bots"].items(), fixed)}
    _print_table(f"Win rate by bot ({games:,} games, {variant}, {players} players)",
                 ["bot", "decided games", "wins", "win rate", "95% CI"],
                 [(seated(b, held[b]), r["decided"], r["wins"], percent(r["win_rate"]),
                   EVERY_SEAT if f else percent_interval(*r["ci95"]))
                  for (b, r), f in zip(result["bots"].items(), fixed)],
                 caption="; ".join(n for n in (seats_note(held), every_seat_note(fixed, players)) if n) or None)
    _print_table("Win rate by seat (seat 0 moves first)", ["seat", "wins", "win rate", "95% CI"],
                 [(s, r["wins"], percent(r["win_rate"]), percent_interval(*r["ci95"]))
                  for s, r in result["seats"].items()],
                 caption=f"mean turns {result['mean_turns']:.1f}, mean rounds {result['mean_rounds']:.1f}, "
                         f"truncated {result['truncated']}")
    # a line of its own: a caption wraps to the narrow table's width, which split a count from its reason
    typer.echo("ended by: " + ", ".join(f"{k} {v:,}" for k, v in reasons.items()))


def experiment(
    file: Annotated[str, typer.Argument(metavar="FILE", help="Experiment TOML file (see riskstats.runs.experiment).")],
    out: Annotated[str, typer.Option("--out", help="Directory for the cells' results (resumed if there).")],
    as_json: JsonFlag = False,
    workers: Workers = None,
    scheduler: Scheduler = None,
    dask_local: DaskLocal = None,
    rule: Rule = None,
):
    """Play every cell of an experiment grid, each into its own sub-directory of --out (--rule fixes a rule option
    for every cell, over the file's own)."""
    from riskstats.runs.experiment import load_experiment, run_experiment
    from riskstats.stats.report import cell_win_rates

    spec = file
    if rule:
        spec = load_experiment(file)
        spec["rules"] = {**spec.get("rules", {}), **_rule_options({}, rule)}
    with (_resumable(out), _progress(not as_json and sys.stdout.isatty(), "experiment") as progress,
          _first_run("selfplay")):
        table = run_experiment(spec, out, workers=workers, scheduler=scheduler, dask_local=dask_local,
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
    held = {r["bot"]: r["seats"] for r in rows if 1 < r["seats"] < r["players"]}  # a bot a line-up repeats
    _print_table(f"Experiment {file}: {len(table)} games in {out}",
                 ["cell", "variant", "players", *extra, "bot", "decided games", "win rate", "95% CI", "mean turns"],
                 [(r["cell"], r["variant"], r["players"], *(r[k] for k in extra), seated(r["bot"], r["seats"]),
                   r["trials"], percent(r["win_rate"]), _interval(r), f"{r['mean_turns']:.1f}") for r in rows],
                 caption=seats_note(held))


def tune(
    bot: Annotated[str, typer.Argument(metavar="BOT", help="The bot to tune; parameters given (name:key=value) "
                                                           "stay fixed.")],
    against: Annotated[str, typer.Option("--against", help="Line-up in the other seats, comma-separated, cyclic.")],
    players: Annotated[int, typer.Option("--players", parser=whole_number, help="Players per game (2: two-player).")],
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
    from riskstats.runs.warmup import step_for

    try:
        with (_terminate_as_interrupt(), _trial_progress(not as_json and sys.stdout.isatty()) as progress,
              _first_run(step_for("selfplay", f"{bot},{against}"))):
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
                 [(r["number"], *(f"{r[p]:.4g}" for p in params), r["games"], percent(r["win_rate"]), _interval(r))
                  for r in rows.to_dict("records")])
    if best is None:
        return
    _print_table(f"Measured again on {best['games']} fresh games (seeds never used in tuning)",
                 ["bot", "wins", "win rate", "95% CI"],
                 [(f"best (trial {best['trial']}): {best['bot']}", best["wins"], percent(best["win_rate"]),
                   _interval(best)),
                  (f"defaults: {default['bot']}", default["wins"], percent(default["win_rate"]), _interval(default))],
                 caption=_tune_verdict(best, default), fold=("bot",))


def _tune_verdict(best: dict, default: dict) -> str:
    """Which side the fresh games favour: the tuned parameters, the defaults, or neither; the side ahead and
    its rate first, each rate beside its name."""
    sides = sorted([("best", best["win_rate"]), ("the defaults", default["win_rate"])], key=lambda s: -s[1])
    (ahead, high), (behind, low) = sides
    rates = f"{ahead} {percent(high)} against {behind} {percent(low)}"
    if best["ci_low"] > default["ci_high"]:
        return f"the intervals separate in favour of the tuned parameters: {rates}"
    if best["ci_high"] < default["ci_low"]:
        return (f"the intervals separate in favour of the defaults: {rates} (the tuning games' best was luck, "
                "or overfitted those games)")
    if best["win_rate"] == default["win_rate"]:
        return f"the intervals overlap: no ranking (best and the defaults both {percent(high)})"
    return f"the intervals overlap: no ranking ({rates}, within the noise)"


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
            bar.update(task, completed=done, total=total, best="-" if best is None else percent(best))

        yield update


def compile_kernels(
    only: Annotated[str | None, typer.Option(
        "--only", help="Comma-separated steps: game, selfplay, evaluate, step, odds, search (default all).")] = None,
    workers: Annotated[int | None, typer.Option(
        "--workers", parser=whole_number,
        help="Processes compiling side by side (default: all cores, at most 2 ahead of the game loop).")] = None,
):
    """Compile every kernel ahead into numba's cache (once after installing or upgrading; minutes), so that
    no first run waits; a step already cached only loads (seconds). Steps run side by side in --workers
    processes, each once the game loop it reuses is in the cache."""
    from riskstats.runs.warmup import warm_cache

    finished = []
    running = {}  # the steps under way: name -> their "[k/n]"

    def show(k, n, step, seconds, compiled, spinner):
        if seconds is None:
            typer.echo(f"[{k}/{n}] {step.name}: {step.covers}…", err=True)
            running[step.name] = f"[{k}/{n}]"
        else:
            del running[step.name]
            finished.append(step.name)
            typer.echo(f"[{k}/{n}] {step.name}: {'compiled' if compiled else 'cached'} in {seconds:.0f} s", err=True)
        spinner(None)
        if len(running) == 1:
            [(name, counter)] = running.items()
            spinner(f"{counter} compiling {name} kernels…")
        elif running:
            spinner(f"compiling {', '.join(running)} kernels side by side…")

    start = time.perf_counter()
    steps = None if only is None else [name.strip() for name in only.split(",") if name.strip()]
    try:
        with _step_spinner(_on_terminal(sys.stderr)) as spinner:
            table = warm_cache(steps, progress=functools.partial(show, spinner=spinner),
                               workers=workers if workers is not None else min(2, os.cpu_count() or 1))
    except KeyboardInterrupt:
        kept = (f"the steps finished ({', '.join(finished)}) are in the cache, and so is every kernel compiled since"
                if finished else "no step finished, but every kernel compiled so far is in the cache")
        typer.echo(f"interrupted after {time.perf_counter() - start:.0f} s: {kept}; run riskstats compile again to "
                   "finish", err=True)
        raise typer.Exit(130) from None
    typer.echo(f"compiled {int(table['compiled'].sum())} of {len(table)} steps in {time.perf_counter() - start:.0f} s; "
               "later runs load them from the cache")

