"""Rollouts: a game played on from a given position many times, each time with fresh chance.

This module owns `rollouts` (the public function: one row per rollout) and the compiled kernel
`_rollout`, which plays one rollout in a working state of its own (`riskstats.game.rules.state._copy_state`
copies a position into it). A rollout starts from a copy of the position (no more than the state is
copied; the event log is not), draws its dice from a stream of its own seed and reshuffles the draw pile with it
(the pile's order is hidden, so it is chance too), and plays the built-in bots on to the end of the game
or to a horizon. Rollout r's seed is word r of ``np.random.SeedSequence(seed).generate_state(n,
np.uint64)``, so the table is the same whatever the number of threads. The rollouts are played in short
calls of the kernel (`riskstats.pieces.in_pieces`), so that Ctrl-C stops them within a second; the cut
never enters the seeds.

Hidden information other than the dice and the draw pile (other seats' missions, unrevealed capital
picks) is kept as it is in the position. A ``search`` seat (`riskstats.game.search`) searches in every
rollout, as in a game (so a rollout costs as much as the rest of a game with it).

>>> from riskstats.game.play import Game
>>> game = Game(4, seed=3, log=False).play(["random"], max_moves=1_500)
>>> table = rollouts(game, 20, seed=1)
>>> bool(table["over"].all()), set(table["winner"]) <= {0, 1, 2, 3}
(True, True)
"""
from __future__ import annotations

import numba
import numpy as np
from numba import prange

from riskstats._numba import jit, parallel_jit
from riskstats.errors import RiskstatsError, check_int
from riskstats.game.bots.catalog import Lineup, seat_entries
from riskstats.game.bots.roster import roster_for
from riskstats.game.drive import _drive
from riskstats.game.loop import NO_HORIZON
from riskstats.game.play import Game
from riskstats.game.rules.state import (
    I_DECK_N,
    I_PHASE,
    I_REASON,
    I_ROUND,
    I_TURN,
    I_WINNER,
    OVER,
    REASONS,
    State,
    _copy_state,
    _new_state,
)
from riskstats.game.rules.stream import _seed, _shuffle
from riskstats.pieces import in_pieces

MAX_ROLLOUTS = 100_000_000
HORIZON_UNITS = ("turns", "rounds")


@jit
def _rollout(root, work, B, R, CUT, V, bots, params, seed, last_turn, last_round, roster):  # pragma: no cover
    """Play one rollout from position ``root`` in the working state ``work`` (overwritten; a state of the
    same board and seats, best without an event log): fresh dice from ``seed``, the draw pile
    reshuffled, then the bots play on to the end or until a turn after ``last_turn`` (a round after
    ``last_round``) is about to begin (`riskstats.game.play.NO_HORIZON`: no horizon). The winner seat,
    -1 if none (stopped at the horizon, or truncated).

    Parameters
    ----------
    root : State
        The position rolled out from (read only).
    work : State
        The working state, overwritten.
    B, R, CUT, V
        The context (`riskstats.game.rules.context.compile_context`): the board arrays (`BoardArrays`), the rule
        vector (int64[R_SIZE]), the one-roll table and the P(conquer) table.
    bots : int64[seats]
        Each seat's bot id.
    params : float64[seats, N_PARAMS]
        Each seat's parameter vector.
    seed : uint64
        The rollout's seed (its dice and the reshuffle of the draw pile).
    last_turn, last_round : int
        The horizon (`NO_HORIZON`: none).
    roster : tuple
        The line-up's roster (`riskstats.game.bots.roster.roster_for`): the bots compiled in.
    """
    _copy_state(root, work)
    _seed(work.rng, seed)
    _shuffle(work.rng, work.deck, work.info[I_DECK_N])
    _drive(work, B, R, CUT, V, bots, params, False, last_turn, last_round, roster, None)
    return work.info[I_WINNER]


