"""Play riskstats bots against Domination's built-in AIs in Domination's own engine (issue 30 §3).

Domination (GPL-3, Yura Mamyrin; github.com/sdyura/domination) is an open Risk game in Java. Its engine runs
headless here through our bridge ``scripts/outside/DominationBridge.java``, compiled against Domination's engine
classes, which the researcher obtains separately (docs/outside.md: how to get and build them; nothing of
Domination is in this repository). The AIs' wait is 0. One seat is "remote": at each of its decisions the
bridge prints Domination's whole position, this script maps it to a riskstats position (the same 42
territories, hands, discards, phase; `position`), asks the riskstats bot for its move (`Game.bot_move`) and
maps the move back to one Domination command (`command`), which the bridge plays in the engine.

    python scripts/outside/outside_domination.py --domination build/domination --bot value-tuned --players 4 \\
        --games 300 --out data/outside/value-tuned_4p.csv
    python scripts/outside/outside_domination.py --domination build/domination --bot domination:hard --players 4 \\
        --games 300 --out data/outside/control_4p.csv              # the control: a hard AI in the remote seat
    python scripts/outside/outside_domination.py --summary data/outside          # Wilson intervals of every file

``--domination DIR`` names a folder with ``classes/`` (Domination's compiled engine and its resources, or
``domination.jar``), ``maps/risk.map`` and ``maps/risk.cards``; the bridge is compiled into ``DIR/bridge``.
Runs append one CSV row per game and resume where they stopped. Game ``g``'s seed (the ``seed`` column) is
`domination_seed`: by default splitmix64 of ``g`` (``--seeds splitmix64``; issue 54), since ``java.util.Random``'s
first draws hardly differ between consecutive seeds, or ``g`` itself (``--seeds game``), as every file before issue 54
was played; a file resumes with its own. The remote seat is seat ``game % players``; Domination picks who moves first
from the game's seed (with plain game numbers, nearly the same seat for consecutive games: `measured_seat`), recorded
in the ``first_player`` column.

As an instrument (issue 38; docs/outside.md, "The match as an instrument"):

    python scripts/outside/outside_domination.py --domination build/domination --bot search --delegate attack \
        --balance-first --records --games 200 --out runs/search_hard-attack_4p.csv

``--all-remote``: every seat's decisions pass through the driver (the AI seats answer ``@ai <opponents>``);
``--balance-first`` (all seats remote): the measured seat moves first in every ``players``-th game;
``--delegate PHASES``: those phases of the measured bot (`PHASES`) are played by a Domination AI;
``--records [FILE]``: one JSON record per game (`Recorder`; beside the CSV as ``.jsonl.gz`` by default), whose
metrics (`riskstats.analysis.outside_records.record_metrics`) ``--summary`` prints with the win rate moving first
and later.

The rules are those both engines share, set on each side (docs/outside.md lists every difference left):
Classic card escalation (4, 6, 8, 10, 12, 15, then +5), territories claimed by choice one army at a time, an
adjacent-only fortify, +2 armies once per traded set, one card per turn with a conquest, a forced trade from 5
cards, an elimination trade from 6 cards down to 4, and the used cards reshuffled when the pile is empty. The
riskstats position is built on Domination's own map and cards (`board_dict`: its 81 borders and its card
symbols), so the bot plays the board the engine plays. The remote seat defends with the most dice
(Domination's auto-defence, the same as every riskstats bot).
"""
from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from riskstats.analysis.outside_records import (
    ENGINE_STATS,
    FIELDS,
    append_record,
    read_records,
    records_beside,
    summary,
    summary_text,
)
from riskstats.errors import RiskstatsError
from riskstats.game.bots.catalog import parse_bot
from riskstats.game.play import Game
from riskstats.game.rules.board import board_from_dict
from riskstats.game.rules.context import compile_context
from riskstats.game.rules.options import GameRules
from riskstats.game.rules.stream import splitmix64

HERE = Path(__file__).resolve().parent
BRIDGE_SOURCE = HERE / "DominationBridge.java"

NAMES = {
    "Alaska": "Alaska", "North-West-Territory": "Northwest Territory", "Alberta": "Alberta",
    "Western-United-States": "Western United States", "Central-America": "Central America",
    "Greenland": "Greenland", "Ontario": "Ontario", "Quebec": "Quebec",
    "Eastern-United-States": "Eastern United States", "Venezuela": "Venezuela", "Peru": "Peru",
    "Brazil": "Brazil", "Argentina": "Argentina", "Iceland": "Iceland", "Scandinavia": "Scandinavia",
    "Ukraine": "Ukraine", "Great-Britain": "Great Britain", "Northern-Europe": "Northern Europe",
    "Western-Europe": "Western Europe", "Southern-Europe": "Southern Europe", "North-Africa": "North Africa",
    "Egypt": "Egypt", "Congo": "Congo", "East-Africa": "East Africa", "South-Africa": "South Africa",
    "Madagascar": "Madagascar", "Siberia": "Siberia", "Ural": "Ural", "China": "China",
    "Afghanistan": "Afghanistan", "Middle-East": "Middle East", "India": "India", "Siam": "Siam",
    "Yakutsk": "Yakutsk", "Irkutsk": "Irkutsk", "Mongolia": "Mongolia", "Japan": "Japan",
    "Kamchatka": "Kamchatka", "Indonesia": "Indonesia", "New-Guinea": "New Guinea",
    "Western-Australia": "Western Australia", "Eastern-Australia": "Eastern Australia",
}
"""Domination's classic map (``risk.map``: its territory ids) -> the riskstats classic board's names."""
CONTINENTS = {"North-America": "North America", "South-America": "South America", "Europe": "Europe",
              "Africa": "Africa", "Asia": "Asia", "Oceania": "Australia", "Australia": "Australia"}
SYMBOLS = {"Infantry": "infantry", "Cavalry": "cavalry", "Cannon": "artillery"}
WILDCARD = "wildcard"

