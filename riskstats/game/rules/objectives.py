"""What wins besides being left alone: the secret missions and the capitals, read from the rules'
objective (`R[R_OBJECTIVE]`: `OBJ_TERRITORIES`, `OBJ_MISSION`, `OBJ_CAPITAL`), never from the variant's
place in `VARIANTS`.

This module owns dealing the missions (`_deal_missions`, `_give_mission`), whether a mission is done
(`_mission_done`, `_holds_continent`), the capitals a seat holds (`_capitals_held`), the winner now
(`_winner`: the last player standing in every variant, else the seat to move by its objective) and what a
"destroy" mission becomes when its target falls to someone else (`_target_lost`, `_lose_target`). The engine
(`riskstats.game.rules.engine`) asks these when a turn begins and after a conquest or a move.
"""
from __future__ import annotations

import numpy as np

from riskstats._numba import jit, lean_jit
from riskstats.game.rules.board import MT_C1, MT_C2, MT_COUNT, MT_EUROPEAN, MT_KIND, MT_MIN, MT_TARGET, MT_THIRD
from riskstats.game.rules.events import _event
from riskstats.game.rules.options import (
    DECK_EUROPEAN,
    OBJ_CAPITAL,
    OBJ_MISSION,
    R_CAPITALS_NEEDED,
    R_MISSION_DECK,
    R_OBJECTIVE,
    R_PLAYERS,
    R_TARGET_LOST,
    R_VARIANT,
    TARGET_ACHIEVED,
    V_TWO_PLAYER,
)
from riskstats.game.rules.state import (
    EV_MISSION,
    I_PLAYER,
    L_MISSION,
    M_C1,
    M_C2,
    M_CARD,
    M_COUNT,
    M_KIND,
    M_MIN,
    M_TARGET,
    M_THIRD,
    MK_ACHIEVED,
    MK_CONTINENTS,
    MK_DESTROY,
    MK_TERRITORIES,
    WIN_ALL,
    WIN_CAPITALS,
    WIN_ELIMINATED,
    WIN_MISSION,
)
from riskstats.game.rules.stream import _shuffle


@jit
def _deal_missions(st, B, R):  # pragma: no cover - compiled
    """Shuffle the mission deck (colours not in play removed) and deal one card to each player."""
    P = R[R_PLAYERS]
    M = B.missions.shape[0]
    cards = np.empty(M, np.int64)
    n = 0
    for m in range(M):
        if _in_mission_deck(B, R, m):
            cards[n] = m
            n += 1
    _shuffle(st.rng, cards, n)
    for p in range(P):
        m = cards[p]
        _give_mission(st, B, p, m)
        r = _event(st.info, st.log, st.armies, EV_MISSION, p, -1, 0, -1)
        if r >= 0:
            st.log[r, L_MISSION] = m


@lean_jit
def _in_mission_deck(B, R, m):  # pragma: no cover - compiled
    """Whether mission card m is in this game's deck: the European cards only with the European deck, and no
    "destroy" card of a colour not in play."""
    row = B.missions[m]
    return ((row[MT_EUROPEAN] == 0 or R[R_MISSION_DECK] == DECK_EUROPEAN)
            and (row[MT_KIND] != MK_DESTROY or row[MT_TARGET] < R[R_PLAYERS]))


@lean_jit
def _give_mission(st, B, p, m):  # pragma: no cover - compiled
    """Seat p holds mission card m, decoded from the board's mission table; a "destroy" card naming p's own
    colour becomes the fallback, conquering the fallback's territories."""
    row = B.missions[m]
    own = st.mission[p]
    own[M_CARD] = m
    own[M_KIND] = row[MT_KIND]
    own[M_C1] = row[MT_C1]
    own[M_C2] = row[MT_C2]
    own[M_THIRD] = row[MT_THIRD]
    own[M_COUNT] = row[MT_COUNT]
    own[M_MIN] = row[MT_MIN]
    own[M_TARGET] = row[MT_TARGET]
    if row[MT_KIND] == MK_DESTROY and row[MT_TARGET] == p:
        own[M_KIND] = MK_TERRITORIES
        own[M_TARGET] = -1


@lean_jit
def _holds_continent(st, B, p, k):  # pragma: no cover - compiled
    for t in range(st.owner.shape[0]):
        if B.continent_of[t] == k and st.owner[t] != p:
            return False
    return True


@lean_jit
def _mission_done(st, B, p):  # pragma: no cover - compiled
    """Whether seat p's mission (its row of st.mission) is achieved now."""
    m = st.mission[p]
    kind = m[M_KIND]
    if kind == MK_ACHIEVED:
        return True
    if kind == MK_DESTROY:
        return st.alive[m[M_TARGET]] == 0
    if kind == MK_TERRITORIES:
        n = 0
        for t in range(st.owner.shape[0]):
            if st.owner[t] == p and st.armies[t] >= m[M_MIN]:
                n += 1
        return n >= m[M_COUNT]
    if kind == MK_CONTINENTS:
        if not (_holds_continent(st, B, p, m[M_C1]) and _holds_continent(st, B, p, m[M_C2])):
            return False
        if m[M_THIRD] == 0:
            return True
        for k in range(B.continent_bonus.shape[0]):
            if k != m[M_C1] and k != m[M_C2] and _holds_continent(st, B, p, k):
                return True
    return False


@lean_jit
def _capitals_held(st, R, p):  # pragma: no cover - compiled
    """Enemy capitals p holds (an eliminated player's capital counts for whoever holds it)."""
    n = 0
    for q in range(R[R_PLAYERS]):
        if q != p and st.capital[q] >= 0 and st.owner[st.capital[q]] == p:
            n += 1
    return n


@lean_jit
def _winner(st, B, R):  # pragma: no cover - compiled
    """(seat, reason) if the game is won now, else (-1, 0): the last player standing in every variant;
    in Secret Mission and Capital Risk also the player to move by their own win condition."""
    P = R[R_PLAYERS]
    alive = 0
    last = -1
    for p in range(P):
        if st.alive[p] == 1:
            alive += 1
            last = p
    if alive == 1:
        return last, WIN_ALL if R[R_VARIANT] != V_TWO_PLAYER else WIN_ELIMINATED
    p = st.info[I_PLAYER]
    if R[R_OBJECTIVE] == OBJ_MISSION and _mission_done(st, B, p):
        return p, WIN_MISSION
    if R[R_OBJECTIVE] == OBJ_CAPITAL and st.capital[p] >= 0 and st.owner[st.capital[p]] == p \
            and _capitals_held(st, R, p) >= R[R_CAPITALS_NEEDED]:
        return p, WIN_CAPITALS
    return -1, 0


@lean_jit
def _target_lost(st, R, old, p):  # pragma: no cover - compiled
    """Seat ``old`` was eliminated by p: other players' "destroy old" missions become achieved, or
    "24 territories", as R[R_TARGET_LOST] says."""
    for q in range(R[R_PLAYERS]):
        if q != p and st.mission[q, M_KIND] == MK_DESTROY and st.mission[q, M_TARGET] == old:
            _lose_target(st, R, q)


@lean_jit
def _lose_target(st, R, q):  # pragma: no cover - compiled
    """Seat q's "destroy" target went out to another player: its mission becomes achieved, or "24
    territories", as R[R_TARGET_LOST] says."""
    m = st.mission[q]
    if R[R_TARGET_LOST] == TARGET_ACHIEVED:
        m[M_KIND] = MK_ACHIEVED
    else:
        m[M_KIND] = MK_TERRITORIES
        m[M_COUNT] = 24
        m[M_MIN] = 1
