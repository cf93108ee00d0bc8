"""Automatic defence: the environments' option to let the defending seat always roll the most dice it may.

This module owns the names of the two defences (`DEFENCES`) and `most_dice`, the dice an automatic defence
rolls. It owns no rule: the bound is the rules' own (`riskstats.game.rules.legal._defend_dice`, the one `_check`
enforces), and the defence is played by the engine's own `_apply` (or, with explicit chance, its `_step_roll`).

``"choose"`` (the default, the rules as written): the defending seat chooses its dice, a decision of its own.
``"auto"``: it always rolls the most dice it may, and takes no decision, so a learning agent spends none of its
steps on defence (in uniform-random play defences are some 45% of all decisions). The most dice are the defender's
best choice in all but rare positions (`riskstats.odds`).
"""
from __future__ import annotations

from riskstats.game.rules.legal import _defend_dice

DEFENCES = ("choose", "auto")
"""The defences an environment offers: the defending seat chooses its dice, or rolls the most it may."""
CHOOSE, AUTO = range(len(DEFENCES))


def most_dice(game) -> int:
    """The most dice the defending seat of ``game`` (a `riskstats.game.play.Game` in phase "defend") may roll."""
    return int(_defend_dice(game.state, game.context.R))
