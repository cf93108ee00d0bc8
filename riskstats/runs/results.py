"""Self-play results on disk: the one module that reads and writes run files and report outputs.

A run directory holds ``_run.json`` (the run's full configuration: rules, bots and their parameters,
seed, riskstats version) and one Parquet part file per finished chunk, ``part-<first>-<stop>.parquet``
holding games ``first .. stop - 1``; every part carries the same configuration as Parquet key-value
metadata (key ``riskstats``). Each part is written to a temporary file and renamed into place, so a
killed run leaves only whole parts, and resuming plays exactly the games no part holds; asking a run directory
for more games and nothing else different grows it (`grows`: only the new games are played). A run written
to one ``.parquet`` (or ``.csv``) file keeps its parts in ``<file>.parts/`` and combines them into the
file once every game is played. A CSV has no room for metadata, so a finished ``.csv`` run keeps its
configuration beside it in ``<file>.json`` (the manifest, e.g. ``games.csv.json``): a rerun finds the
run complete, and `read_results` returns the record as for Parquet.

A run may live on any filesystem fsspec knows: ``out`` is a local path or a URL (``s3://bucket/run``,
``gs://…``, ``file://…``; the protocol's fsspec package must be installed). Every read and write of a
run goes through that filesystem, so a Dask worker with the same URL (or a shared directory mounted at
the same absolute path) writes its chunks straight into the run (`riskstats.runs.distributed`). A part
is written under a temporary name and moved onto its final name (an atomic rename on a local disk; on
an object store the object appears whole); a part already there is not written again, so a chunk that
Dask re-runs after losing a worker ends up written exactly once.

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
import posixpath
import re
import uuid
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


def _filesystem(out):
    """``(fsspec filesystem, absolute path)`` of a local path or a URL."""
    from fsspec.core import url_to_fs

    try:
        return url_to_fs(str(out))
    except (ImportError, ValueError) as error:  # an unknown protocol, or its package missing
        raise RiskstatsError(f"cannot open {out}: {error}") from None


def _atomic_write(path, write, fs=None) -> None:
    """Call ``write(binary_handle)`` on a temporary file beside ``path`` and move it onto ``path``."""
    if fs is None:
        fs, path = _filesystem(path)
    folder, name = posixpath.split(path)
    tmp = posixpath.join(folder, f".{name}.tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    try:
        with fs.open(tmp, "wb") as handle:
            write(handle)
        fs.mv(tmp, path)
    finally:
        if fs.exists(tmp):
            fs.rm(tmp)


def _is_stale(name: str) -> bool:
    """Whether a file name is a temporary file of `_atomic_write`."""
    return name.startswith(".") and ".tmp-" in name


def _arrow_table(table, record: dict):
    import pyarrow as pa

    arrow = pa.Table.from_pandas(table, preserve_index=False)
    meta = dict(arrow.schema.metadata or {})
    meta[META_KEY] = json.dumps(record).encode()
    return arrow.replace_schema_metadata(meta)


FIELD_ORDER = ("players", "seed", "games", "variant", "bots", "board", "seed_scheme", "rules", "bot_params",
               "riskstats_version")
"""The order a run's differing fields are named in: the settings a user gives first, derived ones last."""
SHOWN = 4
"""The most differences named one by one; the rest are counted."""
LONG = 40
"""A value's text is cut to this many characters (an ellipsis ends it)."""


def _differences(old: dict, new: dict) -> list[str]:
    """The fields of two run records that differ, ``name: stored X, asked Y``, the settings a user gives
    first (`FIELD_ORDER`); rule options and bot parameters are named one by one, long values cut short.

    >>> _differences({"players": 4, "seed": 3, "bots": ["a"]}, {"players": 3, "seed": 0, "bots": ["a"]})
    ['players: stored 4, asked 3', 'seed: stored 3, asked 0']
    """
    keys = [k for k in FIELD_ORDER if k in old or k in new] + sorted((set(old) | set(new)) - set(FIELD_ORDER))
    out = []
    for key in keys:
        was, asked = old.get(key), new.get(key)
        if was == asked:
            continue
        if key == "rules" and isinstance(was, dict) and isinstance(asked, dict):
            out += [_difference(f"rules.{k}", was.get(k), asked.get(k)) for k in sorted(set(was) | set(asked))
                    if k != "variant" and was.get(k) != asked.get(k)]  # the variant is named on its own
        elif key == "bot_params" and isinstance(was, dict) and isinstance(asked, dict):
            out += _param_differences(was, asked)  # a bot only one run has: named by the bots' difference
        else:
            out.append(_difference(key, was, asked))
    return out


