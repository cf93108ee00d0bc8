"""The game's invariants, checked by compiled kernels: after every turn of a game, or at any moment of one.

This module owns the invariants (`INVARIANTS`, one bit each in a violation mask), the kernel
`_check_state` that tests a state against them, `_account` that follows the event log row by row (every
army placed or destroyed, the setup armies, each turn's reinforcement), and two ways in:
`check_invariants` (one `riskstats.game.play.Game`, now) and `sweep` (many seeded games with built-in
bots, checked after every turn; ``scripts/make/invariant_sweep.py`` runs it at scale). It does not own the
rules: the invariants are worked out again here from the state, independently of the engine's own code
(the reinforcement, continents held, missions and capitals), so an engine bug shows as a violation.

A swept game is played by the engine's own loop, one turn per call (`riskstats.game.loop._play` with a
horizon of the current turn, through `riskstats.game.drive._drive`, which runs the look-ahead loop for
line-ups with a search seat), with a legality check of every bot move; its event log is read in windows
(the log's row counter is restored after each), so a swept game is move for move the game
`riskstats.runs.selfplay.play_games` plays with the same seed (a test compares them).

>>> from riskstats.game.play import Game
>>> game = Game(players=3, seed=2).play(["aggressive"], max_moves=300)
>>> check_invariants(game)
[]
"""
from __future__ import annotations

import numba
import numpy as np
from numba import prange

from riskstats._numba import jit, parallel_jit
from riskstats.errors import RiskstatsError, check_int
from riskstats.game.bots.catalog import Lineup
from riskstats.game.bots.roster import roster_for
from riskstats.game.drive import _drive, _start_game
from riskstats.game.loop import MAX_MOVES, NO_HORIZON
from riskstats.game.rules.options import (
    CARDS_ONE,
    R_CAPITALS_NEEDED,
    R_CARDS_PER_TURN,
    R_ELIM_KEEP,
    R_ELIM_TRADE,
    R_FORCED,
    R_MAX_TURNS,
    R_NEUTRAL,
    R_NEUTRAL_ARMIES,
    R_PLAYERS,
    R_START,
    R_VARIANT,
    V_CAPITAL,
    V_MISSION,
    V_TWO_PLAYER,
    GameRules,
    default_rules,
)
from riskstats.game.rules.state import (
    ASIDE,
    ATTACK_MOVE,
    BEGIN_TURN,
    CAPITAL,
    CLAIM,
    DECK,
    DISCARD,
    EV_CLAIM,
    EV_DEAL,
    EV_REINFORCE,
    I_DECK_N,
    I_LOG_N,
    I_MOVES,
    I_PHASE,
    I_REASON,
    I_RESERVE,
    I_START_HAND,
    I_TURN,
    I_WINNER,
    L_ADICE,
    L_ALOSS,
    L_ARMIES,
    L_DDICE,
    L_DLOSS,
    L_FROM_CARDS,
    L_FROM_CONTINENTS,
    L_FROM_TERRITORIES,
    L_MOVE,
    L_PHASE,
    L_PLAYER,
    L_TOTAL,
    L_VALUE,
    M_C1,
    M_C2,
    M_COUNT,
    M_KIND,
    M_MIN,
    M_TARGET,
    M_THIRD,
    MK_ACHIEVED,
    MK_CONTINENTS,
    MK_DESTROY,
    MK_TERRITORIES,
    OVER,
    PLACE,
    REASONS,
    REINFORCE,
    SETUP_PLACE,
    TRADE,
    TRADE_SET,
    WIN_ALL,
    WIN_CAP,
    WIN_CAPITALS,
    WIN_ELIMINATED,
    WIN_MISSION,
    WIN_MOVE_CAP,
    _turn_seat,
)
from riskstats.pieces import in_pieces

