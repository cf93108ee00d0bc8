"""Tests for riskstats.analysis.strength: head-to-head series, ladders and speed of bots."""
import pandas as pd
import pytest

from riskstats.analysis.strength import head_to_head, ladder_games, ladder_lineups, pair_rates, speed
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


def _two_player(outcomes, seeds=None):
    """A two-player per-game table: one row per (first seat's bot, second's, winner's seat)."""
    rows = [{"players": 2, "bots": f"{a},{b}", "winner": w, "places": "1,2" if w == 0 else "2,1"}
            for a, b, w in outcomes]
    table = pd.DataFrame(rows)
    if seeds is not None:
        table["seed"] = seeds
    return table


def test_pair_rates_count_who_finished_ahead_in_a_known_table():
    # four-player: places give every pair an order; a win counts only games one of the two won
    games = pd.DataFrame({"players": 4, "bots": ["a,b,c,d", "b,a,d,c", "c,d,a,b"], "winner": [0, 2, 3],
                          "places": ["1,3,2,4", "2,4,1,3", "3,2,4,1"]})
    place = pair_rates(games).set_index(["bot", "opponent"])
    # a ahead of b: game 0 (1 < 3), game 1 (4 > 2: behind), game 2 (4 > 1: behind)
    assert place.loc[("a", "b"), ["met", "decided", "wins"]].tolist() == [3, 3, 1]
    assert place.loc[("b", "a"), "wins"] == 2 and place.loc[("c", "d"), "wins"] == 1
    win = pair_rates(games, by="win").set_index(["bot", "opponent"])
    assert win.loc[("a", "b"), ["decided", "wins"]].tolist() == [2, 1]  # game 1 won by d: not decided for a, b
    assert win.loc[("c", "d"), ["decided", "wins"]].tolist() == [1, 0]  # only game 1 (d won) decides c, d
    assert (place.share == place.wins / place.decided).all()
    matrix = pair_rates(games).pivot(index="bot", columns="opponent", values="share")
    assert matrix.loc["a", "b"] + matrix.loc["b", "a"] == pytest.approx(1)
    with pytest.raises(RiskstatsError, match="by must be"):
        pair_rates(games, by="rank")


def test_pair_rates_interval_is_wilson_without_clusters_and_wider_with_correlated_seatings():
    from riskstats.intervals import wilson_interval

    outcomes = [("a", "b", 0)] * 60 + [("a", "b", 1)] * 40  # a wins 60 of 100 from seat 0 and seat 1 alike
    plain = pair_rates(_two_player(outcomes)).set_index("bot").loc["a"]
    low, high = wilson_interval(60, 100)
    assert (plain.share, plain.deff) == (0.6, 1.0)
    assert plain.ci_low == pytest.approx(low, abs=2e-3) and plain.ci_high == pytest.approx(high, abs=2e-3)
    # the same games, each seed played twice with the same winning bot: 50 deals, not 100 independent games
    paired = [("a", "b", 0), ("b", "a", 1)] * 30 + [("a", "b", 1), ("b", "a", 0)] * 20
    seeds = [k // 2 for k in range(100)]
    clustered = pair_rates(_two_player(paired, seeds)).set_index("bot").loc["a"]
    assert clustered.share == 0.6 and clustered.clusters == 50 and clustered.deff == pytest.approx(2, rel=0.05)
    assert clustered.ci_high - clustered.ci_low > 1.3 * (high - low)
    # seatings that split the deal (each seed won once by each bot) carry no more than independent games: deff 1
    split = pair_rates(_two_player([("a", "b", 0), ("b", "a", 0)] * 50, seeds)).set_index("bot").loc["a"]
    assert split.share == 0.5 and split.deff == 1.0
    # the p-value is the interval's test: below 0.05 exactly when the interval excludes one half
    for row in (plain, clustered):
        assert (row.p_value < 0.05) == (row.ci_low > 0.5 or row.ci_high < 0.5)


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
