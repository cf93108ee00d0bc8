"""Exact odds of a chain of conquests, and the inverse query: how many attackers a goal needs.

A chain attacks territories holding D1, D2, ... defenders in order. The attackers (armies able to
roll, as everywhere in riskstats) fight the first battle; after each conquest the survivors move in,
``leave`` of them stay in the conquered territory and the rest attack the next one. The chain ends
when a battle is lost (the attackers are down to ``stop_at`` or fewer), when too few would be left to
attack on, or when the last territory falls. Each territory may have its own dice rules.

``armies_left`` is the attacking force at the end: on full success every survivor, standing in the
last territory; otherwise what the force has left beyond the ``leave`` armies it left behind.

Under Balanced Blitz (``balance="blitz"``) every battle of the chain is a balanced blitz: the battle
from each possible starting force is reshaped as a whole (`riskstats.odds.balance`), which costs one
battle per starting force instead of one sweep per territory.

This module owns `chain` and `attackers_needed`; the battle kernels are `riskstats.odds.battle`'s.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from riskstats.errors import RiskstatsError, check_int
from riskstats.odds.balance import BalanceRules, mode_name, refuse_exact, resolve_balance
from riskstats.odds.battle import MAX_ARMIES, check_armies, check_exact_size, sweep, zeros
from riskstats.odds.dice import DiceRules

MAX_TERRITORIES = 1000
"""The longest chain answered."""


def chain_outcomes_frame(distribution: np.ndarray):
    """A chain's ``distribution[k, x]`` as the DataFrame every chain answer shares, exact or simulated:
    indexed by (conquered, armies_left), column ``p``, nonzero entries only."""
    import pandas as pd

    k, x = np.nonzero(distribution != 0)
    index = pd.MultiIndex.from_arrays([k, x], names=["conquered", "armies_left"])
    return pd.DataFrame({"p": distribution[k, x]}, index=index)


@dataclass(frozen=True)
class ChainOdds:
    """The exact answer for a chain: P(conquering at least k territories) and the armies left.

    ``distribution[k, x]`` is P(exactly k territories conquered and x armies left).
    """

    attackers: int
    defenders: tuple[int, ...]
    leave: int
    stop_at: int
    exact: bool
    distribution: np.ndarray = field(repr=False)
    balance: BalanceRules | None = None

    @property
    def mode(self) -> str:
        """``"true random"`` or ``"Balanced Blitz"``."""
        return mode_name(self.balance)

    def _scalar(self, value):
        return value if self.exact else float(value)

    @property
    def p_at_least(self) -> list:
        """``p_at_least[k - 1]`` = P(at least k territories conquered), k = 1..len(defenders)."""
        by_count = self.distribution.sum(axis=1)
        return [self._scalar(by_count[k:].sum()) for k in range(1, len(self.defenders) + 1)]

    @property
    def p_all(self):
        """P(every territory in the chain conquered)."""
        return self._scalar(self.distribution[-1].sum())

    @property
    def expected_armies_left(self):
        """E[armies left at the end], counting 0 where nothing is left."""
        return self._scalar((self.distribution.sum(axis=0) * np.arange(self.distribution.shape[1])).sum())

    @property
    def expected_attacker_losses(self):
        """E[armies the attacker loses]: the start minus what stands at the end, the ``leave`` armies
        in the conquered territories included."""
        n = len(self.defenders)
        k = np.arange(n + 1)[:, None]
        x = np.arange(self.distribution.shape[1])[None, :]
        standing = self.leave * np.minimum(k, n - 1) + x
        return self._scalar(self.attackers - (self.distribution * standing).sum())

    @property
    def outcomes(self):
        """DataFrame indexed by (conquered, armies_left), column ``p``: the nonzero entries."""
        return chain_outcomes_frame(self.distribution)


def _rules_per_territory(rules, n: int) -> list[DiceRules]:
    if rules is None or isinstance(rules, DiceRules):
        return [rules or DiceRules()] * n
    rules = list(rules)
    if len(rules) != n:
        raise RiskstatsError(f"rules must be one DiceRules or one per territory ({n}), got {len(rules)}")
    return rules


def _validate_defenders(defenders) -> tuple[int, ...]:
    if isinstance(defenders, (int, np.integer)):
        defenders = (defenders,)
    defenders = tuple(check_armies("defenders", d) for d in defenders)
    if not 1 <= len(defenders) <= MAX_TERRITORIES:
        raise RiskstatsError(f"a chain needs 1 to {MAX_TERRITORIES} territories, got {len(defenders)}")
    return defenders


def validate_chain(attackers, defenders, leave, stop_at) -> tuple[int, tuple[int, ...], int, int]:
    """Check a chain's arguments (shared by the exact engine and the simulator)."""
    attackers = check_armies("attackers", attackers)
    defenders = _validate_defenders(defenders)
    leave = check_int("leave", leave, 1)
    stop_at = check_int("stop_at", stop_at, 0)
    if stop_at >= attackers:
        raise RiskstatsError(f"stop_at must be below the attackers ({attackers}), got {stop_at}")
    return attackers, defenders, leave, stop_at


