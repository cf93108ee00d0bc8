"""Make data/robustness/: execute the notebooks that write it, in place, with their committed parameters.

    python scripts/make/robustness.py                 # 02, 03, 04, 07, 06, then 08 (reads what they wrote)
    python scripts/make/robustness.py 02 08           # only these, in this order

Each notebook writes its rows (``data/robustness/<NN>.csv``, with the adjusted columns of every file); 06 rebuilds
``verdicts.csv`` and ``tiers.csv`` from the committed per-game tables, so it runs after the others, and 08, which
reads the verdicts, last. The notebooks are saved executed (their outputs are the committed ones). Each one's
wall and CPU time is printed on stderr. tests/test_notebooks.py checks that what a notebook writes from the
committed per-game files equals the committed rows.
"""
from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ORDER = ("02", "03", "04", "07", "06", "08")
"""The notebooks that write or read data/robustness/, in the order they must run."""


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def execute(number: str) -> None:
    """Execute notebook ``number`` in place from its own folder (as Jupyter does), with no timeout per cell."""
    import nbformat
    from nbclient import NotebookClient

    [path] = sorted((ROOT / "notebooks").glob(f"{number}_*.ipynb"))
    notebook = nbformat.read(path, as_version=4)
    began, cpu = time.perf_counter(), children_cpu()
    NotebookClient(notebook, timeout=None, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    errors = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    if errors:
        sys.exit(f"error: {path.name} failed: {errors[0].get('ename')}: {errors[0].get('evalue')} (not saved)")
    nbformat.write(notebook, path)
    print(f"{path.name}: {time.perf_counter() - began:,.0f} s wall, {children_cpu() - cpu:,.0f} CPU s",
          file=sys.stderr, flush=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", default=list(ORDER), help="notebook numbers (default: all, in order)")
    args = parser.parse_args(argv)
    bad = [n for n in args.notebooks if n not in ORDER]
    if bad:
        sys.exit(f"error: no robustness notebook {bad[0]!r}: one of {', '.join(ORDER)}")
    for number in args.notebooks:
        execute(number)


if __name__ == "__main__":
    main()
