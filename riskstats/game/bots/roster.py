"""The roster: which bots a compiled game loop is compiled for, so that a line-up compiles only the bots it seats.

numba compiles every branch of a kernel, whether a run takes it or not: a game loop that could dispatch to every
built-in bot compiles all of them, the hunter's 38 kernels and the search among them, for a line-up of random
bots. The roster is the one argument that says which bots may play: a tuple with one entry per `SLOTS` name,
True where that bot is seated and None where it is not. Its type is part of the kernel's signature; the game loop
takes it spread out (`FLAGS`), and numba prunes a branch on ``with_hunter is None`` before typing it, so a bot whose
entry is None is never compiled (an unseated bot moves `dispatch.UNSEATED`, a move the rules' check rejects;
no line-up reaches it, since the roster comes from the line-up). A line-up with a look-ahead seat gets `FULL`: the
search's plans play any heuristic bot.

`roster_for` chooses the roster a call passes: the line-up's own, unless numba already holds a larger one for that
kernel (compiled in this process or in its on-disk cache, as `riskstats compile` leaves `FULL`), which plays the
same moves and costs no compile. `full_rosters` makes every choice `FULL` (the warm-up and the test suite, so
that one compile serves every line-up).
"""
from __future__ import annotations

import inspect
from contextlib import contextmanager

from numba import types

from riskstats.game.bots.catalog import BUILT_IN

SLOTS = ("random", "aggressive", "continent", "mission", "capital", "uniform", "hunter", "search")
"""The roster's entries, in order: the gated bots (``search`` stands for both look-ahead bots, search and value).
``defensive`` has none: it is the dispatch's last branch, always compiled."""
ROSTER_SEARCH = SLOTS.index("search")
"""The look-ahead slot's place in a roster."""
SLOT_OF = {BUILT_IN[name].id: k for k, name in enumerate(SLOTS)} | {BUILT_IN["value"].id: ROSTER_SEARCH}
"""Bot id -> its roster slot (ids of ``defensive`` have none)."""
FLAGS = tuple(f"with_{name}" for name in SLOTS)
"""The roster spread out as arguments (``kernel(..., *roster)``): the game loop and the dispatch take one
argument per slot, so that numba prunes each bot's branch on ``with_hunter is None`` before it types it (it
prunes only on a kernel's own arguments, not on a tuple's entries)."""
FULL = (True,) * len(SLOTS)
"""Every bot seated: what a look-ahead line-up, the warm-up and the search's own plans compile."""

_MODE = [None]
_CHOSEN: dict = {}


def roster(ids) -> tuple:
    """The roster of the line-up ``ids`` (bot ids; -1 for an unknown seat is ignored): True in the slot of each
    bot seated, None elsewhere; `FULL` if a seat looks ahead (or inside `full_rosters`).

    >>> from riskstats.game.bots.catalog import HUNTER_ID, RANDOM_ID
    >>> roster([RANDOM_ID, HUNTER_ID, RANDOM_ID])
    (True, None, None, None, None, None, True, None)
    """
    slots = {SLOT_OF[int(i)] for i in ids if int(i) in SLOT_OF}
    if _MODE[0] or ROSTER_SEARCH in slots:
        return FULL
    return tuple(True if k in slots else None for k in range(len(SLOTS)))


def _seated(value) -> frozenset:
    """The slots a roster (a tuple of True / None, or its numba type) seats."""
    entries = value.types if isinstance(value, types.BaseTuple) else value
    return frozenset(k for k, t in enumerate(entries) if not (t is None or isinstance(t, types.NoneType)))


def roster_for(kernel, ids) -> tuple:
    """The roster to pass to the compiled ``kernel`` (its argument named ``roster``, or its `FLAGS` arguments) for
    the line-up ``ids``: the line-up's own (`roster`), or the smallest larger one that numba already holds for the
    kernel, in memory or in its on-disk cache, so that a warm cache (``riskstats compile``) serves every line-up
    without compiling. Chosen once per kernel and line-up roster in a process."""
    own = roster(ids)
    if _MODE[0] is not None:
        return own
    key = (kernel, own)
    if key not in _CHOSEN:
        from riskstats._numba import known_signatures

        names = list(inspect.signature(getattr(kernel, "py_func", kernel)).parameters)
        where = slice(names.index(FLAGS[0]), names.index(FLAGS[-1]) + 1) if FLAGS[0] in names else names.index("roster")
        held = sorted((_seated(sig[where]) for sig in known_signatures(kernel)), key=len)
        larger = [s for s in held if _seated(own) <= s]
        _CHOSEN[key] = tuple(True if k in larger[0] else None for k in range(len(SLOTS))) if larger else own
    return _CHOSEN[key]


@contextmanager
def full_rosters(on: bool | None = True):
    """Within this block every roster is `FULL` (``on`` True): one compile of each kernel then serves every line-up
    after it, as the warm-up (``riskstats compile``) and the test suite compile. With ``on`` False, every roster is
    the line-up's own (`roster`), whatever numba holds; with None, `roster_for` chooses as outside any block."""
    before = _MODE[0]
    _MODE[0] = on
    try:
        yield
    finally:
        _MODE[0] = before
