"""The hunter's routes and their exact odds: `_chain_odds`, the forward pass of a run of battles' Markov chain
(one army left behind on each territory conquered but the last; the same answer as
`riskstats.odds.chain.chain_odds` with leave=1, read from the one-roll probabilities `riskstats.odds.simulate.roll_p`
serves), the routes it prices (`_route`: one path; `_flood`: a sweep through a seat's land), the best one
(`_best_route`)."""
from __future__ import annotations

import numpy as np

from riskstats._numba import jit
from riskstats.game.bots.common import _p_win
from riskstats.game.rules.options import R_ADICE, R_DDICE
from riskstats.game.rules.state import SC_OWN, _scratch_row, _scratch_rows
from riskstats.odds.simulate import roll_p

CHAIN_CAP = 120
"""Attackers and defenders a side beyond which `_chain_odds` clamps (P(conquer) is then 0 or 1 to 1e-9 for
every route a bot weighs; the clamp bounds a decision's cost)."""


ROUTE_MAX = 42
"""Territories in one priced route at most (a kill route, or the rest of a continent)."""
H_ROUTE, H_DEFENDERS, H_WORK = SC_OWN, SC_OWN + 1, SC_OWN + 2
H_REGION, H_FLOOD, H_SEEN, H_REACH, H_HOLDS = range(SC_OWN + 6, SC_OWN + 11)
"""The hunter's scratch blocks (`riskstats.game.rules.state.SC_OWN` on, T + 1 words each; `H_WORK` is four): a
priced route and its defenders (`_best_route`), the route pricing's work rows (`_scratch`), a sweep's region and
its stack (`riskstats.game.bots.hunter.hunt._region_need`), the regions seen after a conquest
(`hunt._occupy_extra`), a fortification's reach (`holding._fortify_hold`) and the continents held in a two-player
setup (`setup._setup_duel`). Its kernels take every per-move buffer from them, as the other bots do; the chain odds'
two probability tables (`_chain_odds`, sized by the armies up to `CHAIN_CAP`) are its only allocations."""


@jit
def _chain_odds(CUT, R, attackers, defenders, n):  # pragma: no cover - compiled
    """(P(all conquered), E[armies left on the last territory, 0 where the chain fails]) of ``attackers``
    (armies able to roll) conquering ``defenders[0..n-1]`` in a row, one army left behind on each territory
    conquered but the last, the rule's most dice on both sides: the exact forward pass of the chain's Markov
    chain (`riskstats.odds.chain.chain_odds` with leave=1)."""
    A = min(attackers, CHAIN_CAP)
    if A <= 0:
        return 0.0, 0.0
    adice = R[R_ADICE]
    ddice = R[R_DDICE]
    dist = np.zeros(A + 1)
    dist[A] = 1.0
    p_all = 0.0
    expected = 0.0
    for i in range(n):
        d = min(defenders[i], CHAIN_CAP)
        P = np.zeros((A + 1, d + 1))
        for x in range(1, A + 1):
            P[x, d] = dist[x]
        for x in range(A, 0, -1):
            for y in range(d, 0, -1):
                m = P[x, y]
                if m == 0.0:
                    continue
                na = min(adice, x)
                nd = min(ddice, y)
                k = min(na, nd)
                for j in range(k + 1):
                    P[x - j, y - (k - j)] += m * roll_p(CUT, na, nd, j)
        dist[:] = 0.0
        if i == n - 1:
            for x in range(1, A + 1):
                p_all += P[x, 0]
                expected += x * P[x, 0]
        else:
            for x in range(1, A + 1):
                dist[x - 1] += P[x, 0]
    return p_all, expected


@jit
def _is_target(st, B, t, p, q, k):  # pragma: no cover - compiled
    """Whether territory t is a target of p's route: seat q's (q >= 0), or with q = -1 a territory of continent
    k that p does not hold."""
    if q >= 0:
        return st.owner[t] == q
    return st.owner[t] != p and B.continent_of[t] == k


@jit
def _on_route(route, n, t):  # pragma: no cover - compiled
    """Whether territory t is among route[:n]."""
    for r in range(n):
        if route[r] == t:
            return True
    return False


@jit
def _scratch(st):  # pragma: no cover - compiled
    """The scratch rows a route's pricing reuses from one candidate start to the next (`H_WORK`'s four blocks,
    as one (4, T + 1) view): a sweep's stack (`_flood`), and `_other_sweeps`' route, defenders and covered
    flags."""
    return _scratch_rows(st.scratch, st.owner.shape[0], H_WORK, 4)


