"""The ``defensive`` bot: reinforce the most threatened border and attack only for a sure or a card-winning
conquest.
"""
from __future__ import annotations

from riskstats._numba import inline_jit
from riskstats.game.bots.catalog import (
    DEFENSIVE_MAX_CONQUESTS,
    DEFENSIVE_STYLE,
    DEFENSIVE_SURE_THRESHOLD,
    DEFENSIVE_THRESHOLD,
    DEFENSIVE_TRADE_AT,
)

# ---------------------------------------------------------------- shared helpers
from riskstats.game.bots.common import (
    _best_attack,
    _claim_greedy,
    _fortify_styled,
    _is_border,
    _most_threatened,
    _placement,
    _random_claim,
    _trade_timed,
)
from riskstats.game.rules.legal import _attack_dice
from riskstats.game.rules.state import (
    ATTACK,
    ATTACK_MOVE,
    CLAIM,
    ELIM_TRADE,
    END_ATTACK,
    I_CONQUERED,
    I_OCC_FROM,
    I_PHASE,
    I_PLAYER,
    OCCUPY,
    OCCUPY_MOVE,
    PLACE,
    REINFORCE,
    SETUP_PLACE,
    TRADE,
)

PLAYS = ('defensive',)
"""The catalogue entries (`riskstats.game.bots.catalog.BUILT_IN`) this module plays."""


@inline_jit
def _defensive_bot(st, B, R, V, params):  # pragma: no cover - compiled
    info = st.info
    phase = info[I_PHASE]
    p = info[I_PLAYER]
    if phase == CLAIM:
        if params[DEFENSIVE_STYLE + 2] != 0:
            return _random_claim(st)
        return PLACE, _claim_greedy(st, B), 1, 0, 0
    if phase == SETUP_PLACE or phase == REINFORCE:
        return _placement(st, B, R, _most_threatened(st, B, R, p), params[DEFENSIVE_STYLE + 1])
    if phase == TRADE or phase == ELIM_TRADE:
        return _trade_timed(st, B, R, params[DEFENSIVE_TRADE_AT])
    if phase == ATTACK:
        a, b, pw = _best_attack(st, B, V, p, -1)
        if a >= 0 and ((info[I_CONQUERED] < params[DEFENSIVE_MAX_CONQUESTS] and pw >= params[DEFENSIVE_THRESHOLD])
                       or pw >= params[DEFENSIVE_SURE_THRESHOLD]):
            return ATTACK_MOVE, a, b, _attack_dice(st, R, a), 0
        return END_ATTACK, 0, 0, 0, 0
    if phase == OCCUPY:
        src = info[I_OCC_FROM]
        return OCCUPY_MOVE, 0 if _is_border(st.owner, B.nbr_ptr, B.nbr_idx, src) else st.armies[src] - 1, 0, 0, 0
    return _fortify_styled(st, B, R, p, params[DEFENSIVE_STYLE])
