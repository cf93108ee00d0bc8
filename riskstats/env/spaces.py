"""The environments' options, named once: which action space, which defence and which observation scaling.

This module owns the names every environment accepts (`ACTIONS`, `riskstats.env.defence.DEFENCES`,
`OBSERVATIONS`), `check_choice` (the one-line error for a bad value) and `action_space`, which builds the action
space an ``actions=`` value names. It owns neither space (`riskstats.env.actions`, `riskstats.env.macro`) nor the
observation (`riskstats.env.observation`).

>>> from riskstats.game.rules.board import classic_board
>>> from riskstats.game.rules.options import GameRules
>>> action_space(classic_board(), GameRules(), "macro", "auto").n
629
>>> action_space(classic_board(), GameRules(), "micro", "auto")
Traceback (most recent call last):
riskstats.errors.RiskstatsError: actions must be one of full, macro, got 'micro'
"""
from __future__ import annotations

from riskstats.env.actions import ActionEncoding
from riskstats.env.defence import DEFENCES
from riskstats.env.macro import MacroEncoding
from riskstats.errors import RiskstatsError

ACTIONS = ("full", "macro")
"""The action spaces: the full encoding (`riskstats.env.actions`, the default) and macro actions
(`riskstats.env.macro`)."""
OBSERVATIONS = ("raw", "log1p")
"""The observation's scaling (`riskstats.env.observation`): counts as they are, or log1p of every count field."""


def check_choice(name: str, value, choices: tuple) -> str:
    """``value`` if it is one of ``choices``, else a one-line `RiskstatsError` naming it."""
    if not isinstance(value, str) or value not in choices:
        raise RiskstatsError(f"{name} must be one of {', '.join(choices)}, got {value!r}")
    return value


def action_space(board, rules, actions: str = "full", defend: str = "choose"):
    """The action space ``actions`` names for a board and rule set: an `ActionEncoding` or a `MacroEncoding`
    (with ``defend``'s defend block)."""
    check_choice("actions", actions, ACTIONS)
    check_choice("defend", defend, DEFENCES)
    if actions == "macro":
        return MacroEncoding.for_board(board, rules, defend)
    return ActionEncoding.for_board(board, rules)
