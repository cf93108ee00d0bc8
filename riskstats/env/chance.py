"""Explicit chance over the engine's own dice: the exact outcome table of one roll, and a roll made to
come out as a chosen outcome.

This module owns `roll_outcomes` (the attacker's possible losses in one roll and their probabilities, from
the engine's sampling table `riskstats.odds.simulate.sampling_table`) and `_steer_stream`, which sets a
game's random stream so that the engine's next roll, drawn the engine's way
(`riskstats.odds.simulate.roll_losses` of one 53-bit uniform), has the chosen outcome. The rules stay the
engine's: an environment with explicit chance nodes (`riskstats.env.openspiel`) picks an outcome with these
probabilities, steers the stream, then plays the defend move with `riskstats.game.play.Game.step`, so
losses, conquest and everything after it are applied by the engine itself.

The steered stream is a function of the stream as it was and the chosen outcome only (the stream is seeded
from its current word, then from the next words, until the roll would come out as chosen; about 1 / p
tries), so a game is a function of its seed, its moves and its chance outcomes.

>>> from riskstats.game.rules import GameRules
>>> [round(p, 4) for p in roll_outcomes(GameRules(), 3, 2)]
[0.3717, 0.3358, 0.2926]
"""
from __future__ import annotations

import numpy as np

from riskstats._numba import jit
from riskstats.game.engine import _bits53, _seed
from riskstats.game.play import _tables
from riskstats.odds.simulate import roll_losses

BITS53 = 2**53


def roll_outcomes(rules, attacker_dice: int, defender_dice: int) -> list[float]:
    """P(the attacker loses l armies), l = 0 .. min(dice), in one roll: the engine's exact sampling table."""
    cut, _ = _tables(rules)
    k = min(attacker_dice, defender_dice)
    edges = [0] + [int(cut[attacker_dice, defender_dice, j]) for j in range(k)] + [BITS53]
    return [(edges[i + 1] - edges[i]) / BITS53 for i in range(k + 1)]


@jit
def _steer_stream(cut, na, nd, lose, rng):  # pragma: no cover - compiled
    """Set the stream rng[0] so that the next roll of na dice against nd costs the attacker ``lose``
    armies: seeded from rng[0], rng[0] + 1, ... the first that does. The number of tries, -1 if none
    within 2**20 (an outcome of probability 0)."""
    probe = np.empty(1, np.uint64)
    key = rng[0]
    for i in range(1 << 20):
        _seed(probe, key + np.uint64(i))
        start = probe[0]
        if roll_losses(cut, na, nd, _bits53(probe)) == lose:
            rng[0] = start
            return i + 1
    return -1
