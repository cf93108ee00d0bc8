"""Report numbers on a hand-made results table."""
import pandas as pd
import pytest

from riskstats.intervals import wilson_interval
from riskstats.stats.report import game_lengths, report, win_rates, write_report


@pytest.fixture
def games():
    # 8 three-player games between x, y, z; x wins 4, y 2, z 1; one game truncated
    return pd.DataFrame({
        "players": 3,
        "bots": ["x,y,z", "y,z,x", "z,x,y", "x,y,z", "y,z,x", "z,x,y", "x,y,z", "y,z,x"],
        "winner": [0, 2, 1, 0, 0, 2, 1, -1],
        "winner_bot": ["x", "x", "x", "x", "y", "y", "y", ""],
        "turns": [30, 40, 50, 60, 70, 80, 90, 1000],
        "rounds": [10, 14, 17, 20, 24, 27, 30, 334],
        "truncated": [False] * 7 + [True],
    }).assign(winner_bot=lambda t: [b.split(",")[w] if w >= 0 else "" for b, w in zip(t.bots, t.winner)])


def test_win_rates_by_bot_seat_and_both(games):
    by_bot = win_rates(games, "bot").set_index("bot")
    assert by_bot.loc["x", "trials"] == 8 and by_bot.loc["x", "wins"] == 4
    assert by_bot.loc["x", "win_rate"] == 0.5
    assert (by_bot.loc["x", "ci_low"], by_bot.loc["x", "ci_high"]) == wilson_interval(4, 8)
    assert by_bot.wins.sum() == 7
    by_seat = win_rates(games, "seat").set_index("seat")
    assert by_seat.wins.tolist() == [3, 2, 2] and by_seat.trials.tolist() == [8, 8, 8]
    both = win_rates(games, ["bot", "seat"]).set_index(["bot", "seat"])
    assert both.loc[("x", 0), "wins"] == 2 and both.loc[("x", 0), "trials"] == 3
    assert both.trials.sum() == 24


def test_report_ratings_lengths_and_truncation(games, tmp_path):
    rep = report(games)
    assert list(rep.ratings.bot) == ["x", "y", "z"]
    assert rep.truncated["games"] == 1 and rep.truncated["share"] == 1 / 8
    lengths = game_lengths(games).set_index(["measure", "games"])
    assert lengths.loc[("turns", "finished"), "median"] == 60
    assert lengths.loc[("turns", "all"), "count"] == 8
    written = write_report(rep, tmp_path / "out")
    names = {p.name for p in written}
    assert {"win_rate_by_bot.csv", "ratings.csv", "pairwise.csv", "ratings.png", "game_lengths.png"} <= names
    assert all(p.stat().st_size > 0 for p in written)
    assert pd.read_csv(tmp_path / "out" / "win_rate_by_seat.csv").wins.tolist() == [3, 2, 2]
    payload = rep.to_dict()
    assert payload["games"] == 8 and payload["ratings"][0]["bot"] == "x"
