"""Breaking a rival's continent, valued by paired rollouts from positions of real games (issue #19 §4, #29).

``python scripts/make/break_value.py --games 160 --populations strong --out data/breaking/strong`` plays ``--games``
seeded four-player Classic games per population (`POPULATIONS`: the bot in every seat), keeps one moment per game
where the seat to move could break a rival's continent (`riskstats.analysis.breaking.break_positions`, conquest
chance at least ``--min-p``), and rolls each out with the break forced first (to conquest or the last army, real
dice) and without, on the same seeds (`break_value`: ``--outcomes`` attack outcomes x ``--rollouts`` rollouts per
arm, the population's bot in every seat of every rollout).

The run goes in chunks of ``--chunk`` games (`play_games(first=...)`; a position's seeds depend on its game, not
on the chunk), and after each chunk ``positions.csv`` (one row per position) and ``runs.csv`` (one row per chunk:
its first game, games, positions, CPU seconds and the command) are rewritten whole (a temporary file, then a
rename). Rerun the same command to resume: the games already in ``runs.csv`` are skipped, so an interrupted run
loses at most its last chunk. Notebook 06 summarises ``positions.csv``.

``--set top_hunter`` plays every tier of that tier set instead (`riskstats.runs.tiers.TIER_SETS`: its bot in every
seat, or alternating with the others'), each into ``<out>/<folder>`` (``--out`` default ``data/breaking``; the
tier's ``folder``) under the tier's name, as ``scripts/make/findings.py`` does.
"""
import argparse
import sys
import time
from pathlib import Path

import pandas as pd

from riskstats.analysis.breaking import break_positions, break_value
from riskstats.errors import RiskstatsError
from riskstats.runs.results import write_table
from riskstats.runs.selfplay import play_games
from riskstats.runs.tiers import TIER_SETS, set_populations

TOP = TIER_SETS["top"]
POPULATIONS = {"strong": "value:rollouts=1:plans=4", "heuristic": "continent-tuned",
               "search": TOP["search"]["bot"], "search-model": TOP["search:value=model"]["bot"]}
"""population -> the bot in every seat (search and search-model: the ``top`` tier set's two bots, by their runs'
names; ``--set`` plays a tier set's populations by their tiers' names)."""


def run_population(population: str, lineup: str, out: Path, args, command: str) -> None:
    """Play ``population`` (``lineup``: the four seats' bots) into ``out``, resuming after ``runs.csv``."""
    out.mkdir(parents=True, exist_ok=True)
    pos_path, runs_path = out / "positions.csv", out / "runs.csv"
    runs = pd.read_csv(runs_path) if runs_path.exists() else pd.DataFrame()
    if len(runs) and "first" not in runs:  # a run of one chunk, before chunks
        runs = runs.assign(first=0)
    runs = runs[runs.population == population] if len(runs) else runs
    positions = pd.read_csv(pos_path) if pos_path.exists() else pd.DataFrame()
    done = int((runs["first"] + runs["games"]).max()) if len(runs) else 0
    if len(positions):  # keep only the rows of chunks runs.csv records
        positions = positions[positions.game < done]
    first = done
    while first < args.games:
        games = min(args.chunk, args.games - first)
        start = time.process_time()
        table = play_games(games, 4, lineup, seed=args.seed, first=first)
        found = break_positions(table, min_p=args.min_p, seed=args.seed)
        if found:
            values = break_value(found, args.outcomes, args.rollouts, seed=args.seed)
            positions = pd.concat([positions, values.assign(population=population, bots=lineup)],
                                  ignore_index=True)
        runs = pd.concat([runs, pd.DataFrame([{"population": population, "first": first, "games": games,
                                               "positions": len(found), "outcomes": args.outcomes,
                                               "rollouts": args.rollouts,
                                               "cpu_s": round(time.process_time() - start, 1),
                                               "command": command}])], ignore_index=True)
        write_table(positions, pos_path, float_format="%.6g")
        write_table(runs, runs_path, float_format="%.6g")
        print(runs.iloc[-1].to_dict(), flush=True)
        first += games
    print(f"{population}: {int(runs.games.sum())} games, {len(positions)} positions, {runs.cpu_s.sum():.1f} CPU s")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=160, help="games per population (at most one position each)")
    parser.add_argument("--outcomes", type=int, default=8)
    parser.add_argument("--rollouts", type=int, default=5)
    parser.add_argument("--min-p", type=float, default=0.25)
    parser.add_argument("--populations", default="strong", help=f"one or more of {', '.join(POPULATIONS)}, "
                        "comma-separated (each needs its own --out)")
    parser.add_argument("--chunk", type=int, default=20, help="games per chunk (written after each)")
    parser.add_argument("--seed", type=int, default=1904)
    parser.add_argument("--set", help="instead of --populations: every tier of this tier set, each into "
                        "<out>/<its folder>")
    parser.add_argument("--out", default=None, help="default data/breaking/strong (with --set: data/breaking)")
    args = parser.parse_args(argv)
    command = "python scripts/make/break_value.py " + " ".join(argv if argv is not None else sys.argv[1:])
    if args.set:
        try:
            populations = set_populations(args.set)
        except RiskstatsError as e:
            sys.exit(f"error: {e}")
        for tier, (lineup, folder) in populations.items():
            run_population(tier, lineup, Path(args.out or "data/breaking") / folder, args, command)
        return
    for population in args.populations.split(","):
        if population not in POPULATIONS:
            sys.exit(f"error: unknown population {population!r}; choose from {', '.join(POPULATIONS)}")
        run_population(population, ",".join([POPULATIONS[population]] * 4), Path(args.out or "data/breaking/strong"),
                       args, command)


if __name__ == "__main__":
    main()