INVARIANTS = (
    "armies",        # every owned territory holds >= 1 army, an unowned one none (unowned only while claiming)
    "owners",        # owners are seats; territory counts, alive and out agree; the seat to move is in play
    "conservation",  # each log row changes the board's armies by what it says; board = placed - destroyed
    "setup",         # each seat placed exactly its starting armies in setup, and none are left after it
    "reinforcement",  # the armies placed in each turn's reinforce phases are the turn's reinforcement
    "cards",         # every card is in exactly one place: the draw pile (as the deck array says), a hand,
                     # the discards, or set aside (only a capital's card, in Capital Risk)
    "hands",         # only players in play hold cards; with one card a turn no hand exceeds the rules' bound
    "reserve",       # a turn starts with max(3, territories // 3) + continent bonuses; never negative
    "winner",        # a finished game's winner meets its reason's condition (or the cap was reached)
    "won_earlier",   # while the game goes on, no one checked has met their win condition
    "turn_order",    # turns go to the next seat in play, one at a time, within the turn cap
    "illegal_move",  # a built-in bot chose a move the engine's check refuses
    "log",           # the event log lost rows (a window overflowed)
)
"""Invariant names; bit k of a violation mask is ``INVARIANTS[k]``."""
(B_ARMIES, B_OWNERS, B_CONSERVATION, B_SETUP, B_REINFORCEMENT, B_CARDS, B_HANDS, B_RESERVE, B_WINNER,
 B_EARLY, B_ORDER, B_ILLEGAL, B_LOG) = (1 << k for k in range(len(INVARIANTS)))

ACCOUNT = ("fresh", "total", "placed", "destroyed", "turn_placed", "turn_due", "traded", "turn_seen")
"""acc[...], the running account `_account` keeps of a game's event log (then one setup count per seat):
fresh (1: the log starts at the game's start, so totals start from 0), the board's total after the last
row (-1: not known yet), armies placed (deals, claims, placements, trade bonuses) and destroyed (battle
losses), armies placed in this turn's reinforce phases and the reinforcement due (the reinforce rows'
parts), set values traded since the last reinforce row, whether this turn's start was logged; then
acc[A_SETUP + s]: setup armies placed for seat s."""
A_FRESH, A_TOTAL, A_PLACED, A_DESTROYED, A_TURN_PLACED, A_TURN_DUE, A_TRADED, A_TURN_SEEN = range(len(ACCOUNT))
A_SETUP = len(ACCOUNT)

LOG_ROWS = 4096
"""Rows of the event-log window a swept game is read through."""


# ---------------------------------------------------------------- the event log, row by row
@jit
def _account(log, n, acc):  # pragma: no cover - compiled
    """Follow rows 0 .. n - 1 of ``log`` (the next window of a game's log) into ``acc`` (`ACCOUNT`); the
    violation mask of what they show."""
    bad = 0
    if n > log.shape[0]:
        bad |= B_LOG
        n = log.shape[0]
    for i in range(n):
        row = log[i]
        move = row[L_MOVE]
        delta = 0
        if move == EV_DEAL or move == EV_CLAIM or move == PLACE:
            delta = row[L_ARMIES]
            if delta < 1:
                bad |= B_CONSERVATION
            acc[A_PLACED] += delta
            if move != PLACE or row[L_PHASE] == SETUP_PLACE:
                seat = row[L_PLAYER]
                if 0 <= seat < acc.shape[0] - A_SETUP:
                    acc[A_SETUP + seat] += delta
                else:
                    bad |= B_OWNERS
            elif row[L_PHASE] == REINFORCE:
                acc[A_TURN_PLACED] += delta
            else:
                bad |= B_REINFORCEMENT
        elif move == TRADE_SET:
            delta = row[L_ARMIES]
            if delta != 0 and delta != 2:
                bad |= B_CONSERVATION
            acc[A_PLACED] += delta
            acc[A_TRADED] += row[L_VALUE]
        elif move == ATTACK_MOVE:
            lost = row[L_ALOSS] + row[L_DLOSS]
            if row[L_ALOSS] < 0 or row[L_DLOSS] < 0 or lost != min(row[L_ADICE], row[L_DDICE]):
                bad |= B_CONSERVATION
            delta = -lost
            acc[A_DESTROYED] += lost
        elif move == EV_REINFORCE:
            if row[L_FROM_CARDS] != acc[A_TRADED] or row[L_FROM_TERRITORIES] < 0 or row[L_FROM_CONTINENTS] < 0:
                bad |= B_REINFORCEMENT
            acc[A_TRADED] = 0
            acc[A_TURN_DUE] += row[L_FROM_TERRITORIES] + row[L_FROM_CONTINENTS] + row[L_FROM_CARDS]
        elif move == BEGIN_TURN:
            if acc[A_TURN_SEEN] == 1 and acc[A_TURN_PLACED] != acc[A_TURN_DUE]:
                bad |= B_REINFORCEMENT
            acc[A_TURN_SEEN] = 1
            acc[A_TURN_PLACED] = 0
            acc[A_TURN_DUE] = 0
            acc[A_TRADED] = 0
        if acc[A_TOTAL] >= 0 and row[L_TOTAL] != acc[A_TOTAL] + delta:
            bad |= B_CONSERVATION
        acc[A_TOTAL] = row[L_TOTAL]
    return bad


