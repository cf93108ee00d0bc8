"""Macro actions: a small fixed action space of whole decisions (attack a border until it is decided, move all
armies over a border), beside the full encoding of `riskstats.env.actions`, which stays the default.

This module owns the macro space: its blocks of ids (`MACRO_BLOCKS`), the compiled kernels that mask, expand and
play a macro id (`_macro_mask`, `_macro_first`, `_macro_run`, `_macro_play`) and the Python face `MacroEncoding`.
It owns no rule: a macro id stands for a sequence of engine moves, each played by the engine's `_apply` (or, at
an explicit chance node, `_step_roll`), the mask is read from the engine's legal-move masks and `_check`, and a
multi-roll attack goes on only while `_check` accepts its next roll.

The ids, block after block (T territories, E directed borders in the board's edge order ``BoardArrays.nbr_src``
/ ``nbr_idx``, D the most defender dice; classic board: T = 42, E = 166)::

    block         ids      id within the block   the engine moves
    place         3 T      3 t + level           place(t, amount): claim, setup, reinforce; in phase "capital"
                                                 level "all" of t picks t as capital
    trade         1                              trade(the best set)
    end           1                              end the phase: pass (trade), end_attack, end_turn (fortify)
    attack_once   E        e                     attack(src_e, dst_e, most dice), one roll
    attack_until  E        e                     the same, roll after roll until dst_e is taken or src_e
                                                 cannot attack any more ("until decided")
    defend        D or 0   dice - 1              defend(dice): only with defend="choose"
    occupy        3        level                 occupy(amount) after a conquest
    fortify       E        e                     fortify(src_e, dst_e, all: armies on src_e - 1)

Classic board: 629 ids with automatic defence, 631 when the defender chooses.

Amounts come in three levels of the legal range ``lo .. hi`` (place: 1 .. armies to place now; occupy:
0 .. armies that may follow): level 0 "all" = hi; level 1 "half" = (hi + 1) // 2, open only when it is
strictly between lo and hi; level 2 "least" = lo (one army to place, no extra army to move in), open only when
lo < hi. So no two open ids play the same move. The attack dice are always the most the attacker may roll
(min(3, armies - 1)). The best set is the one worth most (`riskstats.game.rules.cards._set_value`), then one
with a card of a territory the player holds (its +2 bonus), then one with fewer wilds, then the lowest cards.

Armies go to the front. A territory is on seat q's front when it borders a territory of another seat (the
neutral's included). The macros never put armies into, or leave them in, a territory off the front when the
front is there to take them: a placement (setup and reinforcement, not the claim) goes on a front territory of
the seat whose armies they are; a fortification goes into a front territory; after a conquest, "all" is the only
occupation when the conquering territory is left off the front, and "least" the only one when the conquered
territory is off it. Such an id is no macro in that position: it has no engine moves (`MacroEncoding.first_move`
is None) and is not in the mask. Armies off the front can neither attack nor be attacked, so these moves are
the ones published Risk agents prune first; and without them uniform-random play does not end: in a screen
while the space was designed, 7 of 40 two-player and 1 of 40 four-player uniform-random games ended within 300
turns before this pruning (docs/environments.md; data/env/macro_game_lengths.csv has the figures after it).

Why this table. Published Risk agents decide at the level of a border and a phase, not of a die: attack a border
once or until it is decided, move in all, half or the least, fortify, place all, half or one, trade, end. The
budget of about 600 ids sets the rest. Fortification runs along one border (one id per directed border, all
movable armies): under the connected rule longer moves are left out, since one id per ordered pair of the 42
territories would be 1,722 ids, three times the rest of the space; an army still crosses the board one border a
turn, and a move along a border is legal under both fortify rules. Fortify "half" (166 more ids) and attacks
"until down to k" (166 more for each k) are left out for the same budget. Placing one army at a time reaches
any split of the reserve.

Chance. ``_macro_run`` plays a macro id's engine moves one by one. In the seeded path (``VectorEnv`` and the
PettingZoo env) each roll is the engine's own seeded chance step (`_apply` of a defend move draws from the game's
stream). With explicit chance (the OpenSpiel game) it stops before each roll and returns the defender's dice; the
caller plays the roll as a chance node (`riskstats.game.play.Game.step` with ``outcome``) and calls it again to
go on: an "until decided" attack is a sequence of chance nodes with the attacker's macro pending in the state.

The pending macro (``pend[0]``: `PENDING`) is the one piece of state a macro adds to a game: "once" or "until"
while an attack macro waits for its roll or, with ``defend="choose"``, for the defender's dice. The defender does
not observe it (in the game a defender does not know whether the attacker will roll again either).

The round trips, tested over seeded random games of every variant: an id is in the mask if and only if it has a
first engine move and `_check` accepts it, and every masked id expands to a sequence of engine moves that
`riskstats.game.play.Game.step` (which checks each) replays on a copy of the game to the same state.

>>> from riskstats.game.play import Game
>>> game = Game(players=3, seed=1)
>>> space = MacroEncoding.for_game(game)
>>> space.n, space.blocks["attack_until"]
(631, (294, 460))
>>> ids = np.flatnonzero(space.mask(game))
>>> space.describe(int(ids[0])), space.first_move(game, int(ids[0]))
('place 0 all', Move.place(territory=0, armies=1))
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from riskstats._numba import inline_jit, jit
from riskstats.env.defence import AUTO, DEFENCES
from riskstats.errors import RiskstatsError, check_int
from riskstats.game.play import Move
from riskstats.game.rules.board import WILD
from riskstats.game.rules.cards import _set_kind, _set_value
from riskstats.game.rules.engine import _apply
from riskstats.game.rules.legal import (
    _attack_dice,
    _check,
    _defend_dice,
    _may_attack,
    _may_fortify_border,
    _may_place,
    _place_most,
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
    I_ATK_FROM,
    I_ATK_TO,
    I_OCC_FROM,
    I_OCC_TO,
    I_PHASE,
    I_PLACE_FOR,
    I_PLAYER,
    OCCUPY,
    OCCUPY_MOVE,
    OVER,
    PASS,
    PLACE,
    REINFORCE,
    SETUP_PLACE,
    TRADE,
    TRADE_SET,
)

MACRO_BLOCKS = ("place", "trade", "end", "attack_once", "attack_until", "defend", "occupy", "fortify")
(X_PLACE, X_TRADE, X_END, X_ONCE, X_UNTIL, X_DEFEND, X_OCCUPY, X_FORTIFY) = range(len(MACRO_BLOCKS))
LEVELS = ("all", "half", "least")
"""The amount levels of a place or occupy id (the module docstring says what each is)."""
N_LEVELS = len(LEVELS)
PENDING = ("none", "once", "until")
"""``pend[0]``: the attack macro waiting for its roll (or for the defender's dice), if any."""
P_NONE, P_ONCE, P_UNTIL = range(len(PENDING))


def macro_offsets(T: int, E: int, defend_dice: int) -> np.ndarray:
    """The first id of each block of `MACRO_BLOCKS` and, last, the number of ids (int64). ``defend_dice``: the
    defend block's size (the most defender dice when the defender chooses, 0 with automatic defence)."""
    sizes = (N_LEVELS * T, 1, 1, E, E, defend_dice, N_LEVELS, E)
    return np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)


