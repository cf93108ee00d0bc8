"""The official app's dice augments: the presets, how they combine, and SMG's published true-random figures.

Convention mapping: SMG's dice code (risk-dice v3.3) counts attackers without "the single attack troop that
stays behind" (its README: 20 troops attacking is ``BattleConfig(19, 10, 0)``), which is riskstats' "armies
able to roll". So SMG's ``(A, D)`` is riskstats' ``(A, D)``, one to one.
"""
import pytest

from riskstats.errors import RiskstatsError
from riskstats.odds.augments import ATTACKER_AUGMENTS, DEFENDER_AUGMENTS, with_augments
from riskstats.odds.battle import battle_odds
from riskstats.odds.dice import DiceRules


def test_the_presets_change_the_dice_rule_as_the_app_does():
    assert with_augments(defender="capital") == DiceRules(defender_dice=3)
    assert with_augments(defender="wall") == DiceRules(defender_dice=3)
    assert with_augments(defender="zombie") == DiceRules(ties="attacker")
    assert with_augments(attacker="zombie") == DiceRules(attacker_dice=2)
    assert with_augments(DiceRules(attacker_dice=1), attacker="zombie").attacker_dice == 1  # at least one die
    assert with_augments() == DiceRules()
    assert set(DEFENDER_AUGMENTS) == {"capital", "wall", "zombie"} and set(ATTACKER_AUGMENTS) == {"zombie"}


def test_augments_combine():
    both = with_augments(attacker=["zombie"], defender=["capital", "zombie"])
    assert both == DiceRules(attacker_dice=2, defender_dice=3, ties="attacker")
    assert with_augments(DiceRules(defender_dice=1), defender=["capital", "wall"]).defender_dice == 3


@pytest.mark.parametrize("kwargs, words", [
    ({"defender": ["capital", "wall"]}, "4 dice"),
    ({"defender": "castle"}, "unknown defender augment 'castle'"),
    ({"attacker": "capital"}, "unknown attacker augment"),
    ({"defender": ["zombie", "zombie"]}, "more than once"),
])
def test_impossible_augments_are_clear_errors(kwargs, words):
    with pytest.raises(RiskstatsError, match=words):
        with_augments(**kwargs)


def test_smg_published_round():
    # README example 1: one standard round, 3 dice against 2, P(attacker loses 2)
    assert float(DiceRules().outcome_fractions(3, 2)[2]) == pytest.approx(0.292566872427984, abs=1e-15)
    one_roll = battle_odds(3, 2, stop_at=1, goal=1).outcomes.p  # a battle that ends after exactly one roll
    assert one_roll.loc[(1, 2)] == pytest.approx(0.292566872427984, abs=1e-15)


def test_smg_published_zombie_defenders():
    # README example 2: 300 attackers against 800 zombie defenders (SMG's float32 answer: 0.8897331)
    result = battle_odds(300, 800, with_augments(defender="zombie"))
    # SMG sums its win-chance table in float32 (WinChanceInfo), which drifts by about 2e-7 over 240,000 states
    assert result.p_win == pytest.approx(0.8897331, abs=5e-7)
    assert round(result.p_win, 6) == 0.889733


def test_smg_published_capital_true_random():
    # README example 3: 30 attackers against 15 on a capital; P(attacker loses exactly 12), i.e. wins with 18 left
    result = battle_odds(30, 15, with_augments(defender="capital"))
    assert result.outcomes.p.loc[(18, 0)] == pytest.approx(0.0222128001707278, abs=1e-15)


def test_a_zombie_attacker_is_weaker_and_a_zombie_defender_weaker_still():
    plain = battle_odds(10, 10).p_win
    assert battle_odds(10, 10, with_augments(attacker="zombie")).p_win < plain
    assert battle_odds(10, 10, with_augments(defender="zombie")).p_win > plain
    assert battle_odds(10, 10, with_augments(defender="capital")).p_win < plain
