"""Replaying self-play games turn by turn."""
import pytest

from riskstats.analysis.trajectories import replay
from riskstats.errors import RiskstatsError
from riskstats.game.rules.options import GameRules
from riskstats.runs.selfplay import play_games


@pytest.fixture(scope="module")
def record():
    games = play_games(6, 4, "random,aggressive,continent,defensive", seed=3)
    return games, *replay(games)


def test_every_turn_start_accounts_for_the_board(record):
    games, turns, events = record
    per_turn = turns.groupby(["game", "turn"])
    assert (per_turn.territories.sum() == 42).all()
    assert (turns.armies >= turns.territories).all()
    assert (turns.territories[~turns.alive] == 0).all()
    held = turns[["North America", "South America", "Europe", "Africa", "Asia", "Australia"]]
    assert (held.sum(axis=1) <= turns.territories).all()
    last = turns.groupby("game").turn.max()
    assert (last.to_numpy() <= games.turns.to_numpy()).all()


def test_events_come_with_the_game(record):
    games, turns, events = record
    assert set(events.game) == set(games.game)
    assert (events.groupby("game").move.apply(lambda m: (m == "begin_turn").sum()).to_numpy()
            == turns.groupby("game").turn.nunique().to_numpy()).all()


def test_replaying_with_other_rules_is_refused():
    games = play_games(2, 3, "aggressive", seed=1)
    with pytest.raises(RiskstatsError, match="did not replay the same"):
        replay(games, GameRules(escalation="none", max_turns=5))


def test_positions_at_follow_the_game_to_its_end():
    import json

    from riskstats.analysis.trajectories import positions_at
    from riskstats.game.play import Game

    table = play_games(3, 3, "continent,aggressive,random", seed=4)
    row = table.iloc[int(table.rounds.argmax())]
    course = positions_at(row, [1, 3, 10_000])
    assert list(course) == [1, 3, "end"]  # a round the game never reached is left out
    assert json.loads(course[1])["round"] == 1 and json.loads(course[3])["round"] == 3
    end = Game.from_json(course["end"])
    assert end.over and end.winner == row.winner
    later = Game.from_json(course[3])  # a position plays on to the same end
    while not later.over:
        later.step(later.bot_move(row.bots.split(",")[later.player]))
    assert (later.winner, later.turn) == (row.winner, row.turns)
