"""The rule options of a full game (docs/rules.md), as one frozen config recorded with every game.

This module owns `GameRules`, its validation, the starting armies of a game, the card-set values and
the int64 vector the kernels read (`GameRules.vector`). It does not own the dice rule
(`riskstats.odds.dice`, carried here as ``dice``) or the game loop (`riskstats.game.rules.engine`).

Variants: ``"classic"`` (3-6 players on the classic board; win by owning every territory),
``"two-player"`` (two players and a 40-army neutral, or 50 armies each and no neutral with
``two_player_classic_50``; win by eliminating the opponent), ``"mission"`` (Secret Mission: win by
achieving your mission card at any moment of your own turn) and ``"capital"`` (Capital Risk: win by
holding every enemy capital, or ``capital_short``: 2 of them with 3-4 players, 3 with 5-6, while holding
your own). The rulebooks give Secret Mission and Capital for 3-5 players; 6 are allowed here too (the
classic board has six colours). In every variant a player left alone on the board wins
("all_territories").

>>> GameRules().set_values(8)
[4, 6, 8, 10, 12, 15, 20, 25]
>>> GameRules(escalation="fixed").fixed_values
(4, 6, 8, 10)

Rules come from outside in one way: `GameRules.from_dict` (positions, run records, experiment files, OpenSpiel's
parameters), with `RULE_OPTIONS`, the table of every option (name, type, default, allowed values, one line of
help, in OpenSpiel's parameter style), and `parse_rule` for a command line's ``key=value``. Variant names are
compared here alone: `variant_for` decides the two-player default, and `GameRules.objective` says what a game is
won by.

>>> GameRules.from_dict({"fortify": "adjacent", "dice": {"defender_dice": 3}}).dice.defender_dice
3
>>> parse_rule("fixed_values=4,6,8,12")
('fixed_values', (4, 6, 8, 12))
"""
from __future__ import annotations

from dataclasses import MISSING, asdict, dataclass, field, fields

import numpy as np

from riskstats.errors import RiskstatsError, check_int
from riskstats.odds.dice import DiceRules

VARIANTS = ("classic", "two-player", "mission", "capital")
V_CLASSIC, V_TWO_PLAYER, V_MISSION, V_CAPITAL = range(len(VARIANTS))
"""R[R_VARIANT]: the variant's index in VARIANTS."""
OBJECTIVES = ("territories", "mission", "capital")
OBJ_TERRITORIES, OBJ_MISSION, OBJ_CAPITAL = range(len(OBJECTIVES))
"""R[R_OBJECTIVE]: what a player wins by besides being left alone on the board; the engine reads this, never
the variant's place in VARIANTS."""
OBJECTIVE = {"classic": OBJ_TERRITORIES, "two-player": OBJ_TERRITORIES, "mission": OBJ_MISSION,
             "capital": OBJ_CAPITAL}
"""Each variant's objective: a new variant names its own here (a test holds the keys to VARIANTS)."""
MISSION_DECKS = ("standard", "european")
TARGET_LOST = ("achieved", "24_territories")
CAPITALS_SHORT = {3: 2, 4: 2, 5: 3, 6: 3}
"""Enemy capitals to hold in the short Capital game, by player count (docs/rules.md: 4 -> 2, 5 -> 3)."""
SETUPS = ("choice", "deal")
ESCALATIONS = ("progressive", "fixed", "none")
TERRITORY_BONUSES = ("per_turn", "per_set", "off")
FORTIFY = ("connected", "adjacent")
CARDS_PER_TURN = ("one", "per_conquest")
SETUP_CHOICE, SETUP_DEAL = range(len(SETUPS))
ESCALATION_PROGRESSIVE, ESCALATION_FIXED, ESCALATION_NONE = range(len(ESCALATIONS))
BONUS_PER_TURN, BONUS_PER_SET, BONUS_OFF = range(len(TERRITORY_BONUSES))
FORTIFY_CONNECTED, FORTIFY_ADJACENT = range(len(FORTIFY))
CARDS_ONE, CARDS_PER_CONQUEST = range(len(CARDS_PER_TURN))
DECK_STANDARD, DECK_EUROPEAN = range(len(MISSION_DECKS))
TARGET_ACHIEVED, TARGET_24_TERRITORIES = range(len(TARGET_LOST))
"""The kernels' names for each option's value: its index in the option's tuple, as `GameRules.vector` writes it.
A kernel compares an option's slot with these, never with a bare number."""
PROGRESSIVE = (4, 6, 8, 10, 12, 15)
"""The first progressive set values; then +5 each (20, 25, ...)."""