def _param_differences(old: dict, new: dict) -> list[str]:
    """The bot parameters that differ between two records' ``bot_params``, by name (``params.continent.threshold``)."""
    from riskstats.game.bots.catalog import bot_info, parse_bot

    out = []
    for label in [k for k in old if k in new and old[k] != new[k]]:
        try:
            names = [p.name for p in bot_info(parse_bot(label).name).params]
        except RiskstatsError:
            names = []
        was, asked = list(old[label]), list(new[label])
        if len(names) < max(len(was), len(asked)):
            out.append(_difference(f"params.{label}", was, asked))
            continue
        out += [_difference(f"params.{label}.{name}", a, b)
                for name, a, b in zip(names, was + [None] * len(names), asked + [None] * len(names)) if a != b]
    return out


def _difference(name: str, was, asked) -> str:
    return f"{name}: stored {_short(was)}, asked {_short(asked)}"


def _short(value) -> str:
    """A record value as a user reads it: a list comma-joined, a number short (``2`` for 2.0), none for a missing
    one, cut to `LONG` characters."""
    def plain(x):
        return f"{x:g}" if isinstance(x, float) else str(x)

    if value is None:
        text = "none"
    elif isinstance(value, list | tuple):
        text = ",".join(map(plain, value))
    else:
        text = plain(value)
    return text if len(text) <= LONG else text[:LONG - 1] + "…"


def _different_run(folder: str, diffs: list[str]) -> str:
    """The one-line error for a run folder recorded with other settings: the first `SHOWN` differences."""
    more = f"; and {len(diffs) - SHOWN} more" if len(diffs) > SHOWN else ""
    return (f"{folder} holds a different run: {'; '.join(diffs[:SHOWN])}{more} "
            "(ask for the stored settings to resume it, or choose another --out)")


class RunStore:
    """The part files of one run in a directory (on ``fs``, a local one by default); made by `open_run`.

    A store is small and picklable: a Dask task carries it to write its chunk where the run lives.
    """

    def __init__(self, folder, record: dict, target=None, fs=None):
        if fs is None:
            fs, folder = _filesystem(folder)
            target = None if target is None else _filesystem(target)[1]
        self.fs, self.folder, self.record, self.target = fs, str(folder), record, target

    @property
    def complete(self) -> bool:
        """Whether the run was written to its single file and finished."""
        return self.target is not None and self.fs.exists(self.target) and not self.fs.exists(self.folder)

    def _names(self) -> list[str]:
        self.fs.invalidate_cache(self.folder)  # listings of object stores are cached
        if not self.fs.isdir(self.folder):
            return []
        return [posixpath.basename(p.rstrip("/")) for p in self.fs.ls(self.folder, detail=False)]

    def done_ranges(self) -> list[tuple[int, int]]:
        """The game ranges ``[first, stop)`` of the parts already written."""
        return sorted((int(m[1]), int(m[2])) for m in map(PART.match, self._names()) if m)

    def write_part(self, start: int, stop: int, table) -> dict:
        """Write one finished chunk atomically, unless a part of that range is there already (an earlier
        try of the same chunk, with the same games); return the part's metadata (range, path, bytes)."""
        import pyarrow.parquet as pq

        path = posixpath.join(self.folder, f"part-{start:012d}-{stop:012d}.parquet")
        written = not self.fs.exists(path)
        if written:
            self.fs.makedirs(self.folder, exist_ok=True)
            arrow = _arrow_table(table, self.record)
            _atomic_write(path, lambda handle: pq.write_table(arrow, handle), self.fs)
        return {"start": start, "stop": stop, "path": path, "bytes": self.fs.size(path), "written": written}

    def read(self):
        return _read_results(self.fs, self.target if self.complete else self.folder)

    def finish(self, load: bool = True):
        """Check every game is there; combine the parts into the single file if one was asked for, one
        part at a time; return the table (None if not ``load``)."""
        games = self.record["games"]
        have = sum(stop - start for start, stop in self.done_ranges())
        if have != games:
            raise RiskstatsError(f"run in {self.folder} holds {have} of {games} games")
        for stale in filter(_is_stale, self._names()):  # left by a killed process or a lost Dask worker
            self.fs.rm(posixpath.join(self.folder, stale))
        table = _read_results(self.fs, self.folder) if load else None
        if self.target is None:
            return table
        parts = _part_files(self.fs, self.folder)
        if self.target.endswith(".csv"):
            _atomic_write(_sidecar(self.target), lambda h: h.write(json.dumps(self.record, indent=2).encode()),
                          self.fs)
            _atomic_write(self.target, lambda h: _combine_csv(self.fs, parts, h), self.fs)
        else:
            _atomic_write(self.target, lambda h: _combine_parquet(self.fs, parts, h), self.fs)
        self.fs.rm(self.folder, recursive=True)
        return table


