"""The dice rule: exact one-roll tables against published fractions and a brute-force count."""
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from riskstats.errors import RiskstatsError
from riskstats.odds.dice import DiceRules, round_outcomes

STANDARD = {  # attacker loses 0, 1, 2 armies; counts over 6 ** (na + nd) rolls (docs/rules.md, Osborne 2003)
    (3, 2): (2890, 2611, 2275),
    (3, 1): (855, 441),
    (2, 2): (295, 420, 581),
    (2, 1): (125, 91),
    (1, 2): (55, 161),
    (1, 1): (15, 21),
}


@pytest.mark.parametrize(("dice", "counts"), STANDARD.items())
def test_standard_one_roll_fractions(dice, counts):
    total = 6 ** sum(dice)
    assert DiceRules().outcome_fractions(*dice) == tuple(Fraction(c, total) for c in counts)


def brute_force(rules: DiceRules, na: int, nd: int) -> tuple[Fraction, ...]:
    """Count every roll directly: the definition in the dice module's docstring, written plainly."""
    k = min(na, nd)
    counts = [0] * (k + 1)
    for a_roll in product(range(1, rules.attacker_sides + 1), repeat=na):
        for d_roll in product(range(1, rules.defender_sides + 1), repeat=nd):
            a = sorted(a_roll, reverse=True)
            d = sorted(d_roll, reverse=True)
            d[0] = min(rules.defender_sides, max(1, d[0] + rules.defender_modifier))
            d.sort(reverse=True)
            lost = 0
            for x, y in zip(a, d):
                lost += y > x or (x == y and rules.ties == "defender")
            counts[lost] += 1
    total = rules.attacker_sides**na * rules.defender_sides**nd
    return tuple(Fraction(c, total) for c in counts)


VARIANTS = [
    DiceRules(defender_dice=3),
    DiceRules(ties="attacker"),
    DiceRules(defender_sides=8),
    DiceRules(attacker_sides=8, defender_sides=8, defender_dice=3),
    DiceRules(defender_modifier=1),
    DiceRules(defender_modifier=-1),
    DiceRules(attacker_sides=4, defender_sides=10, ties="attacker", defender_modifier=2),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=repr)
def test_variants_match_a_brute_force_count(rules):
    for na in range(1, rules.attacker_dice + 1):
        for nd in range(1, rules.defender_dice + 1):
            assert rules.outcome_fractions(na, nd) == brute_force(rules, na, nd)


def test_known_variant_values():
    # ties to the attacker: 1v1 the attacker wins when its die is at least the defender's, 21/36
    assert DiceRules(ties="attacker").outcome_fractions(1, 1)[0] == Fraction(21, 36)
    # a bunker (+1) makes a defending 6 unbeatable and lifts every other face by one
    assert DiceRules(defender_modifier=1).outcome_fractions(1, 1)[0] == Fraction(10, 36)
    # an 8-sided defender die against a 6-sided attacker: P(a > d) = sum_{a} (a - 1) / 48 = 15 / 48
    assert DiceRules(defender_sides=8).outcome_fractions(1, 1)[0] == Fraction(15, 48)


@given(
    st.integers(1, 3), st.integers(1, 3), st.integers(2, 10), st.integers(2, 10),
    st.sampled_from(["defender", "attacker"]), st.integers(-1, 1),
)
def test_tables_are_distributions(ad, dd, asides, dsides, ties, modifier):
    rules = DiceRules(ad, dd, asides, dsides, ties, modifier)
    exact = rules.table(exact=True)
    floats = rules.table()
    for na in range(1, ad + 1):
        for nd in range(1, dd + 1):
            assert sum(exact[na, nd]) == 1
            assert floats[na, nd].sum() == pytest.approx(1, abs=1e-15)
    assert np.allclose(floats, exact.astype(float), atol=0, rtol=1e-15)


def test_a_better_defender_never_helps_the_attacker():
    base = DiceRules().outcome_fractions(3, 2)[0]
    for better in (DiceRules(defender_sides=8), DiceRules(defender_modifier=1)):
        assert better.outcome_fractions(3, 2)[0] < base
    assert DiceRules(defender_modifier=-1).outcome_fractions(3, 2)[0] > base


def test_round_outcomes_frame():
    frame = round_outcomes(3, 2)
    assert list(frame.columns) == ["attacker_loses", "defender_loses", "p", "fraction"]
    assert frame.fraction.tolist() == [Fraction(c, 7776) for c in STANDARD[3, 2]]
    assert (frame.attacker_loses + frame.defender_loses == 2).all()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"attacker_dice": 4}, "attacker_dice must be from 1 to 3, got 4"),
        ({"defender_dice": 0}, "defender_dice must be from 1 to 3, got 0"),
        ({"attacker_sides": 1}, "attacker_sides must be from 2 to 20, got 1"),
        ({"ties": "zombie"}, "ties must be one of defender, attacker, got 'zombie'"),
        ({"defender_modifier": 6}, "defender_modifier must be from -5 to 5, got 6"),
        ({"defender_sides": 2.5}, "defender_sides must be a whole number, got 2.5"),
    ],
)
def test_bad_rules_are_refused_by_name(kwargs, message):
    with pytest.raises(RiskstatsError, match=message):
        DiceRules(**kwargs)


def test_dice_counts_beyond_the_rules_are_refused():
    with pytest.raises(RiskstatsError, match="defender dice must be from 1 to 2, got 3"):
        DiceRules().outcome_fractions(3, 3)


@pytest.mark.parametrize("rules", [DiceRules(), DiceRules(ties="attacker", defender_modifier=1),
                                   DiceRules(defender_dice=3, attacker_sides=8)])
def test_outcomes_given_the_attackers_roll_average_to_the_one_roll_table(rules):
    for na in range(1, rules.attacker_dice + 1):
        rolls = rules.attacker_rolls(na)
        assert sum(rolls.values()) == 1
        for nd in range(1, rules.defender_dice + 1):
            mixed = [sum(p * rules.outcome_fractions_given_roll(roll, nd)[i] for roll, p in rolls.items())
                     for i in range(min(na, nd) + 1)]
            assert tuple(mixed) == rules.outcome_fractions(na, nd)
