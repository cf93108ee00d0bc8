"""Play one game move by move from Python, or to the end with compiled bots.

This module owns `Game` (the step-by-step API: inspect the state, list legal moves, play a move, ask a
built-in bot for its move, plug in a Python bot), `Move`, `play_game` (one compiled game with its event
log); the compiled game loop `_play` is `riskstats.game.loop`'s. Every rule is
`riskstats.game.rules.engine`'s: `Game.step` calls the same compiled `_check` and `_apply` as the fast loop, so a
game played here move by move with built-in bots is identical to the compiled one with the same seed.

A Python bot is any callable ``bot(view) -> Move``; `Game.play` hands it a `GameView`: the game as the
player to move may see it (``view.state`` with the other players' missions, unrevealed capital picks, the
draw pile's order and the random stream masked; ``view.legal_mask()``, ``view.legal_moves()``,
``view.check(move)``). Python bots run at Python speed.

The defender decides its own dice: an attack move only declares the attack; then the phase is "defend" and
the seat to move (`Game.player`, the seat whose bot `Game.play` asks) is the defending one, which plays
``Move.defend(dice)``; the dice are rolled and the attacker moves again. Built-in bots defend with the
most dice.

>>> game = Game(players=3, seed=1)
>>> game.phase, game.player
('claim', 0)
>>> game.step(game.bot_move("aggressive"))
>>> result = game.play(["aggressive", "continent", "defensive"])
>>> game.over and (game.winner >= 0 or game.truncated)
True
"""
from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

import numpy as np

from riskstats.errors import RiskstatsError, check_int
from riskstats.game.bots.catalog import Lineup, bot_spec, seat_entries
from riskstats.game.bots.dispatch import _bot_move
from riskstats.game.bots.roster import roster_for
from riskstats.game.drive import drive
from riskstats.game.loop import MAX_MOVES, NO_HORIZON
from riskstats.game.rules.board import Board, classic_board
from riskstats.game.rules.context import compile_context
from riskstats.game.rules.engine import _init, _step, _step_roll
from riskstats.game.rules.legal import (
    ERRORS,
    LIMITS,
    LM_DEFEND,
    LM_FORCED,
    LM_OCCUPY,
    LM_PASS,
    LM_PLACE,
    _check,
    _legal_masks,
)
from riskstats.game.rules.options import GameRules, default_rules
from riskstats.game.rules.state import (
    ATTACK_MOVE,
    CAPITAL_PICK,
    DEFEND_MOVE,
    END_ATTACK,
    END_TURN,
    EVENTS,
    FORTIFY_MOVE,
    I_ATK_DICE,
    I_ATK_FROM,
    I_ATK_TO,
    I_DECK_N,
    I_LOG_N,
    I_PHASE,
    I_PLAYER,
    I_REASON,
    I_RESERVE,
    I_ROUND,
    I_SETS_TRADED,
    I_TURN,
    I_WINNER,
    L_MOVE,
    L_PHASE,
    L_REASON,
    LOG_COLS,
    M_CARD,
    MOVES,
    OCCUPY_MOVE,
    OVER,
    PASS,
    PHASES,
    PLACE,
    REASONS,
    SC_STAMP,
    TRADE_SET,
    State,
    _new_state,
)
from riskstats.game.search import LOOKAHEAD_IDS, _search_move


