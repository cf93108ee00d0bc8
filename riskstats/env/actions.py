"""One fixed discrete action space for a board and rule set, its legal-action mask and its round trips
with `riskstats.game.play.Move`.

This module owns the action encoding every environment shares (PettingZoo, OpenSpiel, `VectorEnv`): the
blocks of action ids (`BLOCKS`), the compiled kernels `_mask`, `_decode` and `_encode`, and the Python
face `ActionEncoding`. It owns no rule: the mask is built from the engine's own legality tests (those its legal-move
masks `riskstats.game.rules.legal._legal_masks` are made of) and `_check`, and a decoded action is a `Move` the
engine plays.

The ids, block after block (T territories, E directed borders in the board's edge order
``BoardArrays.nbr_src`` / ``nbr_idx``, A = most attacker dice, D = most defender dice)::

    block       ids        id within the block    the Move
    place       3 T        3 t + level            Move.place(t, amount)       claim, setup, reinforce
    capital     T          t                      Move.capital(t)             Capital Risk
    trade       5          set kind k             Move.trade(c1, c2, c3)      the canonical set of kind k
    pass        1                                 Move.pass_()
    attack      E A        A e + dice - 1         Move.attack(src_e, dst_e, dice)
    defend      D          dice - 1               Move.defend(dice)
    occupy      3          level                  Move.occupy(amount)
    end_attack  1                                 Move.end_attack()
    fortify     3 T T      3 (T src + dst) + lvl  Move.fortify(src, dst, amount)
    end_turn    1                                 Move.end_turn()

Amounts are bucketed into three levels of the legal range ``lo .. hi`` (place: 1 .. armies to place
now; occupy: 0 .. armies that may follow; fortify: 1 .. armies on src - 1): level 0 "all" = hi,
level 1 "least" = lo (only when lo < hi), level 2 "middle" = (lo + hi) // 2 (only when hi - lo >= 2).
A Move's amount falls in the level it equals (hi, lo), else in "middle". Trades are bucketed by the
set's kind (`riskstats.game.rules.cards._set_kind`: three infantry, three cavalry, three artillery, one of
each, any set with a wild); the canonical set of a kind is the player's lowest-numbered cards that make
it (for a wild set: the lowest wild and the two lowest other cards).

So the round trips are: every legal Move has an id (`ActionEncoding.encode`), and the id is in the
mask; every id in the mask decodes to a legal Move, and that Move encodes back to the same id. A Move
whose amount is not its level's own amount (placing 7 of 10 armies) or whose set is not its kind's
canonical one decodes to the level's (kind's) own Move.

>>> from riskstats.game.play import Game
>>> game = Game(players=3, seed=1)
>>> enc = ActionEncoding.for_game(game)
>>> enc.n, enc.blocks["attack"]
(5971, (174, 672))
>>> ids = np.flatnonzero(enc.mask(game))
>>> enc.decode(game, ids[0]), bool(enc.encode(game, enc.decode(game, ids[0])) == ids[0])
(Move.place(territory=0, armies=1), True)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from riskstats._numba import inline_jit, jit
from riskstats.errors import RiskstatsError, check_int
from riskstats.game.play import Move
from riskstats.game.rules.board import WILD
from riskstats.game.rules.cards import _set_kind
from riskstats.game.rules.legal import (
    _attack_dice,
    _check,
    _defend_dice,
    _fortify_regions,
    _may_attack,
    _may_fortify,
    _may_leave,
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
    I_OCC_FROM,
    I_PHASE,
    I_PLAYER,
    OCCUPY,
    OCCUPY_MOVE,
    OVER,
    PASS,
    PLACE,
    REINFORCE,
    SC_GOAL,
    SETUP_PLACE,
    TRADE,
    TRADE_SET,
    _scratch_block,
)

BLOCKS = ("place", "capital", "trade", "pass", "attack", "defend", "occupy", "end_attack", "fortify", "end_turn")
(K_PLACE, K_CAPITAL, K_TRADE, K_PASS, K_ATTACK, K_DEFEND, K_OCCUPY, K_END_ATTACK, K_FORTIFY,
 K_END_TURN) = range(len(BLOCKS))
LEVELS = ("all", "least", "middle")
"""The amount levels of a place, occupy or fortify action (the module docstring says what each is)."""
N_LEVELS = len(LEVELS)
SET_KINDS = ("infantry", "cavalry", "artillery", "one_of_each", "wild")
"""Trade ids in order: the kind of set traded (`riskstats.game.rules.cards._set_kind`)."""
N_SET_KINDS = len(SET_KINDS)


def action_offsets(T: int, E: int, attacker_dice: int, defender_dice: int) -> np.ndarray:
    """The first id of each block of `BLOCKS` and, last, the number of ids (int64, len(BLOCKS) + 1)."""
    sizes = (N_LEVELS * T, T, N_SET_KINDS, 1, E * attacker_dice, defender_dice, N_LEVELS, 1, N_LEVELS * T * T, 1)
    return np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)


# ---------------------------------------------------------------- kernels
@inline_jit
def _amount(level, lo, hi):  # pragma: no cover - compiled
    """The amount of a level in lo .. hi, or -1 if the level is not open (it would repeat another)."""
    if level == 0:
        return hi
    if level == 1:
        return lo if lo < hi else -1
    return (lo + hi) // 2 if hi - lo >= 2 else -1


@inline_jit
def _level(x, lo, hi):  # pragma: no cover - compiled
    """The level an amount x in lo .. hi falls in."""
    if x == hi:
        return 0
    if x == lo:
        return 1
    return 2


@jit
def _canonical_set(st, B, p, k):  # pragma: no cover - compiled
    """Seat p's canonical set of kind k (`SET_KINDS`): its lowest-numbered cards making one; -1s if none."""
    C = st.card_owner.shape[0]
    got = np.full(3, -1, np.int64)
    n = 0
    if k <= 2:
        for c in range(C):
            if st.card_owner[c] == p and B.card_symbol[c] == k and n < 3:
                got[n] = c
                n += 1
    elif k == 3:
        for s in range(3):
            for c in range(C):
                if st.card_owner[c] == p and B.card_symbol[c] == s:
                    got[n] = c
                    n += 1
                    break
            if n <= s:
                break
    else:
        for c in range(C):
            if st.card_owner[c] == p and B.card_symbol[c] == WILD:
                got[0] = c
                n = 1
                break
        if n == 1:
            for c in range(C):
                if st.card_owner[c] == p and c != got[0] and n < 3:
                    got[n] = c
                    n += 1
    if n < 3:
        return -1, -1, -1
    got.sort()
    return got[0], got[1], got[2]


