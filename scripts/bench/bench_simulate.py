"""Benchmark the simulators beside the shared reference kernel, run in the same session.

    python scripts/bench/bench_simulate.py                 # 10 v 10, 20 M battles per timing
    python scripts/bench/bench_simulate.py --trials 5e6

Prints battles per second for 10 v 10 on one thread and on all cores, dice-level rounds per second,
and ``reference.py mc 10 10 2000000`` (xoshiro256**, one core), with the ratios. Each figure is the
best of three runs; compilation is cached and excluded (the simulators time their kernels only).
"""
import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numba

from riskstats.odds.simulate import roll_dice, simulate_battles

REFERENCE = Path(__file__).resolve().parents[3] / "shared/bench/reference.py"


def reference_rate() -> float:
    run = subprocess.run([sys.executable, str(REFERENCE), "mc", "10", "10", "2000000"],
                         capture_output=True, text=True, check=True)
    return json.loads(run.stdout.strip().splitlines()[-1])["battles_per_second"]


def battle_rate(trials: int) -> tuple[float, float]:
    """Best battles per second of three runs, and the CPU seconds per wall second of that run.

    The second figure shows how many cores the run really had: below the thread count, something
    else on the machine was competing for them.
    """
    best = (0.0, 0.0)
    for seed in range(3):
        cpu = time.process_time()
        sample = simulate_battles(10, 10, trials=trials, seed=seed)
        best = max(best, (sample.battles_per_second, (time.process_time() - cpu) / sample.seconds))
    return best


def dice_rate(rounds: int) -> float:
    best = 0.0
    for seed in range(3):
        start = time.perf_counter()
        roll_dice(rounds, 3, 2, seed=seed)
        best = max(best, rounds / (time.perf_counter() - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", default="2e7", help="battles per timing (default 2e7)")
    trials = int(float(parser.parse_args().trials))
    rounds = max(trials // 4, 1)

    simulate_battles(10, 10, trials=1000, seed=0)  # load (or compile) the kernels
    roll_dice(1000, seed=0)
    cores = numba.get_num_threads()
    reference = reference_rate()
    many, busy = battle_rate(trials)  # all cores first: some threading layers keep a pool shrunk by set_num_threads
    dice_many = dice_rate(rounds)
    numba.set_num_threads(1)
    one, _ = battle_rate(trials)
    dice_one = dice_rate(rounds)
    numba.set_num_threads(cores)
    reference_after = reference_rate()
    reference = max(reference, reference_after)

    rows = [
        ("reference mc 10 v 10, 1 thread (battles/s)", reference, 1.0),
        ("simulate_battles 10 v 10, 1 thread (battles/s)", one, one / reference),
        (f"simulate_battles 10 v 10, {cores} threads (battles/s)", many, many / reference),
        ("roll_dice 3 v 2, 1 thread (rounds/s)", dice_one, None),
        (f"roll_dice 3 v 2, {cores} threads (rounds/s)", dice_many, None),
    ]
    width = max(len(r[0]) for r in rows)
    for label, rate, ratio in rows:
        print(f"{label:<{width}}  {rate / 1e6:8.2f} M" + (f"   {ratio:5.2f}x reference" if ratio else ""))
    print(f"{'scaling on ' + str(cores) + ' threads (battles)':<{width}}  {many / one:8.2f}x")
    print(f"{'scaling on ' + str(cores) + ' threads (dice)':<{width}}  {dice_many / dice_one:8.2f}x")
    print(f"{'cores busy during the ' + str(cores) + '-thread battle run':<{width}}  {busy:8.2f}")
    print(json.dumps({"reference": reference, "battles_1_thread": one, "battles_all_threads": many,
                      "threads": cores, "cores_busy": busy, "dice_1_thread": dice_one, "dice_all_threads": dice_many}))


if __name__ == "__main__":
    main()
