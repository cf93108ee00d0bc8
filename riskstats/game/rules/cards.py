"""The cards of a full game as compiled kernels: hands, sets, what a set is worth, trades and draws.

This module owns a seat's hand (`_hand_size`, `_hand`), what makes a set (`_set_kind`, `_find_set`, `_has_set`),
what a set is worth (`_set_value`, `_progressive`, under the rules' ``escalation``), trading a set (`_trade`, with
its territory bonus) and drawing (`_draw`, reshuffling the discards when the pile runs out; `_draw_earned`, the
cards a turn's conquests earn). Whether a trade is legal is `riskstats.game.rules.legal`'s question; when a turn
trades and draws is the engine's (`riskstats.game.rules.engine`). Symbols are the board's (`card_symbol`: 0, 1,
2, and `riskstats.game.rules.board.WILD`).
"""
from __future__ import annotations

import numpy as np

from riskstats._numba import jit, lean_jit
from riskstats.game.rules.board import WILD
from riskstats.game.rules.events import _event, _log
from riskstats.game.rules.options import (
    BONUS_PER_SET,
    BONUS_PER_TURN,
    CARDS_ONE,
    ESCALATION_NONE,
    ESCALATION_PROGRESSIVE,
    R_BONUS,
    R_CARDS_PER_TURN,
    R_ESCALATION,
    R_FIX_INF,
    R_FIX_MIX,
)
from riskstats.game.rules.state import (
    DECK,
    DISCARD,
    EV_DRAW,
    EV_RESHUFFLE,
    I_BONUS_GIVEN,
    I_CONQUERED,
    I_DECK_N,
    I_FROM_CARDS,
    I_PLAYER,
    I_RESERVE,
    I_SETS_TRADED,
    I_TRADED_TURN,
    TRADE_SET,
)
from riskstats.game.rules.stream import _shuffle


@lean_jit
def _hand_size(st, p):  # pragma: no cover - compiled
    """The number of cards seat p holds."""
    n = 0
    for c in range(st.card_owner.shape[0]):
        if st.card_owner[c] == p:
            n += 1
    return n


@jit
def _set_kind(B, c1, c2, c3):  # pragma: no cover - compiled
    """0, 1, 2: three of that symbol; 3: one of each; 4: two cards and a wild; -1: not a set."""
    s1 = B.card_symbol[c1]
    s2 = B.card_symbol[c2]
    s3 = B.card_symbol[c3]
    if s1 == WILD or s2 == WILD or s3 == WILD:
        return 4
    if s1 == s2 and s2 == s3:
        return s1
    if s1 != s2 and s2 != s3 and s1 != s3:
        return 3
    return -1


@jit
def _progressive(k):  # pragma: no cover - compiled
    """Value of the (k+1)-th set traded in the game: 4, 6, 8, 10, 12, 15, 20, 25, ..."""
    if k < 5:
        return 4 + 2 * k
    return 15 + 5 * (k - 5)


@jit
def _set_value(st, B, R, c1, c2, c3):  # pragma: no cover - compiled
    """The armies a set of cards c1, c2, c3 is worth now under the rules' escalation."""
    esc = R[R_ESCALATION]
    if esc == ESCALATION_PROGRESSIVE:
        return _progressive(st.info[I_SETS_TRADED])
    if esc == ESCALATION_NONE:
        return 4
    kind = _set_kind(B, c1, c2, c3)
    if kind < 4:
        return R[R_FIX_INF + kind]
    # a wild stands for whatever makes the best set with the other two cards
    best = 0
    syms = np.empty(2, np.int64)
    m = 0
    for c in (c1, c2, c3):
        if B.card_symbol[c] != WILD and m < 2:
            syms[m] = B.card_symbol[c]
            m += 1
    if m < 2:  # two or three wilds: any set
        for k in range(4):
            best = max(best, R[R_FIX_INF + k])
    elif syms[0] == syms[1]:
        best = R[R_FIX_INF + syms[0]]
    else:
        best = R[R_FIX_MIX]
    return best


@jit
def _hand(st, p, start):  # pragma: no cover - compiled
    """(cards, n): p's n cards in cards[:n], in index order from card ``start`` (wrapping round)."""
    C = st.card_owner.shape[0]
    cards = np.empty(C, np.int64)
    n = 0
    for k in range(C):
        c = (start + k) % C
        if st.card_owner[c] == p:
            cards[n] = c
            n += 1
    return cards, n


