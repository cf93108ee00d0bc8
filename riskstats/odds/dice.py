"""The dice rule, defined once, and the exact one-roll outcome table it yields.

This module owns `DiceRules` (sides of each side's dice, the most dice each side may roll, who wins
ties, a modifier on the defender's highest die) and the exact table of one roll's outcomes, enumerated
in rational arithmetic. Everything else in riskstats reads that table: the Markov engine as transition
probabilities, the simulators as the distribution they sample, the game engine through the battle
kernel. It does not own battles (`riskstats.odds.battle`) or the dice-level simulator (`riskstats.odds.simulate`).

One roll: each side sorts its dice high to low; the defender's modifier is added to its highest die,
clamped to the die's faces, and the defender's dice are sorted again (the defender pairs its best die
against the attacker's best). The highest dice are compared, then the second highest if both rolled
at least two, and so on; the higher die wins the pair, a tie goes to the side named by ``ties``, and
the loser of each pair loses one army.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product

import numpy as np

from riskstats.errors import RiskstatsError, check_int

MAX_DICE = 3
"""The most dice either side may be allowed to roll."""
MAX_SIDES = 20
"""The most faces a die may have."""
TIES = ("defender", "attacker")
"""Who may win a tie: the defender (standard rules) or the attacker (the "zombie" variant)."""


@dataclass(frozen=True)
class DiceRules:
    """How one roll of a battle is decided.

    Parameters
    ----------
    attacker_dice, defender_dice : int
        The most dice each side may roll (1 to 3; standard 3 and 2, defender 3 in RisiKo or capital
        defence). A side rolls fewer when it has fewer armies able to roll.
    attacker_sides, defender_sides : int
        Faces of each side's dice (2 to 20; standard 6).
    ties : {"defender", "attacker"}
        Who wins a pair of equal dice.
    defender_modifier : int
        Added to the defender's highest die, clamped to its faces: +1 for a Risk Legacy bunker or a
        fortress, -1 for an ammunition shortage.

    Examples
    --------
    >>> DiceRules().outcome_fractions(3, 2)
    (Fraction(1445, 3888), Fraction(2611, 7776), Fraction(2275, 7776))
    >>> DiceRules(ties="attacker").outcome_fractions(1, 1)[0]
    Fraction(7, 12)
    """

    attacker_dice: int = 3
    defender_dice: int = 2
    attacker_sides: int = 6
    defender_sides: int = 6
    ties: str = "defender"
    defender_modifier: int = 0

    def __post_init__(self):
        check_int("attacker_dice", self.attacker_dice, 1, MAX_DICE)
        check_int("defender_dice", self.defender_dice, 1, MAX_DICE)
        check_int("attacker_sides", self.attacker_sides, 2, MAX_SIDES)
        check_int("defender_sides", self.defender_sides, 2, MAX_SIDES)
        if self.ties not in TIES:
            raise RiskstatsError(f"ties must be one of {', '.join(TIES)}, got {self.ties!r}")
        limit = self.defender_sides - 1
        check_int("defender_modifier", self.defender_modifier, -limit, limit)

    @property
    def max_losses(self) -> int:
        """The most armies one roll can remove: ``min(attacker_dice, defender_dice)``."""
        return min(self.attacker_dice, self.defender_dice)

    def outcome_fractions(self, attacker_dice: int, defender_dice: int) -> tuple[Fraction, ...]:
        """Exact probabilities that the attacker loses 0, 1, ..., k armies in one roll.

        ``k = min(attacker_dice, defender_dice)``; the defender loses ``k - i`` when the attacker
        loses ``i``.
        """
        check_int("attacker dice", attacker_dice, 1, self.attacker_dice)
        check_int("defender dice", defender_dice, 1, self.defender_dice)
        counts = _loss_counts(self, attacker_dice, defender_dice)
        total = self.attacker_sides**attacker_dice * self.defender_sides**defender_dice
        return tuple(Fraction(c, total) for c in counts)

    def attacker_rolls(self, attacker_dice: int) -> dict[tuple[int, ...], Fraction]:
        """The attacker's possible rolls of ``attacker_dice`` dice, each sorted high to low, with their exact
        probabilities: what a defender who chooses its dice after seeing the roll conditions on.

        Examples
        --------
        >>> rolls = DiceRules().attacker_rolls(2)
        >>> len(rolls), rolls[(6, 6)], rolls[(6, 5)]
        (21, Fraction(1, 36), Fraction(1, 18))
        """
        check_int("attacker dice", attacker_dice, 1, self.attacker_dice)
        total = self.attacker_sides**attacker_dice
        tops = _side_tops(self.attacker_sides, attacker_dice, attacker_dice, 0)
        return {roll: Fraction(count, total) for roll, count in sorted(tops.items(), reverse=True)}

    def outcome_fractions_given_roll(self, attacker_roll: tuple[int, ...], defender_dice: int) -> tuple[Fraction, ...]:
        """Exact P(attacker loses 0, 1, ..., k) once its dice show ``attacker_roll`` (sorted high to low),
        against ``defender_dice`` dice; ``k = min(len(attacker_roll), defender_dice)``.

        Averaged over `attacker_rolls` this is `outcome_fractions`.

        Examples
        --------
        >>> DiceRules().outcome_fractions_given_roll((6, 6), 2)
        (Fraction(25, 36), Fraction(5, 18), Fraction(1, 36))
        """
        attacker_roll = tuple(attacker_roll)
        check_int("attacker dice", len(attacker_roll), 1, self.attacker_dice)
        check_int("defender dice", defender_dice, 1, self.defender_dice)
        for face in attacker_roll:
            check_int("attacker die", face, 1, self.attacker_sides)
        k = min(len(attacker_roll), defender_dice)
        a_top = tuple(sorted(attacker_roll, reverse=True)[:k])
        defender = _side_tops(self.defender_sides, defender_dice, k, self.defender_modifier)
        counts = [0] * (k + 1)
        for d_top, d_count in defender.items():
            counts[_lost(a_top, d_top, self.ties == "attacker")] += d_count
        total = self.defender_sides**defender_dice
        return tuple(Fraction(c, total) for c in counts)

    def table(self, exact: bool = False) -> np.ndarray:
        """The one-roll table ``P[na, nd, i]``: P(attacker loses i) when rolling na against nd dice.

        Shape ``(attacker_dice + 1, defender_dice + 1, max_losses + 1)``; entries outside
        ``i <= min(na, nd)`` and the rows for zero dice are 0. float64 by default; with ``exact``
        an object array of `fractions.Fraction`.
        """
        return _table(self, exact).copy()


@cache
def _side_tops(sides: int, dice: int, keep: int, modifier: int) -> Counter:
    """Counts of a side's ``keep`` highest dice (sorted high to low) over all ``sides**dice`` rolls."""
    tops = Counter()
    for roll in product(range(1, sides + 1), repeat=dice):
        ranked = sorted(roll, reverse=True)
        ranked[0] = min(sides, max(1, ranked[0] + modifier))
        tops[tuple(sorted(ranked, reverse=True)[:keep])] += 1
    return tops


