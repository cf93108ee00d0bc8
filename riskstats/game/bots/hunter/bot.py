"""The hunter's move (`_hunter_bot`): its rules of `hunt`, `holding` and `setup` by phase, the guide's
treatments (``first`` with ``draft``, ``fortify``, ``reinforce``, ``claim``) in their place when given."""
from __future__ import annotations

from riskstats._numba import inline_jit, lean_jit
from riskstats.game.bots.catalog import (
    HUNTER_AGAIN,
    HUNTER_BREAK,
    HUNTER_CARD,
    HUNTER_DRAFT,
    HUNTER_DUEL_EXPAND,
    HUNTER_ENTRANCE_WEIGHT,
    HUNTER_EXPAND,
    HUNTER_FINISH,
    HUNTER_FIRST,
    HUNTER_HOLD,
    HUNTER_HOLD_MARGIN,
    HUNTER_KILL_MAX,
    HUNTER_LEAD,
    HUNTER_SETUP,
    HUNTER_STYLE,
    HUNTER_SWEEP,
    HUNTER_THRESHOLD,
    HUNTER_TRADE_AT,
    SETUP_AUTO,
    SETUP_DUEL,
    SETUP_PLANTED,
    SWEEP_ALL,
    SWEEP_KILLS,
)
from riskstats.game.bots.common import (
    _claim_greedy,
    _claim_toward,
    _forced_first,
    _fortify_styled,
    _fortify_to_border,
    _most_threatened,
    _place_neutral,
    _placement,
    _random_claim,
    _rolls_on,
    _trade_timed,
)
from riskstats.game.bots.hunter.chain import _best_route
from riskstats.game.bots.hunter.holding import (
    _best_into,
    _fortify_hold,
    _hold_border,
    _hold_target,
    _neediest_border,
    _target,
)
from riskstats.game.bots.hunter.hunt import _kill_plan, _lead, _occupy_extra, _seats_left, _wants_kill
from riskstats.game.bots.hunter.setup import (
    SETUP_ROUTE_P,
    SETUP_STACK,
    _claim_contested,
    _claim_planted,
    _claims_first,
    _claims_in,
    _setup_duel,
    _setup_spread,
)
from riskstats.game.rules.legal import _attack_dice
from riskstats.game.rules.objectives import _holds_continent
from riskstats.game.rules.options import R_NEUTRAL, R_PLAYERS
from riskstats.game.rules.state import (
    ATTACK,
    ATTACK_MOVE,
    CLAIM,
    ELIM_TRADE,
    END_ATTACK,
    I_CONQUERED,
    I_PHASE,
    I_PLACE_FOR,
    I_PLAYER,
    I_QUOTA,
    I_RESERVE,
    OCCUPY,
    OCCUPY_MOVE,
    PLACE,
    REINFORCE,
    SETUP_PLACE,
    TRADE,
)

PLAYS = ('hunter',)
"""The catalogue entries (`riskstats.game.bots.catalog.BUILT_IN`) this module plays."""


@inline_jit
def _holds(R, params):  # pragma: no cover - compiled
    """Whether the hunter plays for continents it can hold (its ``hold``, with three players or more)."""
    return params[HUNTER_HOLD] == 1 and R[R_PLAYERS] >= 3


@inline_jit
def _planted(R, params):  # pragma: no cover - compiled
    """Whether the hunter claims planted (`_claim_planted`; its ``setup``: 1 planted, 3 duel, 2 auto = duel with
    two players and no neutral, spread otherwise)."""
    setup = params[HUNTER_SETUP]
    return setup == SETUP_PLANTED or setup == SETUP_DUEL or (setup == SETUP_AUTO and R[R_PLAYERS] == 2
                                                               and R[R_NEUTRAL] < 0)


@inline_jit
def _dueling(R, params):  # pragma: no cover - compiled
    """Whether the hunter places its setup armies for the continents it can hold (`_setup_duel`; ``setup`` 3
    duel, or 2 auto with two players and no neutral)."""
    setup = params[HUNTER_SETUP]
    return setup == SETUP_DUEL or (setup == SETUP_AUTO and R[R_PLAYERS] == 2 and R[R_NEUTRAL] < 0)


@lean_jit
def _first_target(st, B, p, params):  # pragma: no cover - compiled
    """The continent the hunter's ``first`` forces on it now (-1: none): with ``again`` whenever p does not hold
    all of it (a look-ahead's one-turn plan), else until p first holds it (`_forced_first`)."""
    if params[HUNTER_AGAIN] == 0:
        return _forced_first(st, B, p, params[HUNTER_FIRST])
    k = int(params[HUNTER_FIRST])
    if k < 0 or k >= B.continent_bonus.shape[0] or _holds_continent(st, B, p, k):
        return -1
    return k


