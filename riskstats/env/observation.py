"""What one seat observes of a game, as a flat float32 array: the layout and the compiled kernel that fills it.

This module owns the observation every environment shares: `FIELDS` (the layout), `ObservationLayout`
(the fields' sizes and slices for a board, seat count and variant) and the kernel `_observe`. It shows a
seat only what that seat may see: the board (owners, armies), the phase, whose move it is, its own cards,
every seat's number of cards, the sets traded, the setup armies, the pending attack or occupation, its own
mission and the capitals it may see. It never shows another seat's cards or mission, the draw pile's order,
the random stream or, while capitals are being picked, another seat's pick.

Fields, in order (T territories, S seats with the neutral, P players, C cards, M mission cards)::

    owner         T*S   owner one-hot, index S t + s
    armies        T     armies on each territory
    phase         11    phase one-hot (`riskstats.game.rules.state.PHASES`)
    to_move       P     the seat to move, one-hot (the defending seat in phase "defend")
    me            P     the observing seat, one-hot
    hand          C     1 for each card the observing seat holds
    hand_sizes    P     cards held by each player
    sets_traded   1     sets traded by all players (the progressive value counts them)
    reserve       1     armies the seat to move may place now (reserve, setup quota, or 0)
    place_for     S     setup: the seat whose armies are being placed, one-hot
    to_place      S     setup armies each seat still has
    focus_from    T     the pending attack's (or occupation's) source, one-hot
    focus_to      T     its target, one-hot
    attack_dice   1     the attacker's dice of the pending attack (phase "defend")
    conquered     1     territories conquered this turn (a card is drawn if > 0)
    alive         S     1 while the seat owns a territory
    turn          1     turns begun
    deck          1     cards in the draw pile
    mission       M     Secret Mission: the observing seat's mission card, one-hot (else size 0)
    mission_kind  4     Secret Mission: its current kind (`MISSION_KINDS`; a lost target changes it)
    capitals      T*P   Capital Risk: index P t + q is 1 if t is seat q's capital (others' picks only
                        once every seat has picked; else size 0)

With ``scale="log1p"`` (``observation="log1p"`` in the environments) every count field (armies, hand_sizes,
sets_traded, reserve, to_place, attack_dice, conquered, turn, deck: `COUNT_FIELDS`) is given as log(1 + x), so that
a stack of 1,000 armies late in a game is 6.9 rather than 1,000; the 0/1 fields are the same in both.

>>> from riskstats.game.play import Game
>>> game = Game(players=4, seed=2)
>>> layout = ObservationLayout.for_game(game)
>>> obs = layout.observe(game, seat=0)
>>> obs.shape, layout.size, layout.slices["armies"]
((379,), 379, slice(168, 210, None))
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from riskstats._numba import jit
from riskstats.errors import RiskstatsError, check_int
from riskstats.game.rules.state import (
    CAPITAL,
    DEFEND,
    I_ATK_DICE,
    I_ATK_FROM,
    I_ATK_TO,
    I_CONQUERED,
    I_DECK_N,
    I_OCC_FROM,
    I_OCC_TO,
    I_PHASE,
    I_PLACE_FOR,
    I_PLAYER,
    I_QUOTA,
    I_RESERVE,
    I_SETS_TRADED,
    I_TURN,
    M_CARD,
    M_KIND,
    MISSION_KINDS,
    OCCUPY,
    PHASES,
    REINFORCE,
    SETUP_PLACE,
)

FIELDS = ("owner", "armies", "phase", "to_move", "me", "hand", "hand_sizes", "sets_traded", "reserve",
          "place_for", "to_place", "focus_from", "focus_to", "attack_dice", "conquered", "alive", "turn", "deck",
          "mission", "mission_kind", "capitals")
(F_OWNER, F_ARMIES, F_PHASE, F_TO_MOVE, F_ME, F_HAND, F_HAND_SIZES, F_SETS, F_RESERVE, F_PLACE_FOR,
 F_TO_PLACE, F_FOCUS_FROM, F_FOCUS_TO, F_ATK_DICE, F_CONQUERED, F_ALIVE, F_TURN, F_DECK, F_MISSION,
 F_MISSION_KIND, F_CAPITALS) = range(len(FIELDS))


OBSERVATIONS = ("raw", "log1p")
"""The observation's scaling: counts as they are, or ``log1p`` of every count field (`COUNT_FIELDS`)."""
COUNT_FIELDS = (F_ARMIES, F_HAND_SIZES, F_SETS, F_RESERVE, F_TO_PLACE, F_ATK_DICE, F_CONQUERED, F_TURN, F_DECK)
"""The fields that hold counts rather than 0/1 flags: with ``observation="log1p"`` each entry x is log(1 + x)."""
_LOG1P = np.log1p(np.arange(1024, dtype=np.float32))
"""log(1 + x) of the counts x = 0 .. 1023 (float32), a table for `_log1p_counts`."""


def field_sizes(T: int, S: int, P: int, C: int, M: int, mission: bool, capital: bool) -> tuple[int, ...]:
    """The size of each field of `FIELDS` (0: not in this variant)."""
    return (T * S, T, len(PHASES), P, P, C, P, 1, 1, S, S, T, T, 1, 1, S, 1, 1,
            M if mission else 0, len(MISSION_KINDS) if mission else 0, T * P if capital else 0)


