"""Rerun the findings' experiments on a top tier: one command, resumable, on all cores or a Dask cluster (issue 52).

    python scripts/make/findings.py --set top_hunter            # every experiment of that tier set, resumable
    python scripts/make/findings.py --set top_hunter --list     # what it would run, and where
    python scripts/make/findings.py --set top_hunter --games 12 --out /tmp/sample   # a small sample of the same code

The tier sets are `riskstats.runs.tiers.TIER_SETS` (default: `JUDGING`, the set the findings are judged by).
Each experiment file of the top tier (`EXPERIMENTS`, in ``scripts/experiments/``) names its populations by
``{top}`` and ``{rest}``, written out for the set's tiers (`riskstats.runs.tiers.top_tier_lineups`), and is
played into ``<out>/<finding>/<set>/`` (``--out`` default ``data/``) by `riskstats.runs.experiment.run_experiment`:
chunk by chunk, so a stopped run loses at most the chunks in flight, and the same command resumes it. A set plays each
file's games (`GAMES` may give a set its own sample sizes). ``--workers`` plays the chunks on that many processes,
``--scheduler`` on a Dask cluster; the games are the same either way. After each experiment it prints the games played,
CPU and wall seconds; ``<out>/findings_runs.csv`` keeps one row per experiment run (set, experiment, games, CPU and
wall seconds).

Then it runs the ``scripts/make`` programs of the findings that are not experiment files (`PROGRAMS`: cards,
breaking, calibration, missions, placement) with ``--set``, each one a process of its own on one thread, with the
set's sizes (`SIZES`; ``--games`` puts that number in every size, a sample run); each resumes or skips what it has
written, and ``findings_runs.csv`` gets a row per program too. A set without sizes (``top``, whose programs' runs
predate the sets and are listed in each folder's README) runs the experiment files alone.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXPERIMENTS = {
    "continent_first_top": "continent_first",
    "seat_advantage_top": "seat_advantage",
    "first_player_top": "first_player",
    "two_player_top": "two_player",
}
"""The top tier's experiment files (``scripts/experiments/<name>.toml``) -> the finding's data folder (``data/<it>/``),
which holds one folder per tier set. (``seat_advantage_top_more.toml`` added games to the ``top`` set's seat advantage
on other seeds; a new set plays enough games in one run.)"""
GAMES = {"top_hunter": {"continent_first_top": 5000, "seat_advantage_top": 2500, "first_player_top": 2500,
                        "two_player_top": 2500}}
"""Games per cell a tier set plays where the file's own differ: set -> experiment -> games. The ``top_hunter`` sizes
were chosen for 95% half-widths of at most 2 points: a seat's share near 1/4 to 1/2 has a Wilson half-width of 1.7-2.0
points at 2,500; a forced first continent's paired effect on a four-player win rate near 1/4 came out at 2.1-2.5
points at 3,000 games an arm (the arms correlate little), so the continent arms play 5,000 (2.5 x sqrt(3/5) = 1.9).
A run asked for more games than it holds grows (`riskstats.runs.results.grows`): only the new games are played."""

PROGRAMS = {"card_escalation": "card_escalation", "break_value": "breaking", "calibration": "calibration",
            "mission_games": "missions", "placement_experiment": "placement/{set}"}
"""The ``scripts/make`` programs a set reruns (``--set``) -> their ``--out`` within the data folder (the programs write
one subfolder or file prefix per tier, the tier's ``folder``; placement one table per set)."""
SIZES = {"top_hunter": {
    "card_escalation": {"--timing-games": 4000, "--rule-games": 2000, "--escalation-games": 2000,
                        "--ranking-games": 2000, "--capture-games": 250},
    "break_value": {"--games": 800, "--outcomes": 4, "--rollouts": 3, "--chunk": 50},
    "calibration": {"--games": 300, "--own-rollouts": 16, "--chunk": 50},
    "mission_games": {"--games": 2500, "--chunk": 250},
    "placement_experiment": {"--games": 4000},
}}
"""A set's options for each program: its sample sizes (games per arm; a trade-timing or placement effect near a
quarter's win rate has a paired 95% half-width near 2 points at 4,000 games an arm) and the rollouts per position."""
SIZED = ("--games", "--timing-games", "--rule-games", "--escalation-games", "--ranking-games", "--capture-games")
"""The options ``--games`` replaces in a sample run (``--chunk`` is cut to it)."""


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def plan(tier_set: str, out: Path, games: int | None = None) -> list[dict]:
    """The steps a run of ``tier_set`` takes: the experiments (name, spec with its games, output folder, cells), then
    the programs (name, program, argv, output folder)."""
    from riskstats.errors import RiskstatsError
    from riskstats.runs.experiment import experiment_cells, load_experiment
    from riskstats.runs.tiers import TIER_SETS

    if tier_set not in TIER_SETS:
        raise RiskstatsError(f"unknown tier set {tier_set!r}; choose from {', '.join(TIER_SETS)}")
    steps = []
    for name, finding in EXPERIMENTS.items():
        spec = load_experiment(ROOT / "scripts" / "experiments" / f"{name}.toml")
        spec["games"] = GAMES.get(tier_set, {}).get(name, spec["games"]) if games is None else games
        spec["chunk_size"] = min(spec.get("chunk_size", spec["games"]), spec["games"])
        cells = experiment_cells(spec, TIER_SETS[tier_set])
        steps.append({"name": name, "spec": spec, "out": out / finding / tier_set, "cells": cells})
    for name, folder in PROGRAMS.items() if tier_set in SIZES else ():
        sizes = dict(SIZES[tier_set][name])
        if games is not None:
            sizes = {k: games if k in SIZED else min(v, games) if k == "--chunk" else v for k, v in sizes.items()}
        target = out / folder.format(set=tier_set)
        shown = target.relative_to(ROOT) if target.is_relative_to(ROOT) else target  # run from ROOT
        argv = ["--set", tier_set, *(str(x) for kv in sizes.items() for x in kv), "--out", str(shown)]
        steps.append({"name": name, "program": ROOT / "scripts" / "make" / f"{name}.py", "argv": argv,
                      "out": target})
    return steps


def main(argv=None) -> int:
    from riskstats.errors import RiskstatsError
    from riskstats.runs.tiers import JUDGING, TIER_SETS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default=JUDGING, help=f"the tier set, one of {', '.join(TIER_SETS)}")
    parser.add_argument("--out", type=Path, default=ROOT / "data", help="the data folder written into")
    parser.add_argument("--games", type=int, help="games per cell instead of the set's (a sample run)")
    parser.add_argument("--only", help="comma-separated experiment or program names (default: all)")
    parser.add_argument("--workers", type=int, help="processes to play the chunks on (default: all cores)")
    parser.add_argument("--scheduler", help="a Dask scheduler's address to play the chunks on")
    parser.add_argument("--list", action="store_true", help="print what would run and stop")
    args = parser.parse_args(argv)
    try:
        steps = plan(args.set, args.out, args.games)
        only = args.only.split(",") if args.only else [*EXPERIMENTS, *PROGRAMS]
        unknown = [n for n in only if n not in EXPERIMENTS and n not in PROGRAMS]
        if unknown:
            raise RiskstatsError(f"unknown experiment {unknown[0]!r}; choose from "
                                 f"{', '.join([*EXPERIMENTS, *PROGRAMS])}")
        steps = [s for s in steps if s["name"] in only]
        if args.list:
            for s in steps:
                if "program" in s:
                    print(f"{s['name']}: python {s['program'].relative_to(ROOT)} {' '.join(s['argv'])}")
                    continue
                print(f"{s['name']}: {len(s['cells'])} cells x {s['spec']['games']} games -> {s['out']}")
                for c in s["cells"]:
                    label = ", ".join(f"{k}={v}" for k, v in c["label"].items() if k != "variant")
                    print(f"    {label}")
            return 0
        run_all(steps, args.set, args.out, args.workers, args.scheduler)
    except RiskstatsError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


