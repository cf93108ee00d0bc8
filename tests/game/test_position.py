"""Positions: to_json / from_json round trips over every variant, hand-written positions, invalid ones."""
import json

import numpy as np
import pytest

from riskstats.errors import RiskstatsError
from riskstats.game.play import Game
from riskstats.game.rules.options import GameRules
from riskstats.game.rules.state import I_DECK_N, I_LOG_N
from tests.variants import MAIN

LINEUPS = {"classic": ["aggressive", "continent", "defensive", "random"], "two-player": ["aggressive", "random"],
           "mission": ["mission", "aggressive", "continent", "random"], "capital": ["capital", "aggressive", "random"]}
VARIANTS = [(rules, players, LINEUPS[name]) for name, (players, rules) in MAIN.items()]


def same_state(g, h):
    """Every array of the two games' states equal (the event log and the bots' scratch memory aside)."""
    for field in g.state._fields:
        if field in ("log", "scratch"):
            continue
        a, b = getattr(g.state, field), getattr(h.state, field)
        if field == "deck":
            n = g.state.info[I_DECK_N]
            a, b = a[:n], b[:n]
        if field == "info":
            a, b = np.delete(a, I_LOG_N), np.delete(b, I_LOG_N)
        assert np.array_equal(a, b), field


@pytest.mark.parametrize("rules, players, bots", VARIANTS, ids=lambda v: getattr(v, "variant", None))
@pytest.mark.parametrize("moves", [3, 80, 400, 1200])
def test_round_trip_continues_the_same_game(rules, players, bots, moves):
    game = Game(players, rules, seed=11).play(bots, max_moves=moves)
    text = game.to_json()
    again = Game.from_json(text)
    same_state(game, again)
    assert again.phase == game.phase and again.player == game.player and again.to_json() == text
    assert again.legal_moves() == game.legal_moves()
    assert game.play(bots).result() == again.play(bots).result()


def test_every_phase_round_trips():
    """Positions in the defend, occupy, trade and fortify phases (stepping a game with Python moves)."""
    game = Game(3, seed=5)
    seen = set()
    for _ in range(3000):
        if game.over:
            break
        seen.add(game.phase)
        again = Game.from_json(json.loads(game.to_json()))
        same_state(game, again)
        game.step(game.bot_move("aggressive"))
    assert {"claim", "setup_place", "reinforce", "attack", "defend", "occupy", "fortify"} <= seen


def hand_written():
    """A real-looking two-player (no neutral) position written by hand: player 0 holds everything but
    Kamchatka, where player 1 has 2 armies; Alaska has 6. Draw pile order unknown."""
    board = Game(3).board
    territories = {name: [0, 1] for name in board.territories}
    territories["Kamchatka"] = [1, 2]
    territories["Alaska"] = [0, 6]
    return {"format": "riskstats-position/1", "board": "classic", "players": 2,
            "rules": {"variant": "two-player", "two_player_classic_50": True},
            "seed": 3, "phase": "attack", "player": 0, "turn": 9, "round": 5,
            "territories": territories, "hands": [["Alaska", "wild"], ["Peru"]], "discard": ["Egypt", "Ural"]}


def test_hand_written_position():
    game = Game.from_json(hand_written())
    assert game.phase == "attack" and game.player == 0 and game.turn == 9
    assert game.hands[0] == [0, 42] and len(game.hands[1]) == 1
    assert game.state.info[I_DECK_N] == 44 - 5 and set(game.state.deck[:39]).isdisjoint({0, 42})
    assert game.check((3, 0, game.board.territory_index("Kamchatka"), 3)) == ""
    # unknown pile order: shuffled from the seed, so another seed gives another order, the same one the same
    other = hand_written() | {"seed": 4}
    assert not np.array_equal(Game.from_json(other).state.deck[:39], game.state.deck[:39])
    assert np.array_equal(Game.from_json(hand_written()).state.deck[:39], game.state.deck[:39])
    game.play(["aggressive"])
    assert game.over


def edit(**changes):
    pos = hand_written()
    for key, value in changes.items():
        if value is None:
            pos.pop(key)
        else:
            pos[key] = value
    return pos


def territories(**changes):
    pos = hand_written()
    for name, value in changes.items():
        pos["territories"][name.replace("_", " ")] = value
    return pos