# Domination's game states (net.yura.domination.engine.core.RiskGame.STATE_*)
TRADE_CARDS, PLACE_ARMIES, ATTACKING, ROLLING, BATTLE_WON, FORTIFYING, END_TURN, GAME_OVER = 1, 2, 3, 4, 5, 6, 7, 8
DEFEND_YOURSELF = 10
PROGRESSIVE = (4, 6, 8, 10, 12, 15)
MAX_TURNS = 1000
"""The turn cap of a game, in both engines: a game still on after this many turns is a draw (no winner)."""
CARD_MODES = ("increasing", "fixed")
"""Domination's card modes the driver plays (``--cards``): increasing sets (4, 6, 8, 10, 12, 15, then +5, counted
over all players) or fixed values per kind of set (three infantry 4, cavalry 6, artillery 8, one of each 10; a wild
stands for what completes the set), each with the used cards recycled; `rules_for` gives riskstats' same rules."""
PHASES = ("setup", "trade", "reinforce", "attack", "fortify")
"""The phases of a turn that ``--delegate`` hands to a Domination AI."""
PHASE_GROUP = {"claim": "setup", "setup_place": "setup", "trade": "trade", "elim_trade": "trade",
               "reinforce": "reinforce", "attack": "attack", "occupy": "attack", "fortify": "fortify"}
"""riskstats phase (`phase_of`) -> the ``--delegate`` phase it belongs to: setup = claiming and the setup
placement; trade = the turn's trade and the elimination trade; attack = declaring, each roll or retreat, and
the occupation after a conquest (Domination's attacking, rolling and battle-won states). Defending is the
engine's auto-defence and never reaches the driver."""


# ------------------------------------------------------------------ the board and the rules
def board_dict(board: dict) -> dict:
    """A riskstats board file (``riskstats-board/1``) of the map and cards Domination loaded, from the
    bridge's ``board`` message: the same 42 territories and continents as the classic board, under the
    riskstats names, with Domination's borders and card symbols."""
    names = {c["id"]: NAMES[c["name"]] for c in board["countries"]}
    continents = {CONTINENTS[k["name"]]: {"bonus": k["bonus"], "territories": []} for k in board["continents"]}
    adjacency = {}
    for c in board["countries"]:
        continents[CONTINENTS[c["continent"]]]["territories"].append(names[c["id"]])
        adjacency[names[c["id"]]] = [names[n] for n in c["neighbours"]]
    cards = {names[k["card"]]: SYMBOLS[k["type"]] for k in board["cards"] if k["card"] != WILDCARD}
    wilds = sum(k["card"] == WILDCARD for k in board["cards"])
    return {"schema": "riskstats-board/1", "name": "domination-classic", "continents": continents,
            "adjacency": adjacency, "cards": dict(sorted(cards.items())), "wilds": wilds,
            "starting_armies": {str(p): 5 * (10 - p) for p in range(2, 7)}}


def rules_for(players: int, cards: str = "increasing") -> GameRules:
    """The riskstats rules closest to Domination's "domination <cards> recycle" game (`CARD_MODES`; Domination's
    fixed values are riskstats' default ``fixed_values``, 4, 6, 8, 10)."""
    if cards not in CARD_MODES:
        raise RiskstatsError(f"unknown card mode {cards!r}; choose from {', '.join(CARD_MODES)}")
    variant = {"variant": "two-player", "two_player_classic_50": True} if players == 2 else {"variant": "classic"}
    escalation = "progressive" if cards == "increasing" else "fixed"
    return GameRules(**variant, setup="choice", escalation=escalation, territory_bonus="per_set",
                     fortify="adjacent", cards_per_turn="one", max_turns=MAX_TURNS, forced_trade_at=5,
                     elimination_trade_at=6, elimination_keep=4)


def sets_traded(next_set: int) -> int:
    """How many sets all players have traded, from the value Domination gives the next set."""
    if next_set <= PROGRESSIVE[-1]:
        return PROGRESSIVE.index(next_set)
    return len(PROGRESSIVE) + (next_set - 20) // 5


# ------------------------------------------------------------------ Domination -> riskstats
class Names:
    """Domination's ids of one game's board <-> riskstats territory and card indices."""

    def __init__(self, board_msg: dict, board):
        self.board = board
        self.to_name = {c["id"]: NAMES[c["name"]] for c in board_msg["countries"]}
        self.to_id = {name: i for i, name in self.to_name.items()}

    def territory(self, dom_id: int) -> str:
        return self.to_name[dom_id]

    def dom_id(self, t: int) -> int:
        return self.to_id[self.board.territories[t]]

    def card_label(self, card) -> str:
        return "wild" if card == WILDCARD else self.to_name[card]

    def dom_card(self, c: int) -> str:
        t = int(self.board.arrays.card_territory[c])
        return WILDCARD if t < 0 else str(self.dom_id(t))


def phase_of(msg: dict) -> str:
    """The riskstats phase of a Domination decision."""
    state = msg["state"]
    if state == PLACE_ARMIES and not msg["setup_done"]:
        return "claim" if any(owner < 0 for _, owner, _ in msg["countries"]) else "setup_place"
    if state == TRADE_CARDS:
        return "elim_trade" if msg["trade_cap"] else "trade"
    phase = {PLACE_ARMIES: "reinforce", ATTACKING: "attack", ROLLING: "attack", BATTLE_WON: "occupy",
             FORTIFYING: "fortify", DEFEND_YOURSELF: "defend"}.get(state)
    if phase is None:
        raise RiskstatsError(f"no riskstats phase for Domination state {state}")
    return phase


