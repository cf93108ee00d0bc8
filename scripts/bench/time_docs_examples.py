"""Time the python examples of docs/environments.md as a reader runs them: each in a fresh Python process.

``python scripts/bench/time_docs_examples.py [--only TEXT ...] [--cold] --out data/env/docs_examples.csv``

Each example (a ```python block of the page, named by its first line that is no import) runs as a script in a new
process, so its time includes Python's start and the imports. Warm: numba's cache as it is (every kernel compiled
before). ``--cold``: ``NUMBA_CACHE_DIR`` set to an empty folder for the run, so every kernel the example needs
compiles first, as on a fresh machine. ``--only`` keeps the examples whose code holds one of the texts. A row per
run, appended to ``--out``: the example, warm or cold, wall and CPU seconds (the child's user + system time), the
load average before and after, the date, and whether what it printed is the page's ``text`` block under it.
"""
import argparse
import csv
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "environments.md"


def examples() -> list[tuple[str, str, str | None]]:
    """(name, code, the text block under it or None) of each python block of the page."""
    found = re.findall(r"```python\n(.*?)\n```(\n\n```text\n(.*?)\n```)?", PAGE.read_text(), flags=re.S)
    out = []
    for code, block, shown in found:
        name = next(line for line in code.splitlines() if line and not line.startswith(("import", "from")))
        out.append((name.split("  #")[0].strip(), code, shown if block else None))
    return out


def load() -> str:
    """The 1-minute load average."""
    return f"{os.getloadavg()[0]:.2f}"


def run(code: str, cold: bool) -> tuple[float, float, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as cache:
        if cold:
            env["NUMBA_CACHE_DIR"] = cache
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--cold", action="store_true")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    out = Path(args.out)
    new = not out.exists()
    with out.open("a", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        if new:
            w.writerow(["example", "cache", "wall_s", "cpu_s", "load_start", "load_end", "started_utc",
                        "prints_the_page"])
        for name, code, shown in examples():
            if args.only and not any(text in code for text in args.only):
                continue
            started, load0 = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), load()
            wall, cpu, printed = run(code, args.cold)
            same = "" if shown is None else str(printed.rstrip("\n") == shown)
            w.writerow([name, "cold" if args.cold else "warm", f"{wall:.1f}", f"{cpu:.1f}", load0, load(), started,
                        same])
            f.flush()
            print(f"{name}: {'cold' if args.cold else 'warm'} {wall:.1f} s wall, {cpu:.1f} CPU s", flush=True)


if __name__ == "__main__":
    main()
