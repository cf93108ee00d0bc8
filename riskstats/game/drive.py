"""The one driver of compiled play: every caller that plays a game on with built-in bots goes through `_drive`.

This module owns `_drive` (the plain loop `riskstats.game.loop._play`, or the look-ahead loop
`riskstats.game.search._play_search` when a seat searches), `drive` (the same choice for a Python caller),
`_has_search` and `_start_game` (game g of a rotating line-up, dealt). `Game.play`, self-play, rollouts, position
evaluation, the value fit, the invariant sweep and the OpenSpiel rollout evaluator all play through it, so the
choice between the two loops is written once. Which bots a caller compiles is its ``roster`` argument
(`riskstats.game.bots.roster`): the look-ahead loop is compiled only for a roster seating a look-ahead bot, so a
caller compiled for line-ups without one never compiles the search kernels.

`_drive` is inlined into the kernels that call it, and `drive` runs its body in Python: each loop is one
compiled kernel and no third kernel links a copy of it. numba compiles a kernel together with a copy of every
kernel it calls, so a compiled driver between a caller and the loops would compile the whole game a second
time (some 10 s of a first run).
"""
from __future__ import annotations

import numpy as np

from riskstats._numba import inline_jit, jit
from riskstats.game.bots.roster import roster_for
from riskstats.game.loop import _play
from riskstats.game.rules.engine import _init
from riskstats.game.rules.state import _new_state, _seat_lineup
from riskstats.game.search import LOOKAHEAD_IDS, _play_search


@inline_jit
def _start_game(lineup_bots, lineup_params, g, B, R, seats, log_rows, seed):  # pragma: no cover - compiled
    """Game g of a run's rotating line-up, started: (state, bots, params), the state for ``seats`` seats with
    ``log_rows`` event-log rows, set up by the engine's `_init` from ``seed``, and seat s playing line-up entry
    (s + g) % P (`_seat_lineup`). Self-play, the value fit's sampler and the invariant sweep start games so."""
    bots, params = _seat_lineup(lineup_bots, lineup_params, g)
    st = _new_state(B.continent_of.shape[0], B.card_symbol.shape[0], seats, log_rows)
    _init(st, B, R, seed)
    return st, bots, params


@jit
def _has_search(bots):  # pragma: no cover - compiled
    """Whether a seat of the line-up ``bots`` (ids) is a look-ahead seat (search or value)."""
    for s in range(bots.shape[0]):
        if bots[s] in LOOKAHEAD_IDS:
            return True
    return False


@jit
def _look_ahead(st, B, R, CUT, V, bots, params, check, last_turn, last_round, memory, with_random, with_aggressive,
                with_continent, with_mission, with_capital, with_uniform, with_hunter, with_search):  # pragma: no cover
    """`_play_search`, compiled only for a roster seating a look-ahead bot: numba prunes the branch on
    ``with_search is None`` before typing it (the roster comes spread out, `riskstats.game.bots.roster.FLAGS`,
    since numba prunes only on a kernel's own arguments). `_drive` calls it only for a line-up with a look-ahead
    seat, whose roster always seats the search; for any other roster it is compiled as a stub that plays nothing
    and returns 0, so that no caller links a second copy of `_play` through it.

    Parameters
    ----------
    st : State
        The game, played on in place.
    B, R, CUT, V
        The context (`riskstats.game.rules.context.compile_context`).
    bots : int64[seats]
        Each seat's bot id.
    params : float64[seats, N_PARAMS]
        Each seat's parameter vector.
    check : bool
        Check every move with the rules' `_check` before it is played.
    last_turn, last_round : int
        The horizon.
    memory : int64[seats, 2]
        The search seats' plan memory.
    with_random, with_aggressive, with_continent, with_mission, with_capital, with_uniform, with_hunter, with_search
        The line-up's roster spread out: True or None each.
    """
    if with_search is None:
        return 0
    return _play_search(st, B, R, CUT, V, bots, params, check, last_turn, last_round, memory)


@inline_jit
def _drive(st, B, R, CUT, V, bots, params, check, last_turn, last_round, roster, memory):  # pragma: no cover
    """Play the started game ``st`` on with the built-in bots ``bots`` / ``params`` (by seat) until it ends or
    reaches the horizon (``last_turn``, ``last_round``; `riskstats.game.loop.NO_HORIZON`: none); the return
    value is `riskstats.game.loop._play`'s (0; an `ERRORS` code if ``check`` caught an illegal move; -1 if the
    event log is nearly full).

    Only the bots of ``roster`` (`riskstats.game.bots.roster.roster_for` of the line-up) are compiled in: the
    look-ahead loop only for a roster seating a look-ahead bot, so a caller compiled for line-ups without one
    never compiles the search kernels (a minute of compiling on a first run). ``memory`` is the search seats'
    plan memory (int64 [seats, 2], -1: none) that a caller keeps across calls, or None for fresh memory.

    Parameters
    ----------
    st : State
        The game, played on in place.
    B, R, CUT, V
        The context (`riskstats.game.rules.context.compile_context`): the board arrays (`BoardArrays`), the rule
        vector (int64[R_SIZE]), the one-roll table and the P(conquer) table.
    bots : int64[seats]
        Each seat's bot id (`riskstats.game.bots.catalog.BOTS`).
    params : float64[seats, N_PARAMS]
        Each seat's parameter vector.
    check : bool
        Check every move with the rules' `_check` before it is played.
    last_turn, last_round : int
        The horizon: stop before a turn after last_turn or a round after last_round begins.
    roster : tuple
        The line-up's roster (`riskstats.game.bots.roster.roster_for`).
    memory : int64[seats, 2] or None
        The search seats' plan memory.
    """
    if _has_search(bots):
        if memory is None:
            fresh = np.full((st.alive.shape[0], 2), -1, np.int64)
            return _look_ahead(st, B, R, CUT, V, bots, params, check, last_turn, last_round, fresh, *roster)
        return _look_ahead(st, B, R, CUT, V, bots, params, check, last_turn, last_round, memory, *roster)
    return _play(st, B, R, CUT, V, bots, params, check, last_turn, last_round, *roster)


def drive(st, ctx, bots, params, check, last_turn, last_round, memory) -> int:
    """`_drive` for a Python caller: play the started game ``st`` (context ``ctx``) on with the built-in bots
    ``bots`` / ``params`` (ids and parameters by seat); its return value is `_drive`'s. The choice between the
    loops runs in Python and each loop is called as the compiled kernel it is (see the module's note)."""
    return _drive.py_func(st, *ctx, bots, params, check, last_turn, last_round, roster_for(_play, bots), memory)
