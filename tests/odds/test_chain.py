"""Chains of conquests and the inverse query, checked against compositions of single battles."""
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from riskstats.errors import RiskstatsError
from riskstats.odds.battle import battle_odds
from riskstats.odds.chain import attackers_needed, chain_odds
from riskstats.odds.dice import DiceRules


def composed(attackers, defenders, rules, leave):
    """P(conquering all) by conditioning on the survivors of each battle, one battle at a time."""
    if not defenders:
        return Fraction(1)
    first = battle_odds(attackers, defenders[0], rules[0], exact=True)
    total = Fraction(0)
    for a, d, p in zip(first.attackers_left, first.defenders_left, first.p):
        if d == 0:
            rest = defenders[1:]
            if not rest:
                total += p
            elif a - leave > 0:
                total += p * composed(int(a) - leave, rest, rules[1:], leave)
    return total


@pytest.mark.parametrize(("attackers", "defenders", "leave"),
                         [(8, [2, 3], 1), (12, [3, 1, 2], 2), (5, [1, 1, 1, 1], 1)])
def test_chain_is_the_composition_of_battles(attackers, defenders, leave):
    rules = [DiceRules(), DiceRules(defender_sides=8), DiceRules(defender_dice=3)][: len(defenders)]
    rules += [DiceRules()] * (len(defenders) - len(rules))
    result = chain_odds(attackers, defenders, rules, leave=leave, exact=True)
    assert result.p_all == composed(attackers, defenders, rules, leave)
    assert sum(result.distribution.ravel()) == 1


@given(st.integers(1, 30), st.lists(st.integers(1, 8), min_size=1, max_size=5))
def test_chain_laws(attackers, defenders):
    result = chain_odds(attackers, defenders)
    at_least = result.p_at_least
    assert result.distribution.sum() == pytest.approx(1, abs=1e-12)
    assert all(x >= y - 1e-15 for x, y in zip(at_least, at_least[1:]))
    assert at_least[-1] == pytest.approx(result.p_all, abs=1e-15)
    assert at_least[0] == pytest.approx(battle_odds(attackers, defenders[0]).p_win, abs=1e-13)
    assert chain_odds(attackers, defenders, leave=2).p_all <= result.p_all + 1e-15


def test_one_territory_chain_is_the_plain_battle():
    for a, d in [(1, 1), (3, 2), (17, 11)]:
        assert chain_odds(a, [d], exact=True).p_all == battle_odds(a, d, exact=True).p_win
        plain = battle_odds(a, d)
        expected_left = sum(x * p for x, y, p in zip(plain.attackers_left, plain.defenders_left, plain.p) if y == 0)
        assert chain_odds(a, [d]).expected_armies_left == pytest.approx(expected_left, abs=1e-13)


def test_outcomes_frame():
    frame = chain_odds(6, [2, 2]).outcomes
    assert frame.index.names == ["conquered", "armies_left"]
    assert frame.p.sum() == pytest.approx(1)
    assert frame.loc[2].index.min() >= 1  # a conquered territory always holds an army


def test_attackers_needed_is_the_smallest_force():
    for defenders, p in [(5, 0.8), (1, 0.5), ([3, 2, 2], 0.9), (20, 0.99)]:
        needed = attackers_needed(defenders, p)
        ds = [defenders] if isinstance(defenders, int) else defenders
        assert needed.p_win >= p
        assert needed.attackers == 1 or chain_odds(needed.attackers - 1, ds).p_all < p
        assert needed.p_win == pytest.approx(chain_odds(needed.attackers, ds).p_all)


def test_attackers_needed_under_a_variant():
    assert attackers_needed(5, 0.8, DiceRules(defender_sides=8)).attackers > attackers_needed(5, 0.8).attackers


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: attackers_needed(5, 0), r"p must be a probability in \(0, 1\], got 0"),
        (lambda: attackers_needed(5, 1.5), "got 1.5"),
        (lambda: chain_odds(5, []), "a chain needs 1 to 1000 territories, got 0"),
        (lambda: chain_odds(5, [2, 0]), "defenders must be from 1 to 1000000, got 0"),
        (lambda: chain_odds(5, [2, 2], [DiceRules()]), "one per territory"),
        (lambda: chain_odds(5, [2], leave=0), "leave must be at least 1, got 0"),
    ],
)
def test_bad_input_is_refused_by_name(call, message):
    with pytest.raises(RiskstatsError, match=message):
        call()


def test_expected_losses_of_a_chain():
    for a, d in [(5, 3), (12, 7)]:  # one territory: the battle's own expected losses
        assert chain_odds(a, [d], exact=True).expected_attacker_losses == \
            battle_odds(a, d, exact=True).expected_attacker_losses
    # two territories: losses of both battles, the army left behind is not lost
    result = chain_odds(8, [1, 1], exact=True)
    first = battle_odds(8, 1, exact=True)
    expected = Fraction(0)
    for a, d, p in zip(first.attackers_left, first.defenders_left, first.p):
        expected += p * (8 - a)
        if d == 0 and a - 1 > 0:
            expected += p * battle_odds(int(a) - 1, 1, exact=True).expected_attacker_losses
    assert result.expected_attacker_losses == expected
