"""Benchmark: memory stays flat as a self-play run grows, and what a run costs in disk and time.

    python scripts/bench_memory.py                          # 10^5 and 10^6 games
    python scripts/bench_memory.py 100000 1000000 10000000  # any sizes
    python scripts/bench_memory.py 10000000 --dir runs --stop-after 600   # play 10 minutes of a 10^7 run;
    python scripts/bench_memory.py 10000000 --dir runs --stop-after 600   # the same again resumes it

Each run of four-player Classic games (``--bots``, by default the mixed line-up; all cores, chunks of
1,000, seed scheme 2) is played into a ``.parquet`` file in a process of its own, as ``riskstats
selfplay --out`` does, and the script prints that process's peak resident memory, its games per second,
the CPU time it used per game (all threads: robust to other programs' load, unlike games per second; a
quiet 2-core machine plays about 2e6 / (CPU µs per game) games a second), and the disk its parts take
per million games.
Target (issue #14): the same peak from 10^5 to 10^7 games (finished chunks are written and dropped,
each chunk works out its own seeds, the file is combined one row group at a time), under 1 GiB.
``--stop-after`` interrupts a run after that many seconds (the finished parts are
kept in ``<dir>/run-<games>.parquet.parts``; running again resumes it), so a long run can be measured
in sittings: each sitting's peak is printed, and so are the games it played. Without ``--dir`` the runs
go to a temporary folder and are removed.
"""
import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

BOTS = "continent,aggressive,defensive,random"
"""The default line-up: the mixed one of the speed targets (issue #14), about 1.6 times faster than
``aggressive`` bots; how much memory a run takes does not depend on the bots."""

RUN = """
import resource, sys, time
from riskstats.runs.tournament import RunConfig, run_selfplay
games, out, stop_after, bots = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), tuple(sys.argv[4].split(","))
start = time.perf_counter()
seen = []

def progress(done, total):
    seen.append(done)
    if stop_after and time.perf_counter() - start > stop_after and done < total:
        raise KeyboardInterrupt

try:
    run_selfplay(RunConfig(games=games, players=4, bots=bots, seed=1), out, load=False, progress=progress)
except KeyboardInterrupt:
    pass
use = resource.getrusage(resource.RUSAGE_SELF)
print(time.perf_counter() - start, use.ru_maxrss * 1024, seen[0], seen[-1], use.ru_utime + use.ru_stime)
"""


def _disk(path: Path) -> int:
    parts = Path(f"{path}.parts")
    if path.exists():
        return path.stat().st_size
    return sum(p.stat().st_size for p in parts.glob("part-*")) if parts.exists() else 0


def main(sizes, folder: Path, stop_after: float, bots: str) -> None:
    subprocess.run([sys.executable, "-c", RUN, "100", str(folder / "warm.parquet"), "0", bots], check=True,
                   capture_output=True)  # compile, or load the compiled engine
    (folder / "warm.parquet").unlink()
    print(f"{'games':>12} {'played now':>11} {'seconds':>8} {'games/s':>8} {'CPU µs/game':>11} {'peak memory':>12} "
          f"{'disk/10^6 games':>16}  state", flush=True)
    for games in sizes:
        path = folder / f"run-{games}.parquet"
        out = subprocess.run([sys.executable, "-c", RUN, str(games), str(path), str(stop_after), bots],
                             check=True, capture_output=True, text=True).stdout.split()
        seconds, peak, before, after, cpu = float(out[0]), int(out[1]), int(out[2]), int(out[3]), float(out[4])
        played = after - before
        disk = _disk(path) / max(after, 1) * 1e6
        state = "complete" if after == games else f"stopped at {after:,} of {games:,} (run again to resume)"
        print(f"{games:>12,} {played:>11,} {seconds:>8.1f} {played / seconds:>8,.0f} "
              f"{1e6 * cpu / max(played, 1):>11.0f} {peak / 2**20:>8.1f} MiB {disk / 2**20:>12.1f} MiB  "
              f"{state}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", type=int, nargs="*", default=[100_000, 1_000_000])
    parser.add_argument("--dir", type=Path, help="keep the runs here (to resume them); default: a temporary folder")
    parser.add_argument("--bots", default=BOTS, help=f"the line-up (default {BOTS})")
    parser.add_argument("--stop-after", type=float, default=0.0, help="interrupt each run after this many seconds")
    args = parser.parse_args()
    if args.dir is not None:
        args.dir.mkdir(parents=True, exist_ok=True)
        main(args.sizes, args.dir, args.stop_after, args.bots)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            main(args.sizes, Path(tmp), args.stop_after, args.bots)
