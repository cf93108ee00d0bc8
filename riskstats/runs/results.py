"""Self-play results on disk: the one module that reads and writes run files and report outputs.

A run directory holds ``_run.json`` (the run's full configuration: rules, bots and their parameters,
seed, riskstats version) and one Parquet part file per finished chunk, ``part-<first>-<stop>.parquet``
holding games ``first .. stop - 1``; every part carries the same configuration as Parquet key-value
metadata (key ``riskstats``). Each part is written to a temporary file and renamed into place, so a
killed run leaves only whole parts, and resuming plays exactly the games no part holds. A run written
to one ``.parquet`` (or ``.csv``) file keeps its parts in ``<file>.parts/`` and combines them into the
file once every game is played. A CSV has no room for metadata, so a finished ``.csv`` run keeps its
configuration beside it in ``<file>.json`` (the manifest, e.g. ``games.csv.json``): a rerun finds the
run complete, and `read_results` returns the record as for Parquet.

>>> import tempfile, pathlib
>>> from riskstats.runs.tournament import RunConfig, run_selfplay
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> config = RunConfig(games=5, players=3, bots=("aggressive",), chunk_size=2)
>>> len(run_selfplay(config, folder / "run"))
5
>>> sorted(p.name for p in (folder / "run").iterdir())
['_run.json', 'part-000000000000-000000000002.parquet', 'part-000000000002-000000000004.parquet', \
'part-000000000004-000000000005.parquet']
>>> read_results(folder / "run").attrs["run"]["games"]
5
"""
from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

from riskstats.errors import RiskstatsError

MANIFEST = "_run.json"
META_KEY = b"riskstats"
PART = re.compile(r"^part-(\d{12})-(\d{12})\.parquet$")
REQUIRED = ("players", "bots", "winner", "winner_bot", "turns", "truncated")
"""Columns a results table needs for `riskstats.stats.report`."""
RUN_FILES = (MANIFEST, "experiment.json")
"""Files that mark a directory as a run's or an experiment's results (reports are never written there)."""
ROW_GROUP = 10_000
"""Games per Parquet row group of a combined results file."""


def _atomic_write(path: Path, write) -> None:
    """Call ``write(temporary_path)`` and rename the result onto ``path``."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def _arrow_table(table, record: dict):
    import pyarrow as pa

    arrow = pa.Table.from_pandas(table, preserve_index=False)
    meta = dict(arrow.schema.metadata or {})
    meta[META_KEY] = json.dumps(record).encode()
    return arrow.replace_schema_metadata(meta)


def _differences(old: dict, new: dict) -> list[str]:
    keys = sorted(set(old) | set(new))
    return [f"{k}: stored {old.get(k)!r}, asked {new.get(k)!r}" for k in keys if old.get(k) != new.get(k)]


class RunStore:
    """The part files of one run in a directory; made by `open_run`."""

    def __init__(self, folder: Path, record: dict, target: Path | None):
        self.folder, self.record, self.target = folder, record, target

    @property
    def complete(self) -> bool:
        """Whether the run was written to its single file and finished."""
        return self.target is not None and self.target.exists() and not self.folder.exists()

    def done_ranges(self) -> list[tuple[int, int]]:
        """The game ranges ``[first, stop)`` of the parts already written."""
        if not self.folder.exists():
            return []
        return sorted((int(m[1]), int(m[2])) for m in map(PART.match, os.listdir(self.folder)) if m)

    def write_part(self, start: int, stop: int, table) -> None:
        """Write one finished chunk atomically."""
        import pyarrow.parquet as pq

        self.folder.mkdir(parents=True, exist_ok=True)
        arrow = _arrow_table(table, self.record)
        _atomic_write(self.folder / f"part-{start:012d}-{stop:012d}.parquet", lambda p: pq.write_table(arrow, p))

    def read(self):
        return read_results(self.target if self.complete else self.folder)

    def finish(self, load: bool = True):
        """Check every game is there; combine the parts into the single file if one was asked for, one
        part at a time; return the table (None if not ``load``)."""
        games = self.record["games"]
        have = sum(stop - start for start, stop in self.done_ranges())
        if have != games:
            raise RiskstatsError(f"run in {self.folder} holds {have} of {games} games")
        table = read_results(self.folder) if load else None
        if self.target is None:
            return table
        parts = _part_files(self.folder)
        if self.target.suffix == ".csv":
            _atomic_write(_sidecar(self.target), lambda p: p.write_text(json.dumps(self.record, indent=2)))
            _atomic_write(self.target, lambda p: _combine_csv(parts, p))
        else:
            _atomic_write(self.target, lambda p: _combine_parquet(parts, p))
        shutil.rmtree(self.folder)
        return table


def _part_files(folder: Path) -> list[Path]:
    """The part files of a run directory in game order."""
    return sorted(p for p in folder.iterdir() if PART.match(p.name))


def _combine_parquet(parts: list[Path], path: Path) -> None:
    """Copy the parts' rows, in order, into one Parquet file (their schema and metadata included), in row
    groups of about `ROW_GROUP` games: memory holds one row group and the file's footer (a few KB per
    row group)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    with pq.ParquetWriter(path, pq.read_schema(parts[0])) as writer:
        group, rows = [], 0
        for i, part in enumerate(parts):
            group.append(pq.read_table(part))
            rows += group[-1].num_rows
            if rows >= ROW_GROUP or i == len(parts) - 1:
                writer.write_table(pa.concat_tables(group), row_group_size=rows)
                group, rows = [], 0


