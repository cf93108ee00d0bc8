"""The compiled game loop: built-in bots play a game on, move by move, to its end or to a horizon.

This module owns `_play`, the loop every compiled caller runs (`riskstats.game.play.Game`, self-play,
rollouts, position evaluation, the search bot's look-ahead), and its limits (`MAX_MOVES`, `NO_HORIZON`).
It does not own the rules (`riskstats.game.rules.engine`) or the bots (`riskstats.game.bots`); the search
bot, which itself plays games with this loop, is driven from `riskstats.game.search._play_search`, so no search
is reachable from here (numba compiles no recursion); every caller chooses between the two loops through
`riskstats.game.drive._drive`.
"""
from __future__ import annotations

from riskstats._numba import borrow, jit
from riskstats.game.bots.dispatch import _bot_move
from riskstats.game.rules.engine import _apply
from riskstats.game.rules.events import _finish
from riskstats.game.rules.legal import _check
from riskstats.game.rules.state import (
    I_LOG_N,
    I_MOVES,
    I_PHASE,
    I_PLAYER,
    I_ROUND,
    I_TURN,
    OVER,
    SC_STAMP,
    WIN_MOVE_CAP,
)

MAX_MOVES = 5_000_000
"""A compiled game stops after this many moves, whatever the turn cap: truncated, with no winner and
reason "move_cap" (not "turn_cap"). Games under the default rules never come near it (a few thousand
moves); with ``cards_per_turn="per_conquest"`` and progressive sets, set values reach thousands of
armies and one turn can take tens of thousands of rolls, so such games may stop here after a few
hundred turns."""
NO_HORIZON = 1 << 62
"""``last_turn`` / ``last_round`` of `_play` for no horizon."""


@jit
def _play(st, B, R, CUT, V, bots, params, check, last_turn, last_round, with_random, with_aggressive, with_continent,
          with_mission, with_capital, with_uniform, with_hunter, with_search):  # pragma: no cover - compiled
    """Play with built-in bots until the game ends or is about to begin a turn after ``last_turn`` (or a
    round after ``last_round``; `NO_HORIZON`: no such stop): 0; an `ERRORS` code if ``check`` caught an
    illegal move (not played); -1 if the event log is nearly full (grow it and call again).

    Parameters
    ----------
    st : State
        The game, played on in place.
    B, R, CUT, V
        The context (`riskstats.game.rules.context.compile_context`): the board arrays (`BoardArrays`), the rule
        vector (int64[R_SIZE]), the one-roll table and the P(conquer) table.
    bots : int64[seats]
        Each seat's bot id (none a look-ahead bot: those play through `riskstats.game.search._play_search`).
    params : float64[seats, N_PARAMS]
        Each seat's parameter vector.
    check : bool
        Check every move with the rules' `_check` before it is played.
    last_turn, last_round : int
        The horizon (`NO_HORIZON`: none).
    with_random, with_aggressive, with_continent, with_mission, with_capital, with_uniform, with_hunter, with_search
        The line-up's roster (`riskstats.game.bots.roster.roster_for`) spread out: True for each bot compiled in,
        None for each left out (a seat's bot left out moves `riskstats.game.bots.dispatch.UNSEATED`, which
        ``check`` rejects); ``with_search`` is not read here.
    """
    # borrowed views: the caller holds these arrays throughout, and each move passes them down a few
    # calls (`_bot_move` and `_apply` are inlined here, so their own arguments cost nothing either)
    st, B, R, CUT, V, bots, params = borrow((st, B, R, CUT, V, bots, params))
    info = st.info
    st.scratch[SC_STAMP] = -1  # the bots' caches are valid only within this loop (see `State`'s scratch)
    while info[I_PHASE] != OVER:
        if info[I_TURN] > last_turn or info[I_ROUND] > last_round:
            break
        if info[I_MOVES] >= MAX_MOVES:
            _finish(st, -1, WIN_MOVE_CAP)
            break
        if st.log.shape[0] > 0 and info[I_LOG_N] + 64 > st.log.shape[0]:
            return -1
        p = info[I_PLAYER]
        kind, a, b, c, d = _bot_move(st, B, R, CUT, V, bots[p], params[p], with_random, with_aggressive,
                                   with_continent, with_mission, with_capital, with_uniform, with_hunter, with_search)
        if check:
            error = _check(st, B, R, kind, a, b, c, d)
            if error != 0:
                return error
        _apply(st, B, R, CUT, kind, a, b, c, d)
    return 0
