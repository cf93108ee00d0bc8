"""The ``hunter`` bot (issue 38): an attack phase planned with the exact odds of whole chains of conquests.

Where the other heuristics look one battle ahead (the best single P(conquer)), the hunter prices routes:
`_chain_odds` is the exact forward Markov chain of a run of battles (each conquest leaves one army behind,
the dice by the game's rule, read from the engine's one-roll table ``CUT``), the same answer as
`riskstats.odds.chain.chain_odds`. With it the hunter

- **eliminates for cards** (`_kill_plan`): every opponent with few territories is priced as a route through
  all of them from one of its stacks, directly or through one other seat's territory first (the reserve added
  while it reinforces); a seat holding cards is hunted
  at lower odds than one without, since its cards come with the kill. With ``sweep`` the route is a sweep
  (`_flood`): every territory of the hunted seat's that the stack reaches through that seat's land, priced as
  one chain, and played by splitting the stack after a conquest where the sweep branches (`_occupy_extra`,
  `_region_need`); with ``finish`` the last other seat is hunted whatever its size, since that kill wins the
  game. Together they took the hunter from 21.7% to 33.0% of 300 four-player tuning games against Domination's
  hard AI (each alone: 20.4% of 147 and 21.7% of 300); on fresh games it wins 28.5% of 600, the hard AI in its
  seat 27.5% (data/outside/issue38/sweep);
- **stops rolling** where the exact engine says the attack has stopped paying (`_rolls_on`): never two armies or
  fewer against as many defenders or more, unless that territory is the last of a kill;
- **takes continents it can hold and mans their borders**: it reinforces a held continent's border up to the
  largest enemy stack next to it before it spends the rest on its target continent, breaks a continent
  another seat holds when the odds allow, and takes one territory a turn for a card. With ``hold`` (three
  players or more; two-player games play as without it) the target continent is priced by the exact odds of
  taking it all this turn, the reserve added, and weighed against the enemy armies facing its entrances
  (`_hold_target`); a held continent's border keeps ``hold_margin`` armies beyond the largest enemy stack next
  to it (`_keeps`, `_hold_border`) when it attacks for land or a card (`_best_into` with a margin) and is
  fortified first (`_fortify_hold`). Against Domination's hard AI it took the share of the hunter's turn starts
  holding a continent from 18% to 24-25% (data/outside/issue38/hold);
- **turns armies into land and cards**: beyond those attacks it takes any territory whose P(conquer) is at
  least ``expand``. Without it the hunter hoarded (against Domination's hard AI its armies grew to 38% of the
  board's by round 10 on 25% of the land, and it won 4-7% of four-player games); with it, 15-19% on the tuning
  seeds (data/outside/issue38). Two limits are off by default, tried against the hard AI without a measurable
  gain (data/outside/issue38/levers): ``lead`` (cheap conquests only while its territories are below the other
  seats' mean plus this: `_lead`) and ``duel_expand`` (the threshold once one other seat is left);
- **moves in what the onward route needs** after a conquest, keeping on the old territory what its border needs;
- **does not stack its setup** (`_setup_spread`): setup armies go one placement at a time to the border
  territories of its target continent that are thinnest against their enemy neighbours. With two players and no
  neutral (``setup=auto``: duel) it claims contested when it claims first (`_claim_contested`: block, complete,
  plant in every continent, grow where the majority is still open) and planted when second (`_claim_planted`),
  and puts at most `SETUP_STACK` armies on the start of its route into each of the one or two continents where it
  holds half the land (`_setup_duel`; moving first, the big ones first) before it spreads; against Domination's
  hard AI this took it from 29.3% to 43.3% of two-player tuning games (data/outside/issue38/duo).

The guide's treatments (issue 52) replace one of these rules when given: ``first`` forces its target continent
until it first holds it (reinforcing its route in, one conquest at a time into it at P(conquer) >= ``threshold``
besides the route rule; with ``draft`` also claims toward it and a planted setup on its route in), ``fortify``,
``reinforce`` and ``claim`` (spread, none, random: the other bots' placement options, `riskstats.game.bots.common`).

This module owns the hunter's kernels. It does not own the exact odds' public API (`riskstats.odds`), whose
kernels work on whole tables; `_chain_odds` is the one forward pass a bot needs, checked against
`chain_odds` in the tests.
"""
from __future__ import annotations

import numpy as np

