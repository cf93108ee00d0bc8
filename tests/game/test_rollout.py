"""Rollouts: fresh chance from a position, reproducible, and agreeing with full games and exact odds."""
import numba
import numpy as np
import pytest

from riskstats.errors import RiskstatsError
from riskstats.game.play import Game
from riskstats.game.rollout import rollouts
from riskstats.game.rules.state import ATTACK, I_PHASE, I_PLAYER, I_RESERVE, I_ROUND, I_TURN
from riskstats.intervals import wilson_interval
from riskstats.odds.battle import battle_odds
from riskstats.runs.selfplay import play_games

Z999 = 3.29
"""Two-sided 99.9% normal quantile: the bounds of the statistical checks here."""


def mid_game(seed=3, moves=1_500):
    return Game(4, seed=seed, log=False).play(["random"], max_moves=moves)


def test_rollouts_leave_the_game_alone_and_repeat_with_the_seed():
    game = mid_game()
    before = [a.copy() for a in game.state]
    table = rollouts(game, 40, seed=5)
    assert all((a == b).all() for a, b in zip(before, game.state))
    assert table.equals(rollouts(game, 40, seed=5))
    assert not table.equals(rollouts(game, 40, seed=6))
    assert table["over"].all() and (table["winner"] >= 0).all()
    assert len(set(zip(table["winner"], table["turns"]))) > 5  # fresh dice: the rollouts differ
    seats = [f"territories_{s}" for s in range(4)]
    assert (table[seats].sum(axis=1) == 42).all()
    assert (table[seats].max(axis=1) == 42).all()  # classic: the winner holds every territory


def test_rollouts_do_not_depend_on_the_number_of_threads():
    game = mid_game(moves=900)
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = rollouts(game, 130, horizon=3, seed=2)
    finally:
        numba.set_num_threads(threads)
    assert one.equals(rollouts(game, 130, horizon=3, seed=2))


def test_rollouts_do_not_depend_on_how_they_are_cut(monkeypatch):
    """Played in short calls (`riskstats.pieces`) for Ctrl-C's sake: one rollout a call gives the same table
    as calls growing freely, and progress counts up to every rollout."""
    from riskstats import pieces

    game = mid_game(moves=900)
    seen = []
    free = rollouts(game, 70, seed=8, progress=lambda done, n: seen.append((done, n)))
    assert seen[-1] == (70, 70) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    monkeypatch.setattr(pieces, "PIECE_SECONDS", 0.0)
    seen.clear()
    one_by_one = rollouts(game, 70, seed=8, progress=lambda done, n: seen.append((done, n)))
    assert [d for d, _ in seen][-3:] == [68, 69, 70]
    assert one_by_one.equals(free)


def test_horizon_stops_at_the_start_of_a_later_turn_or_round():
    game = mid_game()
    table = rollouts(game, 50, horizon=2, seed=1)
    stopped = table[~table["over"]]
    assert len(stopped) > 0 and (stopped["turns"] == 2).all() and (stopped["win_reason"] == "").all()
    assert (table["turns"] <= 2).all()
    rounds = rollouts(game, 50, horizon=1, seed=1, unit="rounds")
    stopped = rounds[~rounds["over"]]
    assert len(stopped) > 0 and (stopped["rounds"] == 1).all() and (rounds["turns"] <= 4).all()


def test_rollouts_from_the_start_are_full_games():
    """From the opening position (only the draw pile's order is fixed, and rollouts reshuffle it) the
    rollouts are full games: mean length and winner seats as in `play_games`, within 99.9% bounds."""
    n = 2_000
    table = rollouts(Game(4, seed=0, log=False), n, seed=11)
    games = play_games(n, 4, ["random"], seed=12)
    a, b = table["turns"].to_numpy(), games["turns"].to_numpy()
    assert abs(a.mean() - b.mean()) < Z999 * np.sqrt(a.var() / n + b.var() / n)
    for seat in range(4):
        p1, p2 = (table["winner"] == seat).mean(), (games["winner"] == seat).mean()
        pooled = (p1 + p2) / 2
        assert abs(p1 - p2) < Z999 * np.sqrt(2 * pooled * (1 - pooled) / n)


@pytest.mark.parametrize("attackers, defenders", [(3, 2), (5, 6)])
def test_one_conquest_from_victory_wins_with_the_exact_odds(attackers, defenders):
    """Seat 0 holds 41 territories, one of them with ``attackers`` armies able to roll next to seat 1's
    last territory with ``defenders``; seats 2 and 3 are out. An aggressive bot that attacks whatever the
    odds (threshold 0) wins within the turn exactly when it wins that battle."""
    game = Game(4, seed=1, log=False)
    st = game.state
    board = game.board.arrays
    src = 0
    dst = int(board.nbr_idx[board.nbr_ptr[src]])
    st.owner[:] = 0
    st.armies[:] = 1
    st.owner[dst] = 1
    st.armies[src] = attackers + 1
    st.armies[dst] = defenders
    st.n_terr[:] = [41, 1, 0, 0]
    st.alive[:] = [1, 1, 0, 0]
    st.info[I_PHASE] = ATTACK
    st.info[I_PLAYER] = 0
    st.info[I_TURN] = 9
    st.info[I_ROUND] = 3
    st.info[I_RESERVE] = 0
    n = 4_000
    table = rollouts(game, n, horizon=1, bots=[("aggressive", [0.0])], seed=7)
    wins = int((table["winner"] == 0).sum())
    assert ((table["winner"] == 0) == table["over"]).all()
    low, high = wilson_interval(wins, n, Z999)
    assert low <= float(battle_odds(attackers, defenders, exact=True).p_win) <= high


def test_bad_input():
    game = mid_game()
    with pytest.raises(RiskstatsError, match="n must"):
        rollouts(game, 0)
    with pytest.raises(RiskstatsError, match="unit"):
        rollouts(game, 5, horizon=2, unit="moves")
    with pytest.raises(RiskstatsError, match="horizon"):
        rollouts(game, 5, horizon=0)
    with pytest.raises(RiskstatsError, match="Game"):
        rollouts(game.state, 5)
    with pytest.raises(RiskstatsError, match="unknown bot"):
        rollouts(game, 5, bots=["nobody"])
    over = Game(4, seed=2, log=False).play(["random"])
    with pytest.raises(RiskstatsError, match="over"):
        rollouts(over, 5)


@pytest.mark.compile_events
def test_rollouts_and_evaluation_without_a_search_seat_compile_no_search_code():
    from riskstats.game.bots.roster import full_rosters
    from riskstats.game.evaluate import _move_rollouts, evaluate
    from riskstats.game.rollout import _rollouts
    from tests.runs.test_selfplay import compiled_code

    game = Game(3, seed=2, log=False).play(["random"], max_moves=500)
    with full_rosters(False):  # the line-up's own roster, not the suite's full one
        rollouts(game, 3, bots=["aggressive"], seed=1)
        evaluate(game, "aggressive", rollouts=3, seed=1, top=1)
    for kernel, arg in ((_rollouts, 11), (_move_rollouts, 10)):
        for code in compiled_code(kernel, arg):
            assert b"_play_search" not in code and b"_search_plan" not in code and b"riskstats" in code
