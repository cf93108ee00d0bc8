"""The compiled context of a game: everything its kernels read besides the state, built once.

This module owns `Context` and its one builder `compile_context` (which `riskstats.game.play.Game` holds as
``Game.context``, and every batch runner builds once per batch), and `dice_tables`, the dice rule's two tables
that the engine and the bots read. It does not own the rule options (`riskstats.game.rules.options`), the
board (`riskstats.game.rules.board`) or the dice rule (`riskstats.odds.dice`).

A kernel takes the context's four arrays in this order, ``(st, B, R, CUT, V, ...)``, so a caller passes
``*ctx`` or the fields it needs by name:

>>> from riskstats.game.rules.board import classic_board
>>> from riskstats.game.rules.options import GameRules
>>> ctx = compile_context(GameRules(), classic_board(), 4)
>>> ctx.R.dtype, ctx.CUT.shape, ctx.V.shape
(dtype('int64'), (4, 4, 3), (201, 201))
"""
from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

WIN_TABLE_SIZE = 200
"""Bots look up P(conquer) for up to this many attackers and defenders (larger stacks are clamped)."""


class Context(NamedTuple):
    """What a game's kernels read besides its state (read-only arrays)."""

    B: object
    """The board's arrays (`riskstats.game.rules.board.BoardArrays`)."""
    R: np.ndarray
    """The rule vector, int64 (`riskstats.game.rules.options.GameRules.vector`; indices ``R_*``)."""
    CUT: np.ndarray
    """The one-roll sampling table of the dice rule (`riskstats.odds.simulate.sampling_table`)."""
    V: np.ndarray
    """The bots' P(conquer) table of the dice rule, ``V[attackers, defenders]`` (`dice_tables`)."""


def compile_context(rules, board, players: int) -> Context:
    """The context of a game of ``players`` players (checked by ``rules.check_players``) on ``board``."""
    cut, V = dice_tables(rules.dice)
    return Context(board.arrays, rules.vector(players, board), cut, V)


@cache
def dice_tables(dice) -> tuple[np.ndarray, np.ndarray]:
    """The one-roll sampling table CUT (`riskstats.odds.simulate.sampling_table`) and the bots' P(conquer)
    table V (`riskstats.odds.battle.win_values`, up to `WIN_TABLE_SIZE` a side) of the dice rule ``dice``,
    read-only and computed once per dice rule."""
    from riskstats.odds.battle import win_values
    from riskstats.odds.simulate import sampling_table

    cut = sampling_table(dice)
    V = win_values(dice, WIN_TABLE_SIZE, WIN_TABLE_SIZE)
    cut.flags.writeable = False
    V.flags.writeable = False
    return cut, V
