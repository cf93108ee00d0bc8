"""Head-to-head rates of a per-game table (issue #39): who finished ahead in known tables, and the interval's
design effect where a deal's seatings are clustered."""
import pandas as pd
import pytest

from riskstats.errors import RiskstatsError
from riskstats.stats.head_to_head import pair_rates


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