@pytest.mark.parametrize("position, message", [
    ("{not json", "not JSON"),
    ([1, 2], "a position is a JSON object"),
    (edit(colour="red"), "unknown key 'colour'"),
    (edit(format="other/1"), "format must be"),
    (edit(board="atlantis"), "unknown board 'atlantis'"),
    (edit(players=7), "players must be from 2 to 6"),
    (edit(rules={"variant": "chess"}), "variant must be one of"),
    (edit(rules={"speed": 3}), "rules:"),
    (edit(phase="lunch"), "phase must be one of"),
    (edit(player=1 + 1), "player must be"),
    (edit(turn=None), "'turn' is required"),
    (edit(territories=None), "territories must be an object"),
    (territories(Atlantis=[0, 1]), "unknown territory 'Atlantis'"),
    (territories(Alaska=[5, 1]), "territory 'Alaska': owner must be a seat from 0 to 1"),
    (territories(Alaska=[0, 0]), "territory 'Alaska': an owned territory holds at least 1 army"),
    (territories(Alaska=[0]), "give [owner seat, armies]"),
    (edit(hands=[["Alaska"], ["Alaska"]]), "card 'Alaska' is listed twice"),
    (edit(hands=[["Mordor"], []]), "unknown card 'Mordor'"),
    (edit(hands=[["wild", "wild", "wild"], []]), "more wild cards"),
    (edit(hands=[[]]), "hands must be a list of 2 lists"),
    (edit(hands=["Alaska", []]), "hand 0 must be a list of cards"),
    (edit(deck=["Brazil"]), "the deck is given but card"),
    (edit(phase="reinforce"), "needs a reserve"),
    (edit(phase="defend"), "needs pending_attack"),
    (edit(phase="defend", player=1, pending_attack=["Alaska", "Peru", 3]), "adjacent enemy"),
    (edit(missions=["Asia+Africa", "destroy red"]), "missions are only for the mission variant"),
    (edit(rng="abc"), "rng must be"),
    (edit(engine={"colour": 1}), "unknown engine field 'colour'"),
])
def test_invalid_positions_name_the_problem(position, message):
    with pytest.raises(RiskstatsError, match="invalid position") as error:
        Game.from_json(position)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_a_bad_owner_names_the_territory_the_value_and_every_seat_allowed():
    """The one message `riskstats evaluate` and `riskstats show` both print: the two-player neutral's seat
    and, in the claim phase, -1 (unclaimed) are named among the owners allowed."""
    neutral = territories(Alaska=[5, 1]) | {"rules": "two-player"}
    with pytest.raises(RiskstatsError) as error:
        Game.from_json(neutral)
    assert str(error.value) == ("invalid position: territory 'Alaska': owner must be a seat from 0 to 2 "
                                "(2: the neutral), got 5")
    claim = territories(Alaska=[-3, 0]) | {"phase": "claim", "turn": 0, "round": 0}
    with pytest.raises(RiskstatsError) as error:
        Game.from_json(claim)
    assert str(error.value) == ("invalid position: territory 'Alaska': owner must be a seat from 0 to 1, "
                                "or -1 while unclaimed, got -3")


def test_missing_territory_and_player_without_land():
    pos = hand_written()
    del pos["territories"]["Peru"]
    with pytest.raises(RiskstatsError, match="territory 'Peru' is missing"):
        Game.from_json(pos)
    pos = territories(Kamchatka=[0, 2])
    pos["player"] = 1
    with pytest.raises(RiskstatsError, match="player 1 is to move but owns no territory"):
        Game.from_json(pos)


def test_mission_names_are_read_back():
    game = Game(4, GameRules(variant="mission"), seed=2).play(["mission"], max_moves=300)
    pos = json.loads(game.to_json())
    del pos["mission_rows"]
    assert Game.from_json(pos).missions() == game.missions()
    pos["missions"][0] = "conquer the moon"
    with pytest.raises(RiskstatsError, match="seat 0: unknown or repeated mission 'conquer the moon'"):
        Game.from_json(pos)


def test_the_cards_per_turn_rule_is_part_of_a_position():
    game = Game(4, GameRules(cards_per_turn="per_conquest"), seed=2).play(["aggressive"], max_moves=300)
    position = json.loads(game.to_json())
    assert position["rules"]["cards_per_turn"] == "per_conquest"
    again = Game.from_json(position)
    assert again.rules.cards_per_turn == "per_conquest"
    same_state(game.play(["aggressive"], max_moves=400), again.play(["aggressive"], max_moves=400))
    del position["rules"]["cards_per_turn"]  # a position written before the option: docs/rules.md's one card
    assert Game.from_json(position).rules.cards_per_turn == "one"
    with pytest.raises(RiskstatsError, match="cards_per_turn must be one of"):
        Game.from_json({**position, "rules": {"cards_per_turn": "all"}})


