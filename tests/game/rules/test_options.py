"""GameRules: validation, set values, the rule vector."""
import pytest

from riskstats.errors import RiskstatsError
from riskstats.game.rules import options as rules_module
from riskstats.game.rules.board import classic_board
from riskstats.game.rules.options import (
    OBJ_CAPITAL,
    OBJ_MISSION,
    OBJ_TERRITORIES,
    OBJECTIVE,
    R_CARDS_PER_TURN,
    R_NEUTRAL,
    R_OBJECTIVE,
    R_SEATS,
    R_START,
    VARIANTS,
    GameRules,
)


def test_progressive_values():
    assert GameRules().set_values(10) == [4, 6, 8, 10, 12, 15, 20, 25, 30, 35]


@pytest.mark.parametrize("kwargs", [{"variant": "risk2210"}, {"escalation": "steep"}, {"fortify": "anywhere"},
                                    {"territory_bonus": "always"}, {"setup": "auction"}, {"max_turns": 0},
                                    {"two_player_classic_50": True}, {"fixed_values": (1, 2)},
                                    {"cards_per_turn": "all"}])
def test_bad_options(kwargs):
    with pytest.raises(RiskstatsError):
        GameRules(**kwargs)


def test_players_and_starting_armies():
    board = classic_board()
    assert GameRules().starting_armies(4, board) == 30
    assert GameRules().starting_armies(6, board) == 20
    with pytest.raises(RiskstatsError):
        GameRules().check_players(2, board)
    with pytest.raises(RiskstatsError):
        GameRules(variant="two-player").check_players(3, board)
    r = GameRules(variant="two-player").vector(2, board)
    assert (r[R_NEUTRAL], r[R_SEATS], r[R_START]) == (2, 3, 40)
    r = GameRules(variant="two-player", two_player_classic_50=True).vector(2, board)
    assert (r[R_NEUTRAL], r[R_SEATS], r[R_START]) == (-1, 2, 50)


def test_record_is_plain():
    d = GameRules().as_dict()
    assert d["cards_per_turn"] == "one"
    assert GameRules(cards_per_turn="per_conquest").vector(4, classic_board())[R_CARDS_PER_TURN] == 1
    assert d["setup"] == "choice" and d["dice"]["defender_dice"] == 2
    assert GameRules(variant="two-player").as_dict()["setup"] == "deal"


def test_every_variant_names_its_objective_and_the_vector_carries_it():
    assert set(OBJECTIVE) == set(VARIANTS)
    board = classic_board()
    players = {"classic": 4, "two-player": 2, "mission": 4, "capital": 4}
    objectives = {v: GameRules(variant=v).vector(players[v], board)[R_OBJECTIVE] for v in VARIANTS}
    assert objectives == {"classic": OBJ_TERRITORIES, "two-player": OBJ_TERRITORIES, "mission": OBJ_MISSION,
                          "capital": OBJ_CAPITAL}


@pytest.mark.parametrize("option, slot, prefix", [
    ("setup", "R_SETUP", "SETUP_"), ("escalation", "R_ESCALATION", "ESCALATION_"),
    ("territory_bonus", "R_BONUS", "BONUS_"), ("fortify", "R_FORTIFY", "FORTIFY_"),
    ("cards_per_turn", "R_CARDS_PER_TURN", "CARDS_"), ("mission_deck", "R_MISSION_DECK", "DECK_"),
    ("mission_target_lost", "R_TARGET_LOST", "TARGET_")])
def test_each_option_value_has_the_named_constant_the_kernels_compare_with(option, slot, prefix):
    """``R[R_FORTIFY] == FORTIFY_ADJACENT``, never ``== 1``: each value of an option, written into its slot by
    `GameRules.vector`, equals the constant named after it."""
    board = classic_board()
    values = {"setup": rules_module.SETUPS, "escalation": rules_module.ESCALATIONS,
              "territory_bonus": rules_module.TERRITORY_BONUSES, "fortify": rules_module.FORTIFY,
              "cards_per_turn": rules_module.CARDS_PER_TURN, "mission_deck": rules_module.MISSION_DECKS,
              "mission_target_lost": rules_module.TARGET_LOST}[option]
    for value in values:
        variant = "mission" if option.startswith("mission") else "classic"
        written = GameRules(variant=variant, **{option: value}).vector(4, board)[getattr(rules_module, slot)]
        constant = prefix + value.upper()
        assert getattr(rules_module, constant) == written, constant