class Move(NamedTuple):
    """One move ``(kind, a, b, c, d)``; see `riskstats.game.rules.state` for what a..d mean per kind.

    ``kind`` is one of the constants of `riskstats.game.rules.state` (`PLACE`, `TRADE_SET`, ... ``MOVES[kind]`` is
    its name, as in the event log's ``move`` column). Build moves with the class methods; a move prints as
    the call that builds it:

    >>> Move.attack(3, 5, 2)
    Move.attack(src=3, dst=5, dice=2)
    >>> Move.attack(3, 5, 2).name, Move.defend(1).name
    ('attack', 'defend')

    The moves a `Game` hands out (`Game.legal_moves`, `Game.bot_move`) print with their board's names;
    they are equal to the plain moves. The class methods take a territory (or card) by its classic-board
    name too, so such a printed move builds the same move again:

    >>> Move.attack("Alaska", "Kamchatka", 3) == Move.attack(0, 29, 3)
    True
    >>> Game(3, seed=1).legal_moves()[0]
    Move.place(territory='Alaska', armies=1)
    """

    kind: int
    a: int = 0
    b: int = 0
    c: int = 0
    d: int = 0

    @classmethod
    def place(cls, territory: int, armies: int = 1):
        return cls(PLACE, _territory(territory), armies)

    @classmethod
    def trade(cls, c1: int, c2: int, c3: int):
        return cls(TRADE_SET, _card(c1), _card(c2), _card(c3))

    @classmethod
    def pass_(cls):
        return cls(PASS)

    @classmethod
    def attack(cls, src: int, dst: int, dice: int):
        """Declare an attack; the defending seat then chooses its dice (`defend`)."""
        return cls(ATTACK_MOVE, _territory(src), _territory(dst), dice)

    @classmethod
    def defend(cls, dice: int):
        """The defending seat's dice against the declared attack."""
        return cls(DEFEND_MOVE, dice)

    @classmethod
    def occupy(cls, extra: int):
        return cls(OCCUPY_MOVE, extra)

    @classmethod
    def end_attack(cls):
        return cls(END_ATTACK)

    @classmethod
    def fortify(cls, src: int, dst: int, armies: int):
        return cls(FORTIFY_MOVE, _territory(src), _territory(dst), armies)

    @classmethod
    def end_turn(cls):
        return cls(END_TURN)

    @classmethod
    def capital(cls, territory: int):
        return cls(CAPITAL_PICK, _territory(territory))

    @property
    def name(self) -> str:
        """The kind's name (`riskstats.game.rules.state.MOVES`)."""
        return MOVES[self.kind] if 0 <= self.kind < len(MOVES) else f"kind {self.kind}"

    def __repr__(self):
        return _move_repr(self, None)

    __str__ = __repr__


class _BoardMove(Move):
    """A `Move` that prints with its board's territory and card names; equal to (and hashed as) the plain
    move, and a plain move again once converted (``Move(*move)``)."""

    def __repr__(self):
        return _move_repr(self, self.__dict__.get("board"))

    __str__ = __repr__


def _named(move, board: Board) -> Move:
    """``move`` as a `_BoardMove` of ``board``."""
    named = _BoardMove(*move)
    named.board = board
    return named


_NAMED_FIELDS = {"territory": "territory", "src": "territory", "dst": "territory", "c1": "card", "c2": "card",
                 "c3": "card"}
"""The fields that hold a territory or a card, shown by name when the board is known."""


def _move_repr(move, board) -> str:
    method, fields = _FIELDS.get(move.kind, ("", ()))
    if not method or any(move[1 + len(fields):]):  # not a kind's own shape: show every field
        return f"Move({move.kind}, {move.a}, {move.b}, {move.c}, {move.d})"
    shown = []
    for f, v in zip(fields, move[1:]):
        what = _NAMED_FIELDS.get(f) if board is not None else None
        if what == "territory" and 0 <= v < board.n_territories:
            v = repr(board.territories[v])
        elif what == "card" and 0 <= v < board.n_cards:
            from riskstats.game.position import card_label

            v = repr(card_label(board, v))
        shown.append(f"{f}={v}")
    return f"Move.{method}({', '.join(shown)})"


def _territory(t):
    """A territory index, from an index or a classic-board name (or alias)."""
    return classic_board().territory_index(t) if isinstance(t, str) else t


def _card(c):
    """A card index, from an index or a classic-board card label (a territory's name, "wild 1", "wild 2")."""
    if not isinstance(c, str):
        return c
    from riskstats.game.position import _Cards

    return _Cards(classic_board()).take(c, "Move.trade")


