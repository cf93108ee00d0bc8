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
"""
from __future__ import annotations

import argparse
import resource
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
GAMES = {"top_hunter": {"continent_first_top": 3000, "seat_advantage_top": 2500, "first_player_top": 2500,
                        "two_player_top": 2500}}
"""Games per cell a tier set plays where the file's own differ: set -> experiment -> games. The ``top_hunter`` sizes
were chosen for 95% half-widths near 2 points: a seat's share near 1/4 to 1/2 has a Wilson half-width of 1.7-2.0
points at 2,500; a forced first continent's paired effect on a four-player win rate near 1/4 came out at 2.1-2.5
points at 3,000 games an arm (the arms correlate little), so the continent arms need about 4,000 for 2 points."""


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def plan(tier_set: str, out: Path, games: int | None = None) -> list[dict]:
    """The experiments a run of ``tier_set`` plays: name, spec (games set), output folder, cells."""
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
    return steps


def main(argv=None) -> int:
    from riskstats.errors import RiskstatsError
    from riskstats.runs.tiers import JUDGING, TIER_SETS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default=JUDGING, help=f"the tier set, one of {', '.join(TIER_SETS)}")
    parser.add_argument("--out", type=Path, default=ROOT / "data", help="the data folder written into")
    parser.add_argument("--games", type=int, help="games per cell instead of the set's (a sample run)")
    parser.add_argument("--only", help="comma-separated experiment names (default: all)")
    parser.add_argument("--workers", type=int, help="processes to play the chunks on (default: all cores)")
    parser.add_argument("--scheduler", help="a Dask scheduler's address to play the chunks on")
    parser.add_argument("--list", action="store_true", help="print what would run and stop")
    args = parser.parse_args(argv)
    try:
        steps = plan(args.set, args.out, args.games)
        only = args.only.split(",") if args.only else list(EXPERIMENTS)
        unknown = [n for n in only if n not in EXPERIMENTS]
        if unknown:
            raise RiskstatsError(f"unknown experiment {unknown[0]!r}; choose from {', '.join(EXPERIMENTS)}")
        steps = [s for s in steps if s["name"] in only]
        if args.list:
            for s in steps:
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

    from riskstats.runs.experiment import run_experiment
    from riskstats.runs.tiers import TIER_SETS

    log = out / "findings_runs.csv"
    for step in steps:
        began, cpu = time.perf_counter(), _cpu()
        table = run_experiment(step["spec"], step["out"], workers=workers, scheduler=scheduler,
                               progress=_progress(step["name"]), tiers=TIER_SETS[tier_set])
        played = len(table) - table.attrs.get("games_present", 0)
        row = {"set": tier_set, "experiment": step["name"], "out": str(step["out"].relative_to(out)),
               "games": len(table), "played": played, "cpu_s": round(_cpu() - cpu, 1),
               "wall_s": round(time.perf_counter() - began, 1)}
        print(f"{step['name']}: {row['games']:,} games ({played:,} played now), {row['cpu_s']:,} CPU s, "
              f"{row['wall_s']:,} s wall -> {step['out']}", file=sys.stderr, flush=True)
        pd.DataFrame([row]).to_csv(log, mode="a", header=not log.exists(), index=False)


if __name__ == "__main__":
    sys.exit(main())
