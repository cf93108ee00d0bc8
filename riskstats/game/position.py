"""Positions: a game's state as a JSON object that a person can read and write, and back.

This module owns the position format (``riskstats-position/1``, docs/positions.md) and its validation:
`position_dict` writes a `Game`'s state, `game_from_position` reads the parts of a `Game` from a position
(written by `position_dict` or by hand for a real game's position) and raises a one-line `RiskstatsError` naming the
first problem it finds. It does not own the rules (`riskstats.game.rules.engine`) or the game API
(`riskstats.game.play`; `Game.to_json` / `Game.from_json` call this module).

A position written by `position_dict` holds everything: the draw pile's order, the game's random stream
(``rng``) and the engine's bookkeeping (``engine``), so the game continues from it exactly as the original
would. A hand-written one may leave those out: the cards in no hand, discard pile or set-aside list form
the draw pile in an order shuffled from ``seed``, and the random stream starts from ``seed``.

>>> from riskstats.game.play import Game
>>> game = Game(players=3, seed=4).play(["aggressive"], max_moves=200)
>>> again = Game.from_json(game.to_json())
>>> (again.state.armies == game.state.armies).all() and again.phase == game.phase
True
"""
from __future__ import annotations

import json

import numpy as np

from riskstats.errors import RiskstatsError
from riskstats.game.rules.board import MT_KIND, Board, board_from_dict, classic_board, load_board
from riskstats.game.rules.options import GameRules, default_rules
from riskstats.game.rules.state import (
    ASIDE,
    ATTACK,
    CAPITAL,
    CLAIM,
    DECK,
    DEFEND,
    DISCARD,
    I_AFTER_PLACE,
    I_ATK_DICE,
    I_ATK_FROM,
    I_ATK_TO,
    I_BONUS_GIVEN,
    I_DECK_N,
    I_ELIM_PENDING,
    I_LOG_N,
    I_OCC_FROM,
    I_OCC_TO,
    I_PHASE,
    I_PLACE_FOR,
    I_PLAYER,
    I_QUOTA,
    I_REASON,
    I_RESERVE,
    I_ROUND,
    I_SETS_TRADED,
    I_START_HAND,
    I_TURN,
    I_WINNER,
    INFO,
    M_CARD,
    M_KIND,
    M_TARGET,
    MISSION_KINDS,
    MK_DESTROY,
    MK_TERRITORIES,
    N_MISSION,
    OCCUPY,
    OVER,
    PHASES,
    REASONS,
    REINFORCE,
    SETUP_PLACE,
    _new_state,
)

FORMAT = "riskstats-position/1"
MAX_NUMBER = 10**9
"""The largest number a position may hold anywhere but ``seed`` and ``rng``: armies on a territory, setup
armies, the reserve's parts, counts of moves and sets (docs/positions.md). Games never come near it, and it
keeps every sum the engine makes far inside 64 bits."""
WILD_NAME = "wild"
MAX_ARMIES = 10**9
"""Most armies a position may put on one territory, or give a seat still to place in setup (a billion):
far beyond any real game, and far from the int64 limits of the engine's sums."""
_TOP = ("format", "board", "players", "rules", "seed", "rng", "phase", "player", "turn", "round", "reserve",
        "sets_traded", "territories", "hands", "discard", "aside", "deck", "setup_armies", "missions",
        "mission_rows", "capitals", "out", "pending_attack", "occupy", "engine")
"""Every key a position may have (anything else is refused, so a misspelt key is not silently ignored)."""
_WRITTEN = (I_PHASE, I_PLAYER, I_TURN, I_ROUND, I_RESERVE, I_SETS_TRADED, I_DECK_N, I_LOG_N)
"""Info fields with their own key (or derived): the rest go to ``engine``."""


def _bad(message: str):
    message = " ".join(message.splitlines())
    if len(message) > 300:  # one readable line, whatever value it quotes
        message = message[:297] + "..."
    raise RiskstatsError(f"invalid position: {message}")


# ------------------------------------------------------------------ writing
def card_label(board: Board, c: int) -> str:
    """A card as a position names it: its territory, or "wild 1", "wild 2", ... (a hand-written position
    may just say "wild": the next wild not listed yet)."""
    t = int(board.arrays.card_territory[c])
    if t >= 0:
        return board.territories[t]
    return f"{WILD_NAME} {int((board.arrays.card_territory[:c] < 0).sum()) + 1}"