from riskstats._numba import inline_jit, jit
from riskstats.game.bots.catalog import (
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
    HUNTER_KILL,
    HUNTER_KILL_MAX,
    HUNTER_KILL_PLAIN,
    HUNTER_LEAD,
    HUNTER_SETUP,
    HUNTER_STYLE,
    HUNTER_SWEEP,
    HUNTER_THRESHOLD,
    HUNTER_TRADE_AT,
)
from riskstats.game.bots.common import (
    _claim_greedy,
    _claim_toward,
    _forced_first,
    _fortify_styled,
    _fortify_to_border,
    _is_border,
    _most_threatened,
    _p_win,
    _place_neutral,
    _placement,
    _random_claim,
    _trade_timed,
)
from riskstats.game.rules.cards import _hand_size
from riskstats.game.rules.legal import _attack_dice, _fortify_reach
from riskstats.game.rules.objectives import _holds_continent
from riskstats.game.rules.options import R_ADICE, R_DDICE, R_NEUTRAL, R_PLAYERS
from riskstats.game.rules.state import (
    ATTACK,
    ATTACK_MOVE,
    CLAIM,
    ELIM_TRADE,
    END_ATTACK,
    FORTIFY_MOVE,
    I_CONQUERED,
    I_OCC_FROM,
    I_OCC_TO,
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

CHAIN_CAP = 120
"""Attackers and defenders a side beyond which `_chain_odds` clamps (P(conquer) is then 0 or 1 to 1e-9 for
every route a bot weighs; the clamp bounds a decision's cost)."""
SETUP_ROUTE_P = 0.8
"""A planted setup puts its armies on the start of its best route into its target continent until P(taking all
of it in one turn) from there reaches this (chosen on two-player tuning games against Domination's hard AI)."""
SETUP_STACK = 10
"""... and while that start holds fewer armies than this (no single stack: the hard AI's largest setup stack is
9.5 armies on average with two players, docs/outside.md)."""
ROUTE_MAX = 42
"""Territories in one priced route at most (a kill route, or the rest of a continent)."""
TWO53 = 9007199254740992.0


@jit
def _roll_p(CUT, na, nd, j):  # pragma: no cover - compiled
    """P(the attacker loses j armies) in one roll of na dice against nd, from the engine's cut table."""
    n = min(na, nd)
    hi = TWO53 if j >= n else float(CUT[na, nd, j])
    lo = 0.0 if j == 0 else float(CUT[na, nd, j - 1])
    return (hi - lo) / TWO53


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
                    P[x - j, y - (k - j)] += m * _roll_p(CUT, na, nd, j)
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
    """The scratch rows a route's pricing reuses from one candidate start to the next (allocated once per
    `_best_route`): a sweep's stack (`_flood`), and `_other_sweeps`' route, defenders and covered flags."""
    return np.empty((4, max(st.owner.shape[0] + 1, ROUTE_MAX)), np.int64)


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
    while n < ROUTE_MAX:
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
    while top > 0 and n < ROUTE_MAX:
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
    route, defenders : int64[ROUTE_MAX]
        Written: the route and its defenders.
    flood : bool
        Price the route as a sweep (`_flood`) and the targets it misses by sweeps (`_other_sweeps`).
    work : int64[4, max(T + 1, ROUTE_MAX)]
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
    route : int64[ROUTE_MAX]
        The route, route[:n] the targets it takes.
    n : int
        The route's length.
    work : int64[4, max(T + 1, ROUTE_MAX)]
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
    route = np.empty(ROUTE_MAX, np.int64)
    defenders = np.empty(ROUTE_MAX, np.int64)
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


@jit
def _kill_plan(st, B, R, CUT, V, p, extra, max_terr, flood):  # pragma: no cover - compiled
    """p's best kill now: (seat q, start s, first target, P(kill)), or q = -1 if none. Every opponent with at
    most ``max_terr`` territories is priced by `_best_route` over its territories, ``extra`` armies added to the
    start (the reserve while reinforcing). Between seats, one holding cards counts its P(kill) double (the
    thresholds are the caller's, `_wants_kill`)."""
    neutral = R[R_NEUTRAL]
    best_q = -1
    best_s = -1
    best_b = -1
    best_p = 0.0
    best_score = 0.0
    for q in range(st.alive.shape[0]):
        if q == p or q == neutral or st.alive[q] == 0 or st.n_terr[q] > max_terr:
            continue
        s, b, pk = _best_route(st, B, R, CUT, V, p, q, -1, extra, flood)
        weight = 2.0 if _hand_size(st, q) > 0 else 1.0
        if s >= 0 and pk * weight > best_score:
            best_score = pk * weight
            best_q = q
            best_s = s
            best_b = b
            best_p = pk
    return best_q, best_s, best_b, best_p


@inline_jit
def _wants_kill(st, q, pk, params, last):  # pragma: no cover - compiled
    """Whether P(kill) ``pk`` of seat q clears the hunter's threshold: ``kill`` for a seat holding cards (they
    come with the kill) or for the ``last`` other seat (the kill wins the game), ``kill_plain`` for one
    without."""
    if q < 0:
        return False
    if last or _hand_size(st, q) > 0:
        return pk >= params[HUNTER_KILL]
    return pk >= params[HUNTER_KILL_PLAIN]


@jit
def _rolls_on(st, attackers, b):  # pragma: no cover - compiled
    """The stop rule: never roll with two armies or fewer against as many defenders or more (P(conquer) 2
    against 2 is 0.36 and every loss is an army the border needs), unless b is its owner's last territory
    (the kill's last throw)."""
    if attackers >= 3 or attackers > st.armies[b]:
        return True
    return st.n_terr[st.owner[b]] == 1


@jit
def _best_into(st, B, R, V, p, k, held_by, margin):  # pragma: no cover - compiled
    """(from, to, P(conquer)) of p's best attack that passes the stop rule, into continent k if k >= 0, into
    the land of a continent that seat ``held_by`` holds if held_by >= 0 (any if both are -1); from = -1 if
    none. Neutral land counts like any other. An attack rolls with all its source's armies but one, or with
    ``margin`` >= 0 (``hold``) only with what its source can spare (`_keeps`)."""
    best_a = -1
    best_b = -1
    best_p = -1.0
    for a in range(st.owner.shape[0]):
        if st.owner[a] != p:
            continue
        spare = st.armies[a] - (_keeps(st, B, R, p, a, margin) if margin >= 0 else 1)
        if spare < 1:
            continue
        for i in range(B.nbr_ptr[a], B.nbr_ptr[a + 1]):
            b = B.nbr_idx[i]
            if st.owner[b] == p or (k >= 0 and B.continent_of[b] != k):
                continue
            if held_by >= 0 and (st.owner[b] != held_by or not _holds_continent(st, B, held_by, B.continent_of[b])):
                continue
            if not _rolls_on(st, spare, b):
                continue
            pw = _p_win(V, spare, st.armies[b])
            if pw > best_p:
                best_p = pw
                best_a = a
                best_b = b
    return best_a, best_b, best_p


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
def _setup_spread(st, B, R, p, k):  # pragma: no cover - compiled
    """Where one setup placement goes: p's territory in or next to continent k (anywhere if k is -1 or p has
    none there) that borders an enemy and is thinnest against its largest enemy neighbour; the target
    continent's own territories first, a territory holding `SETUP_STACK` armies or more last (no stack)."""
    best = -1
    best_score = -1e18
    for t in range(st.owner.shape[0]):
        if st.owner[t] != p or not _is_border(st.owner, B.nbr_ptr, B.nbr_idx, t):
            continue
        score = _largest_enemy(st, R, B, t) - st.armies[t] - (100.0 if st.armies[t] >= SETUP_STACK else 0.0)
        if k >= 0:
            if B.continent_of[t] == k:
                score += 3.0
            else:
                near = False
                for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
                    if B.continent_of[B.nbr_idx[i]] == k and st.owner[B.nbr_idx[i]] != p:
                        near = True
                score += 1.5 if near else -3.0
        if score > best_score:
            best_score = score
            best = t
    return best if best >= 0 else _most_threatened(st, B, R, p)


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
def _claims_in(st, B, p, k):  # pragma: no cover - compiled
    """(free, p's, the other seats', the other seat) territories of continent k during the claims; the other seat
    is -2 if none has claimed there, -3 if two or more have."""
    free = 0
    mine = 0
    others = 0
    other = -2
    for t in range(st.owner.shape[0]):
        if B.continent_of[t] != k:
            continue
        if st.owner[t] == -1:
            free += 1
        elif st.owner[t] == p:
            mine += 1
        else:
            others += 1
            other = st.owner[t] if other == -2 or other == st.owner[t] else -3
    return free, mine, others, other


@jit
def _claim_within(st, B, p, k):  # pragma: no cover - compiled
    """The free territory of continent k with the most own and the fewest enemy neighbours (-1 if none)."""
    best = -1
    best_t = -1e18
    for t in range(st.owner.shape[0]):
        if st.owner[t] != -1 or B.continent_of[t] != k:
            continue
        score = 0.0
        for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
            u = st.owner[B.nbr_idx[i]]
            if u == p:
                score += 1.0
            elif u >= 0:
                score -= 0.5
        if score > best_t:
            best_t = score
            best = t
    return best


@jit
def _claim_planted(st, B, p, power):  # pragma: no cover - compiled
    """A claim: first block (the last free territory of a continent one other seat would otherwise complete),
    then plant one claim in the best-paying continent (`_continent_value`) nobody has claimed in yet, then grow
    where p's share of a continent's claims times its value is best; within a continent, the free territory
    with the most own and the fewest enemy neighbours."""
    K = B.continent_bonus.shape[0]
    best_k = -1
    best_score = -1.0
    for k in range(K):
        free, mine, others, other = _claims_in(st, B, p, k)
        if free == 0:
            continue
        value = _continent_value(B, k, power)
        if free == 1 and mine == 0 and other >= 0:
            score = 1e9  # block a completion
        elif mine == 0 and others == 0:
            score = 1e6 + value  # plant
        else:
            score = value * (mine + 1.0) / (others + 1.0)
        if score > best_score:
            best_score = score
            best_k = k
    return _claim_within(st, B, p, best_k)


@jit
def _duel_holds(st, B, p, power, out):  # pragma: no cover - compiled
    """The continents a two-player setup aims to hold (``out[:n]``, returns n, at most two): those where p has at
    least half the territories, the best-paying (`_continent_value`) first; if none, the one where p's share of the
    territories times its value is best."""
    K = B.continent_bonus.shape[0]
    n = 0
    for _ in range(2):
        best = -1
        best_v = -1.0
        for k in range(K):
            if n > 0 and out[0] == k:
                continue
            if 2 * _claims_in(st, B, p, k)[1] < B.continent_size[k]:
                continue
            v = _continent_value(B, k, power)
            if v > best_v:
                best_v = v
                best = k
        if best < 0:
            break
        out[n] = best
        n += 1
    if n == 0:
        best_v = -1.0
        for k in range(K):
            v = _continent_value(B, k, power) * _claims_in(st, B, p, k)[1] / B.continent_size[k]
            if v > best_v:
                best_v = v
                out[0] = k
        n = 1
    return n


@jit
def _places_first(st, p):  # pragma: no cover - compiled
    """Whether p placed first in this round of setup placements (two players, one army at a time in turn: p's
    armies on the board as many as the other seat's); the first to place moves first."""
    mine = 0
    theirs = 0
    for t in range(st.owner.shape[0]):
        if st.owner[t] == p:
            mine += st.armies[t]
        elif st.owner[t] >= 0:
            theirs += st.armies[t]
    return mine >= theirs


@jit
def _setup_duel(st, B, R, CUT, V, p, power):  # pragma: no cover - compiled
    """Where one setup placement goes with two players and no neutral: the start of the best route into each
    continent it can hold (`_duel_holds`: moving first, ranked by bonus and size alone, so North America comes
    before Australia; moving second, by ``power`` as `_target`) until P(taking all of it in one turn) from there
    reaches `SETUP_ROUTE_P` or the start holds `SETUP_STACK`; otherwise `_setup_spread` for the first of them (the
    thinnest border against the largest enemy stack next to it, none above `SETUP_STACK`). A route starts from a
    territory of two armies or more (`_best_route`), so the first armies spread until one such start exists:
    starting the routes at once, counting the army being placed, measured worse against the hard AI (27.0% against
    38.0% of two-player tuning games, 6.7% moving second)."""
    holds = np.empty(2, np.int64)
    n = _duel_holds(st, B, p, 0.0 if _places_first(st, p) else power, holds)
    for j in range(n):
        k = holds[j]
        s, b, pc = _best_route(st, B, R, CUT, V, p, -1, k, 0, False)
        if s >= 0 and pc < SETUP_ROUTE_P and st.armies[s] < SETUP_STACK:
            return s
    return _setup_spread(st, B, R, p, holds[0])


@jit
def _claims_first(st):  # pragma: no cover - compiled
    """Whether the seat to claim claimed first (two players: an even number of territories claimed so far); the
    first claimer moves first."""
    n = 0
    for t in range(st.owner.shape[0]):
        if st.owner[t] >= 0:
            n += 1
    return n % 2 == 0


@jit
def _claim_contested(st, B, p, power):  # pragma: no cover - compiled
    """A two-player claim: block (the last free territory of a continent the other seat would complete), complete
    one of its own, plant one claim in every continent it has none in yet, the best-paying first
    (`_continent_value`), whoever has claimed there; then grow where p can still have the majority and its share
    of the claims times the continent's value is best; within a continent as `_claim_planted`."""
    K = B.continent_bonus.shape[0]
    best_k = -1
    best_score = -1.0
    for k in range(K):
        free, mine, others, _ = _claims_in(st, B, p, k)
        if free == 0:
            continue
        value = _continent_value(B, k, power)
        if free == 1 and mine == 0:
            score = 1e9  # block a completion
        elif free == 1 and others == 0:
            score = 1e8  # complete its own
        elif mine == 0:
            score = 1e6 + value  # plant
        elif mine + free > others:
            score = 1e3 + value * (mine + 1.0) / (others + 1.0)
        else:
            score = value * (mine + 1.0) / (others + 1.0)
        if score > best_score:
            best_score = score
            best_k = k
    return _claim_within(st, B, p, best_k)


@jit
def _presses_on(st, B, R, p, t, k, max_terr, last):  # pragma: no cover - compiled
    """Whether a route goes on from t: t borders land of target continent k that p does not hold, or a hunted
    seat's (`_huntable`: a kill's next step)."""
    for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
        u = B.nbr_idx[i]
        q = st.owner[u]
        if q == p or q == R[R_NEUTRAL]:
            continue
        if B.continent_of[u] == k or _huntable(st, R, p, q, max_terr, last):
            return True
    return False


@jit
def _huntable(st, R, p, q, max_terr, last):  # pragma: no cover - compiled
    """Whether a kill route goes through seat q's land: another seat in the game, not the neutral, with at most
    ``max_terr`` territories, holding cards or the ``last`` other seat."""
    if q == p or q < 0 or q == R[R_NEUTRAL] or st.alive[q] == 0:
        return False
    return st.n_terr[q] <= max_terr and (last or _hand_size(st, q) > 0)


@jit
def _region_need(st, B, u, p, q, k, seen):  # pragma: no cover - compiled
    """The armies a sweep of the targets of p's route (`_is_target`) connected to target u through targets
    (`_flood` from u) costs, roughly: one left on each territory and one lost per defender, plus one to roll on;
    marks the region in ``seen`` (a region already seen costs 0, a territory seen in another region too)."""
    if seen[u]:
        return 0
    region = np.empty(ROUTE_MAX, np.int64)
    n = _flood(st, B, u, p, q, k, region, np.empty(st.owner.shape[0] + 1, np.int64))
    seen[u] = True
    need = 2 + st.armies[u]
    for r in range(n):
        t = region[r]
        if not seen[t]:  # (the walk may come back to u, its start)
            seen[t] = True
            need += 1 + st.armies[t]
    return need


@jit
def _sweep_need(st, B, R, p, t, k, max_terr, last, sweep, seen):  # pragma: no cover - compiled
    """What the sweeps next to t cost (`_region_need`): the land of each hunted seat (`_huntable`), and with
    ``sweep`` 2 the land of target continent k p does not hold, regions in ``seen`` not counted again.

    Parameters
    ----------
    st : State
        The game (read).
    B, R
        The context's board arrays and rule vector.
    p : int
        The seat sweeping.
    t : int
        The territory whose neighbouring regions are counted.
    k : int
        The target continent (-1: none).
    max_terr : int
        The most territories a hunted seat may hold (`_huntable`).
    last : bool
        The hunted seat is the last other seat (`_huntable`).
    sweep : int
        The hunter's `sweep` parameter (0 path, 1 kills, 2 all).
    seen : bool[T]
        Territories already counted in a region; updated.
    """
    need = 0
    for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
        u = B.nbr_idx[i]
        q = st.owner[u]
        if _huntable(st, R, p, q, max_terr, last):
            need += _region_need(st, B, u, p, q, -1, seen)
        elif sweep == 2 and k >= 0 and _is_target(st, B, u, p, -1, k):
            need += _region_need(st, B, u, p, -1, k, seen)
    return need


@jit
def _occupy_extra(st, B, R, p, k, max_terr, last, sweep):  # pragma: no cover - compiled
    """The extra armies moved in after a conquest: everything when the old territory no longer borders an
    enemy; when a route goes on from the new one (`_presses_on`: its target continent k, a kill), everything
    but what the old border needs (its largest enemy neighbour when it guards a continent p holds) and, with
    ``sweep`` (1: kills, 2: kills and continents), what the sweeps that only the old territory reaches need
    (`_sweep_need`: the stack splits where a sweep branches), shared in proportion when the stack is short of
    both; else nothing (the stack stays where it was, the new territory holds the dice's armies)."""
    src = st.info[I_OCC_FROM]
    dst = st.info[I_OCC_TO]
    extra = st.armies[src] - 1
    if extra <= 0:
        return 0
    if not _is_border(st.owner, B.nbr_ptr, B.nbr_idx, src):
        return extra
    if not _presses_on(st, B, R, p, dst, k, max_terr, last):
        return 0
    keep = 0
    if _holds_continent(st, B, p, B.continent_of[src]):
        keep = min(extra, _largest_enemy(st, R, B, src))
    if sweep > 0:
        seen = np.zeros(st.owner.shape[0], np.bool_)
        onward = _sweep_need(st, B, R, p, dst, k, max_terr, last, sweep, seen)
        behind = _sweep_need(st, B, R, p, src, k, max_terr, last, sweep, seen)
        if behind > 0:
            if extra >= keep + behind + onward:
                keep += behind
            else:
                keep = max(keep, (extra * behind) // (behind + max(onward, 1)))
    return extra - min(keep, extra)


@jit
def _seats_left(st, R):  # pragma: no cover - compiled
    """The seats still in the game, the neutral not counted."""
    n = 0
    for q in range(st.alive.shape[0]):
        if st.alive[q] != 0 and q != R[R_NEUTRAL]:
            n += 1
    return n


@inline_jit
def _lead(st, R, p):  # pragma: no cover - compiled
    """Seat ``p``'s territories minus the mean of the other seats still in the game (the neutral not counted)."""
    total = 0
    n = 0
    for q in range(st.alive.shape[0]):
        if q != p and st.alive[q] != 0 and q != R[R_NEUTRAL]:
            total += st.n_terr[q]
            n += 1
    return st.n_terr[p] - total / max(n, 1)


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
    reach = np.zeros(st.owner.shape[0], np.int64)
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


@inline_jit
def _holds(R, params):  # pragma: no cover - compiled
    """Whether the hunter plays for continents it can hold (its ``hold``, with three players or more)."""
    return params[HUNTER_HOLD] == 1 and R[R_PLAYERS] >= 3


@inline_jit
def _planted(R, params):  # pragma: no cover - compiled
    """Whether the hunter claims planted (`_claim_planted`; its ``setup``: 1 planted, 3 duel, 2 auto = duel with
    two players and no neutral, spread otherwise)."""
    setup = params[HUNTER_SETUP]
    return setup == 1 or setup == 3 or (setup == 2 and R[R_PLAYERS] == 2 and R[R_NEUTRAL] < 0)


@inline_jit
def _dueling(R, params):  # pragma: no cover - compiled
    """Whether the hunter places its setup armies for the continents it can hold (`_setup_duel`; ``setup`` 3
    duel, or 2 auto with two players and no neutral)."""
    setup = params[HUNTER_SETUP]
    return setup == 3 or (setup == 2 and R[R_PLAYERS] == 2 and R[R_NEUTRAL] < 0)


@inline_jit
def _hunter_bot(st, B, R, CUT, V, params):  # pragma: no cover - compiled
    info = st.info
    phase = info[I_PHASE]
    p = info[I_PLAYER]
    first = _forced_first(st, B, p, params[HUNTER_FIRST])  # -1: no continent forced (now)
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
    flood = sweep >= 1
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
        s = _best_route(st, B, R, CUT, V, p, -1, k, reserve, sweep == 2)[0] if k >= 0 else -1
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
            s, b, pc = _best_route(st, B, R, CUT, V, p, -1, k, 0, sweep == 2)
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
