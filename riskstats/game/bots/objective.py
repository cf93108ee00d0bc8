"""The objective bots: ``mission`` (Secret Mission: march on the territories its card asks for) and
``capital`` (Capital Risk: guard its capital, take the others).
"""
from __future__ import annotations

from riskstats._numba import inline_jit, lean_jit

# ---------------------------------------------------------------- shared helpers
from riskstats.game.bots.aggressive import _aggressive_styled
from riskstats.game.bots.catalog import (
    CAPITAL_GUARD,
    CAPITAL_TRADE_AT,
    MISSION_TRADE_AT,
    OBJECTIVE_CARD_THRESHOLD,
    OBJECTIVE_THRESHOLD,
)
from riskstats.game.bots.common import (
    _best_attack,
    _best_attack_where,
    _fortify_to_border,
    _is_border,
    _safest,
    _setup_place,
    _strike_base,
    _threat,
    _trade_timed,
)
from riskstats.game.rules.legal import _attack_dice, _fortify_ok, _reachable
from riskstats.game.rules.options import (
    R_NEUTRAL,
    R_PLAYERS,
)
from riskstats.game.rules.state import (
    ATTACK,
    ATTACK_MOVE,
    CAPITAL,
    CAPITAL_PICK,
    CLAIM,
    ELIM_TRADE,
    END_ATTACK,
    FORTIFY,
    FORTIFY_MOVE,
    I_CONQUERED,
    I_OCC_FROM,
    I_OCC_TO,
    I_PHASE,
    I_PLAYER,
    I_RESERVE,
    M_C1,
    M_C2,
    M_COUNT,
    M_KIND,
    M_MIN,
    M_TARGET,
    M_THIRD,
    MK_CONTINENTS,
    MK_DESTROY,
    MK_TERRITORIES,
    OCCUPY,
    OCCUPY_MOVE,
    PLACE,
    REINFORCE,
    SC_GOAL,
    SC_MARK,
    SC_MEMO_DIST,
    SC_MEMO_GOAL,
    SC_SPARE,
    SC_STACK,
    SETUP_PLACE,
    TRADE,
    _scratch_block,
)

PLAYS = ('mission', 'capital')
"""The catalogue entries (`riskstats.game.bots.catalog.BUILT_IN`) this module plays."""


# ---------------------------------------------------------------- objective-aware bots (Secret Mission, Capital)
@lean_jit
def _goal_distance(st, B, goal):  # pragma: no cover - compiled
    """Write the distances to the goal into the scratch block SC_MEMO_DIST: dist[t] = borders crossed from t
    to the nearest territory with goal[t] (any owner); T+1 if none. They are remembered with their goal
    (block SC_MEMO_GOAL; nothing else writes either block): a goal equal to the last one (ownership
    unchanged, as on most moves) keeps them instead of searching the board again."""
    T = st.owner.shape[0]
    dist = _scratch_block(st.scratch, T, SC_MEMO_DIST)
    memo = _scratch_block(st.scratch, T, SC_MEMO_GOAL)
    same = True
    for t in range(T):
        if memo[t] != goal[t]:
            same = False
            break
    if same:
        return
    queue = _scratch_block(st.scratch, T, SC_STACK)
    head = 0
    tail = 0
    for t in range(T):
        memo[t] = goal[t]
        dist[t] = T + 1
        if goal[t]:
            dist[t] = 0
            queue[tail] = t
            tail += 1
    while head < tail:
        t = queue[head]
        head += 1
        for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
            u = B.nbr_idx[i]
            if dist[u] > dist[t] + 1:
                dist[u] = dist[t] + 1
                queue[tail] = u
                tail += 1


@lean_jit
def _goal_base(st, B, p, dist):  # pragma: no cover - compiled
    """p's territory next to an enemy one that is closest to the goal (ties: the largest own stack)."""
    best = -1
    best_d = 1 << 40
    for t in range(st.owner.shape[0]):
        if st.owner[t] != p:
            continue
        for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
            u = B.nbr_idx[i]
            if st.owner[u] != p and (dist[u] < best_d or (dist[u] == best_d and st.armies[t] > st.armies[best])):
                best_d = dist[u]
                best = t
    return best


