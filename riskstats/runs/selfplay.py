"""Self-play: many complete games between built-in bots, compiled and run in parallel over games.

This module owns `play_games` (one row per game; `riskstats.stats.report.summary` sums it up) and
`check_games`, the one check of a batch's configuration (counts, seed, line-up and bot parameters,
rules, players for those rules and that board): `play_games` calls it, and so does
`riskstats.runs.tournament.RunConfig` when it is built, so that a run's chunks are played from the
checked `Batch` (`play_batch`) without checking it again. The rules are `riskstats.game.rules.engine`'s and
the bots `riskstats.game.bots`'; the per-game loop is `riskstats.game.loop._play`.

Seats: the bots given are assigned to seats 0..P-1 in order, repeated cyclically, and game g rotates
that line-up by g (seat s of game g plays line-up entry (s + g) mod P), so every bot sits in every seat
equally often over P consecutive games. Seat 0 moves first. Each game draws only from its own seed's
stream, so the table is identical whatever the number of threads (`numba.set_num_threads`).

Seeds (`game_seeds`) follow a versioned scheme; runs record theirs (`riskstats.runs.tournament`):

- **scheme 1** (runs written before schemes were versioned): game g's seed is word g of
  ``np.random.SeedSequence(seed).generate_state(games, np.uint64)``. Any game's seed needs the words of
  all games before it: a run holds 8 bytes a game (800 MB at 10^8 games).
- **scheme 2** (the default, `SEED_SCHEME`): games come in blocks of `SEED_BLOCK` (65,536); game g's
  seed is word ``g % SEED_BLOCK`` of block ``b = g // SEED_BLOCK``, whose words come from
  ``SeedSequence(seed, spawn_key=(b,))`` (block 0: ``SeedSequence(seed)`` itself). A chunk works out
  its seeds from ``(seed, start, stop)`` alone, holding at most a block (512 KB), so memory stays flat
  however many games a run has. Block 0 is scheme 1's first 65,536 words: a run of up to 65,536 games
  (every test, golden value and benchmark fingerprint) plays the same games under both schemes.
  The block size is part of the scheme; the chunk size, threads and workers never enter the seeds.

>>> table = play_games(4, 3, ["aggressive", "continent", "defensive"], seed=1)
>>> list(table.columns[:6])
['game', 'seed', 'variant', 'players', 'bots', 'winner']
>>> table["bots"][1]
'continent,defensive,aggressive'

With ``log=True`` it also returns every game's event log, long form with a ``game`` column (the same games:
the logs are kept as the games are played, one game at a time):

>>> table, events = play_games(2, 3, ["aggressive"], seed=1, log=True)
>>> events.groupby("game").move.last().tolist()
['game_over', 'game_over']
"""
from __future__ import annotations

import json
from typing import NamedTuple

import numba
import numpy as np
from numba import prange

from riskstats._numba import parallel_jit
from riskstats.errors import RiskstatsError, check_int
from riskstats.game.bots.catalog import Lineup, lineup_specs, seat_entries
from riskstats.game.bots.roster import roster_for
from riskstats.game.drive import _drive, _start_game
from riskstats.game.loop import NO_HORIZON
from riskstats.game.play import Game
from riskstats.game.rules.board import Board, classic_board
from riskstats.game.rules.context import compile_context
from riskstats.game.rules.options import GameRules, variant_for
from riskstats.game.rules.state import I_REASON, I_ROUND, I_TURN, I_WINNER, REASONS
from riskstats.pieces import in_pieces

MAX_GAMES = 100_000_000
SEED_SCHEME = 2
"""The seed scheme of new runs and of `play_games` (see the module docstring); runs record theirs."""
SEED_SCHEMES = (1, 2)
SEED_BLOCK = 65_536
"""Games per seed block of scheme 2 (part of the scheme: changing it would change the games)."""


