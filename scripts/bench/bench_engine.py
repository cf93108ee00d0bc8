"""Benchmark: complete 4-player games per second, on one core and on all cores, beside the targets.

``python scripts/bench/bench_engine.py [games] [repeats]`` (compilation is excluded: one warm-up run of each
line-up first; each figure is the best of ``repeats`` runs, 3 by default, since other processes share
the CPUs; the load average is printed). The targets (issue #14) are per core, with 4 players:

- Classic, ``random`` bots: 4,000 games/s;
- Classic, ``continent,aggressive,defensive,random``: 3,000 games/s;
- Secret Mission with ``mission`` bots and Capital Risk with ``capital`` bots: 3,000 games/s.

Rows with a target print their one-thread rate per CPU second (process time, which other processes
on a shared machine disturb less than wall time) as a ratio to it. The last rows are rollouts per
second from a mid-game position (`riskstats.game.rollout.rollouts`, random bots, to the end).
"""
import os
import sys
import time
from functools import partial

import numba

from riskstats.game.play import Game
from riskstats.game.rollout import rollouts
from riskstats.runs.selfplay import play_games

LINEUPS = (
    ("classic", "random", 4_000),
    ("classic", "continent,aggressive,defensive,random", 3_000),
    ("mission", "mission", 3_000),
    ("capital", "capital", 3_000),
    ("classic", "aggressive", None),
)
"""(variant, line-up, target games/s on one core or None)."""


def best_rate(repeats: int, work, n: int):
    """(best items per second of wall time over ``repeats`` runs of ``work()``, the same in process CPU
    time, its last result). On one thread the CPU-time rate is what other processes disturb least."""
    best = best_cpu = 0.0
    result = None
    for _ in range(repeats):
        start, cpu = time.perf_counter(), time.process_time()
        result = work()
        best = max(best, n / (time.perf_counter() - start))
        best_cpu = max(best_cpu, n / (time.process_time() - cpu))
    return best, best_cpu, result


def bench_games(games: int, repeats: int) -> None:
    cores = numba.config.NUMBA_NUM_THREADS
    for variant, bots, target in LINEUPS:
        lineup = bots.split(",")
        play_games(50, 4, lineup, variant=variant, seed=0)
        for threads in sorted({1, cores}):
            numba.set_num_threads(threads)
            rate, cpu, table = best_rate(repeats, partial(play_games, games, 4, lineup, variant=variant, seed=1),
                                         games)
            ratio = f"  {cpu / target:5.2f}x the per-core target {target:,}" if target and threads == 1 else ""
            print(f"{variant:8s} {bots:38s} threads={threads:2d} {rate:8.0f} games/s ({cpu:6.0f} per "
                  f"CPU second)  mean turns {table['turns'].mean():7.3f}{ratio}", flush=True)
    numba.set_num_threads(cores)


def bench_rollouts(n: int, repeats: int) -> None:
    game = Game(4, seed=3, log=False)
    game.play(["random"], max_moves=1_500)  # a mid-game position: turn 64, about 60 turns before the end
    rollouts(game, 10, seed=0)
    cores = numba.config.NUMBA_NUM_THREADS
    for threads in sorted({1, cores}):
        numba.set_num_threads(threads)
        rate, cpu, table = best_rate(repeats, partial(rollouts, game, n, seed=1), n)
        print(f"rollouts from turn {game.turn} to the end, random bots  threads={threads:2d} {rate:8.0f} "
              f"rollouts/s ({cpu:6.0f} per CPU second)  mean turns left {table['turns'].mean():7.3f}",
              flush=True)
    numba.set_num_threads(cores)


def main(games: int = 20_000, repeats: int = 3) -> None:
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    bench_games(games, repeats)
    bench_rollouts(games, repeats)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main(*(int(x) for x in sys.argv[1:3]))
