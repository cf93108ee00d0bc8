"""The built-in bots: compiled policies chosen by an integer id and a float parameter vector.

Each bot looks at the state and returns one legal move ``(kind, a, b, c, d)`` for the player to move
(see `riskstats.game.rules.state`). `riskstats.game.registry.BOTS` maps a bot's name to its id and default
parameters; `_bot_move`
dispatches on the id inside compiled code. A bot's randomness comes from the game's own stream.

What each bot does, its parameters (names, defaults, ranges) and the tuned bots are declared in
`riskstats.game.registry` (``riskstats bots`` prints them); a kernel reads its parameters through the slot
names declared there (`riskstats.game.registry.slot`), never by a bare position. Bots that don't know about
capitals (``aggressive``, ``continent``, ``defensive``, ``mission``) pick the safest own territory as capital
and otherwise play as in Classic. No bot can read another seat's mission or an unrevealed capital pick:
`_bot_move` hands every compiled bot `_seat_view`, where those are masked.

Defence: when an attack is declared, phase DEFEND asks the defending seat's bot how many dice to roll
(`_defend_bot`, the defence policy's one entry point, which `_bot_move` calls before anything else). Every
built-in bot rolls the most it may, docs/rules.md's default policy, without drawing from the random stream;
a bot with its own defence (a search bot, an exact decision layer) adds its branch there.

Adding a fast bot: write ``@inline_jit def _mybot(st, B, R, V, params)`` returning a legal move (it is
inlined into the game loop like the others; its loops call helpers that take only the arrays they read,
helpers that allocate nothing are `riskstats._numba.lean_jit` (no reference counting), and per-move
buffers come from the state's scratch memory, `riskstats.game.rules.state.SCRATCH`). Use the
helpers here and `riskstats.game.rules.engine._check` in tests, declare it with the next id, a description
and its parameters in `riskstats.game.registry.BUILT_IN` and add one branch to `_bot_move`: the conformance
test runs over every bot in `BOTS`, and `riskstats.cli.common.BOT_NAMES` (which a test holds equal to it) needs
the name. A bot written in Python plugs into
`riskstats.game.play.Game.play` instead (slow path).
"""
from __future__ import annotations

import numpy as np

from riskstats._numba import inline_jit, jit, lean_jit, lowest_bit, popcount
from riskstats.game.registry import (
    AGGRESSIVE_STYLE,
    AGGRESSIVE_THRESHOLD,
    AGGRESSIVE_TRADE_AT,
    CAPITAL_GUARD,
    CAPITAL_TRADE_AT,
    CONTINENT_AGAIN,
    CONTINENT_ATTACK,
    CONTINENT_CARD_THRESHOLD,
    CONTINENT_ENTRANCE_WEIGHT,
    CONTINENT_FIRST,
    CONTINENT_STYLE,
    CONTINENT_THRESHOLD,
    CONTINENT_TRADE_AT,
    DEFENSIVE_MAX_CONQUESTS,
    DEFENSIVE_STYLE,
    DEFENSIVE_SURE_THRESHOLD,
    DEFENSIVE_THRESHOLD,
    DEFENSIVE_TRADE_AT,
    FRONTIER_AT,
    FRONTIER_DEFENDERS,
    MISSION_TRADE_AT,
    OBJECTIVE_CARD_THRESHOLD,
    OBJECTIVE_THRESHOLD,
    RANDOM_P_FORTIFY,
    RANDOM_P_STOP,
)
from riskstats.game.rules.engine import (
    _find_set,
    _fortify_ok,
    _hand,
    _hand_size,
    _randint,
    _reachable,
    _set_kind,
    _uniform,
)
from riskstats.game.rules.options import (
    FORTIFY_CONNECTED,
    OBJ_MISSION,
    OBJ_TERRITORIES,
    R_ADICE,
    R_DDICE,
    R_FORCED,
    R_FORTIFY,
    R_NEUTRAL,
    R_OBJECTIVE,
    R_PLAYERS,
)
from riskstats.game.rules.state import (
    ATTACK,
    ATTACK_MOVE,
    CAPITAL,
    CAPITAL_PICK,
    CLAIM,
    DEFEND,
    DEFEND_MOVE,
    EDGE_BITS,
    ELIM_TRADE,
    END_ATTACK,
    END_TURN,
    FORTIFY,
    FORTIFY_MOVE,
    I_ATK_TO,
    I_CONQUERED,
    I_MOVES,
    I_OCC_FROM,
    I_OCC_TO,
    I_PHASE,
    I_PLACE_FOR,
    I_PLAYER,
    I_QUOTA,
    I_RESERVE,
    I_START_HAND,
    I_TRADED_TURN,
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
    PASS,
    PLACE,
    REINFORCE,
    SC_BLOCKS,
    SC_DIST,
    SC_DST,
    SC_GOAL,
    SC_HEAD,
    SC_HELD,
    SC_MARK,
    SC_MEMO_DIST,
    SC_MEMO_GOAL,
    SC_PLAYER,
    SC_SRC,
    SC_STACK,
    SC_STAMP,
    SETUP_PLACE,
    TRADE,
    TRADE_SET,
    State,
    _edge_bits,
    _scratch_block,
)