@jit
def _route(st, B, s, q, k, route, flood, stack):  # pragma: no cover - compiled
    """A route of conquests from own territory s: each next territory the weakest of those not yet taken
    next to the last one taken (s first), among seat q's territories (q >= 0) or, with q = -1, the
    territories of continent k that s's owner does not hold; returns how many it reaches (route[:n]). With
    ``flood`` it is `_flood` instead (``stack`` its scratch): every such territory that a sweep from s reaches."""
    p = st.owner[s]
    if flood:
        return _flood(st, B, s, p, q, k, route, stack)
    n = 0
    c = s
    while n < min(ROUTE_MAX, route.shape[0]):
        best = -1
        for i in range(B.nbr_ptr[c], B.nbr_ptr[c + 1]):
            u = B.nbr_idx[i]
            if not _is_target(st, B, u, p, q, k):
                continue
            if not _on_route(route, n, u) and (best < 0 or st.armies[u] < st.armies[best]):
                best = u
        if best < 0:
            break
        route[n] = best
        n += 1
        c = best
    return n


@jit
def _flood(st, B, s, p, q, k, route, stack):  # pragma: no cover - compiled
    """The targets of p's route (`_is_target`: seat q's territories, or with q = -1 continent k's land p does not
    hold) that a sweep from s reaches through targets, in the order of a depth-first walk that takes the weakest
    neighbour first (route[:n]; returns n). Priced as one chain (`_chain_odds`) it
    counts what a sweep costs: one army left on each territory taken, the stack split where the walk branches
    and the dice it throws taken as the whole stack's (a slight overestimate where a split stack is small).
    ``stack``: scratch of at least a territory more than the board has (`_scratch`)."""
    n = 0
    stack[0] = s
    top = 1
    while top > 0 and n < min(ROUTE_MAX, route.shape[0]):
        top -= 1
        c = stack[top]
        if c != s:
            if _on_route(route, n, c):
                continue
            route[n] = c
            n += 1
        while True:  # push c's untaken neighbours of q's, the weakest last (it is taken first)
            best = -1
            for i in range(B.nbr_ptr[c], B.nbr_ptr[c + 1]):
                u = B.nbr_idx[i]
                if not _is_target(st, B, u, p, q, k) or _on_route(route, n, u) or _on_route(stack, top, u):
                    continue
                if best < 0 or st.armies[u] > st.armies[best]:
                    best = u
            if best < 0:
                break
            stack[top] = best
            top += 1
    return n


@jit
def _route_odds(st, B, R, CUT, V, s, q, k, extra, via, route, defenders, flood, work):  # pragma: no cover - compiled
    """(P(every target taken this turn), route length) of `_route` from s with ``extra`` armies added there
    (through territory ``via`` first, a neighbour of s, if it is not -1): the route by `_chain_odds`, each target
    it misses by one attack from the best other own territory next to it (P(conquer) from the table; 0 if
    none), or with ``flood`` by a sweep (`_flood`) from the largest other own stack next to it, each target
    counted once (0 if none). ``work``: `_scratch`.

    Parameters
    ----------
    st : State
        The game (read).
    B, R, CUT, V
        The context: the board arrays, rule vector (int64[R_SIZE]), one-roll table and P(conquer) table.
    s : int
        The own territory the route starts from.
    q, k : int
        The route's targets (`_is_target`): seat q's territories, or with q = -1 continent k's land s's owner does
        not hold.
    extra : int
        Armies added on s (the reserve still to place), counted once.
    via : int
        A neighbour of s taken first, or -1.
    route, defenders : int64[T + 1]
        Written: the route and its defenders.
    flood : bool
        Price the route as a sweep (`_flood`) and the targets it misses by sweeps (`_other_sweeps`).
    work : int64[4, T + 1]
        `_scratch`.
    """
    p = st.owner[s]
    if via >= 0:
        route[0] = via
        n = 1 + _route(st, B, via, q, k, route[1:], flood, work[0])
    else:
        n = _route(st, B, s, q, k, route, flood, work[0])
    for r in range(n):
        defenders[r] = st.armies[route[r]]
    pk, _ = _chain_odds(CUT, R, st.armies[s] - 1 + extra, defenders, n)
    if flood:
        return pk * _other_sweeps(st, B, R, CUT, s, p, q, k, route, n, work), n
    for t in range(st.owner.shape[0]):
        if not _is_target(st, B, t, p, q, k) or _on_route(route, n, t):
            continue
        best_other = 0.0
        for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
            u = B.nbr_idx[i]
            if st.owner[u] == p and u != s and st.armies[u] >= 2:
                best_other = max(best_other, _p_win(V, st.armies[u] - 1, st.armies[t]))
        pk *= best_other
    return pk, n


