"""Exact battle odds: the Markov chain of one battle, solved in float64 or in rational arithmetic.

Convention: *attackers* are the armies able to roll. The army that must stay behind on the attacking
territory is not counted, so "10 attackers" means 11 armies on the territory. The CLI can read the
number as armies on the territory instead.

A battle state is (a attackers, d defenders). Each roll the attacker rolls ``min(attacker_dice, a)``
dice (or, with the cautious stop rule, no more than it can afford above ``stop_at``) and the defender
``min(defender_dice, d)``; the one-roll table of `riskstats.odds.dice` gives the transition probabilities.
The battle ends when the attacker is down to ``stop_at`` or fewer attackers (0: eliminated) or the
defender to ``goal`` or fewer (0: conquered).

This module owns the two kernels every exact answer uses, the forward sweep of probability mass and
the backward sweep of win values, and the public `battle_odds` and `win_table`. Each kernel is one
Python function: compiled by numba for float64, run as plain Python over `fractions.Fraction` object
arrays for exact answers, and interpreted for battles small enough that numba's start-up would cost
more than the work (a quick CLI lookup never loads numba). Chains of battles and the inverse query
live in `riskstats.odds.chain`.

Balanced Blitz (``balance="blitz"``, the official app's dice mode, `riskstats.odds.balance`) reshapes
each battle's exact end-state distribution as a whole; ``balance=None`` (the default) is true random.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from riskstats.errors import RiskstatsError, check_int
from riskstats.odds.balance import BalanceRules, balance_ends, balanced_win_chance, refuse_exact, resolve_balance
from riskstats.odds.dice import DiceRules

MAX_ARMIES = 1_000_000
"""The largest army either side may have in a float answer."""
MAX_EXACT_STATES = 90_000
"""The largest attackers x defenders product answered in rational arithmetic (it grows fast)."""
INTERPRETED_STATES = 4096
"""Float answers with at most this many attackers x defenders states run the kernel uncompiled."""


def _sweep(P, na_of_a, nd_of_d, init, D, S, G, work, end_d, end_a):  # pragma: no cover - compiled
    """Push probability mass from the starting states to the end states of a battle.

    P[na, nd, i]   P(attacker loses i) when na dice meet nd dice (the one-roll table).
    na_of_a[a]     dice the attacker rolls with a attackers; nd_of_d[d] likewise for the defender.
    init[a]        mass starting at (a, D); a <= S is not a starting state and must be 0.
    work           (4, A + 1) zeros: the mass of the four latest levels t = a + d (a roll lowers t by
                   k = min(na, nd) <= 3), indexed [t & 3, a].
    end_d[a, j]    += mass ending with a attackers and G - j defenders (the defender's side ended it).
    end_a[j, d]    += mass ending with S - j attackers and d > G defenders (the attacker stopped).
    """
    A = init.shape[0] - 1
    for t in range(A + D, S + G + 1, -1):
        row = work[t & 3]
        a0 = t - D
        if S < a0 <= A:
            row[a0] += init[a0]
        for a in range(max(S + 1, t - D), min(A, t - G - 1) + 1):
            p = row[a]
            if p == 0:
                continue
            row[a] = 0
            d = t - a
            na = na_of_a[a]
            nd = nd_of_d[d]
            k = min(na, nd)
            for i in range(k + 1):
                q = p * P[na, nd, i]
                a2 = a - i
                d2 = d - k + i
                if d2 <= G:
                    end_d[a2, G - d2] += q
                elif a2 <= S:
                    end_a[S - a2, d2] += q
                else:
                    work[(t - k) & 3, a2] += q


def _win_values(P, na_of_a, nd_of_d, S, G, out):  # pragma: no cover - compiled
    """out[a, d] = P(the defender is down to G or fewer before the attacker is down to S or fewer)."""
    N = out.shape[0] - 1
    M = out.shape[1] - 1
    for a in range(N + 1):
        for d in range(min(G, M) + 1):
            out[a, d] = 1
        for d in range(G + 1, M + 1):
            if a <= S:
                out[a, d] = 0
                continue
            na = na_of_a[a]
            nd = nd_of_d[d]
            k = min(na, nd)
            if k == 2:  # the common case, written out so that the compiler keeps it tight
                out[a, d] = P[na, nd, 0] * out[a, d - 2] + P[na, nd, 1] * out[a - 1, d - 1] \
                    + P[na, nd, 2] * out[a - 2, d]
                continue
            s = out[a, d] * 0
            for i in range(k + 1):
                s += P[na, nd, i] * out[a - i, d - k + i]
            out[a, d] = s


def _kernel(kernel, exact: bool, states: int):
    """The kernel to run: interpreted for Fractions and small problems, compiled otherwise."""
    if exact or states <= INTERPRETED_STATES:
        return kernel
    from riskstats._numba import compiled

    return compiled(kernel)


def dice_by_army(rules: DiceRules, attackers: int, defenders: int, stop_at: int = 0, cautious: bool = False):
    """The dice each side rolls with a = 0..attackers and d = 0..defenders armies able to roll."""
    a = np.arange(attackers + 1)
    na = np.minimum(rules.attacker_dice, a - stop_at if cautious else a)
    nd = np.minimum(rules.defender_dice, np.arange(defenders + 1))
    return np.maximum(na, 0).astype(np.int64), nd.astype(np.int64)


def check_armies(name: str, value, low: int = 1) -> int:
    """Validate an army count (a whole number from ``low`` to `MAX_ARMIES`)."""
    return check_int(name, value, low, MAX_ARMIES)


def check_exact_size(attackers: int, defenders: int) -> None:
    """Refuse rational arithmetic for battles too large to answer in reasonable time."""
    if attackers * defenders > MAX_EXACT_STATES:
        raise RiskstatsError(
            f"exact answers are limited to attackers x defenders <= {MAX_EXACT_STATES}, "
            f"got {attackers} x {defenders}; drop exact for float64 (accurate to 1e-12)"
        )


def zeros(shape, exact: bool) -> np.ndarray:
    """A zero array of floats, or of Fractions for exact answers."""
    return np.full(shape, Fraction(0), dtype=object) if exact else np.zeros(shape)


def sweep(rules: DiceRules, init: np.ndarray, defenders: int, stop_at: int = 0, goal: int = 0,
          cautious: bool = False, exact: bool = False, balance: BalanceRules | None = None):
    """Run the forward kernel from a mass vector over starting attackers; return the end masses.

    Returns ``(end_d, end_a)`` as documented in `_sweep`. With a ``balance`` each starting state's battle
    is balanced as a whole (`riskstats.odds.balance.balance_ends`) before the masses are added up, so a
    vector with n starting states costs n battles. Inputs are trusted: public functions validate before
    calling this.
    """
    A = init.shape[0] - 1
    K = rules.max_losses
    na_of_a, nd_of_d = dice_by_army(rules, A, defenders, stop_at, cautious)
    end_d = zeros((A + 1, K), exact)
    end_a = zeros((K, defenders + 1), exact)
    table = rules.table(exact)
    if balance is None:
        kernel = _kernel(_sweep, exact, A * defenders)
        kernel(table, na_of_a, nd_of_d, init, defenders, stop_at, goal, zeros((4, A + 1), exact), end_d, end_a)
        return end_d, end_a
    starts = np.nonzero(init)[0]
    kernel = _kernel(_sweep, exact, A * defenders * len(starts))  # compiled once the battles add up
    for a in starts:
        one = np.zeros(a + 1)
        one[a] = 1.0
        d_part, a_part = np.zeros((a + 1, K)), np.zeros((K, defenders + 1))
        kernel(table, na_of_a, nd_of_d, one, defenders, stop_at, goal, np.zeros((4, a + 1)), d_part, a_part)
        d_part, a_part = balance_ends(d_part, a_part, balance)
        end_d[:a + 1] += init[a] * d_part
        end_a += init[a] * a_part
    return end_d, end_a


def outcomes_frame(attackers_left, defenders_left, p):
    """The end-state distribution every battle answer shares, exact or simulated: a DataFrame indexed by
    (attackers_left, defenders_left) with column ``p``, sorted, so that answers line up by index."""
    import pandas as pd

    index = pd.MultiIndex.from_arrays([attackers_left, defenders_left], names=["attackers_left", "defenders_left"])
    return pd.DataFrame({"p": p}, index=index).sort_index()


@dataclass(frozen=True)
class BattleOdds:
    """The exact answer for one battle: its end-state distribution and the summary numbers.

    ``outcomes`` is a DataFrame indexed by (attackers_left, defenders_left) with column ``p``,
    in the same shape as `riskstats.odds.simulate.simulate_battles` returns, so that
    ``exact.outcomes.p - simulated.outcomes.p`` lines up. ``balance`` is the Balanced Blitz parameters
    the distribution was reshaped with, None for true random (``mode`` names it).
    """

    attackers: int
    defenders: int
    rules: DiceRules
    stop_at: int
    goal: int
    cautious: bool
    exact: bool
    attackers_left: np.ndarray = field(repr=False)
    defenders_left: np.ndarray = field(repr=False)
    p: np.ndarray = field(repr=False)
    balance: BalanceRules | None = None

    @property
    def mode(self) -> str:
        """``"true random"`` or ``"Balanced Blitz"``."""
        from riskstats.odds.balance import mode_name

        return mode_name(self.balance)

    def _sum(self, mask):
        return sum(self.p[mask], Fraction(0)) if self.exact else float(self.p[mask].sum())

    def _moments(self, losses):
        mean = self._sum_weighted(losses)
        var = self._sum_weighted(losses * losses) - mean * mean
        return mean, math.sqrt(max(float(var), 0.0))

    def _sum_weighted(self, values):
        if self.exact:
            return sum((int(v) * p for v, p in zip(values, self.p)), Fraction(0))
        return float(values @ self.p)

    @property
    def p_win(self):
        """P(the defender is eliminated)."""
        return self._sum(self.defenders_left == 0)

    @property
    def p_goal(self):
        """P(the defender is down to ``goal`` or fewer): the attack's aim (``p_win`` when goal is 0)."""
        return self._sum(self.defenders_left <= self.goal)

    @property
    def p_lose(self):
        """P(the attack ends short of its aim: down to ``stop_at`` attackers, defender above ``goal``)."""
        return self._sum(self.defenders_left > self.goal)

    @property
    def expected_attacker_losses(self):
        return self._sum_weighted(self.attackers - self.attackers_left)

    @property
    def expected_defender_losses(self):
        return self._sum_weighted(self.defenders - self.defenders_left)

    @property
    def sd_attacker_losses(self) -> float:
        return self._moments(self.attackers - self.attackers_left)[1]

    @property
    def sd_defender_losses(self) -> float:
        return self._moments(self.defenders - self.defenders_left)[1]

    @property
    def outcomes(self):
        """DataFrame indexed by (attackers_left, defenders_left), column ``p``, sorted."""
        return outcomes_frame(self.attackers_left, self.defenders_left, self.p)


def validate_battle(attackers, defenders, stop_at, goal, exact) -> tuple[int, int, int, int]:
    attackers = check_armies("attackers", attackers)
    defenders = check_armies("defenders", defenders)
    stop_at = check_int("stop_at", stop_at, 0)
    goal = check_int("goal", goal, 0)
    if stop_at >= attackers:
        raise RiskstatsError(f"stop_at must be below the attackers ({attackers}), got {stop_at}")
    if goal >= defenders:
        raise RiskstatsError(f"goal must be below the defenders ({defenders}), got {goal}")
    if exact:
        check_exact_size(attackers, defenders)
    return attackers, defenders, stop_at, goal


def battle_odds(attackers: int, defenders: int, rules: DiceRules | None = None, *, stop_at: int = 0,
           goal: int = 0, cautious: bool = False, exact: bool = False, balance=None) -> BattleOdds:
    """The exact end-state distribution of one battle and its summary.

    Parameters
    ----------
    attackers : int
        Armies able to roll (the army that stays behind is not counted).
    defenders : int
        Armies on the defending territory.
    rules : DiceRules, optional
        The dice rule; standard rules by default.
    stop_at : int
        Retreat threshold: the attacker stops once it has ``stop_at`` or fewer attackers.
    goal : int
        The attack succeeds once the defender is down to ``goal`` or fewer.
    cautious : bool
        With ``stop_at``: never roll more dice than the attackers above ``stop_at``, so the attacker
        never ends below ``stop_at``.
    exact : bool
        Rational arithmetic (`fractions.Fraction`) instead of float64; not with a ``balance``.
    balance : {None, "blitz"} or BalanceRules
        None: true random. ``"blitz"``: Balanced Blitz, the official app's dice mode, with its published
        parameters (`riskstats.odds.balance.BalanceRules` for others): the whole end-state distribution
        is reshaped; the win side is "defender down to ``goal``", everything else (stopped included) the
        lose side. SMG's "stop until" is ``stop_at`` with ``cautious=True``.

    Examples
    --------
    >>> battle_odds(3, 2, exact=True).p_win
    Fraction(6610505, 10077696)
    >>> round(battle_odds(10, 5).p_win, 6)
    0.916284
    >>> b = battle_odds(10, 5, balance="blitz")
    >>> b.mode, round(b.p_win, 6)
    ('Balanced Blitz', 1.0)
    """
    rules = rules or DiceRules()
    balance = resolve_balance(balance)
    refuse_exact(balance, exact)
    attackers, defenders, stop_at, goal = validate_battle(attackers, defenders, stop_at, goal, exact)
    init = zeros(attackers + 1, exact)
    init[attackers] = Fraction(1) if exact else 1.0
    end_d, end_a = sweep(rules, init, defenders, stop_at, goal, cautious, exact, balance)
    a_d, j_d = np.nonzero(end_d != 0)
    j_a, d_a = np.nonzero(end_a != 0)
    return BattleOdds(
        attackers, defenders, rules, stop_at, goal, cautious, exact,
        attackers_left=np.concatenate([a_d, stop_at - j_a]),
        defenders_left=np.concatenate([goal - j_d, d_a]),
        p=np.concatenate([end_d[a_d, j_d], end_a[j_a, d_a]]),
        balance=balance,
    )


def win_table(attackers: int, defenders: int, rules: DiceRules | None = None, *, stop_at: int = 0,
              goal: int = 0, exact: bool = False, balance=None):
    """P(win) for every battle from 1..attackers against 1..defenders, in long form.

    Returns a DataFrame with columns ``attackers``, ``defenders`` and ``p_win`` (``p_goal`` when a
    ``goal`` is set), one row per starting state ``stop_at < a <= attackers``,
    ``goal < d <= defenders``, attackers varying slowest. ``balance`` as for `battle_odds`: a balanced
    win chance depends on the true one alone (`riskstats.odds.balance.balanced_win_chance`), so the
    balanced table costs one more pass.

    Examples
    --------
    >>> t = win_table(3, 3)
    >>> round(float(t.query("attackers == 3 and defenders == 2").p_win.iloc[0]), 6)
    0.655954
    >>> b = win_table(20, 15, balance="blitz")
    >>> float(b.query("attackers == 20 and defenders == 15").p_win.iloc[0])
    1.0
    """
    import pandas as pd

    rules = rules or DiceRules()
    balance = resolve_balance(balance)
    refuse_exact(balance, exact)
    attackers, defenders, stop_at, goal = validate_battle(attackers, defenders, stop_at, goal, exact)
    values = win_values(rules, attackers, defenders, stop_at, goal, exact)
    if balance is not None:
        values = balanced_win_chance(values, balance)
    n, m = attackers - stop_at, defenders - goal
    column = "p_goal" if goal else "p_win"
    return pd.DataFrame({"attackers": np.repeat(np.arange(stop_at + 1, attackers + 1), m),
                         "defenders": np.tile(np.arange(goal + 1, defenders + 1), n),
                         column: values[stop_at + 1:, goal + 1:].ravel()}, copy=False)


def win_values(rules: DiceRules, attackers: int, defenders: int, stop_at: int = 0, goal: int = 0,
               exact: bool = False) -> np.ndarray:
    """The backward kernel's array ``V[a, d]`` for a = 0..attackers, d = 0..defenders (trusted input)."""
    na_of_a, nd_of_d = dice_by_army(rules, attackers, defenders, stop_at)
    out = zeros((attackers + 1, defenders + 1), exact)
    kernel = _kernel(_win_values, exact, attackers * defenders)
    kernel(rules.table(exact), na_of_a, nd_of_d, stop_at, goal, out)
    return out
