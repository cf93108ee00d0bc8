"""What a seat may do now: every legality fact of the rules, as compiled kernels.

This module owns the checks (`_check`: 0 if a move is legal, else the `ERRORS` code saying why not), the bounds
of a roll (`_attack_dice`, `_defend_dice`: the most dice each side may roll), who chooses the defence
(`_defending_seat`), whether trading is forced (`_trade_forced`), how many armies a placement may put down
(`_place_most`), the fortify reach under the rules' fortify option (`_fortify_reach` from one territory,
`_fortify_regions` and `_may_fortify` for every pair, `_may_fortify_border` along one border), the
per-territory tests the masks are made of (`_may_place`, `_may_leave`, `_may_attack`) and the complete legal
masks of the current phase (`_legal_masks`: territories, attacks with their dice, fortifications, valid sets and
the ranges in `LIMITS`). The engine (`riskstats.game.rules.engine`), the bots (`riskstats.game.bots`), the game
API (`riskstats.game.play`) and the environments (`riskstats.env`) read legality here and nowhere else, so an
option that changes what is legal is read in this module and `riskstats.game.rules.options` alone. It changes
no part of a game (the scratch buffers aside): playing a move is the engine's; the cards are
`riskstats.game.rules.cards`'.

Kernel arguments as in `riskstats.game.rules.engine`: ``st`` a State, ``B`` the board's `BoardArrays`, ``R`` the
rule vector (`GameRules.vector`), ``p`` a seat.
"""
from __future__ import annotations

import numpy as np

from riskstats._numba import jit, lean_jit
from riskstats.game.rules.cards import _set_kind
from riskstats.game.rules.options import (
    FORTIFY_ADJACENT,
    R_ADICE,
    R_DDICE,
    R_FORCED,
    R_FORTIFY,
    R_NEUTRAL,
)
from riskstats.game.rules.state import (
    ATTACK,
    ATTACK_MOVE,
    CAPITAL,
    CAPITAL_PICK,
    CLAIM,
    DEFEND,
    DEFEND_MOVE,
    ELIM_TRADE,
    END_ATTACK,
    END_TURN,
    FORTIFY,
    FORTIFY_MOVE,
    I_ATK_TO,
    I_OCC_FROM,
    I_PHASE,
    I_PLACE_FOR,
    I_PLAYER,
    I_QUOTA,
    I_RESERVE,
    I_START_HAND,
    I_TRADED_TURN,
    MOVES,
    OCCUPY,
    OCCUPY_MOVE,
    OVER,
    PASS,
    PLACE,
    REINFORCE,
    SC_MARK,
    SC_STACK,
    SETUP_PLACE,
    TRADE,
    TRADE_SET,
    _scratch_block,
)

ERRORS = (
    "",
    "the game is over",
    "this kind of move is not allowed in the current phase",
    "territory or card index out of range",
    "the territory is not yours (or, when claiming, already taken)",
    "bad number of armies",
    "the territories are not adjacent",
    "an attack needs at least 2 armies on your territory and an enemy territory to attack",
    "bad number of dice",
    "not a valid set of three of your cards",
    "you hold too many cards: a set must be traded first",
    "the territories are not joined by a chain of your territories",
    "a territory cannot be moved to itself",
    "the defender chooses its own dice (a defend move): leave the attack's d at 0",
    "no such kind of move",
)
"""Reasons `_check` gives (index = code; 0 means legal)."""
OK, E_OVER, E_PHASE, E_RANGE, E_OWNER, E_ARMIES, E_ADJ, E_ATTACK, E_DICE, E_SET, E_FORCED, E_CONNECT, E_SAME, \
    E_DEFENDER, E_KIND = range(len(ERRORS))

LIMITS = ("place", "pass", "forced", "occupy", "defend")
"""The slots of `_legal_masks`' ``limits``: the most armies one placement may put down (0 outside the placing
phases), whether trading may stop now (0/1), whether a set must be traded this turn (0/1, any phase), the most
armies that may follow a conquest (phase "occupy", else -1) and the most dice the defender may roll (phase
"defend", else 0)."""
LM_PLACE, LM_PASS, LM_FORCED, LM_OCCUPY, LM_DEFEND = range(len(LIMITS))


# ---------------------------------------------------------------- dice, defence, trading, placing
@lean_jit
def _attack_dice(st, R, a):  # pragma: no cover - compiled
    """The most dice an attack from territory a may roll: the rules' most attacker dice, and no more than the
    armies on a less the one that stays behind (0 or less: a has no army to attack with)."""
    return min(R[R_ADICE], st.armies[a] - 1)