def chain_odds(attackers: int, defenders: int | Sequence[int], rules=None, *, leave: int = 1,
          stop_at: int = 0, exact: bool = False, balance=None) -> ChainOdds:
    """Exact odds of conquering a chain of territories in order.

    Parameters
    ----------
    attackers : int
        Armies able to roll at the start.
    defenders : int or sequence of int
        Defenders of each territory, in the order attacked.
    rules : DiceRules or sequence of DiceRules, optional
        One rule for all territories, or one per territory.
    leave : int
        Armies left in each conquered territory before attacking on (at least 1).
    stop_at : int
        The force gives up once it has ``stop_at`` or fewer attackers.
    exact : bool
        Rational arithmetic instead of float64; not with a ``balance``.
    balance : {None, "blitz"} or BalanceRules
        None: true random; ``"blitz"``: each battle is a Balanced Blitz
        (`riskstats.odds.battle.battle_odds`).

    Examples
    --------
    >>> c = chain_odds(10, [3, 2])
    >>> round(c.p_all, 6), round(c.p_at_least[0], 6)
    (0.895453, 0.9811)
    >>> from riskstats.odds.battle import battle_odds
    >>> bool(chain_odds(3, [2], exact=True).p_all == battle_odds(3, 2, exact=True).p_win)
    True
    >>> round(chain_odds(10, [3, 2], balance="blitz").p_all, 6)
    0.998889
    """
    balance = resolve_balance(balance)
    refuse_exact(balance, exact)
    attackers, defenders, leave, stop_at = validate_chain(attackers, defenders, leave, stop_at)
    if exact:
        check_exact_size(attackers, sum(defenders))
    per_territory = _rules_per_territory(rules, len(defenders))
    one = Fraction(1) if exact else 1.0
    distribution = zeros((len(defenders) + 1, attackers + 1), exact)
    force = zeros(attackers + 1, exact)  # force[x]: P(x attackers about to attack the next territory)
    force[attackers] = one
    for k, (d, r) in enumerate(zip(defenders, per_territory)):
        end_d, end_a = sweep(r, force, d, stop_at, 0, False, exact, balance)
        for j in range(end_a.shape[0]):  # lost here: k conquered, stop_at - j attackers left
            if stop_at - j >= 0:
                distribution[k, stop_at - j] += end_a[j].sum()
        survivors = end_d[:, 0]
        if k == len(defenders) - 1:
            distribution[k + 1] += survivors
            break
        force = zeros(attackers + 1, exact)
        for x in range(attackers + 1):  # move in, leave `leave`, attack on with the rest
            if survivors[x] != 0:
                if x - leave > stop_at:
                    force[x - leave] += survivors[x]
                else:
                    distribution[k + 1, max(x - leave, 0)] += survivors[x]
    return ChainOdds(attackers, defenders, leave, stop_at, exact, distribution, balance)


@dataclass(frozen=True)
class Needed:
    """The smallest attacking force that reaches the asked probability, and the probability it gets."""

    attackers: int
    p_win: float


def attackers_needed(defenders: int | Sequence[int], p: float, rules=None, *, leave: int = 1,
                     balance=None) -> Needed:
    """The smallest number of attackers whose P(conquering every territory) is at least ``p``.

    Against one territory when ``defenders`` is an int, against a chain otherwise (see `chain`).
    P(win) rises with the attackers, so a doubling search then a bisection find the answer.
    ``balance`` as for `chain_odds` (``"blitz"``: Balanced Blitz).

    Examples
    --------
    >>> attackers_needed(5, 0.8)
    Needed(attackers=8, p_win=0.8...)
    >>> attackers_needed(50, 0.8, balance="blitz").attackers
    49
    """
    balance = resolve_balance(balance)
    defenders = _validate_defenders(defenders)
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 < p <= 1:
        raise RiskstatsError(f"p must be a probability in (0, 1], got {p!r}")

    def p_all(a: int) -> float:
        return float(chain_odds(a, defenders, rules, leave=leave, balance=balance).p_all)

    low, high = 0, 1  # p_all(low) < p <= p_all(high) once found
    while p_all(high) < p:
        low, high = high, 2 * high
        if high > MAX_ARMIES:
            raise RiskstatsError(f"no force up to {MAX_ARMIES} attackers reaches p = {p}")
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if p_all(mid) >= p else (mid, high)
    return Needed(high, p_all(high))
