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


@pytest.fixture(scope="module")
def record():
    from riskstats.analysis.trajectories import replay
    from riskstats.runs.selfplay import play_games

    games = play_games(8, 4, "random,aggressive,continent,defensive", seed=11)
    return games, *replay(games)


def test_territory_and_continent_armies_match_the_engine(record):
    from riskstats.analysis.cards import reinforcement_sources

    games, turns, events = record
    wide = reinforcement_sources(turns, events).pivot_table(index=["game", "turn"], columns="source",
                                                              values="armies")
    grants = events[(events.move == "reinforce") & (events.phase != "elim_trade")].set_index(["game", "turn"])
    assert (wide.territories == grants.from_territories.reindex(wide.index)).all()
    assert (wide.continents == grants.from_continents.reindex(wide.index)).all()
    assert (wide.territories >= 3).all() and (wide.cards >= 0).all()


def test_set_values_escalate_across_players(record):
    from riskstats.analysis.cards import set_values
    from riskstats.game.rules import GameRules

    games, turns, events = record
    values = set_values(events, turns)
    for _, trades in values.groupby("game"):
        assert trades.value.tolist() == GameRules().set_values(len(trades))
    assert set(values.bonus_armies) <= {0, 2}


def test_forced_trades_and_captures(record):
    from riskstats.analysis.cards import elimination_captures, first_forced_trades

    games, turns, events = record
    forced = first_forced_trades(turns)
    assert len(forced) == 8 * 4
    captures = elimination_captures(events, turns)
    assert len(captures) == (events.eliminated >= 0).sum()
    logged = events[events.move == "capture"].groupby(["game", "turn"]).size()  # the log's capture rows
    counted = captures.groupby(["game", "turn"]).cards_captured.sum()
    assert (logged.reindex(counted.index, fill_value=0) == counted).all() and logged.sum() == counted.sum()
    assert (captures.player != captures.eliminated).all()
    assert (captures.traded_at_once[captures.cards_captured == 0] == 0).all()


def test_compare_escalation_plays_the_same_seeds_under_each_scheme():
    from riskstats.analysis.cards import compare_escalation

    result = compare_escalation(12, 3, "aggressive,continent,defensive", seed=4)
    assert result["lengths"].escalation.tolist() == ["progressive", "fixed", "none"]
    games = result["games"]
    seeds = games.groupby("escalation").seed.apply(list)
    assert seeds["progressive"] == seeds["fixed"] == seeds["none"]
    seats = result["seats"]
    assert set(seats.seat) == {0, 1, 2} and (seats.groupby("escalation").trials.sum() == 36).all()


def test_the_classic_deck_and_its_odds_table():
    from riskstats.analysis.cards import board_deck

    assert board_deck() == CLASSIC
    frame = set_odds(CLASSIC, 4)
    assert frame.fraction.tolist() == [0, 0, 0, Fraction(200, 473), Fraction(15844, 19393)]
    with pytest.raises(RiskstatsError, match="max_cards must be from 0 to 44, got 50"):
        set_odds(CLASSIC, 50)