# ---------------------------------------------------------------- shared helpers
@lean_jit
def _p_win(V, attackers, defenders):  # pragma: no cover - compiled
    """P(conquer) of attackers (armies able to roll) against defenders, clamped to the table."""
    return V[min(attackers, V.shape[0] - 1), min(defenders, V.shape[1] - 1)]


@lean_jit
def _threat(owner, armies, nbr_ptr, nbr_idx, neutral, t):  # pragma: no cover - compiled
    """Enemy armies next to t (a neutral never attacks, so it is no threat)."""
    p = owner[t]
    s = 0
    for i in range(nbr_ptr[t], nbr_ptr[t + 1]):
        u = nbr_idx[i]
        if owner[u] != p and owner[u] != neutral:
            s += armies[u]
    return s


@lean_jit
def _is_border(owner, nbr_ptr, nbr_idx, t):  # pragma: no cover - compiled
    """Whether t has a neighbour of another seat.

    This helper, `_threat` and `_has_own_neighbour` run inside loops over territories, so they take the
    arrays they read, not the State and board tuples: a call copies every array of its arguments,
    flattened into scalars (some 180 for a State and a board), and reference-counts each one atomically
    unless it is borrowed (`riskstats._numba.borrow`); that cost more than the loop itself.
    """
    p = owner[t]
    for i in range(nbr_ptr[t], nbr_ptr[t + 1]):
        if owner[nbr_idx[i]] != p:
            return True
    return False


@lean_jit
def _random_owned(st, q):  # pragma: no cover - compiled
    n = 0
    for t in range(st.owner.shape[0]):
        if st.owner[t] == q:
            n += 1
    k = _randint(st.rng, n)
    for t in range(st.owner.shape[0]):
        if st.owner[t] == q:
            if k == 0:
                return t
            k -= 1
    return -1


@lean_jit
def _random_border(st, B, q):  # pragma: no cover - compiled
    """A random territory of q's that borders another seat's (any of q's if none does): mark and count
    them, then walk to the k-th mark (a scratch block: no buffer to allocate)."""
    owner = st.owner
    T = owner.shape[0]
    mark = _scratch_block(st.scratch, T, SC_MARK)
    n = 0
    for t in range(T):
        m = owner[t] == q and _is_border(owner, B.nbr_ptr, B.nbr_idx, t)
        mark[t] = m
        n += m
    if n == 0:
        return _random_owned(st, q)
    k = _randint(st.rng, n)
    for t in range(T):
        if mark[t]:
            if k == 0:
                return t
            k -= 1
    return -1


@lean_jit
def _with_neighbours(st, B, t, p, score):  # pragma: no cover - compiled
    """A claim's score plus 0.5 for each neighbour of territory t that seat p owns (added one by one)."""
    for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
        if st.owner[B.nbr_idx[i]] == p:
            score += 0.5
    return score


@lean_jit
def _claim_greedy(st, B):  # pragma: no cover - compiled
    """An unclaimed territory next to the most of our own, preferring continents we already hold most of."""
    p = st.info[I_PLAYER]
    K = B.continent_bonus.shape[0]
    T = st.owner.shape[0]
    mine = _scratch_block(st.scratch, T, SC_GOAL)[:K]
    free = _scratch_block(st.scratch, T, SC_DIST)[:K]
    mine[:] = 0
    free[:] = 0
    for t in range(st.owner.shape[0]):
        if st.owner[t] == p:
            mine[B.continent_of[t]] += 1
        elif st.owner[t] == -1:
            free[B.continent_of[t]] += 1
    best = -1
    best_score = -1.0
    for t in range(st.owner.shape[0]):
        if st.owner[t] != -1:
            continue
        k = B.continent_of[t]
        score = _with_neighbours(st, B, t, p, 2.0 * (mine[k] + free[k]) / B.continent_size[k] + _uniform(st.rng) * 0.1)
        if score > best_score:
            best_score = score
            best = t
    return best