def test_aliases_are_honoured_and_unknown_names_get_a_suggestion():
    """The board file's name_aliases ("Mexico", "Russia") name territories and cards; a misspelt name is
    refused with the closest real one."""
    pos = hand_written()
    pos["territories"]["Mexico"] = pos["territories"].pop("Central America")
    pos["territories"]["Russia"] = pos["territories"].pop("Ukraine")
    pos["hands"] = [["Mexico", "wild"], ["Russia"]]
    game = Game.from_json(pos)
    assert game.hands[0] == [game.board.territory_index("Central America"), 42]
    assert game.hands[1] == [game.board.territory_index("Ukraine")]
    same_state(game, Game.from_json(hand_written() | {"hands": [["Central America", "wild"], ["Ukraine"]]}))
    for position, message in (
            (territories(Kamchatca=[1, 2]), "unknown territory 'Kamchatca' on board 'classic'; did you mean "
                                            "'Kamchatka'?"),
            (territories(Mexico=[0, 1]), "territory 'Central America' is given twice"),
            (edit(hands=[["Alsaka"], []]), "unknown card 'Alsaka'.*did you mean 'Alaska'"),
            (edit(hands=[["Mexico", "Central America"], []]), "card 'Central America' is listed twice")):
        with pytest.raises(RiskstatsError, match=message):
            Game.from_json(position)


def test_templates_load_in_every_variant():
    from riskstats.game.position import template_position

    for players, variant in ((3, None), (6, None), (2, None), (2, "two-player"), (5, "mission"), (4, "capital")):
        pos = template_position(players, variant)
        game = Game.from_json(json.dumps(pos))
        assert game.phase == "reinforce" and game.turn == 1 and game.player == 0
        armies = game.territories().groupby("owner").armies.sum()
        assert (armies.iloc[:players] == game.rules.starting_armies(players, game.board)).all()
        game.play(["aggressive"], max_moves=50)  # it plays on
    with pytest.raises(RiskstatsError, match="variant must be one of"):
        template_position(3, "risk2210")


def test_docs_list_exactly_the_board_territory_names():
    """docs/positions.md's territory table is the board's: every name once, in the board's order, with its
    continent and aliases."""
    from pathlib import Path

    board = Game(3).board
    text = (Path(__file__).parents[2] / "docs" / "positions.md").read_text()
    section = text.split("## Territory names", 1)[1].split("\n## ", 1)[0]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in section.splitlines()
            if line.startswith("| ") and not line.startswith("| continent")]
    assert [r[1] for r in rows] == list(board.territories)
    assert [r[0] for r in rows] == [board.continents[k] for k in board.arrays.continent_of]
    aliases = {r[1]: [a.strip() for a in r[2].split(",") if a.strip()] for r in rows}
    assert {a: name for name, found in aliases.items() for a in found} == {
        a: n for a, n in board.aliases.items() if n in board.territories}


@pytest.mark.parametrize("position, message", [
    (territories(Alaska=[0, 10**30]), "territory 'Alaska': at most 1,000,000,000 armies"),
    (territories(Alaska=[0, 2**63]), "territory 'Alaska': at most 1,000,000,000 armies"),
    (territories(Alaska=[0, 10**9 + 1]), "territory 'Alaska': at most 1,000,000,000 armies"),
    (territories(Alaska=[0, [6]]), "territory 'Alaska': give [owner seat, armies]"),
    (territories(Alaska=[[0], 6]), "territory 'Alaska': give [owner seat, armies]"),
    (edit(reserve=[3]), "reserve must be an integer"),
    (edit(reserve=2**63), "reserve must be from 0 to"),
    (edit(turn=10**30), "turn must be from 0 to"),
    (edit(player=[0]), "player must be an integer"),
    (edit(hands=[[["Alaska"]], []]), "hand 0: a card is a territory's name"),
    (edit(hands=[[{"card": "Alaska"}], []]), "hand 0: a card is a territory's name"),
    (edit(discard=[7]), "discard: a card is a territory's name"),
    (edit(setup_armies=[2**63, 0]), "setup_armies must list 2 counts (0 to 1,000,000,000)"),
    (edit(out=[2**63, 0]), "out must list"),
    (edit(engine={"moves": 2**63}), "engine field 'moves' must be from 0 to 1000000000"),
    (edit(engine={"moves": [1]}), "engine field 'moves' must be an integer"),
    (edit(seed=[1]), "seed must be an integer"),
    (edit(aside=["Brazil"]), "aside: only Capital Risk sets cards aside"),
])
def test_extreme_numbers_and_wrong_types_name_the_problem(position, message):
    with pytest.raises(RiskstatsError, match="invalid position") as error:
        Game.from_json(position)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_a_billion_armies_is_the_most_a_territory_takes():
    game = Game.from_json(territories(Alaska=[0, 10**9]))
    assert game.state.armies[game.board.territory_index("Alaska")] == 10**9