# ---------------------------------------------------------------- kernels
@inline_jit
def _level_amount(level, lo, hi):  # pragma: no cover - compiled
    """The amount of a level in lo .. hi, or -1 if the level is not open (nothing to move, or a repeat)."""
    if hi < lo:
        return -1
    if level == 0:
        return hi
    if level == 1:
        half = (hi + 1) // 2
        return half if lo < half < hi else -1
    return lo if lo < hi else -1


@inline_jit
def _most_attack(st, R, a):  # pragma: no cover - compiled
    """The most dice an attack from a may roll (0 if a cannot attack)."""
    return max(0, _attack_dice(st, R, a))


@inline_jit
def _on_front(st, B, q, t):  # pragma: no cover - compiled
    """Whether territory t borders a territory of a seat other than q (t is on q's front)."""
    for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
        if st.owner[B.nbr_idx[i]] != q:
            return True
    return False


@jit
def _has_front(st, B, q):  # pragma: no cover - compiled
    """Whether seat q holds a territory on its front (always, while q is in a game on a connected board)."""
    for t in range(st.owner.shape[0]):
        if st.owner[t] == q and _on_front(st, B, q, t):
            return True
    return False


@inline_jit
def _placing_seat(info):  # pragma: no cover - compiled
    """The seat whose armies a placement puts down now (setup: the seat placed for; reinforce: the player to
    move), or -1 where placements are not pruned to the front (claiming, and outside the placing phases)."""
    phase = info[I_PHASE]
    if phase == SETUP_PLACE:
        return info[I_PLACE_FOR]
    if phase == REINFORCE:
        return info[I_PLAYER]
    return -1


