"""The ``aggressive`` bot: attack wherever P(conquer) clears its threshold, reinforce where it strikes from;
its styled turn is also the objective bots' turn outside their goal.
"""
from __future__ import annotations

from riskstats._numba import inline_jit
from riskstats.game.bots.catalog import (
    AGGRESSIVE_STYLE,
    AGGRESSIVE_THRESHOLD,
    AGGRESSIVE_TRADE_AT,
)

# ---------------------------------------------------------------- shared helpers
from riskstats.game.bots.common import (
    _best_attack,
    _claim_greedy,
    _fortify_styled,
    _is_border,
    _placement,
    _random_claim,
    _strike_base,
    _trade_timed,
)
from riskstats.game.rules.legal import _attack_dice
from riskstats.game.rules.state import (
    ATTACK,
    ATTACK_MOVE,
    CLAIM,
    ELIM_TRADE,
    END_ATTACK,
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

PLAYS = ('aggressive',)
"""The catalogue entries (`riskstats.game.bots.catalog.BUILT_IN`) this module plays."""


@inline_jit
def _aggressive_bot(st, B, R, V, params):  # pragma: no cover - compiled
    return _aggressive_styled(st, B, R, V, params, params[AGGRESSIVE_STYLE], params[AGGRESSIVE_STYLE + 1],
                              params[AGGRESSIVE_STYLE + 2])


@inline_jit
def _aggressive_styled(st, B, R, V, params, fortify, reinforce, claim):  # pragma: no cover - compiled
    """The aggressive bot with placement parameters fortify, reinforce, claim (registry.STYLE) given apart from
    ``params``: the mission and capital bots play some phases as aggressive with their own vectors, whose
    slots there hold other parameters, so they pass 0, 0, 0 (the aggressive bot's defaults)."""
    info = st.info
    phase = info[I_PHASE]
    p = info[I_PLAYER]
    if phase == CLAIM:
        if claim != 0:
            return _random_claim(st)
        return PLACE, _claim_greedy(st, B), 1, 0, 0
    if phase == SETUP_PLACE or phase == REINFORCE:
        return _placement(st, B, R, _strike_base(st, B, p), reinforce)
    if phase == TRADE or phase == ELIM_TRADE:
        return _trade_timed(st, B, R, params[AGGRESSIVE_TRADE_AT])
    if phase == ATTACK:
        a, b, pw = _best_attack(st, B, V, p, -1)
        if a >= 0 and pw >= params[AGGRESSIVE_THRESHOLD]:
            return ATTACK_MOVE, a, b, _attack_dice(st, R, a), 0
        return END_ATTACK, 0, 0, 0, 0
    if phase == OCCUPY:
        extra = st.armies[info[I_OCC_FROM]] - 1
        if _is_border(st.owner, B.nbr_ptr, B.nbr_idx, info[I_OCC_FROM]):
            extra = extra // 2
        return OCCUPY_MOVE, extra, 0, 0, 0
    return _fortify_styled(st, B, R, p, fortify)