@lean_jit
def _place_neutral(st, B, R):  # pragma: no cover - compiled
    """A neutral army goes where it blocks most: the neutral territory with the most enemy armies next door."""
    p = st.info[I_PLAYER]
    N = R[R_NEUTRAL]
    best = -1
    best_score = -1.0
    for t in range(st.owner.shape[0]):
        if st.owner[t] != N:
            continue
        score = _uniform(st.rng) * 0.5
        for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
            u = B.nbr_idx[i]
            if st.owner[u] != p and st.owner[u] != N:
                score += st.armies[u]
        if score > best_score:
            best_score = score
            best = t
    return best


@lean_jit
def _most_threatened(st, B, R, p):  # pragma: no cover - compiled
    """p's territory with the largest (enemy armies next to it - its armies); any own one if none borders."""
    best = -1
    best_score = -1e18
    for t in range(st.owner.shape[0]):
        if st.owner[t] != p:
            continue
        border = _is_border(st.owner, B.nbr_ptr, B.nbr_idx, t)
        score = _threat(st.owner, st.armies, B.nbr_ptr, B.nbr_idx, R[R_NEUTRAL], t) - st.armies[t] \
            + (1e6 if border else 0.0)
        if score > best_score:
            best_score = score
            best = t
    return best


@lean_jit
def _strike_base(st, B, p):  # pragma: no cover - compiled
    """p's territory with the largest (its armies - its weakest enemy neighbour)."""
    best = -1
    best_score = -1e18
    for t in range(st.owner.shape[0]):
        if st.owner[t] != p:
            continue
        weakest = 1 << 40
        for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
            u = B.nbr_idx[i]
            if st.owner[u] != p:
                weakest = min(weakest, st.armies[u])
        if weakest == 1 << 40:
            continue
        score = st.armies[t] - weakest
        if score > best_score:
            best_score = score
            best = t
    return best


@lean_jit
def _best_attack(st, B, V, p, continent):  # pragma: no cover - compiled
    """(from, to, P(conquer)) of p's best attack, into ``continent`` only if it is >= 0; from = -1 if none."""
    best_a = -1
    best_b = -1
    best_p = -1.0
    for a in range(st.owner.shape[0]):
        if st.owner[a] != p or st.armies[a] < 2:
            continue
        for i in range(B.nbr_ptr[a], B.nbr_ptr[a + 1]):
            b = B.nbr_idx[i]
            if st.owner[b] == p or (continent >= 0 and B.continent_of[b] != continent):
                continue
            pw = _p_win(V, st.armies[a] - 1, st.armies[b])
            if pw > best_p:
                best_p = pw
                best_a = a
                best_b = b
    return best_a, best_b, best_p


@lean_jit
def _max_dice(st, R, a):  # pragma: no cover - compiled
    return min(R[R_ADICE], st.armies[a] - 1)


@jit
def _trade_any(st, B):  # pragma: no cover - compiled
    """TRADE of the first valid set in the player's hand (sets without wilds first)."""
    c1, c2, c3 = _find_set(st, B, st.info[I_PLAYER], 0, True)
    if c1 < 0:
        return PASS, 0, 0, 0, 0
    return TRADE_SET, c1, c2, c3, 0


@lean_jit
def _must_trade(st, R):  # pragma: no cover - compiled
    info = st.info
    return info[I_PHASE] == ELIM_TRADE or (info[I_START_HAND] >= R[R_FORCED] and info[I_TRADED_TURN] == 0)


@jit
def _trade_timed(st, B, R, trade_at):  # pragma: no cover - compiled
    """The card timing of the bots that trade (their ``trade_at`` parameter): trade a set whenever the rules
    force it or the hand holds at least ``trade_at`` cards, else pass."""
    if _must_trade(st, R) or _hand_size(st, st.info[I_PLAYER]) >= trade_at:
        return _trade_any(st, B)
    return PASS, 0, 0, 0, 0