def position_dict(game) -> dict:
    """The position of a `riskstats.game.play.Game` as a JSON-able dict (the format of the module docstring)."""
    st, board, P = game.state, game.board, game.players
    info = st.info
    names = board.territories
    seats = st.alive.shape[0]
    cards = st.card_owner
    pos = {
        "format": FORMAT,
        "board": board.name,
        "players": P,
        "rules": json.loads(json.dumps(game.rules.as_dict(), default=str)),
        "seed": game.seed,
        "rng": str(int(st.rng[0])),
        "phase": PHASES[info[I_PHASE]],
        "player": int(info[I_PLAYER]),
        "turn": int(info[I_TURN]),
        "round": int(info[I_ROUND]),
        "reserve": int(info[I_RESERVE]),
        "sets_traded": int(info[I_SETS_TRADED]),
        "territories": {names[t]: [int(st.owner[t]), int(st.armies[t])] for t in range(len(names))},
        "hands": [[card_label(board, c) for c in np.flatnonzero(cards == s)] for s in range(P)],
        "discard": [card_label(board, c) for c in np.flatnonzero(cards == DISCARD)],
        "aside": [card_label(board, c) for c in np.flatnonzero(cards == ASIDE)],
        "deck": [card_label(board, c) for c in st.deck[:info[I_DECK_N]]],
        "setup_armies": [int(x) for x in st.to_place[:seats]],
        "out": [int(x) for x in st.out[:seats]],
    }
    if game.rules.objective == "mission":
        pos["missions"] = [board.mission_name(int(st.mission[s, M_CARD]), s) for s in range(P)]
        pos["mission_rows"] = st.mission[:P].tolist()
    if game.rules.objective == "capital":
        pos["capitals"] = [names[c] if c >= 0 else None for c in st.capital[:P]]
    if info[I_PHASE] == DEFEND:
        pos["pending_attack"] = [names[info[I_ATK_FROM]], names[info[I_ATK_TO]], int(info[I_ATK_DICE])]
    if info[I_PHASE] == OCCUPY:
        pos["occupy"] = [names[info[I_OCC_FROM]], names[info[I_OCC_TO]]]
    pos["engine"] = {INFO[i]: int(info[i]) for i in range(len(INFO)) if i not in _WRITTEN}
    return pos


