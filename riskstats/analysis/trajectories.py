"""Turn-by-turn records of self-play games: who held what at the start of every turn.

`riskstats.runs.selfplay.play_games` returns one row per game. A game is a function of its seed and the
bots' moves, so replaying a row with the step API (`riskstats.game.play.Game`) reproduces it exactly, this
time stopping at the start of every turn to record each seat's territories, armies, cards and the
continents it holds, and keeping the event log. The continent, card and self-play notebooks read
these records; they cost Python speed (about a tenth of a second per game), so analyses replay a few
hundred games while `play_games` plays the millions. `replay_game` is the replay itself, which every
analysis that stops a game somewhere (`replay`, `positions_at`, `riskstats.analysis.cards`, ``.breaking``,
``.calibration``) walks.
"""
from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pandas as pd

from riskstats.errors import RiskstatsError
from riskstats.game.play import Game
from riskstats.game.rules.board import Board, classic_board
from riskstats.game.rules.options import GameRules

TURN_PHASES = ("trade", "reinforce")
"""The phases a turn can start in."""


def replay_game(row, rules: GameRules | None = None, board: Board | None = None,
                params: dict | None = None) -> Iterator[Game]:
    """Replay one game of a `play_games` table move by move: yields the game before each of its moves and
    once more when it is over (the same `Game`, stepped on by its seat's bot after each yield).

    ``row`` is one row of the table (a Series or a namedtuple); ``rules``, ``board`` and ``params`` (bot name
    -> parameters) must be those it was played with (default: the row's variant with default options, the
    classic board, each bot's defaults). Run to its end, a game that does not end as the row says (winner
    and turns) is an error.
    """
    board = board or classic_board()
    game = Game(int(row.players), rules or GameRules(variant=str(row.variant)), board=board, seed=int(row.seed))
    specs = [(b, (params or {}).get(b)) for b in str(row.bots).split(",")]
    while not game.over:
        yield game
        game.step(game.bot_move(*specs[game.player]))
    yield game
    if (game.winner, game.turn) != (row.winner, row.turns):
        raise RiskstatsError(f"game {row.game} did not replay the same (rules or bots differ from the table)")


def replay(table: pd.DataFrame, rules: GameRules | None = None, board: Board | None = None
           ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Replay the games of a `play_games` table, recording every turn start and every event.

    ``rules`` and ``board`` must be those the table was played with (default: the table's variant with
    default options, and the classic board); a game that does not replay the same is an error.

    Returns
    -------
    turns : DataFrame
        One row per game, turn start and seat: ``game``, ``turn``, ``round``, ``to_move`` (the seat
        whose turn starts), ``seat``, ``territories``, ``armies``, ``cards``, ``alive`` and one boolean
        column per continent (held whole by that seat).
    events : DataFrame
        The event logs (`riskstats.game.rules.state.LOG_COLS`) with a ``game`` column.
    """
    board = board or classic_board()
    rules = rules or GameRules(variant=str(table.variant.iloc[0]))
    continents = list(board.continents)
    member = np.zeros((len(continents), board.n_territories), bool)
    member[board.arrays.continent_of, np.arange(board.n_territories)] = True
    turn_rows, event_frames = [], []
    for row in table.itertuples():
        last_turn = -1
        for game in replay_game(row, rules, board):
            if not game.over and game.turn != last_turn and game.phase in TURN_PHASES:
                last_turn = game.turn
                turn_rows.append(_snapshot(game, row.game, member))
        event_frames.append(game.events().assign(game=row.game))
    columns = ["game", "turn", "round", "to_move", "seat", "territories", "armies", "cards", "alive", *continents]
    turns = pd.DataFrame([r for rows in turn_rows for r in rows], columns=columns)
    return turns, pd.concat(event_frames, ignore_index=True)


def _snapshot(game: Game, index: int, member: np.ndarray) -> list[tuple]:
    st = game.state
    rows = []
    for seat in range(game.players):
        owned = st.owner == seat
        held = [bool(owned[m].all()) for m in member]
        rows.append((index, game.turn, game.round, game.player, seat, int(owned.sum()),
                     int(st.armies[owned].sum()), int((st.card_owner == seat).sum()), bool(owned.any()), *held))
    return rows


def positions_at(row, rounds, rules: GameRules | None = None, board: Board | None = None) -> dict:
    """A game's positions at the start of given rounds, and at its end: the game's course, for board maps.

    ``row`` is one row of a `play_games` table (a Series or a namedtuple), replayed as `replay` does;
    ``rules`` and ``board`` as there. Returns {round: position dict (`Game.to_json`)} for each of
    ``rounds`` the game reached (taken as the first turn of that round starts), and ``"end"``: the last one.
    """
    wanted = sorted({int(r) for r in rounds})
    out = {}
    for game in replay_game(row, rules, board):
        while not game.over and wanted and game.round >= wanted[0] and game.phase in TURN_PHASES:
            out[wanted.pop(0)] = game.to_json()
    out["end"] = game.to_json()
    return out
