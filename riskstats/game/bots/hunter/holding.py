"""The hunter's continents: which to go for (`_target`, or with ``hold`` `_hold_target`, priced by the exact odds
of taking all of it this turn), the borders of those it holds (`_keeps`, `_hold_border`, `_fortify_hold`), the
best single attack under the stop rule (`_best_into`) and one continent tally (`_tally`)."""
from __future__ import annotations

from riskstats._numba import jit
from riskstats.game.bots.common import (
    _best_attack_where,
    _fortify_to_border,
    _is_border,
)
from riskstats.game.bots.hunter.chain import H_REACH, _best_route
from riskstats.game.rules.legal import _fortify_reach
from riskstats.game.rules.objectives import _holds_continent
from riskstats.game.rules.options import R_NEUTRAL
from riskstats.game.rules.state import FORTIFY_MOVE, SC_RANK, SC_SPARE, _scratch_block


@jit
def _best_into(st, B, R, V, p, k, held_by, margin):  # pragma: no cover - compiled
    """(from, to, P(conquer)) of p's best attack that passes the stop rule, into continent k if k >= 0, into
    the land of a continent that seat ``held_by`` holds if held_by >= 0 (any if both are -1); from = -1 if
    none. Neutral land counts like any other. An attack rolls with all its source's armies but one, or with
    ``margin`` >= 0 (``hold``) only with what its source can spare (`_keeps`). The argmax is
    `riskstats.game.bots.common._best_attack_where`'s."""
    if held_by < 0 and margin < 0:  # no mask, all armies but one: nothing to fill
        return _best_attack_where(st, B, V, p, k, None, None, True)
    T = st.owner.shape[0]
    rank = _scratch_block(st.scratch, T, SC_RANK)
    spare = _scratch_block(st.scratch, T, SC_SPARE)
    for t in range(T):
        if st.owner[t] == p:
            rank[t] = 1
            spare[t] = st.armies[t] - (_keeps(st, B, R, p, t, margin) if margin >= 0 else 1)
            continue
        target = held_by < 0 or (st.owner[t] == held_by and _holds_continent(st, B, held_by, B.continent_of[t]))
        rank[t] = 0 if target else 1
        spare[t] = 0
    return _best_attack_where(st, B, V, p, k, rank, spare, True)


@jit
def _largest_enemy(st, R, B, t):  # pragma: no cover - compiled
    """The largest enemy stack next to t (the neutral never attacks: not counted)."""
    p = st.owner[t]
    m = 0
    for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
        u = B.nbr_idx[i]
        if st.owner[u] != p and st.owner[u] != R[R_NEUTRAL]:
            m = max(m, st.armies[u])
    return m


@jit
def _neediest_border(st, B, R, p):  # pragma: no cover - compiled
    """(territory, armies short) of p's border territory of a continent p holds whose armies fall most short
    of the largest enemy stack next to it (at least 2 on each); (-1, 0) if none falls short."""
    best = -1
    short = 0
    for t in range(st.owner.shape[0]):
        if st.owner[t] != p or not _holds_continent(st, B, p, B.continent_of[t]):
            continue
        threat = _largest_enemy(st, R, B, t)
        if threat == 0:
            continue
        need = max(2, threat) - st.armies[t]
        if need > short:
            short = need
            best = t
    return best, short


@jit
def _tally(st, B, p, k):  # pragma: no cover - compiled
    """(p's armies, the other seats' armies, p's territories) in continent k."""
    own = 0
    enemy = 0
    mine = 0
    for t in range(st.owner.shape[0]):
        if B.continent_of[t] == k:
            if st.owner[t] == p:
                own += st.armies[t]
                mine += 1
            else:
                enemy += st.armies[t]
    return own, enemy, mine


@jit
def _target(st, B, p, entrance_power):  # pragma: no cover - compiled
    """The continent p goes for: of those it does not hold, the best (bonus + territories / 3) /
    entrances ** ``entrance_power`` (how cheaply it is held: the few-entrance continents first) times the
    square of p's share of the armies in it (how cheaply it is taken); -1 if p holds every continent."""
    K = B.continent_bonus.shape[0]
    best = -1
    best_score = -1.0
    for k in range(K):
        own, enemy, mine = _tally(st, B, p, k)
        if mine == B.continent_size[k]:
            continue
        share = (own + 1.0) / (own + enemy + 2.0)
        score = _continent_value(B, k, entrance_power) * share * share
        if score > best_score:
            best_score = score
            best = k
    return best