def template_position(players: int, variant: str | None = None, board: Board | None = None) -> dict:
    """A valid position to edit by hand (what ``riskstats position new`` prints): turn 1 of seat 0, phase
    "reinforce" with its reserve, every territory listed by continent and dealt round the seats in turn
    (the two-player neutral included), each seat's starting armies spread evenly over its territories,
    no cards in any hand; Secret Mission: a different mission per player; Capital: each player's first
    territory as capital (its card set aside).

    >>> pos = template_position(3)
    >>> pos["phase"], pos["reserve"], len(pos["territories"])
    ('reinforce', 4, 42)
    >>> from riskstats.game.play import Game
    >>> Game.from_json(pos).phase
    'reinforce'
    """
    from riskstats.game.rules.options import VARIANTS

    board = board or classic_board()
    if variant is not None and variant not in VARIANTS:
        raise RiskstatsError(f"variant must be one of {', '.join(VARIANTS)}, got {variant!r}")
    rules = default_rules(players) if variant is None else GameRules(variant=variant)
    players = rules.check_players(players, board)
    seats = rules.seats(players)
    names = board.territories
    owned = [[t for t in range(len(names)) if t % seats == s] for s in range(seats)]
    armies = [rules.starting_armies(players, board)] * players + [board.neutral_armies] * (seats - players)
    territories = {}
    for s, mine in enumerate(owned):
        base, extra = divmod(max(armies[s], len(mine)), len(mine))
        for k, t in enumerate(mine):
            territories[t] = [s, base + (k < extra)]
    held = board.arrays.continent_of[owned[0]]
    bonus = sum(int(b) for k, b in enumerate(board.arrays.continent_bonus)
                if (held == k).sum() == board.arrays.continent_size[k])
    pos = {"format": FORMAT, "board": board.name, "players": players, "rules": rules.variant, "seed": 0,
           "phase": "reinforce", "player": 0, "turn": 1, "round": 1,
           "reserve": max(3, len(owned[0]) // 3) + bonus, "sets_traded": 0,
           "territories": {names[t]: territories[t] for t in range(len(names))},
           "hands": [[] for _ in range(players)], "discard": []}
    if rules.objective == "mission":
        table = [int(m) for m in board.mission_table(rules.mission_deck, players)]
        plain = [m for m in table if board.arrays.missions[m, MT_KIND] != MK_DESTROY] or table
        pos["missions"] = [board.mission_name(plain[s % len(plain)], s) for s in range(players)]
    if rules.objective == "capital":
        pos["capitals"] = [names[owned[s][0]] for s in range(players)]
        pos["aside"] = list(pos["capitals"])
    return pos


# ------------------------------------------------------------------ reading
def _int(pos: dict, key: str, default=None, low: int = 0, high: int = MAX_NUMBER):
    value = pos.get(key, default)
    if value is None:
        _bad(f"{key!r} is required")
    return _number(value, key, low, high)


def _number(value, where: str, low: int = 0, high: int = MAX_NUMBER) -> int:
    """``value`` as an int if it is a whole number (not a bool) from ``low`` to ``high``; else a one-line error."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        _bad(f"{where} must be an integer, got {_short(value)}")
    if not low <= value <= high:
        _bad(f"{where} must be from {low} to {high}, got {_short(value)}")
    return int(value)


def _numbers(value, where: str, length: int, low: int = 0, high: int = MAX_NUMBER, what: str = "") -> list[int]:
    """A list of ``length`` numbers, each checked by `_number`."""
    if not (isinstance(value, list) and len(value) == length):
        _bad(f"{where} must list {length} {what or 'integers'}, got {_short(value)}")
    return [_number(v, f"{where}[{i}]", low, high) for i, v in enumerate(value)]


def _short(value) -> str:
    """A value as an error message shows it (cut to one short line)."""
    text = repr(value).replace("\n", " ")
    return text if len(text) <= 60 else text[:57] + "..."


def _board(value, board: Board | None) -> Board:
    if board is not None:
        if not isinstance(board, Board):
            raise RiskstatsError(f"board must be a Board, got {board!r}")
        if value not in (None, board.name):
            _bad(f"board {_short(value)} is not the board given ({board.name!r})")
        return board
    if value in (None, "classic"):
        return classic_board()
    if isinstance(value, dict):
        return board_from_dict(value, "in the position")
    if isinstance(value, str) and value.endswith(".json"):
        return load_board(value)
    _bad(f"unknown board {_short(value)}: use \"classic\", a board file's path, a board object, or pass board=")


def _rules(value) -> GameRules:
    if value is None:
        return None
    if isinstance(value, str):
        value = {"variant": value}
    if not isinstance(value, dict):
        _bad(f"rules must be an object of GameRules options or a variant name, got {_short(value)}")
    try:
        return GameRules.from_dict(value)
    except TypeError as error:
        _bad(f"rules: {error}")
    except RiskstatsError as error:
        _bad(f"rules: {error}")


class _Cards:
    """Card names -> indices: territory names and "wild" (the wilds in turn); each card used once."""

    def __init__(self, board: Board):
        self.board = board
        self.by_territory = {board.territories[t]: c for c, t in enumerate(board.arrays.card_territory) if t >= 0}
        self.wilds = [c for c, t in enumerate(board.arrays.card_territory) if t < 0]
        self.used: dict[int, str] = {}

    def take(self, name, where: str) -> int:
        if not isinstance(name, str):
            _bad(f"{where}: a card is a territory's name or \"wild\", got {name!r}")
        if name == WILD_NAME:
            free = [c for c in self.wilds if c not in self.used]
            if not free:
                _bad(f"{where}: more wild cards than the board's {len(self.wilds)}")
            c = free[0]
        elif name.startswith(WILD_NAME + " "):
            k = name[len(WILD_NAME) + 1:]
            if not (k.isdigit() and 1 <= int(k) <= len(self.wilds)):
                _bad(f"{where}: unknown card {name!r} (the board has wilds 1 to {len(self.wilds)})")
            c = self.wilds[int(k) - 1]
            if c in self.used:
                _bad(f"card {name!r} is listed twice ({self.used[c]} and {where})")
        elif self.board.aliases.get(name, name) in self.by_territory:
            name = self.board.aliases.get(name, name)
            c = self.by_territory[name]
            if c in self.used:
                _bad(f"card {name!r} is listed twice ({self.used[c]} and {where})")
        else:
            hint = ""
            if isinstance(name, str):
                try:
                    self.board.territory_name(name)
                except RiskstatsError as error:
                    hint = str(error).partition(";")[2]
            _bad(f"{where}: unknown card {name!r} (a territory's name, \"wild\" or \"wild 1\", \"wild 2\", ...)"
                 + (f";{hint}" if hint else ""))
        self.used[c] = where
        return c


def _card_list(pos, key, cards: _Cards, where: str | None = None):
    value = pos.get(key, [])
    if not isinstance(value, list):
        _bad(f"{where or key} must be a list of cards, got {_short(value)}")
    return [cards.take(name, where or key) for name in value]


def game_from_position(pos, board: Board | None = None):
    """The parts of a game at a position (a dict, or JSON text): (rules, board, players, seed, state), which
    `riskstats.game.play.Game.from_json` makes a `Game` of; raises `RiskstatsError` naming the first
    problem of an invalid position. It reads the position family by family, in this order: the header, the
    territories, who moves, missions and capitals, the cards, the setup armies, the engine's fields and the
    random stream."""
    if isinstance(pos, (str, bytes)):
        try:
            pos = json.loads(pos)
        except json.JSONDecodeError as error:
            _bad(f"not JSON ({error})")
    if not isinstance(pos, dict):
        _bad("a position is a JSON object")
    unknown = sorted(set(pos) - set(_TOP))
    if unknown:
        _bad(f"unknown key {unknown[0]!r} (keys: {', '.join(_TOP)})")
    if pos.get("format", FORMAT) != FORMAT:
        _bad(f"format must be {FORMAT!r}, got {_short(pos['format'])}")
    board = _board(pos.get("board"), board)
    players = _int(pos, "players", None, 2, 6)
    rules = _rules(pos.get("rules")) or default_rules(players)
    players = rules.check_players(players, board)
    seed = _int(pos, "seed", 0, 0, 2**64 - 1)

    game = _Parts(rules, board, players)
    st = _new_state(board.n_territories, board.n_cards, rules.seats(players), 4096)
    phase_name = pos.get("phase")
    if phase_name not in PHASES:
        _bad(f"phase must be one of {', '.join(PHASES)}, got {_short(phase_name)}")
    phase = PHASES.index(phase_name)
    st.info[I_PHASE] = phase

    _read_territories(pos, game, st, phase)
    player = _read_turn(pos, game, st, phase)
    _missions(pos, game, st, players)
    _capitals(pos, game, st, players, phase)
    deck_given, shuffle = _read_cards(pos, game, st, phase)
    _read_setup_armies(pos, game, st, phase)
    _capital_cards(game, st, players, phase, deck_given)
    _read_engine(pos, game, st, phase, player)
    _read_stream(pos, st, seed, shuffle)
    return rules, board, players, seed, st


def _is_setup(phase: int) -> bool:
    return phase in (CLAIM, SETUP_PLACE, CAPITAL)


def _read_territories(pos, game, st, phase):
    """Each territory's owner and armies, each seat's territory count, who is in play and who is out."""
    board, rules, players = game.board, game.rules, game.players
    S = rules.seats(players)
    terr = pos.get("territories")
    if not isinstance(terr, dict):
        _bad("territories must be an object: territory name -> [owner seat, armies]")
    given = {}
    for name, value in terr.items():
        name = _territory_name(board, name, "")
        if name in given:
            _bad(f"territory {name!r} is given twice (as {given[name]!r} and {value!r})")
        given[name] = value
        if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                                                     for v in value)):
            _bad(f"territory {name!r}: give [owner seat, armies], got {_short(value)}")
        owner, armies = value
        t = board.territories.index(name)
        if not -1 <= owner < S:
            neutral = f" ({players}: the neutral)" if rules.has_neutral else ""
            unclaimed = ", or -1 while unclaimed" if phase == CLAIM else ""
            _bad(f"territory {name!r}: owner must be a seat from 0 to {S - 1}{neutral}{unclaimed}, got {_short(owner)}")
        if armies > MAX_ARMIES:
            _bad(f"territory {name!r}: at most {MAX_ARMIES:,} armies, got {armies:,}")
        if owner == -1 and (phase != CLAIM or armies != 0):
            _bad(f"territory {name!r} has no owner (only unclaimed territories in the claim phase, with 0 armies)")
        if owner >= 0 and armies < 1:
            _bad(f"territory {name!r}: an owned territory holds at least 1 army, got {armies}")
        st.owner[t], st.armies[t] = owner, armies
    missing = [n for n in board.territories if n not in given]
    if missing:
        _bad(f"territory {missing[0]!r} is missing ({len(missing)} missing in all)")
    for s in range(S):
        st.n_terr[s] = int((st.owner == s).sum())
    out = pos.get("out")
    if out is not None:
        if not (isinstance(out, list) and len(out) == S
                and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= S for x in out)):
            _bad(f"out must list, for each of the {S} seats, 0 (in play) or its elimination order 1, 2, ...")
        st.out[:] = out
    for s in range(S):
        st.alive[s] = 1 if st.n_terr[s] > 0 or (_is_setup(phase) and phase == CLAIM) else 0
        if out is not None and (st.out[s] > 0) == bool(st.alive[s]):
            _bad(f"seat {s} is {'out' if st.out[s] else 'in play'} in 'out' but owns {st.n_terr[s]} territories")
    if out is None:
        dead = [s for s in range(S) if not st.alive[s]]
        for k, s in enumerate(dead):
            st.out[s] = k + 1


def _read_turn(pos, game, st, phase) -> int:
    """Who moves, the turn and round, the reserve and the sets traded; returns the player to move."""
    rules, players = game.rules, game.players
    info = st.info
    setup = _is_setup(phase)
    player = _int(pos, "player", None, 0, rules.seats(players) - 1)
    info[I_PLAYER] = player
    if player >= players:
        _bad(f"player must be a player's seat from 0 to {players - 1}, got {player}")
    if phase != OVER and not setup and not st.alive[player]:
        _bad(f"player {player} is to move but owns no territory")
    info[I_TURN] = _int(pos, "turn", 0 if setup else None, 0, 10_000_000)
    info[I_ROUND] = _int(pos, "round", 0 if setup else None, 0, 10_000_000)
    if not setup and phase != OVER and info[I_TURN] < 1:
        _bad(f"turn must be at least 1 in phase {PHASES[phase]!r}")
    if info[I_TURN] > rules.max_turns:
        _bad(f"turn {info[I_TURN]} is past the rules' max_turns ({rules.max_turns})")
    info[I_RESERVE] = _int(pos, "reserve", 0, 0, 1_000_000)
    if phase == REINFORCE and info[I_RESERVE] == 0:
        _bad("phase 'reinforce' needs a reserve of at least 1 army to place")
    info[I_SETS_TRADED] = _int(pos, "sets_traded", 0, 0, 10_000)
    return player


def _read_cards(pos, game, st, phase) -> tuple[bool, bool]:
    """The hands, the discards, the cards set aside and the draw pile; returns (whether the pile's order is
    given, whether it is to be shuffled)."""
    board, players = game.board, game.players
    info = st.info
    C = board.n_cards
    cards = _Cards(board)
    aside_anyway = _revealed_capital_cards(game, st, players, phase)
    hands = pos.get("hands", [[] for _ in range(players)])
    if not (isinstance(hands, list) and len(hands) == players):
        _bad(f"hands must be a list of {players} lists of cards, one per player")
    for s, hand in enumerate(hands):
        for c in _card_list({"h": hand}, "h", cards, f"hand {s}"):
            st.card_owner[c] = s
        if hand and not st.alive[s]:
            _bad(f"seat {s} is out but holds cards")
    for key, where in (("discard", DISCARD), ("aside", ASIDE)):
        for c in _card_list(pos, key, cards):
            st.card_owner[c] = where
    deck_given = "deck" in pos and pos["deck"] is not None
    given = _card_list(pos, "deck", cards) if deck_given else None
    for c in sorted(aside_anyway - set(cards.used)):  # a revealed capital's card listed nowhere: set aside
        st.card_owner[c] = ASIDE
        cards.used[c] = "aside"
    if deck_given:
        pile = given
        left = [c for c in range(C) if c not in cards.used]
        if left:
            _bad(f"the deck is given but card {card_label(board, left[0])!r} is nowhere (hands, discard, aside, deck)")
    else:
        pile = [c for c in range(C) if c not in cards.used]
    st.deck[:len(pile)] = pile
    info[I_DECK_N] = len(pile)
    for c in st.deck[:info[I_DECK_N]]:
        st.card_owner[c] = DECK
    # the rest of the deck array: the cards out of the pile, in any order (the engine refills it on a reshuffle)
    st.deck[info[I_DECK_N]:] = [c for c in range(C) if st.card_owner[c] != DECK]
    return deck_given, not deck_given


def _read_setup_armies(pos, game, st, phase):
    """The armies each seat still has to place (needed while setting up, except when picking capitals)."""
    S = game.rules.seats(game.players)
    setup_armies = pos.get("setup_armies")
    if setup_armies is None:
        if _is_setup(phase) and phase != CAPITAL:
            _bad(f"phase {PHASES[phase]!r} needs setup_armies: the armies each seat still has to place")
    else:
        if not (isinstance(setup_armies, list) and len(setup_armies) == S
                and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= MAX_ARMIES
                        for x in setup_armies)):
            _bad(f"setup_armies must list {S} counts (0 to {MAX_ARMIES:,}), one per seat")
        st.to_place[:] = setup_armies


def _read_engine(pos, game, st, phase, player):
    """The engine's bookkeeping: defaults for a hand-written position, then what the position gives (its
    ``engine`` fields, the pending attack, the occupation, the winner)."""
    board, rules, players = game.board, game.rules, game.players
    S = rules.seats(players)
    info = st.info
    info[I_WINNER] = -1
    info[I_OCC_FROM] = info[I_OCC_TO] = -1
    info[I_AFTER_PLACE] = ATTACK
    info[I_START_HAND] = int((st.card_owner == player).sum())
    info[I_PLACE_FOR] = -1
    if phase == SETUP_PLACE:
        info[I_PLACE_FOR] = player
        info[I_QUOTA] = min(2 if rules.has_neutral else 1, int(st.to_place[player]))
    engine = pos.get("engine", {})
    if not isinstance(engine, dict):
        _bad("engine must be an object of engine fields")
    for key, value in engine.items():
        if key not in INFO or INFO.index(key) in _WRITTEN:
            allowed = [INFO[i] for i in range(len(INFO)) if i not in _WRITTEN]
            _bad(f"unknown engine field {key!r} (fields: {', '.join(allowed)})")
        low, high = _engine_range(INFO.index(key), len(board.territories), S)
        info[INFO.index(key)] = _number(value, f"engine field {key!r}", low, high)
    if phase == DEFEND:
        _pending(pos, board, st, rules, players)
    if phase == OCCUPY:
        occ = pos.get("occupy")
        if not (isinstance(occ, list) and len(occ) == 2):
            _bad("phase 'occupy' needs occupy: [from territory, conquered territory]")
        a, b = (_territory(board, x, "occupy") for x in occ)
        if st.owner[a] != player or st.owner[b] != player or not board.arrays.adjacency[a, b]:
            _bad("occupy: both territories must be the player's and adjacent")
        info[I_OCC_FROM], info[I_OCC_TO] = a, b
    if phase == OVER and info[I_WINNER] < 0 and "winner" not in engine:
        alive = [s for s in range(players) if st.alive[s]]
        info[I_WINNER] = alive[0] if len(alive) == 1 else -1


def _read_stream(pos, st, seed, shuffle):
    """The random stream: seeded from ``seed`` (shuffling a draw pile whose order is not given), or the state
    the position gives."""
    from riskstats.game.rules.stream import _seed, _shuffle

    _seed(st.rng, np.uint64(seed))
    if shuffle and st.info[I_DECK_N] > 1:
        _shuffle(st.rng, st.deck, st.info[I_DECK_N])
    if pos.get("rng") is not None:
        try:
            value = int(pos["rng"])
        except (TypeError, ValueError, OverflowError):
            _bad(f"rng must be the random stream's state as a decimal string, got {_short(pos['rng'])}")
        if not 0 < value < 2**64:
            _bad(f"rng must be from 1 to 2**64 - 1, got {value}")
        st.rng[0] = np.uint64(value)


def _engine_range(field: int, T: int, S: int) -> tuple[int, int]:
    """The values an engine field may take: a territory (or -1), a seat (or -1), a phase, a reason, a flag, or
    a count from 0 to `MAX_NUMBER`."""
    if field in (I_OCC_FROM, I_OCC_TO, I_ATK_FROM, I_ATK_TO):
        return -1, T - 1
    if field in (I_WINNER, I_PLACE_FOR):
        return -1, S - 1
    if field == I_AFTER_PLACE:
        return 0, len(PHASES) - 1
    if field == I_REASON:
        return 0, len(REASONS) - 1
    if field in (I_BONUS_GIVEN, I_ELIM_PENDING):
        return 0, 1
    return 0, MAX_NUMBER


class _Parts:
    """What the checks of a position's parts need to know of its game."""

    def __init__(self, rules, board, players):
        self.rules, self.board, self.players = rules, board, players