RULE_SLOTS = ("variant", "players", "neutral", "setup", "interleaved", "escalation", "bonus", "fortify",
              "max_turns", "adice", "ddice", "start", "neutral_armies", "forced", "elim_trade", "elim_keep",
              "fix_inf", "fix_cav", "fix_art", "fix_mix", "seats", "mission_deck", "target_lost",
              "capitals_needed", "cards_per_turn", "objective")
"""The slots of the rule vector the kernels read (`GameRules.vector`), in order: slot ``R_<NAME>`` is
``RULE_SLOTS.index(name)``, and ``R_SIZE`` is their number."""
(R_VARIANT, R_PLAYERS, R_NEUTRAL, R_SETUP, R_INTERLEAVED, R_ESCALATION, R_BONUS, R_FORTIFY,
 R_MAX_TURNS, R_ADICE, R_DDICE, R_START, R_NEUTRAL_ARMIES, R_FORCED, R_ELIM_TRADE, R_ELIM_KEEP,
 R_FIX_INF, R_FIX_CAV, R_FIX_ART, R_FIX_MIX, R_SEATS, R_MISSION_DECK, R_TARGET_LOST, R_CAPITALS_NEEDED,
 R_CARDS_PER_TURN, R_OBJECTIVE) = range(len(RULE_SLOTS))
R_SIZE = len(RULE_SLOTS)


