"""Report numbers on a hand-made results table."""
import pandas as pd
import pytest

from riskstats.intervals import wilson_interval
from riskstats.stats.report import game_lengths, report, win_rates, write_report


@pytest.fixture
def games():
    # 8 three-player games between x, y, z; x wins 4, y 3, z none; one game truncated
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
    # trials are decided games: the truncated game is counted apart, never a loss for every seat
    by_bot = win_rates(games, "bot").set_index("bot")
    assert by_bot.loc["x", "trials"] == 7 and by_bot.loc["x", "wins"] == 4 and by_bot.loc["x", "truncated"] == 1
    assert by_bot.loc["x", "win_rate"] == 4 / 7 and by_bot.loc["x", "games"] == 8
    assert (by_bot.loc["x", "ci_low"], by_bot.loc["x", "ci_high"]) == wilson_interval(4, 7)
    assert by_bot.wins.sum() == 7
    by_seat = win_rates(games, "seat").set_index("seat")
    assert by_seat.wins.tolist() == [3, 2, 2] and by_seat.trials.tolist() == [7, 7, 7]
    assert by_seat.truncated.tolist() == [1, 1, 1]
    both = win_rates(games, ["bot", "seat"]).set_index(["bot", "seat"])
    assert both.loc[("x", 0), "wins"] == 2 and both.loc[("x", 0), "trials"] == 3
    assert both.trials.sum() == 21 and both.truncated.sum() == 3


def test_a_bot_in_two_seats_of_a_game_is_one_trial():
    games = pd.DataFrame({"bots": ["x,x,y", "y,x,x", "x,y,x", "x,x,y"], "winner": [0, 1, 1, -1],
                          "truncated": [False, False, False, True]})
    by_bot = win_rates(games, "bot").set_index("bot")
    assert by_bot.trials.to_dict() == {"x": 3, "y": 3} and by_bot.wins.to_dict() == {"x": 2, "y": 1}
    assert by_bot.truncated.to_dict() == {"x": 1, "y": 1}
    assert by_bot.win_rate.sum() == 1.0  # the decided games' wins, shared out
    by_seat = win_rates(games, "seat").set_index("seat")
    assert by_seat.trials.tolist() == [3, 3, 3] and by_seat.wins.tolist() == [1, 2, 0]


def test_a_bot_seated_twice_is_named_in_the_report():
    """A line-up shorter than the seats repeats a bot: the report marks it in the table and says what its rate
    counts (issue 42, item 5: "aggressive 61.0%" went unmarked)."""
    from riskstats.stats.report import seats_held

    games = pd.DataFrame({"players": 4, "bots": ["x,y,z,x", "y,z,x,x", "z,x,x,y", "x,x,y,z"], "winner": [0, 1, 2, 3],
                          "turns": [30, 40, 50, 60], "rounds": [8, 10, 13, 15], "truncated": False})
    games["winner_bot"] = [b.split(",")[w] for b, w in zip(games.bots, games.winner)]
    assert seats_held(games) == {"x": 2, "y": 1, "z": 1}
    rep = report(games, boot=20)
    assert rep.bots.set_index("bot").seats.to_dict() == {"x": 2, "y": 1, "z": 1}
    section = rep.sections()[0]
    assert [row[0] for row in section.rows] == ["x (2 seats)", "y", "z"]
    assert "x holds 2 seats of each game: a game counts once for it" in section.caption


def test_report_ratings_lengths_and_truncation(games, tmp_path):
    rep = report(games)
    assert list(rep.ratings.bot) == ["x", "y", "z"]
    assert rep.truncated["games"] == 1 and rep.truncated["share"] == 1 / 8
    lengths = game_lengths(games).set_index(["measure", "games"])
    assert lengths.loc[("turns", "finished"), "median"] == 60
    assert lengths.loc[("turns", "all"), "count"] == 8
    written = write_report(rep, tmp_path / "out")
    names = {p.name for p in written}
    assert {"win_rate_by_bot.csv", "ratings.csv", "pairwise.csv", "ratings.png", "game_lengths.png",
            "rating_fit.csv", "survival_ratings.csv", "survival_ratings.png"} <= names
    assert all(p.stat().st_size > 0 for p in written)
    assert pd.read_csv(tmp_path / "out" / "win_rate_by_seat.csv").wins.tolist() == [3, 2, 2]
    payload = rep.to_dict()
    assert payload["games"] == 8 and payload["ratings"][0]["bot"] == "x"