def _territory_name(board: Board, name, where: str) -> str:
    """The board's name of a territory given by name or alias (``name_aliases``); unknown: an error
    suggesting the closest real name."""
    if not isinstance(name, str):
        _bad(f"{where or 'territories'}: a territory is given by its name, got {_short(name)}")
    try:
        return board.territory_name(name, "" if where else f"on board {board.name!r}")
    except RiskstatsError as error:
        _bad(f"{where}: {error}" if where else str(error))


def _territory(board: Board, name, where: str) -> int:
    return board.territories.index(_territory_name(board, name, where))


def _pending(pos, board, st, rules, players):
    info = st.info
    pending = pos.get("pending_attack")
    if not (isinstance(pending, list) and len(pending) == 3):
        _bad("phase 'defend' needs pending_attack: [from territory, to territory, attacker dice]")
    a, b = (_territory(board, x, "pending_attack") for x in pending[:2])
    dice = pending[2]
    attacker = int(st.owner[a])
    if not board.arrays.adjacency[a, b] or st.owner[b] == attacker or attacker < 0:
        _bad("pending_attack: the attack must go from an owned territory to an adjacent enemy one")
    from riskstats.game.rules.legal import _attack_dice, _defending_seat

    R = rules.vector(players, board)
    if not (isinstance(dice, int) and 1 <= dice <= _attack_dice(st, R, a)):
        _bad(f"pending_attack: attacker dice must be from 1 to the armies able to roll, got {_short(dice)}")
    seat = int(_defending_seat(R, int(st.owner[b]), attacker))
    if info[I_PLAYER] != seat:
        _bad(f"phase 'defend': player must be the defending seat {seat}, got {info[I_PLAYER]}")
    info[I_ATK_FROM], info[I_ATK_TO], info[I_ATK_DICE] = a, b, dice


