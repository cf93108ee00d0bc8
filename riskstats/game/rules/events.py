"""The game's event log and its end: `_log` writes a move's row, `_event` a row that is not a move, `_finish`
ends the game (winner and reason) with its last row.

The log's columns are `riskstats.game.rules.state.LOG_COLS` (documented in docs/event_log.md); the engine
(`riskstats.game.rules.engine`) and the objectives (`riskstats.game.rules.objectives`) write through these.
"""
from __future__ import annotations

from riskstats._numba import lean_jit
from riskstats.game.rules.state import (
    EV_GAME_OVER,
    I_LOG_N,
    I_PHASE,
    I_PLAYER,
    I_REASON,
    I_TURN,
    I_WINNER,
    L_ADICE,
    L_ALOSS,
    L_ARMIES,
    L_BONUS,
    L_BY,
    L_CARD,
    L_CARD1,
    L_CARD2,
    L_CARD3,
    L_CONQUERED,
    L_DDICE,
    L_DEFENDER,
    L_DLOSS,
    L_DST,
    L_ELIMINATED,
    L_FROM_CARDS,
    L_FROM_CONTINENTS,
    L_FROM_TERRITORIES,
    L_MISSION,
    L_MOVE,
    L_PHASE,
    L_PLAYER,
    L_REASON,
    L_SRC,
    L_TOTAL,
    L_TURN,
    L_VALUE,
    OVER,
)


@lean_jit
def _log(info, log, armies, kind, src, dst, n, da, dd, la, ld, c1, c2, c3, value, bonus, elim):  # pragma: no cover
    """Count an event in info[I_LOG_N] and write its row if the log has room (no log: count only); the row's
    index, or -1 if it was not written. player and by are the seat to move; `LOG_COLS` says what the rest
    mean; the columns not given here are -1 or 0 (callers that need them set them on the returned row).

    It takes the three arrays it touches rather than the whole State: a call copies (and, unless they are
    borrowed, reference-counts) every array of its arguments, and `_apply` logs every move.

    Parameters
    ----------
    info : int64[I_SIZE]
        The state's info array (`riskstats.game.rules.state.INFO`): the count, turn, seat and phase are read there.
    log : int64[rows, len(LOG_COLS)]
        The event log (zero rows: no log).
    armies : int64[T]
        The armies on each territory (for the row's board total).
    kind : int
        The event (`EVENTS`): the ``move`` column.
    src, dst : int
        The ``src`` and ``dst`` territories (-1: none).
    n : int
        The ``armies`` column.
    da, dd, la, ld : int
        The attacker's and the defender's dice, and their losses.
    c1, c2, c3 : int
        The cards of a trade (-1: none).
    value, bonus : int
        A trade's value and its bonus territory (-1: none).
    elim : int
        The seat eliminated (-1: none).
    """
    row = info[I_LOG_N]
    info[I_LOG_N] = row + 1
    if row >= log.shape[0]:
        return -1
    r = log[row]
    r[L_TURN] = info[I_TURN]
    r[L_PLAYER] = info[I_PLAYER]
    r[L_BY] = info[I_PLAYER]
    r[L_PHASE] = info[I_PHASE]
    r[L_MOVE] = kind
    r[L_SRC] = src
    r[L_DST] = dst
    r[L_ARMIES] = n
    r[L_ADICE] = da
    r[L_DDICE] = dd
    r[L_ALOSS] = la
    r[L_DLOSS] = ld
    r[L_DEFENDER] = -1
    r[L_CONQUERED] = 0
    r[L_ELIMINATED] = elim
    r[L_CARD] = -1
    r[L_CARD1] = c1
    r[L_CARD2] = c2
    r[L_CARD3] = c3
    r[L_VALUE] = value
    r[L_BONUS] = bonus
    r[L_FROM_TERRITORIES] = 0
    r[L_FROM_CONTINENTS] = 0
    r[L_FROM_CARDS] = 0
    r[L_MISSION] = -1
    r[L_REASON] = 0
    r[L_TOTAL] = armies.sum()
    return row


@lean_jit
def _event(info, log, armies, kind, player, dst, n, card):  # pragma: no cover - compiled
    """Log an event that is not a move (by = -1): its seat, territory, armies put there and card."""
    row = _log(info, log, armies, kind, -1, dst, n, 0, 0, 0, 0, -1, -1, -1, 0, -1, -1)
    if row >= 0:
        log[row, L_PLAYER] = player
        log[row, L_BY] = -1
        log[row, L_CARD] = card
    return row


@lean_jit
def _finish(st, winner, reason):  # pragma: no cover - compiled
    st.info[I_PHASE] = OVER
    st.info[I_WINNER] = winner
    st.info[I_REASON] = reason
    row = _event(st.info, st.log, st.armies, EV_GAME_OVER, winner, -1, 0, -1)
    if row >= 0:
        st.log[row, L_REASON] = reason