def _lost(a_top: tuple, d_top: tuple, attacker_wins_ties: bool) -> int:
    """Armies the attacker loses when its highest dice ``a_top`` meet the defender's ``d_top``, pair by pair."""
    return sum(a < d or (a == d and not attacker_wins_ties) for a, d in zip(a_top, d_top))


@cache
def _loss_counts(rules: DiceRules, attacker_dice: int, defender_dice: int) -> tuple[int, ...]:
    k = min(attacker_dice, defender_dice)
    attacker = _side_tops(rules.attacker_sides, attacker_dice, k, 0)
    defender = _side_tops(rules.defender_sides, defender_dice, k, rules.defender_modifier)
    attacker_wins_ties = rules.ties == "attacker"
    counts = [0] * (k + 1)
    for a_top, a_count in attacker.items():
        for d_top, d_count in defender.items():
            counts[_lost(a_top, d_top, attacker_wins_ties)] += a_count * d_count
    return tuple(counts)


@cache
def _table(rules: DiceRules, exact: bool) -> np.ndarray:
    shape = (rules.attacker_dice + 1, rules.defender_dice + 1, rules.max_losses + 1)
    table = np.full(shape, Fraction(0), dtype=object) if exact else np.zeros(shape)
    for na in range(1, rules.attacker_dice + 1):
        for nd in range(1, rules.defender_dice + 1):
            for i, p in enumerate(rules.outcome_fractions(na, nd)):
                table[na, nd, i] = p if exact else float(p)
    table.flags.writeable = False
    return table


def round_outcomes(attacker_dice: int, defender_dice: int, rules: DiceRules | None = None):
    """The exact outcome table of one roll, as a DataFrame.

    Columns ``attacker_loses``, ``defender_loses``, ``p`` (float) and ``fraction``
    (`fractions.Fraction`), one row per outcome.

    Examples
    --------
    >>> round_outcomes(2, 2).fraction.tolist()
    [Fraction(295, 1296), Fraction(35, 108), Fraction(581, 1296)]
    """
    import pandas as pd

    rules = rules or DiceRules()
    fractions = rules.outcome_fractions(attacker_dice, defender_dice)
    k = len(fractions) - 1
    return pd.DataFrame(
        {
            "attacker_loses": range(k + 1),
            "defender_loses": range(k, -1, -1),
            "p": [float(f) for f in fractions],
            "fraction": list(fractions),
        }
    )