def _missions(pos, game, st, players):
    board = game.board
    missions = pos.get("missions")
    if game.rules.objective != "mission":
        if missions or pos.get("mission_rows"):
            _bad(f"missions are only for the mission variant, not {game.rules.variant!r}")
        return
    if not (isinstance(missions, list) and len(missions) == players):
        _bad(f"the mission variant needs missions: one mission name per player ({players})")
    table = board.mission_table(game.rules.mission_deck, players)
    used = set()
    for s, name in enumerate(missions):
        found = [int(m) for m in table if board.mission_name(int(m), s) == name and int(m) not in used]
        if not found:
            names = sorted({board.mission_name(int(m), s) for m in table})
            _bad(f"seat {s}: unknown or repeated mission {_short(name)} (missions: {', '.join(names)})")
        m = found[0]
        used.add(m)
        kind, c1, c2, third, count, least, target, _ = board.arrays.missions[m]
        row = [m, kind, c1, c2, third, count, least, target]
        if kind == MK_DESTROY and target == s:
            row[M_KIND], row[M_TARGET] = MK_TERRITORIES, -1
        st.mission[s] = row
    rows = pos.get("mission_rows")
    if rows is not None:
        if not (isinstance(rows, list) and len(rows) == players
                and all(isinstance(r, list) and len(r) == N_MISSION
                        and all(isinstance(x, int) and not isinstance(x, bool) and -1 <= x <= 10**6 for x in r)
                        for r in rows)):
            _bad(f"mission_rows must be {players} rows of {N_MISSION} integers")
        for s, row in enumerate(rows):
            row = _numbers(row, f"mission_rows[{s}]", N_MISSION, -1)
            if row[M_CARD] != st.mission[s, M_CARD] or not 0 <= row[M_KIND] < len(MISSION_KINDS) \
                    or (row[M_KIND] == MK_DESTROY and not 0 <= row[M_TARGET] < players):
                _bad(f"mission_rows: seat {s}'s row does not match its mission {_short(missions[s])}")
            st.mission[s] = row


