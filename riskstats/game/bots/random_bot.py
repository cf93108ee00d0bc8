"""The ``random`` bot: a weak heuristic that draws at random among sensible options (favourable attacks with
the most dice, reinforcement on a border territory, every army forward after a conquest). It is not uniform over
the legal moves: that is the ``uniform`` bot (`riskstats.game.bots.uniform`).
"""
from __future__ import annotations

import numpy as np

from riskstats._numba import inline_jit, jit, lean_jit, lowest_bit, popcount
from riskstats.game.bots.catalog import (
    RANDOM_P_FORTIFY,
    RANDOM_P_STOP,
)

# ---------------------------------------------------------------- shared helpers
from riskstats.game.bots.common import _must_trade, _random_border, _random_claim, _random_owned
from riskstats.game.rules.cards import _hand, _set_kind
from riskstats.game.rules.legal import _attack_dice, _fortify_reach
from riskstats.game.rules.state import (
    ATTACK,
    ATTACK_MOVE,
    CAPITAL,
    CAPITAL_PICK,
    CLAIM,
    EDGE_BITS,
    ELIM_TRADE,
    END_ATTACK,
    END_TURN,
    FORTIFY,
    FORTIFY_MOVE,
    I_MOVES,
    I_OCC_FROM,
    I_OCC_TO,
    I_PHASE,
    I_PLACE_FOR,
    I_PLAYER,
    I_QUOTA,
    I_RESERVE,
    OCCUPY,
    OCCUPY_MOVE,
    PASS,
    PLACE,
    REINFORCE,
    SC_DST,
    SC_GOAL,
    SC_MARK,
    SC_PLAYER,
    SC_SRC,
    SC_STAMP,
    SETUP_PLACE,
    TRADE,
    TRADE_SET,
    _edge_bits,
    _scratch_block,
)
from riskstats.game.rules.stream import _randint, _uniform

PLAYS = ('random',)
"""The catalogue entries (`riskstats.game.bots.catalog.BUILT_IN`) this module plays."""


# ---------------------------------------------------------------- the bots
@jit
def _random_set(st, B, p, can_pass):  # pragma: no cover - compiled
    """A move uniform over p's valid sets (and PASS if ``can_pass``)."""
    hand, n = _hand(st, p, 0)
    count = 0
    for i in range(n):
        for j in range(i + 1, n):
            for m in range(j + 1, n):
                if _set_kind(B, hand[i], hand[j], hand[m]) >= 0:
                    count += 1
    if count + (1 if can_pass else 0) == 0:
        return PASS, 0, 0, 0, 0
    k = _randint(st.rng, count + (1 if can_pass else 0))
    for i in range(n):
        for j in range(i + 1, n):
            for m in range(j + 1, n):
                if _set_kind(B, hand[i], hand[j], hand[m]) >= 0:
                    if k == 0:
                        return TRADE_SET, hand[i], hand[j], hand[m], 0
                    k -= 1
    return PASS, 0, 0, 0, 0