@inline_jit
def _occupy_open(st, B, level):  # pragma: no cover - compiled
    """Whether an occupy level is a macro after the conquest now: "all" only when the conquering territory is
    left off the front, "least" only when the conquered one is off it, any level otherwise."""
    p = st.info[I_PLAYER]
    src_front = _on_front(st, B, p, st.info[I_OCC_FROM])
    dst_front = _on_front(st, B, p, st.info[I_OCC_TO])
    if dst_front and not src_front:
        return level == 0
    if src_front and not dst_front:
        return level == N_LEVELS - 1
    return True


@jit
def _best_set(st, B, R, p):  # pragma: no cover - compiled
    """Seat p's best set: the most valuable, then one with a card of a territory p holds, then the fewest wilds,
    then the lowest cards; (-1, -1, -1) if p holds no set."""
    C = st.card_owner.shape[0]
    owner = st.card_owner
    b1, b2, b3 = -1, -1, -1
    best_value, best_bonus, best_wilds = -1, -1, 4
    for i in range(C):
        if owner[i] != p:
            continue
        for j in range(i + 1, C):
            if owner[j] != p:
                continue
            for k in range(j + 1, C):
                if owner[k] != p or _set_kind(B, i, j, k) < 0:
                    continue
                value = _set_value(st, B, R, i, j, k)
                bonus = 0
                wilds = 0
                for c in (i, j, k):
                    t = B.card_territory[c]
                    if t >= 0 and st.owner[t] == p:
                        bonus = 1
                    if B.card_symbol[c] == WILD:
                        wilds += 1
                if value > best_value or (value == best_value and (bonus > best_bonus or (
                        bonus == best_bonus and wilds < best_wilds))):
                    b1, b2, b3 = i, j, k
                    best_value, best_bonus, best_wilds = value, bonus, wilds
    return b1, b2, b3


@inline_jit
def _macro_first(st, B, R, MO, action):  # pragma: no cover - compiled
    """The first engine move (kind, a, b, c, d) of macro id ``action`` in the current position: one `_check`
    accepts if and only if the id is in the mask (kind -1 for an id out of range)."""
    info = st.info
    phase = info[I_PHASE]
    E = B.nbr_src.shape[0]
    if action < 0 or action >= MO[-1]:
        return -1, 0, 0, 0, 0
    if action < MO[X_TRADE]:
        t = action // N_LEVELS
        level = action % N_LEVELS
        if phase == CAPITAL:
            return CAPITAL_PICK, t if level == 0 else -1, 0, 0, 0
        q = _placing_seat(info)
        if q >= 0 and not _on_front(st, B, q, t) and _has_front(st, B, q):
            return -1, 0, 0, 0, 0
        return PLACE, t, _level_amount(level, 1, _place_most(info)), 0, 0
    if action < MO[X_END]:
        c1, c2, c3 = _best_set(st, B, R, info[I_PLAYER])
        return TRADE_SET, c1, c2, c3, 0
    if action < MO[X_ONCE]:
        if phase == ATTACK:
            return END_ATTACK, 0, 0, 0, 0
        if phase == FORTIFY:
            return END_TURN, 0, 0, 0, 0
        return PASS, 0, 0, 0, 0
    if action < MO[X_DEFEND]:
        e = (action - MO[X_ONCE]) % E
        a = B.nbr_src[e]
        return ATTACK_MOVE, a, B.nbr_idx[e], _most_attack(st, R, a), 0
    if action < MO[X_OCCUPY]:
        return DEFEND_MOVE, action - MO[X_DEFEND] + 1, 0, 0, 0
    if action < MO[X_FORTIFY]:
        level = action - MO[X_OCCUPY]
        if phase != OCCUPY:
            return OCCUPY_MOVE, -1, 0, 0, 0
        if not _occupy_open(st, B, level):
            return -1, 0, 0, 0, 0
        return OCCUPY_MOVE, _level_amount(level, 0, st.armies[info[I_OCC_FROM]] - 1), 0, 0, 0
    e = action - MO[X_FORTIFY]
    a = B.nbr_src[e]
    b = B.nbr_idx[e]
    if not _on_front(st, B, info[I_PLAYER], b):
        return -1, 0, 0, 0, 0
    return FORTIFY_MOVE, a, b, st.armies[a] - 1, 0