def _combine_csv(parts: list[Path], path: Path) -> None:
    """Write the parts' rows, in order, as one CSV file with one header."""
    import pyarrow.parquet as pq

    for i, part in enumerate(parts):
        pq.read_table(part).to_pandas().to_csv(path, index=False, mode="w" if i == 0 else "a", header=i == 0)


def open_run(out, record: dict) -> RunStore:
    """Open (or start) the run stored at ``out`` for the configuration ``record``.

    A run already there with another configuration is an error naming the differences; stale temporary
    files of a killed run are removed.
    """
    out = Path(out)
    target = out if out.suffix in (".parquet", ".csv") else None
    folder = out.with_name(out.name + ".parts") if target is not None else out
    if target is not None and target.exists() and not folder.exists():
        stored = _file_record(target)
        if stored is not None and not _differences(_comparable(stored), _comparable(record)):
            return RunStore(folder, record, target)
        raise RiskstatsError(f"{target} already exists and is not this run's results; "
                             "remove it or choose another --out")
    if folder.exists() and not folder.is_dir():
        raise RiskstatsError(f"--out {folder} exists and is not a directory")
    manifest = folder / MANIFEST
    if folder.exists() and any(folder.iterdir()):
        if not manifest.exists():
            raise RiskstatsError(f"{folder} is not empty and holds no riskstats run ({MANIFEST} missing)")
        stored = _read_manifest(manifest)
        diffs = _differences(_comparable(stored), _comparable(record))
        if diffs:
            raise RiskstatsError(f"{folder} holds a different run; " + "; ".join(diffs))
        for stale in folder.glob(".*.tmp-*"):
            stale.unlink()
    else:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            _atomic_write(manifest, lambda p: p.write_text(json.dumps(record, indent=2)))
        except OSError as error:
            raise RiskstatsError(f"cannot write the run to {out}: {error.strerror}") from None
    return RunStore(folder, record, target)


def _sidecar(path: Path) -> Path:
    """The manifest kept beside a finished ``.csv`` run (``games.csv`` -> ``games.csv.json``)."""
    return path.with_name(path.name + ".json")


def _file_record(path: Path) -> dict | None:
    """The run record of a single results file: Parquet metadata, or a CSV's manifest (None if absent)."""
    if path.suffix == ".csv":
        sidecar = _sidecar(path)
        return _read_manifest(sidecar) if sidecar.exists() else None
    return _stored_record(path)


def _comparable(record: dict) -> dict:
    return dict(record)