def _part_files(fs, folder: str) -> list[str]:
    """The part files of a run directory in game order."""
    fs.invalidate_cache(folder)
    return sorted(p for p in fs.ls(folder, detail=False) if PART.match(posixpath.basename(p)))


def _combine_parquet(fs, parts: list[str], path) -> None:
    """Copy the parts' rows, in order, into one Parquet file (their schema and metadata included), in row
    groups of about `ROW_GROUP` games: memory holds one row group and the file's footer (a few KB per
    row group)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    with pq.ParquetWriter(path, pq.read_schema(parts[0], filesystem=fs)) as writer:
        group, rows = [], 0
        for i, part in enumerate(parts):
            group.append(pq.read_table(part, filesystem=fs))
            rows += group[-1].num_rows
            if rows >= ROW_GROUP or i == len(parts) - 1:
                writer.write_table(pa.concat_tables(group), row_group_size=rows)
                group, rows = [], 0


def _combine_csv(fs, parts: list[str], handle) -> None:
    """Write the parts' rows, in order, as one CSV file with one header (into a binary handle)."""
    import pyarrow.parquet as pq

    for i, part in enumerate(parts):
        pq.read_table(part, filesystem=fs).to_pandas().to_csv(handle, index=False, header=i == 0)


def open_run(out, record: dict) -> RunStore:
    """Open (or start) the run stored at ``out`` for the configuration ``record``.

    ``out`` is a local path or an fsspec URL. A run already there with another configuration is an error
    naming the differences; stale temporary files of a killed run are removed.
    """
    fs, out = _filesystem(out)
    target = out if posixpath.splitext(out)[1] in (".parquet", ".csv") else None
    folder = out + ".parts" if target is not None else out
    if target is not None and fs.exists(target) and not fs.exists(folder):
        stored = _file_record(fs, target)
        diffs = None if stored is None else _differences(_comparable(stored), _comparable(record))
        if diffs == []:
            return RunStore(folder, record, target, fs)
        if diffs:
            raise RiskstatsError(_different_run(target, diffs))
        raise RiskstatsError(f"{target} already exists and is not this run's results; "
                             "remove it or choose another --out")
    if fs.exists(folder) and not fs.isdir(folder):
        raise RiskstatsError(f"--out {folder} exists and is not a directory")
    store = RunStore(folder, record, target, fs)
    manifest = posixpath.join(folder, MANIFEST)
    names = store._names()
    if names:
        if MANIFEST not in names:
            raise RiskstatsError(f"{folder} is not empty and holds no riskstats run ({MANIFEST} missing)")
        stored = _read_manifest(fs, manifest)
        diffs = _differences(_comparable(stored), _comparable(record))
        if diffs and grows(stored, record):  # the parts so far are the first games of the larger run
            _atomic_write(manifest, lambda h: h.write(json.dumps(record, indent=2).encode()), fs)
        elif diffs:
            raise RiskstatsError(_different_run(folder, diffs))
        for stale in filter(_is_stale, names):
            fs.rm(posixpath.join(folder, stale))
    else:
        try:
            fs.makedirs(folder, exist_ok=True)
            _atomic_write(manifest, lambda h: h.write(json.dumps(record, indent=2).encode()), fs)
        except OSError as error:
            raise RiskstatsError(f"cannot write the run to {out}: {error.strerror or error}") from None
    return store


def grows(stored: dict, record: dict) -> bool:
    """Whether ``record`` asks for more games of the run ``stored`` and nothing else: a run directory then grows,
    keeping its parts (game g's seed and seating depend on g alone, never on the run's length, under either seed
    scheme, so its parts are the first games of the larger run). A finished single-file run does not grow."""
    return _same_but_games(stored, record) and record["games"] > stored["games"]


def _same_but_games(stored: dict, record: dict) -> bool:
    return {**_comparable(stored), "games": 0} == {**_comparable(record), "games": 0}