@dataclass(frozen=True)
class GameRules:
    """Every rule option of a game (docs/rules.md lists each with its default).

    Parameters
    ----------
    variant : {"classic", "two-player", "mission", "capital"}
    setup : {"choice", "deal"} or None
        Claim territories by choice, or deal them at random. None: the variant's default (choice for
        classic and capital, deal for mission; the two-player game with a neutral always deals three piles).
    two_player_classic_50 : bool
        Two-player game with 50 armies each and no neutral (rulebook 001).
    neutral_interleaved : bool
        Two-player setup: one neutral army after each own placement (1993 rulebook) instead of all
        neutral armies after the players'.
    escalation : {"progressive", "fixed", "none"}
        Set values: 4, 6, 8, 10, 12, 15, 20, 25, ... counted over all players; fixed values per set
        type (``fixed_values``: three infantry, three cavalry, three artillery, one of each; a set with
        a wild is worth the best set it can stand for); or "none": every set is worth 4.
    territory_bonus : {"per_turn", "per_set", "off"}
        +2 armies on a traded card's territory you occupy: at most once per turn, once per set, or never.
    fortify : {"connected", "adjacent"}
    cards_per_turn : {"one", "per_conquest"}
        Cards drawn at the end of an attack phase: exactly one if at least one territory was conquered
        (docs/rules.md), or one per territory conquered (a house rule). An empty draw pile is refilled by
        shuffling the discards; once no card is left, no more are drawn. With progressive sets,
        "per_conquest" sends set values into the thousands: a turn can take tens of thousands of rolls,
        and a game may end at the compiled loop's move cap before ``max_turns`` (docs/event_log.md).
    max_turns : int
        Turn cap: a game still running after this many turns ends truncated, with no winner (reason
        "turn_cap"; one stopped by the move cap `riskstats.game.loop.MAX_MOVES` has reason "move_cap").
    forced_trade_at : int
        A player starting a turn with at least this many cards must trade a set (5).
    elimination_trade_at, elimination_keep : int
        After taking an eliminated player's cards, a player holding at least ``elimination_trade_at``
        (6) trades at once until holding ``elimination_keep`` (4) or fewer.
    dice : DiceRules
    mission_deck : {"standard", "european"}
        Secret Mission: the 12-card US deck, or the 14-card European deck (adds "Europe + Australia + any
        third continent" and "Europe + South America + any third continent").
    mission_target_lost : {"achieved", "24_territories"}
        Secret Mission: when another player eliminates your "destroy" target, your mission counts as
        achieved (US rule: you win at the start of your next turn, if the game is still on) or becomes
        "conquer 24 territories". Eliminating your target yourself always achieves it.
    capital_short : bool
        Capital Risk: win by holding `CAPITALS_SHORT` enemy capitals instead of all of them.
    """

    variant: str = "classic"
    setup: str | None = None
    two_player_classic_50: bool = False
    neutral_interleaved: bool = False
    escalation: str = "progressive"
    fixed_values: tuple = (4, 6, 8, 10)
    territory_bonus: str = "per_turn"
    fortify: str = "connected"
    cards_per_turn: str = "one"
    max_turns: int = 1000
    forced_trade_at: int = 5
    elimination_trade_at: int = 6
    elimination_keep: int = 4
    dice: DiceRules = field(default_factory=DiceRules)
    mission_deck: str = "standard"
    mission_target_lost: str = "achieved"
    capital_short: bool = False

    def __post_init__(self):
        for name, allowed in (("variant", VARIANTS), ("escalation", ESCALATIONS),
                              ("territory_bonus", TERRITORY_BONUSES), ("fortify", FORTIFY),
                              ("cards_per_turn", CARDS_PER_TURN),
                              ("mission_deck", MISSION_DECKS), ("mission_target_lost", TARGET_LOST)):
            if getattr(self, name) not in allowed:
                raise RiskstatsError(f"{name} must be one of {', '.join(allowed)}, got {getattr(self, name)!r}")
        for name in ("two_player_classic_50", "neutral_interleaved", "capital_short"):
            value = getattr(self, name)
            if not (isinstance(value, (bool, int, np.integer)) and value in (0, 1)):
                raise RiskstatsError(f"{name} must be true or false, got {value!r}")
        if self.capital_short and self.variant != "capital":
            raise RiskstatsError("capital_short needs variant='capital'")
        if self.setup is not None and self.setup not in SETUPS:
            raise RiskstatsError(f"setup must be one of {', '.join(SETUPS)}, got {self.setup!r}")
        if self.two_player_classic_50 and self.variant != "two-player":
            raise RiskstatsError("two_player_classic_50 needs variant='two-player'")
        if len(self.fixed_values) != 4:
            raise RiskstatsError("fixed_values needs 4 values: infantry, cavalry, artillery, one of each")
        for v in self.fixed_values:
            check_int("fixed set value", v, 0, 10_000)
        check_int("max_turns", self.max_turns, 1, 10_000_000)
        check_int("forced_trade_at", self.forced_trade_at, 3, 100)
        check_int("elimination_keep", self.elimination_keep, 2, 100)
        check_int("elimination_trade_at", self.elimination_trade_at, self.elimination_keep + 1, 100)
        if not isinstance(self.dice, DiceRules):
            raise RiskstatsError(f"dice must be a DiceRules, got {self.dice!r}")

    @classmethod
    def from_dict(cls, options: dict, **given) -> GameRules:
        """The rules of a dict of options: the inverse of `as_dict`, for JSON and TOML values (``dice`` a table
        of `riskstats.odds.dice.DiceRules` options, ``fixed_values`` a list). An unknown option name is an
        error naming the known ones; ``given``: options the caller sets itself, which the dict may not name."""
        if not isinstance(options, dict):
            raise RiskstatsError(f"rule options must be a table of options, got {options!r}")
        known = set(RULE_OPTIONS) - set(given)
        unknown = set(options) - known
        if unknown:
            raise RiskstatsError(f"unknown rule option {', '.join(sorted(unknown))}; known: {', '.join(sorted(known))}")
        values = dict(options)
        dice = values.get("dice")
        if isinstance(dice, dict):
            dice_known = {f.name for f in fields(DiceRules)}
            if set(dice) - dice_known:
                raise RiskstatsError(f"unknown dice option {', '.join(sorted(set(dice) - dice_known))}; "
                                     f"known: {', '.join(sorted(dice_known))}")
            values["dice"] = DiceRules(**dice)
        elif "dice" in values and not isinstance(dice, DiceRules):
            raise RiskstatsError(f"rule option dice must be a table of dice options, got {dice!r}")
        if "fixed_values" in values:
            if not isinstance(values["fixed_values"], (list, tuple)):
                raise RiskstatsError(f"fixed_values must be a list of 4 values, got {values['fixed_values']!r}")
            values["fixed_values"] = tuple(values["fixed_values"])
        return cls(**values, **given)

    @property
    def has_neutral(self) -> bool:
        return self.variant == "two-player" and not self.two_player_classic_50

    @property
    def objective(self) -> str:
        """What a game of these rules is won by besides being left alone (`OBJECTIVES`): "territories",
        "mission" or "capital". Callers ask this, not the variant's name."""
        return OBJECTIVES[OBJECTIVE[self.variant]]

    @property
    def players_needed(self) -> int | None:
        """The one player count these rules allow (2 for the two-player game), or None: the board decides."""
        return 2 if self.variant == "two-player" else None

    @property
    def setup_mode(self) -> str:
        if self.has_neutral:
            return "deal"
        return self.setup or ("deal" if self.variant == "mission" else "choice")

    def check_players(self, players: int, board) -> int:
        """Validate a player count for these rules and this board."""
        if self.players_needed is not None:
            if players != self.players_needed:
                raise RiskstatsError(f"the {self.variant} variant needs {self.players_needed} players, got {players}")
            return self.players_needed
        counts = sorted(k for k in board.starting_armies if k >= 3)
        if not counts:
            raise RiskstatsError(f"board {board.name!r} has no starting armies for 3 or more players")
        players = check_int("players", players)
        if not counts[0] <= players <= counts[-1]:
            two = ", or 2 for the two-player game" if self.variant == "classic" else ""
            raise RiskstatsError(f"players must be from {counts[0]} to {counts[-1]}{two}, got {players}")
        if players not in board.starting_armies:
            raise RiskstatsError(f"board {board.name!r} has no starting armies for {players} players")
        if board.n_territories < players:
            raise RiskstatsError(f"{players} players need at least {players} territories")
        if self.variant == "mission":
            board.mission_table(self.mission_deck, players)  # raises if the board has too few cards
        return players

    def starting_armies(self, players: int, board) -> int:
        if self.two_player_classic_50:
            return 50
        return board.starting_armies[players]

    def set_values(self, n: int) -> list[int]:
        """Progressive values of the first n sets traded (all players together)."""
        return [_progressive(k) for k in range(n)]

    def seats(self, players: int) -> int:
        """Seats at the table: the players and, in the two-player game with a neutral, the neutral's."""
        return players + 1 if self.has_neutral else players

    def vector(self, players: int, board) -> np.ndarray:
        """The int64 rule vector the kernels read (indices ``R_*``)."""
        r = np.zeros(R_SIZE, dtype=np.int64)
        r[R_VARIANT] = VARIANTS.index(self.variant)
        r[R_OBJECTIVE] = OBJECTIVE[self.variant]
        r[R_PLAYERS] = players
        r[R_NEUTRAL] = players if self.has_neutral else -1
        r[R_SEATS] = self.seats(players)
        r[R_SETUP] = SETUPS.index(self.setup_mode)
        r[R_INTERLEAVED] = self.neutral_interleaved
        r[R_ESCALATION] = ESCALATIONS.index(self.escalation)
        r[R_BONUS] = TERRITORY_BONUSES.index(self.territory_bonus)
        r[R_FORTIFY] = FORTIFY.index(self.fortify)
        r[R_CARDS_PER_TURN] = CARDS_PER_TURN.index(self.cards_per_turn)
        r[R_MAX_TURNS] = self.max_turns
        r[R_ADICE] = self.dice.attacker_dice
        r[R_DDICE] = self.dice.defender_dice
        r[R_START] = self.starting_armies(players, board)
        r[R_NEUTRAL_ARMIES] = board.neutral_armies if self.has_neutral else 0
        r[R_FORCED] = self.forced_trade_at
        r[R_ELIM_TRADE] = self.elimination_trade_at
        r[R_ELIM_KEEP] = self.elimination_keep
        r[R_FIX_INF:R_FIX_MIX + 1] = self.fixed_values
        r[R_MISSION_DECK] = MISSION_DECKS.index(self.mission_deck)
        r[R_TARGET_LOST] = TARGET_LOST.index(self.mission_target_lost)
        r[R_CAPITALS_NEEDED] = CAPITALS_SHORT.get(players, players - 1) if self.capital_short else players - 1
        return r

    def as_dict(self) -> dict:
        """The options as plain JSON-able values (for the record kept with every game)."""
        d = asdict(self)
        d["setup"] = self.setup_mode
        d["fixed_values"] = list(self.fixed_values)
        return d