@lean_jit
def _defend_dice(st, R):  # pragma: no cover - compiled
    """The most dice the defending seat may roll against the attack declared now (phase DEFEND): the rules' most
    defender dice, and no more than the armies on the attacked territory."""
    return min(R[R_DDICE], st.armies[st.info[I_ATK_TO]])


@lean_jit
def _defending_seat(R, defender, attacker):  # pragma: no cover - compiled
    """The seat that chooses the defender's dice: the attacked territory's owner, or for a two-player
    neutral territory the other player (who rolls the neutral's dice, docs/rules.md)."""
    if defender == R[R_NEUTRAL]:
        return 1 - attacker
    return defender


@lean_jit
def _trade_forced(st, R):  # pragma: no cover - compiled
    """Whether the player to move must trade a set before the turn goes on: it began the turn with the rules'
    forced-trade hand (``forced_trade_at`` cards or more) and has not traded yet."""
    return st.info[I_START_HAND] >= R[R_FORCED] and st.info[I_TRADED_TURN] == 0


@lean_jit
def _place_most(info):  # pragma: no cover - compiled
    """The most armies one placement may put down now (0 outside the placing phases); info: the state's."""
    phase = info[I_PHASE]
    if phase == CLAIM:
        return 1
    if phase == SETUP_PLACE:
        return info[I_QUOTA]
    if phase == REINFORCE:
        return info[I_RESERVE]
    return 0


# ---------------------------------------------------------------- territories
@lean_jit
def _may_place(owner, info, t):  # pragma: no cover - compiled
    """Whether the seat placing now may place on territory t (phases CLAIM, SETUP_PLACE, REINFORCE, CAPITAL);
    owner, info: the state's arrays."""
    phase = info[I_PHASE]
    if phase == CLAIM:
        return owner[t] == -1
    if phase == SETUP_PLACE:
        return owner[t] == info[I_PLACE_FOR]
    return owner[t] == info[I_PLAYER]


@lean_jit
def _may_leave(owner, armies, p, t):  # pragma: no cover - compiled
    """Whether seat p may attack or fortify from territory t: it holds t with an army to spare."""
    return owner[t] == p and armies[t] >= 2


@lean_jit
def _may_attack(owner, armies, p, t, u):  # pragma: no cover - compiled
    """Whether seat p may attack u from t, a neighbour of u."""
    return _may_leave(owner, armies, p, t) and owner[u] != p


@lean_jit
def _may_fortify_adjacent(owner, armies, p, t, u):  # pragma: no cover - compiled
    """Whether seat p may fortify from t to u, a neighbour of t, under the adjacent fortify rule."""
    return _may_leave(owner, armies, p, t) and owner[u] == p


# ---------------------------------------------------------------- the fortify reach
@lean_jit
def _reachable(st, B, p, a, out):  # pragma: no cover - compiled
    """out[t] = 1 for every territory joined to a by a chain of p's territories (a included)."""
    T = st.owner.shape[0]
    out[:] = 0
    stack = _scratch_block(st.scratch, T, SC_STACK)
    stack[0] = a
    out[a] = 1
    n = 1
    while n > 0:
        n -= 1
        t = stack[n]
        for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
            u = B.nbr_idx[i]
            if out[u] == 0 and st.owner[u] == p:
                out[u] = 1
                stack[n] = u
                n += 1


@lean_jit
def _regions(st, B, p, region):  # pragma: no cover - compiled
    """region[t]: for each territory of p, the first territory of its region (the territories joined to it by a
    chain of p's territories: what a connected fortify can join), -1 for the others; one search a region. It
    allocates nothing: the searches mark the state's SC_MARK scratch block (``region`` must be another buffer)."""
    T = st.owner.shape[0]
    seen = _scratch_block(st.scratch, T, SC_MARK)
    region[:] = -1
    for t in range(T):
        if st.owner[t] == p and region[t] < 0:
            _reachable(st, B, p, t, seen)
            for u in range(T):
                if seen[u] == 1:
                    region[u] = t


