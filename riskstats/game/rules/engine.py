"""The rules of a full game as compiled kernels: setup, turns, battle, fortification, winning.

This module owns every rule that changes a `riskstats.game.rules.state.State`: `_init` deals or opens the
claim, the turn's course (`_begin_turn`, `_end_turn`, the reinforcement), `_apply` plays a legal move and
`_resolve_roll` its chance step. It applies; it does not decide what is legal (`riskstats.game.rules.legal`:
`_check`, the dice bounds, the fortify reach, the legal masks) or what the cards are worth
(`riskstats.game.rules.cards`: sets, trades, draws). It asks `riskstats.game.rules.objectives` who wins, draws
from the state's stream (`riskstats.game.rules.stream`) and writes the event log
(`riskstats.game.rules.events`). Both the compiled self-play loop (`riskstats.runs.selfplay`) and the
step-by-step Python API (`riskstats.game.play`) call these same functions; nothing here validates Python input or
touches pandas.

Kernel arguments: ``st`` a State, ``B`` the board's `BoardArrays`, ``R`` the rule vector
(`GameRules.vector`), ``CUT`` the rules' one-roll table as `riskstats.odds.simulate.sampling_table` (one
53-bit uniform per roll picks the outcome, as in the simulator). Randomness comes only from the
state's own stream (``st.rng``), so a game is a function of its seed, on any thread.

Winning (`riskstats.game.rules.objectives._winner`) is checked for the player to move: after every conquest
in every variant, at the start of each turn and after every move of a turn in Secret Mission (a mission can
be completed by a placement or a fortification, e.g. 18 territories with 2 armies), at the start of each
turn and after each conquest in Capital Risk. Secret Mission details: a player eliminated by someone else is out and the
game goes on; eliminating your own target achieves your mission at once; another player eliminating it
applies ``mission_target_lost`` to your card (achieved: you win when your next turn begins).
"""
from __future__ import annotations

import numpy as np

from riskstats._numba import inline_jit, jit, lean_jit
from riskstats.game.rules.cards import _draw_earned, _hand_size, _has_set, _trade
from riskstats.game.rules.events import _event, _finish, _log
from riskstats.game.rules.legal import _defending_seat
from riskstats.game.rules.objectives import (
    _deal_missions,
    _mission_done,
    _target_lost,
    _winner,
)
from riskstats.game.rules.options import (
    OBJ_CAPITAL,
    OBJ_MISSION,
    OBJ_TERRITORIES,
    R_ELIM_KEEP,
    R_ELIM_TRADE,
    R_INTERLEAVED,
    R_MAX_TURNS,
    R_NEUTRAL,
    R_NEUTRAL_ARMIES,
    R_OBJECTIVE,
    R_PLAYERS,
    R_SETUP,
    R_START,
    SETUP_DEAL,
)
from riskstats.game.rules.state import (
    ASIDE,
    ATTACK,
    ATTACK_MOVE,
    BEGIN_TURN,
    CAPITAL,
    CAPITAL_PICK,
    CLAIM,
    DECK,
    DEFEND,
    DEFEND_MOVE,
    ELIM_TRADE,
    END_ATTACK,
    END_TURN,
    EV_ASIDE,
    EV_CAPTURE,
    EV_CLAIM,
    EV_DEAL,
    EV_REINFORCE,
    FORTIFY,
    FORTIFY_MOVE,
    I_AFTER_PLACE,
    I_ATK_DICE,
    I_ATK_FROM,
    I_ATK_TO,
    I_BONUS_GIVEN,
    I_CONQUERED,
    I_DECK_N,
    I_ELIM_PENDING,
    I_FROM_CARDS,
    I_FROM_CONTINENTS,
    I_FROM_TERRITORIES,
    I_MOVES,
    I_OCC_FROM,
    I_OCC_TO,
    I_PHASE,
    I_PLACE_FOR,
    I_PLAYER,
    I_QUOTA,
    I_RESERVE,
    I_ROUND,
    I_START_HAND,
    I_TRADED_TURN,
    I_TURN,
    I_WINNER,
    L_BY,
    L_CONQUERED,
    L_DEFENDER,
    L_FROM_CARDS,
    L_FROM_CONTINENTS,
    L_FROM_TERRITORIES,
    L_PLAYER,
    OCCUPY,
    OCCUPY_MOVE,
    OVER,
    PASS,
    PLACE,
    REINFORCE,
    SC_HELD,
    SC_MARK,
    SC_STAMP,
    SETUP_PLACE,
    TRADE,
    TRADE_SET,
    WIN_CAP,
    WIN_MISSION,
    _scratch_block,
)
from riskstats.game.rules.stream import _bits53, _randint, _seed, _shuffle
from riskstats.odds.simulate import roll_losses


