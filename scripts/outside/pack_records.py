"""Pack the outside match's per-game records (``*.jsonl.gz``, ``*.jsonl``) into ``*.jsonl.xz``: the same JSON
lines at about half gzip's size, each file checked to read back to the same records before its original goes
(`riskstats.analysis.outside_records.pack_records`). Every table and summary reads the packed files as before.

    python scripts/outside/pack_records.py data/outside          # every records file under data/outside
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from riskstats.analysis.outside_records import SUFFIXES, pack_records


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path, help="folders searched (recursively) for records files")
    args = parser.parse_args(argv)
    for folder in args.folders:
        if not folder.is_dir():
            parser.error(f"not a folder: {folder}")
    before = after = 0
    for folder in args.folders:
        for path in sorted(p for suffix in SUFFIXES[1:] for p in folder.rglob(f"*{suffix}")):
            size = path.stat().st_size
            packed = pack_records(path)
            before, after = before + size, after + packed.stat().st_size
            print(f"{path}: {size / 1e6:.2f} MB -> {packed.name} {packed.stat().st_size / 1e6:.2f} MB", flush=True)
    print(f"packed: {before / 1e6:.1f} MB -> {after / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