@lean_jit
def _random_attack(owner, armies, rng, nbr_ptr, nbr_idx, nbr_src, nbr_rev, p, moves, scratch,
                   bits):  # pragma: no cover - compiled
    """(from, to) uniform over p's attacks where the attackers (armies able to roll) are at least as many
    as the defenders; (-1, -1) if there is none. ``moves`` is info[I_MOVES], ``bits`` the state's edge bits
    (`riskstats.game.rules.state._edge_bits`).

    Called before every roll of the random bot, so it is kept lean: it takes only the arrays it reads
    (a call copies every array of its arguments, see `_is_border`), allocates nothing and calls nothing
    in its loops (an inlined helper's array arguments are reference-counted at each call). It marks the
    favourable attacks in the edge bits (one bit per directed border, in the order from ascending, then
    the neighbour list), draws k uniform below their number and takes the k-th set bit, counting whole
    words at a time (`riskstats._numba.popcount`). The bits stay in the scratch memory
    (`riskstats.game.rules.state.SCRATCH`), stamped with the move number at which the bot is next asked if only
    its attack declaration and the defender's reply (the roll) are played in between: then, in the same
    attack phase (and after its occupation, which moves the stamp on by one), it redoes only the edges
    out of the attack's two territories and into the attacked one, the only edges those moves can change.

    Parameters
    ----------
    owner, armies : int64[T]
        The state's owner and armies of each territory.
    rng : uint64[1]
        The state's random stream (one draw per call).
    nbr_ptr : int64[T + 1]
        The board's neighbour lists (CSR, `BoardArrays`): the neighbours of t are nbr_idx[nbr_ptr[t]:nbr_ptr[t + 1]].
    nbr_idx, nbr_src, nbr_rev : int64[2 * borders]
        Each directed border's end, start and the border back.
    p : int
        The seat attacking.
    moves : int
        info[I_MOVES], the moves played so far (the cache's stamp).
    scratch : int64[scratch size]
        The state's scratch memory, whose head caches the stamp, seat and last attack (`SC_*`).
    bits : int64[words]
        The edge bits (`riskstats.game.rules.state._edge_bits`), a view into scratch.
    """
    T = owner.shape[0]
    if scratch[SC_STAMP] == moves and scratch[SC_PLAYER] == p:
        dst = scratch[SC_DST]
        for j in range(2):  # edges out of src and dst: their armies (and dst's owner) changed
            a = scratch[SC_SRC] if j == 0 else dst
            own = owner[a] == p
            roll = armies[a] - 1
            for e in range(nbr_ptr[a], nbr_ptr[a + 1]):
                b = nbr_idx[e]
                m = np.int64(1) << (e & (EDGE_BITS - 1))
                w = e // EDGE_BITS
                bits[w] = (bits[w] & ~m) | (m * np.int64(own and owner[b] != p and roll >= armies[b]))
        enemy = owner[dst] != p
        d = armies[dst]
        for i in range(nbr_ptr[dst], nbr_ptr[dst + 1]):  # edges into dst
            a = nbr_idx[i]
            e = nbr_rev[i]
            m = np.int64(1) << (e & (EDGE_BITS - 1))
            w = e // EDGE_BITS
            bits[w] = (bits[w] & ~m) | (m * np.int64(enemy and owner[a] == p and armies[a] - 1 >= d))
    else:
        bits[:] = 0
        for a in range(T):
            if owner[a] == p and armies[a] >= 2:
                roll = armies[a] - 1
                for e in range(nbr_ptr[a], nbr_ptr[a + 1]):
                    b = nbr_idx[e]
                    bits[e // EDGE_BITS] |= (np.int64(1) << (e & (EDGE_BITS - 1))) \
                        * np.int64(owner[b] != p and roll >= armies[b])
    scratch[SC_STAMP] = -1
    words = (nbr_idx.shape[0] + EDGE_BITS - 1) // EDGE_BITS
    n = 0
    for w in range(words):
        n += popcount(bits[w])
    if n == 0:
        return -1, -1
    k = _randint(rng, n)
    w = 0
    c = popcount(bits[0])
    while k >= c:
        k -= c
        w += 1
        c = popcount(bits[w])
    x = bits[w]
    for _ in range(k):
        x &= x - 1
    e = w * EDGE_BITS + lowest_bit(x)
    a = nbr_src[e]
    b = nbr_idx[e]
    scratch[SC_STAMP] = moves + 2  # this declaration, then the DEFEND reply
    scratch[SC_PLAYER] = p
    scratch[SC_SRC] = a
    scratch[SC_DST] = b
    return a, b


@lean_jit
def _has_own_neighbour(owner, nbr_ptr, nbr_idx, t):  # pragma: no cover - compiled
    p = owner[t]
    for i in range(nbr_ptr[t], nbr_ptr[t + 1]):
        if owner[nbr_idx[i]] == p:
            return True
    return False


@lean_jit
def _random_fortify(st, B, R, p):  # pragma: no cover - compiled
    """A source uniform over p's territories that can fortify, a destination uniform over those it can
    reach, a count uniform over 1..armies-1; END_TURN if none can."""
    T = st.owner.shape[0]
    can = _scratch_block(st.scratch, T, SC_GOAL)
    n = 0
    for t in range(T):
        m = st.owner[t] == p and st.armies[t] >= 2 and _has_own_neighbour(st.owner, B.nbr_ptr, B.nbr_idx, t)
        can[t] = m
        n += m
    if n == 0:
        return END_TURN, 0, 0, 0, 0
    k = _randint(st.rng, n)
    a = -1
    for t in range(T):
        if can[t]:
            if k == 0:
                a = t
                break
            k -= 1
    seen = _scratch_block(st.scratch, T, SC_MARK)
    _fortify_reach(st, B, R, p, a, seen)
    k = _randint(st.rng, seen.sum())
    for b in range(T):
        if seen[b] == 1:
            if k == 0:
                return FORTIFY_MOVE, a, b, 1 + _randint(st.rng, st.armies[a] - 1), 0
            k -= 1
    return END_TURN, 0, 0, 0, 0


@inline_jit
def _random_bot(st, B, R, V, params):  # pragma: no cover - compiled
    info = st.info
    phase = info[I_PHASE]
    p = info[I_PLAYER]
    rng = st.rng
    if phase == ATTACK:  # most of the random bot's moves: first, and through the lean helper
        if _uniform(rng) < params[RANDOM_P_STOP]:
            return END_ATTACK, 0, 0, 0, 0
        a, b = _random_attack(st.owner, st.armies, rng, B.nbr_ptr, B.nbr_idx, B.nbr_src, B.nbr_rev, p, info[I_MOVES],
                              st.scratch, _edge_bits(st.scratch, st.owner.shape[0], st.alive.shape[0]))
        if a < 0:
            return END_ATTACK, 0, 0, 0, 0
        return ATTACK_MOVE, a, b, _attack_dice(st, R, a), 0
    if phase == CLAIM:
        return _random_claim(st)
    if phase == SETUP_PLACE:
        return PLACE, _random_owned(st, info[I_PLACE_FOR]), 1 + _randint(rng, info[I_QUOTA]), 0, 0
    if phase == CAPITAL:
        return CAPITAL_PICK, _random_owned(st, p), 0, 0, 0
    if phase == TRADE or phase == ELIM_TRADE:
        return _random_set(st, B, p, not _must_trade(st, R))
    if phase == REINFORCE:
        return PLACE, _random_border(st, B, p), info[I_RESERVE], 0, 0
    if phase == OCCUPY:
        scratch = st.scratch  # the occupation moves armies between the attack's two territories: the
        if scratch[SC_STAMP] == info[I_MOVES] and scratch[SC_SRC] == info[I_OCC_FROM] \
                and scratch[SC_DST] == info[I_OCC_TO]:  # attack counts stay valid around them
            scratch[SC_STAMP] += 1
        return OCCUPY_MOVE, st.armies[info[I_OCC_FROM]] - 1, 0, 0, 0
    if phase == FORTIFY and _uniform(rng) < params[RANDOM_P_FORTIFY]:
        return _random_fortify(st, B, R, p)
    return END_TURN, 0, 0, 0, 0
