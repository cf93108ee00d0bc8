"""The ``continent`` bot (and ``continent-tuned``): go for a continent, hold it, and attack toward it; the
continent it targets (`_target_continent`) is read by analyses and the search bot's plans too.
"""
from __future__ import annotations

from riskstats._numba import inline_jit, lean_jit
from riskstats.game.bots.catalog import (
    CONTINENT_AGAIN,
    CONTINENT_ATTACK,
    CONTINENT_CARD_THRESHOLD,
    CONTINENT_ENTRANCE_WEIGHT,
    CONTINENT_FIRST,
    CONTINENT_STYLE,
    CONTINENT_THRESHOLD,
    CONTINENT_TRADE_AT,
    FRONTIER_AT,
    FRONTIER_DEFENDERS,
)

# ---------------------------------------------------------------- shared helpers
from riskstats.game.bots.common import (
    _best_attack,
    _claim_greedy,
    _claim_toward,
    _forced_first,
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
    I_OCC_TO,
    I_PHASE,
    I_PLAYER,
    OCCUPY,
    OCCUPY_MOVE,
    PLACE,
    REINFORCE,
    SC_DIST,
    SC_GOAL,
    SETUP_PLACE,
    TRADE,
    _scratch_block,
)

PLAYS = ('continent',)
"""The catalogue entries (`riskstats.game.bots.catalog.BUILT_IN`) this module plays."""


@lean_jit
def _continent_first(st, B, p, params):  # pragma: no cover - compiled
    """The continent bot's forced target now: with ``again`` (params[CONTINENT_AGAIN]) its ``first``
    (params[CONTINENT_FIRST]) whenever it does not hold it (the search bot's one-turn plans); else ``first``
    until it first holds it (`_forced_first`)."""
    if params[CONTINENT_AGAIN] != 0:
        return params[CONTINENT_FIRST]
    return float(_forced_first(st, B, p, params[CONTINENT_FIRST]))


@lean_jit
def _target_continent(st, B, R, p, entrance_weight, first):  # pragma: no cover - compiled
    """Continent ``first`` while p does not hold it (if the board has it), else the continent p does not
    hold with the best bonus / (1 + enemy armies + weight x entrances)."""
    K = B.continent_bonus.shape[0]
    T = st.owner.shape[0]
    enemy = _scratch_block(st.scratch, T, SC_GOAL)[:K]
    mine = _scratch_block(st.scratch, T, SC_DIST)[:K]
    entrances = B.continent_entrances
    enemy[:] = 0
    mine[:] = 0
    for t in range(T):
        k = B.continent_of[t]
        if st.owner[t] == p:
            mine[k] += 1
        else:
            enemy[k] += st.armies[t]
    forced = int(first)
    if 0 <= forced < K and mine[forced] < B.continent_size[forced]:
        return forced
    best = -1
    best_score = -1.0
    for k in range(K):
        if mine[k] == B.continent_size[k]:
            continue
        score = (B.continent_bonus[k] + 0.5) / (1.0 + enemy[k] + entrance_weight * entrances[k])
        if score > best_score:
            best_score = score
            best = k
    return best


@lean_jit
def _attack_pays(params, pw, attackers, defenders, threshold):  # pragma: no cover - compiled
    """The continent bot's decision to roll (again) against ``defenders`` with ``attackers`` (armies able to
    roll): with attack=rule (params[CONTINENT_ATTACK] == 0) P(conquer) ``pw`` at least ``threshold``; with
    attack=solved the
    solved policy's frontier (`riskstats.game.solved_attack`) at params[FRONTIER_AT + defenders - 1]."""
    if params[CONTINENT_ATTACK] == 0:
        return pw >= threshold
    m = params[FRONTIER_AT + min(defenders, FRONTIER_DEFENDERS) - 1]
    return m > 0 and attackers >= m


@lean_jit
def _continent_base(st, B, p, k):  # pragma: no cover - compiled
    """p's strongest territory next to enemy land in continent k; -1 if none."""
    best = -1
    for t in range(st.owner.shape[0]):
        if st.owner[t] != p:
            continue
        for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
            u = B.nbr_idx[i]
            if st.owner[u] != p and B.continent_of[u] == k:
                if best < 0 or st.armies[t] > st.armies[best]:
                    best = t
                break
    return best


@inline_jit
def _continent_bot(st, B, R, V, params):  # pragma: no cover - compiled
    info = st.info
    phase = info[I_PHASE]
    p = info[I_PLAYER]
    if phase == CLAIM:
        if params[CONTINENT_STYLE + 2] != 0:
            return _random_claim(st)
        if params[CONTINENT_AGAIN] != 0:
            return PLACE, _claim_greedy(st, B), 1, 0, 0
        return PLACE, _claim_toward(st, B, _forced_first(st, B, p, params[CONTINENT_FIRST])), 1, 0, 0
    if phase == TRADE or phase == ELIM_TRADE:
        return _trade_timed(st, B, R, params[CONTINENT_TRADE_AT])
    if phase == SETUP_PLACE or phase == REINFORCE:
        k = _target_continent(st, B, R, p, params[CONTINENT_ENTRANCE_WEIGHT], _continent_first(st, B, p, params))
        t = _continent_base(st, B, p, k) if k >= 0 else -1
        if t < 0:
            t = _most_threatened(st, B, R, p)
        return _placement(st, B, R, t, params[CONTINENT_STYLE + 1])
    if phase == ATTACK:
        k = _target_continent(st, B, R, p, params[CONTINENT_ENTRANCE_WEIGHT], _continent_first(st, B, p, params))
        if k >= 0:
            a, b, pw = _best_attack(st, B, V, p, k)
            if a >= 0 and _attack_pays(params, pw, st.armies[a] - 1, st.armies[b], params[CONTINENT_THRESHOLD]):
                return ATTACK_MOVE, a, b, _attack_dice(st, R, a), 0
        if info[I_CONQUERED] == 0:
            a, b, pw = _best_attack(st, B, V, p, -1)
            if a >= 0 and _attack_pays(params, pw, st.armies[a] - 1, st.armies[b], params[CONTINENT_CARD_THRESHOLD]):
                return ATTACK_MOVE, a, b, _attack_dice(st, R, a), 0
        return END_ATTACK, 0, 0, 0, 0
    if phase == OCCUPY:
        src = info[I_OCC_FROM]
        extra = st.armies[src] - 1
        src_border = _is_border(st.owner, B.nbr_ptr, B.nbr_idx, src)
        if src_border and not _is_border(st.owner, B.nbr_ptr, B.nbr_idx, info[I_OCC_TO]):
            extra = 0
        elif src_border:
            extra = extra // 2
        return OCCUPY_MOVE, extra, 0, 0, 0
    return _fortify_styled(st, B, R, p, params[CONTINENT_STYLE])
