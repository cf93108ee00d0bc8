"""riskstats.game.rules.events: the event log's rows and the game's end."""
import numpy as np

from riskstats.game.play import Game
from riskstats.game.rules.events import _event, _finish, _log
from riskstats.game.rules.state import (
    EV_DRAW,
    EV_GAME_OVER,
    I_LOG_N,
    I_PHASE,
    I_REASON,
    I_WINNER,
    L_BY,
    L_CARD,
    L_MOVE,
    L_PLAYER,
    L_REASON,
    L_TOTAL,
    OVER,
    WIN_ALL,
)


def test_a_row_is_counted_always_and_written_while_there_is_room():
    game = Game(3, seed=1)
    st = game.state
    n = int(st.info[I_LOG_N])
    row = _event(st.info, st.log, st.armies, EV_DRAW, 2, -1, 0, 17)
    assert row == n and st.info[I_LOG_N] == n + 1
    assert st.log[row, L_MOVE] == EV_DRAW and st.log[row, L_PLAYER] == 2 and st.log[row, L_BY] == -1
    assert st.log[row, L_CARD] == 17 and st.log[row, L_TOTAL] == st.armies.sum()
    full = np.zeros((0, st.log.shape[1]), np.int64)  # no log: count only
    assert _log(st.info, full, st.armies, EV_DRAW, -1, -1, 0, 0, 0, 0, 0, -1, -1, -1, 0, -1, -1) == -1
    assert st.info[I_LOG_N] == n + 2


def test_finish_ends_the_game_with_its_winner_reason_and_last_row():
    game = Game(3, seed=1)
    st = game.state
    _finish(st, 1, WIN_ALL)
    assert st.info[I_PHASE] == OVER and st.info[I_WINNER] == 1 and st.info[I_REASON] == WIN_ALL
    last = st.log[st.info[I_LOG_N] - 1]
    assert last[L_MOVE] == EV_GAME_OVER and last[L_PLAYER] == 1 and last[L_REASON] == WIN_ALL
    assert game.over
