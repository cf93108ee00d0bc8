"""scripts/outside/outside_domination.py as an instrument (issue 38 item 1): the phase delegation, the first player
and its balancing, the per-game records and their metrics, checked on the fixture of real engine positions
(``data/domination_examples.jsonl``, see test_domination.py) and on small synthetic records; no Java needed."""
import copy
import csv
import importlib.util
import json
from pathlib import Path

import pytest

import riskstats.analysis.outside_records as R
from riskstats.errors import RiskstatsError
from riskstats.game.play import Move
from riskstats.game.rules.board import board_from_dict

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).parent / "data" / "domination_examples.jsonl"


def _script():
    spec = importlib.util.spec_from_file_location("outside_domination_instrument",
                                                  ROOT / "scripts" / "outside" / "outside_domination.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


D = _script()
LINES = [json.loads(line) for line in FIXTURE.read_text().splitlines()]
BOARDS = [e["board"] for e in LINES if "board" in e]
DECISIONS = [e for e in LINES if "decide" in e]


def _names(players: int):
    board = BOARDS[0] if players == 4 else BOARDS[1]
    return D.Names(board, board_from_dict(D.board_dict(board)))


def _example(state: int, players: int = 4, with_next: bool = False, sent: str | None = None):
    return next(e for e in DECISIONS if e["decide"]["state"] == state and len(e["decide"]["players"]) == players
                and (e["next"] or not with_next) and (sent is None or e["sent"]["sent"].startswith(sent)))


# ------------------------------------------------------------------ delegation
def test_parse_delegate_keeps_the_phase_order_and_refuses_unknown_phases():
    assert D.parse_delegate("fortify, attack") == ("attack", "fortify")
    assert D.parse_delegate(None) == () and D.parse_delegate("") == ()
    assert D.parse_delegate(",".join(D.PHASES)) == D.PHASES
    with pytest.raises(RiskstatsError, match="occupy"):
        D.parse_delegate("attack,occupy")


def test_every_riskstats_phase_of_a_decision_belongs_to_one_delegated_phase():
    assert set(D.PHASE_GROUP.values()) == set(D.PHASES)
    assert {D.PHASE_GROUP[p] for p in ("attack", "occupy")} == {"attack"}
    assert {D.PHASE_GROUP[p] for p in ("claim", "setup_place")} == {"setup"}
    assert {D.PHASE_GROUP[p] for p in ("trade", "elim_trade")} == {"trade"}


class _ScriptedGame:
    def __init__(self, move, asked):
        self.move, self.asked = move, asked

    def bot_move(self, spec):
        self.asked.append(spec)
        return self.move


@pytest.mark.parametrize("phases", [("attack",), ("setup", "trade"), ("reinforce", "fortify"), D.PHASES])
def test_a_delegated_phase_is_answered_by_the_domination_ai_and_the_rest_by_the_bot(phases, monkeypatch):
    """Per decision of the fixture: its phase group decides who answers; the bot still tracks the turn and the hand
    at its start when the AI answers (the turn's trade delegated, the forced-trade rule still sees that hand)."""
    for example in DECISIONS:
        msg = example["decide"]
        if "raw" not in example["sent"]:
            continue
        names = _names(len(msg["players"]))
        bot = D.RiskstatsSeat("continent-tuned", names, D.rules_for(len(msg["players"])), len(msg["players"]), 0)
        seat = D.DelegatingSeat(bot, phases, "hard")
        asked = []
        scripted = _ScriptedGame(Move(*example["sent"]["raw"]), asked)
        monkeypatch.setattr(bot, "game_at", lambda pos, scripted=scripted: scripted)
        reply = seat.answer(msg)
        if D.PHASE_GROUP[D.phase_of(msg)] in phases:
            assert reply == "@ai hard" and not asked and seat.delegated == 1
            assert seat.note == {"delegated": D.PHASE_GROUP[D.phase_of(msg)]}
        else:
            assert reply == example["sent"]["sent"] and asked == ["continent-tuned"] and seat.delegated == 0
        assert seat.decisions == 1
        if msg["setup_done"] and msg["state"] in (D.TRADE_CARDS, D.PLACE_ARMIES):
            assert (bot.turn, bot.start_hand) == (msg["turns"], len(msg["players"][msg["seat"]]["cards"]))


def test_a_move_pending_from_the_bots_battle_is_dropped_when_the_phase_is_handed_over(monkeypatch):
    rolling = _example(D.ROLLING)["decide"]
    names = _names(4)
    bot = D.RiskstatsSeat("continent-tuned", names, D.rules_for(4), 4, 0)
    bot.pending = Move.end_attack()
    seat = D.DelegatingSeat(bot, ("fortify",))
    fortify = _example(D.FORTIFYING)["decide"]
    assert seat.answer(fortify) == "@ai hard" and bot.pending is None
    bot.pending = Move.end_attack()
    seat = D.DelegatingSeat(bot, ("attack",))
    assert seat.answer(rolling) == "@ai hard" and bot.pending is None


# ------------------------------------------------------------------ the first player
def test_the_first_player_is_the_claimer_less_the_territories_claimed():
    for example in DECISIONS:
        msg = example["decide"]
        if D.phase_of(msg) != "claim":
            continue
        players = len(msg["players"])
        claimed = sum(o >= 0 for _, o, _ in msg["countries"])
        assert D.first_player(msg) == (msg["seat"] - claimed) % players
        blank = {**msg, "countries": [[i, -1, 0] for i, _, _ in msg["countries"]]}
        assert D.first_player(blank) == msg["seat"]
    assert D.first_player(_example(D.ATTACKING)["decide"]) is None


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_balancing_puts_the_measured_seat_at_each_place_in_the_turn_order_equally(players):
    """Domination's first player comes from the seed's first draw, nearly constant over consecutive seeds (seat 1
    in every two-player game 0-299): the balanced measured seat moves first in every players-th game anyway."""
    for first in range(players):
        places = [(D.measured_seat(g, players, first) - first) % players for g in range(3 * players)]
        assert places == [g % players for g in range(3 * players)]
    assert [D.measured_seat(g, players) for g in range(players)] == list(range(players))  # unbalanced: game % players


class _StubBridge:
    def __init__(self, messages):
        self.messages, self.sent = list(messages), []

    def send(self, line, note=None):
        self.sent.append(line)

    def receive(self):
        return self.messages.pop(0)


@pytest.mark.parametrize("game", [8, 9, 10, 11])
def test_a_balanced_game_seats_everyone_remote_and_measures_the_seat_at_its_turn_place(game):
    claim = next(e["decide"] for e in DECISIONS if len(e["decide"]["players"]) == 4
                 and D.phase_of(e["decide"]) == "claim")
    first = D.first_player(claim)
    measured = (first + game % 4) % 4
    over = {"event": "over", "winner": measured, "turns": 60, "reason": "win"}
    bridge = _StubBridge([BOARDS[0], claim, over])
    records = []
    row = D.play_one(bridge, "domination:hard", 4, game, "hard", balance_first=True, records=records)
    assert bridge.sent[0] == f"game {D.domination_seed(game)} {D.MAX_TURNS} increasing remote remote remote remote"
    assert bridge.sent[1] == "@ai hard"
    assert (row["remote_seat"], row["first_player"], row["remote_won"]) == (measured, first, 1)
    assert row["seating"] == "all-remote+balanced" and row["delegate"] == ""
    assert set(D.FIELDS[:13]) <= set(row) and set(row) == set(D.FIELDS)
    (rec,) = records
    assert (rec["measured"], rec["first"], rec["winner"]) == (measured, first, measured)
    assert rec["order"] == [(first + i) % 4 for i in range(4)]


def test_a_delegating_game_names_its_delegate_in_the_row():
    claim = next(e["decide"] for e in DECISIONS if len(e["decide"]["players"]) == 4
                 and D.phase_of(e["decide"]) == "claim")
    game = claim["seat"]  # unbalanced: the claimer is the measured seat
    bridge = _StubBridge([BOARDS[0], claim, {"event": "over", "winner": 0, "turns": 60, "reason": "win"}])
    row = D.play_one(bridge, "continent-tuned", 4, game, "hard", all_remote=True, delegate=("setup",))
    assert bridge.sent[1] == "@ai hard" and row["delegate"] == "setup@hard" and row["seating"] == "all-remote"
    assert row["decisions"] == 1


# ------------------------------------------------------------------ the records
def _recorder(players: int = 4, measured: int = 0):
    return D.Recorder(BOARDS[0] if players == 4 else BOARDS[1], 7, players, measured, 1, "x", "domination:hard")


def _country(msg, dom_id):
    return next((o, a) for i, o, a in msg["countries"] if i == dom_id)


def test_the_record_reads_a_trade_off_two_positions():
    example = _example(D.TRADE_CARDS, with_next=True, sent="trade")
    msg, nxt = example["decide"], example["next"]
    rec = _recorder()
    rec.see(msg)
    rec.see(nxt)
    seat = msg["seat"]
    assert rec.record["trades"] == [[seat, msg["next_set"], len(msg["players"][seat]["cards"]),
                                     int(bool(msg["trade_cap"]))]]


@pytest.mark.parametrize("players", [2, 4])
def test_the_record_reads_rolls_retreats_and_occupations(players):
    rec = _recorder(players)
    seen = 0
    for example in DECISIONS:
        msg, nxt = example["decide"], example["next"]
        if len(msg["players"]) != players or not nxt or msg["state"] not in (D.ROLLING, D.BATTLE_WON):
            continue
        rec.prev = None
        rec.see(msg)
        rec.see(nxt)
        seen += 1
        a, (d_owner, d) = _country(msg, msg["attacker"])[1], _country(msg, msg["defender"])
        after_a, after_d = _country(nxt, msg["attacker"])[1], _country(nxt, msg["defender"])
        if msg["state"] == D.BATTLE_WON:
            moved = int(example["sent"]["sent"].split()[1])
            assert rec.record["occupations"][-1] == [msg["seat"], a - 1, msg["must_move"], moved]
            assert after_d == (msg["seat"], moved)
        elif example["sent"]["sent"] == "retreat":
            assert rec.record["rolls"][-1] == [msg["seat"], a - 1, d, 0, 0, 0, d_owner]
        else:
            conquered = after_d[0] == msg["seat"]
            moved = after_d[1] if conquered and nxt["state"] != D.BATTLE_WON else 0  # the engine moved them in
            lost = [a - after_a - moved, d if conquered else d - after_d[1]]
            assert rec.record["rolls"][-1] == [msg["seat"], a - 1, d, 1, *lost, d_owner]
            if moved:
                assert rec.record["occupations"][-1] == [msg["seat"], moved, moved, moved]
    assert seen >= 4


def test_the_record_reads_a_declared_attack_and_a_turn_start_snapshot():
    example = _example(D.ATTACKING, with_next=True, sent="attack")
    msg, nxt = example["decide"], example["next"]
    rec = _recorder()
    rec.see(msg)
    rec.see(nxt)
    assert nxt["state"] == D.ROLLING
    seat = msg["seat"]
    (_, a), (owner, d) = _country(msg, nxt["attacker"]), _country(msg, nxt["defender"])
    assert rec.record["attacks"] == [[seat, a, d, owner, msg["turns"]]]
    (start,) = rec.record["starts"]  # the same turn: one snapshot
    assert start[:2] == [seat, msg["turns"]]
    assert start[2] == [p["territories"] for p in msg["players"]]
    assert start[4] == [len(p["cards"]) for p in msg["players"]]
    assert sum(start[3]) == sum(a for _, o, a in msg["countries"] if o >= 0)
    border, interior, largest, ones = start[6]
    mine = [a for _, o, a in msg["countries"] if o == seat]
    assert border + interior == sum(mine) and largest == max(mine) and ones == mine.count(1)
    assert len(start[5]) == 6


def test_the_record_names_the_eliminator_the_cards_held_and_the_winners_last_kills():
    msg = copy.deepcopy(_example(D.ROLLING)["decide"])
    seat, victim = msg["seat"], (msg["seat"] + 1) % 4
    msg["players"][victim]["territories"] = 1
    msg["players"][victim]["cards"] = [3, 4]
    nxt = copy.deepcopy(msg)
    nxt["players"][victim]["territories"] = 0
    nxt["state"] = D.BATTLE_WON
    rec = _recorder(measured=seat)
    rec.see(msg)
    rec.see(nxt)
    assert rec.record["eliminations"] == [[victim, seat, msg["turns"], 2]]
    stats = [[k] * len(R.ENGINE_STATS) for k in range(4)]
    out = rec.finish({"event": "over", "winner": seat, "turns": msg["turns"], "reason": "win", "stats": stats})
    assert out["engine"] == stats and R.RECORD_FIELDS["engine"] == R.ENGINE_STATS
    alive = [q for q, p in enumerate(nxt["players"]) if q not in (seat, victim) and p["territories"] > 0]
    assert [e[0] for e in out["eliminations"][1:]] == alive
    assert all(e[1] == seat for e in out["eliminations"])
    assert out["winner"] == seat and json.loads(json.dumps(out)) == out


def test_resuming_keeps_an_older_csvs_columns_and_drops_records_of_games_not_in_it(tmp_path):
    out = tmp_path / "x.csv"
    out.write_text(",".join(D.FIELDS[:13]) + "\n" + ",".join(["3"] * 13) + "\n")
    done, fields = D._done_games(out)
    assert done == {3} and fields == D.FIELDS[:13]
    assert D._done_games(tmp_path / "none.csv") == (set(), D.FIELDS)
    records = tmp_path / "x.jsonl.gz"
    for g in (3, 4):
        R.append_record(records, {"game": g})
    D._resume_records(records, done)
    assert R.read_records(records) == [{"game": 3}]
    assert R.records_beside(out) == records


def test_a_conquest_the_engine_moved_in_itself_is_an_occupation_and_its_armies_are_no_loss():
    """With no choice (the dice thrown are every army that can move) the engine moves in at once and goes back to
    attacking: the record has the occupation, and the armies that left the attacking territory are not losses."""
    msg = copy.deepcopy(_example(D.ROLLING)["decide"])
    seat, a, d = msg["seat"], msg["attacker"], msg["defender"]
    defender = _country(msg, d)[0]
    msg["countries"] = [[i, o, 4 if i == a else 1 if i == d else x] for i, o, x in msg["countries"]]
    nxt = copy.deepcopy(msg)
    nxt["state"] = D.ATTACKING
    nxt["countries"] = [[i, seat if i == d else o, 1 if i == a else 3 if i == d else x] for i, o, x in msg["countries"]]
    rec = _recorder(measured=seat)
    rec.see(msg)
    rec.see(nxt)
    assert rec.record["rolls"] == [[seat, 3, 1, 1, 0, 1, defender]]
    assert rec.record["occupations"] == [[seat, 3, 3, 3]]


def test_the_last_throws_losses_come_from_the_engines_casualties_and_the_record_then_agrees_with_it():
    msg = copy.deepcopy(_example(D.ROLLING)["decide"])
    seat, a, d = msg["seat"], msg["attacker"], msg["defender"]
    defender = _country(msg, d)[0]
    msg["countries"] = [[i, o, 5 if i == a else 2 if i == d else x] for i, o, x in msg["countries"]]
    rec = _recorder(measured=seat)
    rec.record["seating"] = "all-remote"
    rec.see(msg)
    stats = [[0] * len(R.ENGINE_STATS) for _ in range(4)]
    stats[seat][:5] = [2, 1, 0, 0, 1]  # kills, casualties, attacks, retreats, countries won
    stats[defender][:2] = [1, 2]
    out = rec.finish({"event": "over", "winner": seat, "turns": msg["turns"], "reason": "win", "stats": stats})
    assert out["rolls"] == [[seat, 4, 2, 1, 1, 2, defender]]
    assert R.engine_disagreements(out) == []
    stats[seat][2] = 1  # an attack the record does not hold
    assert R.engine_disagreements(out) == [f"seat {seat} attacks: 0 in the record, 1 in the engine"]
    assert R.engine_disagreements({**out, "seating": "engine"}) == []


def test_a_file_is_resumed_only_with_the_seating_and_delegation_it_was_played_with(tmp_path):
    out = tmp_path / "x.csv"
    out.write_text(",".join(D.FIELDS[:13]) + "\n" + ",".join(["3"] * 13) + "\n")  # older: no delegation
    assert D._done_games(out, "engine", "")[0] == {3} == D._done_games(out, "all-remote", "")[0]
    with pytest.raises(RiskstatsError, match="delegate"):
        D._done_games(out, "engine", "attack@hard")
    row = {**dict.fromkeys(D.FIELDS, 1), "seating": "all-remote+balanced", "delegate": "attack@hard"}
    with out.open("w", newline="") as f:
        writer = csv.DictWriter(f, D.FIELDS)
        writer.writeheader()
        writer.writerow(row)
    assert D._done_games(out, "all-remote+balanced", "attack@hard") == ({1}, D.FIELDS)
    with pytest.raises(RiskstatsError, match="delegate"):
        D._done_games(out, "all-remote+balanced", "")
    with pytest.raises(RiskstatsError, match="seating"):
        D._done_games(out, "engine", "attack@hard")
    assert D.seating_of("hard") == "engine" and D.seating_of("continent-tuned") == "all-remote"
    assert D.seating_of("hard", balance_first=True) == "all-remote+balanced"


def test_a_refused_commands_repeated_position_is_not_recorded():
    example = _example(D.ROLLING, with_next=True)
    msg = example["decide"]
    game = msg["seat"]  # unbalanced: the mover is the measured seat
    claim = next(e["decide"] for e in DECISIONS if len(e["decide"]["players"]) == 4
                 and D.phase_of(e["decide"]) == "claim")
    claim = {**claim, "seat": game, "countries": [[i, -1, 0] for i, _, _ in claim["countries"]]}
    over = {"event": "over", "winner": -1, "turns": 1000, "reason": "turn_cap"}
    records = []
    bridge = _StubBridge([BOARDS[0], claim, msg, {**msg, "rejected": True}, over])
    row = D.play_one(bridge, "domination:hard", 4, game, "hard", records=records)
    assert row["fallbacks"] == 1 and bridge.sent[-1] == "@ai crap"
    assert records[0]["rolls"] == [] and row["first_player"] == game


def test_the_card_mode_sets_the_rules_the_command_and_what_a_file_resumes_with(tmp_path):
    assert D.rules_for(4).escalation == "progressive"
    fixed = D.rules_for(4, "fixed")
    assert fixed.escalation == "fixed" and fixed.fixed_values == (4, 6, 8, 10)  # Domination's fixed set values
    with pytest.raises(RiskstatsError, match="card mode 'italian'"):
        D.rules_for(4, "italian")
    out = tmp_path / "x.csv"
    out.write_text(",".join(D.FIELDS[:13]) + "\n" + ",".join(["3"] * 13) + "\n")  # older: increasing cards
    assert D._done_games(out, cards="increasing")[0] == {3}
    with pytest.raises(RiskstatsError, match="cards"):
        D._done_games(out, cards="fixed")


def test_the_game_number_is_hashed_into_dominations_seed_and_a_file_resumes_with_its_own_scheme(tmp_path):
    """Issue 54: Domination's seed is splitmix64 of the game number (java.util.Random's first draws hardly differ
    between consecutive seeds), a Java long; files played with the game number as the seed resume with it."""
    assert D.domination_seed(0) == 0xE220A8397B1DCDAF - 2**64  # splitmix64's first output from 0, signed
    assert D.domination_seed(1) == 0x910A2DEC89025CC1 - 2**64 and D.domination_seed(7, "game") == 7
    seeds = [D.domination_seed(g) for g in range(1000)]
    assert all(-2**63 <= s < 2**63 for s in seeds) and len({s & (2**48 - 1) for s in seeds}) == 1000  # Random's bits
    with pytest.raises(RiskstatsError, match="unknown seed scheme 'java'"):
        D.domination_seed(3, "java")
    header = ",".join(D.FIELDS[:13]) + "\n"
    row = [None, None] + ["0"] * 11
    old, new = tmp_path / "old.csv", tmp_path / "new.csv"
    old.write_text(header + ",".join(["3", "3"] + row[2:]) + "\n")
    new.write_text(header + ",".join(["3", str(D.domination_seed(3))] + row[2:]) + "\n")
    assert D._run_seeds(old, None) == "game" and D._run_seeds(new, None) == "splitmix64"
    assert D._run_seeds(tmp_path / "absent.csv", None) == "splitmix64" == D.SEED_SCHEMES[0]
    with pytest.raises(RiskstatsError, match="played with seeds 'game', not 'splitmix64'"):
        D._run_seeds(old, "splitmix64")
    mixed = tmp_path / "mixed.csv"
    mixed.write_text(old.read_text() + ",".join(["4", str(D.domination_seed(4))] + row[2:]) + "\n")
    with pytest.raises(RiskstatsError, match="several seed schemes"):
        D._run_seeds(mixed, None)