@jit
def _mask(st, B, R, AO, out, dirty):  # pragma: no cover - compiled
    """Write the legal ids now into out[n_actions] (bool). out holds no True outside ids dirty[0]..dirty[1]
    (the block range the last call wrote: cleared first, then set to this call's range). Each id is read from
    the rules' own legality of its move (`riskstats.game.rules.legal._may_place`, `_may_attack`, `_may_fortify`
    ...), territory by territory, without filling the engine's T x T masks."""
    if dirty[1] >= dirty[0]:
        out[dirty[0]:dirty[1] + 1] = False
    dirty[0] = 0
    dirty[1] = -1
    info = st.info
    phase = info[I_PHASE]
    if phase == OVER:
        return
    p = info[I_PLAYER]
    T = st.owner.shape[0]
    E = B.nbr_src.shape[0]
    if phase == DEFEND:
        for d in range(_defend_dice(st, R)):
            out[AO[K_DEFEND] + d] = True
        dirty[0] = AO[K_DEFEND]
        dirty[1] = AO[K_DEFEND + 1] - 1
        return
    if phase == OCCUPY:
        hi = st.armies[info[I_OCC_FROM]] - 1
        for lv in range(N_LEVELS):
            if _amount(lv, 0, hi) >= 0:
                out[AO[K_OCCUPY] + lv] = True
        dirty[0] = AO[K_OCCUPY]
        dirty[1] = AO[K_OCCUPY + 1] - 1
        return
    if phase == TRADE or phase == ELIM_TRADE:
        for k in range(N_SET_KINDS):
            c1, c2, c3 = _canonical_set(st, B, p, k)
            if c1 >= 0 and _check(st, B, R, TRADE_SET, c1, c2, c3, 0) == 0:
                out[AO[K_TRADE] + k] = True
        out[AO[K_PASS]] = _check(st, B, R, PASS, 0, 0, 0, 0) == 0
        dirty[0] = AO[K_TRADE]
        dirty[1] = AO[K_PASS]
        return
    if phase == ATTACK:  # border by border, with the engine's own test (no T x T mask to fill and clear)
        adice = (AO[K_ATTACK + 1] - AO[K_ATTACK]) // E
        for e in range(E):
            a = B.nbr_src[e]
            if _may_attack(st.owner, st.armies, p, a, B.nbr_idx[e]):
                for d in range(_attack_dice(st, R, a)):
                    out[AO[K_ATTACK] + adice * e + d] = True
        out[AO[K_END_ATTACK]] = True
        dirty[0] = AO[K_ATTACK]
        dirty[1] = AO[K_END_ATTACK]
        return
    if phase == CLAIM or phase == SETUP_PLACE or phase == REINFORCE:
        hi = _place_most(info)
        for t in range(T):
            if _may_place(st.owner, info, t):
                for lv in range(N_LEVELS):
                    if _amount(lv, 1, hi) >= 1:
                        out[AO[K_PLACE] + N_LEVELS * t + lv] = True
        dirty[0] = AO[K_PLACE]
        dirty[1] = AO[K_PLACE + 1] - 1
    elif phase == CAPITAL:
        for t in range(T):
            out[AO[K_CAPITAL] + t] = _may_place(st.owner, info, t)
        dirty[0] = AO[K_CAPITAL]
        dirty[1] = AO[K_CAPITAL + 1] - 1
    elif phase == FORTIFY:  # the rules' legality (`_legal_masks`) without its T x T masks
        region = _scratch_block(st.scratch, T, SC_GOAL)  # not SC_MARK, which _fortify_regions searches with
        _fortify_regions(st, B, R, p, region)
        for a in range(T):
            if not _may_leave(st.owner, st.armies, p, a):
                continue
            for b in range(T):
                if _may_fortify(st, B, R, p, a, b, region):
                    for lv in range(N_LEVELS):
                        if _amount(lv, 1, st.armies[a] - 1) >= 1:
                            out[AO[K_FORTIFY] + N_LEVELS * (T * a + b) + lv] = True
        out[AO[K_END_TURN]] = True
        dirty[0] = AO[K_FORTIFY]
        dirty[1] = AO[K_END_TURN]