@lean_jit
def _fortify_from(st, B, R, p, src, inner, spread):  # pragma: no cover - compiled
    """Fortify from ``src`` (-1: none) to a border territory of p's that the rules' fortify rule lets it reach
    (p's connected territories, or src's neighbours): the most threatened net of its armies, or with
    ``spread`` the one with the fewest armies (the first such). An interior ``src`` (``inner``) sends all but
    one army; a border one half its lead over the destination (nothing if that is under one army)."""
    if src < 0:
        return END_TURN, 0, 0, 0, 0
    T = st.owner.shape[0]
    seen = _scratch_block(st.scratch, T, SC_MARK)
    seen[:] = 0
    if R[R_FORTIFY] == FORTIFY_CONNECTED:
        _reachable(st, B, p, src, seen)
    else:
        for i in range(B.nbr_ptr[src], B.nbr_ptr[src + 1]):
            seen[B.nbr_idx[i]] = 1
    dst = -1
    best = -1e18
    for t in range(T):
        if seen[t] == 1 and t != src and st.owner[t] == p and _is_border(st.owner, B.nbr_ptr, B.nbr_idx, t):
            if spread:
                score = -1.0 * st.armies[t]
            else:
                score = _threat(st.owner, st.armies, B.nbr_ptr, B.nbr_idx, R[R_NEUTRAL], t) - st.armies[t]
            if score > best:
                best = score
                dst = t
    if dst < 0:
        return END_TURN, 0, 0, 0, 0
    n = st.armies[src] - 1 if inner else (st.armies[src] - st.armies[dst]) // 2
    if n < 1:
        return END_TURN, 0, 0, 0, 0
    return FORTIFY_MOVE, src, dst, n, 0


@lean_jit
def _fortify_to_border(st, B, R, p):  # pragma: no cover - compiled
    """Move the largest interior stack to the most threatened border territory it can reach."""
    src = -1
    for t in range(st.owner.shape[0]):
        if st.owner[t] == p and st.armies[t] >= 2 and not _is_border(st.owner, B.nbr_ptr, B.nbr_idx, t):
            if src < 0 or st.armies[t] > st.armies[src]:
                src = t
    return _fortify_from(st, B, R, p, src, True, False)


@lean_jit
def _fortify_spread(st, B, R, p):  # pragma: no cover - compiled
    """fortify=spread, evening out the borders: the largest interior stack moves to the border territory with
    the fewest armies it can reach; with no interior stack to move, the largest border stack sends half its
    lead over the thinnest border territory it can reach (nothing if that is under one army)."""
    src = -1
    inner = False
    for t in range(st.owner.shape[0]):
        if st.owner[t] != p or st.armies[t] < 2:
            continue
        interior = not _is_border(st.owner, B.nbr_ptr, B.nbr_idx, t)
        if src < 0 or (interior and not inner) or (interior == inner and st.armies[t] > st.armies[src]):
            src = t
            inner = interior
    return _fortify_from(st, B, R, p, src, inner, True)


@lean_jit
def _fortify_styled(st, B, R, p, fortify):  # pragma: no cover - compiled
    """The fortification of a bot with placement parameter ``fortify`` (registry.STYLE): 0 border
    (`_fortify_to_border`), 1 spread (`_fortify_spread`), 2 none."""
    if fortify == 1:
        return _fortify_spread(st, B, R, p)
    if fortify == 2:
        return END_TURN, 0, 0, 0, 0
    return _fortify_to_border(st, B, R, p)


@lean_jit
def _random_claim(st):  # pragma: no cover - compiled
    """A claim uniform over the unclaimed territories (the random bot's, and ``claim=random``'s)."""
    return PLACE, _random_owned(st, -1), 1, 0, 0


@lean_jit
def _setup_place(st, B, R, target):  # pragma: no cover - compiled
    """Setup placement: the neutral's armies block the opponent; our own go on ``target``."""
    info = st.info
    if info[I_PLACE_FOR] != info[I_PLAYER]:
        return PLACE, _place_neutral(st, B, R), info[I_QUOTA], 0, 0
    return PLACE, target, info[I_QUOTA], 0, 0


