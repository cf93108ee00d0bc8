"""Self-play: many complete games between built-in bots, compiled and run in parallel over games.

This module owns `play_games` (one row per game; `riskstats.stats.report.summary` sums it up) and
`check_games`, the one check of a batch's configuration (counts, seed, line-up and bot parameters,
rules, players for those rules and that board): `play_games` calls it, and so does
`riskstats.runs.tournament.RunConfig` when it is built, so that a run's chunks are played from the
checked `Batch` (`play_batch`) without checking it again. The rules are `riskstats.game.engine`'s and
the bots `riskstats.game.bots`'; the per-game loop is `riskstats.game.play._play`.

Seats: the bots given are assigned to seats 0..P-1 in order, repeated cyclically, and game g rotates
that line-up by g (seat s of game g plays line-up entry (s + g) mod P), so every bot sits in every seat
equally often over P consecutive games. Seat 0 moves first. Game g's seed is word g of
``np.random.SeedSequence(seed).generate_state(games, np.uint64)``; each game draws only from its own
stream, so the table is identical whatever the number of threads (`numba.set_num_threads`).

>>> table = play_games(4, 3, ["aggressive", "continent", "defensive"], seed=1)
>>> list(table.columns[:6])
['game', 'seed', 'variant', 'players', 'bots', 'winner']
>>> table["bots"][1]
'continent,defensive,aggressive'
"""
from __future__ import annotations

import json
from typing import NamedTuple

import numpy as np
from numba import prange

from riskstats._numba import parallel_jit
from riskstats.errors import RiskstatsError, check_int
from riskstats.game.board import Board, classic_board
from riskstats.game.engine import _init
from riskstats.game.play import _play, _tables
from riskstats.game.registry import check_lineup, lineup_specs
from riskstats.game.rules import GameRules
from riskstats.game.state import I_REASON, I_ROUND, I_TURN, I_WINNER, REASONS, _new_state

MAX_GAMES = 100_000_000


@parallel_jit
def _selfplay(seeds, lineup_bots, lineup_params, B, R, CUT, V, seats, out):  # pragma: no cover - compiled
    """out[g] = (winner, turns, rounds, reason, mission card of each seat...) of game g; seat s plays
    line-up entry (s + g) % P."""
    G = seeds.shape[0]
    P = lineup_bots.shape[0]
    T = B.continent_of.shape[0]
    C = B.card_symbol.shape[0]
    for g in prange(G):
        bots = np.empty(P, np.int64)
        params = np.empty((P, lineup_params.shape[1]))
        for s in range(P):
            bots[s] = lineup_bots[(s + g) % P]
            params[s] = lineup_params[(s + g) % P]
        st = _new_state(T, C, seats, 0)
        _init(st, B, R, seeds[g])
        _play(st, B, R, CUT, V, bots, params, False)
        out[g, 0] = st.info[I_WINNER]
        out[g, 1] = st.info[I_TURN]
        out[g, 2] = st.info[I_ROUND]
        out[g, 3] = st.info[I_REASON]
        for s in range(P):
            out[g, 4 + s] = st.mission[s, 0]


def game_seeds(seed: int, games: int) -> np.ndarray:
    """The per-game seeds of a self-play run."""
    return np.random.SeedSequence(seed).generate_state(games, np.uint64)


class Batch(NamedTuple):
    """A checked configuration of self-play games: what `check_games` returns and `play_batch` trusts."""

    games: int
    players: int
    bots: tuple
    rules: GameRules
    board: Board
    params: dict
    seed: int


def check_games(games, players, bots, variant: str = "classic", seed=0, rules: GameRules | None = None,
                board: Board | None = None, params: dict | None = None) -> Batch:
    """Check the configuration of a batch of games once and return it normalised (`play_games`' parameters).

    >>> check_games(10, 3, "aggressive, continent").bots
    ('aggressive', 'continent')
    """
    games = check_int("games", games, 1, MAX_GAMES)
    seed = check_int("seed", seed, 0)
    params = params or {}
    bots = check_lineup(bots, params)
    if rules is None:
        rules = GameRules(variant=variant)
    elif not isinstance(rules, GameRules):
        raise RiskstatsError(f"rules must be a GameRules, got {rules!r}")
    elif variant != rules.variant and variant != "classic":
        raise RiskstatsError(f"variant {variant!r} does not match rules.variant {rules.variant!r}")
    board = board or classic_board()
    players = rules.check_players(check_int("players", players), board)
    return Batch(games, players, bots, rules, board, params, seed)