@jit
def _find_set(st, B, p, start, prefer_no_wild):  # pragma: no cover - compiled
    """A valid set in p's hand, searching from card ``start``; (-1, -1, -1) if none."""
    hand, n = _hand(st, p, start)
    for rnd in range(2):
        for i in range(n):
            for j in range(i + 1, n):
                for k in range(j + 1, n):
                    kind = _set_kind(B, hand[i], hand[j], hand[k])
                    if kind < 0 or (rnd == 0 and prefer_no_wild and kind == 4):
                        continue
                    return hand[i], hand[j], hand[k]
    return -1, -1, -1


@lean_jit
def _has_set(st, B, p):  # pragma: no cover - compiled
    """Whether p holds a valid set: `_set_kind`'s rule in counts (a wild with any two cards; three alike;
    one of each), as `_find_set` would find (a test checks they agree). Called every turn, so it avoids
    `_find_set`'s hand buffer, which cost the game loop a third of its speed."""
    n0 = n1 = n2 = n3 = 0
    for c in range(st.card_owner.shape[0]):
        if st.card_owner[c] == p:
            s = B.card_symbol[c]
            if s == 0:
                n0 += 1
            elif s == 1:
                n1 += 1
            elif s == 2:
                n2 += 1
            else:
                n3 += 1
    if n0 + n1 + n2 + n3 < 3:
        return False
    return n3 > 0 or n0 >= 3 or n1 >= 3 or n2 >= 3 or (n0 > 0 and n1 > 0 and n2 > 0)


@jit
def _trade(st, B, R, c1, c2, c3):  # pragma: no cover - compiled
    """Trade a (checked) set: its value goes to the reserve, +2 on an occupied card territory."""
    info = st.info
    p = info[I_PLAYER]
    value = _set_value(st, B, R, c1, c2, c3)
    info[I_SETS_TRADED] += 1
    info[I_TRADED_TURN] += 1
    info[I_RESERVE] += value
    info[I_FROM_CARDS] += value
    bonus = -1
    mode = R[R_BONUS]
    if mode == BONUS_PER_SET or (mode == BONUS_PER_TURN and info[I_BONUS_GIVEN] == 0):
        for c in (c1, c2, c3):
            t = B.card_territory[c]
            if t >= 0 and st.owner[t] == p:
                st.armies[t] += 2
                info[I_BONUS_GIVEN] = 1
                bonus = t
                break
    st.card_owner[c1] = DISCARD
    st.card_owner[c2] = DISCARD
    st.card_owner[c3] = DISCARD
    _log(st.info, st.log, st.armies, TRADE_SET, -1, bonus, 2 if bonus >= 0 else 0, 0, 0, 0, 0, c1, c2, c3, value,
         bonus, -1)


@lean_jit
def _draw(st, p):  # pragma: no cover - compiled
    """p draws the top card (a draw row); an empty pile is refilled by shuffling the discards (a reshuffle
    row). -1 if no card is left."""
    info = st.info
    if info[I_DECK_N] == 0:
        n = 0
        for c in range(st.card_owner.shape[0]):
            if st.card_owner[c] == DISCARD:
                st.card_owner[c] = DECK
                st.deck[n] = c
                n += 1
        _shuffle(st.rng, st.deck, n)
        info[I_DECK_N] = n
        _event(info, st.log, st.armies, EV_RESHUFFLE, -1, -1, 0, -1)
    if info[I_DECK_N] == 0:
        return -1
    info[I_DECK_N] -= 1
    c = st.deck[info[I_DECK_N]]
    st.card_owner[c] = p
    _event(info, st.log, st.armies, EV_DRAW, p, -1, 0, c)
    return c


@lean_jit
def _draw_earned(st, R, p):  # pragma: no cover - compiled
    """p draws what the turn's conquests earned as its attack ends: one card if it conquered anything, or one per
    conquest (the rules' ``cards_per_turn``); it stops when no card is left."""
    info = st.info
    draws = min(info[I_CONQUERED], 1) if R[R_CARDS_PER_TURN] == CARDS_ONE else info[I_CONQUERED]
    for _ in range(draws):
        if _draw(st, p) < 0:
            break