def read_toml(path, what: str = "file") -> dict:
    """Read a TOML document (experiment files); a missing or malformed file is a `RiskstatsError`."""
    import tomllib

    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except OSError as error:
        raise RiskstatsError(f"cannot read {what} {path}: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise RiskstatsError(f"{what} {path} is not valid TOML: {error}") from None


def read_json(path) -> dict:
    """Read a JSON document (run and experiment manifests)."""
    return _read_manifest(Path(path))


def _read_manifest(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise RiskstatsError(f"cannot read {path}: {error}") from None


def _stored_record(path: Path) -> dict | None:
    import pyarrow.parquet as pq

    try:
        meta = pq.read_schema(path).metadata or {}
    except Exception as error:  # pyarrow raises several types for unreadable files
        raise RiskstatsError(f"cannot read {path} as Parquet: {error}") from None
    return json.loads(meta[META_KEY]) if META_KEY in meta else None


def read_results(path):
    """The games of a run directory, a results ``.parquet`` file or a ``.csv`` with the self-play columns.

    Returns the table in game order with ``attrs["run"]`` holding the stored configuration (for a CSV,
    its ``<file>.json`` manifest, None if it has none). A foreign or unreadable file is a `RiskstatsError`.
    """
    import pandas as pd
    import pyarrow.parquet as pq

    path = Path(path)
    if not path.exists():
        raise RiskstatsError(f"no results at {path}")
    record = None
    if path.is_dir():
        manifest = path / MANIFEST
        if not manifest.exists():
            raise RiskstatsError(f"{path} holds no riskstats run ({MANIFEST} missing)")
        record = _read_manifest(manifest)
        parts = _part_files(path)
        if not parts:
            raise RiskstatsError(f"{path} holds no finished games yet")
        for part in parts:
            stored = _stored_record(part)
            if stored != record:
                raise RiskstatsError(f"{part} was not written by the run in {path}")
        table = pd.concat([pq.read_table(p).to_pandas() for p in parts], ignore_index=True)
    elif path.suffix == ".csv":
        try:
            table = pd.read_csv(path)
        except Exception as error:
            raise RiskstatsError(f"cannot read {path} as CSV: {error}") from None
        record = _file_record(path)
    else:
        record = _stored_record(path)
        if record is None:
            raise RiskstatsError(f"{path} is not a riskstats results file (no riskstats metadata)")
        table = pq.read_table(path).to_pandas()
    missing = [c for c in REQUIRED if c not in table.columns]
    if missing:
        raise RiskstatsError(f"{path} is not a self-play results table (missing columns {', '.join(missing)})")
    if "game" in table.columns:
        table = table.sort_values("game", ignore_index=True)
    table.attrs["run"] = record
    return table


def write_json(payload: dict, path) -> None:
    """Write a JSON document atomically (experiment manifests)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    _atomic_write(path, lambda p: p.write_text(json.dumps(payload, indent=2)))


def database_url(url: str) -> str:
    """A database URL (a tuning study's storage) ready to open: for a SQLite file, its folder is made if
    missing (SQLite makes only the file itself).

    >>> database_url("postgresql://host/db")
    'postgresql://host/db'
    """
    if not isinstance(url, str) or "://" not in url:
        raise RiskstatsError(f"storage must be a database URL like sqlite:///runs/tune.db, got {url!r}")
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        Path(url[len("sqlite:///"):]).expanduser().parent.mkdir(parents=True, exist_ok=True)
    return url


def write_files(folder, tables: dict, figures: dict) -> list[Path]:
    """Write DataFrames as ``<name>.csv`` and matplotlib figures as ``<name>.png`` into ``folder`` (each
    figure is closed once saved); return the paths, tables first.

    ``folder`` may be new or an existing directory, but not a file nor a directory holding a run's or an
    experiment's results; a path that cannot be written is a `RiskstatsError`.
    """
    import matplotlib.pyplot as plt

    folder = Path(folder)
    try:
        if folder.exists() and not folder.is_dir():
            raise RiskstatsError(f"--out {folder} exists and is not a directory")
        if folder.is_dir() and any(name in RUN_FILES or PART.match(name) for name in os.listdir(folder)):
            raise RiskstatsError(f"--out {folder} holds a run's results; choose another directory for the report")
        folder.mkdir(parents=True, exist_ok=True)
        written = []
        for name, frame in tables.items():
            path = folder / f"{name}.csv"
            frame.to_csv(path, index=False)
            written.append(path)
        for name, figure in figures.items():
            path = folder / f"{name}.png"
            figure.savefig(path, dpi=100, bbox_inches="tight")
            written.append(path)
    except OSError as error:
        raise RiskstatsError(f"cannot write to {folder}: {error.strerror or error}") from None
    finally:
        for figure in figures.values():
            plt.close(figure)
    return written