def play_games(games: int, players: int, bots, variant: str = "classic", seed: int = 0,
             rules: GameRules | None = None, *, board: Board | None = None, params: dict | None = None,
             first: int = 0, seeds=None):
    """Play ``games`` complete games between built-in bots; one row per game.

    Parameters
    ----------
    games, players : int
    bots : list of str, or a comma-separated str
        Bot specs, each a name (`riskstats.game.registry.CATALOG`) with optional parameters
        (``"continent:threshold=0.6:card_threshold=0.8"``), assigned to seats in order and repeated
        cyclically. Results name each bot by its spec's label.
    variant : {"classic", "two-player", "mission", "capital"}
        Used when ``rules`` is not given (``GameRules(variant=variant)``); must match it if it is.
    seed : int
    rules : GameRules, optional
    board : Board, optional
    params : dict, optional
        Bot name (or an entry's label) -> parameter values overriding its defaults: all of them in
        order, or a dict of some by name; a spec's own ``key=value`` values apply last.
    first : int
        Play games ``first .. first + games - 1`` of the run (rows, seeds and seat rotation as in one
        run of ``first + games`` games): how `riskstats.runs.tournament` plays a run in chunks.
    seeds : array of uint64, optional
        Those games' seeds, if already known (``game_seeds(seed, first + games)[first:]``).

    Returns
    -------
    pandas.DataFrame
        Columns game, seed, variant, players, bots (seat order, comma-joined), winner (seat, -1 if
        truncated), winner_bot, turns, rounds, truncated, win_reason; ``attrs["rules"]`` holds the rules
        and the board name, also as JSON in column ``rules``.
    """
    batch = check_games(games, players, bots, variant, seed, rules, board, params)
    first = check_int("first", first, 0)
    if seeds is not None:
        seeds = np.asarray(seeds, np.uint64)
        if seeds.shape != (batch.games,):
            raise RiskstatsError(f"need {batch.games} seeds, got {seeds.shape[0]}")
    return play_batch(batch, first, seeds)


def play_batch(batch: Batch, first: int = 0, seeds=None):
    """`play_games` for a `Batch` that `check_games` made: games ``first .. first + batch.games - 1``, or
    ``len(seeds)`` games with those seeds; nothing is checked again."""
    import pandas as pd

    players, bots, rules, board, params, seed = (batch.players, batch.bots, batch.rules, batch.board,
                                                 batch.params, batch.seed)
    games = batch.games if seeds is None else len(seeds)
    entries = lineup_specs(bots, params)
    specs = [entries[s % len(entries)] for s in range(players)]
    lineup = [spec.label for spec in specs]
    specs = [specs[(s + first) % players] for s in range(players)]  # game first + g rotates by first + g
    lineup_bots = np.array([spec.id for spec in specs], np.int64)
    lineup_params = np.array([spec.vector() for spec in specs])
    cut, V = _tables(rules)
    seeds = game_seeds(seed, first + games)[first:] if seeds is None else np.asarray(seeds, np.uint64)
    out = np.zeros((games, 4 + players), np.int64)
    seats = players + (1 if rules.has_neutral else 0)
    _selfplay(seeds, lineup_bots, lineup_params, board.arrays, rules.vector(players, board), cut, V, seats, out)
    g = np.arange(first, first + games)
    seat_bots = np.array(lineup, dtype=object)[(np.arange(players)[None, :] + g[:, None]) % players]
    winner = out[:, 0]
    record = json.dumps({"rules": rules.as_dict(), "board": board.name}, default=str)
    table = pd.DataFrame({
        "game": g,
        "seed": seeds,
        "variant": rules.variant,
        "players": players,
        "bots": [",".join(row) for row in seat_bots],
        "winner": winner,
        "winner_bot": [row[w] if w >= 0 else "" for row, w in zip(seat_bots, winner)],
        "turns": out[:, 1],
        "rounds": out[:, 2],
        "truncated": winner < 0,
        "win_reason": [REASONS[r] for r in out[:, 3]],
        "rules": pd.Categorical([record] * games),
    })
    if rules.variant == "mission":
        table["missions"] = [",".join(board.mission_name(int(c), s) for s, c in enumerate(row))
                             for row in out[:, 4:]]
    table.attrs["rules"] = json.loads(record)
    return table
