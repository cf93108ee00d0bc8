"""A Risk board: territories, borders, continents and the card deck, loaded from JSON and validated.

This module owns the board file format and `Board`, the integer-indexed arrays the game kernels read.
It does not own the rules of play (`riskstats.game.rules.options`) or the game state (`riskstats.game.rules.state`).

Board file schema (``riskstats-board/1``; the classic board ships as ``riskstats/game/data/classic.json``)::

    {
      "schema": "riskstats-board/1",          # optional; checked when present
      "name": "classic",                      # free text
      "continents": {                         # every territory in exactly one continent
        "Australia": {"bonus": 2, "territories": ["Indonesia", "New Guinea", ...]},
        ...
      },
      "adjacency": {                          # every territory, its neighbours (sea lines included);
        "Alaska": ["Northwest Territory", "Alberta", "Kamchatka"],   # each border listed from both
        ...                                                          # sides; the graph is connected
      },
      "cards": {"Alaska": "infantry", ...},   # one card per territory: infantry|cavalry|artillery
      "wilds": 2,                             # wild cards (all three symbols, no territory)
      "starting_armies": {"3": 35, ...},      # optional: armies per player by player count
      "neutral_armies": 40,                   # optional: the two-player neutral's armies
      "missions": [                           # optional: Secret Mission cards
        {"type": "continents", "continents": ["Asia", "Africa"]},
        {"type": "continents", "continents": ["Europe", "Australia"], "plus_any_other_continent": 1,
         "european_only": true},              # only in the 14-card European deck
        {"type": "territories", "count": 18, "min_armies_each": 2},
        {"type": "destroy", "colour": "blue",
         "fallback_if_self": {"type": "territories", "count": 24, "min_armies_each": 1}}, ...
      ],
      "name_aliases": {                       # optional: other names of a territory or continent,
        "Central America": ["Mexico"], ...    # accepted wherever a position or a parameter names one
      }
    }

Territories are numbered in the order the continents list them (continent by continent), continents
in file order, cards territory cards first (card i shows territory i) then the wilds. The player colours
are the "destroy" cards' colours in file order; seat s plays colour s.

>>> board = classic_board()
>>> board.n_territories, board.n_borders, board.n_cards
(42, 83, 44)
>>> board.territory_index("Kamchatka") in board.neighbours(board.territory_index("Alaska"))
True
"""
from __future__ import annotations

import difflib
import json
from collections import namedtuple
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from riskstats.errors import RiskstatsError

SYMBOLS = ("infantry", "cavalry", "artillery", "wild")
"""Card symbols; a card's symbol is stored as its index here (wild = 3)."""
WILD = 3
DEFAULT_STARTING_ARMIES = {2: 40, 3: 35, 4: 30, 5: 25, 6: 20}
DEFAULT_NEUTRAL_ARMIES = 40

BoardArrays = namedtuple("BoardArrays", "adjacency nbr_ptr nbr_idx continent_of continent_bonus "
                                        "continent_size card_territory card_symbol territory_card missions "
                                        "nbr_src nbr_rev continent_entrances")
"""What the kernels read of a board (T territories, K continents, C cards):

adjacency[T, T]      bool, symmetric, False on the diagonal
nbr_ptr[T + 1]       CSR: the neighbours of t are nbr_idx[nbr_ptr[t]:nbr_ptr[t + 1]]
nbr_idx[2 * borders]
continent_of[T]      continent index of each territory
continent_bonus[K]   armies for holding the whole continent
continent_size[K]    territories in each continent
card_territory[C]    territory shown on each card, -1 for a wild
card_symbol[C]       0 infantry, 1 cavalry, 2 artillery, 3 wild
territory_card[T]    the card showing each territory
missions[M, 8]       the mission cards, one row each: kind (0 continents, 1 territories, 2 destroy), c1, c2,
                     third (1: and any third continent), count, min_armies (for destroy: the fallback's),
                     target colour (= seat) of a destroy card, european_only (1: only in the 14-card deck)
nbr_src[2 * borders] the territory each neighbour entry (a directed border, "edge") starts from:
                     edge e goes from nbr_src[e] to nbr_idx[e], in the order from ascending, then neighbours
nbr_rev[2 * borders] the edge back: nbr_rev[e] goes from nbr_idx[e] to nbr_src[e]
continent_entrances[K] territories of each continent with a neighbour in another continent
"""
MISSION_TYPES = ("continents", "territories", "destroy")
MISSION_TABLE = ("kind", "c1", "c2", "third", "count", "min_armies", "target", "european_only")
"""The columns of the board's mission table (`BoardArrays.missions`), as its docstring describes them; the
state's copy of a dealt mission (`riskstats.game.rules.state.MISSION_COLS`) has a layout of its own."""
(MT_KIND, MT_C1, MT_C2, MT_THIRD, MT_COUNT, MT_MIN, MT_TARGET, MT_EUROPEAN) = range(len(MISSION_TABLE))