def test_report_rates_who_wins_and_keeps_the_survival_measure_and_bradley_terry(games):
    rep = report(games, boot=100, seed=1)
    assert {"rank", "elo", "ci_low", "ci_high", "elo_se", "games", "wins"} <= set(rep.ratings.columns)
    assert (rep.ratings.ci_low < rep.ratings.elo).all() and (rep.ratings.elo < rep.ratings.ci_high).all()
    assert rep.ratings.set_index("bot").wins.to_dict() == {"x": 4, "y": 3, "z": 0}
    assert (rep.ratings.games == 7).all()  # the decided games: the truncated one is no trial
    assert (rep.ratings["rank"] == 1).all()  # 7 decided games separate nobody: all tied
    assert list(rep.rating_fit.model) == ["luce (who wins)", "plackett-luce (who survives)"]
    assert set(rep.survival.bot) == {"x", "y", "z"} and len(rep.survival_differences) == 3
    assert list(rep.bradley_terry.bot) == ["x", "y", "z"] and len(rep.differences) == 3
    seats = rep.seats.set_index("seat")
    assert (seats.share == 1 / 3).all() and not seats.significant.any()


@pytest.fixture
def experiment(games):
    # two cells of one experiment: the games above as 3-player cell-000, and 4-player games as cell-001
    four = pd.DataFrame({"players": 4, "bots": ["x,y,z,w", "y,z,w,x", "z,w,x,y", "w,x,y,z"] * 2,
                         "winner": [0, 3, 2, 1, 0, 1, 2, -1], "turns": [40] * 7 + [1000],
                         "rounds": [10] * 7 + [250], "truncated": [False] * 7 + [True]})
    four["winner_bot"] = [b.split(",")[w] if w >= 0 else "" for b, w in zip(four.bots, four.winner)]
    table = pd.concat([games.assign(cell="cell-000"), four.assign(cell="cell-001")], ignore_index=True)
    return table.assign(variant="classic", lineup="x,y,z",
                        **{"rules.escalation": lambda t: ["fixed"] * 8 + ["progressive"] * 8})


def test_an_experiment_is_reported_cell_by_cell(experiment, tmp_path):
    rep = report(experiment, boot=50)
    assert rep.cells.to_dict("records") == [
        {"cell": "cell-000", "players": 3, "variant": "classic", "lineup": "x,y,z", "rules.escalation": "fixed",
         "games": 8},
        {"cell": "cell-001", "players": 4, "variant": "classic", "lineup": "x,y,z", "rules.escalation": "progressive",
         "games": 8}]
    for name, frame in rep.tables().items():
        assert list(frame.columns[:5]) == ["cell", "players", "variant", "lineup", "rules.escalation"], name
    seats = rep.seats.set_index(["cell", "seat"])
    assert seats.share[("cell-000", 0)] == 1 / 3 and seats.share[("cell-001", 3)] == 1 / 4
    assert seats.loc["cell-000"].wins.tolist() == [3, 2, 2]  # the 3-player cell alone, not pooled
    assert set(rep.ratings[rep.ratings.cell == "cell-001"].bot) == {"w", "x", "y", "z"}
    figures = rep.figures(["cell-001"])
    assert set(figures) == {"win_rate_by_bot_cell-001", "win_rate_by_seat_cell-001", "ratings_cell-001",
                            "survival_ratings_cell-001", "game_lengths_cell-001"}
    assert "fit:" in figures["ratings_cell-001"].axes[0].get_title()
    title = figures["win_rate_by_seat_cell-001"].axes[0].get_title()
    assert "cell-001: 4 players, classic, escalation=progressive" in title
    names = {p.name for p in write_report(rep, tmp_path / "rep")}
    assert {"cells.csv", "ratings.csv", "ratings_cell-000.png", "game_lengths_cell-001.png"} <= names
    assert rep.to_dict()["cells"][1]["players"] == 4