@jit
def _continent_value(B, k, power):  # pragma: no cover - compiled
    """How well continent k pays for holding it: (bonus + territories / 3) / entrances ** power."""
    return (B.continent_bonus[k] + B.continent_size[k] / 3.0) / max(1, B.continent_entrances[k]) ** power


@jit
def _entrance_threat(st, B, R, p, k):  # pragma: no cover - compiled
    """The enemy armies that face continent k from outside: for each territory of k with a neighbour in another
    continent, the largest stack next to it there that is neither p's nor the neutral's, summed."""
    threat = 0
    for t in range(st.owner.shape[0]):
        if B.continent_of[t] != k:
            continue
        m = 0
        for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
            u = B.nbr_idx[i]
            if B.continent_of[u] != k and st.owner[u] != p and st.owner[u] != R[R_NEUTRAL]:
                m = max(m, st.armies[u])
        threat += m
    return threat


@jit
def _hold_target(st, B, R, CUT, V, p, extra, power):  # pragma: no cover - compiled
    """The continent p goes for with ``hold`` (three players or more): of those it does not hold, the best
    `_continent_value` x (the exact P(taking all of it this turn), ``extra`` armies added at the start of its
    best route (`_best_route`), + the square of p's share of the armies in it, as `_target`) x how well it would
    be held, (M + 1) / (M + E + 1), M p's armies in it plus ``extra``, E the enemy armies facing its entrances
    (`_entrance_threat`); -1 if p holds every continent."""
    K = B.continent_bonus.shape[0]
    best = -1
    best_score = -1.0
    for k in range(K):
        own, enemy, mine = _tally(st, B, p, k)
        if mine == B.continent_size[k]:
            continue
        share = (own + 1.0) / (own + enemy + 2.0)
        pk = _best_route(st, B, R, CUT, V, p, -1, k, extra, False)[2]
        m = own + extra
        held = (m + 1.0) / (m + _entrance_threat(st, B, R, p, k) + 1.0)
        score = _continent_value(B, k, power) * (pk + share * share) * held
        if score > best_score:
            best_score = score
            best = k
    return best


@jit
def _keeps(st, B, R, p, t, margin):  # pragma: no cover - compiled
    """The armies p's territory t keeps with ``hold``: on the border of a continent p holds, ``margin`` more
    than the largest enemy stack next to it (at least 2); elsewhere 1."""
    if _holds_continent(st, B, p, B.continent_of[t]):
        threat = _largest_enemy(st, R, B, t)
        if threat > 0:
            return max(2, threat + margin)
    return 1


@jit
def _hold_border(st, B, R, p, margin):  # pragma: no cover - compiled
    """(territory, armies short) of p's border territory of a continent p holds that falls most short of what it
    keeps (`_keeps`); (-1, 0) if none falls short (`_neediest_border` with a margin)."""
    best = -1
    short = 0
    for t in range(st.owner.shape[0]):
        if st.owner[t] != p or not _holds_continent(st, B, p, B.continent_of[t]):
            continue
        need = _keeps(st, B, R, p, t, margin) - st.armies[t]
        if need > short:
            short = need
            best = t
    return best, short


@jit
def _fortify_hold(st, B, R, p, margin):  # pragma: no cover - compiled
    """The fortification with ``hold``: the border of a continent p holds that falls most short
    (`_neediest_border`) gets what the territory that can spare most and reach it can spare (`_keeps`; a
    territory that borders an enemy and guards no held continent keeps its largest enemy neighbour, and sends
    no more than the shortfall); with none short, `_fortify_to_border`."""
    t, short = _hold_border(st, B, R, p, margin)
    if t < 0:
        return _fortify_to_border(st, B, R, p)
    reach = _scratch_block(st.scratch, st.owner.shape[0], H_REACH)
    reach[:] = 0
    _fortify_reach(st, B, R, p, t, reach)
    src = -1
    spare = 0
    for u in range(st.owner.shape[0]):
        if reach[u] != 1 or st.owner[u] != p:
            continue
        keep = _keeps(st, B, R, p, u, margin)
        if keep == 1 and _is_border(st.owner, B.nbr_ptr, B.nbr_idx, u):
            keep = max(1, _largest_enemy(st, R, B, u))
        if st.armies[u] - keep > spare:
            spare = st.armies[u] - keep
            src = u
    if src < 0:
        return _fortify_to_border(st, B, R, p)
    if _is_border(st.owner, B.nbr_ptr, B.nbr_idx, src):
        spare = min(spare, short)
    return FORTIFY_MOVE, src, t, spare, 0
