"""Benchmark the exact engine against ../shared/bench/reference.py, run side by side in one session.

    python scripts/bench/bench_odds.py [--size 1000] [--repeat 5]

Prints, for the 1000 x 1000 win table and the full end-state distribution of a 1000-v-1000 battle,
the best of several timings for riskstats and for the reference kernel, and their ratio (reference
seconds / riskstats seconds: above 1 means riskstats is faster). Then Balanced Blitz (issue 40) beside
true random, the same battle and table with ``balance="blitz"``, and their cost ratio (balanced seconds /
true-random seconds; the target is at most 1.5, 1000 v 1000 well under a second). Also times
`riskstats odds 10 5` from a cold process. Speed targets live here, never in the test suite.
"""
import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "bench" / "reference.py"


def best_of(repeat, f, *args):
    f(*args)  # compile or load the cached kernel
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        f(*args)
        times.append(time.perf_counter() - start)
    return min(times)


def reference_seconds(figure, size, repeat):
    runs = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, str(REFERENCE), figure, str(size), str(size)],
                             capture_output=True, text=True, check=True).stdout
        runs.append(json.loads(out)["seconds"])
    return min(runs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    from riskstats.odds.battle import battle_odds, win_table, win_values
    from riskstats.odds.dice import DiceRules

    n, rules = args.size, DiceRules()
    ours = {
        "table (array, win_values)": best_of(args.repeat, win_values, rules, n, n),
        "table (long-form DataFrame, win_table)": best_of(args.repeat, win_table, n, n),
        "battle (end-state distribution, battle_odds)": best_of(args.repeat, battle_odds, n, n),
    }
    theirs = {}
    if REFERENCE.exists():
        theirs = {"table": reference_seconds("table", n, args.repeat),
                  "battle": reference_seconds("battle", n, args.repeat)}
    print(f"{'figure':48s} {'riskstats s':>12s} {'reference s':>12s} {'ratio':>7s}")
    for name, seconds in ours.items():
        ref = theirs.get(name.split()[0])
        ratio = f"{ref / seconds:7.2f}" if ref else "      -"
        print(f"{name:48s} {seconds:12.5f} {ref or float('nan'):12.5f} {ratio}")

    print(f"\n{'Balanced Blitz beside true random':48s} {'true rand. s':>12s} {'balanced s':>12s} {'ratio':>7s}")
    for name, f in (("battle_odds", battle_odds), ("win_table", win_table)):
        true = best_of(args.repeat, f, n, n)
        balanced = best_of(args.repeat, lambda a, d, f=f: f(a, d, balance="blitz"), n, n)
        print(f"{name + f' {n} v {n}':48s} {true:12.5f} {balanced:12.5f} {balanced / true:7.2f}")

    command = shutil.which("riskstats") or str(Path(sys.executable).with_name("riskstats"))
    if Path(command).exists():
        subprocess.run([command, "odds", "10", "5"], capture_output=True, check=True)  # warm the cache
        start = time.perf_counter()
        subprocess.run([command, "odds", "10", "5"], capture_output=True, check=True)
        print(f"{'riskstats odds 10 5 (whole process)':48s} {time.perf_counter() - start:12.3f}")


if __name__ == "__main__":
    main()