@jit
def _macro_mask(st, B, R, MO, out):  # pragma: no cover - compiled
    """Write the legal macro ids now into out[n] (bool). Each id is read from the rules' own legality of its
    move (`riskstats.game.rules.legal._may_place`, `_may_attack`, `_may_fortify_border`: only moves along one
    border are macros), border by border."""
    out[:] = False
    info = st.info
    phase = info[I_PHASE]
    if phase == OVER:
        return
    T = st.owner.shape[0]
    E = B.nbr_src.shape[0]
    if phase == DEFEND:
        for d in range(min(MO[X_DEFEND + 1] - MO[X_DEFEND], _defend_dice(st, R))):
            out[MO[X_DEFEND] + d] = True
        return
    if phase == OCCUPY:
        hi = st.armies[info[I_OCC_FROM]] - 1
        for level in range(N_LEVELS):
            out[MO[X_OCCUPY] + level] = _level_amount(level, 0, hi) >= 0 and _occupy_open(st, B, level)
        return
    if phase == TRADE or phase == ELIM_TRADE:
        c1, c2, c3 = _best_set(st, B, R, info[I_PLAYER])
        out[MO[X_TRADE]] = c1 >= 0 and _check(st, B, R, TRADE_SET, c1, c2, c3, 0) == 0
        out[MO[X_END]] = phase == TRADE and _check(st, B, R, PASS, 0, 0, 0, 0) == 0
        return
    p = info[I_PLAYER]
    owner = st.owner
    armies = st.armies
    if phase == FORTIFY:
        for e in range(E):
            b = B.nbr_idx[e]
            out[MO[X_FORTIFY] + e] = _may_fortify_border(st, R, p, B.nbr_src[e], b) and _on_front(st, B, p, b)
        out[MO[X_END]] = True
    elif phase == ATTACK:
        for e in range(E):
            if _may_attack(owner, armies, p, B.nbr_src[e], B.nbr_idx[e]):
                out[MO[X_ONCE] + e] = True
                out[MO[X_UNTIL] + e] = True
        out[MO[X_END]] = True
    elif phase == CAPITAL:
        for t in range(T):
            out[MO[X_PLACE] + N_LEVELS * t] = _may_place(owner, info, t)
    elif phase == CLAIM or phase == SETUP_PLACE or phase == REINFORCE:
        hi = _place_most(info)
        q = _placing_seat(info)
        pruned = q >= 0 and _has_front(st, B, q)
        for t in range(T):
            if _may_place(owner, info, t) and not (pruned and not _on_front(st, B, q, t)):
                for level in range(N_LEVELS):
                    out[MO[X_PLACE] + N_LEVELS * t + level] = _level_amount(level, 1, hi) >= 1


@inline_jit
def _macro_next(st, B, R, pend, auto):  # pragma: no cover - compiled
    """The engine move that carries the pending macro on after the last one, or kind -1 when the next move is
    a seat's decision (and the macro is over, ``pend[0]`` then P_NONE, unless it waits for the defender)."""
    info = st.info
    phase = info[I_PHASE]
    if phase == DEFEND:
        if auto:
            return DEFEND_MOVE, _defend_dice(st, R), 0, 0, 0
        return -1, 0, 0, 0, 0
    if pend[0] == P_UNTIL and phase == ATTACK:
        a = info[I_ATK_FROM]
        b = info[I_ATK_TO]
        c = _most_attack(st, R, a)
        if _check(st, B, R, ATTACK_MOVE, a, b, c, 0) == 0:
            return ATTACK_MOVE, a, b, c, 0
    pend[0] = P_NONE
    return -1, 0, 0, 0, 0


