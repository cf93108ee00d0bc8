"""Benchmark: complete 4-player Classic games per second, single core and all cores.

``python scripts/bench_engine.py [games]`` (compilation is excluded: one warm-up run first). The target
(issue #4) is 1,000 games per second on one core with ``random`` bots; the random rows print their
ratio to it.
"""
import sys
import time

import numba

from riskstats.runs.selfplay import play_games

TARGET = 1_000
"""Games per second on one core with `random` bots."""


def main(games: int = 20_000) -> None:
    cores = numba.config.NUMBA_NUM_THREADS
    play_games(50, 4, ["random"], seed=0)
    for bots in (["random"], ["aggressive"], ["random", "aggressive", "continent", "defensive"]):
        for threads in sorted({1, cores}):
            numba.set_num_threads(threads)
            start = time.perf_counter()
            table = play_games(games, 4, bots, seed=1)
            rate = games / (time.perf_counter() - start)
            target = f"  {rate / threads / TARGET:5.2f}x the per-core target" if bots == ["random"] else ""
            print(f"{','.join(bots):40s} threads={threads:3d}  {rate:10.0f} games/s  "
                  f"mean turns {table['turns'].mean():7.1f}  truncated {int(table['truncated'].sum())}{target}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20_000)