@lean_jit
def _fortify_reach(st, B, R, p, src, out):  # pragma: no cover - compiled
    """out[t] = 1 for every territory of p other than ``src`` that armies from ``src`` may fortify to under the
    rules' fortify option (joined to it by a chain of p's territories, or next to it), else 0. Whether ``src``
    has an army to spare is `_may_leave`'s question. ``out`` must not be the SC_STACK scratch block."""
    if R[R_FORTIFY] == FORTIFY_ADJACENT:
        out[:] = 0
        for i in range(B.nbr_ptr[src], B.nbr_ptr[src + 1]):
            if st.owner[B.nbr_idx[i]] == p:
                out[B.nbr_idx[i]] = 1
    else:
        _reachable(st, B, p, src, out)
    out[src] = 0


@lean_jit
def _fortify_regions(st, B, R, p, region):  # pragma: no cover - compiled
    """Prepare ``region`` for `_may_fortify`: p's regions (`_regions`) under the connected fortify option; under
    the adjacent one `_may_fortify` does not read it. ``region`` must not be the SC_MARK scratch block."""
    if R[R_FORTIFY] != FORTIFY_ADJACENT:
        _regions(st, B, p, region)


@lean_jit
def _may_fortify(st, B, R, p, a, b, region):  # pragma: no cover - compiled
    """Whether seat p may fortify from a to b under the rules' fortify option (``region``: `_fortify_regions`
    of p, read under the connected option)."""
    if a == b or not _may_leave(st.owner, st.armies, p, a):
        return False
    if R[R_FORTIFY] == FORTIFY_ADJACENT:
        return B.adjacency[a, b] and st.owner[b] == p
    return region[b] == region[a]


@lean_jit
def _may_fortify_border(st, R, p, t, u):  # pragma: no cover - compiled
    """Whether seat p may fortify from t to u, a neighbour of t, along their border: a move every fortify
    option allows (the adjacent option's whole reach, one step of the connected option's)."""
    return _may_fortify_adjacent(st.owner, st.armies, p, t, u)


@jit
def _fortify_ok(st, B, R, p, a, b):  # pragma: no cover - compiled
    """Whether p may fortify from a to b (for a single move: it allocates its own search buffer)."""
    if a == b or st.owner[a] != p or st.owner[b] != p or st.armies[a] < 2:
        return False
    if B.adjacency[a, b]:
        return True
    if R[R_FORTIFY] == FORTIFY_ADJACENT:
        return False
    seen = np.zeros(st.owner.shape[0], np.int64)
    _reachable(st, B, p, a, seen)
    return seen[b] == 1


# ---------------------------------------------------------------- the check
@jit
def _check(st, B, R, kind, a, b, c, d):  # pragma: no cover - compiled
    """0 if the move is legal now, else the `ERRORS` code saying why not."""
    info = st.info
    phase = info[I_PHASE]
    p = info[I_PLAYER]
    T = st.owner.shape[0]
    C = st.card_owner.shape[0]
    if phase == OVER:
        return E_OVER
    if kind < 0 or kind >= len(MOVES):
        return E_KIND
    if kind == PLACE:
        if phase != CLAIM and phase != SETUP_PLACE and phase != REINFORCE:
            return E_PHASE
        if a < 0 or a >= T:
            return E_RANGE
        if not _may_place(st.owner, info, a):
            return E_OWNER
        return OK if 1 <= b <= _place_most(info) else E_ARMIES
    if kind == TRADE_SET:
        if phase != TRADE and phase != ELIM_TRADE:
            return E_PHASE
        if a < 0 or a >= C or b < 0 or b >= C or c < 0 or c >= C:
            return E_RANGE
        if a == b or b == c or a == c or st.card_owner[a] != p or st.card_owner[b] != p or st.card_owner[c] != p:
            return E_SET
        return OK if _set_kind(B, a, b, c) >= 0 else E_SET
    if kind == PASS:
        if phase != TRADE:
            return E_PHASE
        if _trade_forced(st, R):
            return E_FORCED
        return OK
    if kind == ATTACK_MOVE:
        if phase != ATTACK:
            return E_PHASE
        if a < 0 or a >= T or b < 0 or b >= T:
            return E_RANGE
        if st.owner[a] != p or st.owner[b] == p:
            return E_ATTACK
        if not B.adjacency[a, b]:
            return E_ADJ
        if st.armies[a] < 2:
            return E_ATTACK
        if c < 1 or c > _attack_dice(st, R, a):
            return E_DICE
        return OK if d == 0 else E_DEFENDER
    if kind == DEFEND_MOVE:
        if phase != DEFEND:
            return E_PHASE
        return OK if 1 <= a <= _defend_dice(st, R) else E_DICE
    if kind == OCCUPY_MOVE:
        if phase != OCCUPY:
            return E_PHASE
        return OK if 0 <= a <= st.armies[info[I_OCC_FROM]] - 1 else E_ARMIES
    if kind == END_ATTACK:
        return OK if phase == ATTACK else E_PHASE
    if kind == FORTIFY_MOVE:
        if phase != FORTIFY:
            return E_PHASE
        if a < 0 or a >= T or b < 0 or b >= T:
            return E_RANGE
        if a == b:
            return E_SAME
        if st.owner[a] != p or st.owner[b] != p:
            return E_OWNER
        if c < 1 or c > st.armies[a] - 1:
            return E_ARMIES
        if not _fortify_ok(st, B, R, p, a, b):
            return E_ADJ if R[R_FORTIFY] == FORTIFY_ADJACENT else E_CONNECT
        return OK
    if kind == END_TURN:
        return OK if phase == FORTIFY else E_PHASE
    if kind == CAPITAL_PICK:
        if phase != CAPITAL:
            return E_PHASE
        if a < 0 or a >= T:
            return E_RANGE
        return OK if st.owner[a] == p else E_OWNER
    return E_PHASE