@parallel_jit
def _selfplay(seeds, lineup_bots, lineup_params, B, R, CUT, V, seats, roster, out):  # pragma: no cover - compiled
    """out[g] = (winner, turns, rounds, reason, mission card of each seat..., elimination number of each
    seat...) of game g; seat s plays line-up entry (s + g) % P. Only the bots of ``roster``
    (`riskstats.game.bots.roster`) are compiled: self-play without a search seat never compiles the search
    kernels, nor those of a heuristic bot it does not seat.

    Parameters
    ----------
    seeds : uint64[G]
        Each game's seed.
    lineup_bots : int64[P]
        The line-up's bot ids (`riskstats.game.bots.catalog.Lineup.arrays`).
    lineup_params : float64[P, N_PARAMS]
        Their parameter vectors.
    B, R, CUT, V
        The context (`riskstats.game.rules.context.compile_context`): the board arrays (`BoardArrays`), the rule
        vector (int64[R_SIZE]), the one-roll table and the P(conquer) table.
    seats : int
        Seats at the table (the players and a neutral's).
    roster : tuple
        The line-up's roster (`riskstats.game.bots.roster.roster_for`): the bots compiled in.
    out : int64[G, 4 + 2 * P]
        Written: each game's row, as above.
    """
    G = seeds.shape[0]
    P = lineup_bots.shape[0]
    for g in prange(G):
        st, bots, params = _start_game(lineup_bots, lineup_params, g, B, R, seats, 0, seeds[g])
        _drive(st, B, R, CUT, V, bots, params, False, NO_HORIZON, NO_HORIZON, roster, None)
        out[g, 0] = st.info[I_WINNER]
        out[g, 1] = st.info[I_TURN]
        out[g, 2] = st.info[I_ROUND]
        out[g, 3] = st.info[I_REASON]
        for s in range(P):
            out[g, 4 + s] = st.mission[s, 0]
            out[g, 4 + P + s] = st.out[s]


def finishing_places(winner, out) -> list[str]:
    """Each game's finishing places, seat by seat and comma-joined: 1 for the winner, then the seats still in
    play at the end sharing the next place, then the eliminated seats, the last one out placed highest.

    ``out[g, s]`` is k if seat s was the k-th seat eliminated in game g, 0 if it was still in play (the
    State's ``out``); the neutral of a two-player game is not a seat here.

    >>> finishing_places(np.array([2, -1, 1]), np.array([[1, 2, 0, 0], [0, 1, 0, 0], [3, 0, 0, 0]]))
    ['4,3,1,2', '1,4,1,1', '4,1,2,2']
    """
    winner = np.asarray(winner)
    out = np.asarray(out)
    P = out.shape[1]
    # k-th player out, counting players only (a two-player game's neutral may go out too)
    k = np.where(out > 0, ((out[:, None, :] > 0) & (out[:, None, :] < out[:, :, None])).sum(2) + 1, 0)
    other = (winner >= 0)[:, None] & (np.arange(P)[None, :] != winner[:, None])
    place = np.where(k > 0, P - k + 1, np.where(other, 2, 1))
    return [",".join(map(str, row)) for row in place]


