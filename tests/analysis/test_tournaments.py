"""Self-play statistics on small seeded runs."""
import pytest

from riskstats.analysis.tournaments import (
    TWO_PLAYER_RULES,
    elimination_order,
    first_player_check,
    length_summary,
    seat_advantage,
    settings_games,
)
from riskstats.analysis.trajectories import replay
from riskstats.runs.selfplay import play_games


def test_seat_advantage_covers_every_seat_of_every_setting():
    frame = seat_advantage(10, players=(3, 4), seed=2)
    assert frame.setting.unique().tolist() == ["classic, 3 players", "classic, 4 players", "two-player (neutral)",
                                               "two-player (50 each)"]
    per_setting = frame.groupby("setting", sort=False)
    assert per_setting.seat.count().tolist() == [3, 4, 2, 2]
    assert ((frame.trials + frame.truncated) == 10).all()  # a stalled game is no trial
    assert ((frame.wins.groupby(frame.setting).sum() + frame.truncated.groupby(frame.setting).first()) == 10).all()
    assert (frame.baseline == 1 / frame.players).all()


def test_lengths_by_setting():
    games = settings_games(8, seed=3)
    summary = length_summary(games).set_index("setting")
    assert summary.games.tolist() == [8] * 5
    assert summary.loc["mission", "main_win_reason"] == "mission"
    assert summary.loc["capital", "main_win_reason"] == "capitals"
    assert summary.loc["classic", "mean_turns"] == pytest.approx(games[games.setting == "classic"].turns.mean())


def test_elimination_order():
    games = play_games(6, 4, "random,aggressive,continent,defensive", seed=8)
    turns, events = replay(games)
    order = elimination_order(events, games)
    assert len(order) == (events.eliminated >= 0).sum()
    assert (order.seat != order.by_seat).all()
    for game, group in order.groupby("game"):
        assert group.order.tolist() == list(range(1, len(group) + 1))
        winner = games.set_index("game").winner[game]
        if winner >= 0:
            assert len(group) == 3 and winner not in group.seat.tolist()


def test_first_player_check_counts_seat_zero():
    check = first_player_check(20, bots=("random", "aggressive"), seed=6)
    assert check.setting.unique().tolist() == list(TWO_PLAYER_RULES)
    assert len(check) == 2 * len(TWO_PLAYER_RULES)
    row = check[(check.setting == "50 each, dealt") & (check.bot == "aggressive")].iloc[0]
    games = play_games(20, 2, ["aggressive"], seed=6, rules=TWO_PLAYER_RULES["50 each, dealt"])
    assert row.wins == (games.winner == 0).sum() and row.decided == (games.winner >= 0).sum()
    assert row.win_rate == pytest.approx(row.wins / row.decided)  # a stalled game is no loss for seat 0
    assert row.ci_low <= row.win_rate <= row.ci_high
    assert (check.p_value <= 1).all() and (check.p_value >= 0).all()