def _progressive(k: int) -> int:
    return PROGRESSIVE[k] if k < len(PROGRESSIVE) else PROGRESSIVE[-1] + 5 * (k - len(PROGRESSIVE) + 1)


def variant_for(variant: str, players: int) -> str:
    """The variant a game of ``players`` plays when ``variant`` is asked for: "classic" with 2 players is the
    two-player game (with its neutral); any other request stands (and is validated by `GameRules`)."""
    return "two-player" if variant == "classic" and players == 2 else variant


def default_rules(players: int) -> GameRules:
    """The rules a game of ``players`` gets when none are given: the two-player variant (with a neutral) for
    2 players, else Classic."""
    return GameRules(variant=variant_for("classic", players))


@dataclass(frozen=True)
class RuleOption:
    """One rule option, as OpenSpiel declares a game's parameters: its name, its type (``str``, ``int``,
    ``bool``, ``tuple`` of ints, or ``dict`` for the dice rule's table), its default (`GameRules`' own), the values
    it allows (None: a range `GameRules` checks) and one line of help (docs/rules.md says more)."""

    name: str
    type: type
    default: object
    allowed: tuple | None
    help: str

    @property
    def scalar(self) -> bool:
        """Whether the value is one str, int or bool (what an OpenSpiel parameter can carry)."""
        return self.type in (str, int, bool)


