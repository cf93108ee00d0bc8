"""Where the notebooks' data lives: the repository's ``data/`` folder, found from any working directory.

This module owns `repository_root`, `data_dir` and `shown_path`, so that a notebook writes and reads the same files
whether Jupyter was started in ``notebooks/``, at the repository root or anywhere else. It reads and
writes no file itself.
"""
from __future__ import annotations

from pathlib import Path

from riskstats.errors import RiskstatsError

MARKER = "pyproject.toml"
"""The file that marks the repository's root."""


def repository_root(start=None) -> Path:
    """The nearest folder holding ``pyproject.toml``: from ``start`` (default: the working directory)
    upwards, else above the installed package (a source checkout).

    >>> (repository_root() / "pyproject.toml").exists()
    True
    """
    here = Path(start or Path.cwd()).resolve()
    package = Path(__file__).resolve().parents[2]
    for folder in [here, *here.parents, package]:
        if (folder / MARKER).is_file():
            return folder
    raise RiskstatsError(f"no {MARKER} in {here} or above it, nor above riskstats at {package}: "
                         "run from the repository, or give the data folder yourself")


def data_dir(start=None) -> Path:
    """The repository's ``data/`` folder (see `repository_root`; it may not exist yet).

    >>> data_dir().name
    'data'
    """
    return repository_root(start) / "data"


def shown_path(path, start=None) -> str:
    """``path`` as a notebook prints it: relative to the repository's root (`repository_root`) when it lies
    inside it, so that a committed output names no folder of the machine it ran on; as given otherwise.

    >>> shown_path(data_dir() / "robustness")
    'data/robustness'
    >>> shown_path("/elsewhere/data")
    '/elsewhere/data'
    """
    try:
        return Path(path).resolve().relative_to(repository_root(start)).as_posix()
    except ValueError:
        return str(path)