def _capitals(pos, game, st, players, phase):
    caps = pos.get("capitals")
    if game.rules.objective != "capital":
        if caps:
            _bad(f"capitals are only for the capital variant, not {game.rules.variant!r}")
        return
    if caps is None:
        if phase in (CLAIM, SETUP_PLACE, CAPITAL):
            return
        _bad("the capital variant needs capitals: one territory name per player")
    if not (isinstance(caps, list) and len(caps) == players):
        _bad(f"capitals must list one territory (or null before it is picked) per player ({players})")
    for s, name in enumerate(caps):
        if name is None:
            if phase not in (CLAIM, SETUP_PLACE, CAPITAL):
                _bad(f"seat {s} has no capital after the capital phase")
            continue
        t = _territory(game.board, name, f"seat {s}'s capital")
        shared = [q for q in range(s) if st.capital[q] == t]
        if shared:
            _bad(f"seats {shared[0]} and {s} share the capital {name!r}: each seat has its own")
        st.capital[s] = t
        if phase == CAPITAL and s >= st.info[I_PLAYER]:
            _bad(f"seat {s} cannot have picked its capital before seat {st.info[I_PLAYER]}'s turn to pick")
        if phase in (CLAIM, SETUP_PLACE, CAPITAL) and st.owner[t] != s:
            _bad(f"seat {s}'s capital {name!r} is not its own territory")