@lean_jit
def _placement(st, B, R, target, spread):  # pragma: no cover - compiled
    """A setup placement or reinforcement with placement parameter ``reinforce`` = ``spread``: 0 stack (the
    whole quota or reserve on ``target``; the neutral's armies as `_setup_place`), 1 spread (one army at a
    time on the most threatened own territory, `_most_threatened`, so the armies even out over the
    threatened borders)."""
    info = st.info
    p = info[I_PLAYER]
    setup = info[I_PHASE] == SETUP_PLACE
    if spread != 0 and not (setup and info[I_PLACE_FOR] != p):
        return PLACE, _most_threatened(st, B, R, p), 1, 0, 0
    if setup:
        return _setup_place(st, B, R, target)
    return PLACE, target, info[I_RESERVE], 0, 0


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
    if R[R_FORTIFY] == FORTIFY_CONNECTED:
        _reachable(st, B, p, a, seen)
    else:
        seen[:] = 0
        for i in range(B.nbr_ptr[a], B.nbr_ptr[a + 1]):
            if st.owner[B.nbr_idx[i]] == p:
                seen[B.nbr_idx[i]] = 1
    seen[a] = 0
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
        return ATTACK_MOVE, a, b, _max_dice(st, R, a), 0
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
            return ATTACK_MOVE, a, b, _max_dice(st, R, a), 0
        return END_ATTACK, 0, 0, 0, 0
    if phase == OCCUPY:
        extra = st.armies[info[I_OCC_FROM]] - 1
        if _is_border(st.owner, B.nbr_ptr, B.nbr_idx, info[I_OCC_FROM]):
            extra = extra // 2
        return OCCUPY_MOVE, extra, 0, 0, 0
    return _fortify_styled(st, B, R, p, fortify)


@lean_jit
def _forced_first(st, B, p, first):  # pragma: no cover - compiled
    """The continent ``first`` forces on seat p now: ``first`` until p first holds all of it, then -1 for
    the rest of the game, held or lost (bit p of the state's scratch[SC_HELD] remembers, `SCRATCH`); -1
    if ``first`` is -1 or a number the board lacks."""
    k = int(first)
    if k < 0 or k >= B.continent_bonus.shape[0]:
        return -1
    held = st.scratch[SC_HELD]
    if (held >> p) & 1:
        return -1
    n = 0
    for t in range(st.owner.shape[0]):
        if B.continent_of[t] == k and st.owner[t] == p:
            n += 1
    if n == B.continent_size[k]:
        st.scratch[SC_HELD] = held | (1 << p)
        return -1
    return k


@lean_jit
def _claim_toward(st, B, k):  # pragma: no cover - compiled
    """A claim for the target continent k: its unclaimed territory next to the most of our own (ties at
    random); `_claim_greedy`'s choice once k has none left (or k is -1)."""
    if k < 0:
        return _claim_greedy(st, B)
    p = st.info[I_PLAYER]
    best = -1
    best_score = -1.0
    for t in range(st.owner.shape[0]):
        if st.owner[t] != -1 or B.continent_of[t] != k:
            continue
        score = _with_neighbours(st, B, t, p, _uniform(st.rng) * 0.1)
        if score > best_score:
            best_score = score
            best = t
    return best if best >= 0 else _claim_greedy(st, B)


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
                return ATTACK_MOVE, a, b, _max_dice(st, R, a), 0
        if info[I_CONQUERED] == 0:
            a, b, pw = _best_attack(st, B, V, p, -1)
            if a >= 0 and _attack_pays(params, pw, st.armies[a] - 1, st.armies[b], params[CONTINENT_CARD_THRESHOLD]):
                return ATTACK_MOVE, a, b, _max_dice(st, R, a), 0
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
            return ATTACK_MOVE, a, b, _max_dice(st, R, a), 0
        return END_ATTACK, 0, 0, 0, 0
    if phase == OCCUPY:
        src = info[I_OCC_FROM]
        return OCCUPY_MOVE, 0 if _is_border(st.owner, B.nbr_ptr, B.nbr_idx, src) else st.armies[src] - 1, 0, 0, 0
    return _fortify_styled(st, B, R, p, params[DEFENSIVE_STYLE])


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
    best_a = -1
    best_b = -1
    best_p = -1.0
    for a in range(st.owner.shape[0]):
        if st.owner[a] != p or st.armies[a] < 2:
            continue
        roll = st.armies[a] - 1 - (guard_keep if a == guard else 0)
        if roll < 1:
            continue
        for i in range(B.nbr_ptr[a], B.nbr_ptr[a + 1]):
            b = B.nbr_idx[i]
            if st.owner[b] == p or dist[b] >= dist[a]:
                continue
            pw = _p_win(V, roll, st.armies[b])
            if pw > best_p:
                best_p = pw
                best_a = a
                best_b = b
    return best_a, best_b, best_p


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
            return ATTACK_MOVE, a, b, _max_dice(st, R, a), 0
        if info[I_CONQUERED] == 0:
            a, b, pw = _best_attack(st, B, V, p, -1)
            if a >= 0 and a != guard and pw >= params[OBJECTIVE_CARD_THRESHOLD]:
                return ATTACK_MOVE, a, b, _max_dice(st, R, a), 0
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