# ---------------------------------------------------------------- the rules, worked out again
@jit
def _holds(st, B, p, k):  # pragma: no cover - compiled
    """Whether seat p owns every territory of continent k."""
    for t in range(st.owner.shape[0]):
        if B.continent_of[t] == k and st.owner[t] != p:
            return False
    return True


@jit
def _reinforcement(st, B, p):  # pragma: no cover - compiled
    """max(3, territories // 3) plus the bonus of each continent p holds whole."""
    n = 0
    for t in range(st.owner.shape[0]):
        if st.owner[t] == p:
            n += 1
    total = max(3, n // 3)
    for k in range(B.continent_bonus.shape[0]):
        if _holds(st, B, p, k):
            total += B.continent_bonus[k]
    return total


@jit
def _mission_met(st, B, p):  # pragma: no cover - compiled
    """Whether seat p's mission row is met now (the row as the engine decoded the card)."""
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
        if not (_holds(st, B, p, m[M_C1]) and _holds(st, B, p, m[M_C2])):
            return False
        if m[M_THIRD] == 0:
            return True
        for k in range(B.continent_bonus.shape[0]):
            if k != m[M_C1] and k != m[M_C2] and _holds(st, B, p, k):
                return True
    return False


@jit
def _capitals_met(st, R, p):  # pragma: no cover - compiled
    """Whether seat p holds its own capital and the enemy capitals the rules ask for."""
    if st.capital[p] < 0 or st.owner[st.capital[p]] != p:
        return False
    n = 0
    for q in range(R[R_PLAYERS]):
        if q != p and st.capital[q] >= 0 and st.owner[st.capital[q]] == p:
            n += 1
    return n >= R[R_CAPITALS_NEEDED]


@jit
def _won(st, B, R, p):  # pragma: no cover - compiled
    """Whether player p meets a win condition of the variant now (last player standing included)."""
    P = R[R_PLAYERS]
    others = 0
    for q in range(P):
        if q != p and st.alive[q] == 1:
            others += 1
    if st.alive[p] == 1 and others == 0:
        return True
    if R[R_VARIANT] == V_MISSION:
        return _mission_met(st, B, p)
    if R[R_VARIANT] == V_CAPITAL:
        return _capitals_met(st, R, p)
    return False


# ---------------------------------------------------------------- the state
@jit
def _check_territories(st, R, over, setup, count):  # pragma: no cover - compiled
    """Owners, armies and the seats in play; ``count[s]`` gets seat s's territories. Returns (the violations,
    the armies on the board, the seat to move or -1 where it cannot be)."""
    T = st.owner.shape[0]
    S = st.alive.shape[0]
    P = R[R_PLAYERS]
    info = st.info
    phase = info[I_PHASE]
    bad = 0
    total = 0
    for t in range(T):
        o = st.owner[t]
        total += st.armies[t]
        if o == -1:
            if phase != CLAIM:
                bad |= B_OWNERS
            if st.armies[t] != 0:
                bad |= B_ARMIES
        elif 0 <= o < S:
            count[o] += 1
            if st.armies[t] < 1:
                bad |= B_ARMIES
        else:
            bad |= B_OWNERS
    out_seen = np.zeros(S + 1, np.int64)
    for s in range(S):
        if count[s] != st.n_terr[s]:
            bad |= B_OWNERS
        if phase != CLAIM:
            if st.alive[s] != (1 if count[s] > 0 else 0):
                bad |= B_OWNERS
            if (st.out[s] > 0) != (st.alive[s] == 0):
                bad |= B_OWNERS
        if st.out[s] < 0 or st.out[s] > S:
            bad |= B_OWNERS
        elif st.out[s] > 0:
            out_seen[st.out[s]] += 1
    for k in range(1, S + 1):
        if out_seen[k] > 1:
            bad |= B_OWNERS
    p = _turn_seat(st)
    if not over and (p < 0 or p >= P or (not setup and st.alive[p] != 1)):
        bad |= B_OWNERS
        p = -1
    return bad, total, p


@jit
def _check_conservation(st, R, acc, total, setup):  # pragma: no cover - compiled
    """Armies conserved against the game's account ``acc`` (and every setup army placed)."""
    S = st.alive.shape[0]
    N = R[R_NEUTRAL]
    info = st.info
    phase = info[I_PHASE]
    bad = 0
    if acc[A_TOTAL] >= 0 and total != acc[A_TOTAL]:
        bad |= B_CONSERVATION
    if acc[A_FRESH] == 1 and total != acc[A_PLACED] - acc[A_DESTROYED]:
        bad |= B_CONSERVATION
    if acc[A_FRESH] == 1 and not setup and phase != CAPITAL:
        for s in range(S):
            due = R[R_NEUTRAL_ARMIES] if s == N else R[R_START]
            if acc[A_SETUP + s] != due or st.to_place[s] != 0:
                bad |= B_SETUP
    return bad


@jit
def _check_cards(st, B, R, boundary, over, setup, p, held):  # pragma: no cover - compiled
    """The draw pile, the cards set aside, the hands (``held[s]`` gets seat s's count) and the reserve."""
    T = st.owner.shape[0]
    C = st.card_owner.shape[0]
    S = st.alive.shape[0]
    P = R[R_PLAYERS]
    info = st.info
    phase = info[I_PHASE]
    bad = 0
    in_deck = 0
    for c in range(C):
        o = st.card_owner[c]
        if o == DECK:
            in_deck += 1
        elif o == ASIDE:
            ok = R[R_VARIANT] == V_CAPITAL and B.card_territory[c] >= 0
            if ok:
                ok = False
                for q in range(P):
                    if st.capital[q] == B.card_territory[c]:
                        ok = True
            if not ok:
                bad |= B_CARDS
        elif 0 <= o < S:
            held[o] += 1
        elif o != DISCARD:
            bad |= B_CARDS
    n_deck = info[I_DECK_N]
    if n_deck < 0 or n_deck > C or n_deck != in_deck:
        bad |= B_CARDS
    else:
        seen = np.zeros(C, np.int64)
        for i in range(n_deck):
            c = st.deck[i]
            if c < 0 or c >= C or seen[c] == 1 or st.card_owner[c] != DECK:
                bad |= B_CARDS
                break
            seen[c] = 1
    if R[R_VARIANT] == V_CAPITAL and not setup:
        for q in range(P):  # a capital's card is set aside for good
            t = st.capital[q]
            if t < 0 or t >= T:
                bad |= B_CARDS
            else:
                for c in range(C):
                    if B.card_territory[c] == t and st.card_owner[c] != ASIDE:
                        bad |= B_CARDS
                for r in range(q):
                    if st.capital[r] == t:
                        bad |= B_CARDS
    bound = C
    if R[R_CARDS_PER_TURN] == CARDS_ONE and R[R_FORCED] >= 5 and R[R_ELIM_KEEP] >= 4:
        bound = max(R[R_FORCED], R[R_ELIM_TRADE])
    for s in range(S):
        if held[s] > 0 and (s >= P or (st.alive[s] == 0 and phase != CLAIM)):
            bad |= B_HANDS
        if held[s] > bound and not over and (boundary or s != p):
            bad |= B_HANDS
    if info[I_RESERVE] < 0 or (phase == REINFORCE and info[I_RESERVE] < 1):
        bad |= B_RESERVE
    return bad


@jit
def _check_missions(st, R, over):  # pragma: no cover - compiled
    """Missions: a destroy card whose target is out is met at once or turned into another."""
    P = R[R_PLAYERS]
    bad = 0
    if R[R_VARIANT] == V_MISSION:
        for s in range(P):
            m = st.mission[s]
            if m[M_KIND] < 0 or m[M_KIND] > MK_ACHIEVED:
                bad |= B_OWNERS
            elif m[M_KIND] == MK_DESTROY:
                if m[M_TARGET] < 0 or m[M_TARGET] >= P or m[M_TARGET] == s:
                    bad |= B_OWNERS
                elif not over and st.alive[s] == 1 and st.alive[m[M_TARGET]] == 0:
                    bad |= B_EARLY
    return bad


@jit
def _check_end(st, B, R, boundary, prev, over, setup, p, count):  # pragma: no cover - compiled
    """The end and its reason, or no winner yet (and nobody who has already won)."""
    T = st.owner.shape[0]
    P = R[R_PLAYERS]
    N = R[R_NEUTRAL]
    info = st.info
    phase = info[I_PHASE]
    bad = 0
    if over:
        w = info[I_WINNER]
        reason = info[I_REASON]
        if reason == WIN_CAP or reason == WIN_MOVE_CAP:  # stopped with no winner: its cap was reached
            alive = 0
            for q in range(P):
                alive += st.alive[q]
            if reason == WIN_CAP:
                reached = info[I_TURN] >= R[R_MAX_TURNS]
            else:
                reached = info[I_MOVES] >= MAX_MOVES
            if w != -1 or alive < 2 or not reached:
                bad |= B_WINNER
        elif w < 0 or w >= P or st.alive[w] != 1:
            bad |= B_WINNER
        elif reason == WIN_ALL or reason == WIN_ELIMINATED:
            if (reason == WIN_ELIMINATED) != (R[R_VARIANT] == V_TWO_PLAYER):
                bad |= B_WINNER
            for q in range(P):
                if q != w and st.alive[q] == 1:
                    bad |= B_WINNER
            if N < 0 and count[w] != T:
                bad |= B_WINNER
        elif reason == WIN_MISSION:
            if R[R_VARIANT] != V_MISSION or not _mission_met(st, B, w):
                bad |= B_WINNER
        elif reason == WIN_CAPITALS:
            if R[R_VARIANT] != V_CAPITAL or not _capitals_met(st, R, w):
                bad |= B_WINNER
        else:
            bad |= B_WINNER
    else:
        if info[I_WINNER] != -1 or info[I_REASON] != 0:
            bad |= B_WINNER
        if not setup and phase != CAPITAL:
            alive = 0
            for q in range(P):
                alive += st.alive[q]
            if alive < 2:
                bad |= B_EARLY
            if p >= 0 and _won(st, B, R, p):
                bad |= B_EARLY
            if R[R_VARIANT] == V_CAPITAL:  # capitals change hands only by conquest, which is checked
                for q in range(P):
                    if st.alive[q] == 1 and _capitals_met(st, R, q):
                        bad |= B_EARLY
            if boundary and prev >= 0 and st.alive[prev] == 1 and _won(st, B, R, prev):
                bad |= B_EARLY
        if info[I_TURN] > R[R_MAX_TURNS]:
            bad |= B_ORDER
    return bad


@jit
def _check_turn_start(st, B, R, boundary, prev, over, setup, p, held):  # pragma: no cover - compiled
    """At a turn's start: the phase, the reserve, the hand held and the turn order."""
    P = R[R_PLAYERS]
    info = st.info
    phase = info[I_PHASE]
    bad = 0
    if boundary and not over and not setup and p >= 0:
        if phase != TRADE and phase != REINFORCE:
            bad |= B_ORDER
        elif info[I_RESERVE] != _reinforcement(st, B, p):
            bad |= B_RESERVE
        if info[I_START_HAND] != held[p]:
            bad |= B_HANDS
        if prev >= 0:
            q = prev
            for k in range(1, P + 1):
                q = (prev + k) % P
                if st.alive[q] == 1:
                    break
            if q != p:
                bad |= B_ORDER
    return bad


@jit
def _check_state(st, B, R, acc, boundary, prev):  # pragma: no cover - compiled
    """The violation mask of a state (`INVARIANTS`; 0: none).

    ``acc`` is the game's `_account` so far; ``boundary`` says the state is at a turn's start (or the game's
    end), just after seat ``prev``'s turn (-1: after setup, or not known), which adds the checks that hold
    only there: the reserve, the hand held at the turn's start, the turn order and the reinforcement of the
    turn just played. It checks family by family: `_check_territories` (owners, armies, the seats in play, who
    moves), `_check_conservation`, `_check_cards` (the pile, the hands, capitals' cards, the reserve),
    `_check_missions`, `_check_end` (the winner, or none yet) and `_check_turn_start`.
    """
    S = st.alive.shape[0]
    count = np.zeros(S, np.int64)
    held = np.zeros(S, np.int64)
    over = st.info[I_PHASE] == OVER
    setup = st.info[I_TURN] == 0 and not over
    bad, total, p = _check_territories(st, R, over, setup, count)
    bad |= _check_conservation(st, R, acc, total, setup)
    bad |= _check_cards(st, B, R, boundary, over, setup, p, held)
    bad |= _check_missions(st, R, over)
    bad |= _check_end(st, B, R, boundary, prev, over, setup, p, count)
    bad |= _check_turn_start(st, B, R, boundary, prev, over, setup, p, held)
    return bad


# ---------------------------------------------------------------- a game, turn by turn
@jit
def _sweep_game(st, B, R, CUT, V, bots, params, acc, roster, result):  # pragma: no cover - compiled
    """Play a started game (`_init`, its log rows not yet read) to its end one turn at a time, checking the
    state after each; result = (violation mask, turn it was first seen or -1, checks made).

    Parameters
    ----------
    st : State
        The started game, played on in place.
    B, R, CUT, V
        The context (`riskstats.game.rules.context.compile_context`): the board arrays (`BoardArrays`), the rule
        vector (int64[R_SIZE]), the one-roll table and the P(conquer) table.
    bots : int64[seats]
        Each seat's bot id.
    params : float64[seats, N_PARAMS]
        Each seat's parameter vector.
    acc : int64[len(ACCOUNT) + seats]
        The running account of the event log (`ACCOUNT`), kept by `_account`.
    roster : tuple
        The line-up's roster (`riskstats.game.bots.roster.roster_for`): the bots compiled in.
    result : int64[3]
        Written: (violation mask, turn first seen or -1, checks made).
    """
    info = st.info
    log = st.log
    memory = np.full((st.alive.shape[0], 2), -1, np.int64)
    result[0] = 0
    result[1] = -1
    result[2] = 0
    base = info[I_LOG_N]
    info[I_LOG_N] = 0  # the rows _init wrote are rows 0 .. base - 1 of the window
    bad = _account(log, base, acc)
    info[I_LOG_N] = base
    while bad == 0:
        start = info[I_TURN]
        seat = _turn_seat(st)
        info[I_LOG_N] = 0
        error = _drive(st, B, R, CUT, V, bots, params, True, start, NO_HORIZON, roster, memory)
        n = info[I_LOG_N]
        info[I_LOG_N] = base + n
        base += n
        bad |= _account(log, n, acc)
        if error > 0:
            bad |= B_ILLEGAL
        if bad != 0 or error < 0:
            continue  # error -1: the window is full, the turn goes on
        result[2] += 1
        bad |= _check_state(st, B, R, acc, True, seat if start > 0 else -1)
        if info[I_PHASE] == OVER:
            break
        if info[I_TURN] != start + 1:
            bad |= B_ORDER
    if bad != 0:
        result[1] = info[I_TURN]
    result[0] = bad
    return bad


@parallel_jit
def _sweep(seeds, lineup_bots, lineup_params, B, R, CUT, V, seats, log_rows, roster, out):  # pragma: no cover
    """out[g] = (violation mask, turn first seen, checks, turns, moves, winner, reason) of game g; seat s
    plays line-up entry (s + first + g) % P, as in self-play (the caller rotates the line-up by first).

    Parameters
    ----------
    seeds : uint64[G]
        Each game's seed.
    lineup_bots : int64[P]
        The line-up's bot ids (`riskstats.game.bots.catalog.Lineup.arrays`).
    lineup_params : float64[P, N_PARAMS]
        Their parameter vectors.
    B, R, CUT, V
        The context (`riskstats.game.rules.context.compile_context`): the board arrays (`BoardArrays`), the rule
        vector (int64[R_SIZE]), the one-roll table and the P(conquer) table.
    seats : int
        Seats at the table.
    log_rows : int
        Event-log rows of each game's state (`LOG_ROWS`), read and emptied after every turn.
    roster : tuple
        The line-up's roster (`riskstats.game.bots.roster.roster_for`): the bots compiled in.
    out : int64[G, 7]
        Written: each game's row, as above.
    """
    G = seeds.shape[0]
    for g in prange(G):
        st, bots, params = _start_game(lineup_bots, lineup_params, g, B, R, seats, log_rows, seeds[g])
        acc = np.zeros(A_SETUP + seats, np.int64)
        acc[A_FRESH] = 1
        acc[A_TOTAL] = 0
        result = np.zeros(3, np.int64)
        _sweep_game(st, B, R, CUT, V, bots, params, acc, roster, result)
        out[g, 0:3] = result
        out[g, 3] = st.info[I_TURN]
        out[g, 4] = st.info[I_MOVES]
        out[g, 5] = st.info[I_WINNER]
        out[g, 6] = st.info[I_REASON]


# ---------------------------------------------------------------- the public ways in
def violation_names(mask: int) -> list[str]:
    """The invariants a violation mask names, in `INVARIANTS` order.

    >>> violation_names(0), violation_names(B_CARDS | B_ARMIES)
    ([], ['armies', 'cards'])
    """
    return [name for k, name in enumerate(INVARIANTS) if int(mask) >> k & 1]


def check_invariants(game) -> list[str]:
    """The invariants a `riskstats.game.play.Game` breaks now (`INVARIANTS`; [] if none).

    Checked at any moment: territories, seats, cards, hands, the reserve, the winner (or no one having won
    yet). With the game's event log from its start (a game made by ``Game(...)``), also that the armies are
    conserved row by row, that each seat placed its starting armies, and that each finished turn placed its
    reinforcement; from a position (`Game.from_json`), the log's rows are checked against each other only.
    The checks that hold only at a turn's start (the reserve, the turn order) are `sweep`'s.
    """
    st = game.state
    S = st.alive.shape[0]
    acc = np.zeros(A_SETUP + S, np.int64)
    log = st.log
    n = int(st.info[I_LOG_N])
    fresh = log.shape[0] > 0 and n > 0 and log[0, L_MOVE] in (EV_DEAL, EV_CLAIM) and log[0, L_TOTAL] == 1
    acc[A_FRESH] = 1 if fresh else 0
    acc[A_TOTAL] = 0 if fresh else -1
    bad = 0
    if log.shape[0] > 0:
        bad |= int(_account(log, n, acc))
    bad |= int(_check_state(st, game.context.B, game.context.R, acc, False, -1))
    return violation_names(bad)


def sweep(games: int, players: int, bots, rules: GameRules | None = None, *, seed: int = 0, first: int = 0,
          board=None):
    """Play ``games`` seeded games with built-in bots, checking every invariant after every turn.

    Parameters
    ----------
    games, players : int
    bots : list of str, or a comma-separated str
        A line-up as for `riskstats.runs.selfplay.play_games` (seats rotate by game the same way).
    rules : GameRules, optional
        Default: `riskstats.game.rules.options.default_rules` for ``players``.
    seed : int
        Game g's seed is word ``first + g`` of ``np.random.SeedSequence(seed).generate_state(first + games)``,
        so games 0 .. 65,535 are `play_games`' games with the same seed.
    first : int
        Play games ``first .. first + games - 1`` of the sweep (to run it in chunks).
    board : Board, optional

    Returns
    -------
    pandas.DataFrame
        One row per game: game, seed, bots (seat order), winner, win_reason, turns, moves, checks (states
        checked: one per turn, the setup's end included), violations (the broken invariants, comma-joined;
        "" if none) and violation_turn (the turn they were seen at, -1 if none).

    >>> table = sweep(4, 3, "aggressive,continent,random", seed=1)
    >>> table[["turns", "checks"]].gt(0).all().all(), table["violations"].eq("").all()
    (np.True_, np.True_)
    """
    import pandas as pd

    from riskstats.game.rules.board import classic_board
    from riskstats.game.rules.context import compile_context

    games = check_int("games", games, 1, 10**9)
    first = check_int("first", first, 0, 10**12)
    seed = check_int("seed", seed, 0)
    board = board or classic_board()
    rules = rules or default_rules(check_int("players", players))
    if not isinstance(rules, GameRules):
        raise RiskstatsError(f"rules must be a GameRules, got {rules!r}")
    players = rules.check_players(check_int("players", players), board)
    lineup = Lineup.parse(bots)
    labels = np.array([spec.label for spec in lineup.seated(players)], dtype=object)
    lineup_bots, lineup_params = lineup.arrays(players, first)
    seeds = np.random.SeedSequence(seed).generate_state(first + games, np.uint64)[first:]
    ctx = compile_context(rules, board, players)
    out = np.zeros((games, 7), np.int64)
    seat = np.arange(players)
    roster = roster_for(_sweep, lineup_bots)

    def run(start, stop):  # games start .. stop - 1, in a short call (Ctrl-C): the line-up rotated by start
        turned = (seat + start) % players
        _sweep(seeds[start:stop], lineup_bots[turned], lineup_params[turned], *ctx, rules.seats(players), LOG_ROWS,
               roster, out[start:stop])

    in_pieces(games, run, first=numba.get_num_threads())
    g = np.arange(first, first + games)
    seat_bots = labels[(np.arange(players)[None, :] + g[:, None]) % players]
    return pd.DataFrame({
        "game": g, "seed": seeds, "bots": [",".join(row) for row in seat_bots], "winner": out[:, 5],
        "win_reason": [REASONS[r] for r in out[:, 6]], "turns": out[:, 3], "moves": out[:, 4], "checks": out[:, 2],
        "violations": [",".join(violation_names(m)) for m in out[:, 0]], "violation_turn": out[:, 1]})