def capital_position(moves=400):
    """A Capital Risk game after the capitals are revealed, as to_json writes it, and its capital cards."""
    from riskstats.game.rules.state import ASIDE

    game = Game(3, GameRules(variant="capital"), seed=11).play(["capital", "aggressive", "random"], max_moves=moves)
    assert game.phase not in ("claim", "setup_place", "capital")
    pos = json.loads(game.to_json())
    capital_cards = np.flatnonzero(game.state.card_owner == ASIDE)
    assert len(capital_cards) == 3 and sorted(pos["aside"]) == sorted(pos["capitals"])
    return pos, capital_cards


@pytest.mark.parametrize("drop", [["aside"], ["aside", "deck"]])
def test_capital_cards_are_set_aside_when_a_position_leaves_them_out(drop):
    """docs/positions.md lets a position leave `aside` out: the capital cards are set aside anyway, never
    in the draw pile, and a game played on from it never draws or trades them (docs/rules.md)."""
    from riskstats.game.rules.state import ASIDE

    pos, capital_cards = capital_position()
    for key in drop:
        del pos[key]
    game = Game.from_json(pos)
    assert (game.state.card_owner[capital_cards] == ASIDE).all()
    assert set(game.state.deck[:game.state.info[I_DECK_N]]).isdisjoint(capital_cards)
    game.play(["capital", "aggressive", "random"])
    assert game.over and (game.state.card_owner[capital_cards] == ASIDE).all()
    events = game.events()
    traded = set(events.card1) | set(events.card2) | set(events.card3)
    assert traded.isdisjoint(capital_cards) and set(events.card[events.move == "draw"]).isdisjoint(capital_cards)


def test_capital_positions_that_break_the_capital_cards_are_refused():
    pos, _ = capital_position()
    capital = pos["capitals"][0]

    def refused(change, message):
        bad = json.loads(json.dumps(pos))
        change(bad)
        with pytest.raises(RiskstatsError, match="invalid position") as error:
            Game.from_json(bad)
        assert message in str(error.value) and "\n" not in str(error.value), str(error.value)

    def to_hand(p):
        p["aside"].remove(capital)
        p["hands"][1].append(capital)

    def to_discard(p):
        p["aside"].remove(capital)
        p["discard"].append(capital)

    def to_deck(p):
        p["aside"].remove(capital)
        p["deck"].append(capital)

    def shared(p):
        p["capitals"][1] = capital

    def other_aside(p):
        card = p["deck"].pop()
        p["aside"].append(card)

    refused(to_hand, f"card {capital!r} is seat 0's capital card: it is set aside for good (never in a set), "
                     "not in hand 1")
    refused(to_discard, "not in the discard pile")
    refused(to_deck, "not in the deck")
    refused(shared, f"seats 0 and 1 share the capital {capital!r}")
    refused(other_aside, "is no seat's capital card")


def test_capital_picks_are_the_seats_own_territories():
    game = Game(3, GameRules(variant="capital"), seed=2)
    while game.phase != "capital":
        game.step(game.bot_move("aggressive"))
    game.step(game.bot_move("capital"))
    pos = json.loads(game.to_json())
    assert pos["capitals"][0] is not None and Game.from_json(pos).phase == "capital"
    mine = pos["capitals"][0]
    other = next(name for name, (owner, _) in pos["territories"].items() if owner == 1)
    with pytest.raises(RiskstatsError, match=f"seat 0's capital {other!r} is not its own territory"):
        Game.from_json({**pos, "capitals": [other, None, None]})
    with pytest.raises(RiskstatsError, match="aside: the capital cards are set aside once every capital is picked"):
        Game.from_json({**pos, "aside": [mine], "deck": [c for c in pos["deck"] if c != mine]})


def test_mission_rows_and_rule_switches_of_the_wrong_type_are_refused():
    game = Game(4, GameRules(variant="mission"), seed=2).play(["mission"], max_moves=300)
    pos = json.loads(game.to_json())
    for value in ([1], 2**63, None):
        bad = json.loads(json.dumps(pos))
        bad["mission_rows"][0][1] = value
        with pytest.raises(RiskstatsError, match="mission_rows must be 4 rows of 8 integers"):
            Game.from_json(bad)
    for value in ([1], 10**30, "yes"):
        with pytest.raises(RiskstatsError, match="neutral_interleaved must be true or false"):
            Game.from_json({**pos, "rules": {**pos["rules"], "neutral_interleaved": value}})