# ---------------------------------------------------------------- setup
@jit
def _init(st, B, R, seed):  # pragma: no cover - compiled
    """Start a game: shuffle the deck, deal or open the claim, and hand out the starting armies."""
    T = st.owner.shape[0]
    C = st.card_owner.shape[0]
    P = R[R_PLAYERS]
    N = R[R_NEUTRAL]
    _seed(st.rng, seed)
    info = st.info
    info[:] = 0
    info[I_WINNER] = -1
    info[I_OCC_FROM] = -1
    info[I_OCC_TO] = -1
    st.owner[:] = -1
    st.armies[:] = 0
    st.n_terr[:] = 0
    for c in range(C):
        st.card_owner[c] = DECK
        st.deck[c] = c
    _shuffle(st.rng, st.deck, C)
    info[I_DECK_N] = C
    for p in range(P):
        st.alive[p] = 1
        st.to_place[p] = R[R_START]
    if N >= 0:
        st.alive[N] = 1
        st.to_place[N] = R[R_NEUTRAL_ARMIES]
    st.mission[:, :] = -1
    st.capital[:] = -1
    st.scratch[SC_STAMP] = -1
    st.scratch[SC_HELD] = 0
    st.out[:] = 0
    if R[R_SETUP] == SETUP_DEAL or N >= 0:  # deal: round robin over the seats (neutral included) from a random seat
        order = np.arange(T)
        _shuffle(st.rng, order, T)
        S = P + 1 if N >= 0 else P
        # the seats dealt first get the T % S territories left over (4 or 5 players: two get one more);
        # the deal starts at a seat drawn at random, so they are not tied to the move order (seat 0 first)
        first = _randint(st.rng, S) if T % S != 0 else 0
        info[I_PHASE] = SETUP_PLACE
        for i in range(T):
            t = order[i]
            q = (first + i) % S
            st.owner[t] = q
            st.armies[t] = 1
            st.n_terr[q] += 1
            st.to_place[q] -= 1
            _event(info, st.log, st.armies, EV_DEAL, q, t, 1, -1)
        info[I_PHASE] = SETUP_PLACE
        info[I_PLAYER] = P - 1
        _setup_next(st, B, R, False)
    else:
        info[I_PHASE] = CLAIM
        info[I_PLAYER] = 0
    if R[R_OBJECTIVE] == OBJ_MISSION:
        _deal_missions(st, B, R)


@lean_jit
def _setup_next(st, B, R, after_own):  # pragma: no cover - compiled
    """Choose who places next, for whom and how many, after info[I_PLAYER] finished a placement."""
    info = st.info
    P = R[R_PLAYERS]
    N = R[R_NEUTRAL]
    cur = info[I_PLAYER]
    info[I_PHASE] = SETUP_PLACE
    if N >= 0 and R[R_INTERLEAVED] == 1 and after_own and st.to_place[N] > 0:
        info[I_PLACE_FOR] = N
        info[I_QUOTA] = 1
        return
    for k in range(1, P + 1):
        q = (cur + k) % P
        if st.to_place[q] > 0:
            info[I_PLAYER] = q
            info[I_PLACE_FOR] = q
            info[I_QUOTA] = min(2 if N >= 0 else 1, st.to_place[q])
            return
        if N >= 0 and st.to_place[N] > 0:
            info[I_PLAYER] = q
            info[I_PLACE_FOR] = N
            info[I_QUOTA] = 1
            return
    info[I_PLAYER] = 0
    info[I_PLACE_FOR] = -1
    info[I_QUOTA] = 0
    if R[R_OBJECTIVE] == OBJ_CAPITAL:
        info[I_PHASE] = CAPITAL
        return
    info[I_ROUND] = 1
    _begin_turn(st, B, R)


