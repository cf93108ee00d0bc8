"""Continent analyses: board facts, exact conquest costs, opening costs and first-target arms."""
import numpy as np
import pandas as pd
import pytest

from riskstats.analysis.continents import (
    FORCED,
    choice_shares,
    conquest_path,
    continent_cost,
    continent_facts,
    first_choices,
    first_target_arms,
    opening_cost,
    opening_positions,
    target_versus,
)
from riskstats.errors import RiskstatsError
from riskstats.game.rules.board import classic_board
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
    # the ranking uses the paired tests only: each arm's win rate is its own, the rank the pairs' verdict
    from riskstats.analysis.continents import rank_targets

    ranked = rank_targets(table).set_index("target")
    assert sorted(ranked.index) == sorted(arms.target)
    assert ranked.win_rate.to_dict() == pytest.approx(arms.set_index("target").win_rate.to_dict())
    assert (ranked["rank"] >= 1).all() and ranked["rank"].min() == 1


def test_opening_cost_intervals_resample_whole_boards():
    """Two boards: a bootstrap over games has only three means (either board, or both), so its 95% interval
    runs from one board's mean to the other's; an interval over the 8 game-seats as if independent would not."""
    positions = opening_positions(2, players=4, seed=5)
    summary, views = opening_cost(positions, p=0.8, seed=1)
    per_game = views.groupby(["continent", "game"]).expected_losses.mean().unstack()
    s = summary.set_index("continent")
    assert (s.boards == 2).all() and (s.views == 8).all()
    for name in s.index:
        low, high = per_game.loc[name].min(), per_game.loc[name].max()
        assert s.loc[name, "ci_low"] == pytest.approx(low) and s.loc[name, "ci_high"] == pytest.approx(high)
        assert s.loc[name, "payback_high"] == pytest.approx(high / s.loc[name, "bonus"])
    again, _ = opening_cost(positions, p=0.8, seed=1)
    pd.testing.assert_frame_equal(summary, again)  # seeded
    with pytest.raises(RiskstatsError, match="resamples"):
        opening_cost(positions, resamples=10)


def test_opening_cost_flags_forces_beyond_the_starting_armies():
    board = classic_board()
    positions = pd.DataFrame({"game": 0, "territory": range(board.n_territories), "continent": "",
                              "owner": [t % 4 for t in range(board.n_territories)], "armies": 4})
    summary, views = opening_cost(positions, p=0.8, board=board)
    s = summary.set_index("continent")
    assert (s.start_armies == 30).all()  # four players start with 30 armies each
    assert s.loc["Asia", "exceeds_start"] and s.loc["Asia", "attackers_needed"] > 30  # 9 territories of 4 armies
    assert not s.loc["Australia", "exceeds_start"]
    assert (views.exceeds_start == (views.attackers_needed > 30)).all()
    assert s.share_exceeding.tolist() == views.groupby("continent", sort=False).exceeds_start.mean().tolist()


def test_first_choices_are_the_targets_the_bot_reinforces_for():
    from riskstats.game.play import Game
    from riskstats.runs.selfplay import game_seeds

    lineup = "continent,aggressive,defensive,aggressive"
    choices = first_choices(4, 4, lineup, seed=3)
    assert choices.game.tolist() == [0, 1, 2, 3]  # one continent seat per game, rotating with the line-up
    board = classic_board()
    names = lineup.split(",")
    checked = 0
    for (g, seat, target), word in zip(choices.itertuples(index=False), game_seeds(3, 4)):
        assert seat == (-g) % 4
        game = Game(4, seed=int(word))
        while not (game.phase == "reinforce" and game.player == seat):
            game.step(game.bot_move(names[(game.player + g) % 4]))
        place = game.bot_move("continent")
        st = game.state
        k = board.continents.index(target)
        bases = [t for t in range(board.n_territories) if st.owner[t] == seat and any(
            board.arrays.continent_of[u] == k and st.owner[u] != seat for u in board.neighbours(t))]
        if bases:  # it reinforces a territory on the way into its target (else its most threatened border)
            assert place.a in bases, f"game {g}: placed on {place.a}, which borders no enemy land in {target}"
            checked += 1
    assert checked >= 2
    shares = choice_shares(choices)
    assert shares.chosen.sum() == 4 and (shares.seats == 4).all()
    assert ((shares.ci_low <= shares.share) & (shares.share <= shares.ci_high)).all()
    with pytest.raises(RiskstatsError, match="not one"):
        first_choices(1, 4, lineup, bot="aggressive")