def position(msg: dict, names: Names, rules: GameRules, start_hand: int, seed: int = 0) -> dict:
    """The riskstats position (docs/positions.md) of a Domination ``decide`` message. ``start_hand``: the
    mover's hand size when its turn began (the forced trade is judged on it). The draw pile's order is not
    given (the bot cannot see it): the cards in no hand and not discarded form it, shuffled from ``seed``."""
    players = len(msg["players"])
    seat = msg["seat"]
    phase = phase_of(msg)
    territories = {names.territory(i): [owner, armies] for i, owner, armies in msg["countries"]}
    engine = {"start_hand": start_hand, "conquered": int(msg["captured"])}
    pos = {"format": "riskstats-position/1", "board": names.board.name, "players": players,
           "rules": rules.as_dict(), "seed": seed, "phase": phase, "player": seat,
           "hands": [[names.card_label(c) for c in p["cards"]] for p in msg["players"]],
           "discard": [names.card_label(c) for c in msg["used"]],
           "sets_traded": sets_traded(msg["next_set"]), "territories": territories}
    if phase in ("claim", "setup_place"):
        pos.update(turn=0, round=0, reserve=0, setup_armies=[p["extra"] for p in msg["players"]])
        return pos
    turn = max(1, msg["turns"])
    pos.update(turn=turn, round=1 + (turn - 1) // players, reserve=msg["players"][seat]["extra"],
               setup_armies=[0] * players)
    if phase == "trade":
        engine["traded_this_turn"] = (start_hand - len(msg["players"][seat]["cards"])) // 3
    if phase == "occupy":  # riskstats has moved the dice's armies in already; Domination moves them with "move"
        src, dst, moved = names.territory(msg["attacker"]), names.territory(msg["defender"]), msg["must_move"]
        territories[src][1] -= moved
        territories[dst] = [seat, moved]
        pos["occupy"] = [src, dst]
    if phase == "defend":
        pos["pending_attack"] = [names.territory(msg["attacker"]), names.territory(msg["defender"]),
                                 msg["attack_dice"]]
    pos["engine"] = engine
    return pos


# ------------------------------------------------------------------ riskstats -> Domination
def command(move, msg: dict, names: Names) -> str:
    """The Domination command that plays a riskstats move in the decision ``msg``. In the middle of a battle
    (Domination's "rolling" state) an attack on the same pair is the next roll, anything else retreats first
    (`RiskstatsSeat` plays the move at the next decision)."""
    kind = move.name
    state = msg["state"]
    if state == ROLLING:
        same = kind == "attack" and (names.dom_id(move.a), names.dom_id(move.b)) == (msg["attacker"], msg["defender"])
        return f"roll {move.c}" if same else "retreat"
    if kind == "place":
        return f"placearmies {names.dom_id(move.a)} {move.b}"
    if kind == "trade":
        return "trade " + " ".join(names.dom_card(c) for c in (move.a, move.b, move.c))
    if kind == "pass":
        return "endtrade"
    if kind == "attack":
        return f"attack {names.dom_id(move.a)} {names.dom_id(move.b)}"
    if kind == "defend":
        return f"roll {move.a}"
    if kind == "occupy":
        return f"move {msg['must_move'] + move.a}"
    if kind == "end_attack":
        return "endattack"
    if kind == "fortify":
        return f"movearmies {names.dom_id(move.a)} {names.dom_id(move.b)} {move.c}"
    if kind == "end_turn":
        return "nomove"
    raise RiskstatsError(f"no Domination command for the move {move!r}")


# ------------------------------------------------------------------ the remote seat
class RiskstatsSeat:
    """A riskstats bot in the remote seat: one game's memory (its turn plan, the hand at its turn's start,
    a move decided in the middle of a battle)."""

    def __init__(self, spec: str, names: Names, rules: GameRules, players: int, seed: int):
        parse_bot(spec)  # a bad spec fails here, before any game
        self.spec, self.names, self.rules, self.players, self.seed = spec, names, rules, players, seed
        self.context = compile_context(rules, names.board, players)
        self.memory = np.full((rules.seats(players), 2), -1, np.int64)
        self.turn = None
        self.start_hand = 0
        self.pending = None  # a move chosen while a battle was still on, played at the next decision
        self.decisions = 0
        self.note = {}  # how the last answer was chosen (the transcript records it)

    def game_at(self, pos: dict) -> Game:
        return Game.from_position(pos, self.names.board, context=self.context, memory=self.memory)

    def observe(self, msg: dict) -> None:
        """Keep track of the turn and of the hand at its start; called at every decision of the seat, also those
        a Domination AI answers for it (`DelegatingSeat`)."""
        if msg["setup_done"] and msg["turns"] != self.turn and msg["state"] in (TRADE_CARDS, PLACE_ARMIES):
            self.turn = msg["turns"]  # the first decision of a turn: nothing has changed the hand yet
            self.start_hand = len(msg["players"][msg["seat"]]["cards"])

    def answer(self, msg: dict) -> str:
        self.observe(msg)
        self.note = {}
        if self.pending is not None:
            move, self.pending = self.pending, None
            self.note = {"pending": repr(move)}
            if msg["state"] == ROLLING and move.name == "attack" and \
                    (self.names.dom_id(move.a), self.names.dom_id(move.b)) == (msg["attacker"], msg["defender"]):
                return f"roll {move.c}"
            if msg["state"] == ATTACKING:  # the move chosen before a retreat: an attack then rolls its dice
                self.pending = move if move.name == "attack" else None
                return command(move, msg, self.names)
        self.decisions += 1
        seed = (self.seed * 1_000_003 + self.decisions) % 2**63
        game = self.game_at(position(msg, self.names, self.rules, self.start_hand, seed))
        move = game.bot_move(self.spec)
        reply = command(move, msg, self.names)
        self.note = {"bot": self.spec, "seed": seed, "start_hand": self.start_hand, "move": repr(move),
                     "raw": [int(x) for x in move]}
        if msg["state"] == ATTACKING and move.name == "attack" or reply == "retreat":
            self.pending = move  # its dice (or the move itself) at the next decision
        return reply