@dataclass(frozen=True, eq=False)
class Board:
    """A validated board: names plus the integer arrays of `BoardArrays` (see the module docstring)."""

    name: str
    territories: tuple[str, ...]
    continents: tuple[str, ...]
    arrays: BoardArrays
    starting_armies: dict = field(default_factory=lambda: dict(DEFAULT_STARTING_ARMIES))
    neutral_armies: int = DEFAULT_NEUTRAL_ARMIES
    missions: tuple = ()
    colours: tuple = ()
    aliases: dict = field(default_factory=dict)
    """Other names (the board file's ``name_aliases``): alias -> the territory's or continent's name."""

    @property
    def n_territories(self) -> int:
        return len(self.territories)

    @property
    def n_continents(self) -> int:
        return len(self.continents)

    @property
    def n_cards(self) -> int:
        return len(self.arrays.card_symbol)

    @property
    def n_borders(self) -> int:
        return int(self.arrays.adjacency.sum()) // 2

    def territory_index(self, name) -> int:
        """The index of a territory given by name (or already an index)."""
        if isinstance(name, (int, np.integer)):
            if not 0 <= name < self.n_territories:
                raise RiskstatsError(f"territory index must be from 0 to {self.n_territories - 1}, got {name}")
            return int(name)
        return self.territories.index(self.territory_name(name, f"on board {self.name!r}"))

    def territory_name(self, name, where: str = "") -> str:
        """A territory's name as the board spells it, from that name or one of its aliases
        (``name_aliases``); an unknown name is a `RiskstatsError` suggesting the closest real one.

        >>> board = classic_board()
        >>> board.territory_name("Mexico"), board.territory_name("Russia")
        ('Central America', 'Ukraine')
        >>> board.territory_name("Kamchatca")
        Traceback (most recent call last):
        ...
        riskstats.errors.RiskstatsError: unknown territory 'Kamchatca'; did you mean 'Kamchatka'?
        """
        return self._name(name, self.territories, "territory", where)

    def continent_name(self, name, where: str = "") -> str:
        """A continent's name as the board spells it, from that name or an alias (``"Oceania"``); an
        unknown one is a `RiskstatsError` suggesting the closest real one."""
        return self._name(name, self.continents, "continent", where)

    def _name(self, name, names: tuple, what: str, where: str) -> str:
        if name in names:
            return name
        real = self.aliases.get(name)
        if real in names:
            return real
        where = f" {where}" if where else ""
        if not isinstance(name, str):
            raise RiskstatsError(f"a {what} is given by its name, got {name!r}{where}")
        folded = {n.casefold(): n for n in (*names, *(a for a, r in self.aliases.items() if r in names))}
        close = difflib.get_close_matches(name.casefold(), folded, n=1, cutoff=0.6)
        hint = ""
        if close:
            found = folded[close[0]]
            hint = f"; did you mean {self.aliases.get(found, found)!r}?"
        raise RiskstatsError(f"unknown {what} {name!r}{where}{hint}")

    def continent_territories(self, k: int) -> np.ndarray:
        """The territories of continent number ``k``, in index order."""
        return np.flatnonzero(self.arrays.continent_of == k)

    def neighbours(self, t: int) -> list[int]:
        a = self.arrays
        return a.nbr_idx[a.nbr_ptr[t]:a.nbr_ptr[t + 1]].tolist()

    def mission_table(self, deck: str, players: int) -> np.ndarray:
        """The indices of the mission cards dealt from: the deck ("standard" or "european") without the
        cards naming a colour not in play; raises if fewer cards than players remain."""
        m = self.arrays.missions
        keep = (m[:, MT_EUROPEAN] == 0) | (deck == "european")
        keep &= (m[:, MT_KIND] != MISSION_TYPES.index("destroy")) | (m[:, MT_TARGET] < players)
        if keep.sum() < players:
            raise RiskstatsError(f"board {self.name!r} has {int(keep.sum())} {deck} mission cards for "
                                 f"{players} players")
        return np.flatnonzero(keep)

    def mission_name(self, card: int, seat: int = -1) -> str:
        """A mission card's short name; a seat dealt its own colour's "destroy" card gets the fallback."""
        kind, c1, c2, third, count, least, target, _ = self.arrays.missions[card]
        kind = MISSION_TYPES[kind]
        if kind == "continents":
            return "+".join([self.continents[c1], self.continents[c2]] + (["any"] if third else []))
        if kind == "destroy" and target != seat:
            return f"destroy {self.colours[target]}"
        name = f"{count} territories" + (f" x{least}" if least > 1 else "")
        return name + (" (own colour)" if kind == "destroy" else "")