@jit
def _observe(st, P, OO, seat, out):  # pragma: no cover - compiled
    """Write what ``seat`` observes of state ``st`` into out (float32, the layout's size; offsets OO)."""
    out[:] = 0.0
    info = st.info
    T = st.owner.shape[0]
    S = st.alive.shape[0]
    for t in range(T):
        if st.owner[t] >= 0:
            out[OO[F_OWNER] + S * t + st.owner[t]] = 1.0
        out[OO[F_ARMIES] + t] = st.armies[t]
    phase = info[I_PHASE]
    out[OO[F_PHASE] + phase] = 1.0
    out[OO[F_TO_MOVE] + info[I_PLAYER]] = 1.0
    out[OO[F_ME] + seat] = 1.0
    for c in range(st.card_owner.shape[0]):
        q = st.card_owner[c]
        if 0 <= q < P:
            out[OO[F_HAND_SIZES] + q] += 1.0
            if q == seat:
                out[OO[F_HAND] + c] = 1.0
    out[OO[F_SETS]] = info[I_SETS_TRADED]
    if phase == REINFORCE:
        out[OO[F_RESERVE]] = info[I_RESERVE]
    elif phase == SETUP_PLACE:
        out[OO[F_RESERVE]] = info[I_QUOTA]
        if info[I_PLACE_FOR] >= 0:
            out[OO[F_PLACE_FOR] + info[I_PLACE_FOR]] = 1.0
    for s in range(S):
        out[OO[F_TO_PLACE] + s] = st.to_place[s]
        out[OO[F_ALIVE] + s] = st.alive[s]
    if phase == DEFEND:
        out[OO[F_FOCUS_FROM] + info[I_ATK_FROM]] = 1.0
        out[OO[F_FOCUS_TO] + info[I_ATK_TO]] = 1.0
        out[OO[F_ATK_DICE]] = info[I_ATK_DICE]
    elif phase == OCCUPY:
        out[OO[F_FOCUS_FROM] + info[I_OCC_FROM]] = 1.0
        out[OO[F_FOCUS_TO] + info[I_OCC_TO]] = 1.0
    out[OO[F_CONQUERED]] = info[I_CONQUERED]
    out[OO[F_TURN]] = info[I_TURN]
    out[OO[F_DECK]] = info[I_DECK_N]
    if OO[F_MISSION + 1] > OO[F_MISSION] and st.mission[seat, M_CARD] >= 0:
        out[OO[F_MISSION] + st.mission[seat, M_CARD]] = 1.0
        out[OO[F_MISSION_KIND] + st.mission[seat, M_KIND]] = 1.0
    if OO[F_CAPITALS + 1] > OO[F_CAPITALS]:
        for q in range(P):
            t = st.capital[q]
            if t >= 0 and (q == seat or phase != CAPITAL):
                out[OO[F_CAPITALS] + P * t + q] = 1.0


@jit
def _log1p_counts(OO, out):  # pragma: no cover - compiled
    """Replace every entry x of the count fields (`COUNT_FIELDS`) of an observation by log(1 + x) (read from
    `_LOG1P` for the small counts that nearly every entry is)."""
    n = _LOG1P.shape[0]
    for f in COUNT_FIELDS:
        for i in range(OO[f], OO[f + 1]):
            x = out[i]
            out[i] = _LOG1P[int(x)] if x < n else np.log1p(x)


@dataclass(frozen=True, eq=False)
class ObservationLayout:
    """The observation of one board, seat count and variant: `size`, `slices` by field, `observe`; ``scale``
    ("raw" or "log1p", `OBSERVATIONS`) says how its count fields are given."""

    players: int
    offsets: np.ndarray
    shapes: dict
    scale: str = "raw"

    @classmethod
    def for_game(cls, game, scale: str = "raw") -> ObservationLayout:
        return cls.for_board(game.board, game.rules, game.players, scale)

    @classmethod
    def for_board(cls, board, rules, players: int, scale: str = "raw") -> ObservationLayout:
        if not isinstance(scale, str) or scale not in OBSERVATIONS:
            raise RiskstatsError(f"observation must be one of {', '.join(OBSERVATIONS)}, got {scale!r}")
        T = board.n_territories
        S = rules.seats(players)
        M = int(board.arrays.missions.shape[0])
        sizes = field_sizes(T, S, players, board.n_cards, M, rules.objective == "mission",
                            rules.objective == "capital")
        offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        offsets.flags.writeable = False
        shapes = {"owner": (T, S), "capitals": (T, players)}
        return cls(players, offsets, shapes, scale)

    @property
    def log1p(self) -> bool:
        """Whether the count fields are given as log1p."""
        return self.scale == "log1p"

    @property
    def size(self) -> int:
        return int(self.offsets[-1])

    @property
    def slices(self) -> dict:
        """Field name -> its slice of the flat observation (fields of size 0 left out)."""
        return {name: slice(int(self.offsets[k]), int(self.offsets[k + 1])) for k, name in enumerate(FIELDS)
                if self.offsets[k + 1] > self.offsets[k]}

    def fields(self, obs: np.ndarray) -> dict:
        """A flat observation split into its fields (views; owner and capitals as (T, S) and (T, P))."""
        return {name: obs[s].reshape(self.shapes[name]) if name in self.shapes else obs[s]
                for name, s in self.slices.items()}

    def observe(self, game, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """What ``seat`` observes of ``game`` now (float32, `size`)."""
        seat = check_int("seat", seat, 0, self.players - 1)
        out = np.zeros(self.size, np.float32) if out is None else out
        _observe(game.state, self.players, self.offsets, seat, out)
        if self.log1p:
            _log1p_counts(self.offsets, out)
        return out