@lean_jit
def _goal_attack(st, B, V, p, dist, guard, guard_keep):  # pragma: no cover - compiled
    """(from, to, P(conquer)) of the surest attack that gets closer to the goal (into a goal territory or
    one nearer to it than the attacker); ``guard`` attacks only while keeping ``guard_keep`` armies."""
    T = st.owner.shape[0]
    spare = _scratch_block(st.scratch, T, SC_SPARE)
    for t in range(T):
        spare[t] = st.armies[t] - 1 - (guard_keep if t == guard else 0) if st.owner[t] == p else 0
    return _best_attack_where(st, B, V, p, -1, dist, spare, None)


@lean_jit
def _objective_turn(st, B, R, V, params, goal, guard, guard_keep, keep_behind):  # pragma: no cover - compiled
    """Reinforce, attack and occupy toward the territories marked in ``goal``: all reinforcements on the
    own border territory nearest the goal; attack along the way while P(conquer) >= the threshold
    (``params[OBJECTIVE_THRESHOLD]``), else one attack for a card while P >= the card threshold
    (``params[OBJECTIVE_CARD_THRESHOLD]``); after a conquest move all but ``keep_behind`` armies on (half if
    the old territory still faces enemies). Other phases: as the aggressive bot."""
    info = st.info
    phase = info[I_PHASE]
    p = info[I_PLAYER]
    T = st.owner.shape[0]
    _goal_distance(st, B, goal)
    dist = _scratch_block(st.scratch, T, SC_MEMO_DIST)
    if phase == REINFORCE or phase == SETUP_PLACE:
        t = _goal_base(st, B, p, dist)
        if t < 0 or dist[t] > T:
            t = _strike_base(st, B, p)
        if phase == SETUP_PLACE:
            return _setup_place(st, B, R, t)
        return PLACE, t, info[I_RESERVE], 0, 0
    if phase == ATTACK:
        a, b, pw = _goal_attack(st, B, V, p, dist, guard, guard_keep)
        if a >= 0 and pw >= params[OBJECTIVE_THRESHOLD]:
            return ATTACK_MOVE, a, b, _attack_dice(st, R, a), 0
        if info[I_CONQUERED] == 0:
            a, b, pw = _best_attack(st, B, V, p, -1)
            if a >= 0 and a != guard and pw >= params[OBJECTIVE_CARD_THRESHOLD]:
                return ATTACK_MOVE, a, b, _attack_dice(st, R, a), 0
        return END_ATTACK, 0, 0, 0, 0
    if phase == OCCUPY:
        src = info[I_OCC_FROM]
        extra = st.armies[src] - 1
        if src == guard:
            extra = max(0, extra - guard_keep)
        elif _is_border(st.owner, B.nbr_ptr, B.nbr_idx, src) and dist[info[I_OCC_TO]] > 0:
            extra = extra // 2
        extra = min(extra, max(0, st.armies[src] - keep_behind))
        return OCCUPY_MOVE, extra, 0, 0, 0
    return _fortify_to_border(st, B, R, p)


