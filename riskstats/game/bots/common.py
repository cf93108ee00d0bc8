"""The kernels the built-in bots share: threats and borders, the best attack, placement and claiming styles,
a forced first continent (`_forced_first`, `_claim_toward`), fortification styles, card timing and the safest
territory.
"""
from __future__ import annotations

from riskstats._numba import inline_jit, jit, lean_jit
from riskstats.game.rules.cards import _find_set, _hand_size
from riskstats.game.rules.legal import _fortify_reach, _trade_forced
from riskstats.game.rules.options import (
    R_NEUTRAL,
)
from riskstats.game.rules.state import (
    ELIM_TRADE,
    END_TURN,
    FORTIFY_MOVE,
    I_PHASE,
    I_PLACE_FOR,
    I_PLAYER,
    I_QUOTA,
    I_RESERVE,
    PASS,
    PLACE,
    SC_DIST,
    SC_GOAL,
    SC_HELD,
    SC_MARK,
    SETUP_PLACE,
    TRADE_SET,
    _scratch_block,
)
from riskstats.game.rules.stream import _randint, _uniform

# ---------------------------------------------------------------- shared helpers


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
    return _nth_owned(st, q, _randint(st.rng, n))


@lean_jit
def _nth_owned(st, q, k):  # pragma: no cover - compiled
    """Seat q's k-th territory (from 0, in territory order), or -1 if q holds k or fewer."""
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


@jit
def _rolls_on(st, attackers, b):  # pragma: no cover - compiled
    """The stop rule (the hunter's): never roll with two armies or fewer against as many defenders or more
    (P(conquer) 2 against 2 is 0.36 and every loss is an army the border needs), unless b is its owner's last
    territory (the kill's last throw)."""
    if attackers >= 3 or attackers > st.armies[b]:
        return True
    return st.n_terr[st.owner[b]] == 1


@inline_jit
def _best_attack_where(st, B, V, p, into, rank, spare, stop):  # pragma: no cover - compiled
    """(from, to, P(conquer)) of p's best attack by P(conquer), the first best in territory and neighbour order;
    from = -1 if none. The one argmax every heuristic's single attack comes from (`_best_attack`, the objective
    bots' goal attack, the hunter's `_best_into`); a caller that passes ``rank`` or ``spare`` fills it in a
    scratch block (SC_RANK, SC_SPARE; the goal attack's distances are the objective bots' own).

    Parameters
    ----------
    st, B, V
        The game, the board arrays and the P(conquer) table.
    p : int
        The attacking seat.
    into : int
        The continent attacks go into (-1: any).
    rank : int64[T] or None
        Where else an attack may go: from a to b only where rank[b] < rank[a] (a target mask: 0 on the targets
        and 1 elsewhere; or each territory's distance to a goal, so that every attack gets closer); None: no
        more than ``into`` says (numba compiles that case without the mask: no buffer to fill).
    spare : int64[T] or None
        The armies each own territory rolls with (its armies less what it keeps); one with fewer than 1 does
        not attack. None: all its armies but one.
    stop : True or None
        True: the stop rule (`_rolls_on`) applies; None: numba compiles the case without it, as for ``rank`` and
        ``spare``.
    """
    best_a = -1
    best_b = -1
    best_p = -1.0
    for a in range(st.owner.shape[0]):
        if st.owner[a] != p:
            continue
        roll = st.armies[a] - 1 if spare is None else spare[a]
        if roll < 1:
            continue
        for i in range(B.nbr_ptr[a], B.nbr_ptr[a + 1]):
            b = B.nbr_idx[i]
            if st.owner[b] == p or (into >= 0 and B.continent_of[b] != into):
                continue
            if rank is not None and rank[b] >= rank[a]:
                continue
            if stop is not None and not _rolls_on(st, roll, b):
                continue
            pw = _p_win(V, roll, st.armies[b])
            if pw > best_p:
                best_p = pw
                best_a = a
                best_b = b
    return best_a, best_b, best_p


@lean_jit
def _best_attack(st, B, V, p, continent):  # pragma: no cover - compiled
    """(from, to, P(conquer)) of p's best attack, rolling all its source's armies but one, into ``continent``
    only if it is >= 0; from = -1 if none (`_best_attack_where`)."""
    return _best_attack_where(st, B, V, p, continent, None, None, None)


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
    return info[I_PHASE] == ELIM_TRADE or _trade_forced(st, R)


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
    _fortify_reach(st, B, R, p, src, seen)
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