def stored_record(out) -> dict | None:
    """The configuration record of the run stored at ``out`` (its parts folder, or its finished file), or
    None if there is none yet."""
    fs, out = _filesystem(out)
    folder = out + ".parts" if posixpath.splitext(out)[1] in (".parquet", ".csv") else out
    if fs.exists(posixpath.join(folder, MANIFEST)):
        return _read_manifest(fs, posixpath.join(folder, MANIFEST))
    if posixpath.splitext(out)[1] in (".parquet", ".csv") and fs.isfile(out):
        return _file_record(fs, out)
    return None


def _sidecar(path: str) -> str:
    """The manifest kept beside a finished ``.csv`` run (``games.csv`` -> ``games.csv.json``)."""
    return path + ".json"


def _file_record(fs, path: str) -> dict | None:
    """The run record of a single results file: Parquet metadata, or a CSV's manifest (None if absent)."""
    if path.endswith(".csv"):
        sidecar = _sidecar(path)
        return _read_manifest(fs, sidecar) if fs.exists(sidecar) else None
    return _stored_record(fs, path)


def _comparable(record: dict) -> dict:
    return current_record(record)


def current_record(record: dict) -> dict:
    """A stored run record as this version writes it, for comparison on resume: scheme 1 where it records
    no seed scheme (runs recorded before schemes were versioned), rule options added since then with
    their defaults, and bot parameter vectors recorded before parameters were appended to a bot completed
    with those parameters' defaults (which reproduce the bot's old play)."""
    from riskstats.game.bots.catalog import parse_bot
    from riskstats.game.rules.options import GameRules

    record = {"seed_scheme": 1} | record
    rules = record.get("rules")
    if isinstance(rules, dict):
        try:
            defaults = GameRules(variant=rules.get("variant", record.get("variant", "classic"))).as_dict()
        except RiskstatsError:
            defaults = {}
        added = {k: v for k, v in json.loads(json.dumps(defaults, default=str)).items() if k not in rules}
        record["rules"] = rules | added
    params = record.get("bot_params")
    if isinstance(params, dict):
        completed = {}
        for label, values in params.items():
            try:
                full = parse_bot(label).values
            except RiskstatsError:
                full = ()
            if isinstance(values, list) and len(values) < len(full):
                values = values + list(full[len(values):])
            completed[label] = values
        record["bot_params"] = completed
    return record


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
    return _read_manifest(*_filesystem(path))


def _read_manifest(fs, path: str) -> dict:
    try:
        return json.loads(fs.cat_file(path))
    except (OSError, ValueError) as error:
        raise RiskstatsError(f"cannot read {path}: {error}") from None


def _stored_record(fs, path: str) -> dict | None:
    import pyarrow.parquet as pq

    try:
        meta = pq.read_schema(path, filesystem=fs).metadata or {}
    except Exception as error:  # pyarrow raises several types for unreadable files
        raise RiskstatsError(f"cannot read {path} as Parquet: {error}") from None
    return json.loads(meta[META_KEY]) if META_KEY in meta else None


def read_results(path):
    """The games of a run directory, a results ``.parquet`` file or a ``.csv`` with the self-play columns.

    ``path`` is a local path or an fsspec URL. Returns the table in game order with ``attrs["run"]``
    holding the stored configuration (for a CSV, its ``<file>.json`` manifest, None if it has none). A
    foreign or unreadable file is a `RiskstatsError`.
    """
    return _read_results(*_filesystem(path))


def _run_parts(fs, path: str):
    """(the run's record, its finished part files) of the run directory ``path``; a one-line error if it
    holds no run, no finished games, or a part another run wrote."""
    manifest = posixpath.join(path, MANIFEST)
    if not fs.exists(manifest):
        raise RiskstatsError(f"{path} holds no riskstats run ({MANIFEST} missing)")
    record = _read_manifest(fs, manifest)
    parts = _part_files(fs, path)
    if not parts:
        raise RiskstatsError(f"{path} holds no finished games yet")
    for part in parts:  # a part of a run that grew since carries the run's length then
        stored = _stored_record(fs, part)
        if stored is None or not _same_but_games(stored, record) or stored["games"] > record["games"]:
            raise RiskstatsError(f"{part} was not written by the run in {path}")
    return record, parts