_ABOUT = {
    "variant": (str, VARIANTS, "The game: classic, the two-player game, Secret Mission or Capital Risk."),
    "setup": (str, SETUPS, "Claim territories by choice or deal them (default: the variant's)."),
    "two_player_classic_50": (bool, (False, True), "Two players with 50 armies each and no neutral."),
    "neutral_interleaved": (bool, (False, True), "Two-player setup: a neutral army after each own placement."),
    "escalation": (str, ESCALATIONS, "Set values: progressive, fixed per kind of set, or always 4."),
    "fixed_values": (tuple, None, "Fixed set values: infantry, cavalry, artillery, one of each."),
    "territory_bonus": (str, TERRITORY_BONUSES, "+2 on a traded card's territory: once a turn, per set, or never."),
    "fortify": (str, FORTIFY, "Fortify along a chain of your territories, or to a neighbour only."),
    "cards_per_turn": (str, CARDS_PER_TURN, "Cards drawn after conquering: one, or one per conquest."),
    "max_turns": (int, None, "Turn cap: a game still on after this many turns ends truncated."),
    "forced_trade_at": (int, None, "Cards at the start of a turn that force a trade."),
    "elimination_trade_at": (int, None, "Cards after an elimination that force trading at once."),
    "elimination_keep": (int, None, "Trade after an elimination until holding this many cards or fewer."),
    "dice": (dict, None, "The dice rule: a table of riskstats.odds.dice.DiceRules options."),
    "mission_deck": (str, MISSION_DECKS, "Secret Mission: the standard (12) or the European (14) deck."),
    "mission_target_lost": (str, TARGET_LOST, "Secret Mission: a target lost to another is achieved, or 24."),
    "capital_short": (bool, (False, True), "Capital Risk: the short game (2 or 3 enemy capitals)."),
}