_FIELDS = {PLACE: ("place", ("territory", "armies")), TRADE_SET: ("trade", ("c1", "c2", "c3")), PASS: ("pass_", ()),
           ATTACK_MOVE: ("attack", ("src", "dst", "dice")), DEFEND_MOVE: ("defend", ("dice",)),
           OCCUPY_MOVE: ("occupy", ("extra",)), END_ATTACK: ("end_attack", ()),
           FORTIFY_MOVE: ("fortify", ("src", "dst", "armies")), END_TURN: ("end_turn", ()),
           CAPITAL_PICK: ("capital", ("territory",))}
"""Move kind -> (the class method that builds it, the names of its fields a, b, c)."""


class Game:
    """One game, played move by move (see the module docstring).

    Parameters
    ----------
    players : int
        3-6 for classic; 2 for the two-player game (with no ``rules``: the two-player variant with a
        neutral, ``GameRules(variant="two-player")``).
    rules : GameRules, optional
    board : Board, optional
        The classic board by default; any board from `riskstats.game.rules.board.load_board`.
    seed : int
        The game's seed (a uint64); the whole game is a function of it and the moves chosen.
    log : bool
        Keep the event log (`events`).

    Attributes
    ----------
    state : State
        The game's arrays (`riskstats.game.rules.state`), changed in place by every move.
    context : Context
        What its kernels read besides the state (`riskstats.game.rules.context.Context`: the board's arrays,
        the rule vector and the dice tables), built once: pass ``*game.context`` to a kernel.
    """

    def __init__(self, players: int = 4, rules: GameRules | None = None, *, board: Board | None = None,
                 seed: int = 0, log: bool = True):
        self.rules = rules or default_rules(players)
        if not isinstance(self.rules, GameRules):
            raise RiskstatsError(f"rules must be a GameRules, got {self.rules!r}")
        self.board = board or classic_board()
        self.players = self.rules.check_players(players, self.board)
        self.seed = check_int("seed", seed, 0, 2**64 - 1)
        self.context = compile_context(self.rules, self.board, self.players)
        seats = self.rules.seats(self.players)
        self.state = _new_state(self.board.n_territories, self.board.n_cards, seats, 4096 if log else 0)
        _init(self.state, self.context.B, self.context.R, np.uint64(self.seed))
        self._events = None  # the event log's frame so far (`events`)

    def __repr__(self):
        """Who plays what, where the game stands and who leads (most territories, then armies).

        >>> Game(3, seed=1)
        <Game: classic, 3 players, player 0 to move, phase claim; territories 0/0/0, armies 0/0/0; leads: nobody>
        """
        st = self.state
        seats = range(self.players)
        land = [int(st.n_terr[s]) for s in seats]
        armies = [int(st.armies[st.owner == s].sum()) for s in seats]
        where = (f"turn {self.turn} (round {self.round}), " if self.turn else "") + \
            f"player {self.player} to move, phase {self.phase}"
        if self.over:
            where = f"over at turn {self.turn}: " + (f"player {self.winner} won ({self.reason})" if self.winner >= 0
                                                      else f"nobody won ({self.reason})")
        best = max(seats, key=lambda s: (land[s], armies[s]))
        tied = [s for s in seats if (land[s], armies[s]) == (land[best], armies[best])]
        leads = f"player {best}" if len(tied) == 1 else "nobody"
        neutral = ""
        if self.rules.has_neutral:
            n = self.players
            neutral = f", neutral {int(st.n_terr[n])} territories/{int(st.armies[st.owner == n].sum())} armies"
        return (f"<Game: {self.rules.variant}, {self.players} players, {where}; "
                f"territories {'/'.join(map(str, land))}, armies {'/'.join(map(str, armies))}{neutral}; "
                f"leads: {leads}>")

    # ------------------------------------------------------------ inspecting
    @property
    def phase(self) -> str:
        return PHASES[self.state.info[I_PHASE]]

    @property
    def player(self) -> int:
        """The seat to move: the player whose turn it is, or in the "defend" phase the defending seat."""
        return int(self.state.info[I_PLAYER])

    @property
    def pending_attack(self) -> tuple[int, int, int] | None:
        """(from, to, attacker dice) of the attack awaiting the defender's dice; None outside "defend"."""
        if self.phase != "defend":
            return None
        info = self.state.info
        return int(info[I_ATK_FROM]), int(info[I_ATK_TO]), int(info[I_ATK_DICE])

    @property
    def turn(self) -> int:
        return int(self.state.info[I_TURN])

    @property
    def round(self) -> int:
        return int(self.state.info[I_ROUND])

    @property
    def over(self) -> bool:
        return self.state.info[I_PHASE] == OVER

    @property
    def winner(self) -> int:
        """The winning seat, or -1 (running or truncated)."""
        return int(self.state.info[I_WINNER])

    @property
    def truncated(self) -> bool:
        return self.over and self.winner < 0

    @property
    def reason(self) -> str:
        return REASONS[self.state.info[I_REASON]]

    @property
    def reserve(self) -> int:
        """Armies the player whose turn it is still has to place this turn (0 in setup)."""
        return int(self.state.info[I_RESERVE])

    @property
    def sets_traded(self) -> int:
        """Card sets traded so far by all players together (the progressive set value counts them)."""
        return int(self.state.info[I_SETS_TRADED])

    @property
    def hands(self) -> list[list[int]]:
        """Each player's cards (card indices into the board's deck), by seat."""
        owners = self.state.card_owner
        return [np.flatnonzero(owners == seat).tolist() for seat in range(self.players)]

    def hand(self, seat: int | None = None) -> list[int]:
        """Cards held by a seat (default: the player to move)."""
        seat = self.player if seat is None else seat
        return np.flatnonzero(self.state.card_owner == seat).tolist()

    def territories(self):
        """A DataFrame: one row per territory with its continent, owner and armies."""
        import pandas as pd

        b = self.board
        return pd.DataFrame({"territory": b.territories,
                             "continent": [b.continents[k] for k in b.arrays.continent_of],
                             "owner": self.state.owner.copy(), "armies": self.state.armies.copy()})

    def legal_mask(self) -> dict:
        """The legal-move masks of the current phase (`riskstats.game.rules.legal._legal_masks`).

        ``place[T]``, ``attack[T, T]`` (from, to) and ``fortify[T, T]``; ``sets``: the valid sets of the
        player's cards; ``can_pass``: whether trading may stop; ``occupy``: (least, most) extra armies;
        ``defend``: (least, most) defender dice.
        """
        mask = self._masks()
        del mask["dice"], mask["place_most"]
        return mask

    def _masks(self) -> dict:
        """`legal_mask` with two more entries: ``dice[T]`` (the most dice an attack from t may roll, 0 where t
        cannot attack) and ``place_most`` (the most armies one placement may put down)."""
        T = self.board.n_territories
        place = np.zeros(T, np.bool_)
        attack = np.zeros((T, T), np.bool_)
        dice = np.zeros(T, np.int64)
        fortify = np.zeros((T, T), np.bool_)
        held = int((self.state.card_owner == self.player).sum())
        sets = np.zeros((held * (held - 1) * (held - 2) // 6, 3), np.int64)
        limits = np.zeros(len(LIMITS), np.int64)
        n = _legal_masks(self.state, self.context.B, self.context.R, place, attack, dice, fortify, sets, limits)
        phase = self.phase
        return {"phase": phase, "place": place, "attack": attack, "fortify": fortify,
                "sets": [tuple(int(c) for c in row) for row in sets[:n]],
                "can_pass": bool(limits[LM_PASS]),
                "occupy": (0, int(limits[LM_OCCUPY])) if phase == "occupy" else None,
                "defend": (1, int(limits[LM_DEFEND])) if phase == "defend" else None,
                "forced_trade": bool(limits[LM_FORCED]), "dice": dice, "place_most": int(limits[LM_PLACE])}

    def legal_moves(self) -> list[Move]:
        """Every legal move now (attacks with every dice count; defences with every dice count)."""
        m = self._masks()
        st = self.state
        phase = m["phase"]
        moves = []
        if phase == "capital":
            moves = [Move.capital(int(t)) for t in np.flatnonzero(m["place"])]
        elif phase in ("claim", "setup_place", "reinforce"):
            moves = [Move.place(int(t), n) for t in np.flatnonzero(m["place"]) for n in range(1, m["place_most"] + 1)]
        elif phase in ("trade", "elim_trade"):
            moves = [Move.trade(*s) for s in m["sets"]] + ([Move.pass_()] if m["can_pass"] else [])
        elif phase == "attack":
            moves = [Move.attack(int(a), int(b), n) for a, b in np.argwhere(m["attack"])
                     for n in range(1, int(m["dice"][a]) + 1)] + [Move.end_attack()]
        elif phase == "occupy":
            moves = [Move.occupy(n) for n in range(m["occupy"][1] + 1)]
        elif phase == "defend":
            moves = [Move.defend(n) for n in range(m["defend"][0], m["defend"][1] + 1)]
        elif phase == "fortify":
            moves = [Move.fortify(int(a), int(b), n) for a, b in np.argwhere(m["fortify"])
                     for n in range(1, int(st.armies[a]))] + [Move.end_turn()]
        return [_named(move, self.board) for move in moves]

    def missions(self) -> list[str]:
        """Each seat's mission card by name ([] outside Secret Mission). Secret: for reports, not bots."""
        cards = self.state.mission[:self.players, M_CARD]
        return [self.board.mission_name(int(c), s) for s, c in enumerate(cards) if c >= 0]

    def mission(self, seat: int | None = None) -> str:
        """One seat's mission by name (default: the player to move); "" outside Secret Mission."""
        seat = self.player if seat is None else seat
        card = int(self.state.mission[seat, M_CARD])
        return self.board.mission_name(card, seat) if card >= 0 else ""

    @property
    def capitals(self) -> list[int]:
        """Each seat's capital territory (-1: none yet); unrevealed picks show once every seat has picked."""
        if self.phase == "capital":
            return [-1] * self.players
        return self.state.capital[:self.players].tolist()

    def view(self) -> GameView:
        """The game as the player to move may see it (what `play` hands a Python bot)."""
        return GameView(self)

    def check(self, move) -> str:
        """"" if the move is legal now, else why not."""
        move = Move(*move)
        return ERRORS[_check(self.state, self.context.B, self.context.R, *map(int, move))]

    # ------------------------------------------------------------ playing
    def step(self, move, outcome: int | None = None) -> None:
        """Play one move; an illegal move raises `RiskstatsError` saying why and changes nothing.

        A defend move is the battle's chance step: without ``outcome`` the engine draws the roll from the game's
        random stream; with it (the attacker's losses, 0 .. min of the dice) the roll comes out as given and
        the stream is left as it was (explicit chance: `roll_outcomes` gives each outcome's probability)."""
        move = Move(*(int(x) for x in move))
        reason = self.check(move)
        if reason:
            raise RiskstatsError(f"illegal move {_named(move, self.board)} in phase {self.phase!r}: {reason}")
        if outcome is None:
            self._grow_log()
            _step(self.state, self.context.B, self.context.R, self.context.CUT, *move)
            return
        if move.kind != DEFEND_MOVE:
            raise RiskstatsError(f"a roll's outcome goes with a defend move, not {_named(move, self.board)}")
        possible = self.roll_outcomes(move.a)
        if not (isinstance(outcome, int | np.integer) and 0 <= outcome < len(possible) and possible[outcome] > 0):
            raise RiskstatsError(f"outcome must be the attacker's losses, one of "
                                 f"{[i for i, p in enumerate(possible) if p > 0]}, got {outcome!r}")
        self._grow_log()
        _step_roll(self.state, self.context.B, self.context.R, move.a, int(outcome))

    def roll_outcomes(self, dice: int) -> tuple[Fraction, ...]:
        """The chance step of the attack declared now, if the defending seat rolls ``dice`` dice: the exact
        probability that the attacker loses 0, 1, ... armies, from the dice rule the odds engine uses
        (`riskstats.odds.dice.DiceRules.outcome_fractions`); the defender loses the rest of min(dice).

        >>> game = Game(2, seed=1)
        >>> game.roll_outcomes(1)
        Traceback (most recent call last):
        riskstats.errors.RiskstatsError: no attack waits for its roll: the phase is 'setup_place', not 'defend'
        """
        if self.phase != "defend":
            raise RiskstatsError(f"no attack waits for its roll: the phase is {self.phase!r}, not 'defend'")
        reason = self.check(Move.defend(int(dice)))
        if reason:
            raise RiskstatsError(f"the defender cannot roll {dice!r} dice: {reason}")
        return self.rules.dice.outcome_fractions(int(self.state.info[I_ATK_DICE]), int(dice))

    def bot_move(self, bot: str, params=None) -> Move:
        """The move a built-in bot would play now (it may draw from the game's random stream).

        ``bot`` is a bot spec, a name with optional parameters (``"continent:threshold=0.6"``, see
        `riskstats.game.bots.catalog.parse_bot`); ``params`` overrides its defaults first (all its values in
        order, or a dict of some by name)."""
        bot_id, values = bot_spec(bot, params)
        self.state.scratch[SC_STAMP] = -1  # no cache from an earlier call: the state may have been changed
        if bot_id in LOOKAHEAD_IDS:
            move = _search_move(self.state, *self.context, bot_id, values,
                                self._search_memory(), *self._lineup_arrays())
        else:
            move = _bot_move(self.state, self.context.B, self.context.R, self.context.CUT, self.context.V, bot_id,
                             values, *roster_for(_bot_move, [bot_id]))
        return _named((int(x) for x in move), self.board)

    def play(self, bots, max_moves: int | None = None) -> Game:
        """Play on until the game ends (or ``max_moves`` more moves). ``bots``: one per seat, each a
        built-in bot spec (``"continent:threshold=0.6"``), a (spec, params) pair as for `bot_move`, or a
        Python callable ``bot(game) -> Move``."""
        bots = list(bots)
        if not bots:
            raise RiskstatsError("play needs at least one bot")
        seats = seat_entries(bots, self.players)
        if all(not callable(b) for b in seats) and max_moves is None:
            return self._play_compiled(*Lineup.of(seats).arrays(self.players), check=True)
        self._lineup = [None if callable(b) else b for b in seats]  # what a look-ahead seat's rollouts may know
        try:
            for _ in range(max_moves if max_moves is not None else MAX_MOVES):
                if self.over:
                    break
                bot = seats[self.player]
                if callable(bot):
                    move = bot(self.view())
                else:
                    name, values = (bot, None) if isinstance(bot, str) else bot
                    move = self.bot_move(name, values)
                self.step(move)
        finally:
            self._lineup = None
        return self

    def _lineup_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The line-up (ids and parameters by seat, id -1 for a seat it does not know) that a look-ahead seat's
        rollouts play the other seats as (`riskstats.game.search`'s ``opponents``): the seats of the running
        `play`, else none known."""
        lineup = Lineup.of(getattr(self, "_lineup", None) or ())
        return lineup.arrays(len(lineup.specs), rows=self.state.alive.shape[0])

    def _play_compiled(self, ids: np.ndarray, params: np.ndarray, check: bool) -> Game:
        """Play to the end with built-in bots (ids and parameters by seat) in the compiled loop."""
        while not self.over:
            self._grow_log()
            error = drive(self.state, self.context, ids, params, check, NO_HORIZON, NO_HORIZON, self._search_memory())
            if error > 0:
                raise RiskstatsError(f"a built-in bot chose an illegal move: {ERRORS[error]}")
        return self

    def _search_memory(self) -> np.ndarray:
        """The search seats' plan memory (`riskstats.game.search`): (turn, plan) per seat, kept with the game."""
        memory = getattr(self, "_memory", None)
        if memory is None:
            memory = self._memory = np.full((self.state.alive.shape[0], 2), -1, np.int64)
        return memory

    def _grow_log(self, rows: int = 64) -> None:
        """Room in the event log (if the game keeps one) for ``rows`` more rows: a bigger copy when needed."""
        log = self.state.log
        if log.shape[0] == 0:
            return
        need = self.state.info[I_LOG_N] + rows
        if need > log.shape[0]:
            bigger = np.zeros((max(need, 2 * log.shape[0]), log.shape[1]), np.int64)
            bigger[:log.shape[0]] = log
            self.state = self.state._replace(log=bigger)

    # ------------------------------------------------------------ positions
    def to_json(self, indent: int | None = 1) -> str:
        """The position as JSON text (docs/positions.md): everything, so `from_json` continues the game
        exactly as this one would (the draw pile's order and the random stream included)."""
        import json

        from riskstats.game.position import position_dict

        return json.dumps(position_dict(self), indent=indent)

    @classmethod
    def from_json(cls, position, board: Board | None = None) -> Game:
        """A game at a position: JSON text or a dict in the format of docs/positions.md, written by `to_json`
        or by hand (unknown draw-pile order: shuffled from the position's ``seed``). ``board``: the board,
        when the position names one other than "classic". An invalid position raises `RiskstatsError`
        naming the problem. The new game's event log starts at the position (`from_position`)."""
        return cls.from_position(position, board)

    @classmethod
    def from_position(cls, position, board: Board | None = None, *, context=None, memory=None) -> Game:
        """A game at a position, the one way to seat bots anywhere but at a deal: ``position`` is JSON text or a
        dict (docs/positions.md; ``board`` as for `from_json`), or another `Game`, whose state is copied (its
        rules, board and compiled tables shared, no event log: a cheap copy for a search over positions).

        ``context`` is the compiled rules and board tables to reuse (`riskstats.game.rules.engine.compile_context`
        of the same rules, board and players: a caller that loads many positions of one game compiles them once);
        ``memory`` the look-ahead seats' plan memory to keep (``int64[seats, 2]``, `_search_memory`; the game
        holds that array, so it goes on across the positions of one game). The new game's event log starts at the
        position."""
        from riskstats.game.position import game_from_position

        game = cls.__new__(cls)
        if isinstance(position, Game):
            game.rules, game.board, game.players, game.seed = (position.rules, position.board, position.players,
                                                               position.seed)
            game.state = position.state._replace(**{f: getattr(position.state, f).copy()
                                                    for f in position.state._fields})
            context = position.context if context is None else context
            if memory is None and getattr(position, "_memory", None) is not None:
                memory = position._memory.copy()
        else:
            game.rules, game.board, game.players, game.seed, game.state = game_from_position(position, board)
        game.context = compile_context(game.rules, game.board, game.players) if context is None else context
        game._events = None
        if memory is not None:
            game._memory = memory
        return game

    # ------------------------------------------------------------ the record
    def events(self):
        """The event log as a DataFrame: one row per move or event, columns `riskstats.game.rules.state.LOG_COLS`
        (phase, move and reason as names; docs/event_log.md says what each row and column means).

        Each call converts only the rows logged since the last one; it returns a copy.
        """
        import pandas as pd

        n = int(self.state.info[I_LOG_N])
        done = 0 if self._events is None else len(self._events)
        if done == 0 or n < done:  # (an empty frame's name columns have another dtype: start afresh)
            self._events = events_frame(self.state, self.board)
        elif n > done:
            self._events = pd.concat([self._events, events_frame(self.state, self.board, done)], ignore_index=True)
        return self._events.copy()

    def result(self) -> dict:
        info = self.state.info
        result = {"winner": self.winner, "turns": int(info[I_TURN]), "rounds": int(info[I_ROUND]),
                  "truncated": self.truncated, "win_reason": self.reason, "seed": self.seed,
                  "cards_in_deck": int(info[I_DECK_N])}
        if self.rules.objective == "mission":
            result["missions"] = ",".join(self.missions())
        if self.rules.objective == "capital":
            result["capitals"] = self.capitals
        return result


class GameView:
    """A `Game` as the player to move may see it: what a Python bot gets (in the "defend" phase, the
    defending seat; ``pending_attack`` is the attack it answers).

    ``state`` is a copy with the secrets of others masked: every other seat's mission row is -1, capital
    picks are -1 until every seat has picked, the draw pile's order (``deck``) and the random stream
    (``rng``) are zeroed and the event log is left out. ``hand()`` and ``mission`` are the viewer's own.
    """

    def __init__(self, game: Game):
        self._game = game
        self.seat = game.player
        st = game.state
        mission = np.full_like(st.mission, -1)
        mission[self.seat] = st.mission[self.seat]
        capital = np.full_like(st.capital, -1)
        if game.phase == "capital":
            capital[self.seat] = st.capital[self.seat]
        else:
            capital[:] = st.capital
        self.state = st._replace(owner=st.owner.copy(), armies=st.armies.copy(), card_owner=st.card_owner.copy(),
                                 deck=np.zeros_like(st.deck), alive=st.alive.copy(), n_terr=st.n_terr.copy(),
                                 to_place=st.to_place.copy(), info=st.info.copy(), rng=np.zeros_like(st.rng),
                                 log=st.log[:0].copy(), mission=mission, capital=capital,
                                 out=st.out.copy())
        self.rules, self.board, self.players = game.rules, game.board, game.players
        self.phase, self.player, self.turn, self.round = game.phase, game.player, game.turn, game.round
        self.pending_attack = game.pending_attack

    @property
    def mission(self) -> str:
        return self._game.mission(self.seat)

    def hand(self) -> list[int]:
        return self._game.hand(self.seat)

    def legal_mask(self) -> dict:
        return self._game.legal_mask()

    def legal_moves(self) -> list[Move]:
        return self._game.legal_moves()

    def check(self, move) -> str:
        return self._game.check(move)


_NAMES = ((L_PHASE, np.array(PHASES, dtype=object)), (L_MOVE, np.array(EVENTS, dtype=object)),
          (L_REASON, np.array(REASONS, dtype=object)))


def events_frame(state: State, board: Board, start: int = 0):
    """The event log of a state from row ``start`` on as a DataFrame; phase, move and reason as names."""
    import pandas as pd

    n = int(state.info[I_LOG_N])
    if n > state.log.shape[0]:
        raise RiskstatsError(f"the event log overflowed ({n} rows, room for {state.log.shape[0]})")
    rows = state.log[start:n]
    frame = pd.DataFrame(rows, columns=list(LOG_COLS), index=pd.RangeIndex(start, n))
    for col, names in _NAMES:
        frame[LOG_COLS[col]] = names[rows[:, col]]
    return frame


def play_game(players: int = 4, bots=("random",), rules: GameRules | None = None, *, seed: int = 0,
              board: Board | None = None, log: bool = True) -> Game:
    """Play one whole game with built-in bots (compiled), keeping its event log; returns the `Game`."""
    game = Game(players, rules, board=board, seed=seed, log=log)
    return game.play(bots)