def game_seeds(seed: int, games: int, start: int = 0, scheme: int = SEED_SCHEME) -> np.ndarray:
    """The seeds of games ``start .. games - 1`` of a run with this ``seed`` under seed ``scheme``.

    Scheme 2 holds at most one block of seeds beyond the games asked for, whatever ``start``; scheme 1
    works out all ``games`` words (callers playing many chunks of a scheme-1 run compute them once).

    >>> a = game_seeds(7, 70_000)
    >>> bool((game_seeds(7, 70_000, start=65_000) == a[65_000:]).all())
    True
    >>> bool((a[:65_536] == game_seeds(7, 65_536, scheme=1)).all())  # block 0 is scheme 1's
    True
    >>> bool(a[65_536] == game_seeds(7, 70_000, scheme=1)[65_536])  # later blocks differ
    False
    """
    if scheme == 1:
        return np.random.SeedSequence(seed).generate_state(games, np.uint64)[start:]
    if scheme != 2:
        raise RiskstatsError(f"unknown seed scheme {scheme!r}; known: {', '.join(map(str, SEED_SCHEMES))}")
    parts = []
    for block in range(start // SEED_BLOCK, (games - 1) // SEED_BLOCK + 1 if games > start else 0):
        low = max(start - block * SEED_BLOCK, 0)
        high = min(games - block * SEED_BLOCK, SEED_BLOCK)
        parts.append(_seed_block(seed, block, high)[low:high])
    return np.concatenate(parts) if parts else np.zeros(0, np.uint64)


_BLOCKS: dict = {}
"""(seed, block) -> the words of a scheme-2 block worked out so far (a prefix, or the whole block)."""


def _seed_block(seed: int, block: int, needed: int) -> np.ndarray:
    """At least the first ``needed`` words of a scheme-2 block.

    A block's words are a prefix-stable stream, so a chunk at a block's start works out only the words
    it needs; the first time a block is asked for more than it holds, the whole block is worked out.
    The last 4 blocks are kept (at most 2 MB), so the chunks of a run played in order generate each
    block at most twice, and one small call (``play_games(10, ...)``) only 10 words.
    """
    words = _BLOCKS.get((seed, block))
    if words is None or len(words) < needed:
        words = np.random.SeedSequence(seed, spawn_key=(block,) if block else ()).generate_state(
            needed if words is None else SEED_BLOCK, np.uint64)
        words.flags.writeable = False
        _BLOCKS.pop((seed, block), None)
        while len(_BLOCKS) >= 4:
            _BLOCKS.pop(next(iter(_BLOCKS)))
        _BLOCKS[(seed, block)] = words
    return words


class Batch(NamedTuple):
    """A checked configuration of self-play games: what `check_games` returns and `play_batch` trusts."""

    games: int
    players: int
    bots: tuple
    rules: GameRules
    board: Board
    params: dict
    seed: int
    seed_scheme: int
    specs: tuple
    """The line-up's checked `riskstats.game.bots.catalog.BotSpec` s (``bots`` are their labels): parsed once, by
    `check_games`, and turned into the kernel's ids and parameter vectors by `play_batch` without parsing again."""


def check_games(games, players, bots, variant: str = "classic", seed=0, rules: GameRules | None = None,
                board: Board | None = None, params: dict | None = None, seed_scheme: int = SEED_SCHEME) -> Batch:
    """Check the configuration of a batch of games once and return it normalised (`play_games`' parameters).

    >>> check_games(10, 3, "aggressive, continent").bots
    ('aggressive', 'continent')
    """
    games = check_int("games", games, 1, MAX_GAMES)
    seed = check_int("seed", seed, 0)
    params = params or {}
    specs = lineup_specs(bots, params)  # the bots named and their parameters, parsed once, before the rules
    if rules is None:
        rules = GameRules(variant=variant_for(variant, check_int("players", players)))
    elif not isinstance(rules, GameRules):
        raise RiskstatsError(f"rules must be a GameRules, got {rules!r}")
    elif variant != rules.variant and variant != "classic":
        raise RiskstatsError(f"variant {variant!r} does not match rules.variant {rules.variant!r}")
    board = board or classic_board()
    players = rules.check_players(check_int("players", players), board)
    seat_entries(specs, players)  # no more bots than seats
    if seed_scheme not in SEED_SCHEMES:
        raise RiskstatsError(f"unknown seed scheme {seed_scheme!r}; known: {', '.join(map(str, SEED_SCHEMES))}")
    return Batch(games, players, tuple(s.label for s in specs), rules, board, params, seed, seed_scheme, specs)


def play_games(games: int, players: int, bots, variant: str = "classic", seed: int = 0,
             rules: GameRules | None = None, *, board: Board | None = None, params: dict | None = None,
             first: int = 0, seeds=None, log: bool = False, seed_scheme: int = SEED_SCHEME):
    """Play ``games`` complete games between built-in bots; one row per game.

    Parameters
    ----------
    games, players : int
    bots : list of str, or a comma-separated str
        Bot specs, each a name (`riskstats.game.bots.catalog.CATALOG`) with optional parameters
        (``"continent:threshold=0.6:card_threshold=0.8"``), assigned to seats in order and repeated
        cyclically. Results name each bot by its spec's label.
    variant : {"classic", "two-player", "mission", "capital"}
        Used when ``rules`` is not given (``GameRules(variant=variant)``; "classic" with 2 players means the
        two-player game with a neutral); must match it if it is.
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
        Those games' seeds, if already known (``game_seeds(seed, first + games, first, seed_scheme)``).
    seed_scheme : {1, 2}
        How games' seeds derive from ``seed`` (module docstring); the two agree on games 0 .. 65,535.
    log : bool
        Also keep every game's event log. The games are the same; they are played one at a time (not
        in parallel), and the logs take some 200 rows per game.

    Returns
    -------
    pandas.DataFrame
        Columns game, seed, variant, players, bots (seat order, comma-joined), winner (seat, -1 if
        truncated), winner_bot, turns, rounds, truncated, win_reason, places (`finishing_places`: each
        seat's finishing place, comma-joined); ``attrs["rules"]`` holds the rules
        and the board name, also as JSON in column ``rules``.
    pandas.DataFrame, only with ``log=True``
        The event logs: column ``game``, then `riskstats.game.rules.state.LOG_COLS` (see `Game.events`).
    """
    batch = check_games(games, players, bots, variant, seed, rules, board, params, seed_scheme)
    first = check_int("first", first, 0)
    if seeds is not None:
        seeds = np.asarray(seeds, np.uint64)
        if seeds.shape != (batch.games,):
            raise RiskstatsError(f"need {batch.games} seeds, got {seeds.shape[0]}")
    return play_batch(batch, first, seeds, log=log)


def play_batch(batch: Batch, first: int = 0, seeds=None, games: int | None = None, log: bool = False,
               progress=None):
    """`play_games` for a `Batch` that `check_games` made: games ``first .. first + games - 1`` (default
    ``batch.games``) with their seeds under ``batch.seed_scheme``, or ``len(seeds)`` games with those
    seeds (with ``log``, also their event logs). The batch's checked specs become the kernel's ids and
    parameter vectors here; nothing is parsed or checked again.

    The games are played in short calls of the kernel (`riskstats.pieces.in_pieces`, each game from its
    own seed and seat rotation, so the cut changes nothing), so that Ctrl-C stops a batch within a second;
    ``progress(done, games)`` is called after each (without ``log``)."""
    import pandas as pd

    players, rules, board, seed = batch.players, batch.rules, batch.board, batch.seed
    games = len(seeds) if seeds is not None else batch.games if games is None else games
    lineup = [spec.label for spec in Lineup(batch.specs).seated(players)]
    lineup_bots, lineup_params = Lineup(batch.specs).arrays(players, first)  # game first + g rotates by first + g
    if seeds is None:
        seeds = game_seeds(seed, first + games, first, batch.seed_scheme)
    out = np.zeros((games, 4 + 2 * players), np.int64)
    if log:
        logs = _play_logged(seeds, lineup_bots, lineup_params, players, rules, board, first, out)
    else:
        ctx = compile_context(rules, board, players)
        seat = np.arange(players)
        roster = roster_for(_selfplay, lineup_bots)

        def run(start, stop):  # games start .. stop - 1 of this batch: the line-up rotated by start
            turned = (seat + start) % players
            _selfplay(seeds[start:stop], lineup_bots[turned], lineup_params[turned], *ctx, rules.seats(players),
                      roster, out[start:stop])

        in_pieces(games, run, progress=progress, first=numba.get_num_threads())
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
        "places": finishing_places(winner, out[:, 4 + players:]),
        "rules": pd.Categorical([record] * games),
    })
    if rules.objective == "mission":
        table["missions"] = [",".join(board.mission_name(int(c), s) for s, c in enumerate(row))
                             for row in out[:, 4:4 + players]]
    table.attrs["rules"] = json.loads(record)
    if log:
        return table, pd.concat(logs, ignore_index=True)
    return table


def _play_logged(seeds, lineup_bots, lineup_params, players, rules, board, first, out) -> list:
    """`_selfplay`'s games one at a time with their event logs: fills ``out`` the same way, returns the
    logs (each with its ``game`` column first)."""
    logs = []
    seat = np.arange(players)
    for i, seed in enumerate(seeds):
        game = Game(players, rules, board=board, seed=int(seed))
        game._play_compiled(lineup_bots[(seat + i) % players], lineup_params[(seat + i) % players], check=False)
        st = game.state
        out[i, :4] = st.info[[I_WINNER, I_TURN, I_ROUND, I_REASON]]
        out[i, 4:4 + players] = st.mission[:players, 0]
        out[i, 4 + players:] = st.out[:players]
        events = game.events()
        events.insert(0, "game", first + i)
        logs.append(events)
    return logs