@inline_jit
def _mission_bot(st, B, R, V, params):  # pragma: no cover - compiled
    info = st.info
    phase = info[I_PHASE]
    p = info[I_PLAYER]
    T = st.owner.shape[0]
    if phase == TRADE or phase == ELIM_TRADE:
        return _trade_timed(st, B, R, params[MISSION_TRADE_AT])
    if phase == CLAIM or phase == FORTIFY:
        return _aggressive_styled(st, B, R, V, params, 0.0, 0.0, 0.0)
    m = st.mission[p]  # only our own card: the others' are secret
    kind = m[M_KIND]
    goal = _scratch_block(st.scratch, T, SC_GOAL)  # every branch below sets all of it
    keep = 1
    if kind == MK_CONTINENTS:
        third = -1
        if m[M_THIRD] == 1:  # "any third continent": the one with the fewest enemy armies per territory
            K = B.continent_bonus.shape[0]
            enemy = _scratch_block(st.scratch, T, SC_MARK)[:K]
            enemy[:] = 0
            for t in range(T):
                if st.owner[t] != p:
                    enemy[B.continent_of[t]] += st.armies[t]
            best = 1e18
            for k in range(K):
                if k != m[M_C1] and k != m[M_C2] and enemy[k] / B.continent_size[k] < best:
                    best = enemy[k] / B.continent_size[k]
                    third = k
        for t in range(T):
            k = B.continent_of[t]
            goal[t] = st.owner[t] != p and (k == m[M_C1] or k == m[M_C2] or k == third)
    elif kind == MK_DESTROY and st.alive[m[M_TARGET]] == 1:
        for t in range(T):
            goal[t] = st.owner[t] == m[M_TARGET]
    else:  # territories (or achieved): take any enemy land
        for t in range(T):
            goal[t] = st.owner[t] != p
        if kind == MK_TERRITORIES and m[M_MIN] >= 2:
            keep = m[M_MIN]
            if phase == REINFORCE and st.n_terr[p] >= m[M_COUNT]:
                for t in range(T):  # enough land: bring thin territories up to the armies needed
                    if st.owner[t] == p and st.armies[t] < m[M_MIN]:
                        return PLACE, t, min(info[I_RESERVE], m[M_MIN] - st.armies[t]), 0, 0
    return _objective_turn(st, B, R, V, params, goal, -1, 0, keep)


@inline_jit
def _capital_bot(st, B, R, V, params):  # pragma: no cover - compiled
    info = st.info
    phase = info[I_PHASE]
    p = info[I_PLAYER]
    T = st.owner.shape[0]
    if phase == CAPITAL:
        return CAPITAL_PICK, _safest(st, B, R, p), 0, 0, 0
    if phase == TRADE or phase == ELIM_TRADE:
        return _trade_timed(st, B, R, params[CAPITAL_TRADE_AT])
    if phase == CLAIM or phase == SETUP_PLACE:
        return _aggressive_styled(st, B, R, V, params, 0.0, 0.0, 0.0)
    own = st.capital[p]
    held = own >= 0 and st.owner[own] == p
    goal = _scratch_block(st.scratch, T, SC_GOAL)
    goal[:] = 0
    aim = False
    for q in range(R[R_PLAYERS]):  # enemy capitals not yet ours, and our own if it was taken
        c = st.capital[q]
        if c >= 0 and st.owner[c] != p:
            goal[c] = True
            aim = True
    if not aim:  # no capital to take (a game without capitals): the opponents' land, as the game is won
        for t in range(T):
            goal[t] = st.owner[t] != p and st.owner[t] != R[R_NEUTRAL]
    threat = _threat(st.owner, st.armies, B.nbr_ptr, B.nbr_idx, R[R_NEUTRAL], own) if held else 0
    if held and phase == REINFORCE and threat * params[CAPITAL_GUARD] >= st.armies[own]:
        return PLACE, own, info[I_RESERVE], 0, 0
    if held and phase == FORTIFY and threat * params[CAPITAL_GUARD] >= st.armies[own]:
        seen = _scratch_block(st.scratch, T, SC_MARK)
        seen[:] = 0
        _reachable(st, B, p, own, seen)
        src = -1
        for t in range(T):
            if seen[t] == 1 and t != own and st.armies[t] >= 2 and (src < 0 or st.armies[t] > st.armies[src]):
                src = t
        if src >= 0 and _fortify_ok(st, B, R, p, src, own):
            return FORTIFY_MOVE, src, own, st.armies[src] - 1, 0
    keep = int(threat * params[CAPITAL_GUARD]) if held else 0
    return _objective_turn(st, B, R, V, params, goal, own if held else -1, keep, 1)
