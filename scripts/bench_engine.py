"""Benchmark: complete 4-player Classic games per second, single core and all cores.

``python scripts/bench_engine.py [games]`` (compilation is excluded: one warm-up run first).
"""
import sys
import time

import numba

from riskstats.selfplay import play_games


def main(games: int = 20_000) -> None:
    cores = numba.config.NUMBA_NUM_THREADS
    play_games(50, 4, ["random"], seed=0)
    for bots in (["random"], ["aggressive"], ["random", "aggressive", "continent", "defensive"]):
        for threads in sorted({1, cores}):
            numba.set_num_threads(threads)
            start = time.perf_counter()
            table = play_games(games, 4, bots, seed=1)
            elapsed = time.perf_counter() - start
            print(f"{','.join(bots):40s} threads={threads:3d}  {games / elapsed:10.0f} games/s  "
                  f"mean turns {table['turns'].mean():7.1f}  truncated {int(table['truncated'].sum())}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20_000)
