"""Continent analyses: board facts, exact conquest costs, and win rates on hand-made records."""
import pandas as pd
import pytest

from riskstats.analysis.continents import (
    conquest_path,
    continent_cost,
    continent_facts,
    first_continent_win_rates,
    first_target_arms,
    holding_win_rates,
    opening_cost,
    opening_positions,
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


def test_opening_positions_place_every_starting_army():
    positions = opening_positions(3, players=4, seed=5)
    board = classic_board()
    assert len(positions) == 3 * board.n_territories
    assert (positions.groupby("game").armies.sum() == 4 * 30).all()  # 30 starting armies each
    assert (positions.groupby(["game", "owner"]).armies.sum() == 30).all()
    assert (positions.armies >= 1).all()


def test_opening_cost_is_the_exact_chain_on_enemy_territories():
    board = classic_board()
    path = conquest_path(board, "Australia")
    positions = pd.DataFrame({"game": 0, "territory": range(board.n_territories), "continent": "",
                              "owner": [t % 2 for t in range(board.n_territories)], "armies": 2})
    positions.loc[path[0], ["owner", "armies"]] = [0, 5]
    positions.loc[path[1:], "owner"] = 1
    positions.loc[path[2], "armies"] = 4
    summary, views = opening_cost(positions, p=0.8, board=board)
    chain = [2, 4, 2]
    needed = attackers_needed(chain, 0.8)
    row = views[(views.seat == 0) & (views.continent == "Australia")].iloc[0]
    assert row.enemy_territories == 3 and row.defenders == 8
    assert row.attackers_needed == needed.attackers
    assert row.expected_losses == pytest.approx(chain_odds(needed.attackers, chain).expected_attacker_losses)
    aus = summary.set_index("continent").loc["Australia"]
    assert aus.views == 2
    assert aus.expected_losses == pytest.approx((row.expected_losses + views.expected_losses[
        (views.seat == 1) & (views.continent == "Australia")].iloc[0]) / 2)
    # seat 1 holds the rest of the path: it attacks path[0]'s 5 armies alone
    assert views[(views.seat == 1) & (views.continent == "Australia")].defenders.iloc[0] == 5


def test_first_target_arms_name_the_continents_and_pair_the_arms():
    from riskstats.runs.selfplay import play_games

    lineup = "continent,aggressive,defensive,aggressive"
    cells = []
    for i, first in enumerate((-1, 5, 1)):
        values = [0.5, 0.75, 2.0, first]
        games = play_games(12, 4, lineup, seed=3, params={"continent": values})
        cells.append(games.assign(cell=f"cell-00{i}", lineup=lineup, **{"params.continent": str(values)}))
    table = pd.concat(cells, ignore_index=True)
    arms, effects = first_target_arms(table)
    assert arms.target.tolist() == ["own choice", "Australia", "South America"]
    assert arms.wins.tolist() == [int((c.winner_bot == "continent").sum()) for c in cells]
    assert effects.target.tolist() == ["Australia", "South America"]
    assert effects.effect.tolist() == pytest.approx([arms.win_rate[1] - arms.win_rate[0],
                                                     arms.win_rate[2] - arms.win_rate[0]])
    # the named form read_experiment gives (first=Australia) reads the same
    named = table.assign(**{"params.continent": table.cell.map(
        {"cell-000": "first=-1", "cell-001": "first=Australia", "cell-002": "first=South America"})})
    assert first_target_arms(named)[0].target.tolist() == ["own choice", "Australia", "South America"]