@jit
def _other_sweeps(st, B, R, CUT, s, p, q, k, route, n, work):  # pragma: no cover - compiled
    """P(the targets route[:n] misses are taken too): each by a sweep (`_flood`) from the largest own stack other
    than s next to it, a target counted in the first sweep that reaches it (0 if one has no such stack).
    ``work``: `_scratch` (its rows: the sweep's stack, its route, their defenders, which targets are covered).

    Parameters
    ----------
    st : State
        The game (read).
    B, R, CUT
        The context's board arrays, rule vector and one-roll table.
    s : int
        The route's start, left out of the other stacks.
    p : int
        The seat sweeping.
    q, k : int
        The targets, as in `_route_odds`.
    route : int64[T + 1]
        The route, route[:n] the targets it takes.
    n : int
        The route's length.
    work : int64[4, T + 1]
        `_scratch`.
    """
    T = st.owner.shape[0]
    other = work[1]
    defenders = work[2]
    covered = work[3]
    covered[:T] = 0
    for r in range(n):
        covered[route[r]] = 1
    p_all = 1.0
    for t in range(T):
        if covered[t] or not _is_target(st, B, t, p, q, k):
            continue
        u = -1
        for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
            v = B.nbr_idx[i]
            if st.owner[v] == p and v != s and st.armies[v] >= 2 and (u < 0 or st.armies[v] > st.armies[u]):
                u = v
        if u < 0:
            return 0.0
        m = _flood(st, B, u, p, q, k, other, work[0])
        c = 0
        for r in range(m):
            if not covered[other[r]]:
                covered[other[r]] = 1
                defenders[c] = st.armies[other[r]]
                c += 1
        p_all *= _chain_odds(CUT, R, st.armies[u] - 1, defenders, c)[0]
    return p_all


@jit
def _best_route(st, B, R, CUT, V, p, q, k, extra, flood):  # pragma: no cover - compiled
    """(start, first target, P(all taken)) of p's best route (`_route_odds`) over seat q's territories (q >= 0)
    or the rest of continent k (q = -1), from every own territory next to one of them, and for q's territories
    also through one other seat's territory first; start = -1 if none.

    Parameters
    ----------
    st : State
        The game (read).
    B, R, CUT, V
        The context: the board arrays, rule vector (int64[R_SIZE]), one-roll table and P(conquer) table.
    p : int
        The seat whose routes are priced.
    q, k : int
        The targets, as in `_route_odds`.
    extra : int
        Armies added on the start (the reserve still to place).
    flood : bool
        Price each route as a sweep (`_route_odds`).
    """
    route = _scratch_row(st.scratch, st.owner.shape[0], H_ROUTE)
    defenders = _scratch_row(st.scratch, st.owner.shape[0], H_DEFENDERS)
    work = _scratch(st)
    best_s = -1
    best_b = -1
    best_p = 0.0
    for s in range(st.owner.shape[0]):
        if st.owner[s] != p or st.armies[s] + extra < 2:
            continue
        near = False
        for i in range(B.nbr_ptr[s], B.nbr_ptr[s + 1]):
            u = B.nbr_idx[i]
            if _is_target(st, B, u, p, q, k):
                near = True
            elif q >= 0 and st.owner[u] != p and _borders(st, B, u, q):  # a kill through u first
                pk, n = _route_odds(st, B, R, CUT, V, s, q, k, extra, u, route, defenders, flood, work)
                if best_s < 0 or pk > best_p:
                    best_s = s
                    best_b = u
                    best_p = pk
        if not near:
            continue
        pk, n = _route_odds(st, B, R, CUT, V, s, q, k, extra, -1, route, defenders, flood, work)
        if n > 0 and (best_s < 0 or pk > best_p):
            best_s = s
            best_b = route[0]
            best_p = pk
    return best_s, best_b, best_p


@jit
def _borders(st, B, t, q):  # pragma: no cover - compiled
    """Whether territory t has a neighbour of seat q."""
    for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
        if st.owner[B.nbr_idx[i]] == q:
            return True
    return False
