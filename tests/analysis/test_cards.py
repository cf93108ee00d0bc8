"""The chance of holding a valid set: exact combinatorics, a brute-force count and a simulation."""
from fractions import Fraction
from itertools import combinations

import pytest

from riskstats.analysis.cards import SYMBOLS, has_set, p_valid_set, set_odds, simulate_set_odds
from riskstats.errors import RiskstatsError

CLASSIC = {"infantry": 14, "cavalry": 14, "artillery": 14, "wild": 2}


def test_set_rules():
    assert has_set(3, 0, 0, 0) and has_set(1, 1, 1, 0) and has_set(2, 0, 0, 1) and has_set(0, 1, 0, 2)
    assert not has_set(2, 1, 0, 0) and not has_set(0, 0, 0, 2) and not has_set(1, 0, 0, 1)


def test_five_cards_always_hold_a_set_and_two_never_do():
    assert p_valid_set(5, CLASSIC) == 1
    assert p_valid_set(2, CLASSIC) == 0
    assert p_valid_set(4, CLASSIC) < 1


def test_small_deck_against_counting_every_hand():
    deck = {"infantry": 3, "cavalry": 2, "artillery": 4, "wild": 1}
    cards = [s for s in range(4) for _ in range(deck[SYMBOLS[s]])]
    for n in range(0, 6):
        hands = list(combinations(range(len(cards)), n))
        good = sum(has_set(*(sum(cards[i] == s for i in hand) for s in range(4))) for hand in hands)
        assert p_valid_set(n, deck) == Fraction(good, len(hands))


@pytest.mark.slow
def test_simulation_agrees_within_four_standard_errors():
    exact = set_odds(CLASSIC)
    simulated = simulate_set_odds(CLASSIC, trials=200_000, seed=7)
    gap = (exact.p_set - simulated.p_set).abs()
    assert (gap <= 4 * simulated.se + 1e-12).all()
    assert simulate_set_odds(CLASSIC, trials=1000, seed=3).equals(simulate_set_odds(CLASSIC, trials=1000, seed=3))


def test_bad_decks():
    with pytest.raises(RiskstatsError, match="wild cards must be at least 0, got -1"):
        p_valid_set(3, {**CLASSIC, "wild": -1})
    with pytest.raises(RiskstatsError, match="cards must be from 0 to 44, got 45"):
        p_valid_set(45, CLASSIC)