def _fail(source: str, message: str):
    raise RiskstatsError(f"invalid board {source}: {message}")


def board_from_dict(data: dict, source: str = "<dict>") -> Board:
    """Validate a board given as a dict in the schema of the module docstring."""
    if not isinstance(data, dict):
        _fail(source, "the file must hold a JSON object")
    if data.get("schema", "riskstats-board/1") != "riskstats-board/1":
        _fail(source, f"unknown schema {data['schema']!r} (expected 'riskstats-board/1')")
    for key in ("continents", "adjacency", "cards"):
        if not isinstance(data.get(key), dict) or not data[key]:
            _fail(source, f"missing or empty {key!r} object")
    territories, continent_of, bonuses, names = [], {}, [], []
    for k, (continent, spec) in enumerate(data["continents"].items()):
        if not isinstance(spec, dict) or "territories" not in spec or "bonus" not in spec:
            _fail(source, f"continent {continent!r} needs 'bonus' and 'territories'")
        bonus = spec["bonus"]
        if isinstance(bonus, bool) or not isinstance(bonus, int) or bonus < 0:
            _fail(source, f"continent {continent!r} has bonus {bonus!r}; expected a whole number >= 0")
        if not spec["territories"]:
            _fail(source, f"continent {continent!r} has no territories")
        for t in spec["territories"]:
            if t in continent_of:
                _fail(source, f"territory {t!r} is in two continents: {names[continent_of[t]]!r} and {continent!r}")
            continent_of[t] = k
            territories.append(t)
        names.append(continent)
        bonuses.append(bonus)
    index = {t: i for i, t in enumerate(territories)}
    T = len(territories)
    adjacency = np.zeros((T, T), dtype=np.bool_)
    for t, nbrs in data["adjacency"].items():
        if t not in index:
            _fail(source, f"adjacency names territory {t!r}, which is in no continent")
        for u in nbrs:
            if u not in index:
                _fail(source, f"adjacency of {t!r} names unknown territory {u!r}")
            if u == t:
                _fail(source, f"territory {t!r} borders itself")
            adjacency[index[t], index[u]] = True
    missing = [t for t in territories if t not in data["adjacency"]]
    if missing:
        _fail(source, f"territory {missing[0]!r} has no adjacency entry")
    bad = np.argwhere(adjacency & ~adjacency.T)
    if len(bad):
        i, j = bad[0]
        _fail(source, f"asymmetric border: {territories[i]!r} lists {territories[j]!r} but not the reverse")
    seen = np.zeros(T, dtype=bool)
    stack = [0]
    seen[0] = True
    while stack:
        for u in np.flatnonzero(adjacency[stack.pop()]):
            if not seen[u]:
                seen[u] = True
                stack.append(u)
    if not seen.all():
        _fail(source, f"the map is not connected: {territories[int(np.flatnonzero(~seen)[0])]!r} "
                      f"cannot be reached from {territories[0]!r}")
    cards = data["cards"]
    for t, symbol in cards.items():
        if t not in index:
            _fail(source, f"card for unknown territory {t!r}")
        if symbol not in SYMBOLS[:3]:
            _fail(source, f"card {t!r} has symbol {symbol!r}; expected infantry, cavalry or artillery")
    no_card = [t for t in territories if t not in cards]
    if no_card:
        _fail(source, f"the deck has no card for territory {no_card[0]!r}")
    wilds = data.get("wilds", 0)
    if isinstance(wilds, bool) or not isinstance(wilds, int) or wilds < 0:
        _fail(source, f"wilds must be a whole number >= 0, got {wilds!r}")
    symbols = [SYMBOLS.index(cards[t]) for t in territories]
    if len(set(symbols)) < 3 and not wilds:
        _fail(source, "the deck needs all three symbols or some wilds, or no set could ever be traded")
    starting = data.get("starting_armies", DEFAULT_STARTING_ARMIES)
    try:
        starting = {int(k): int(v) for k, v in starting.items()}
    except (TypeError, ValueError, AttributeError):
        _fail(source, "starting_armies must map player counts to armies")
    for players, armies in starting.items():
        if players < 2 or armies < 1:
            _fail(source, f"starting_armies {players}: {armies} makes no sense")
    missions, colours = _missions(source, data.get("missions", ()), names)
    aliases = _aliases(source, data.get("name_aliases", {}), set(territories) | set(names))
    ptr = np.zeros(T + 1, dtype=np.int64)
    ptr[1:] = np.cumsum(adjacency.sum(axis=1))
    nbr_idx = np.concatenate([np.flatnonzero(row) for row in adjacency]).astype(np.int64)
    nbr_src = np.repeat(np.arange(T, dtype=np.int64), np.diff(ptr))
    edge = {(int(a), int(b)): e for e, (a, b) in enumerate(zip(nbr_src, nbr_idx))}
    continent_of_t = np.array([continent_of[t] for t in territories], dtype=np.int64)
    outside = continent_of_t[nbr_src] != continent_of_t[nbr_idx]
    arrays = BoardArrays(
        adjacency=adjacency,
        nbr_ptr=ptr,
        nbr_idx=nbr_idx,
        continent_of=continent_of_t,
        continent_bonus=np.array(bonuses, dtype=np.int64),
        continent_size=np.bincount([continent_of[t] for t in territories], minlength=len(names)).astype(np.int64),
        card_territory=np.array(list(range(T)) + [-1] * wilds, dtype=np.int64),
        card_symbol=np.array(symbols + [WILD] * wilds, dtype=np.int64),
        territory_card=np.arange(T, dtype=np.int64),
        missions=missions,
        nbr_src=nbr_src,
        nbr_rev=np.array([edge[b, a] for a, b in edge], dtype=np.int64).reshape(len(edge)),
        continent_entrances=np.bincount(continent_of_t[np.unique(nbr_src[outside])],
                                        minlength=len(names)).astype(np.int64),
    )
    for a in arrays:
        a.flags.writeable = False
    return Board(name=str(data.get("name", source)), territories=tuple(territories), continents=tuple(names),
                 arrays=arrays, starting_armies=starting,
                 neutral_armies=int(data.get("neutral_armies", DEFAULT_NEUTRAL_ARMIES)),
                 missions=tuple(data.get("missions", ())), colours=colours, aliases=aliases)


