"""The solved attack policy as a bot's rule: the frontier a compiled bot reads to decide whether to roll again.

`riskstats.policy` solves one attack exactly; against a defender who always rolls its most dice (what every
built-in bot does, docs/rules.md's default) its optimal play is a stop threshold at every defender count: attack
with at least ``m(d)`` attackers (armies able to roll) against ``d`` defenders, stop below, never attack
where ``m(d)`` is 0. `frontier` computes ``m(1..FRONTIER_DEFENDERS)`` for a conquest value and a kill
value; `riskstats.game.bots.catalog.BotSpec.vector` writes it into the parameter vector of a spec with
``attack=solved`` (from `riskstats.game.bots.catalog.FRONTIER_AT` on), and the continent bot reads it
(`riskstats.game.bots.continent._attack_pays`). More defenders than the frontier covers read its last entry.

This module owns only that translation; the solver is `riskstats.odds.policy`'s, the bot `riskstats.game.bots`'.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from riskstats.errors import RiskstatsError

FRONTIER_DEFENDERS = 40
"""The frontier's length: the fewest attackers to attack with, for 1..this many defenders (more defenders
read the last entry)."""
FRONTIER_ATTACKERS = 200
"""The most attackers the frontier is solved for (the bots' P(conquer) table's size); a frontier entry
above it would never be reached and is stored as 0 (never attack)."""


@lru_cache(maxsize=64)
def _frontier(value: float, kill: float) -> tuple[int, ...]:
    from riskstats.odds.policy import policy

    solved = policy(FRONTIER_ATTACKERS, FRONTIER_DEFENDERS, value, kill_value=kill, defender="max")
    action = solved.play.action[0]  # action[a, d]: 0 stop, else the dice rolled
    out = []
    for d in range(1, FRONTIER_DEFENDERS + 1):
        attacks = action[:, d] != 0
        if not attacks.any():
            out.append(0)
            continue
        m = int(attacks.argmax())
        if not attacks[m:].all():
            raise RiskstatsError(f"the solved attack policy (value {value:g}, kill {kill:g}) is not a stop "
                                 f"threshold at {d} defenders; a frontier cannot hold it")
        out.append(m)
    return tuple(out)


def frontier(value: float, kill: float) -> np.ndarray:
    """The fewest attackers with which the solved policy attacks, for 1..`FRONTIER_DEFENDERS` defenders
    (0: it never attacks, up to `FRONTIER_ATTACKERS` attackers); float64, as a parameter vector holds it.

    ``value`` is what a conquest is worth and ``kill`` what each defending army destroyed is worth, in
    armies lost; the defender rolls its most dice.

    Examples
    --------
    >>> frontier(4, 1.0)[:6].tolist()
    [1.0, 2.0, 2.0, 3.0, 3.0, 3.0]
    >>> frontier(4, 0.0)[:6].tolist()
    [1.0, 2.0, 3.0, 5.0, 0.0, 0.0]
    """
    return np.array(_frontier(float(value), float(kill)), dtype=np.float64)
