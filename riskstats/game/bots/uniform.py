"""The ``uniform`` bot: every decision uniform over all the legal moves of the engine's move space.

"Uniform over the legal moves" means uniform over the legal move tuples ``(kind, a, b, c)`` that
`riskstats.game.play.Game.legal_moves` lists and the engine's `_check` accepts, all kinds of the phase pooled:
a placement is a (territory, armies) pair (armies 1 .. the quota or the reserve), an attack a (from, to, dice)
triple, a fortification a (from, to, armies) triple, an occupation one of 0 .. the armies that may follow, a
defence one of 1 .. the dice the defender may roll, a trade one of the valid sets (plus passing, when allowed),
and the phase's one ending move (end the attack, end the turn) is one tuple among them. So it rarely ends an
attack phase while it can attack, and nearly always fortifies; it also chooses its defence dice uniformly and
picks a capital uniformly. Unlike every other built-in bot it is no strategy at all: two uniform bots play a
game that seldom ends before the rules' turn cap (a truncation). The counts come from the rules' own
legality tests, those its legal-move masks are made of (`riskstats.game.rules.legal`: `_may_attack` and
`_attack_dice`, `_may_fortify` after `_fortify_regions`, `_defend_dice`) and the draw from the state's stream
(`riskstats.game.rules.stream._randint`).
"""
from __future__ import annotations

from riskstats._numba import inline_jit, lean_jit

# ---------------------------------------------------------------- shared helpers
from riskstats.game.bots.common import _must_trade, _nth_owned, _random_claim, _random_owned
from riskstats.game.bots.random_bot import _random_set
from riskstats.game.rules.legal import _attack_dice, _defend_dice, _fortify_regions, _may_attack, _may_fortify
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
    I_OCC_FROM,
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
    SC_GOAL,
    SETUP_PLACE,
    TRADE,
    _scratch_block,
)
from riskstats.game.rules.stream import _randint

PLAYS = ('uniform',)
"""The catalogue entries (`riskstats.game.bots.catalog.BUILT_IN`) this module plays."""


@lean_jit
def _uniform_place(st, q, most):  # pragma: no cover - compiled
    """PLACE uniform over the (territory of q, armies 1..most) pairs."""
    n = 0
    for t in range(st.owner.shape[0]):
        n += st.owner[t] == q
    k = _randint(st.rng, n * most)
    t = _nth_owned(st, q, k // most)
    return PLACE, t, 1 + k % most, 0, 0


@lean_jit
def _uniform_attack(st, B, R, p):  # pragma: no cover - compiled
    """ATTACK_MOVE uniform over the legal (from, to, dice) triples and END_ATTACK, one tuple each."""
    T = st.owner.shape[0]
    n = 1  # END_ATTACK
    for a in range(T):
        dice = _attack_dice(st, R, a)
        for i in range(B.nbr_ptr[a], B.nbr_ptr[a + 1]):
            n += dice * _may_attack(st.owner, st.armies, p, a, B.nbr_idx[i])
    k = _randint(st.rng, n)
    if k == n - 1:
        return END_ATTACK, 0, 0, 0, 0
    for a in range(T):
        dice = _attack_dice(st, R, a)
        for i in range(B.nbr_ptr[a], B.nbr_ptr[a + 1]):
            b = B.nbr_idx[i]
            if _may_attack(st.owner, st.armies, p, a, b):
                if k < dice:
                    return ATTACK_MOVE, a, b, 1 + k, 0
                k -= dice
    return END_ATTACK, 0, 0, 0, 0


@lean_jit
def _uniform_fortify(st, B, R, p):  # pragma: no cover - compiled
    """FORTIFY_MOVE uniform over the legal (from, to, armies) triples and END_TURN, one tuple each."""
    T = st.owner.shape[0]
    region = _scratch_block(st.scratch, T, SC_GOAL)  # not SC_MARK, which _fortify_regions searches with
    _fortify_regions(st, B, R, p, region)
    n = 1  # END_TURN
    for a in range(T):
        for b in range(T):
            n += _may_fortify(st, B, R, p, a, b, region) * (st.armies[a] - 1)
    k = _randint(st.rng, n)
    if k == n - 1:
        return END_TURN, 0, 0, 0, 0
    for a in range(T):
        for b in range(T):
            if _may_fortify(st, B, R, p, a, b, region):
                amounts = st.armies[a] - 1
                if k < amounts:
                    return FORTIFY_MOVE, a, b, 1 + k, 0
                k -= amounts
    return END_TURN, 0, 0, 0, 0


@inline_jit
def _uniform_bot(st, B, R, V, params):  # pragma: no cover - compiled
    info = st.info
    phase = info[I_PHASE]
    p = info[I_PLAYER]
    if phase == ATTACK:
        return _uniform_attack(st, B, R, p)
    if phase == DEFEND:
        return DEFEND_MOVE, 1 + _randint(st.rng, _defend_dice(st, R)), 0, 0, 0
    if phase == OCCUPY:
        return OCCUPY_MOVE, _randint(st.rng, st.armies[info[I_OCC_FROM]]), 0, 0, 0
    if phase == FORTIFY:
        return _uniform_fortify(st, B, R, p)
    if phase == CLAIM:
        return _random_claim(st)
    if phase == SETUP_PLACE:
        return _uniform_place(st, info[I_PLACE_FOR], info[I_QUOTA])
    if phase == REINFORCE:
        return _uniform_place(st, p, info[I_RESERVE])
    if phase == CAPITAL:
        return CAPITAL_PICK, _random_owned(st, p), 0, 0, 0
    if phase == TRADE or phase == ELIM_TRADE:
        return _random_set(st, B, p, not _must_trade(st, R))
    return PASS, 0, 0, 0, 0