def _aliases(source: str, table, names: set) -> dict:
    """alias -> name, from the board file's ``name_aliases`` (name -> list of its other names)."""
    if not isinstance(table, dict):
        _fail(source, "name_aliases must map a territory or continent name to a list of other names")
    out = {}
    for name, others in table.items():
        if name not in names:
            _fail(source, f"name_aliases names {name!r}, which is no territory or continent")
        if not (isinstance(others, list) and all(isinstance(a, str) for a in others)):
            _fail(source, f"name_aliases of {name!r} must be a list of names")
        for alias in others:
            if alias in names or out.get(alias, name) != name:
                _fail(source, f"alias {alias!r} is already the name of another territory or continent")
            out[alias] = name
    return out


def _missions(source: str, cards, continents) -> tuple[np.ndarray, tuple]:
    """The mission table (`BoardArrays.missions`) and the colours, from the board file's mission cards."""
    if not isinstance(cards, (list, tuple)):
        _fail(source, "missions must be a list")
    colours = []
    for card in cards:
        if isinstance(card, dict) and card.get("type") == "destroy" and card.get("colour") not in colours:
            colours.append(card.get("colour"))
    rows = []
    for i, card in enumerate(cards):
        kind = card.get("type") if isinstance(card, dict) else None
        if kind not in MISSION_TYPES:
            _fail(source, f"mission {i} has type {kind!r}; expected one of {', '.join(MISSION_TYPES)}")
        row = [MISSION_TYPES.index(kind), -1, -1, 0, 0, 1, -1, int(bool(card.get("european_only", False)))]
        # in MISSION_TABLE's order: kind, c1, c2, third, count, min_armies, target, european_only
        try:
            if kind == "continents":
                c1, c2 = (continents.index(c) for c in card["continents"])
                row[MT_C1:MT_THIRD + 1] = c1, c2, int(card.get("plus_any_other_continent", 0))
            else:
                spec = card if kind == "territories" else card.get("fallback_if_self", {"count": 24})
                row[MT_COUNT:MT_MIN + 1] = int(spec["count"]), int(spec.get("min_armies_each", 1))
                if kind == "destroy":
                    row[MT_TARGET] = colours.index(card["colour"])
        except (KeyError, ValueError, TypeError):
            _fail(source, f"mission {i} ({card!r}) is malformed or names an unknown continent")
        rows.append(row)
    return np.array(rows, dtype=np.int64).reshape(len(rows), len(MISSION_TABLE)), tuple(colours)


def load_board(path) -> Board:
    """Load and validate a board file (JSON, schema in the module docstring)."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise RiskstatsError(f"board file {str(path)!r} not found") from None
    except json.JSONDecodeError as error:
        raise RiskstatsError(f"invalid board {str(path)!r}: not JSON ({error})") from None
    return board_from_dict(data, repr(str(path)))


@cache
def classic_board() -> Board:
    """The classic 42-territory board shipped as package data."""
    text = resources.files("riskstats.game").joinpath("data/classic.json").read_text()
    return board_from_dict(json.loads(text), "'classic'")