@lean_jit
def _reveal_capitals(st, B, R):  # pragma: no cover - compiled
    """Every capital is picked: set their cards aside (out of the draw pile for good), start turn 1."""
    n = 0
    for i in range(st.info[I_DECK_N]):
        c = st.deck[i]
        t = B.card_territory[c]
        aside = -1
        for q in range(R[R_PLAYERS]):
            if t >= 0 and st.capital[q] == t:
                aside = q
        if aside >= 0:
            st.card_owner[c] = ASIDE
            _event(st.info, st.log, st.armies, EV_ASIDE, aside, t, 0, c)
        else:
            st.deck[n] = c
            n += 1
    st.info[I_DECK_N] = n
    st.info[I_PLAYER] = 0
    st.info[I_ROUND] = 1
    _begin_turn(st, B, R)


# ---------------------------------------------------------------- turns
@lean_jit
def _base_reinforcement(st, B, p):  # pragma: no cover - compiled
    """max(3, territories // 3) + the bonus of every continent p holds whole."""
    K = B.continent_bonus.shape[0]
    held = _scratch_block(st.scratch, st.owner.shape[0], SC_MARK)[:K]  # K <= T: every continent has land
    held[:] = 0
    for t in range(st.owner.shape[0]):
        if st.owner[t] == p:
            held[B.continent_of[t]] += 1
    n = max(3, st.n_terr[p] // 3)
    for k in range(K):
        if held[k] == B.continent_size[k]:
            n += B.continent_bonus[k]
    return n


@lean_jit
def _begin_turn(st, B, R):  # pragma: no cover - compiled
    info = st.info
    if info[I_TURN] >= R[R_MAX_TURNS]:
        _finish(st, -1, WIN_CAP)
        return
    p = info[I_PLAYER]
    info[I_TURN] += 1
    info[I_TRADED_TURN] = 0
    info[I_BONUS_GIVEN] = 0
    info[I_CONQUERED] = 0
    info[I_ELIM_PENDING] = 0
    info[I_AFTER_PLACE] = ATTACK
    info[I_START_HAND] = _hand_size(st, p)
    info[I_RESERVE] = _base_reinforcement(st, B, p)
    info[I_FROM_TERRITORIES] = max(3, st.n_terr[p] // 3)
    info[I_FROM_CONTINENTS] = info[I_RESERVE] - info[I_FROM_TERRITORIES]
    info[I_FROM_CARDS] = 0
    info[I_PHASE] = TRADE
    _log(st.info, st.log, st.armies, BEGIN_TURN, -1, -1, 0, 0, 0, 0, 0, -1, -1, -1, 0, -1, -1)
    if R[R_OBJECTIVE] != OBJ_TERRITORIES:
        w, reason = _winner(st, B, R)
        if w >= 0:
            _finish(st, w, reason)
            return
    if not _has_set(st, B, p):
        _to_reinforce(st.info, st.log, st.armies)


@lean_jit
def _to_reinforce(info, log, armies):  # pragma: no cover - compiled
    """Trading is over: log the reserve's parts (a reinforce row) and place it."""
    row = _log(info, log, armies, EV_REINFORCE, -1, -1, 0, 0, 0, 0, 0, -1, -1, -1, 0, -1, -1)
    if row >= 0:
        log[row, L_BY] = -1
        log[row, L_FROM_TERRITORIES] = info[I_FROM_TERRITORIES]
        log[row, L_FROM_CONTINENTS] = info[I_FROM_CONTINENTS]
        log[row, L_FROM_CARDS] = info[I_FROM_CARDS]
    info[I_FROM_TERRITORIES] = 0
    info[I_FROM_CONTINENTS] = 0
    info[I_FROM_CARDS] = 0
    info[I_PHASE] = REINFORCE if info[I_RESERVE] > 0 else info[I_AFTER_PLACE]


@lean_jit
def _end_turn(st, B, R):  # pragma: no cover - compiled
    info = st.info
    P = R[R_PLAYERS]
    cur = info[I_PLAYER]
    q = cur
    for k in range(1, P + 1):
        q = (cur + k) % P
        if st.alive[q] == 1:
            break
    if q <= cur:
        info[I_ROUND] += 1
    info[I_PLAYER] = q
    _begin_turn(st, B, R)


# ---------------------------------------------------------------- playing a move
@lean_jit
def _after_occupy(info):  # pragma: no cover - compiled
    if info[I_ELIM_PENDING] == 1:
        info[I_ELIM_PENDING] = 0
        info[I_AFTER_PLACE] = ATTACK
        info[I_PHASE] = ELIM_TRADE
    else:
        info[I_PHASE] = ATTACK


@inline_jit
def _resolve_roll(st, B, R, nd, lose):  # pragma: no cover - compiled
    """The chance step of a battle: the declared attack (``info[I_ATK_FROM]`` -> ``info[I_ATK_TO]`` with
    ``info[I_ATK_DICE]`` dice) against ``nd`` defending dice comes out as the attacker losing ``lose`` armies
    (the defender ``min(dice) - lose``), and everything that follows is applied: conquest, elimination, captured
    cards, a win. `_apply` samples ``lose`` from the rules' one-roll table (the default, seeded path);
    `_step_roll` takes it as an input, so an outcome can be set without touching the random stream."""
    info = st.info
    owner = st.owner
    armies = st.armies
    n_terr = st.n_terr
    a = info[I_ATK_FROM]
    b = info[I_ATK_TO]
    na = info[I_ATK_DICE]
    p = owner[a]
    info[I_PLAYER] = p
    info[I_PHASE] = ATTACK
    k = min(na, nd)
    armies[a] -= lose
    armies[b] -= k - lose
    old = owner[b]
    moved = na if armies[b] == 0 else 0
    elim = old if moved > 0 and n_terr[old] == 1 else -1
    row = _log(st.info, st.log, armies, ATTACK_MOVE, a, b, moved, na, nd, lose, k - lose, -1, -1, -1, 0, -1, elim)
    if row >= 0:
        st.log[row, L_DEFENDER] = old
        st.log[row, L_CONQUERED] = 1 if moved > 0 else 0
    if moved > 0:
        owner[b] = p
        n_terr[old] -= 1
        n_terr[p] += 1
        armies[b] = na
        armies[a] -= na
        info[I_CONQUERED] += 1
        info[I_OCC_FROM] = a
        info[I_OCC_TO] = b
        if n_terr[old] == 0:
            st.alive[old] = 0
            st.out[old] = 1 + st.out.max()
            if old < R[R_PLAYERS]:
                for card in range(st.card_owner.shape[0]):
                    if st.card_owner[card] == old:
                        st.card_owner[card] = p
                        _event(st.info, st.log, armies, EV_CAPTURE, p, -1, 0, card)
                if _hand_size(st, p) >= R[R_ELIM_TRADE]:
                    info[I_ELIM_PENDING] = 1
                if R[R_OBJECTIVE] == OBJ_MISSION:
                    _target_lost(st, R, old, p)
    if moved > 0:
        w, reason = -1, 0  # without an elimination only a mission or capitals can win
        if elim >= 0 or R[R_OBJECTIVE] != OBJ_TERRITORIES:
            w, reason = _winner(st, B, R)
        if w >= 0:
            _finish(st, w, reason)
        elif armies[a] > 1:
            info[I_PHASE] = OCCUPY
        else:
            _after_occupy(st.info)


@inline_jit
def _apply(st, B, R, CUT, kind, a, b, c, d):  # pragma: no cover - compiled
    """Play a move that `_check` accepted."""
    # the arrays used on every move, taken out of the State once: unless the state is borrowed (it is in
    # the game loop, not in `Game.step`), numba increfs and decrefs (atomically) an array at each ``st.x``
    # it evaluates in branching code, which cost more than the move itself. Inlined into the game loop.
    info = st.info
    owner = st.owner
    armies = st.armies
    n_terr = st.n_terr
    p = info[I_PLAYER]
    phase = info[I_PHASE]
    info[I_MOVES] += 1
    if kind == PLACE:
        armies[a] += b
        if phase == CLAIM:
            owner[a] = p
            n_terr[p] += 1
            st.to_place[p] -= 1
            _log(st.info, st.log, armies, EV_CLAIM, -1, a, b, 0, 0, 0, 0, -1, -1, -1, 0, -1, -1)
            if n_terr.sum() == owner.shape[0]:
                _setup_next(st, B, R, True)
            else:
                info[I_PLAYER] = (p + 1) % R[R_PLAYERS]
        elif phase == SETUP_PLACE:
            st.to_place[info[I_PLACE_FOR]] -= b
            info[I_QUOTA] -= b
            row = _log(st.info, st.log, armies, PLACE, -1, a, b, 0, 0, 0, 0, -1, -1, -1, 0, -1, -1)
            if row >= 0:
                st.log[row, L_PLAYER] = info[I_PLACE_FOR]  # the neutral's armies, placed by the player to move
            if info[I_QUOTA] == 0:
                _setup_next(st, B, R, info[I_PLACE_FOR] == p)
        else:
            info[I_RESERVE] -= b
            _log(st.info, st.log, armies, PLACE, -1, a, b, 0, 0, 0, 0, -1, -1, -1, 0, -1, -1)
            if info[I_RESERVE] == 0:
                info[I_PHASE] = info[I_AFTER_PLACE]
    elif kind == TRADE_SET:
        _trade(st, B, R, a, b, c)
        if phase == ELIM_TRADE:
            if _hand_size(st, p) <= R[R_ELIM_KEEP]:
                _to_reinforce(st.info, st.log, armies)
        elif not _has_set(st, B, p):
            _to_reinforce(st.info, st.log, armies)
    elif kind == PASS:
        _log(st.info, st.log, armies, PASS, -1, -1, 0, 0, 0, 0, 0, -1, -1, -1, 0, -1, -1)
        _to_reinforce(st.info, st.log, armies)
    elif kind == ATTACK_MOVE:
        info[I_ATK_FROM] = a
        info[I_ATK_TO] = b
        info[I_ATK_DICE] = c
        info[I_PHASE] = DEFEND
        info[I_PLAYER] = _defending_seat(R, owner[b], p)
    elif kind == DEFEND_MOVE:
        _resolve_roll(st, B, R, a, roll_losses(CUT, info[I_ATK_DICE], a, _bits53(st.rng)))
    elif kind == OCCUPY_MOVE:
        src = info[I_OCC_FROM]
        dst = info[I_OCC_TO]
        armies[src] -= a
        armies[dst] += a
        _log(st.info, st.log, armies, OCCUPY_MOVE, src, dst, a, 0, 0, 0, 0, -1, -1, -1, 0, -1, -1)
        _after_occupy(st.info)
    elif kind == END_ATTACK:
        _log(st.info, st.log, armies, END_ATTACK, -1, -1, 0, 0, 0, 0, 0, -1, -1, -1, 0, -1, -1)
        _draw_earned(st, R, p)
        info[I_PHASE] = FORTIFY
    elif kind == FORTIFY_MOVE:
        armies[a] -= c
        armies[b] += c
        _log(st.info, st.log, armies, FORTIFY_MOVE, a, b, c, 0, 0, 0, 0, -1, -1, -1, 0, -1, -1)
        if R[R_OBJECTIVE] == OBJ_MISSION and _mission_done(st, B, p):
            _finish(st, p, WIN_MISSION)  # still this player's turn: the fortification completed it
        else:
            _end_turn(st, B, R)
    elif kind == END_TURN:
        _log(st.info, st.log, armies, END_TURN, -1, -1, 0, 0, 0, 0, 0, -1, -1, -1, 0, -1, -1)
        _end_turn(st, B, R)
    elif kind == CAPITAL_PICK:
        st.capital[p] = a
        _log(st.info, st.log, armies, CAPITAL_PICK, -1, a, 0, 0, 0, 0, 0, -1, -1, -1, 0, -1, -1)
        if p == R[R_PLAYERS] - 1:
            _reveal_capitals(st, B, R)
        else:
            info[I_PLAYER] = p + 1
    if R[R_OBJECTIVE] == OBJ_MISSION and info[I_PHASE] != OVER and info[I_TURN] > 0 and info[I_PLAYER] == p \
            and kind != DEFEND_MOVE and kind != CAPITAL_PICK and _mission_done(st, B, p):
        _finish(st, p, WIN_MISSION)  # a placement, trade bonus, occupation or fortification completed it


@jit
def _step(st, B, R, CUT, kind, a, b, c, d):  # pragma: no cover - compiled
    """`_apply` as a kernel of its own, not inlined: `riskstats.game.play.Game.step` and the candidate moves
    of `riskstats.game.evaluate` call it, so they share one compiled copy of the rules (the game loop
    inlines `_apply` instead: it plays every move)."""
    _apply(st, B, R, CUT, kind, a, b, c, d)


@jit
def _step_roll(st, B, R, nd, lose):  # pragma: no cover - compiled
    """A DEFEND move of ``nd`` dice whose roll comes out as given (explicit chance): `_apply`'s defence with
    ``lose`` as an input instead of a draw from the stream, which it leaves as it was. The caller checks the
    move (`_check`) and that ``lose`` is a possible outcome."""
    st.info[I_MOVES] += 1
    _resolve_roll(st, B, R, nd, lose)
