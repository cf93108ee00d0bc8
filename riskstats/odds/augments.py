"""The official Risk app's dice augments, as named presets over `riskstats.odds.dice.DiceRules`.

A territory in the digital edition may carry augments that change the dice rule of a battle fought on it:

=========  ========  ====================================================
augment    side      change to the dice rule
=========  ========  ====================================================
capital    defender  rolls one more die (3 instead of 2)
wall       defender  rolls one more die
zombie     defender  loses ties (``ties="attacker"``)
zombie     attacker  rolls one die fewer (at least one)
=========  ========  ====================================================

Augments combine (a zombie capital: 3 dice, losing ties), each at most once. riskstats' dice rule allows at
most 3 dice a side (`riskstats.odds.dice.MAX_DICE`), so a capital behind a wall (4 defender dice) is
refused with an error. This module owns the presets and `with_augments`; the dice rule itself is
`riskstats.odds.dice`'s and nothing else changes (augments are plain `DiceRules`).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from riskstats.errors import RiskstatsError
from riskstats.odds.dice import MAX_DICE, DiceRules


def _one_more_die(rules: DiceRules) -> DiceRules:
    if rules.defender_dice >= MAX_DICE:
        raise RiskstatsError(f"the defender would roll {rules.defender_dice + 1} dice, over riskstats' limit of "
                             f"{MAX_DICE} (capital and wall together, or --defender-dice {rules.defender_dice})")
    return replace(rules, defender_dice=rules.defender_dice + 1)


def _defender_loses_ties(rules: DiceRules) -> DiceRules:
    return replace(rules, ties="attacker")


def _one_die_fewer(rules: DiceRules) -> DiceRules:
    return replace(rules, attacker_dice=max(rules.attacker_dice - 1, 1))


Augment = Callable[[DiceRules], DiceRules]
DEFENDER_AUGMENTS: dict[str, Augment] = {
    "capital": _one_more_die,
    "wall": _one_more_die,
    "zombie": _defender_loses_ties,
}
"""The defending territory's augments: name -> change to the dice rule."""
ATTACKER_AUGMENTS: dict[str, Augment] = {
    "zombie": _one_die_fewer,
}
"""The attacking territory's augments: name -> change to the dice rule."""


def _names(side: str, names, known: dict) -> tuple[str, ...]:
    if names is None:
        return ()
    names = (names,) if isinstance(names, str) else tuple(names)
    for name in names:
        if name not in known:
            raise RiskstatsError(f"unknown {side} augment {name!r}; choose from {', '.join(known)}")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise RiskstatsError(f"{side} augment {repeated[0]!r} given more than once")
    return names


def with_augments(rules: DiceRules | None = None, *, attacker: str | Iterable[str] | None = (),
                  defender: str | Iterable[str] | None = ()) -> DiceRules:
    """The dice rule of a battle whose territories carry the app's augments.

    Parameters
    ----------
    rules : DiceRules, optional
        The rule before the augments; standard by default.
    attacker : str or iterable of str
        The attacking territory's augments (`ATTACKER_AUGMENTS`: ``"zombie"``).
    defender : str or iterable of str
        The defending territory's augments (`DEFENDER_AUGMENTS`: ``"capital"``, ``"wall"``, ``"zombie"``).

    Examples
    --------
    >>> with_augments(defender="capital") == DiceRules(defender_dice=3)
    True
    >>> r = with_augments(attacker="zombie", defender=["capital", "zombie"])
    >>> r.attacker_dice, r.defender_dice, r.ties
    (2, 3, 'attacker')
    """
    rules = rules or DiceRules()
    for name in _names("attacker", attacker, ATTACKER_AUGMENTS):
        rules = ATTACKER_AUGMENTS[name](rules)
    for name in _names("defender", defender, DEFENDER_AUGMENTS):
        rules = DEFENDER_AUGMENTS[name](rules)
    return rules