def test_the_printed_sections_are_the_reports_tables_cell_by_cell(experiment):
    """`Report.sections` is what ``riskstats report`` prints: per cell the win rates by bot, seat and both, the
    two rating tables, Bradley-Terry and game lengths, each titled with its cell and holding its table's rows."""
    rep = report(experiment, boot=50)
    sections = rep.sections()
    assert len(sections) == 2 * 7 + (rep.effects is not None)
    first = sections[:7]
    assert [s.title.split(" (")[0].split(" - ")[0] for s in first] == [
        "Win rate by bot", "Win rate by seat", "Win rate by bot and seat", "Luce ratings",
        "Plackett-Luce survival measure", "Bradley-Terry ratings", "Game length"]
    assert all("cell-000: 3 players" in s.title for s in first)
    assert len(first[1].rows) == 3 and len(sections[8].rows) == 4  # seats of the 3- and the 4-player cell
    assert all(len(row) == len(s.columns) for s in sections for row in s.rows)
    assert "50 bootstrap resamples" in first[3].caption


def test_mixed_games_without_cells_are_refused(experiment):
    from riskstats.errors import RiskstatsError

    with pytest.raises(RiskstatsError, match=r"the games mix players \(3, 4\)"):
        report(experiment.drop(columns="cell"))


def test_report_plots_draw_the_fair_share_and_no_interval_for_a_bot_in_every_seat(games):
    import matplotlib.pyplot as plt

    figure = report(games, boot=20).figures()["win_rate_by_bot"]
    texts = [t.get_text() for t in figure.axes[0].get_legend().get_texts()]
    assert "fair share 0.333" in texts
    plt.close(figure)
    mirror = games.assign(bots="x,x,x", winner_bot=lambda t: ["x" if w >= 0 else "" for w in t.winner])
    figure = report(mirror, boot=20).figures()["win_rate_by_bot"]
    decided = int((mirror.winner >= 0).sum())  # trials are decided games, one per game however many seats
    assert [t.get_text() for t in figure.axes[0].get_xticklabels()] == [f"x (every seat)\n(n={decided})"]
    plt.close(figure)


def test_a_statistic_is_one_entry(games, monkeypatch, tmp_path):
    """Issue 53: a new statistic is one `Statistic` in `STATISTICS`: its table is computed per cell, held by the
    report under its field, written under its file name, printed and drawn, with nothing else edited."""
    import matplotlib.pyplot as plt

    from riskstats.stats import report as module

    def section(view):
        rows = view.rows(view.report.longest)
        return [module.Section(f"Longest game{view.where}", ("turns",), [(r["turns"],) for r in rows])]

    def figure(view):
        fig, ax = plt.subplots()
        ax.bar([0], view.frame(view.report.longest)["turns"])
        return {f"longest{view.suffix}": fig}

    toy = module.Statistic("longest", "longest_game", lambda cell: pd.DataFrame({"turns": [cell.table.turns.max()]}),
                           section, figure)
    monkeypatch.setattr(module, "STATISTICS", (*module.STATISTICS, toy))
    result = report(games, boot=20)
    assert int(result.longest["turns"].iloc[0]) == games["turns"].max()
    assert "longest_game" in result.tables() and "longest_game" in result.to_dict()
    assert result.sections()[-1].title == "Longest game" and "longest" in result.figures()
    assert (tmp_path / "longest_game.csv") in {p for p in write_report(result, tmp_path)}
    plt.close("all")