def test_the_tests_take_their_variants_from_one_shared_list():
    """`tests.variants.MAIN` has one case per variant (so a new variant reaches every test that runs over them),
    and no test module defines its own list of variant cases."""
    import ast
    from pathlib import Path

    from tests.variants import MAIN, OPTIONS

    assert list(MAIN) == list(VARIANTS)
    assert all(rules.variant == name for name, (_, rules) in MAIN.items())
    assert {rules.variant for _, rules in OPTIONS.values()} <= set(VARIANTS)
    tests = Path(__file__).resolve().parents[2]
    for path in sorted(tests.rglob("test_*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "VARIANTS" for t in node.targets):
                calls = [n for n in ast.walk(node.value) if isinstance(n, ast.Call)
                         and getattr(n.func, "id", "") == "GameRules"]
                assert not calls, f"{path.relative_to(tests)} defines its own variant cases"


# ---------------------------------------------------------------- one way in: from_dict, the table, key=value
def test_the_rule_table_has_a_row_for_every_option_with_its_default():
    from dataclasses import asdict, fields

    from riskstats.game.rules.options import RULE_OPTIONS

    assert list(RULE_OPTIONS) == [f.name for f in fields(GameRules)]
    plain = GameRules()
    for name, option in RULE_OPTIONS.items():
        value = getattr(plain, name)
        assert option.default == (asdict(value) if name == "dice" else value), name
        assert option.help and len(option.help) <= 100, name
        if option.allowed is not None and option.default is not None:
            assert option.default in option.allowed, name


@pytest.mark.parametrize("rules", [GameRules(), GameRules(variant="mission", mission_deck="european"),
                                   GameRules(escalation="fixed", fixed_values=(4, 6, 8, 12), fortify="adjacent"),
                                   GameRules(variant="capital", capital_short=True, setup="deal"),
                                   GameRules(variant="two-player", two_player_classic_50=True)])
def test_from_dict_is_the_inverse_of_as_dict(rules):
    import json

    from riskstats.odds.dice import DiceRules

    again = GameRules.from_dict(json.loads(json.dumps(rules.as_dict())))
    assert again.as_dict() == rules.as_dict()
    assert GameRules.from_dict({"dice": {"defender_dice": 3}}).dice == DiceRules(defender_dice=3)


@pytest.mark.parametrize("options, message", [
    ({"escalatoin": "fixed"}, "unknown rule option escalatoin; known: "),
    ({"dice": {"sides": 8}}, "unknown dice option sides"),
    ({"dice": 3}, "dice must be a table"),
    ({"fixed_values": 4}, "fixed_values must be a list"),
    ({"fortify": "teleport"}, "fortify must be one of connected, adjacent"),
])
def test_from_dict_names_what_is_wrong(options, message):
    with pytest.raises(RiskstatsError, match=message):
        GameRules.from_dict(options)


def test_from_dict_keeps_the_callers_own_options_out_of_the_dict():
    assert GameRules.from_dict({"fortify": "adjacent"}, variant="mission").variant == "mission"
    with pytest.raises(RiskstatsError, match="unknown rule option variant"):
        GameRules.from_dict({"variant": "capital"}, variant="mission")


@pytest.mark.parametrize("text, parsed", [
    ("fortify=adjacent", ("fortify", "adjacent")), ("max_turns = 200", ("max_turns", 200)),
    ("capital_short=true", ("capital_short", True)), ("neutral_interleaved=0", ("neutral_interleaved", False)),
    ("fixed_values=4,6,8,12", ("fixed_values", (4, 6, 8, 12))),
    ("dice.defender_dice=3", ("dice", {"defender_dice": 3})),
    ("dice.ties=attacker", ("dice", {"ties": "attacker"})),
])
def test_a_rule_typed_as_key_value(text, parsed):
    from riskstats.game.rules.options import parse_rule

    assert parse_rule(text) == parsed


@pytest.mark.parametrize("texts, message", [
    (["fortify"], "key=value"), (["colour=red"], "unknown rule option colour"), (["max_turns=lots"], "whole numbers"),
    (["capital_short=maybe"], "true or false"), (["dice=3"], "dice.<option>"), (["dice.sides=8"], "unknown dice"),
    (["fortify=adjacent", "fortify=connected"], "given twice"),
])
def test_a_bad_key_value_rule_is_named(texts, message):
    from riskstats.game.rules.options import parse_rules

    with pytest.raises(RiskstatsError, match=message):
        parse_rules(texts)


def test_variants_are_decided_in_options_alone():
    """The two-player default and what a variant is won by are asked of options.py, not compared by name."""
    import re
    from pathlib import Path

    from riskstats.game.rules.options import variant_for

    assert variant_for("classic", 2) == "two-player" and variant_for("classic", 4) == "classic"
    assert [GameRules(variant=v).objective for v in ("classic", "two-player", "mission", "capital")] == \
        ["territories", "territories", "mission", "capital"]
    package = Path(rules_module.__file__).resolve().parents[2]
    compared = [f"{p.relative_to(package)}:{m.group(0)}" for p in package.rglob("*.py") if p.name != "options.py"
                for m in re.finditer(r'rules\.variant ?[!=]= ?"[a-z-]+"|variant == "classic" and players == 2',
                                     p.read_text())]
    assert not compared


def test_rule_slots_name_every_slot_of_the_vector():
    from riskstats.game.rules import options
    from riskstats.game.rules.board import classic_board

    assert [getattr(options, "R_" + name.upper()) for name in options.RULE_SLOTS] == list(range(options.R_SIZE))
    assert options.GameRules().vector(4, classic_board()).shape == (len(options.RULE_SLOTS),)
