"""The hunter's claims and setup armies: spread over its target continent's thin borders (`_setup_spread`),
planted claims (`_claim_planted`), and with two players the contested claims moving first and the setup that goes
big where it holds half a continent (`_claim_contested`, `_setup_duel`)."""
from __future__ import annotations

from riskstats._numba import jit
from riskstats.game.bots.common import (
    _is_border,
    _most_threatened,
)
from riskstats.game.bots.hunter.chain import H_HOLDS, _best_route
from riskstats.game.bots.hunter.holding import _continent_value, _largest_enemy
from riskstats.game.rules.state import _scratch_block

SETUP_ROUTE_P = 0.8
"""A planted setup puts its armies on the start of its best route into its target continent until P(taking all
of it in one turn) from there reaches this (chosen on two-player tuning games against Domination's hard AI)."""


SETUP_STACK = 10
"""... and while that start holds fewer armies than this (no single stack: the hard AI's largest setup stack is
9.5 armies on average with two players, docs/outside.md)."""


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
    holds = _scratch_block(st.scratch, st.owner.shape[0], H_HOLDS)
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
