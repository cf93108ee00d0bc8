"""Benchmark: memory stays flat as a self-play run grows, and what a run costs in disk and time.

    python scripts/bench/bench_memory.py                          # 10^5 and 10^6 games
    python scripts/bench/bench_memory.py 100000 1000000 10000000  # any sizes
    python scripts/bench/bench_memory.py 10000000 --dir runs --stop-after 600   # play 10 minutes of a 10^7 run;
    python scripts/bench/bench_memory.py 10000000 --dir runs --stop-after 600   # the same again resumes it
    python scripts/bench/bench_memory.py 10000 100000 --cli                     # through `riskstats selfplay --out`

Each run of four-player Classic games (``--bots``, by default the mixed line-up; all cores, chunks of
1,000, seed scheme 2) is played into a ``.parquet`` file in a process of its own, as ``riskstats
selfplay --out`` does, and the script prints that process's peak resident memory, its games per second,
the CPU time it used per game (all threads: robust to other programs' load, unlike games per second; a
quiet 2-core machine plays about 2e6 / (CPU µs per game) games a second), and the disk its parts take
per million games.
``--cli`` plays each run through the command line instead (``riskstats selfplay --out FILE --json`` in
the measured process), so the peak includes the summary it prints, which streams the file back one row
group at a time (issue #21); ``--stop-after`` does not apply to it. After each run the script also
measures, each in a process of its own, summing the finished file up both ways: streamed
(`riskstats.stats.report.SummaryTally` over `riskstats.runs.results.iter_results`, what the CLI does)
and loaded whole (`read_results` then `summary`, what it did before).
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

RUN_CLI = """
import contextlib, io, json, resource, sys, time
from riskstats.cli import app
games, out, bots = int(sys.argv[1]), sys.argv[2], sys.argv[4]
start = time.perf_counter()
text = io.StringIO()
with contextlib.redirect_stdout(text):
    try:
        app(["selfplay", "--games", str(games), "--players", "4", "--bots", bots, "--seed", "1", "--out", out,
             "--json"], standalone_mode=False)
    except SystemExit:
        pass
payload = json.loads(text.getvalue())
use = resource.getrusage(resource.RUSAGE_SELF)
print(time.perf_counter() - start, use.ru_maxrss * 1024, games - payload["games_played"], payload["games"],
      use.ru_utime + use.ru_stime)
"""

SUMMARISE = """
import resource, sys, time
start = time.perf_counter()
if sys.argv[2] == "streamed":
    from riskstats.runs.results import iter_results
    from riskstats.stats.report import SUMMARY_COLUMNS, SummaryTally
    tally = SummaryTally()
    for piece in iter_results(sys.argv[1], SUMMARY_COLUMNS):
        tally.add(piece)
    games = tally.result()["games"]
else:
    from riskstats.runs.results import read_results
    from riskstats.stats.report import summary
    games = summary(read_results(sys.argv[1]))["games"]
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, games)
"""


def _summarise(path: Path, how: str) -> tuple[float, int]:
    out = subprocess.run([sys.executable, "-c", SUMMARISE, str(path), how], check=True, capture_output=True,
                         text=True).stdout.split()
    return float(out[0]), int(out[1])


def _disk(path: Path) -> int:
    parts = Path(f"{path}.parts")
    if path.exists():
        return path.stat().st_size
    return sum(p.stat().st_size for p in parts.glob("part-*")) if parts.exists() else 0


def main(sizes, folder: Path, stop_after: float, bots: str, cli: bool = False) -> None:
    run = RUN_CLI if cli else RUN
    subprocess.run([sys.executable, "-c", run, "100", str(folder / "warm.parquet"), "0", bots], check=True,
                   capture_output=True)  # compile, or load the compiled engine
    (folder / "warm.parquet").unlink()
    print("path: " + ("riskstats selfplay --out FILE --json (the CLI, its summary included)" if cli else
                      "run_selfplay(load=False)"), flush=True)
    print(f"{'games':>12} {'played now':>11} {'seconds':>8} {'games/s':>8} {'CPU µs/game':>11} {'peak memory':>12} "
          f"{'disk/10^6 games':>16}  state", flush=True)
    for games in sizes:
        path = folder / f"run-{games}.parquet"
        out = subprocess.run([sys.executable, "-c", run, str(games), str(path), str(stop_after), bots],
                             check=True, capture_output=True, text=True).stdout.split()
        seconds, peak, before, after, cpu = float(out[0]), int(out[1]), int(out[2]), int(out[3]), float(out[4])
        played = after - before
        disk = _disk(path) / max(after, 1) * 1e6
        state = "complete" if after == games else f"stopped at {after:,} of {games:,} (run again to resume)"
        print(f"{games:>12,} {played:>11,} {seconds:>8.1f} {played / seconds:>8,.0f} "
              f"{1e6 * cpu / max(played, 1):>11.0f} {peak / 2**20:>8.1f} MiB {disk / 2**20:>12.1f} MiB  "
              f"{state}", flush=True)
        if after == games:
            (t_s, peak_s), (t_l, peak_l) = _summarise(path, "streamed"), _summarise(path, "loaded")
            print(f"{'':>12} summary of the file: streamed {peak_s / 2**20:.1f} MiB peak ({t_s:.1f} s), "
                  f"loaded whole {peak_l / 2**20:.1f} MiB peak ({t_l:.1f} s)", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", type=int, nargs="*", default=[100_000, 1_000_000])
    parser.add_argument("--dir", type=Path, help="keep the runs here (to resume them); default: a temporary folder")
    parser.add_argument("--bots", default=BOTS, help=f"the line-up (default {BOTS})")
    parser.add_argument("--stop-after", type=float, default=0.0, help="interrupt each run after this many seconds")
    parser.add_argument("--cli", action="store_true", help="play through `riskstats selfplay --out` (its summary too)")
    args = parser.parse_args()
    if args.dir is not None:
        args.dir.mkdir(parents=True, exist_ok=True)
        main(args.sizes, args.dir, args.stop_after, args.bots, args.cli)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            main(args.sizes, Path(tmp), args.stop_after, args.bots, args.cli)