@inline_jit
def _hunter_bot(st, B, R, CUT, V, params):  # pragma: no cover - compiled
    info = st.info
    phase = info[I_PHASE]
    p = info[I_PLAYER]
    first = _first_target(st, B, p, params)  # -1: no continent forced (now)
    draft = first >= 0 and params[HUNTER_DRAFT] != 0  # the setup goes for it too
    spread = params[HUNTER_STYLE + 1] != 0  # reinforce=spread
    if phase == CLAIM:
        if params[HUNTER_STYLE + 2] != 0:  # claim=random
            return _random_claim(st)
        if draft and _claims_in(st, B, p, first)[0] > 0:
            return PLACE, _claim_toward(st, B, first), 1, 0, 0
        if _dueling(R, params) and _claims_first(st):
            return PLACE, _claim_contested(st, B, p, params[HUNTER_ENTRANCE_WEIGHT]), 1, 0, 0
        if _planted(R, params):
            return PLACE, _claim_planted(st, B, p, params[HUNTER_ENTRANCE_WEIGHT]), 1, 0, 0
        return PLACE, _claim_greedy(st, B), 1, 0, 0
    if phase == TRADE or phase == ELIM_TRADE:
        return _trade_timed(st, B, R, params[HUNTER_TRADE_AT])
    hold = _holds(R, params)
    margin = int(params[HUNTER_HOLD_MARGIN])
    if first >= 0 and (draft or phase != SETUP_PLACE):
        k = first
    elif hold and phase != SETUP_PLACE:
        k = _hold_target(st, B, R, CUT, V, p, info[I_RESERVE] if phase == REINFORCE else 0,
                         params[HUNTER_ENTRANCE_WEIGHT])
    else:
        k = _target(st, B, p, params[HUNTER_ENTRANCE_WEIGHT])
    if phase == SETUP_PLACE:
        if info[I_PLACE_FOR] != p:  # a neutral's armies (two-player rules): where they block most
            return PLACE, _place_neutral(st, B, R), info[I_QUOTA], 0, 0
        if spread:
            return _placement(st, B, R, -1, 1)
        if _dueling(R, params) and not draft:
            return PLACE, _setup_duel(st, B, R, CUT, V, p, params[HUNTER_ENTRANCE_WEIGHT]), 1, 0, 0
        if _planted(R, params) or draft:  # the start of the route into k until it would take it all
            s, b, pc = _best_route(st, B, R, CUT, V, p, -1, k, 0, False) if k >= 0 else (-1, -1, 0.0)
            if s >= 0 and pc < SETUP_ROUTE_P and st.armies[s] < SETUP_STACK:
                return PLACE, s, 1, 0, 0
        return PLACE, _setup_spread(st, B, R, p, k), 1, 0, 0
    duel = _seats_left(st, R) == 2  # one other seat left
    last = params[HUNTER_FINISH] == 1 and duel  # the kill that wins the game, whatever its size
    max_terr = st.owner.shape[0] if last else params[HUNTER_KILL_MAX]
    sweep = params[HUNTER_SWEEP]
    flood = sweep >= SWEEP_KILLS
    if phase == REINFORCE:
        if spread:
            return _placement(st, B, R, -1, 1)
        reserve = info[I_RESERVE]
        q, s, b, pk = _kill_plan(st, B, R, CUT, V, p, reserve, max_terr, flood)
        if _wants_kill(st, q, pk, params, last):
            return PLACE, s, reserve, 0, 0
        t, short = _hold_border(st, B, R, p, margin) if hold else _neediest_border(st, B, R, p)
        if t >= 0:
            return PLACE, t, min(short, reserve), 0, 0
        s = _best_route(st, B, R, CUT, V, p, -1, k, reserve, sweep == SWEEP_ALL)[0] if k >= 0 else -1
        if s < 0:
            s = _most_threatened(st, B, R, p)
        return PLACE, s, reserve, 0, 0
    if phase == ATTACK:
        q, s, b, pk = _kill_plan(st, B, R, CUT, V, p, 0, max_terr, flood)
        if _wants_kill(st, q, pk, params, last) and _rolls_on(st, st.armies[s] - 1, b):
            return ATTACK_MOVE, s, b, _attack_dice(st, R, s), 0
        if first >= 0:  # the forced continent, one conquest at a time as the continent bot goes for it
            a, b, pw = _best_into(st, B, R, V, p, first, -1, -1)
            if a >= 0 and pw >= params[HUNTER_THRESHOLD]:
                return ATTACK_MOVE, a, b, _attack_dice(st, R, a), 0
        if k >= 0:
            s, b, pc = _best_route(st, B, R, CUT, V, p, -1, k, 0, sweep == SWEEP_ALL)
            if s >= 0 and pc >= params[HUNTER_THRESHOLD] and _rolls_on(st, st.armies[s] - 1, b):
                return ATTACK_MOVE, s, b, _attack_dice(st, R, s), 0
        for q in range(st.alive.shape[0]):
            if q != p and q != R[R_NEUTRAL] and st.alive[q] != 0:
                a, b, pw = _best_into(st, B, R, V, p, -1, q, -1)
                if a >= 0 and pw >= params[HUNTER_BREAK]:
                    return ATTACK_MOVE, a, b, _attack_dice(st, R, a), 0
        a, b, pw = _best_into(st, B, R, V, p, -1, -1, margin if hold else -1)
        if params[HUNTER_DUEL_EXPAND] >= 0 and duel:
            expands = pw >= params[HUNTER_DUEL_EXPAND]
        else:
            expands = pw >= params[HUNTER_EXPAND] and (R[R_PLAYERS] < 3 or _lead(st, R, p) < params[HUNTER_LEAD])
        if a >= 0 and (expands or (info[I_CONQUERED] == 0 and pw >= params[HUNTER_CARD])):
            return ATTACK_MOVE, a, b, _attack_dice(st, R, a), 0
        return END_ATTACK, 0, 0, 0, 0
    if phase == OCCUPY:
        return OCCUPY_MOVE, _occupy_extra(st, B, R, p, k, max_terr, last, sweep), 0, 0, 0
    if params[HUNTER_STYLE] != 0:  # fortify=spread or none
        return _fortify_styled(st, B, R, p, params[HUNTER_STYLE])
    if hold:
        return _fortify_hold(st, B, R, p, margin)
    return _fortify_to_border(st, B, R, p)