def _revealed(game, phase) -> bool:
    """Whether every capital is picked and their cards are set aside (Capital Risk after the capital phase)."""
    return game.rules.objective == "capital" and phase not in (CLAIM, SETUP_PLACE, CAPITAL)


def _revealed_capital_cards(game, st, players, phase) -> set:
    """The cards of the capitals once they are revealed (set aside, whether ``aside`` lists them or not)."""
    if not _revealed(game, phase):
        return set()
    capitals = {int(st.capital[s]) for s in range(players) if st.capital[s] >= 0}
    return {c for c, t in enumerate(game.board.arrays.card_territory.tolist()) if t in capitals}


def _capital_cards(game, st, players, phase, deck_given):
    """Capital cards never go into sets (docs/rules.md): once every capital is picked, each capital's card is set
    aside for good. One in a hand, the discard pile or a given deck is refused; one left in the draw pile
    made of the cards listed nowhere (``aside`` left out) is set aside. No other card may be set aside."""
    board, info = game.board, st.info
    card_territory = board.arrays.card_territory
    revealed = _revealed(game, phase)
    capital_of = {int(st.capital[s]): s for s in range(players) if revealed and st.capital[s] >= 0}
    pile = set(st.deck[:info[I_DECK_N]].tolist())
    for c, t in enumerate(card_territory.tolist()):
        where, label = int(st.card_owner[c]), card_label(board, c)
        if t in capital_of:
            place = {DISCARD: "the discard pile", DECK: "the deck"}.get(where, f"hand {where}")
            if where >= 0 or where == DISCARD or (deck_given and c in pile):
                _bad(f"card {label!r} is seat {capital_of[t]}'s capital card: it is set aside for good (never "
                     f"in a set), not in {place}")
            st.card_owner[c] = ASIDE
        elif where == ASIDE:
            if game.rules.objective != "capital":
                _bad(f"aside: only Capital Risk sets cards aside (its capital cards), got {label!r}")
            if not revealed:
                _bad(f"aside: the capital cards are set aside once every capital is picked, not in phase "
                     f"{PHASES[phase]!r} (got {label!r})")
            _bad(f"aside: card {label!r} is no seat's capital card (only capital cards are set aside)")
    pile = [int(c) for c in st.deck[:info[I_DECK_N]] if st.card_owner[c] == DECK]
    st.deck[:len(pile)] = pile
    st.deck[len(pile):] = [c for c in range(len(card_territory)) if st.card_owner[c] != DECK]
    info[I_DECK_N] = len(pile)

