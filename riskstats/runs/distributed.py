"""Playing a run's chunks on a Dask distributed cluster (``pip install riskstats[distributed]``).

This module owns the cluster side of `riskstats.runs.tournament.run_selfplay`: connect to a scheduler (or
start a `distributed.LocalCluster`), submit one task per chunk, and yield each chunk as it finishes.

A run with storage (``out``: a directory every worker sees at the same path, or an fsspec URL such as
``s3://bucket/run``) has each worker write its chunk straight there (`riskstats.runs.results.RunStore`,
carried by the task) and return only the part's metadata (range, path, size: about 200 bytes), so no
chunk's table passes through the client and its memory and network stay flat. Part files are named by
their game range and moved into place whole, and a range already there is not rewritten: a chunk that
Dask re-runs after losing its worker still ends up written exactly once. A run without storage returns
the tables to the client (it keeps them anyway). Under seed scheme 2 a task works out its own seeds
from the configuration; only a scheme-1 run sends each chunk its slice of the seed list.

The configuration travels inside each task (a few hundred bytes) rather than scattered once: scattered
data has no recipe, so losing every worker that held it (a one-worker cluster, say) would cancel the
remaining chunks. A task plays its chunk on one numba thread (``numba.set_num_threads`` is per
thread), so give workers one thread per core.
Dask is imported only here, when a distributed run starts.
"""
from __future__ import annotations

from riskstats.errors import RiskstatsError, check_int

IN_FLIGHT_PER_THREAD = 3
"""Chunks queued per worker thread: enough to keep workers busy without holding every future at once."""
INSTALL = "distributed runs need dask's distributed package: pip install 'riskstats[distributed]'"
"""The one-line error of a distributed run on an install without it."""


def require_distributed():
    """The ``distributed`` module, or a `RiskstatsError` naming the extra that installs it."""
    try:
        import distributed
    except ImportError:
        raise RiskstatsError(INSTALL) from None
    return distributed


def _task(play, write, config, start, stop, seeds):  # runs on a worker
    import numba

    numba.set_num_threads(1)
    table = play(config, start, stop, seeds)
    return table if write is None else write(start, stop, table)


def _client(scheduler, local_workers):
    distributed = require_distributed()
    Client = distributed.Client
    if local_workers is not None:
        check_int("dask_local", local_workers, 1, 1024)
        cluster = distributed.LocalCluster(n_workers=local_workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        return Client(cluster), cluster
    try:
        return Client(scheduler, timeout="20s"), None
    except (OSError, TimeoutError, ValueError) as error:  # ValueError: a malformed address
        raise RiskstatsError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None


def dask_chunks(play, config, ranges, seeds, *, write=None, scheduler=None, local_workers=None, client=None):
    """Yield ``(start, stop, table)`` for each game range, played on a Dask cluster, as they finish.

    ``play(config, start, stop, seeds)`` plays one chunk on a worker (`riskstats.runs.tournament.play_chunk`;
    passed in, so that this module needs nothing of the run's own); ``seeds(start, stop)`` gives what to
    pass as its ``seeds``. With ``write`` (a picklable ``write(start, stop, table) -> metadata``, a
    `RunStore.write_part`) the worker writes the chunk and ``table`` is None: only the metadata comes back.
    """
    as_completed = require_distributed().as_completed
    own = client is None
    cluster = None
    if own:
        client, cluster = _client(scheduler, local_workers)
    try:
        threads = max(1, sum(client.nthreads().values()))
        pending = iter(ranges)
        window = as_completed()
        by_future = {}

        def submit(n):
            for start, stop in (r for _, r in zip(range(n), pending)):
                future = client.submit(_task, play, write, config, start, stop, seeds(start, stop), pure=False)
                by_future[future] = (start, stop)
                window.add(future)

        submit(IN_FLIGHT_PER_THREAD * threads)
        for future in window:
            start, stop = by_future.pop(future)
            result = future.result()
            future.release()
            submit(1)
            yield start, stop, None if write is not None else result
    finally:
        if own:
            client.close()
            if cluster is not None:
                cluster.close()
