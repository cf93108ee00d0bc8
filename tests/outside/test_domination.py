"""scripts/outside/outside_domination.py: Domination's positions as riskstats positions, and riskstats moves as
Domination commands, checked on a transcript of the real engine (no Java needed).

The fixture ``data/domination_examples.jsonl`` was picked from two ``--transcript`` runs of the driver against
Domination 1.2.0's engine (continent-tuned in the remote seat, three hard AIs in 30 four-player games, one hard AI
in 3 two-player games) by
``python scripts/outside/outside_domination.py --pick-examples <transcripts> --out <fixture>``: each file's board
message, its first game's end, and per kind of decision the position the engine printed, the command the driver
sent (with the riskstats move it came from) and, when nobody else moved in between, the engine's next position.
"""
import importlib.util
import json
from pathlib import Path

import pytest

from riskstats.game.play import Game, Move
from riskstats.game.rules.board import board_from_dict, classic_board

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).parent / "data" / "domination_examples.jsonl"


def _script():
    spec = importlib.util.spec_from_file_location("outside_domination",
                                                  ROOT / "scripts" / "outside" / "outside_domination.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


D = _script()
LINES = [json.loads(line) for line in FIXTURE.read_text().splitlines()]
BOARDS = [e["board"] for e in LINES if "board" in e]
DECISIONS = [e for e in LINES if "decide" in e]
DETERMINISTIC = ("place", "trade", "pass", "occupy", "fortify")
"""Moves with no chance in them, whose result both engines must agree on."""


def _names(players: int):
    board = BOARDS[0] if players == 4 else BOARDS[1]
    return D.Names(board, board_from_dict(D.board_dict(board)))


def _game(example) -> tuple:
    msg, sent = example["decide"], example["sent"]
    names = _names(len(msg["players"]))
    rules = D.rules_for(len(msg["players"]))
    pos = D.position(msg, names, rules, sent.get("start_hand", 0), sent.get("seed", 0))
    return Game.from_json(pos, names.board), names, rules


def _decided(example):
    return [pytest.param(e, id=f"{len(e['decide']['players'])}p-{D.phase_of(e['decide'])}-{e['sent']['sent']}")
            for e in DECISIONS if example(e)]


def test_the_fixture_covers_every_phase_and_both_player_counts():
    phases = {(len(e["decide"]["players"]), D.phase_of(e["decide"])) for e in DECISIONS}
    for players in (2, 4):
        assert {(players, p) for p in ("claim", "setup_place", "trade", "reinforce", "attack", "occupy",
                                       "fortify")} <= phases
    assert (4, "elim_trade") in phases
    assert not any(e["decide"]["rejected"] for e in DECISIONS)


@pytest.mark.parametrize("board", BOARDS, ids=["4p", "2p"])
def test_dominations_map_is_the_classic_board_less_two_borders(board):
    """Same 42 territories in the same continents with the same bonuses; Domination's classic map lacks
    Iceland-Scandinavia and Great Britain-Scandinavia, and prints its own card symbols (14 of each, 2 wilds)."""
    ours, classic = board_from_dict(D.board_dict(board)), classic_board()
    assert sorted(ours.territories) == sorted(classic.territories)
    for k, name in enumerate(classic.continents):
        j = ours.continents.index(name)
        assert int(ours.arrays.continent_bonus[j]) == int(classic.arrays.continent_bonus[k])
        assert {ours.territories[t] for t in ours.continent_territories(j)} == \
            {classic.territories[t] for t in classic.continent_territories(k)}

    def borders(b):
        return {frozenset((b.territories[t], b.territories[u])) for t in range(42) for u in b.neighbours(t)}

    missing = {frozenset(("Iceland", "Scandinavia")), frozenset(("Great Britain", "Scandinavia"))}
    assert borders(ours) == borders(classic) - missing
    assert ours.n_borders == 81 and ours.n_cards == 44
    symbols = ours.arrays.card_symbol[ours.arrays.card_territory >= 0]
    assert sorted(symbols.tolist()) == [0] * 14 + [1] * 14 + [2] * 14
    assert len(D.NAMES) == 42 and sorted(D.NAMES.values()) == sorted(classic.territories)


def test_sets_traded_inverts_the_progressive_values():
    assert [D.sets_traded(v) for v in (4, 6, 8, 10, 12, 15, 20, 25, 30)] == list(range(9))


@pytest.mark.parametrize("example", _decided(lambda e: "seed" in e["sent"]))
def test_each_position_loads_and_the_bot_move_played_is_legal_there(example):
    """The engine's position maps to a valid riskstats position with the same owners, armies, hands and mover,
    and the move the bot chose there is legal in it."""
    game, names, _ = _game(example)
    msg = example["decide"]
    assert game.player == msg["seat"]
    for dom_id, owner, armies in msg["countries"]:
        t = names.board.territory_index(names.territory(dom_id))
        moved = msg["must_move"] if D.phase_of(msg) == "occupy" else 0
        if D.phase_of(msg) == "occupy" and dom_id == msg["defender"]:
            assert (game.state.owner[t], game.state.armies[t]) == (msg["seat"], moved)
        elif D.phase_of(msg) == "occupy" and dom_id == msg["attacker"]:
            assert (game.state.owner[t], game.state.armies[t]) == (owner, armies - moved)
        else:
            assert (game.state.owner[t], game.state.armies[t]) == (owner, armies)
    assert [len(h) for h in game.hands] == [len(p["cards"]) for p in msg["players"]]
    move = Move(*example["sent"]["raw"])
    assert game.check(move) == "", game.check(move)


@pytest.mark.parametrize("example", _decided(lambda e: "raw" in e["sent"] or "pending" in e["sent"]))
def test_the_command_sent_is_the_mapping_of_the_move(example):
    """A move maps to the Domination command the driver sent; a move decided in the middle of a battle on
    another pair retreats first, and an attack declared in "attacking" rolls its dice at the next decision."""
    msg, sent = example["decide"], example["sent"]
    names = _names(len(msg["players"]))
    if "raw" in sent:
        assert D.command(Move(*sent["raw"]), msg, names) == sent["sent"]
    else:  # the pending move: its dice, or itself after a retreat
        assert sent["sent"].split()[0] in ("roll", "attack", "endattack")


@pytest.mark.parametrize("example", _decided(lambda e: e["next"] and "raw" in e["sent"]
                                             and Move(*e["sent"]["raw"]).name in DETERMINISTIC))
def test_both_engines_agree_on_the_result_of_a_move_without_chance(example):
    """The move played in riskstats from the mapped position gives the position Domination printed next (the
    same owners and armies, hands and armies left to place): the command does what the move does."""
    game, names, rules = _game(example)
    move = Move(*example["sent"]["raw"])
    game.step(move)
    after = D.position(example["next"], names, rules, example["sent"].get("start_hand", 0))
    expected = Game.from_json(after, names.board)
    assert (game.state.owner == expected.state.owner).all()
    assert (game.state.armies == expected.state.armies).all()
    assert game.hands == expected.hands
    if expected.phase in ("reinforce", "trade", "elim_trade"):
        assert game.reserve == expected.reserve


def test_rolling_on_the_same_pair_rolls_and_another_move_retreats():
    example = next(e for e in DECISIONS if e["decide"]["state"] == D.ROLLING)
    msg = example["decide"]
    names = _names(len(msg["players"]))
    src, dst = (names.board.territory_index(names.territory(msg[k])) for k in ("attacker", "defender"))
    assert D.command(Move.attack(src, dst, 2), msg, names) == "roll 2"
    assert D.command(Move.end_attack(), msg, names) == "retreat"


def test_occupy_moves_the_dice_already_in_and_the_rest_with_move():
    example = next(e for e in DECISIONS if e["decide"]["state"] == D.BATTLE_WON)
    msg = example["decide"]
    names = _names(len(msg["players"]))
    assert D.command(Move.occupy(0), msg, names) == f"move {msg['must_move']}"
    assert D.command(Move.occupy(5), msg, names) == f"move {msg['must_move'] + 5}"


def test_the_games_end_with_a_seat_or_the_turn_cap():
    ends = [e["over"] for e in LINES if "over" in e]
    assert ends and all(0 <= e["winner"] < 4 and e["reason"] == "win" and e["turns"] > 0 for e in ends)


class _StubBridge:
    """Plays back the engine's side of one game: the board, the given decisions, the end."""

    def __init__(self, messages):
        self.messages, self.sent = list(messages), []

    def send(self, line, note=None):
        self.sent.append(line)

    def receive(self):
        return self.messages.pop(0)


@pytest.mark.parametrize("opponents", ["hard", "continent-tuned"])
def test_a_game_seats_the_bot_sends_its_commands_and_reports_the_end(opponents):
    """`play_one` names the seats in the `game` line (the measured seat is game % players; riskstats opponents sit
    in remote seats of their own), answers each decision with the mapped move, lets the passive AI play after a
    refused command, and reports the winner."""
    example = next(e for e in DECISIONS if len(e["decide"]["players"]) == 4 and D.phase_of(e["decide"]) == "reinforce"
                   and "raw" in e["sent"])
    msg = example["decide"]
    game = msg["seat"] + 4  # the measured seat is game % 4
    over = {"event": "over", "winner": msg["seat"], "turns": 60, "reason": "win"}
    bridge = _StubBridge([BOARDS[0], msg, {**msg, "rejected": True}, over])
    row = D.play_one(bridge, "continent-tuned", 4, game, opponents)
    seats = ["remote" if s == msg["seat"] or opponents != "hard" else "hard" for s in range(4)]
    assert bridge.sent[0] == f"game {D.domination_seed(game)} {D.MAX_TURNS} increasing {' '.join(seats)}"
    assert row["seed"] == D.domination_seed(game) != game  # the game number hashed (issue 54)
    assert bridge.sent[1].startswith("placearmies ") and bridge.sent[2] == "@ai crap"
    assert (row["remote_seat"], row["winner"], row["remote_won"], row["fallbacks"], row["decisions"]) == \
        (msg["seat"], msg["seat"], 1, 1, 1)
    assert row["opponents"] == ("domination:hard" if opponents == "hard" else "continent-tuned")


def test_a_move_chosen_mid_battle_retreats_then_attacks_and_throws_at_once(monkeypatch):
    """In the middle of a battle the bot picks another attack: the seat retreats, declares it, and throws its
    dice without asking the bot again (every declared attack throws, so a game cannot cycle without a throw)."""
    example = next(e for e in DECISIONS if e["decide"]["state"] == D.ROLLING and len(e["decide"]["players"]) == 4)
    rolling = example["decide"]
    names = _names(4)
    seat = D.RiskstatsSeat("continent-tuned", names, D.rules_for(4), 4, 0)
    other = next(c for c in rolling["countries"] if c[0] not in (rolling["attacker"], rolling["defender"]))[0]
    chosen = Move.attack(names.board.territory_index(names.territory(rolling["attacker"])),
                         names.board.territory_index(names.territory(other)), 2)
    asked = []

    class Scripted:
        def bot_move(self, spec):
            asked.append(spec)
            return chosen

    monkeypatch.setattr(seat, "game_at", lambda pos: Scripted())
    assert seat.answer(rolling) == "retreat"
    assert seat.answer({**rolling, "state": D.ATTACKING}) == f"attack {rolling['attacker']} {other}"
    assert seat.answer({**rolling, "defender": other}) == "roll 2"
    assert len(asked) == 1