def _progress(name: str):
    """A progress callback that prints every twentieth of an experiment's games on stderr."""
    shown = [-1]

    def progress(done, total):
        if total and done * 20 // total != shown[0]:
            shown[0] = done * 20 // total
            print(f"{name}: {done:,} of {total:,} games", file=sys.stderr, flush=True)

    return progress


def run_all(steps, tier_set: str, out: Path, workers=None, scheduler=None) -> None:
    """Play ``steps`` (`plan`) one after the other, printing progress and appending one row per experiment to
    ``<out>/findings_runs.csv``."""
    import pandas as pd

    from riskstats.errors import RiskstatsError
    from riskstats.runs.experiment import run_experiment
    from riskstats.runs.tiers import TIER_SETS

    log = out / "findings_runs.csv"
    for step in steps:
        began, cpu = time.perf_counter(), _cpu()
        if "program" in step:
            print(f"{step['name']}: python {step['program'].relative_to(ROOT)} {' '.join(step['argv'])}",
                  file=sys.stderr, flush=True)
            done = subprocess.run([sys.executable, str(step["program"]), *step["argv"]], cwd=ROOT,
                                  env={**os.environ, "NUMBA_NUM_THREADS": "1"})
            if done.returncode:
                raise RiskstatsError(f"{step['name']} stopped with exit code {done.returncode}")
            played = games = None
        else:
            table = run_experiment(step["spec"], step["out"], workers=workers, scheduler=scheduler,
                                   progress=_progress(step["name"]), tiers=TIER_SETS[tier_set])
            games, played = len(table), len(table) - table.attrs.get("games_present", 0)
        row = {"set": tier_set, "experiment": step["name"], "out": str(step["out"].relative_to(out)),
               "games": games, "played": played, "cpu_s": round(_cpu() - cpu, 1),
               "wall_s": round(time.perf_counter() - began, 1)}
        counted = "" if games is None else f"{games:,} games ({played:,} played now), "
        print(f"{step['name']}: {counted}{row['cpu_s']:,} CPU s, {row['wall_s']:,} s wall -> {step['out']}",
              file=sys.stderr, flush=True)
        pd.DataFrame([row]).to_csv(log, mode="a", header=not log.exists(), index=False)


if __name__ == "__main__":
    sys.exit(main())