@inline_jit
def _macro_run(st, B, R, CUT, MO, action, pend, auto, explicit, trace, traced):  # pragma: no cover - compiled
    """Play macro id ``action`` (a masked one), or with ``action`` -1 carry the pending macro on after a roll
    played by the caller. Returns 0 once the next move is a seat's decision; with ``explicit``, the defender's
    dice when a roll is next (the caller's chance step plays it). Each engine move played is counted in
    traced[0] and written to trace[n] (kind, a, b, c, d) while trace has room (a trace of 0 rows: none).

    Parameters
    ----------
    st : State
        The game, played on in place.
    B, R, CUT
        The context's board arrays, rule vector (int64[R_SIZE]) and one-roll table (`compile_context`).
    MO : int64[len(MACRO_BLOCKS) + 1]
        The macro encoding's block offsets (`macro_offsets`), its last entry the number of macro ids.
    action : int
        The macro id to play, or -1 to carry on the pending one.
    pend : int64[1]
        The pending macro (`PENDING`): read and written.
    auto : bool
        Automatic defence (`riskstats.env.defence`): a defence the macro calls for is played at once.
    explicit : bool
        Stop before each roll and return the defender's dice (explicit chance nodes).
    trace : int64[rows, 5]
        Written: the engine moves played, (kind, a, b, c, d) a row, while it has room.
    traced : int64[1]
        The number of engine moves played, counted up.
    """
    if action >= 0:
        kind, a, b, c, d = _macro_first(st, B, R, MO, action)
        if action >= MO[X_UNTIL] and action < MO[X_DEFEND]:
            pend[0] = P_UNTIL
        elif action >= MO[X_ONCE] and action < MO[X_UNTIL]:
            pend[0] = P_ONCE
        elif kind != DEFEND_MOVE:
            pend[0] = P_NONE
    else:
        kind, a, b, c, d = _macro_next(st, B, R, pend, auto)
    while kind >= 0:
        if kind == DEFEND_MOVE and explicit:
            return a
        n = traced[0]
        if n < trace.shape[0]:
            trace[n, 0] = kind
            trace[n, 1] = a
            trace[n, 2] = b
            trace[n, 3] = c
            trace[n, 4] = d
        traced[0] = n + 1
        _apply(st, B, R, CUT, kind, a, b, c, d)
        kind, a, b, c, d = _macro_next(st, B, R, pend, auto)
    return 0


@jit
def _macro_play(st, B, R, CUT, MO, action, pend, auto, explicit, trace, traced):  # pragma: no cover - compiled
    """`_macro_run` as a kernel of its own, for the Python face (`MacroEncoding`).

    Parameters
    ----------
    st, B, R, CUT, MO, action, pend, auto, explicit, trace, traced
        As in `_macro_run`.
    """
    return _macro_run(st, B, R, CUT, MO, action, pend, auto, explicit, trace, traced)


# ---------------------------------------------------------------- the Python face
_NO_TRACE = np.zeros((0, 5), np.int64)