def _default(f):
    value = f.default if f.default is not MISSING else f.default_factory()
    return asdict(value) if isinstance(value, DiceRules) else value


RULE_OPTIONS = {f.name: RuleOption(f.name, *_ABOUT[f.name][:1], _default(f), *_ABOUT[f.name][1:])
                for f in fields(GameRules)}
"""Every `GameRules` option by name (a test holds the table to the fields): the one list the command line,
OpenSpiel's parameters and docs/rules.md follow."""

_TRUE, _FALSE = ("true", "1", "yes", "on"), ("false", "0", "no", "off")


def parse_rule(text: str) -> tuple[str, object]:
    """(name, value) of one ``key=value`` rule option as typed on a command line, converted by `RULE_OPTIONS`'
    type: ``fortify=adjacent``, ``max_turns=200``, ``capital_short=true``, ``fixed_values=4,6,8,10``,
    ``dice.defender_dice=3`` (-> ``("dice", {"defender_dice": 3})``). The value is checked by `GameRules`."""
    key, sep, value = (text or "").partition("=")
    key, value = key.strip(), value.strip()
    name, _, sub = key.partition(".")
    if not sep or not key:
        raise RiskstatsError(f"a rule option is key=value, got {text!r}")
    if name not in RULE_OPTIONS or (sub and name != "dice"):
        raise RiskstatsError(f"unknown rule option {key}; known: {', '.join(sorted(RULE_OPTIONS))}")
    kind = RULE_OPTIONS[name].type
    if kind is dict:
        if not sub:
            raise RiskstatsError(f"give the dice rule's options one by one: dice.<option>=value, got {text!r}")
        dice = {f.name: f.type for f in fields(DiceRules)}
        if sub not in dice:
            raise RiskstatsError(f"unknown dice option {sub}; known: {', '.join(sorted(dice))}")
        return name, {sub: value if dice[sub] in ("str", str) else _whole(key, value)}
    if kind is bool:
        if value.lower() not in _TRUE + _FALSE:
            raise RiskstatsError(f"rule option {name} must be true or false, got {value!r}")
        return name, value.lower() in _TRUE
    if kind is int:
        return name, _whole(key, value)
    if kind is tuple:
        return name, tuple(_whole(key, v) for v in value.split(","))
    return name, value


def _whole(key: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise RiskstatsError(f"rule option {key} needs whole numbers, got {text!r}") from None


def parse_rules(texts) -> dict:
    """The options of several ``key=value`` texts (`parse_rule`), the dice rule's merged into one table; a
    name given twice is an error."""
    options: dict = {}
    for text in texts or ():
        name, value = parse_rule(text)
        if name == "dice":
            sub = next(iter(value))
            if sub in options.get("dice", {}):
                raise RiskstatsError(f"rule option dice.{sub} given twice")
            options.setdefault("dice", {}).update(value)
        elif name in options:
            raise RiskstatsError(f"rule option {name} given twice")
        else:
            options[name] = value
    return options
