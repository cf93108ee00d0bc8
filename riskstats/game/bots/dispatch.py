"""The one dispatch from a bot's id to its kernel (`_bot_move`), the defence every built-in bot plays
(`_defend_bot`) and the view of the state a seat may see (`_seat_view`). A new bot adds one branch here, and a
slot in the roster (`riskstats.game.bots.roster`): each branch is gated, so a game loop compiles only the bots
its roster seats.
"""
from __future__ import annotations

import numpy as np

from riskstats._numba import inline_jit

# ---------------------------------------------------------------- shared helpers
from riskstats.game.bots.aggressive import _aggressive_bot
from riskstats.game.bots.catalog import (
    AGGRESSIVE_ID,
    CAPITAL_ID,
    CONTINENT_ID,
    DEFENSIVE_ID,
    HUNTER_ID,
    MISSION_ID,
    RANDOM_ID,
    UNIFORM_ID,
)
from riskstats.game.bots.common import _safest
from riskstats.game.bots.continent import _continent_bot
from riskstats.game.bots.defensive import _defensive_bot
from riskstats.game.bots.hunter import _hunter_bot
from riskstats.game.bots.objective import _capital_bot, _mission_bot
from riskstats.game.bots.random_bot import _random_bot
from riskstats.game.bots.uniform import _uniform_bot
from riskstats.game.rules.legal import _defend_dice
from riskstats.game.rules.options import (
    OBJ_MISSION,
    OBJ_TERRITORIES,
    R_OBJECTIVE,
)
from riskstats.game.rules.state import (
    CAPITAL,
    CAPITAL_PICK,
    DEFEND,
    DEFEND_MOVE,
    I_PHASE,
    I_PLAYER,
    NO_MOVE,
    State,
    _blocks_end,
)

UNSEATED = (NO_MOVE, 0, 0, 0, 0)
"""What `_bot_move` returns for a bot the roster leaves out (no line-up reaches it: the roster comes from the
line-up): a move of no kind, which the rules' check rejects (`riskstats.game.rules.legal.E_KIND`), so that a game
played with ``check`` stops on a wrong roster instead of playing the seat as another bot."""


@inline_jit
def _seat_view(st, R):  # pragma: no cover - compiled
    """The state as the seat to move may see it: every other seat's mission row is -1 and, while capitals
    are being picked, so are the others' picks (the picks are simultaneous). The arrays are shared, not
    copied, except those two; a compiled bot is handed this view, as a Python bot gets `GameView`."""
    objective = R[R_OBJECTIVE]
    if objective == OBJ_TERRITORIES:
        return st
    p = st.info[I_PLAYER]
    mission = st.mission
    if objective == OBJ_MISSION:  # in the scratch memory's tail: no allocation on every move
        start = _blocks_end(st.owner.shape[0])
        mission = st.scratch[start:start + st.mission.size].reshape(st.mission.shape)
        mission[:, :] = -1
        mission[p] = st.mission[p]
    capital = st.capital
    if st.info[I_PHASE] == CAPITAL:
        capital = np.full_like(st.capital, -1)
        capital[p] = st.capital[p]
    return State(st.owner, st.armies, st.card_owner, st.deck, st.alive, st.n_terr, st.to_place, st.info, st.rng,
                 st.log, mission, capital, st.out, st.scratch)


@inline_jit
def _defend_bot(st, R, bot, params):  # pragma: no cover - compiled
    """The defence policy of bot number ``bot``: the DEFEND move of the seat to move against the declared
    attack (``info[I_ATK_FROM]``, ``info[I_ATK_TO]``, ``info[I_ATK_DICE]``). Every built-in bot but ``uniform``
    (which draws its dice uniformly) rolls the most dice it may (`riskstats.game.rules.legal._defend_dice`)."""
    return DEFEND_MOVE, _defend_dice(st, R), 0, 0, 0


@inline_jit
def _bot_move(st, B, R, CUT, V, bot, params, with_random, with_aggressive, with_continent, with_mission,
              with_capital, with_uniform, with_hunter, with_search):  # pragma: no cover - compiled
    """The move bot number ``bot`` (see `BOTS`) chooses with parameters ``params``, seeing `_seat_view`
    (inlined into the game loop, as every bot is here: no call passes the whole state down to a bot;
    their helpers still take it). The ``with_*`` arguments are the line-up's roster spread out
    (`riskstats.game.bots.roster.FLAGS`): numba compiles only the branches of the bots they seat (True, not
    None), and a bot they leave out returns `UNSEATED`, an illegal move. ``with_search`` is never read: the
    look-ahead bots do not come here.

    Parameters
    ----------
    st : State
        The game (read; a bot may use its scratch memory).
    B, R, CUT, V
        The context (`riskstats.game.rules.context.compile_context`): the board arrays (`BoardArrays`), the rule
        vector (int64[R_SIZE]), the one-roll table and the P(conquer) table.
    bot : int
        The bot id of the seat to move.
    params : float64[N_PARAMS]
        Its parameter vector.
    with_random, with_aggressive, with_continent, with_mission, with_capital, with_uniform, with_hunter, with_search
        The line-up's roster spread out (`riskstats.game.bots.roster.FLAGS`): True or None each.
    """
    if bot == UNIFORM_ID and with_uniform is not None:  # uniform over every legal move, its defence and pick too
        return _uniform_bot(_seat_view(st, R), B, R, V, params)
    if st.info[I_PHASE] == DEFEND:  # the defence reads nothing secret, so it needs no seat view
        return _defend_bot(st, R, bot, params)
    st = _seat_view(st, R)
    if st.info[I_PHASE] == CAPITAL and bot != RANDOM_ID and bot != CAPITAL_ID:  # ignoring capitals: the safest
        return CAPITAL_PICK, _safest(st, B, R, st.info[I_PLAYER]), 0, 0, 0
    if bot == RANDOM_ID and with_random is not None:
        return _random_bot(st, B, R, V, params)
    if bot == AGGRESSIVE_ID and with_aggressive is not None:
        return _aggressive_bot(st, B, R, V, params)
    if bot == CONTINENT_ID and with_continent is not None:
        return _continent_bot(st, B, R, V, params)
    if bot == MISSION_ID and with_mission is not None:
        return _mission_bot(st, B, R, V, params)
    if bot == CAPITAL_ID and with_capital is not None:
        return _capital_bot(st, B, R, V, params)
    if bot == HUNTER_ID and with_hunter is not None:  # the one bot that prices chains of battles: the one-roll table
        return _hunter_bot(st, B, R, CUT, V, params)
    if bot == DEFENSIVE_ID:  # the one heuristic always compiled
        return _defensive_bot(st, B, R, V, params)
    return UNSEATED  # a bot its roster leaves out: illegal, so that a checked game stops on a wrong roster
