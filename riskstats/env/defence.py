"""Automatic defence: the environments' option to let the defending seat always roll the most dice it may.

This module owns the names of the two defences (`DEFENCES`) and the kernel `_most_dice`, the dice an automatic
defence rolls. It owns no rule: the bound it reads (the rules' most defender dice, and no more dice than armies on
the attacked territory) is the one `riskstats.game.rules.engine._check` enforces, and the defence is played by the
engine's own `_apply` (or, with explicit chance, its `_step_roll`).

``"choose"`` (the default, the rules as written): the defending seat chooses its dice, a decision of its own.
``"auto"``: it always rolls the most dice it may, and takes no decision, so a learning agent spends none of its
steps on defence (in uniform-random play defences are some 45% of all decisions). The most dice are the defender's
best choice in all but rare positions (`riskstats.odds`).
"""
from __future__ import annotations

from riskstats._numba import inline_jit
from riskstats.game.rules.options import R_DDICE
from riskstats.game.rules.state import I_ATK_TO

DEFENCES = ("choose", "auto")
"""The defences an environment offers: the defending seat chooses its dice, or rolls the most it may."""
CHOOSE, AUTO = range(len(DEFENCES))


@inline_jit
def _most_dice(st, R):  # pragma: no cover - compiled
    """The most dice the defending seat may roll against the attack declared now (phase "defend")."""
    return min(R[R_DDICE], st.armies[st.info[I_ATK_TO]])


def most_dice(game) -> int:
    """The most dice the defending seat of ``game`` (a `riskstats.game.play.Game` in phase "defend") may roll."""
    return int(_most_dice(game.state, game.context.R))
