"""Long compiled work run as short calls, so that Ctrl-C stops it within about a second.

A compiled kernel cannot be interrupted: Python handles a signal (Ctrl-C's SIGINT) only once the kernel
has returned. `in_pieces` therefore cuts work of ``n`` independent items (rollouts, games) into
consecutive ranges and calls the kernel once per range, each range sized from the speed of the ones
before it so that a call lasts about `PIECE_SECONDS`; the KeyboardInterrupt raised between two calls
ends the work. The items must not depend on the cut (each draws from a seed of its own, worked out from
its index), so an answer is the same whatever the pieces, the machine's speed or the number of threads.

This module owns the cutting only; the kernels, their seeds and what is kept of work cut short belong
to the callers (`riskstats.game.rollout`, `riskstats.game.evaluate`, `riskstats.runs.selfplay`).
"""
from __future__ import annotations

import time
from collections.abc import Callable

PIECE_SECONDS = 0.25
"""What one call should last: well under a second, so that Ctrl-C is answered at once, and long enough
that the calls' own cost (a few microseconds each) and the threads' idle tail stay small."""


def in_pieces(n: int, run: Callable[[int, int], object], *, progress: Callable[[int, int], None] | None = None,
              first: int = 1, seconds: float | None = None) -> int:
    """Call ``run(start, stop)`` on consecutive ranges that cover items ``0 .. n - 1``, in order.

    The first range holds ``first`` items; each later one as many as the calls so far suggest fit in
    ``seconds`` (default `PIECE_SECONDS`), at most twice the one before (a first call that compiled its
    kernel is slow: the pieces grow again from there). A KeyboardInterrupt raised by Ctrl-C while
    ``run`` is in a kernel comes out of the next Python step after it, and ends the loop.

    Parameters
    ----------
    n : int
        Items to cover (none: no call).
    run : callable
        ``run(start, stop)`` does items ``start .. stop - 1``.
    progress : callable, optional
        ``progress(done, n)`` after each call.
    first : int
        Items in the first range (the threads there are, say).
    seconds : float, optional
        What a call should last.

    Returns
    -------
    int
        The items the next call would have held: the ``first`` of a caller's next run of the same work.

    >>> calls = []
    >>> in_pieces(10, lambda start, stop: calls.append((start, stop)), first=3, seconds=3600)
    24
    >>> calls
    [(0, 3), (3, 9), (9, 10)]
    """
    target = PIECE_SECONDS if seconds is None else seconds
    start, size = 0, max(1, int(first))
    while start < n:
        stop = min(n, start + size)
        began = time.perf_counter()
        run(start, stop)
        took = time.perf_counter() - began
        if progress is not None:
            progress(stop, n)
        done = stop - start
        fits = int(done * target / took) if took > 0 else 2 * size
        size = max(1, min(2 * size, fits))  # the size asked for, even of a last piece cut short
        start = stop
    return size