def test_first_target_arms_read_line_up_arms_where_one_bot_sits_everywhere():
    """The strong population's form: the forced seat is the line-up's first entry, the same bot elsewhere."""
    from riskstats.runs.selfplay import play_games

    cells = []
    for i, first in enumerate(("-1", "Australia", "South America")):
        lineup = f"continent:first={first},continent,continent,continent"
        games = play_games(12, 4, lineup, seed=3)
        cells.append(games.assign(cell=f"cell-00{i}", lineup=lineup))
    table = pd.concat(cells, ignore_index=True)
    arms, effects = first_target_arms(table)
    assert arms.target.tolist() == ["own choice", "Australia", "South America"]
    assert arms.bot.tolist() == ["continent:first=-1", "continent:first=5", "continent:first=1"]
    assert arms.wins.tolist() == [int((c.winner_bot == b).sum()) for c, b in zip(cells, arms.bot)]
    assert effects.effect.tolist() == pytest.approx([arms.win_rate[1] - arms.win_rate[0],
                                                     arms.win_rate[2] - arms.win_rate[0]])
    versus = target_versus(table, "Australia", "South America").iloc[0]
    assert versus.effect == pytest.approx(arms.win_rate[1] - arms.win_rate[2])
    assert FORCED not in set(table.winner_bot)  # the table itself is left as it was
    with pytest.raises(RiskstatsError, match="no arm forces"):
        target_versus(table, "Asia", "Australia")


def test_robustness_rows_hold_only_where_the_interval_says_so():
    from riskstats.analysis.continents import robustness_rows
    from riskstats.stats.robustness import ROBUSTNESS_COLUMNS

    effects = pd.DataFrame({"target": ["Australia", "Asia"], "games": 100, "effect": [-0.02, -0.10],
                            "ci_low": [-0.05, -0.14], "ci_high": [0.01, -0.06], "p_value": [0.2, 1e-5]})
    versus = pd.DataFrame({"games": [100], "effect": [0.04], "ci_low": [0.01], "ci_high": [0.07],
                           "p_value": [0.01]})
    cost = pd.DataFrame({"continent": ["Australia", "Asia", "Europe"], "boards": 50, "payback_turns": [2.0, 5.0, 2.4],
                         "payback_low": [1.8, 4.0, 2.1], "payback_high": [2.2, 6.0, 2.7]})
    rows = robustness_rows(effects, versus, cost, "heuristic", "continent,aggressive").set_index("finding")
    assert list(rows.reset_index()[list(ROBUSTNESS_COLUMNS)].columns) == list(ROBUSTNESS_COLUMNS)
    assert rows.holds.tolist()[:4] == [False, False, True, False]  # Australia's interval spans 0; Europe's overlaps
    assert rows.iloc[1].estimate == -0.02 and rows.iloc[1].note == "the best forced arm: Australia"
    assert rows.reference.tolist()[:3] == [0.0, 0.0, 0.0] and np.isnan(rows.reference.iloc[3])
    assert rows.p_value.tolist()[:3] == [0.2, 0.2, 0.01]  # the paired tests' own p
    assert rows.iloc[3].n == 50 and (rows.population == "heuristic").all()
    effects.loc[0, ["effect", "ci_low", "ci_high"]] = [-0.03, -0.05, -0.01]
    cost.loc[2, "payback_low"] = 2.3
    assert rows.reversed.tolist()[:4] == [False, False, False, False]
    rows = robustness_rows(effects, versus, cost, "strong", "value")
    assert rows.holds.tolist()[:4] == [False, True, True, True]
    assert rows.reversed.tolist()[:4] == [True, False, False, False]  # Australia first credibly loses to the own choice
    # every arm has its own row (issue #39), so no answer rests on the arm that came out best
    arms = rows.reset_index().iloc[4:]
    assert arms.finding.tolist() == ["claiming and going for Australia first beats the own choice",
                                     "claiming and going for Asia first beats the own choice"]
    assert arms.reversed.tolist() == [True, True] and arms.p_value.tolist() == [0.2, 1e-5]
