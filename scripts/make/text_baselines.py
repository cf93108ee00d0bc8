"""The text environment's scripted baselines (issue 55 item 4): each played through `riskstats.env.text.TextEnv`
against random, continent-tuned and the hunter, two players with the neutral, its seat rotating.

    python scripts/make/text_baselines.py --games 500 --out data/env/text_baselines

Writes ``<out>/games.csv`` (every game: the agent, `riskstats.env.text.play_agent`'s columns) and
``<out>/summary.csv`` (each agent against each opponent: games, wins, win rate with its 95% Wilson interval, the fair
share, truncated games, bad replies; the command). Resumable: an (agent, opponents) pair already in ``games.csv``
is not played again. One thread.
"""
import argparse
import os
import sys
from pathlib import Path

if __name__ == "__main__":
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import pandas as pd  # noqa: E402

from riskstats.env.text import BASELINES, play_agent, record  # noqa: E402

OPPONENTS = ("random", "continent-tuned", "hunter")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=55)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "games.csv"
    done = pd.read_csv(path) if path.exists() else pd.DataFrame(columns=["agent", "opponents"])
    for name, agent in BASELINES.items():
        for opponents in OPPONENTS:
            if ((done.agent == name) & (done.opponents == opponents)).any():
                continue
            table = play_agent(agent, opponents, args.games, seed=args.seed).assign(agent=name)
            table.to_csv(path, mode="a", header=not path.exists(), index=False)
            print(f"{name} vs {opponents}: {table.attrs['summary']}", flush=True)
    games = pd.read_csv(path)
    command = "python scripts/make/text_baselines.py " + " ".join(argv if argv is not None else sys.argv[1:])
    rows = [{"agent": a, "opponents": o, **record(g), "command": command}
            for (a, o), g in games.groupby(["agent", "opponents"], sort=False)]
    pd.DataFrame(rows).to_csv(args.out / "summary.csv", index=False, float_format="%.4f")
    return 0


if __name__ == "__main__":
    sys.exit(main())
