"""Continent analyses: board facts, exact conquest costs, and win rates on hand-made records."""
import pandas as pd
import pytest

from riskstats.analysis.continents import (
    conquest_path,
    continent_cost,
    continent_facts,
    first_continent_win_rates,
    holding_win_rates,
)
from riskstats.errors import RiskstatsError
from riskstats.game.board import classic_board
from riskstats.odds.chain import attackers_needed, chain_odds


def test_classic_continent_facts():
    facts = continent_facts().set_index("continent")
    assert facts.loc["Australia", ["bonus", "territories", "borders", "entries"]].tolist() == [2, 4, 1, 1]
    assert facts.loc["South America", ["borders", "entries"]].tolist() == [2, 2]
    assert facts.loc["Africa", ["borders", "entries"]].tolist() == [3, 4]
    assert facts.loc["Europe", "borders"] == 4 and facts.loc["North America", "borders"] == 3
    assert facts.loc["Asia", ["bonus", "territories", "borders"]].tolist() == [7, 12, 5]
    assert facts.bonus_per_border.idxmax() == "Australia"


def test_conquest_paths_walk_through_every_territory():
    board = classic_board()
    for name in board.continents:
        path = conquest_path(board, name)
        k = board.continents.index(name)
        assert sorted(path) == sorted(t for t in range(42) if board.arrays.continent_of[t] == k)
        assert all(board.arrays.adjacency[a, b] for a, b in zip(path, path[1:]))
    with pytest.raises(RiskstatsError, match="unknown continent 'Atlantis'"):
        conquest_path(board, "Atlantis")


def test_continent_cost_is_the_exact_chain():
    cost = continent_cost(defenders=2, p=0.9).set_index("continent")
    chain = [2] * 4
    needed = attackers_needed(chain, 0.9)
    assert cost.loc["Australia", "attackers_needed"] == needed.attackers
    assert cost.loc["Australia", "expected_losses"] == pytest.approx(
        chain_odds(needed.attackers, chain).expected_attacker_losses)
    assert cost.loc["Australia", "payback_turns"] == pytest.approx(cost.loc["Australia", "expected_losses"] / 2)
    assert cost.loc["Asia", "expected_losses"] > cost.loc["Europe", "expected_losses"] > cost.loc["Australia",
                                                                                                    "expected_losses"]


def hand_made():
    """Two 2-player games of two turns: seat 0 holds Australia at its round-1 turn in both, wins one."""
    base = {"North America": False, "South America": False, "Europe": False, "Africa": False, "Asia": False}
    rows = []
    for game in (0, 1):
        for turn, to_move in ((1, 0), (2, 1)):
            for seat in (0, 1):
                australia = seat == 0
                rows.append({"game": game, "turn": turn, "round": 1, "to_move": to_move, "seat": seat,
                             "territories": 21, "armies": 30, "cards": 0, "alive": True, **base,
                             "Australia": australia})
    turns = pd.DataFrame(rows)
    games = pd.DataFrame({"game": [0, 1], "winner": [0, 1], "players": [2, 2]})
    return turns, games


def test_holding_win_rates_on_a_hand_made_record():
    turns, games = hand_made()
    rates = holding_win_rates(turns, games, at_round=1).set_index("continent")
    assert rates.loc["Australia", ["holders", "wins", "win_rate"]].tolist() == [2, 1, 0.5]
    assert rates.loc["Asia", "holders"] == 0
    assert (rates.baseline == 0.5).all()


def test_first_continent_win_rates_on_a_hand_made_record():
    turns, games = hand_made()
    rates = first_continent_win_rates(turns, games).set_index("first_continent")
    assert rates.loc["Australia", ["seats", "wins"]].tolist() == [2, 1]
    assert rates.loc["none", ["seats", "wins"]].tolist() == [2, 1]


def test_first_continent_by_round():
    turns, games = hand_made()
    rates = first_continent_win_rates(turns, games, by_round=0).set_index("first_continent")
    assert rates.index.tolist() == ["none"] and rates.loc["none", "seats"] == 4
