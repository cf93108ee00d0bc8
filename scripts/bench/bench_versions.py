"""Benchmark: self-play speed of two checkouts side by side, alternating in one session (issue 28 §3: no slower
games after a change).

    python scripts/bench/bench_versions.py BEFORE AFTER [--rounds 3] [--repeats 2] [--only LINEUP ...] [--out FILE.csv]

``BEFORE`` and ``AFTER`` are checkouts of riskstats (a ``git worktree add`` of the commit before a change, say,
and this one). Each round runs one child process per checkout, in turn, on one numba thread, with the checkout
first on ``PYTHONPATH``; a child plays each line-up once to compile or load its kernels, then ``--repeats`` times
on fresh seeds, and reports its best games per CPU second (process time, which other processes on a shared
machine disturb less than wall time). The table gives each line-up's best over the rounds for both checkouts,
their ratio, and the lowest ratio of any one round (the rounds alternate, so both saw the same load).
"""
import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd

LINEUPS = (  # (label, variant, players, bots, games per repeat)
    ("classic random", "classic", 4, "random", 3000),
    ("classic mixed", "classic", 4, "continent,aggressive,defensive,random", 3000),
    ("mission", "mission", 4, "mission", 3000),
    ("capital", "capital", 4, "capital", 3000),
    ("classic aggressive", "classic", 4, "aggressive", 3000),
    ("classic hunter", "classic", 4, "hunter", 300),
    ("two-player hunter", "classic", 2, "hunter,continent-tuned", 600),
    ("two-player value-tuned", "classic", 2, "value-tuned,continent-tuned", 600),
    ("classic value-tuned", "classic", 4, "value-tuned", 300),
)

CHILD = """
import json, sys, time
from riskstats.runs.selfplay import play_games
lineups, repeats = json.loads(sys.argv[1]), int(sys.argv[2])
out = {}
for label, variant, players, bots, games in lineups:
    play_games(20, players, bots, variant=variant, seed=0)  # compile or load the kernels
    best = 0.0
    for r in range(repeats):
        start = time.process_time()
        play_games(games, players, bots, variant=variant, seed=1 + r)
        best = max(best, games / (time.process_time() - start))
    out[label] = best
print(json.dumps(out))
"""


def run(tree: Path, repeats: int, lineups=LINEUPS) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree), "NUMBA_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(lineups), str(repeats)], cwd=tree, env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None, help="write the table as CSV")
    parser.add_argument("--only", nargs="+", choices=[label for label, *_ in LINEUPS], metavar="LINEUP",
                        help="only these line-ups (their labels)")
    args = parser.parse_args()
    lineups = [lineup for lineup in LINEUPS if args.only is None or lineup[0] in args.only]
    rows = []
    for r in range(args.rounds):
        for name, tree in (("before", args.before), ("after", args.after)):
            rates = run(tree.resolve(), args.repeats, lineups)
            rows += [{"round": r + 1, "tree": name, "lineup": k, "games_per_cpu_s": v} for k, v in rates.items()]
            print(f"round {r + 1} {name}: " + ", ".join(f"{k} {v:,.0f}" for k, v in rates.items()), flush=True)
    frame = pd.DataFrame(rows)
    wide = frame.pivot_table(index=["lineup", "round"], columns="tree", values="games_per_cpu_s")
    best = frame.groupby(["lineup", "tree"])["games_per_cpu_s"].max().unstack()
    table = pd.DataFrame({"before": best["before"].round(0), "after": best["after"].round(0),
                          "ratio": (best["after"] / best["before"]).round(3),
                          "lowest round ratio": (wide["after"] / wide["before"]).groupby("lineup").min().round(3),
                          "rounds": args.rounds}).loc[[label for label, *_ in lineups]]
    print(table.to_string())
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        table.to_csv(args.out)


if __name__ == "__main__":
    main()
