"""Benchmark self-play at scale: parallel efficiency of local threads and the overhead of the Dask path.

    python scripts/bench/bench_scale.py                    # 4,000 four-player games, chunks of 1,000
    python scripts/bench/bench_scale.py --games 20000 --chunk 5000 --repeat 5

Times the same run on 1 local numba thread, on N local threads (N = the cores this process may use)
and on a Dask LocalCluster of N single-threaded worker processes. Targets: a parallel speed-up of at
least 1.7x on 2 cores, and the Dask path under 10% slower than the N local threads at chunks of 1,000+
games. Compilation is excluded: the local process and every worker play one warm-up chunk first
(each worker process loads the compiled game loop once). The three timings are interleaved, each the
best of ``--repeat``, and beside each is the CPU that *other* programs used meanwhile ("others"
in cores, from /proc): a figure taken while others were busy is skewed; rerun on a quiet machine.
The CPU seconds the run itself used (this process and its Dask workers) are printed too: they show
the Dask path's serialisation and scheduling cost even when the wall-clock times are skewed.
"""
import argparse
import os
import time

from riskstats.runs.distributed import _task
from riskstats.runs.tournament import RunConfig, play_chunk, run_selfplay

BOTS = ("random", "aggressive", "continent", "defensive")
TICKS = os.sysconf("SC_CLK_TCK")


def _total_busy():
    """CPU seconds spent busy by all cores since boot (user, nice, system, irq, softirq, steal)."""
    with open("/proc/stat") as handle:
        fields = [int(x) for x in handle.readline().split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / TICKS


def _tree_cpu(root=None):
    """CPU seconds used by this process and its live descendants (the Dask nanny and workers)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS)
    total, todo = 0.0, [root or os.getpid()]
    while todo:
        pid = todo.pop()
        total += parents.get(pid, (0, 0.0))[1]
        todo.extend(child for child, (parent, _) in parents.items() if parent == pid)
    return total


def timed(call):
    """``(seconds, CPU seconds this run used, cores other programs used meanwhile)`` for one call."""
    busy, ours, start = _total_busy(), _tree_cpu(), time.perf_counter()
    call()
    seconds = time.perf_counter() - start
    cpu = _tree_cpu() - ours
    return seconds, cpu, max(0.0, _total_busy() - busy - cpu) / seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--chunk", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    cores = len(os.sched_getaffinity(0))
    config = RunConfig(games=args.games, players=4, bots=BOTS, seed=11, chunk_size=args.chunk)
    warm = RunConfig(games=50, players=4, bots=BOTS, chunk_size=50)
    run_selfplay(warm, workers=1)  # compile or load the cache, start numba's threads
    run_selfplay(warm, workers=cores)
    runs = {"local, 1 thread": lambda: run_selfplay(config, workers=1),
            f"local, {cores} threads": lambda: run_selfplay(config, workers=cores)}
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        print("dask not installed: pip install 'riskstats[distributed]' to time the Dask path")
        cluster = client = None
    else:
        cluster = LocalCluster(n_workers=cores, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
        client.run(_task, play_chunk, None, warm, 0, 50, None)  # every worker process plays one warm-up chunk
        runs[f"dask, {cores} workers"] = lambda: run_selfplay(config, client=client)
    print(f"{args.games:,} four-player games in chunks of {args.chunk:,}; {cores} cores; "
          f"load average before {os.getloadavg()[0]:.2f}")
    try:
        times = {name: [] for name in runs}
        for _ in range(args.repeat):  # interleaved, so that load from other programs hits each alike
            for name, call in runs.items():
                times[name].append(timed(call))
    finally:
        if client is not None:
            client.close()
            cluster.close()
    best = {name: min(results) for name, results in times.items()}
    for name, (seconds, _, others) in best.items():
        cpu = min(c for _, c, _ in times[name])
        print(f"{name + ':':22} {args.games / seconds:8,.0f} games/s  ({seconds:6.2f} s, least CPU {cpu:6.2f} s; "
              f"others used {others:.2f} cores; all tries {', '.join(f'{s:.2f}' for s, _, _ in times[name])} s)")
    one, many = best["local, 1 thread"][0], best[f"local, {cores} threads"][0]
    print(f"parallel speed-up:     {one / many:8.2f}x on {cores} cores (efficiency {one / many / cores:.0%})")
    if client is not None:
        dask = best[f"dask, {cores} workers"][0]
        cpu = [min(c for _, c, _ in times[name]) for name in (f"local, {cores} threads", f"dask, {cores} workers")]
        print(f"dask overhead vs local: {100 * (dask / many - 1):+7.1f}% wall, {100 * (cpu[1] / cpu[0] - 1):+.1f}% "
              f"CPU  (chunks of {args.chunk:,} games)")


if __name__ == "__main__":
    main()