@parallel_jit
def _rollouts(root, B, R, CUT, V, bots, params, seeds, last_turn, last_round, chunk, roster, out):  # pragma: no cover
    """out[r] = (winner, turns, rounds, over, reason, territories of each seat..., armies of each
    seat...) after rollout r; ``chunk`` rollouts share one working state.

    Parameters
    ----------
    root : State
        The position rolled out from (read only).
    B, R, CUT, V
        The context (`riskstats.game.rules.context.compile_context`): the board arrays (`BoardArrays`), the rule
        vector (int64[R_SIZE]), the one-roll table and the P(conquer) table.
    bots : int64[seats]
        Each seat's bot id.
    params : float64[seats, N_PARAMS]
        Each seat's parameter vector.
    seeds : uint64[N]
        Each rollout's seed.
    last_turn, last_round : int
        The horizon (`NO_HORIZON`: none).
    chunk : int
        Rollouts per working state (one block of a thread).
    roster : tuple
        The line-up's roster (`riskstats.game.bots.roster.roster_for`): the bots compiled in.
    out : int64[N, 5 + 2 * seats]
        Written: each rollout's row, as above.
    """
    n = seeds.shape[0]
    T = root.owner.shape[0]
    C = root.card_owner.shape[0]
    S = root.alive.shape[0]
    for first in prange((n + chunk - 1) // chunk):
        work = _new_state(T, C, S, 0)
        for r in range(first * chunk, min(n, (first + 1) * chunk)):
            _rollout(root, work, B, R, CUT, V, bots, params, seeds[r], last_turn, last_round, roster)
            info = work.info
            out[r, 0] = info[I_WINNER]
            out[r, 1] = info[I_TURN]
            out[r, 2] = info[I_ROUND]
            out[r, 3] = info[I_PHASE] == OVER
            out[r, 4] = info[I_REASON]
            for s in range(S):
                out[r, 5 + s] = work.n_terr[s]
                out[r, 5 + S + s] = 0
            for t in range(T):
                out[r, 5 + S + work.owner[t]] += work.armies[t]


def rollouts(game: Game, n: int, horizon: int | None = None, bots=("random",), seed: int = 0, *,
             unit: str = "turns", params: dict | None = None, progress=None):
    """Play a game on from its current position ``n`` times, each with fresh dice; one row per rollout.

    Parameters
    ----------
    game : Game
        The position (`riskstats.game.play.Game`; it is not changed).
    n : int
        Number of rollouts.
    horizon : int, optional
        Stop once this many more turns (``unit="rounds"``: rounds) have begun after the current one, at
        the start of the next (``horizon=1``: play out the current turn and the next one's beginning is
        the last position); None: play to the end of the game (or the rules' turn cap).
    bots : list
        One per seat, repeated cyclically: built-in bot names or (name, params) pairs.
    seed : int
        Rollout r plays with seed word r of ``np.random.SeedSequence(seed)``: the same table whatever
        the number of threads.
    unit : {"turns", "rounds"}
    params : dict, optional
        Bot name -> parameter values overriding its defaults (for bots given by name).
    progress : callable, optional
        ``progress(done, n)`` as the rollouts finish, a few times a second (`riskstats.pieces.in_pieces`).

    Returns
    -------
    pandas.DataFrame
        Columns rollout, seed, winner (seat, -1 if none), win_reason ("" if stopped at the horizon),
        over (the game ended), turns and rounds (begun during the rollout), and per seat
        ``territories_<s>`` and ``armies_<s>`` at the end (seats 0..P-1, then the neutral if any).
    """
    import pandas as pd

    if not isinstance(game, Game):
        raise RiskstatsError(f"rollouts need a Game, got {type(game).__name__}")
    n = check_int("n", n, 1, MAX_ROLLOUTS)
    seed = check_int("seed", seed, 0)
    if unit not in HORIZON_UNITS:
        raise RiskstatsError(f"unit must be one of {', '.join(HORIZON_UNITS)}, got {unit!r}")
    if game.over:
        raise RiskstatsError("the game is over: nothing to roll out")
    last_turn = last_round = NO_HORIZON
    if horizon is not None:
        horizon = check_int("horizon", horizon, 1)
        if unit == "turns":
            last_turn = game.turn + horizon - 1
        else:
            last_round = game.round + horizon - 1
    bots = list(bots) if not isinstance(bots, str) else bots.split(",")
    if not bots:
        raise RiskstatsError("give at least one bot")
    params = params or {}
    seats = seat_entries(bots, game.players)
    ids, values = Lineup.of([(b, params.get(b)) if isinstance(b, str) else b for b in seats]).arrays(game.players)
    seeds = np.random.SeedSequence(seed).generate_state(n, np.uint64)
    st = game.state
    root = State(*(a.copy() for a in st[:-1]), st.scratch.copy())  # the game's own arrays stay untouched
    S = st.alive.shape[0]
    out = np.zeros((n, 5 + 2 * S), np.int64)
    threads = numba.get_num_threads()
    roster = roster_for(_rollouts, ids)

    def run(start, stop):  # rollouts start .. stop - 1: blocks of at most 64 share a working state
        block = max(1, min(64, (stop - start) // (4 * threads)))
        _rollouts(root, *game.context, ids, values, seeds[start:stop], last_turn, last_round, block, roster,
                  out[start:stop])

    in_pieces(n, run, progress=progress, first=threads)
    names = [str(s) for s in range(game.players)] + (["neutral"] if S > game.players else [])
    table = pd.DataFrame({
        "rollout": np.arange(n),
        "seed": seeds,
        "winner": out[:, 0],
        "win_reason": [REASONS[r] for r in out[:, 4]],
        "over": out[:, 3].astype(bool),
        "turns": out[:, 1] - game.turn,
        "rounds": out[:, 2] - game.round,
    })
    for s, name in enumerate(names):
        table[f"territories_{name}"] = out[:, 5 + s]
    for s, name in enumerate(names):
        table[f"armies_{name}"] = out[:, 5 + S + s]
    return table
