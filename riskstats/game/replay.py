"""Rebuild a game's position from its event log alone, in plain Python.

This module owns `replay_events`: it reads the rows of `riskstats.game.play.Game.events` (or one game of
``play_games(..., log=True)``) in order and applies what each says, with no rule engine, no bots and no
random stream. It shows that the log is complete: the test suite replays hundreds of games of every
variant and finds the engine's final state. It does not check that the moves were legal (the engine
does) and does not rebuild what the log does not record (the draw pile's order, a mission changed by its
target's elimination).

>>> from riskstats.game.play import play_game
>>> game = play_game(3, ["aggressive"], seed=1)
>>> position = replay_events(game.events())
>>> (position.owner == game.state.owner).all() and position.winner == game.winner
True
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from riskstats.errors import RiskstatsError
from riskstats.game.rules.board import Board, classic_board
from riskstats.game.rules.state import ASIDE, DECK, DISCARD


@dataclass
class Position:
    """A position rebuilt from an event log (arrays as in `riskstats.game.rules.state.State`).

    owner, armies : per territory
    card_owner : per card: a seat, DECK (-1), DISCARD (-2) or ASIDE (-3)
    alive : per seat (the neutral included), 1 until eliminated
    capital, mission : per seat: the capital territory and the mission card dealt (-1: none)
    winner : the winning seat, -1 if none (yet, or the game was truncated)
    reason : why the game ended ("" while it runs)
    turn : turns begun
    """

    owner: np.ndarray
    armies: np.ndarray
    card_owner: np.ndarray
    alive: np.ndarray
    capital: np.ndarray
    mission: np.ndarray
    winner: int = -1
    reason: str = ""
    turn: int = 0


def replay_events(events, board: Board | None = None) -> Position:
    """The position after the rows of one game's event log, rebuilt from the rows alone.

    Parameters
    ----------
    events : pandas.DataFrame
        One game's event log from its first row (`riskstats.game.play.Game.events`; a ``game`` column,
        if any, is ignored): a deal or claim row, or the mission rows a Secret Mission game by choice
        starts with.
    board : Board, optional
        The board it was played on (its size); the classic board by default.
    """
    board = board or classic_board()
    rows = events.reset_index(drop=True)
    setup = rows.move[rows.move != "mission"]  # Secret Mission by choice deals the missions before the claims
    if len(setup) == 0 or setup.iloc[0] not in ("deal", "claim"):
        raise RiskstatsError("replay needs a game's event log from its first row (a deal, a claim, or a Secret "
                             "Mission's mission rows before them)")
    seats = int(max(rows.player.max(), rows.defender.max())) + 1
    pos = Position(owner=np.full(board.n_territories, -1, np.int64), armies=np.zeros(board.n_territories, np.int64),
                   card_owner=np.full(board.n_cards, DECK, np.int64), alive=np.ones(seats, np.int64),
                   capital=np.full(seats, -1, np.int64), mission=np.full(seats, -1, np.int64))
    for row in rows.itertuples(index=False):
        _APPLY.get(row.move, _nothing)(pos, row)
    pos.turn = int(rows.turn.iloc[-1])
    return pos


def _nothing(pos, row):
    """pass, end_attack, end_turn, begin_turn, reinforce: nothing on the board changes."""


def _claim(pos, row):  # deal or claim: the territory is the player's, with its armies
    pos.owner[row.dst] = row.player
    pos.armies[row.dst] += row.armies


def _put(pos, row):  # place (the setup's, the neutral's, a turn's) or a trade's +2 bonus
    if row.dst >= 0:
        pos.armies[row.dst] += row.armies


def _trade(pos, row):
    pos.card_owner[[row.card1, row.card2, row.card3]] = DISCARD
    _put(pos, row)


def _move(pos, row):  # occupy or fortify
    pos.armies[row.src] -= row.armies
    pos.armies[row.dst] += row.armies


def _attack(pos, row):
    pos.armies[row.src] -= row.attacker_loss
    pos.armies[row.dst] -= row.defender_loss
    if row.conquered:
        pos.owner[row.dst] = row.player
        _move(pos, row)
    if row.eliminated >= 0:
        pos.alive[row.eliminated] = 0


def _take_card(pos, row):  # draw or capture
    pos.card_owner[row.card] = row.player


def _reshuffle(pos, row):
    pos.card_owner[pos.card_owner == DISCARD] = DECK


def _aside(pos, row):
    pos.card_owner[row.card] = ASIDE


def _capital(pos, row):
    pos.capital[row.player] = row.dst


def _mission(pos, row):
    pos.mission[row.player] = row.mission


def _game_over(pos, row):
    pos.winner = int(row.player)
    pos.reason = row.reason


_APPLY = {"deal": _claim, "claim": _claim, "place": _put, "trade": _trade, "attack": _attack, "occupy": _move,
          "fortify": _move, "draw": _take_card, "capture": _take_card, "reshuffle": _reshuffle, "aside": _aside,
          "capital": _capital, "mission": _mission, "game_over": _game_over}
"""Event kind -> what it does to the position (every other kind: `_nothing`)."""