class DominationSeat:
    """A Domination AI in the remote seat (the control): the bridge asks the AI for the command."""

    def __init__(self, ai: str):
        self.ai = ai
        self.decisions = 0
        self.note = {}

    def answer(self, msg: dict) -> str:
        self.decisions += 1
        return f"@ai {self.ai}"


def parse_delegate(text: str | None) -> tuple[str, ...]:
    """The phases of a ``--delegate`` list (``"attack"``, ``"reinforce,fortify"``), in `PHASES` order."""
    if not text:
        return ()
    asked = {w.strip() for w in text.split(",") if w.strip()}
    unknown = asked - set(PHASES)
    if unknown:
        raise RiskstatsError(f"--delegate: unknown phase(s) {sorted(unknown)}; the phases are {', '.join(PHASES)}")
    return tuple(p for p in PHASES if p in asked)


class DelegatingSeat:
    """A riskstats bot in the measured seat whose ``phases`` (`PHASES`) a Domination AI plays (``@ai <ai>``).

    The bot still sees every decision of its seat (`RiskstatsSeat.observe`: the turn, the hand at its start), and
    keeps its turn plan (the look-ahead bots' memory, by turn); a move it decided in the middle of a battle is
    dropped when the phase is handed over (all the battle's states are the attack phase, so it only happens after
    a refused command)."""

    def __init__(self, seat: RiskstatsSeat, phases: tuple[str, ...], ai: str = "hard"):
        self.seat, self.phases, self.ai = seat, tuple(phases), ai
        self.delegated = 0
        self.note = {}

    @property
    def decisions(self) -> int:
        return self.seat.decisions + self.delegated

    def routed(self, msg: dict) -> str:
        """Who answers this decision: ``"ai"`` or ``"bot"``."""
        return "ai" if PHASE_GROUP.get(phase_of(msg)) in self.phases else "bot"

    def answer(self, msg: dict) -> str:
        if self.routed(msg) == "ai":
            self.seat.observe(msg)
            self.seat.pending = None
            self.delegated += 1
            self.note = {"delegated": PHASE_GROUP[phase_of(msg)]}
            return f"@ai {self.ai}"
        reply = self.seat.answer(msg)
        self.note = self.seat.note
        return reply


# ------------------------------------------------------------------ the records
def first_player(msg: dict) -> int | None:
    """Who moved first, from the first decision the driver sees, if it is one of the claim (None if not): claims
    go round the seats one territory at a time from the first player, so it is the mover less the territories
    claimed so far. (Domination draws the first player with the first draw of the game's Random, seeded with the
    game number: nearly the same seat for consecutive seeds, see `measured_seat`.)"""
    if msg["setup_done"] or phase_of(msg) != "claim":
        return None
    claimed = sum(owner >= 0 for _, owner, _ in msg["countries"])
    return (msg["seat"] - claimed) % len(msg["players"])


