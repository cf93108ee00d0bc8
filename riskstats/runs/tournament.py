"""Self-play at scale: a run of many games, played in chunks on all cores or a Dask cluster, resumable.

This module owns `RunConfig` (everything that decides a run's games, validated before any game is
played), the split of a run into chunks of fixed game ranges and `run_selfplay`, which plays the
chunks still missing and hands each finished chunk to `riskstats.runs.results` to write. It does not own the
game loop (`riskstats.runs.selfplay.play_games`, which plays one chunk), file formats (`riskstats.runs.results`)
or the cluster (`riskstats.runs.distributed`).

Determinism: game i's seed is ``game_seeds(seed, i + 1, i, seed_scheme)`` and its seats rotate by i, so
a chunk's rows depend only on the configuration and its game range, never on the chunk size, the number
of workers, the executor or on how often the run was interrupted and resumed. A run records its seed
scheme (`riskstats.runs.selfplay`); a run recorded without one is scheme 1 and resumes with it. Under
scheme 2 (new runs) each chunk works out its own seeds, so nothing per game is held for the whole run.

Local parallelism uses numba's threads in one process (the ``prange`` over games in each chunk):
games share the compiled code and the board and rule tables, there is no process start-up or
pickling, and two threads run 1.9-2x as fast as one. ``workers`` sets the number of threads.

>>> config = RunConfig(games=6, players=3, bots=("aggressive", "defensive"), seed=4, chunk_size=4)
>>> chunk_ranges(config, done=[(0, 4)])
[(4, 6)]
>>> table = run_selfplay(config)
>>> table["game"].tolist()
[0, 1, 2, 3, 4, 5]
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from riskstats.errors import RiskstatsError, check_int
from riskstats.game.bots.catalog import Lineup

DEFAULT_CHUNK = 1000


@dataclass(frozen=True)
class RunConfig:
    """One self-play run: what is played, not how (workers, chunk size and cluster do not change games).

    Parameters
    ----------
    games, players : int
    bots : tuple of str
        Bot specs (``"continent:threshold=0.6"``), seats in order and cyclic (as
        `riskstats.runs.selfplay.play_games`); kept as their labels.
    variant : str
    seed : int
    rules : dict
        `riskstats.game.rules.options.GameRules` options other than ``variant`` (``dice``: a dict of
        `riskstats.odds.dice.DiceRules` options).
    params : dict
        Bot name (or an entry's label) -> parameter values overriding its defaults (all in order, or a
        dict of some by name); kept as the whole vector.
    board : str
        ``"classic"`` or the path of a board JSON file.
    chunk_size : int
        Games per chunk (the unit written to disk and sent to a worker).
    seed_scheme : int, optional
        How games' seeds derive from ``seed`` (`riskstats.runs.selfplay.game_seeds`). None (default):
        the stored run's scheme when resuming one (1 if it records none), else the current
        `riskstats.runs.selfplay.SEED_SCHEME`.

    Attributes
    ----------
    lineup : riskstats.game.bots.catalog.Lineup
        The line-up's checked bot specs, set when the configuration is checked; every chunk plays them
        (`Lineup.arrays`), on this process or a worker, without parsing them again.
    """

    games: int
    players: int
    bots: tuple
    variant: str = "classic"
    seed: int = 0
    rules: dict = field(default_factory=dict)
    params: dict = field(default_factory=dict)
    board: str = "classic"
    chunk_size: int = DEFAULT_CHUNK
    seed_scheme: int | None = None
    lineup: Lineup = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        from riskstats.game.bots.catalog import parse_bot
        from riskstats.runs.selfplay import MAX_GAMES, SEED_SCHEME, check_games

        check_int("chunk_size", self.chunk_size, 1, MAX_GAMES)
        scheme = SEED_SCHEME if self.seed_scheme is None else self.seed_scheme  # None: settled by run_selfplay
        batch = check_games(self.games, self.players, self.bots, self.variant, self.seed, self.game_rules(),
                            self.load_board(), self.params, scheme)  # the one check, shared with play_games
        # a frozen dataclass sets its normalised and derived fields through object.__setattr__
        object.__setattr__(self, "bots", batch.bots)
        object.__setattr__(self, "params", {k: list(parse_bot(k, v).values) for k, v in self.params.items()})
        object.__setattr__(self, "lineup", Lineup(batch.specs))

    def batch(self):
        """The checked games of this run (`riskstats.runs.selfplay.Batch`), which `play_chunk` trusts: built
        from the fields and the checked `lineup`, checked when the run was made (here or, for a worker, before
        the configuration was sent)."""
        from riskstats.runs.selfplay import SEED_SCHEME, Batch

        return Batch(self.games, self.players, self.lineup.labels, self.game_rules(), self.load_board(), self.params,
                     self.seed, SEED_SCHEME if self.seed_scheme is None else self.seed_scheme, self.lineup.specs)

    def with_seed_scheme(self, scheme: int) -> RunConfig:
        """This run under seed scheme ``scheme`` (a stored run's, when resuming it); not checked again."""
        import copy

        from riskstats.runs.selfplay import SEED_SCHEMES

        if scheme not in SEED_SCHEMES:
            raise RiskstatsError(f"unknown seed scheme {scheme!r}; known: {', '.join(map(str, SEED_SCHEMES))}")
        other = copy.copy(self)
        object.__setattr__(other, "seed_scheme", scheme)
        return other

    def game_rules(self):
        """The `GameRules` of this run; unknown option names are an error."""
        from riskstats.game.rules.options import GameRules

        return GameRules.from_dict(self.rules, variant=self.variant)

    def load_board(self):
        from riskstats.game.rules.board import classic_board, load_board

        return classic_board() if self.board == "classic" else load_board(self.board)

    def record(self) -> dict:
        """The run's full configuration as JSON-able values: stored with its results, compared on resume."""
        from riskstats import __version__
        from riskstats.runs.selfplay import SEED_SCHEME

        return {
            "riskstats_version": __version__,
            "games": self.games,
            "players": self.players,
            "bots": list(self.bots),
            "variant": self.variant,
            "seed": self.seed,
            "rules": json.loads(json.dumps(self.game_rules().as_dict(), default=str)),
            "bot_params": {spec.label: list(spec.values) for spec in self.lineup.specs},
            "board": self.board,
            "seed_scheme": self.seed_scheme or SEED_SCHEME,
        }

    @classmethod
    def from_record(cls, record: dict, chunk_size: int = DEFAULT_CHUNK) -> RunConfig:
        """The configuration a stored record describes (the inverse of `record`, bar the version; a record
        without ``seed_scheme`` is scheme 1)."""
        from riskstats.game.rules.options import GameRules

        defaults = GameRules(variant=record["variant"]).as_dict()
        rules = {k: v for k, v in record["rules"].items() if k != "variant" and v != defaults.get(k)}
        return cls(games=record["games"], players=record["players"], bots=tuple(record["bots"]),
                   variant=record["variant"], seed=record["seed"], rules=rules, params=record["bot_params"],
                   board=record["board"], chunk_size=chunk_size, seed_scheme=record.get("seed_scheme", 1))


def chunk_ranges(config: RunConfig, done=()) -> list[tuple[int, int]]:
    """The game ranges ``[start, stop)`` still to play, given the ranges already ``done``.

    Missing games are split on the grid of ``config.chunk_size`` so that a fresh run and a resumed one
    make the same part files. Works on the ranges alone: nothing per game is held.
    """
    done = sorted(done)
    for (_, end), (start, stop) in zip(done, done[1:]):
        if start < end:
            raise RiskstatsError(f"results hold games {start}-{min(end, stop) - 1} twice")
    ranges = []
    i = 0
    for start in range(0, config.games, config.chunk_size):
        stop = min(start + config.chunk_size, config.games)
        while i < len(done) and done[i][1] <= start:
            i += 1
        first = start  # first game of this chunk not known to be done
        j = i
        while j < len(done) and done[j][0] < stop:
            low, high = done[j]
            if low > first:
                ranges.append((first, low))
            first = max(first, high)
            j += 1
        if first < stop:
            ranges.append((first, stop))
    return ranges


def play_chunk(config: RunConfig, start: int, stop: int, seeds=None):
    """The table of games ``start .. stop - 1`` of a run (what a worker computes).

    The chunk works out its own seeds from the configuration, unless ``seeds`` (theirs) are given.
    """
    from riskstats.runs.selfplay import play_batch

    return play_batch(config.batch(), start, seeds, stop - start)


def _chunk_seeds(config: RunConfig):
    """``seeds(start, stop)`` to hand each chunk: None (the chunk works them out) under scheme 2; a slice of
    the run's seed list, worked out once, under scheme 1 (whose words cannot be worked out per chunk)."""
    from riskstats.runs.selfplay import game_seeds

    if config.seed_scheme != 1:
        return lambda start, stop: None
    seeds = game_seeds(config.seed, config.games, scheme=1)
    return lambda start, stop: seeds[start:stop]


def _local_chunks(config, ranges, seeds, workers):
    """Yield ``(start, stop, table)`` per range, played on ``workers`` numba threads in this process."""
    import numba

    before = numba.get_num_threads()
    numba.set_num_threads(min(workers or numba.config.NUMBA_NUM_THREADS, numba.config.NUMBA_NUM_THREADS))
    try:
        for start, stop in ranges:
            yield start, stop, play_chunk(config, start, stop, seeds(start, stop))
    finally:
        numba.set_num_threads(before)


def run_selfplay(config: RunConfig, out=None, *, workers: int | None = None, scheduler: str | None = None,
                 dask_local: int | None = None, client=None, progress=None, load: bool = True):
    """Play a run's games, writing each finished chunk to ``out`` and resuming what is already there.

    Parameters
    ----------
    config : RunConfig
    out : str or Path, optional
        A directory of Parquet part files, or a ``.parquet``/``.csv`` file (its parts are kept in
        ``<out>.parts/`` until the run completes): a local path or an fsspec URL (``s3://bucket/run``).
        Without it the run is played in memory. Dask workers write their chunks straight there (a
        local path must be one they share, at the same absolute path), and pass back only each part's
        metadata.
    workers : int, optional
        Threads for a local run (default: all cores).
    scheduler : str, optional
        Address of a running Dask scheduler (``tcp://host:port``) to play the chunks on.
    dask_local : int, optional
        Start a local Dask cluster with this many single-threaded worker processes.
    client : distributed.Client, optional
        A Dask client to play the chunks on (instead of ``scheduler``/``dask_local``).
    progress : callable, optional
        Called as ``progress(games_done, games_total)`` at the start (the games already in ``out``; also
        when the run is complete and nothing is played) and after each chunk.
    load : bool
        Return the whole table (default). With ``out``, False returns None instead: each chunk is
        written and dropped, the single file is combined part by part, and memory stays flat however
        many games are played (a run of seed scheme 1 also holds its seed list, 8 bytes a game).

    Returns
    -------
    pandas.DataFrame or None
        All the run's games in game order (`riskstats.runs.selfplay.play_games`' columns, plus any a
        newer engine adds).
    """
    import pandas as pd

    from riskstats.runs import results
    from riskstats.runs.selfplay import SEED_SCHEME

    if workers is not None:
        check_int("workers", workers, 1, 4096)
    if scheduler is not None and dask_local is not None:
        raise RiskstatsError("give --scheduler or --dask-local, not both")
    if out is None and not load:
        raise RiskstatsError("a run played without an output (out) must be loaded (load=True)")
    if client is None and (scheduler is not None or dask_local is not None):
        from riskstats.runs.distributed import require_distributed

        require_distributed()  # before anything is written to out
    if config.seed_scheme is None:  # a stored run keeps its scheme (1 if it records none); a new one the current
        stored = results.stored_record(out) if out is not None else None
        scheme = SEED_SCHEME if stored is None else stored.get("seed_scheme", 1)
        config = config.with_seed_scheme(scheme)
    record = config.record()
    store = results.open_run(out, record) if out is not None else None
    if store is not None and store.complete:
        if progress:
            progress(config.games, config.games)
        return store.read() if load else None
    done = store.done_ranges() if store is not None else []
    ranges = chunk_ranges(config, done)
    total_done = sum(stop - start for start, stop in done)
    if progress:
        progress(total_done, config.games)
    seeds = _chunk_seeds(config)
    tables = []
    if not ranges:
        chunks = iter(())
    elif client is not None or scheduler is not None or dask_local is not None:
        from riskstats.runs.distributed import dask_chunks

        chunks = dask_chunks(play_chunk, config, ranges, seeds, write=store.write_part if store else None,
                             scheduler=scheduler, local_workers=dask_local, client=client)
    else:
        chunks = _local_chunks(config, ranges, seeds, workers)
    for start, stop, table in chunks:  # table: None where a Dask worker wrote it into the store
        if store is None:
            tables.append(table)
        elif table is not None:
            store.write_part(start, stop, table)
        total_done += stop - start
        if progress:
            progress(total_done, config.games)
    if store is not None:
        return store.finish(load)
    table = pd.concat(tables, ignore_index=True).sort_values("game", ignore_index=True)
    table.attrs["run"] = record
    return table