# ---------------------------------------------------------------- the complete masks
@jit
def _legal_masks(st, B, R, place, attack, dice, fortify, sets, limits):  # pragma: no cover - compiled
    """Fill the legal masks of the current phase and return the number of valid sets written.

    Parameters
    ----------
    st, B, R : the state, the board's arrays and the rule vector.
    place : bool[T]; the territories the seat placing now may place on (or pick as its capital).
    attack : bool[T, T]; attack[t, u]: the player may attack u from t.
    dice : int64[T]; the most dice an attack from t may roll where t may attack, else 0.
    fortify : bool[T, T]; fortify[t, u]: the player may fortify from t to u.
    sets : int64[n, 3]; the valid sets of the player's cards (phases "trade", "elim_trade"), as card triples in
        index order, the first of them written (n: room for every triple of the hand).
    limits : int64[len(LIMITS)]; the ranges named in `LIMITS`.
    """
    info = st.info
    phase = info[I_PHASE]
    p = info[I_PLAYER]
    T = st.owner.shape[0]
    place[:] = False
    attack[:, :] = False
    dice[:] = 0
    fortify[:, :] = False
    limits[LM_PLACE] = _place_most(info)
    limits[LM_PASS] = _check(st, B, R, PASS, 0, 0, 0, 0) == OK
    limits[LM_FORCED] = _trade_forced(st, R)
    limits[LM_OCCUPY] = st.armies[info[I_OCC_FROM]] - 1 if phase == OCCUPY else -1
    limits[LM_DEFEND] = _defend_dice(st, R) if phase == DEFEND else 0
    n = 0
    if phase == CLAIM or phase == SETUP_PLACE or phase == REINFORCE or phase == CAPITAL:
        for t in range(T):
            place[t] = _may_place(st.owner, info, t)
    elif phase == ATTACK:
        for t in range(T):
            for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
                if _may_attack(st.owner, st.armies, p, t, B.nbr_idx[i]):
                    attack[t, B.nbr_idx[i]] = True
                    dice[t] = _attack_dice(st, R, t)
    elif phase == FORTIFY and R[R_FORTIFY] == FORTIFY_ADJACENT:
        for t in range(T):
            for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
                fortify[t, B.nbr_idx[i]] = _may_fortify_adjacent(st.owner, st.armies, p, t, B.nbr_idx[i])
    elif phase == FORTIFY:  # connected: t reaches u when both lie in one region of p's land
        region = np.empty(T, np.int64)
        _regions(st, B, p, region)
        for t in range(T):
            if _may_leave(st.owner, st.armies, p, t):
                for u in range(T):
                    fortify[t, u] = region[u] == region[t] and u != t
    elif phase == TRADE or phase == ELIM_TRADE:
        C = st.card_owner.shape[0]
        for c1 in range(C):
            if st.card_owner[c1] != p:
                continue
            for c2 in range(c1 + 1, C):
                if st.card_owner[c2] != p:
                    continue
                for c3 in range(c2 + 1, C):
                    if n < sets.shape[0] and _check(st, B, R, TRADE_SET, c1, c2, c3, 0) == OK:
                        sets[n, 0] = c1
                        sets[n, 1] = c2
                        sets[n, 2] = c3
                        n += 1
    return n