class Recorder:
    """One game's record (docs/outside.md, "The records"), built from the decisions the driver sees: every
    event is read off two consecutive positions of the same seat in the same turn (one command apart), so
    it is the same whoever chose the command (the riskstats bot or a Domination AI answering ``@ai``).

    The record holds lists of lists, to be compact; the field order is in `RECORD_FIELDS`. With the engine
    playing its own AI seats (not ``--all-remote``) only the measured seat's decisions are seen: its events
    are complete, the AIs' are missing, and an elimination an AI made has ``by`` -1."""

    def __init__(self, board_msg: dict, game: int, players: int, measured: int, first: int, bot: str,
                 opponents: str, delegate: tuple[str, ...] = (), seating: str = "all-remote"):
        self.neighbours = {c["id"]: c["neighbours"] for c in board_msg["countries"]}
        names = [k["name"] for k in board_msg["continents"]]
        self.continents = [[c["id"] for c in board_msg["countries"] if c["continent"] == name] for name in names]
        self.record = {"game": game, "players": players, "measured": measured, "bot": bot,
                       "opponents": opponents, "delegate": ",".join(delegate), "seating": seating, "first": first,
                       "order": [(first + i) % players for i in range(players)],
                       "winner": None, "turns": None, "reason": None,
                       "eliminations": [], "trades": [], "attacks": [], "rolls": [], "occupations": [],
                       "starts": []}
        self.prev = None
        self.start = None

    def see(self, msg: dict) -> None:
        """The next decision the driver receives (before it answers)."""
        prev, rec = self.prev, self.record
        if prev is not None:
            by = prev["seat"] if prev["seat"] == msg["seat"] and prev["turns"] == msg["turns"] else -1
            for q, (before, after) in enumerate(zip(prev["players"], msg["players"])):
                if before["territories"] > 0 and after["territories"] == 0:
                    rec["eliminations"].append([q, by, prev["turns"], len(before["cards"])])
            if by >= 0:
                self._event(prev, msg)
        if msg["setup_done"] and (msg["seat"], msg["turns"]) != self.start:
            self.start = (msg["seat"], msg["turns"])
            rec["starts"].append(self._snapshot(msg))
        self.prev = msg

    def finish(self, over: dict) -> dict:
        """The game's end (the bridge's ``over`` message): the last conquest's roll, the last eliminations."""
        prev, rec = self.prev, self.record
        rec.update(winner=over["winner"], turns=over["turns"], reason=over["reason"])
        if "stats" in over:  # the bridge's sums of the engine's statistics (ENGINE_STATS)
            rec["engine"] = over["stats"]
        if prev is not None and over["winner"] >= 0:
            if prev["state"] == ROLLING and prev["seat"] == over["winner"]:
                w = over["winner"]
                n, m = self._armies(prev, prev["attacker"]) - 1, self._armies(prev, prev["defender"])
                lost = None  # the last throw's own losses: what the engine counted less what the record holds
                if "stats" in over:
                    lost = over["stats"][w][ENGINE_STATS.index("casualties")] - \
                        sum(r[4] for r in rec["rolls"] if r[0] == w) - \
                        sum(r[5] for r in rec["rolls"] if r[0] != w and r[6] == w)
                rec["rolls"].append([w, n, m, 1, lost, m, self._owner(prev, prev["defender"])])
            for q, p in enumerate(prev["players"]):
                if q != over["winner"] and p["territories"] > 0:
                    rec["eliminations"].append([q, over["winner"], prev["turns"], len(p["cards"])])
        return rec

    @staticmethod
    def _armies(msg: dict, dom_id: int) -> int:
        return next(a for i, _, a in msg["countries"] if i == dom_id)

    @staticmethod
    def _owner(msg: dict, dom_id: int) -> int:
        return next(o for i, o, _ in msg["countries"] if i == dom_id)

    def _event(self, prev: dict, msg: dict) -> None:
        """What the one command between ``prev`` and ``msg`` (same seat, same turn) did."""
        rec, seat, state = self.record, prev["seat"], prev["state"]
        if state == TRADE_CARDS:
            before, after = len(prev["players"][seat]["cards"]), len(msg["players"][seat]["cards"])
            if after == before - 3:
                rec["trades"].append([seat, prev["next_set"], before, int(bool(prev["trade_cap"]))])
        elif state == ATTACKING and msg["state"] == ROLLING:
            a, d = msg["attacker"], msg["defender"]
            rec["attacks"].append([seat, self._armies(prev, a), self._armies(prev, d), self._owner(prev, d),
                                   prev["turns"]])
        elif state == ROLLING:
            a, d = prev["attacker"], prev["defender"]
            armies_a, armies_d = self._armies(prev, a), self._armies(prev, d)
            after_a, after_d = self._armies(msg, a), self._armies(msg, d)
            conquered = self._owner(msg, d) == seat
            rolled = int(conquered or (after_a, after_d) != (armies_a, armies_d))
            moved = after_d if conquered and msg["state"] != BATTLE_WON else 0
            lost = [armies_a - after_a - moved, armies_d if conquered else armies_d - after_d] if rolled else [0, 0]
            rec["rolls"].append([seat, armies_a - 1, armies_d, rolled, *lost, self._owner(prev, d)])
            if moved:  # the engine moved every army that could go in itself: no choice, no battle-won decision
                rec["occupations"].append([seat, moved, moved, moved])
        elif state == BATTLE_WON:
            a, d = prev["attacker"], prev["defender"]
            rec["occupations"].append([seat, self._armies(prev, a) - 1, prev["must_move"], self._armies(msg, d)])

    def _snapshot(self, msg: dict) -> list:
        players, seat = len(msg["players"]), msg["seat"]
        owner = {i: o for i, o, _ in msg["countries"]}
        armies = [0] * players
        for _, o, a in msg["countries"]:
            if o >= 0:
                armies[o] += a
        held = []
        for ids in self.continents:
            owners = {owner[i] for i in ids}
            held.append(owners.pop() if len(owners) == 1 else -1)
        mine = [(i, a) for i, o, a in msg["countries"] if o == seat]
        border = sum(a for i, a in mine if any(owner[n] != seat for n in self.neighbours[i]))
        total = sum(a for _, a in mine)
        detail = [border, total - border, max((a for _, a in mine), default=0), sum(a == 1 for _, a in mine)]
        return [seat, msg["turns"], [p["territories"] for p in msg["players"]], armies,
                [len(p["cards"]) for p in msg["players"]], held, detail]


# ------------------------------------------------------------------ the bridge
def build_bridge(domination: Path, map_file: str = "risk.map") -> list[str]:
    """Compile the bridge against Domination's classes (once) and return the java command that runs it on
    ``map_file`` (in ``<domination>/maps``, with the classic cards ``risk.cards``)."""
    classes = [domination / "classes", *sorted(domination.glob("*.jar")), *sorted(domination.glob("lib/*.jar"))]
    classpath = ":".join(str(c) for c in classes if c.exists())
    out = domination / "bridge"
    target = out / "DominationBridge.class"
    if not target.exists() or target.stat().st_mtime < BRIDGE_SOURCE.stat().st_mtime:
        out.mkdir(parents=True, exist_ok=True)
        subprocess.run(["javac", "-nowarn", "-d", str(out), "-cp", classpath, str(BRIDGE_SOURCE)], check=True)
    return ["java", "-cp", f"{classpath}:{out}", "DominationBridge", str(domination / "maps"), map_file, "risk.cards"]