def _read_results(fs, path: str):
    import pandas as pd
    import pyarrow.parquet as pq

    if not fs.exists(path):
        raise RiskstatsError(f"no results at {path}")
    record = None
    if fs.isdir(path):
        record, parts = _run_parts(fs, path)
        table = pd.concat([pq.read_table(p, filesystem=fs).to_pandas() for p in parts], ignore_index=True)
    elif path.endswith(".csv"):
        try:
            with fs.open(path, "rb") as handle:
                table = pd.read_csv(handle)
        except Exception as error:
            raise RiskstatsError(f"cannot read {path} as CSV: {error}") from None
        record = _file_record(fs, path)
    else:
        record = _stored_record(fs, path)
        if record is None:
            raise RiskstatsError(f"{path} is not a riskstats results file (no riskstats metadata)")
        table = pq.read_table(path, filesystem=fs).to_pandas()
    missing = [c for c in REQUIRED if c not in table.columns]
    if missing:
        raise RiskstatsError(f"{path} is not a self-play results table (missing columns {', '.join(missing)})")
    if "game" in table.columns:
        table = table.sort_values("game", ignore_index=True)
    table.attrs["run"] = record
    return table


def iter_results(path, columns=None):
    """The games of a run (as `read_results` reads them) one piece at a time, in game order: a run
    directory part by part, a ``.parquet`` file row group by row group (`ROW_GROUP` games), a ``.csv``
    in pieces of `ROW_GROUP` rows. Memory holds one piece, however many games the run has.

    ``columns``: read only these (default: all). Each piece is a DataFrame; the checks are
    `read_results`' (a foreign file, or a part of another run, is a `RiskstatsError`).
    """
    yield from _iter_results(*_filesystem(path), columns)


def _iter_results(fs, path: str, columns):
    import pandas as pd
    import pyarrow.parquet as pq

    if not fs.exists(path):
        raise RiskstatsError(f"no results at {path}")
    want = None if columns is None else list(dict.fromkeys(columns))

    def checked(table, where):
        missing = [c for c in (want if want is not None else REQUIRED) if c not in table.columns]
        if missing:
            raise RiskstatsError(f"{where} is not a self-play results table (missing columns {', '.join(missing)})")
        return table

    if fs.isdir(path):
        for part in _run_parts(fs, path)[1]:
            yield checked(pq.read_table(part, columns=want, filesystem=fs).to_pandas(), part)
    elif path.endswith(".csv"):
        try:
            with fs.open(path, "rb") as handle:
                for piece in pd.read_csv(handle, chunksize=ROW_GROUP, usecols=want):
                    yield checked(piece, path)
        except RiskstatsError:
            raise
        except Exception as error:
            raise RiskstatsError(f"cannot read {path} as CSV: {error}") from None
    else:
        if _stored_record(fs, path) is None:
            raise RiskstatsError(f"{path} is not a riskstats results file (no riskstats metadata)")
        with fs.open(path, "rb") as handle:
            parquet = pq.ParquetFile(handle)
            for group in range(parquet.num_row_groups):
                yield checked(parquet.read_row_group(group, columns=want).to_pandas(), path)


def write_json(payload: dict, path) -> None:
    """Write a JSON document atomically (experiment manifests); a path that cannot be written is a
    `RiskstatsError`."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _atomic_write(path, lambda h: h.write(json.dumps(payload, indent=2).encode()))
    except OSError as error:
        raise RiskstatsError(f"cannot write {path}: {error.strerror or error}") from None


def database_url(url: str) -> str:
    """A database URL (a tuning study's storage) ready to open: for a SQLite file, its folder is made if
    missing (SQLite makes only the file itself).

    >>> database_url("postgresql://host/db")
    'postgresql://host/db'
    """
    if not isinstance(url, str) or "://" not in url:
        raise RiskstatsError(f"storage must be a database URL like sqlite:///runs/tune.db, got {url!r}")
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        folder = Path(url[len("sqlite:///"):]).expanduser().parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise RiskstatsError(f"cannot make the folder of storage {url!r}: {error.strerror or error}") from None
    return url


def write_table(frame, path, float_format: str | None = None) -> Path:
    """Write one DataFrame as CSV to ``path`` atomically (a temporary file beside it, then renamed), so that a run
    interrupted while writing keeps the table it wrote last; return the path. ``float_format`` as pandas'.

    >>> import tempfile
    >>> import pandas as pd
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = write_table(pd.DataFrame({"x": [1 / 3]}), Path(folder) / "t.csv", float_format="%.3g")
    ...     path.read_text().split()
    ['x', '0.333']
    """
    path = Path(path)
    tmp = path.with_suffix(path.suffix + ".tmp")
    try:
        frame.to_csv(tmp, index=False, float_format=float_format)
        tmp.replace(path)
    except OSError as error:
        raise RiskstatsError(f"cannot write {path}: {error.strerror or error}") from None
    return path


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
