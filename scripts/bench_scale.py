"""Benchmark self-play at scale: parallel efficiency of local threads and the overhead of the Dask path.

    python scripts/bench_scale.py                    # 8,000 four-player games, chunks of 2,000
    python scripts/bench_scale.py --games 20000 --chunk 5000

Prints games per second on 1 worker thread and on all cores (their ratio is the parallel speed-up;
the target is at least 1.7x on 2 cores) and on a Dask LocalCluster with one single-threaded worker
process per core, against the local run on the same cores (target: under 10% overhead at chunks of
1,000+ games). Each figure is the best of ``--repeat`` runs; compilation, cluster start-up and the
workers' first load of the compiled code are excluded (warm-up run first).
"""
import argparse
import os
import time

from riskstats.tournament import RunConfig, run_selfplay

BOTS = ("random", "aggressive", "continent", "defensive")


def best(repeat, call):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8000)
    parser.add_argument("--chunk", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    cores = len(os.sched_getaffinity(0))
    config = RunConfig(games=args.games, players=4, bots=BOTS, seed=11, chunk_size=args.chunk)
    run_selfplay(RunConfig(games=50, players=4, bots=BOTS, chunk_size=50))  # compile / load the cache
    one = best(args.repeat, lambda: run_selfplay(config, workers=1))
    many = best(args.repeat, lambda: run_selfplay(config, workers=cores))
    print(f"local, 1 thread:        {args.games / one:10,.0f} games/s  ({one:.2f} s)")
    print(f"local, {cores} threads:       {args.games / many:10,.0f} games/s  ({many:.2f} s)")
    print(f"parallel speed-up:      {one / many:10.2f}x on {cores} cores (efficiency {one / many / cores:.0%})")
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        print("dask not installed: pip install 'riskstats[distributed]' to time the Dask path")
        return
    with LocalCluster(n_workers=cores, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        warm = RunConfig(games=4 * cores, players=4, bots=BOTS, chunk_size=4)
        run_selfplay(warm, client=client)  # every worker loads the compiled code once
        local, dask = [], []
        for _ in range(args.repeat):  # interleaved, so that load from other programs hits both alike
            local.append(best(1, lambda: run_selfplay(config, workers=cores)))
            dask.append(best(1, lambda: run_selfplay(config, client=client)))
    local, dask = min(local), min(dask)
    print(f"local, {cores} threads:       {args.games / local:10,.0f} games/s  ({local:.2f} s)")
    print(f"dask, {cores} workers:        {args.games / dask:10,.0f} games/s  ({dask:.2f} s)")
    print(f"dask overhead vs local: {100 * (dask / local - 1):+9.1f}%  (chunks of {args.chunk:,} games)")

if __name__ == "__main__":
    main()