class Bridge:
    """The bridge process: one JSON message per line out, one command per line in."""

    def __init__(self, java: list[str], transcript: Path | None = None):
        self.proc = subprocess.Popen(java, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.transcript = transcript.open("a") if transcript else None

    def send(self, line: str, note: dict | None = None) -> None:
        if self.transcript:
            self.transcript.write(json.dumps({"sent": line, **(note or {})}) + "\n")
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def receive(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise RiskstatsError("the Domination bridge stopped (run it by hand to see why)")
        if self.transcript:
            self.transcript.write(line)
        return json.loads(line)

    def close(self, failed: bool = False) -> None:
        if failed:
            self.proc.kill()
        else:
            self.send("quit")
        self.proc.wait(timeout=30)
        if self.transcript:
            self.transcript.close()


DOMINATION_AIS = ("hard", "average", "easy", "crap")
"""Domination's AIs, by the name its ``newplayer ai <name>`` command takes (crap: its passive AI)."""


def _seat_player(spec: str, names: Names, rules: GameRules, players: int, seed: int,
                 delegate: tuple[str, ...] = (), delegate_ai: str = "hard"):
    if spec.startswith("domination:"):
        return DominationSeat(spec.split(":", 1)[1])
    seat = RiskstatsSeat(spec, names, rules, players, seed)
    return DelegatingSeat(seat, delegate, delegate_ai) if delegate else seat


SEED_SCHEMES = ("splitmix64", "game")
"""How a game number becomes Domination's seed (`domination_seed`); the first is the default of new files."""


def domination_seed(game: int, scheme: str = "splitmix64") -> int:
    """The seed of Domination's ``java.util.Random`` for game number ``game``, a Java long: splitmix64 of the game
    number (`riskstats.game.rules.stream.splitmix64`, as signed 64 bits), so that consecutive games get unrelated
    first draws (with seeds 0, 1, 2, ... the first player was seat 1 in every two-player game 0-299), or with
    ``game`` the game number itself (the files written before issue 54)."""
    if scheme not in SEED_SCHEMES:
        raise RiskstatsError(f"unknown seed scheme {scheme!r}; choose from {', '.join(SEED_SCHEMES)}")
    if scheme == "game":
        return game
    word = splitmix64(game)
    return word - 2**64 if word >= 2**63 else word


def seeds_of(rows: list[dict]) -> set[str]:
    """The seed schemes a CSV's rows were played under (`domination_seed`; a row matching neither: ``other``)."""
    def scheme(row):
        game, seed = int(row["game"]), int(row["seed"])
        return next((s for s in SEED_SCHEMES if domination_seed(game, s) == seed), "other")

    return {scheme(r) for r in rows}


def seating_of(opponents: str, all_remote: bool = False, balance_first: bool = False) -> str:
    """The CSV's ``seating``: ``engine`` when the engine plays its AI seats, else ``all-remote`` (riskstats
    opponents always sit in remote seats), with ``+balanced`` when the first player is balanced."""
    remote = all_remote or balance_first or opponents not in DOMINATION_AIS
    return ("all-remote" if remote else "engine") + ("+balanced" if balance_first else "")


def measured_seat(game: int, players: int, first: int | None = None) -> int:
    """The measured seat of game ``game``: ``game % players``, or, balancing the first player (``first`` given),
    the seat that moves ``game % players``-th, so that over each run of ``players`` games it moves first once,
    second once, and so on (two players: first in the even games, second in the odd).

    Unbalanced, with the game number as the seed (``--seeds game``), the turn place is not random: Domination draws
    the first player with the first draw of ``java.util.Random(game)``, whose first draws hardly differ between
    consecutive seeds, so the first player is seat 1 in every two-player game 0-299 and seat 2 in 85% of four-player
    games 0-299 (hence `domination_seed`'s default)."""
    return game % players if first is None else (first + game % players) % players


def play_one(bridge: Bridge, remote: str, players: int, game: int, opponents: str = "hard", *,
             all_remote: bool = False, balance_first: bool = False, delegate: tuple[str, ...] = (),
             delegate_ai: str = "hard", records: list | None = None, cards: str = "increasing",
             seeds: str = "splitmix64") -> dict:
    """One game: the measured seat (`measured_seat`; a riskstats bot spec, or ``domination:<ai>``) against
    ``players - 1`` opponents: a Domination AI (`DOMINATION_AIS`) in the engine's own seats, or with
    ``all_remote`` in remote seats answered ``@ai <ai>`` (every seat's decisions pass through the driver), or a
    riskstats bot spec, each in a remote seat of its own. ``balance_first`` (all seats remote) picks the measured
    seat from the first player; ``delegate``: the measured bot's phases (`PHASES`) that Domination's
    ``delegate_ai`` plays. ``records``: a list to append the game's record to (`Recorder`); ``cards``: the card mode
    (`CARD_MODES`); ``seeds``: how the game number becomes Domination's seed (`domination_seed`). Returns the
    game's CSV row."""
    engine_ai = opponents in DOMINATION_AIS
    seating = seating_of(opponents, all_remote, balance_first)
    all_remote = seating.startswith("all-remote")
    seat = None if balance_first else measured_seat(game, players)
    seats = ["remote" if all_remote or s == seat else opponents for s in range(players)]
    start = time.time()
    rules = rules_for(players, cards)
    seed = domination_seed(game, seeds)
    bridge.send(f"game {seed} {MAX_TURNS} {cards} {' '.join(seats)}")
    msg = bridge.receive()
    if msg["event"] != "board":
        raise RiskstatsError(f"expected the board from the bridge, got {msg}")
    board_msg = msg
    names = Names(msg, board_from_dict(board_dict(msg), "Domination's map"))
    seated, first, recorder, fallbacks = None, None, None, 0
    while True:
        msg = bridge.receive()
        if msg["event"] == "over":
            break
        if msg["event"] != "decide":
            raise RiskstatsError(f"unexpected message from the bridge: {str(msg)[:200]}")
        if seated is None:  # the first decision: who moved first, and so who is measured
            first = first_player(msg)
            if seat is None and first is None:
                raise RiskstatsError("balancing the first player needs the first decision of the claim")
            if seat is None:
                seat = measured_seat(game, players, first)
            seated = {s: DominationSeat(opponents) if engine_ai else
                      _seat_player(opponents, names, rules, players, game * players + s)
                      for s in range(players) if s != seat and seats[s] == "remote"}
            seated[seat] = _seat_player(remote, names, rules, players, game, delegate, delegate_ai)
            if records is not None:
                recorder = Recorder(board_msg, game, players, seat, first, remote,
                                    f"domination:{opponents}" if engine_ai else opponents, delegate, seating)
        if msg["seat"] not in seated:
            raise RiskstatsError(f"unexpected message from the bridge: {str(msg)[:200]}")
        if msg["rejected"]:  # the engine refused the last command: let its passive AI move instead
            fallbacks += 1
            bridge.send("@ai crap")
            continue
        if recorder is not None:  # (a refused command changed nothing: the position is the one seen before)
            recorder.see(msg)
        player = seated[msg["seat"]]
        reply = player.answer(msg)
        bridge.send(reply, {"seat": msg["seat"], **player.note})
    if recorder is not None:
        records.append(recorder.finish(msg))
    return {"game": game, "seed": seed, "players": players, "remote_seat": seat, "remote": remote,
            "opponents": f"domination:{opponents}" if engine_ai else opponents, "winner": msg["winner"],
            "remote_won": int(msg["winner"] == seat), "turns": msg["turns"], "reason": msg["reason"],
            "decisions": seated[seat].decisions if seated else 0, "fallbacks": fallbacks,
            "seconds": round(time.time() - start, 3), "first_player": first, "seating": seating,
            "delegate": f"{','.join(delegate)}@{delegate_ai}" if delegate else "", "cards": cards}


def _done_games(out: Path, seating: str | None = None, delegate: str | None = None,
                cards: str | None = None) -> tuple[set, tuple]:
    """The games already in a CSV, and its columns (an older file keeps its own). Given the run's ``seating``,
    ``delegate`` and ``cards``, a file whose games were played otherwise is refused (an older file, without these
    columns, delegated nothing and played increasing cards; its seating is not known)."""
    if not out.exists():
        return set(), FIELDS
    with out.open() as f:
        reader = csv.DictReader(f)
        rows = list(reader)
        fields = tuple(reader.fieldnames or FIELDS)
    for key, want in (("seating", seating), ("delegate", delegate), ("cards", cards)):
        if key == "seating" and key not in fields:
            continue
        had = {r.get(key) or ("increasing" if key == "cards" else "") for r in rows}
        if want is not None and had - {want}:
            raise RiskstatsError(f"{out} holds games played with {key} {sorted(had)}, not {want!r}: "
                                 "resume it with its own options or write another file")
    return {int(r["game"]) for r in rows}, fields


def _run_seeds(out: Path, seeds: str | None) -> str:
    """The seed scheme a run into ``out`` plays (`domination_seed`): ``seeds``, or if None the file's own (the
    default, `SEED_SCHEMES`' first, for a new file); a file played under another scheme, or under several, is
    refused."""
    had = set()
    if out.exists():
        with out.open() as f:
            had = seeds_of(list(csv.DictReader(f)))
    if len(had) > 1 or had - set(SEED_SCHEMES):
        raise RiskstatsError(f"{out} holds games of several seed schemes or of none known ({sorted(had)})")
    own = next(iter(had), None)
    if seeds is not None and own not in (None, seeds):
        raise RiskstatsError(f"{out} holds games played with seeds {own!r}, not {seeds!r}: "
                             "resume it with its own options or write another file")
    return seeds or own or SEED_SCHEMES[0]


def _resume_records(path: Path, done: set) -> None:
    """Keep only the records of games in the CSV (a record written before a crash, its row not, is dropped)."""
    if not path.exists():
        return
    records = read_records(path)
    kept = [r for r in records if r["game"] in done]
    if len(kept) != len(records):
        path.unlink()
        for r in kept:
            append_record(path, r)


def run(domination: Path, remote: str, players: int, games: int, out: Path, first: int = 0,
        transcript: Path | None = None, opponents: str = "hard", map_file: str = "risk.map", *,
        all_remote: bool = False, balance_first: bool = False, delegate: tuple[str, ...] = (),
        delegate_ai: str = "hard", records: Path | None = None, cards: str = "increasing",
        seeds: str | None = None) -> None:
    """Play games ``first .. first + games - 1`` not yet in ``out`` (resumable), one CSV row each, and with
    ``records`` one JSON line each in that file (`Recorder`); the options are `play_one`'s (``seeds`` None: the
    file's own scheme, `_run_seeds`)."""
    rules_for(players, cards)  # a bad card mode stops here, before anything is written
    seeds = _run_seeds(out, seeds)
    done, fields = _done_games(out, seating_of(opponents, all_remote, balance_first),
                               f"{','.join(delegate)}@{delegate_ai}" if delegate else "", cards)
    if records is not None:
        _resume_records(records, done)
        records.parent.mkdir(parents=True, exist_ok=True)
    todo = [g for g in range(first, first + games) if g not in done]
    if not todo:
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    bridge = Bridge(build_bridge(domination, map_file), transcript)
    failed = True
    try:
        with out.open("a", newline="") as f:
            writer = csv.DictWriter(f, fields, extrasaction="ignore")
            if not done:
                writer.writeheader()
            for g in todo:
                got = [] if records is not None else None
                row = play_one(bridge, remote, players, g, opponents, all_remote=all_remote,
                               balance_first=balance_first, delegate=delegate, delegate_ai=delegate_ai,
                               records=got, cards=cards, seeds=seeds)
                if got:  # the record first: a crash before the row drops it at the next resume
                    append_record(records, got[0])
                writer.writerow(row)
                f.flush()
        failed = False
    finally:
        bridge.close(failed)


def pick_examples(transcripts: list[Path], per_kind: int = 2) -> list[dict]:
    """A small fixture from ``--transcript`` files (tests/outside/data/): the board message of each file's first
    game and, for each kind of decision (the riskstats phase, the command's verb, whether the move was decided
    before), the first ``per_kind`` decisions with the command sent, how it was chosen, and the engine's next
    position when it came in the same turn after the setup (nobody else moved in between); each file's first
    game's end."""
    examples, seen = [], {}
    for path in transcripts:
        lines = [json.loads(line) for line in path.open()]
        first_board = True
        for i, m in enumerate(lines):
            if m.get("event") == "board":
                if first_board:
                    examples.append({"board": m})
                first_board = False
            if m.get("event") == "over" and not any("over" in e and e["file"] == path.name for e in examples):
                examples.append({"over": m, "file": path.name})
            if m.get("event") != "decide" or i + 1 >= len(lines) or "sent" not in lines[i + 1]:
                continue
            sent = lines[i + 1]
            kind = (len(m["players"]), phase_of(m), sent["sent"].split()[0], "pending" in sent)
            if seen.get(kind, 0) >= per_kind or sent["sent"].startswith("@"):
                continue
            seen[kind] = seen.get(kind, 0) + 1
            nxt = lines[i + 2] if i + 2 < len(lines) else {}
            same_turn = nxt.get("event") == "decide" and m["setup_done"] and nxt["turns"] == m["turns"]
            examples.append({"decide": m, "sent": sent, "next": nxt if same_turn else None})
    return examples


def domination_board(domination: Path, map_file: str = "risk.map"):
    """The riskstats board of the map Domination loads (`board_dict`), asked of the bridge."""
    bridge = Bridge(build_bridge(domination, map_file))
    try:
        bridge.send("board")
        msg = bridge.receive()
    finally:
        bridge.close()
    return board_from_dict(board_dict(msg), "Domination's map")


def baseline(domination: Path, remote: str, players: int, games: int, out: Path, first: int = 0,
             opponents: str = "continent-tuned", map_file: str = "risk.map") -> None:
    """The same match in riskstats' own engine, under `rules_for` on Domination's map: ``remote`` in seat
    ``game % players`` against riskstats bot ``opponents``, games ``first ..`` not yet in ``out`` (resumable).
    Beside the same match played in Domination's engine, it shows whether the driver keeps a bot's strength."""
    board = domination_board(domination, map_file)
    rules = rules_for(players)
    done, fields = _done_games(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a", newline="") as f:
        writer = csv.DictWriter(f, fields, extrasaction="ignore")
        if not done:
            writer.writeheader()
        for g in range(first, first + games):
            if g in done:
                continue
            seat, start = g % players, time.time()
            lineup = [opponents] * players
            lineup[seat] = remote
            game = Game(players, rules, board=board, seed=g, log=False).play(lineup)
            writer.writerow({"game": g, "seed": g, "players": players, "remote_seat": seat, "remote": remote,
                             "opponents": f"riskstats-engine:{opponents}", "winner": game.winner,
                             "remote_won": int(game.winner == seat), "turns": game.turn, "reason": game.reason,
                             "decisions": 0, "fallbacks": 0, "seconds": round(time.time() - start, 3)})
            f.flush()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domination", type=Path, help="folder with classes/ (or jars) and maps/ (docs/outside.md)")
    parser.add_argument("--bot", default="value-tuned", help="riskstats bot spec, or domination:<ai> (the control)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--opponents", default="hard",
                        help="every other seat: a Domination AI (hard, average, easy, crap) or a riskstats bot spec")
    parser.add_argument("--map", default="risk.map",
                        help="Domination's map file: risk.map (the classic, 81 borders) or luca.map (its main map, 82)")
    parser.add_argument("--first", type=int, default=0, help="first game number")
    parser.add_argument("--seeds", choices=SEED_SCHEMES,
                        help="how a game number becomes Domination's seed (default: the --out file's own; "
                             "splitmix64 for a new file; game: the number itself, as files before issue 54)")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--transcript", type=Path, help="also append every message both ways to this JSONL file")
    parser.add_argument("--summary", type=Path, help="print (and write summary.csv in) this folder's results")
    parser.add_argument("--baseline", action="store_true",
                        help="play the match in riskstats' own engine instead (riskstats --opponents only)")
    parser.add_argument("--pick-examples", type=Path, nargs="+", metavar="TRANSCRIPT",
                        help="write the tests' fixture (JSONL, to --out) from these transcripts")
    parser.add_argument("--all-remote", action="store_true",
                        help="every seat's decisions pass through the driver (the AI seats answer '@ai <opponents>')")
    parser.add_argument("--balance-first", action="store_true",
                        help="the measured seat moves (game %% players)-th: first in every players-th game "
                             "(implies --all-remote)")
    parser.add_argument("--delegate", metavar="PHASES",
                        help=f"the measured bot's phases a Domination AI plays, a comma list of {', '.join(PHASES)}")
    parser.add_argument("--delegate-ai", default="hard", choices=DOMINATION_AIS,
                        help="the Domination AI that plays the delegated phases")
    parser.add_argument("--cards", default="increasing", choices=CARD_MODES,
                        help="Domination's card mode: increasing sets or fixed values per kind of set")
    parser.add_argument("--records", type=Path, nargs="?", const=Path("auto"), metavar="FILE.jsonl",
                        help="append one JSON record per game (docs/outside.md; gzip- or xz-compressed if FILE ends in "
                             ".gz or .xz); alone: the --out CSV's records file (a packed .jsonl.xz is appended "
                             "to), else its name with .jsonl.gz, which --summary reads beside it")
    args = parser.parse_args(argv)
    if args.pick_examples:
        with args.out.open("w") as f:
            for example in pick_examples(args.pick_examples):
                f.write(json.dumps(example, separators=(",", ":")) + "\n")
        return 0
    if args.summary:
        table = summary(args.summary)
        table.to_csv(args.summary / "summary.csv", index=False, float_format="%.4f")
        print(summary_text(table))
        return 0
    if not (args.domination and args.out):
        parser.error("--domination and --out are needed to play")
    if args.baseline:
        baseline(args.domination, args.bot, args.players, args.games, args.out, args.first, args.opponents, args.map)
        return 0
    try:
        delegate = parse_delegate(args.delegate)
    except RiskstatsError as e:
        parser.error(str(e))
    if delegate and args.bot.startswith("domination:"):
        parser.error("--delegate hands a riskstats bot's phases to a Domination AI: --bot must be a riskstats bot")
    records = (records_beside(args.out) or args.out.with_suffix(".jsonl.gz")) if args.records == Path("auto") \
        else args.records
    try:
        run(args.domination, args.bot, args.players, args.games, args.out, args.first, args.transcript,
            args.opponents, args.map, all_remote=args.all_remote, balance_first=args.balance_first,
            delegate=delegate, delegate_ai=args.delegate_ai, records=records, cards=args.cards, seeds=args.seeds)
    except RiskstatsError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
