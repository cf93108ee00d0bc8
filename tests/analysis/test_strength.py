"""Tests for riskstats.analysis.strength: head-to-head series, ladders and speed of bots."""
import pytest

from riskstats.analysis.strength import head_to_head, ladder_games, ladder_lineups, speed
from riskstats.errors import RiskstatsError
from riskstats.game.play import Game
from riskstats.game.rules.options import GameRules
from riskstats.game.rules.state import I_MOVES
from riskstats.runs.selfplay import game_seeds, play_games
from riskstats.stats.ratings import luce_model


def test_head_to_head_counts_the_bots_wins_in_the_games_it_plays():
    rates = head_to_head("aggressive", ["random", "defensive"], players=2, games=120, seed=3)
    assert list(rates.opponent) == ["random", "defensive"]
    table = play_games(120, 2, ["aggressive", "random"], seed=3, rules=GameRules(variant="two-player"))
    row = rates.iloc[0]
    assert row.wins == (table.winner_bot == "aggressive").sum()
    assert row.truncated == table.truncated.sum()
    assert row.games == 120 and row.decided == 120 - row.truncated
    assert row.win_rate == pytest.approx(row.wins / row.decided)
    assert row.ci_low < row.win_rate < row.ci_high
    assert (rates.share == 0.5).all()


def test_a_greedy_bot_beats_random_two_player():
    rates = head_to_head("aggressive", ["random"], players=2, games=200, seed=1)
    assert rates.ci_low.iloc[0] > 0.5 and rates.significant.iloc[0]


def test_head_to_head_seats_one_bot_against_copies_and_is_reproducible():
    a = head_to_head("continent", ["random"], players=4, games=40, seed=5)
    b = head_to_head("continent", ["random"], players=4, games=40, seed=5)
    assert a.wins.iloc[0] == b.wins.iloc[0]
    assert a.share.iloc[0] == 0.25


def test_head_to_head_rejects_a_bot_against_itself():
    with pytest.raises(RiskstatsError, match="its own opponent"):
        head_to_head("random", ["aggressive", "random"], games=10)
    with pytest.raises(RiskstatsError, match="unknown bot"):
        head_to_head("random", ["nobody"], games=10)


def test_ladder_lineups_are_every_combination_of_distinct_bots():
    lineups = ladder_lineups(["random", "aggressive", "continent", "defensive", "continent-tuned"], 4)
    assert len(lineups) == 5 and all(len(set(x)) == 4 for x in lineups)
    with pytest.raises(RiskstatsError, match="distinct"):
        ladder_lineups(["random", "random", "aggressive"], 2)
    with pytest.raises(RiskstatsError, match="at least 4 bots"):
        ladder_lineups(["random", "aggressive"], 4)


def test_ladder_games_feed_a_luce_ladder():
    pool = ["random", "aggressive", "continent", "defensive", "continent-tuned"]
    games = ladder_games(pool, 4, games_per_lineup=8, seed=2)
    assert len(games) == 5 * 8
    assert games.groupby("lineup").size().eq(8).all()
    assert all(len(set(b.split(","))) == 4 for b in games.bots)
    ratings, _, fit = luce_model(games, boot=50, seed=1)
    assert sorted(ratings.bot) == sorted(pool)
    assert fit.df.iloc[0] > 0  # many seatings: the fit test has something to test


def test_speed_counts_every_decision_of_the_mirror_games():
    table = speed(["random", "aggressive"], players=2, games=5, seed=4)
    assert list(table.bot) == ["random", "aggressive"]
    rules = GameRules(variant="two-player")
    moves = sum(int(Game(2, rules, seed=int(s), log=False).play(["random"]).state.info[I_MOVES])
                for s in game_seeds(4, 5))
    assert table.decisions.iloc[0] == moves
    assert (table.decisions_per_cpu_s > table.games_per_cpu_s).all()


def test_head_to_head_sprt_stops_once_the_test_decides():
    from riskstats.analysis.strength import head_to_head_sprt
    from riskstats.stats.sprt import sprt

    result = head_to_head_sprt("aggressive", "random", max_games=200, chunk=20, seed=4, elo0=0, elo1=100)
    assert result.decision == "H1" and result.games % 20 == 0 and result.games < 200
    table = play_games(int(result.games), 2, ["aggressive", "random"], seed=4, rules=GameRules(variant="two-player"))
    assert result.wins == (table.winner_bot == "aggressive").sum() and result.draws == table.truncated.sum()
    assert result.llr == sprt(result.wins, result.draws, result.losses, 0, 100).llr >= result.upper
    earlier = sprt(*table.iloc[:-20].pipe(lambda t: ((t.winner_bot == "aggressive").sum(), t.truncated.sum(),
                                                    (t.winner_bot == "random").sum())), 0, 100)
    assert earlier.decision == "continue"  # it stopped at the first look past a bound
    capped = head_to_head_sprt("aggressive", "random", max_games=30, chunk=20, seed=4, elo0=0, elo1=5)
    assert capped.decision == "continue" and capped.games == 30
    with pytest.raises(RiskstatsError, match="its own baseline"):
        head_to_head_sprt("random", "random")


def test_ladder_games_every_seat_plays_each_deal_in_every_seating():
    table = ladder_games(["random", "aggressive", "continent"], 2, 4, seed=3, every_seat=True)
    assert table.groupby("lineup").size().eq(4).all()
    pairs = table.groupby(["lineup", "seed"]).bots.apply(list)
    assert all(len(b) == 2 and b[0].split(",") == b[1].split(",")[::-1] for b in pairs)
    assert table.seed.nunique() == 2  # the same deals for every pair
    own = ladder_games(["random", "aggressive", "continent"], 2, 4, seed=3, every_seat=True, own_seeds=True)
    assert own.seed.nunique() == 6 and own.groupby("lineup").seed.nunique().eq(2).all()
    with pytest.raises(RiskstatsError, match="multiple of 2"):
        ladder_games(["random", "aggressive"], 2, 3, every_seat=True)