@jit
def _decode(st, B, R, AO, action):  # pragma: no cover - compiled
    """The move (kind, a, b, c, d) of an id in the current position; kind -1 for an id out of range.
    An id outside the mask gives a move `_check` refuses (or a level's amount of -1)."""
    info = st.info
    T = st.owner.shape[0]
    E = B.nbr_src.shape[0]
    if action < 0 or action >= AO[-1]:
        return -1, 0, 0, 0, 0
    if action < AO[K_CAPITAL]:
        i = action - AO[K_PLACE]
        return PLACE, i // N_LEVELS, _amount(i % N_LEVELS, 1, _place_most(info)), 0, 0
    if action < AO[K_TRADE]:
        return CAPITAL_PICK, action - AO[K_CAPITAL], 0, 0, 0
    if action < AO[K_PASS]:
        c1, c2, c3 = _canonical_set(st, B, info[I_PLAYER], action - AO[K_TRADE])
        return TRADE_SET, c1, c2, c3, 0
    if action < AO[K_ATTACK]:
        return PASS, 0, 0, 0, 0
    if action < AO[K_DEFEND]:
        adice = (AO[K_ATTACK + 1] - AO[K_ATTACK]) // E
        i = action - AO[K_ATTACK]
        e = i // adice
        return ATTACK_MOVE, B.nbr_src[e], B.nbr_idx[e], i % adice + 1, 0
    if action < AO[K_OCCUPY]:
        return DEFEND_MOVE, action - AO[K_DEFEND] + 1, 0, 0, 0
    if action < AO[K_END_ATTACK]:
        hi = st.armies[info[I_OCC_FROM]] - 1 if info[I_PHASE] == OCCUPY else 0
        return OCCUPY_MOVE, _amount(action - AO[K_OCCUPY], 0, hi), 0, 0, 0
    if action < AO[K_FORTIFY]:
        return END_ATTACK, 0, 0, 0, 0
    if action < AO[K_END_TURN]:
        i = action - AO[K_FORTIFY]
        pair = i // N_LEVELS
        a = pair // T
        return FORTIFY_MOVE, a, pair % T, _amount(i % N_LEVELS, 1, st.armies[a] - 1), 0
    return END_TURN, 0, 0, 0, 0


@jit
def _encode(st, B, R, AO, kind, a, b, c, d):  # pragma: no cover - compiled
    """The id of a legal move in the current position (-1 for a move the encoding cannot hold)."""
    info = st.info
    T = st.owner.shape[0]
    C = st.card_owner.shape[0]
    E = B.nbr_src.shape[0]
    if kind == PLACE:
        if a < 0 or a >= T:
            return -1
        return AO[K_PLACE] + N_LEVELS * a + _level(b, 1, _place_most(info))
    if kind == CAPITAL_PICK:
        return AO[K_CAPITAL] + a if 0 <= a < T else -1
    if kind == TRADE_SET:
        if a < 0 or a >= C or b < 0 or b >= C or c < 0 or c >= C:
            return -1
        k = _set_kind(B, a, b, c)
        return AO[K_TRADE] + k if k >= 0 else -1
    if kind == PASS:
        return AO[K_PASS]
    if kind == ATTACK_MOVE:
        adice = (AO[K_ATTACK + 1] - AO[K_ATTACK]) // E
        if a < 0 or a >= T or c < 1 or c > adice:
            return -1
        for e in range(B.nbr_ptr[a], B.nbr_ptr[a + 1]):
            if B.nbr_idx[e] == b:
                return AO[K_ATTACK] + adice * e + c - 1
        return -1
    if kind == DEFEND_MOVE:
        return AO[K_DEFEND] + a - 1 if 1 <= a <= AO[K_OCCUPY] - AO[K_DEFEND] else -1
    if kind == OCCUPY_MOVE:
        return AO[K_OCCUPY] + _level(a, 0, st.armies[info[I_OCC_FROM]] - 1)
    if kind == END_ATTACK:
        return AO[K_END_ATTACK]
    if kind == FORTIFY_MOVE:
        if a < 0 or a >= T or b < 0 or b >= T:
            return -1
        return AO[K_FORTIFY] + N_LEVELS * (T * a + b) + _level(c, 1, st.armies[a] - 1)
    if kind == END_TURN:
        return AO[K_END_TURN]
    return -1


