"""Balanced Blitz: the official Risk app's reshaping of a blitz battle's exact end-state distribution.

The digital edition (SMG Studio, dice code v3.3, github.com/smgstudio/risk-dice) offers "True Random"
dice and **Balanced Blitz**, which resolves a whole battle at once from a reshaped copy of its exact
end-state distribution. This module owns that reshaping, written from its published description:
`BalanceRules` (four parameters, published defaults 0.05, 1.3, 0.1, 1.8), `balance_sides` (the four
steps on one battle's two sides) and `balanced_win_chance` (where the win chance ends up, which depends
on the true win chance alone). It does not own the battle engine (`riskstats.odds.battle` calls this on
each battle it balances) nor the dice augments (`riskstats.odds.augments`).

The two sides of a battle. The attacker's *win side* holds the end states where the defender is down to
``goal`` or fewer (0: conquered), ordered from the attacker's most favourable (most attackers left) down;
the *lose side* holds the rest (the attacker eliminated, or stopped at ``stop_at`` or fewer: "unresolved"
counts as the attacker's lose side), ordered from the defender's most favourable (most defenders left)
down. With p the win side's total and q = 1 - p the lose side's:

1. win-chance cutoff: p <= ``win_cutoff`` becomes 0 and q <= ``win_cutoff`` becomes 0 (the other side
   wins for certain); the winner's outcomes are rescaled to total 1;
2. win-chance power: p and q become p**w / (p**w + q**w) and q**w / (p**w + q**w), ``w = win_power``
   (the favourite gains), each side's outcomes rescaled to its new total;
3. outcome cutoff: mass ``outcome_cutoff`` is trimmed from the attacker's most favourable outcomes and as
   much from the defender's most favourable ones (along the line attacker-best ... defender-best, so a side
   smaller than the cutoff is trimmed away and the rest comes off the other side), then everything is
   rescaled to total 1;
4. outcome power: each outcome probability is raised to ``outcome_power`` and each side rescaled to the
   total it had, so likely outcomes grow, unlikely ones shrink, and no side's total changes.

Attackers are the armies able to roll, as everywhere in riskstats and as in SMG's code (its attack count
leaves out the army that stays behind), so SMG's figures map onto riskstats' one to one.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from riskstats.errors import RiskstatsError

BALANCES = ("blitz",)
"""The named balances ``balance=`` accepts (None: true random, the dice as they fall)."""
MODES = {None: "true random", "blitz": "Balanced Blitz"}
"""How answers name their mode, by balance name."""
INTERPRETED = 4096
"""`balanced_win_chance` runs its kernel uncompiled for at most this many win chances (numba's start-up
would cost more than the work)."""


def _check_real(name: str, value, low: float, high: float, low_open: bool = False, high_open: bool = True) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not math.isfinite(value):
        raise RiskstatsError(f"{name} must be a finite number, got {value!r}")
    above = value > low if low_open else value >= low
    below = value < high if high_open else value <= high
    if not (above and below):
        left = "(" if low_open else "["
        right = ")" if high_open else "]"
        raise RiskstatsError(f"{name} must be in {left}{low}, {high}{right}, got {value!r}")
    return float(value)


@dataclass(frozen=True)
class BalanceRules:
    """The four parameters of Balanced Blitz; the defaults are the app's published ones.

    Parameters
    ----------
    win_cutoff : float
        A side whose overall win chance is at or below this loses for certain (0 to below 0.5).
    win_power : float
        Power applied to both sides' win chances before renormalising (above 0; above 1 favours the
        favourite, 1 leaves the win chance alone).
    outcome_cutoff : float
        Probability mass trimmed from each side's most favourable outcomes (0 to below 0.5).
    outcome_power : float
        Power applied to each outcome probability, each side then rescaled to its own total (above 0).

    Examples
    --------
    >>> BalanceRules()
    BalanceRules(win_cutoff=0.05, win_power=1.3, outcome_cutoff=0.1, outcome_power=1.8)
    >>> BalanceRules(0, 1, 0, 1).neutral
    True
    """

    win_cutoff: float = 0.05
    win_power: float = 1.3
    outcome_cutoff: float = 0.1
    outcome_power: float = 1.8

    def __post_init__(self):
        object.__setattr__(self, "win_cutoff", _check_real("win_cutoff", self.win_cutoff, 0, 0.5))
        object.__setattr__(self, "win_power", _check_real("win_power", self.win_power, 0, math.inf, low_open=True))
        object.__setattr__(self, "outcome_cutoff", _check_real("outcome_cutoff", self.outcome_cutoff, 0, 0.5))
        object.__setattr__(self, "outcome_power",
                           _check_real("outcome_power", self.outcome_power, 0, math.inf, low_open=True))

    @property
    def neutral(self) -> bool:
        """Whether every step leaves the distribution as it is: (0, 1, 0, 1)."""
        return self.win_cutoff == 0 and self.win_power == 1 and self.outcome_cutoff == 0 and self.outcome_power == 1


def resolve_balance(balance) -> BalanceRules | None:
    """``balance=`` as the library reads it: None (true random), ``"blitz"`` (the published defaults) or a
    `BalanceRules`; anything else is a `RiskstatsError`."""
    if balance is None or isinstance(balance, BalanceRules):
        return balance
    if isinstance(balance, str) and balance in BALANCES:
        return BalanceRules()
    raise RiskstatsError(f"balance must be None (true random), {', '.join(map(repr, BALANCES))} or a BalanceRules, "
                         f"got {balance!r}")


def mode_name(balance: BalanceRules | None) -> str:
    """``"true random"``, ``"Balanced Blitz"`` (the published parameters) or ``"Balanced Blitz (custom)"``."""
    if balance is None:
        return MODES[None]
    return MODES["blitz"] + ("" if balance == BalanceRules() else " (custom)")


def refuse_exact(balance: BalanceRules | None, exact: bool) -> None:
    """Exact answers and a balance do not mix: the powers leave the rational numbers."""
    if exact and balance is not None:
        raise RiskstatsError("exact=True cannot be combined with a balance: Balanced Blitz raises probabilities to "
                             "real powers, which leaves the rational numbers; drop exact (float64)")


def _win_chances(p, win_cutoff, win_power, outcome_cutoff, out):  # pragma: no cover - compiled
    """out[i] = the balanced win chance of a battle whose true win chance is p[i] (steps 1 to 3)."""
    for i in range(p.shape[0]):
        x = min(max(p[i], 0.0), 1.0)
        y = 1.0 - x
        if x <= win_cutoff:  # step 1 (with no cutoff, x = 0 stays 0 and x = 1 stays 1)
            x = 0.0
        elif y <= win_cutoff:
            x = 1.0
        elif win_power != 1.0:  # step 2: p**w / (p**w + q**w), one power
            x = 1.0 / (1.0 + (y / x) ** win_power)
        if outcome_cutoff > 0.0:  # step 3: mass c off each end, then / (1 - 2c)
            x = min(max((x - outcome_cutoff) / (1.0 - 2.0 * outcome_cutoff), 0.0), 1.0)
        out[i] = x


def balanced_win_chance(p, rules: BalanceRules | None = None):
    """The attacker's win chance after balancing, from its true win chance ``p`` (a float or an array).

    Steps 1 to 3 of the module docstring move the win chance; step 4 keeps it. So the balanced win chance
    of a battle depends on its true win chance only, and a whole table of them costs one pass over it
    (compiled, and a power only where neither cutoff settles the answer).

    Examples
    --------
    >>> round(float(balanced_win_chance(0.861, BalanceRules(0, 1.4, 0, 1))), 3)  # the published example
    0.928
    >>> float(balanced_win_chance(0.96)), float(balanced_win_chance(0.04))
    (1.0, 0.0)
    """
    rules = rules or BalanceRules()
    p = np.asarray(p, dtype=float)
    flat = np.ascontiguousarray(p).ravel()
    out = np.empty_like(flat)
    kernel = _win_chances
    if flat.size > INTERPRETED:
        from riskstats._numba import compiled

        kernel = compiled(_win_chances)
    kernel(flat, rules.win_cutoff, rules.win_power, rules.outcome_cutoff, out)
    return out[0] if p.ndim == 0 else out.reshape(p.shape)


def _rescale(side: np.ndarray, total: float) -> np.ndarray:
    s = side.sum()
    return side * (total / s) if s > 0 else side * 0.0


def balance_sides(win: np.ndarray, lose: np.ndarray, rules: BalanceRules | None = None):
    """Balance one battle given as its two sides; return the balanced ``(win, lose)``, new arrays.

    Parameters
    ----------
    win : array of float
        The attacker's win-side probabilities, the attacker's most favourable outcome first.
    lose : array of float
        The lose-side probabilities, the defender's most favourable outcome first.
    rules : BalanceRules, optional
        The published defaults by default.

    The two arrays together sum to 1. Examples: a 3 vs 2 battle's win side, 3, 2 or 1 attackers left,
    and its lose side, 2 or 1 defenders left:

    >>> win, lose = balance_sides(np.array([0.3, 0.2, 0.1]), np.array([0.3, 0.1]))
    >>> round(float(win.sum() + lose.sum()), 12), bool((win >= 0).all() and (lose >= 0).all())
    (1.0, True)
    >>> w, l = balance_sides(np.array([0.5, 0.5]), np.array([0.0]), BalanceRules(0, 1, 0, 1))
    >>> w.tolist(), l.tolist()
    ([0.5, 0.5], [0.0])
    """
    rules = rules or BalanceRules()
    win = np.asarray(win, dtype=float).copy()
    lose = np.asarray(lose, dtype=float).copy()
    p, q = win.sum(), lose.sum()
    if rules.win_cutoff > 0:  # step 1: a long shot is no chance at all
        if p <= rules.win_cutoff:
            win, lose, p, q = win * 0.0, _rescale(lose, 1.0), 0.0, 1.0
        elif q <= rules.win_cutoff:
            win, lose, p, q = _rescale(win, 1.0), lose * 0.0, 1.0, 0.0
    if rules.win_power != 1:  # step 2: the favourite gains
        pw, qw = p**rules.win_power, q**rules.win_power
        p, q = pw / (pw + qw), qw / (pw + qw)
        win, lose = _rescale(win, p), _rescale(lose, q)
    if rules.outcome_cutoff > 0:  # step 3: trim the extremes, attacker-best first ... defender-best last
        line = np.concatenate([win, lose[::-1]])
        c = rules.outcome_cutoff
        line = np.clip(np.minimum(line, np.cumsum(line) - c), 0.0, None)
        back = line[::-1]
        line = np.clip(np.minimum(back, np.cumsum(back) - c), 0.0, None)[::-1]
        line = line / line.sum()
        win, lose = line[:win.size], line[win.size:][::-1].copy()
        p, q = win.sum(), lose.sum()
    if rules.outcome_power != 1:  # step 4: likely outcomes grow within each side
        win = _rescale(win**rules.outcome_power, p)
        lose = _rescale(lose**rules.outcome_power, q)
    return win, lose


def balance_ends(end_d: np.ndarray, end_a: np.ndarray, rules: BalanceRules | None = None):
    """Balance one battle given as the battle kernel's end masses; return balanced copies.

    ``end_d[a, j]``: ended with a attackers and ``goal - j`` defenders (the win side);
    ``end_a[j, d]``: ended with ``stop_at - j`` attackers and d > goal defenders (the lose side), as
    `riskstats.odds.battle.sweep` returns them for one starting state. float64 only.
    """
    win = end_d[::-1, ::-1].ravel()  # attackers left high to low, then defenders left low to high
    lose = end_a[::-1, ::-1].T.ravel()  # defenders left high to low, then attackers left low to high
    win, lose = balance_sides(win, lose, rules)
    new_d = win.reshape(end_d.shape)[::-1, ::-1].copy()
    new_a = lose.reshape(end_a.shape[::-1]).T[::-1, ::-1].copy()
    return new_d, new_a