@lean_jit
def _safest(st, B, R, p):  # pragma: no cover - compiled
    """p's territory with the most (own armies - enemy armies next to it), interior ones first."""
    best = -1
    best_score = -1e18
    for t in range(st.owner.shape[0]):
        if st.owner[t] != p:
            continue
        border = _is_border(st.owner, B.nbr_ptr, B.nbr_idx, t)
        score = st.armies[t] - _threat(st.owner, st.armies, B.nbr_ptr, B.nbr_idx, R[R_NEUTRAL], t) \
            - (1000.0 if border else 0.0)
        if score > best_score:
            best_score = score
            best = t
    return best


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


@inline_jit
def _seat_view(st, R):  # pragma: no cover - compiled
    """The state as the seat to move may see it: every other seat's mission row is -1 and, while capitals
    are being picked, so are the others' picks (the picks are simultaneous). The arrays are shared, not
    copied, except those two; a compiled bot is handed this view, as a Python bot gets `GameView`."""
    objective = R[R_OBJECTIVE]
    if objective == OBJ_TERRITORIES:
        return st
    p = st.info[I_PLAYER]
    mission = st.mission
    if objective == OBJ_MISSION:  # in the scratch memory's tail: no allocation on every move
        start = SC_HEAD + SC_BLOCKS * st.owner.shape[0]
        mission = st.scratch[start:start + st.mission.size].reshape(st.mission.shape)
        mission[:, :] = -1
        mission[p] = st.mission[p]
    capital = st.capital
    if st.info[I_PHASE] == CAPITAL:
        capital = np.full_like(st.capital, -1)
        capital[p] = st.capital[p]
    return State(st.owner, st.armies, st.card_owner, st.deck, st.alive, st.n_terr, st.to_place, st.info, st.rng,
                 st.log, mission, capital, st.out, st.scratch)


@inline_jit
def _defend_bot(st, R, bot, params):  # pragma: no cover - compiled
    """The defence policy of bot number ``bot``: the DEFEND move of the seat to move against the declared
    attack (``info[I_ATK_FROM]``, ``info[I_ATK_TO]``, ``info[I_ATK_DICE]``). Every built-in bot rolls the
    most dice it may: min(the rules' defender dice, armies on the attacked territory)."""
    return DEFEND_MOVE, min(R[R_DDICE], st.armies[st.info[I_ATK_TO]]), 0, 0, 0


@inline_jit
def _bot_move(st, B, R, V, bot, params):  # pragma: no cover - compiled
    """The move bot number ``bot`` (see `BOTS`) chooses with parameters ``params``, seeing `_seat_view`
    (inlined into the game loop, as every bot is here: no call passes the whole state down to a bot;
    their helpers still take it)."""
    if st.info[I_PHASE] == DEFEND:  # first: the defence reads nothing secret, so it needs no seat view
        return _defend_bot(st, R, bot, params)
    st = _seat_view(st, R)
    if st.info[I_PHASE] == CAPITAL and bot != 0 and bot != 5:  # bots that ignore capitals keep the safest
        return CAPITAL_PICK, _safest(st, B, R, st.info[I_PLAYER]), 0, 0, 0
    if bot == 0:
        return _random_bot(st, B, R, V, params)
    if bot == 1:
        return _aggressive_bot(st, B, R, V, params)
    if bot == 2:
        return _continent_bot(st, B, R, V, params)
    if bot == 4:
        return _mission_bot(st, B, R, V, params)
    if bot == 5:
        return _capital_bot(st, B, R, V, params)
    return _defensive_bot(st, B, R, V, params)

