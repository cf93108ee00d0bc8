"""The one driver of compiled play: every caller that plays a game on with built-in bots goes through `_drive`.

This module owns `_drive` (the plain loop `riskstats.game.loop._play`, or the look-ahead loop
`riskstats.game.search._play_search` when a seat searches), `drive` (the same choice for a Python caller),
`search_flag` (the argument that lets numba leave the search kernels out of a caller compiled for line-ups
without a search seat) and `_has_search`. `Game.play`, self-play, rollouts, position evaluation, the value fit,
the invariant sweep and the OpenSpiel rollout evaluator all play through it, so the choice between the two
loops is written once.

`_drive` is inlined into the kernels that call it, and `drive` runs its body in Python: each loop is one
compiled kernel and no third kernel links a copy of it. numba compiles a kernel together with a copy of every
kernel it calls, so a compiled driver between a caller and the loops would compile the whole game a second
time (some 10 s of a first run).
"""
from __future__ import annotations

import numpy as np

from riskstats._numba import inline_jit, jit
from riskstats.game.bots.catalog import SEARCH_ID, VALUE_ID
from riskstats.game.loop import _play
from riskstats.game.search import LOOKAHEAD_IDS, _play_search


@jit
def _has_search(bots):  # pragma: no cover - compiled
    """Whether a seat of the line-up ``bots`` (ids) is a look-ahead seat (search or value)."""
    for s in range(bots.shape[0]):
        if bots[s] == SEARCH_ID or bots[s] == VALUE_ID:
            return True
    return False


def search_flag(bots) -> bool | None:
    """The ``search`` argument of `_drive` (and of the kernels that call it) for the line-up ``bots`` (ids): True
    if a seat looks ahead (``search`` or ``value``), else None, for which numba compiles no search code at all."""
    return True if np.isin(np.asarray(bots), LOOKAHEAD_IDS).any() else None


@inline_jit
def _drive(st, B, R, CUT, V, bots, params, check, last_turn, last_round, search, memory):  # pragma: no cover
    """Play the started game ``st`` on with the built-in bots ``bots`` / ``params`` (by seat) until it ends or
    reaches the horizon (``last_turn``, ``last_round``; `riskstats.game.loop.NO_HORIZON`: none); the return
    value is `riskstats.game.loop._play`'s (0; an `ERRORS` code if ``check`` caught an illegal move; -1 if the
    event log is nearly full).

    ``search`` (`search_flag`) is None when no seat searches: numba then prunes the look-ahead branch before
    compiling (it resolves ``search is None`` from the argument's type), so a caller compiled for such line-ups
    never compiles the search kernels (a minute of compiling on a first run). ``memory`` is the search seats'
    plan memory (int64 [seats, 2], -1: none) that a caller keeps across calls, or None for fresh memory."""
    if search is None:
        return _play(st, B, R, CUT, V, bots, params, check, last_turn, last_round)
    if _has_search(bots):
        if memory is None:
            fresh = np.full((st.alive.shape[0], 2), -1, np.int64)
            return _play_search(st, B, R, CUT, V, bots, params, check, last_turn, last_round, fresh)
        return _play_search(st, B, R, CUT, V, bots, params, check, last_turn, last_round, memory)
    return _play(st, B, R, CUT, V, bots, params, check, last_turn, last_round)


def drive(st, ctx, bots, params, check, last_turn, last_round, memory) -> int:
    """`_drive` for a Python caller: play the started game ``st`` (context ``ctx``) on with the built-in bots
    ``bots`` / ``params`` (ids and parameters by seat); its return value is `_drive`'s. The choice between the
    loops runs in Python and each loop is called as the compiled kernel it is (see the module's note)."""
    return _drive.py_func(st, *ctx, bots, params, check, last_turn, last_round, search_flag(bots), memory)
