"""Play riskstats bots against Domination's built-in AIs in Domination's own engine (issue 30 §3).

Domination (GPL-3, Yura Mamyrin; github.com/sdyura/domination) is an open Risk game in Java. Its engine runs
headless here through our bridge ``scripts/outside/DominationBridge.java``, compiled against Domination's engine
classes, which the researcher obtains separately (docs/outside.md: how to get and build them; nothing of
Domination is in this repository). The AIs' wait is 0. One seat is "remote": at each of its decisions the
bridge prints Domination's whole position, this script maps it to a riskstats position (the same 42
territories, hands, discards, phase; `position`), asks the riskstats bot for its move (`Game.bot_move`) and
maps the move back to one Domination command (`command`), which the bridge plays in the engine.

    python scripts/outside_domination.py --domination build/domination --bot value-tuned --players 4 \\
        --games 300 --out data/outside/value-tuned_4p.csv
    python scripts/outside_domination.py --domination build/domination --bot domination:hard --players 4 \\
        --games 300 --out data/outside/control_4p.csv              # the control: a hard AI in the remote seat
    python scripts/outside_domination.py --summary data/outside          # Wilson intervals of every file

``--domination DIR`` names a folder with ``classes/`` (Domination's compiled engine and its resources, or
``domination.jar``), ``maps/risk.map`` and ``maps/risk.cards``; the bridge is compiled into ``DIR/bridge``.
Runs append one CSV row per game and resume where they stopped (the game number is the seed). The remote seat
is seat ``game % players``; Domination picks who moves first at random (from the game's seed).

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

from riskstats.errors import RiskstatsError
from riskstats.game.bots.catalog import parse_bot
from riskstats.game.play import Game
from riskstats.game.position import game_from_position
from riskstats.game.rules.board import board_from_dict
from riskstats.game.rules.context import compile_context
from riskstats.game.rules.options import GameRules
from riskstats.intervals import wilson_interval

HERE = Path(__file__).resolve().parent
BRIDGE_SOURCE = HERE / "outside" / "DominationBridge.java"

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
FIELDS = ("game", "seed", "players", "remote_seat", "remote", "opponents", "winner", "remote_won", "turns",
          "reason", "decisions", "fallbacks", "seconds")


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


def rules_for(players: int) -> GameRules:
    """The riskstats rules closest to Domination's "domination increasing recycle" game."""
    variant = {"variant": "two-player", "two_player_classic_50": True} if players == 2 else {"variant": "classic"}
    return GameRules(**variant, setup="choice", escalation="progressive", territory_bonus="per_set",
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
        game = Game.__new__(Game)
        game.rules, game.board, game.players, game.seed, game.state = game_from_position(pos, self.names.board)
        game.context = self.context
        game._events = None
        game._memory = self.memory
        return game

    def answer(self, msg: dict) -> str:
        if msg["setup_done"] and msg["turns"] != self.turn and msg["state"] in (TRADE_CARDS, PLACE_ARMIES):
            self.turn = msg["turns"]  # the first decision of a turn: nothing has changed the hand yet
            self.start_hand = len(msg["players"][msg["seat"]]["cards"])
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


def _seat_player(spec: str, names: Names, rules: GameRules, players: int, seed: int):
    if spec.startswith("domination:"):
        return DominationSeat(spec.split(":", 1)[1])
    return RiskstatsSeat(spec, names, rules, players, seed)


def play_one(bridge: Bridge, remote: str, players: int, game: int, opponents: str = "hard") -> dict:
    """One game: the measured seat (``game % players``; a riskstats bot spec, or ``domination:<ai>``) against
    ``players - 1`` opponents: a Domination AI (`DOMINATION_AIS`) in the engine's own seats, or a riskstats bot
    spec, each in a remote seat of its own. Returns the game's CSV row."""
    seat = game % players
    engine_ai = opponents in DOMINATION_AIS
    seats = [opponents if engine_ai else "remote"] * players
    seats[seat] = "remote"
    start = time.time()
    bridge.send(f"game {game} {MAX_TURNS} increasing {' '.join(seats)}")
    msg = bridge.receive()
    if msg["event"] != "board":
        raise RiskstatsError(f"expected the board from the bridge, got {msg}")
    rules = rules_for(players)
    names = Names(msg, board_from_dict(board_dict(msg), "Domination's map"))
    seated = {s: _seat_player(opponents, names, rules, players, game * players + s)
              for s in range(players) if s != seat and not engine_ai}
    seated[seat] = _seat_player(remote, names, rules, players, game)
    fallbacks = 0
    while True:
        msg = bridge.receive()
        if msg["event"] == "over":
            break
        if msg["event"] != "decide" or msg["seat"] not in seated:
            raise RiskstatsError(f"unexpected message from the bridge: {str(msg)[:200]}")
        if msg["rejected"]:  # the engine refused the last command: let its passive AI move instead
            fallbacks += 1
            bridge.send("@ai crap")
            continue
        player = seated[msg["seat"]]
        reply = player.answer(msg)
        bridge.send(reply, {"seat": msg["seat"], **player.note})
    return {"game": game, "seed": game, "players": players, "remote_seat": seat, "remote": remote,
            "opponents": f"domination:{opponents}" if engine_ai else opponents, "winner": msg["winner"],
            "remote_won": int(msg["winner"] == seat), "turns": msg["turns"], "reason": msg["reason"],
            "decisions": seated[seat].decisions, "fallbacks": fallbacks, "seconds": round(time.time() - start, 3)}


def run(domination: Path, remote: str, players: int, games: int, out: Path, first: int = 0,
        transcript: Path | None = None, opponents: str = "hard", map_file: str = "risk.map") -> None:
    """Play games ``first .. first + games - 1`` not yet in ``out`` (resumable), one CSV row each."""
    done = set()
    if out.exists():
        with out.open() as f:
            done = {int(r["game"]) for r in csv.DictReader(f)}
    todo = [g for g in range(first, first + games) if g not in done]
    if not todo:
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    bridge = Bridge(build_bridge(domination, map_file), transcript)
    failed = True
    try:
        with out.open("a", newline="") as f:
            writer = csv.DictWriter(f, FIELDS)
            if not done:
                writer.writeheader()
            for g in todo:
                writer.writerow(play_one(bridge, remote, players, g, opponents))
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
    done = set()
    if out.exists():
        with out.open() as f:
            done = {int(r["game"]) for r in csv.DictReader(f)}
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a", newline="") as f:
        writer = csv.DictWriter(f, FIELDS)
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


def summary(folder: Path):
    """Each CSV's win rate of the remote seat with its 95% Wilson interval and the fair share."""
    import pandas as pd

    rows = []
    for path in sorted(folder.glob("*.csv")):
        if path.name == "summary.csv":
            continue
        df = pd.read_csv(path)
        if df.empty:
            continue
        wins, n = int(df["remote_won"].sum()), len(df)
        low, high = wilson_interval(wins, n)
        rows.append({"file": path.name, "remote": df["remote"].iloc[0], "opponents": df["opponents"].iloc[0],
                     "players": int(df["players"].iloc[0]), "games": n, "wins": wins, "win_rate": wins / n,
                     "low95": low, "high95": high, "fair_share": 1 / int(df["players"].iloc[0]),
                     "draws": int((df["winner"] < 0).sum()), "fallbacks": int(df["fallbacks"].sum()),
                     "mean_turns": float(df["turns"].mean()), "seconds_per_game": float(df["seconds"].mean())})
    return pd.DataFrame(rows)


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
    parser.add_argument("--first", type=int, default=0, help="first game number (= its seed)")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--transcript", type=Path, help="also append every message both ways to this JSONL file")
    parser.add_argument("--summary", type=Path, help="print (and write summary.csv in) this folder's results")
    parser.add_argument("--baseline", action="store_true",
                        help="play the match in riskstats' own engine instead (riskstats --opponents only)")
    parser.add_argument("--pick-examples", type=Path, nargs="+", metavar="TRANSCRIPT",
                        help="write the tests' fixture (JSONL, to --out) from these transcripts")
    args = parser.parse_args(argv)
    if args.pick_examples:
        with args.out.open("w") as f:
            for example in pick_examples(args.pick_examples):
                f.write(json.dumps(example, separators=(",", ":")) + "\n")
        return 0
    if args.summary:
        table = summary(args.summary)
        table.to_csv(args.summary / "summary.csv", index=False, float_format="%.4f")
        print(table.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
        return 0
    if not (args.domination and args.out):
        parser.error("--domination and --out are needed to play")
    if args.baseline:
        baseline(args.domination, args.bot, args.players, args.games, args.out, args.first, args.opponents, args.map)
        return 0
    run(args.domination, args.bot, args.players, args.games, args.out, args.first, args.transcript, args.opponents,
        args.map)
    return 0


if __name__ == "__main__":
    sys.exit(main())
