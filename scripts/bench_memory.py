"""Benchmark: memory stays flat as a self-play run grows.

``python scripts/bench_memory.py [games ...]`` (default 10,000, 100,000 and 400,000 games) plays each
run of four-player Classic games (``aggressive`` bots, all cores) into a fresh ``.parquet`` file, in a
process of its own, as ``riskstats selfplay --out`` does, and prints that process's peak resident memory.
Target (issue #4): the same peak whatever the number of games, bar the run's seed list (8 bytes a game):
finished chunks are written and dropped, and the file is combined one part at a time.
"""
import subprocess
import sys
import tempfile

RUN = """
import resource, sys, time
from riskstats.runs.tournament import RunConfig, run_selfplay
start = time.perf_counter()
run_selfplay(RunConfig(games=int(sys.argv[1]), players=4, bots=("aggressive",), seed=1), sys.argv[2], load=False)
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
"""


def main(sizes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([sys.executable, "-c", RUN, "100", f"{folder}/warm.parquet"], check=True,
                       capture_output=True)  # compile, or load the compiled engine
        first = None
        for games in sizes:
            out = subprocess.run([sys.executable, "-c", RUN, str(games), f"{folder}/run-{games}.parquet"],
                                 check=True, capture_output=True, text=True).stdout.split()
            seconds, peak = float(out[0]), int(out[1])
            first = first or (games, peak)
            growth = (peak - first[1]) / (games - first[0]) if games > first[0] else float("nan")
            print(f"{games:>10,} games  {seconds:7.1f} s  peak memory {peak / 2**20:7.1f} MiB  "
                  f"growth {growth:6.1f} bytes/game over the first run")


if __name__ == "__main__":
    main([int(x) for x in sys.argv[1:]] or [10_000, 100_000, 400_000])
