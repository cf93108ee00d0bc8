"""Benchmark: the first run of each command with a cold numba cache, beside the targets (issue #21 §4).

``python scripts/bench/bench_compile.py [--only NAME ...] [--warm] [--profile] [--after-compile]`` runs each
command in a fresh process whose ``NUMBA_CACHE_DIR`` is a new empty temporary folder, so every kernel it
uses is compiled (rows "cold"):

- ``selfplay``: ``riskstats selfplay --games 20 --players 4 --bots continent,aggressive,defensive,random``
  (target 30 s);
- ``evaluate``: ``riskstats evaluate`` on a two-player position one conquest from victory (target 45 s);
- ``game``: ``Game(4, seed=1).play(["aggressive", "continent", "defensive", "random"])`` in Python
  (target 20 s).

Each row gives the wall time, the child's CPU time (user + sys, which other processes on a shared machine
disturb less than the wall time) and the load average before it starts (``/proc/loadavg``); the targets are
for a quiet machine of 2 cores. ``--warm`` runs each command a second time on the cache the first run left
(the time a later run takes, rows "warm"). ``--after-compile`` first runs ``riskstats compile`` into a fresh
cache folder (row "compile"), then each command on it (rows "after": a first run after the install
command's warm-up). ``--profile`` also records, for each command, the seconds spent compiling
each kernel (inclusive: a caller's time contains its callees'), from numba's ``numba:compile`` events,
and prints the ten largest. Run from the repository root (it puts the root on ``PYTHONPATH``).
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

POSITION = {
    "players": 2, "rules": {"variant": "two-player", "two_player_classic_50": True, "max_turns": 9},
    "seed": 3, "phase": "attack", "player": 0, "turn": 9, "round": 5, "hands": [[], []],
}
"""The evaluate command's position (tests/game/test_evaluate.py's one conquest from victory): player 0 holds
every territory but Kamchatka (player 1, 2 armies), which only Alaska (6 armies) can attack."""

GAME = ("from riskstats.game.play import Game; "
        "Game(4, seed=1).play(['aggressive', 'continent', 'defensive', 'random'])")

COMMANDS = {
    "selfplay": (["-m", "riskstats", "selfplay", "--games", "20", "--players", "4", "--bots",
                  "continent,aggressive,defensive,random", "--seed", "1", "--json"], 30.0),
    "evaluate": (["-m", "riskstats", "evaluate", "{position}", "--rollouts", "200", "--seed", "1", "--json"], 45.0),
    "game": (["-c", GAME], 20.0),
}
"""name -> (the Python arguments of the command, its target in seconds with a cold cache)."""

PROFILE = """
import atexit, json, os, sys, time
from numba.core import event
spans = []
class Spans(event.Listener):
    def on_start(self, e):
        self.start = getattr(self, "start", [])
        self.start.append(time.perf_counter())
    def on_end(self, e):
        f = e.data["dispatcher"].py_func
        spans.append((f.__module__ + "." + f.__qualname__, time.perf_counter() - self.start.pop()))
event.register("numba:compile", Spans())
atexit.register(lambda: open(os.environ["BENCH_PROFILE"], "w").write(json.dumps(spans)))
"""
"""Code run before the command with ``--profile``: each compile's (kernel, seconds), written at exit."""


def position_file(folder: Path) -> str:
    from riskstats.game.rules.board import classic_board

    territories = {name: [0, 1] for name in classic_board().territories}
    territories["Kamchatka"] = [1, 2]
    territories["Alaska"] = [0, 6]
    path = folder / "position.json"
    path.write_text(json.dumps({**POSITION, "territories": territories}))
    return str(path)


def run(args: list[str], cache: str, profile: str | None) -> tuple[float, float, int, str]:
    """(wall seconds, child CPU seconds, exit status, stderr's last line) of ``python args`` with the
    numba cache folder ``cache``."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(ROOT)}
    if profile:
        env["BENCH_PROFILE"] = profile
        if args[0] == "-m":
            args = ["-c", PROFILE + f"import runpy; sys.argv = {['riskstats', *args[2:]]!r}; "
                                    f"runpy.run_module('riskstats', run_name='__main__')"]
        else:
            args = ["-c", PROFILE + args[1]]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *args], env=env, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = done.stderr.strip().splitlines()
    return wall, cpu, done.returncode, lines[-1] if lines else ""


def top_kernels(path: str, n: int = 10) -> list[tuple[float, str]]:
    """The ``n`` kernels with the most compile seconds (summed over their compiles) in a profile file."""
    totals: dict[str, float] = {}
    for name, seconds in json.loads(Path(path).read_text()):
        totals[name] = totals.get(name, 0.0) + seconds
    return sorted(((s, name) for name, s in totals.items()), reverse=True)[:n]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", choices=list(COMMANDS), default=list(COMMANDS))
    parser.add_argument("--warm", action="store_true", help="also time a second run on the cache left")
    parser.add_argument("--profile", action="store_true", help="also record each kernel's compile time")
    parser.add_argument("--after-compile", action="store_true",
                        help="also run `riskstats compile` into a fresh cache, then each command on it")
    parser.add_argument("--skip-cold", action="store_true", help="no cold rows (with --after-compile)")
    parser.add_argument("--cache", help="with --after-compile: this numba cache folder, not a fresh one")
    options = parser.parse_args()
    print(f"{'command':<10} {'run':<7} {'wall s':>7} {'cpu s':>7} {'target s':>8}  {'load before':<16} result")
    with tempfile.TemporaryDirectory(prefix="bench_compile_") as tmp:
        folder = Path(tmp)
        position = position_file(folder)
        profiles = {}
        if options.after_compile:
            cache = options.cache or str(folder / "cache_compiled")
            load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
            wall, cpu, rc, last = run(["-m", "riskstats", "compile"], cache, None)
            status = "ok" if rc == 0 else f"FAILED ({rc}): {last}"
            print(f"{'compile':<10} {'cold':<7} {wall:7.1f} {cpu:7.1f} {'':>8}  {load:<16} {status}", flush=True)
            for name in options.only:
                args, target = COMMANDS[name]
                load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
                wall, cpu, rc, last = run([a.format(position=position) for a in args], cache, None)
                status = f"ok {'meets' if wall <= target else 'misses'}" if rc == 0 else f"FAILED ({rc}): {last}"
                print(f"{name:<10} {'after':<7} {wall:7.1f} {cpu:7.1f} {target:8.0f}  {load:<16} {status}", flush=True)
        for name in [] if options.skip_cold else options.only:
            args, target = COMMANDS[name]
            args = [a.format(position=position) for a in args]
            cache = str(folder / f"cache_{name}")
            for run_name in ("cold", "warm") if options.warm else ("cold",):
                load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
                profile = str(folder / f"{name}_{run_name}.json") if options.profile and run_name == "cold" else None
                wall, cpu, rc, last = run(args, cache, profile)
                verdict = ("meets" if wall <= target else "misses") if run_name == "cold" else ""
                shown = f"{target:8.0f}" if run_name == "cold" else " " * 8
                status = f"ok {verdict}" if rc == 0 else f"FAILED ({rc}): {last}"
                print(f"{name:<10} {run_name:<7} {wall:7.1f} {cpu:7.1f} {shown}  {load:<16} {status}", flush=True)
                if profile and os.path.exists(profile):
                    profiles[name] = profile
        for name, profile in profiles.items():
            print(f"\n{name}: compile seconds by kernel (inclusive, summed over its compiles)")
            for seconds, kernel in top_kernels(profile):
                print(f"  {seconds:7.1f}  {kernel}")
    print(f"\nload average after: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")


if __name__ == "__main__":
    main()
