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
WRITERS = ("02", "03", "04", "07", "06")
"""The notebooks that write data/robustness/, in the order they must run (06 judges the others' rows and writes
verdicts.csv; tests/test_notebooks.py reruns them in this order)."""
ORDER = (*WRITERS, "08")
"""Those, then 08, which reads the verdicts."""


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def notebook_path(number: str) -> Path:
    [path] = sorted((ROOT / "notebooks").glob(f"{number}_*.ipynb"))
    return path


def executed(path: Path, overrides: dict | None = None, timeout: int | None = None):
    """The notebook at ``path`` executed from its own folder (as Jupyter does: notebooks find data/ from the working
    directory), with ``overrides`` appended to its cell tagged "parameters"; ``timeout`` per cell (None: none)."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    if overrides:
        [parameters] = [c for c in notebook.cells if "parameters" in c.metadata.get("tags", [])]
        parameters.source += "".join(f"\n{name} = {value!r}" for name, value in overrides.items())
    NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    return notebook


def execute(number: str) -> None:
    """Execute notebook ``number`` in place, with no timeout per cell; saved only if no cell failed."""
    import nbformat

    path = notebook_path(number)
    began, cpu = time.perf_counter(), children_cpu()
    notebook = executed(path)
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