# ---------------------------------------------------------------- the Python face
@dataclass(frozen=True, eq=False)
class ActionEncoding:
    """The action space of one board and rule set (see the module docstring for the ids).

    Build it with `for_game` (or from a board, its rules and the player count); it holds no game, so
    one encoding serves every game of that board and those rules.
    """

    territories: int
    edges: int
    attacker_dice: int
    defender_dice: int
    offsets: np.ndarray
    src: np.ndarray
    dst: np.ndarray

    @classmethod
    def for_game(cls, game) -> ActionEncoding:
        return cls.for_board(game.board, game.rules)

    @classmethod
    def for_board(cls, board, rules) -> ActionEncoding:
        B = board.arrays
        T, E = board.n_territories, int(B.nbr_src.shape[0])
        A, D = rules.dice.attacker_dice, rules.dice.defender_dice
        offsets = action_offsets(T, E, A, D)
        offsets.flags.writeable = False
        return cls(T, E, A, D, offsets, B.nbr_src, B.nbr_idx)

    @property
    def n(self) -> int:
        """The number of action ids."""
        return int(self.offsets[-1])

    @property
    def blocks(self) -> dict:
        """Block name -> (first id, one past the last)."""
        return {name: (int(self.offsets[k]), int(self.offsets[k + 1])) for k, name in enumerate(BLOCKS)}

    def mask(self, game, out: np.ndarray | None = None) -> np.ndarray:
        """The legal ids of ``game`` now, as a bool array of length `n` (all False once it is over)."""
        out = np.zeros(self.n, np.bool_) if out is None else out
        out[:] = False
        _mask(game.state, game.context.B, game.context.R, self.offsets, out, np.array([0, -1], np.int64))
        return out

    def decode(self, game, action) -> Move:
        """The `Move` that id ``action`` stands for in ``game`` now; `RiskstatsError` if it is not legal."""
        action = check_int("action", action, 0, self.n - 1)
        move = Move(*(int(x) for x in _decode(game.state, game.context.B, game.context.R, self.offsets, action)))
        if move.kind < 0 or game.check(move) != "":
            raise RiskstatsError(f"action {action} ({self.describe(action)}) is not legal in phase {game.phase!r}")
        return move

    def encode(self, game, move) -> int:
        """The id of a legal `Move` of ``game`` now; `RiskstatsError` if the move is not legal."""
        move = tuple(int(x) for x in move)
        reason = game.check(move)
        if reason:
            raise RiskstatsError(f"cannot encode {move}: not legal now ({reason})")
        return int(_encode(game.state, game.context.B, game.context.R, self.offsets, *move))

    def describe(self, action: int) -> str:
        """What an id means, whatever the position: its block and fields (``"attack 0->1 dice=3"``).

        >>> from riskstats.game.rules.board import classic_board
        >>> from riskstats.game.rules.options import GameRules
        >>> enc = ActionEncoding.for_board(classic_board(), GameRules())
        >>> enc.describe(0), enc.describe(enc.blocks["attack"][0] + 2), enc.describe(enc.n - 1)
        ('place 0 all', 'attack 0->1 dice=3', 'end_turn')
        """
        action = check_int("action", action, 0, self.n - 1)
        k = int(np.searchsorted(self.offsets, action, side="right")) - 1
        i = action - int(self.offsets[k])
        T = self.territories
        name = BLOCKS[k]
        if k == K_PLACE:
            return f"place {i // N_LEVELS} {LEVELS[i % N_LEVELS]}"
        if k == K_CAPITAL:
            return f"capital {i}"
        if k == K_TRADE:
            return f"trade {SET_KINDS[i]}"
        if k == K_ATTACK:
            e = i // self.attacker_dice
            return f"attack {self.src[e]}->{self.dst[e]} dice={i % self.attacker_dice + 1}"
        if k == K_DEFEND:
            return f"defend dice={i + 1}"
        if k == K_OCCUPY:
            return f"occupy {LEVELS[i]}"
        if k == K_FORTIFY:
            pair = i // N_LEVELS
            return f"fortify {pair // T}->{pair % T} {LEVELS[i % N_LEVELS]}"
        return name
