"""Breaking a rival's continent, valued by paired rollouts from positions of real games (issue #19 §4).

``python scripts/break_value.py --games 160 --out data/breaking`` plays ``--games`` seeded four-player
Classic games per population (strong: `value:rollouts=1:plans=4` in every seat; heuristic:
`continent-tuned` in every seat), keeps one moment per game where the seat to move could break a rival's
continent (`riskstats.analysis.breaking.break_positions`, conquest chance at least ``--min-p``), and rolls
each out with the break forced first (to conquest or the last army, real dice) and without, on the same
seeds (`break_value`: ``--outcomes`` attack outcomes x ``--rollouts`` rollouts per arm). Writes
``positions.csv`` (one row per position and population) and ``runs.csv`` (the command and CPU seconds per
population); notebook 06 summarises them.
"""
import argparse
import sys
import time
from pathlib import Path

import pandas as pd

from riskstats.analysis.breaking import break_positions, break_value
from riskstats.runs.selfplay import play_games

POPULATIONS = {"strong": "value:rollouts=1:plans=4", "heuristic": "continent-tuned"}
"""population -> the bot in every seat."""


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=160, help="games per population (at most one position each)")
    parser.add_argument("--outcomes", type=int, default=8)
    parser.add_argument("--rollouts", type=int, default=5)
    parser.add_argument("--min-p", type=float, default=0.25)
    parser.add_argument("--populations", default="strong,heuristic")
    parser.add_argument("--seed", type=int, default=1904)
    parser.add_argument("--out", default="data/breaking")
    args = parser.parse_args(argv)
    command = "python scripts/break_value.py " + " ".join(argv if argv is not None else sys.argv[1:])
    frames, runs = [], []
    for population in args.populations.split(","):
        start = time.process_time()
        bot = POPULATIONS[population]
        games = play_games(args.games, 4, bot, seed=args.seed)
        positions = break_positions(games, min_p=args.min_p, seed=args.seed)
        values = break_value(positions, args.outcomes, args.rollouts, seed=args.seed)
        frames.append(values.assign(population=population, bots=",".join([bot] * 4)))
        runs.append({"population": population, "games": args.games, "positions": len(values),
                     "cpu_s": round(time.process_time() - start, 1), "command": command})
        print(runs[-1], flush=True)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    pd.concat(frames, ignore_index=True).to_csv(out / "positions.csv", index=False, float_format="%.6g")
    pd.DataFrame(runs).to_csv(out / "runs.csv", index=False)


if __name__ == "__main__":
    main()