@dataclass(frozen=True, eq=False)
class MacroEncoding:
    """The macro action space of one board and rule set (see the module docstring for the ids).

    Build it with `for_game` (or from a board, its rules and ``defend``: "choose" or "auto",
    `riskstats.env.defence`); it holds no game. A game played with macros carries one more array, ``pend``
    (int64[1], `PENDING`; `new_pending`), which `play`, `decide` and `resume` keep.
    """

    territories: int
    edges: int
    defend: str
    offsets: np.ndarray
    src: np.ndarray
    dst: np.ndarray

    @classmethod
    def for_game(cls, game, defend: str = "choose") -> MacroEncoding:
        return cls.for_board(game.board, game.rules, defend)

    @classmethod
    def for_board(cls, board, rules, defend: str = "choose") -> MacroEncoding:
        if defend not in DEFENCES:
            raise RiskstatsError(f"defend must be one of {', '.join(DEFENCES)}, got {defend!r}")
        B = board.arrays
        T, E = board.n_territories, int(B.nbr_src.shape[0])
        offsets = macro_offsets(T, E, 0 if defend == "auto" else rules.dice.defender_dice)
        offsets.flags.writeable = False
        return cls(T, E, defend, offsets, B.nbr_src, B.nbr_idx)

    @property
    def n(self) -> int:
        """The number of action ids."""
        return int(self.offsets[-1])

    @property
    def auto(self) -> bool:
        """Whether the defence is automatic (the most dice)."""
        return DEFENCES.index(self.defend) == AUTO

    @property
    def blocks(self) -> dict:
        """Block name -> (first id, one past the last)."""
        return {name: (int(self.offsets[k]), int(self.offsets[k + 1])) for k, name in enumerate(MACRO_BLOCKS)}

    @staticmethod
    def new_pending() -> np.ndarray:
        """A game's pending macro at its start (none)."""
        return np.zeros(1, np.int64)

    def mask(self, game, out: np.ndarray | None = None) -> np.ndarray:
        """The legal ids of ``game`` now, as a bool array of length `n` (all False once it is over)."""
        out = np.zeros(self.n, np.bool_) if out is None else out
        _macro_mask(game.state, game.context.B, game.context.R, self.offsets, out)
        return out

    def first_move(self, game, action) -> Move | None:
        """The first engine move of id ``action`` in ``game`` now, or None where the id is no macro (a pruned
        one, module docstring): the id is masked if and only if this is a move the engine accepts."""
        action = check_int("action", action, 0, self.n - 1)
        move = _macro_first(game.state, game.context.B, game.context.R, self.offsets, action)
        return None if move[0] < 0 else Move(*(int(x) for x in move))

    def _run(self, game, action: int, pend: np.ndarray, explicit: bool, trace: np.ndarray) -> tuple[int, int]:
        st = game.state
        game._grow_log(int(st.armies.sum()) + st.card_owner.shape[0] + 64)  # a row a roll, captured cards, the end
        traced = np.zeros(1, np.int64)
        ctx = game.context
        dice = _macro_play(game.state, ctx.B, ctx.R, ctx.CUT, self.offsets, action, pend, self.auto, explicit,
                           trace, traced)
        return int(dice), int(traced[0])

    def _legal(self, game, action) -> int:
        action = check_int("action", action, 0, self.n - 1)
        if not self.mask(game)[action]:
            raise RiskstatsError(f"action {action} ({self.describe(action)}) is not legal in phase {game.phase!r}")
        return action

    def play(self, game, action, pend: np.ndarray, trace: np.ndarray | None = None) -> int:
        """Play id ``action`` (`RiskstatsError` if it is not legal) with seeded rolls, up to the next decision;
        the number of engine moves played (written to ``trace``'s rows while it has room)."""
        action = self._legal(game, action)
        return self._run(game, action, pend, False, _NO_TRACE if trace is None else trace)[1]

    def decide(self, game, action, pend: np.ndarray) -> int:
        """Play id ``action`` with explicit chance: up to the next decision (0) or the next roll (the defender's
        dice: play the roll with ``game.step(Move.defend(dice), outcome=...)``, then call `resume`)."""
        action = self._legal(game, action)
        return self._run(game, action, pend, True, _NO_TRACE)[0]

    def resume(self, game, pend: np.ndarray) -> int:
        """After a roll played by the caller: carry the pending macro on, as `decide` (the next roll's dice, or
        0 at the next decision)."""
        return self._run(game, -1, pend, True, _NO_TRACE)[0]

    def describe(self, action: int) -> str:
        """What an id means, whatever the position (``"attack 0->1 until decided"``).

        >>> from riskstats.game.rules.board import classic_board
        >>> from riskstats.game.rules.options import GameRules
        >>> space = MacroEncoding.for_board(classic_board(), GameRules(), defend="auto")
        >>> space.describe(1), space.describe(space.blocks["attack_until"][0]), space.describe(space.n - 1)
        ('place 0 half', 'attack 0->1 until decided', 'fortify 41->40 all')
        """
        action = check_int("action", action, 0, self.n - 1)
        k = int(np.searchsorted(self.offsets, action, side="right")) - 1
        i = action - int(self.offsets[k])
        if k == X_PLACE:
            return f"place {i // N_LEVELS} {LEVELS[i % N_LEVELS]}"
        if k == X_TRADE:
            return "trade best set"
        if k == X_END:
            return "end phase"
        if k in (X_ONCE, X_UNTIL):
            return f"attack {self.src[i]}->{self.dst[i]} " + ("once" if k == X_ONCE else "until decided")
        if k == X_DEFEND:
            return f"defend dice={i + 1}"
        if k == X_OCCUPY:
            return f"occupy {LEVELS[i]}"
        return f"fortify {self.src[i]}->{self.dst[i]} all"
