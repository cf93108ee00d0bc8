"""Exact attack decisions: when to stop an attack and how many dice each side should roll.

An attack is a finite game over states (a attackers, d defenders); *attackers* are the armies able
to roll, as everywhere in riskstats. Before each roll the attacker either stops or announces how many
dice it rolls (1 to ``min(attacker_dice, a)``); then the defender, knowing that number (not yet the
faces), chooses 1 to ``min(defender_dice, d)`` dice; then both roll and the one-roll table of
`riskstats.odds.dice` decides the losses. This is the order of docs/rules.md ("Battle": the attacker
rolls, the defender answers). Both sides see the whole state, so the game has perfect information and
backward induction over (a, d) solves it exactly: the attacker maximises and the defender minimises
the attacker's expected payoff (a zero-sum subgame-perfect equilibrium in pure strategies; its value
is the minimax value). ``defender="after_roll"`` lets the defender choose after seeing the attacker's
faces (as many tables play it): the defender then answers each attacker roll, weighted by the roll's
probability (`DiceRules.attacker_rolls`, `DiceRules.outcome_fractions_given_roll`). ``defender="max"``
has the defender always roll its most dice (the default policy of docs/rules.md), which leaves a
one-player decision problem.

Payoff, in armies: ``value`` for each conquered territory, minus ``cost`` per attacking army lost,
plus ``kill_value`` per defending army destroyed, plus ``survivor_value`` per attacking army still
alive at the end (the same as raising ``cost`` by ``survivor_value`` and adding a constant).

Chains: territories holding D1, D2, ... defenders are attacked in order; after each conquest
``leave`` of the survivors stay behind and the rest may attack the next one (as in
`riskstats.odds.chain`), so the decision to stop a sweep is the stop decision at the next battle's
first state. A single battle is a chain of one.

The baselines fight with the most dice every roll and stop by a fixed rule: ``attack_to_end``,
``stop_at_k`` (stop once down to k attackers), ``no_attack``, ``while_more_armies`` (attack while the
attacking territory, a + 1 armies, outnumbers the defender) and, for chains, ``first_j`` (attack to the
end on the first j territories, then stop). The defender answers each baseline with its own best
response (or its most dice), so each baseline's value is what that rule is worth against the same
defender.

This module owns the solver (`policy`, `chain_policy`) and its result; simulating a solved policy
lives in `riskstats.odds.policy_simulate`. Each kernel is one Python function run in float64
(compiled by numba when large) or in `fractions.Fraction` arithmetic, as in `riskstats.odds.battle`.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from riskstats.errors import RiskstatsError, check_int
from riskstats.odds.battle import _kernel, check_armies, zeros
from riskstats.odds.chain import _rules_per_territory, _validate_defenders
from riskstats.odds.dice import MAX_DICE, DiceRules

DEFENDERS = ("best", "after_roll", "max")
"""How the defender chooses its dice: its best answer knowing the attacker's dice count (minimax), its
best answer knowing the attacker's faces, or always its most dice."""
MAX_AFTER_ROLL_EXACT_STATES = 60
"""The most attackers x (sum of defenders) states solved exactly when the defender answers the faces."""
MAX_STATES = 90_000
"""The most attackers x (sum of defenders) states solved in float64 (300 against 300 takes seconds: every
stop threshold is solved as a baseline)."""
_WORK_PER_STATE = 32
"""About how many backward sweeps one answer runs per baseline: the kernels run compiled once
states x this passes `riskstats.odds.battle.INTERPRETED_STATES`."""
MAX_EXACT_STATES = 900
"""The most attackers x (sum of defenders) states solved in rational arithmetic."""
OPTIMAL = "optimal"
ATTACK_TO_END = "attack_to_end"
NO_ATTACK = "no_attack"
RULES_OF_THUMB = {
    "while_more_armies": lambda a, d: a + 1 > d,
}
"""Rules of thumb evaluated as baselines: name -> continue(a attackers, d defenders) with the most dice."""


def _backward(W, C, adice, ddice, free, allowed, fixed, win, loss, kill, V, action, reply):  # pragma: no cover
    """Backward induction over one battle's states; fills V, action and reply for a = 0..A, d = 0..D.

    W[n, r]         P(information cell r) when the attacker rolls n dice: the defender sees which cell
                    it is in before it chooses (one cell when it knows only n; one per sorted attacker
                    roll when it sees the faces).
    C[n, r, m, i]   P(attacker loses i | cell r) when n dice meet m dice (the one-roll table when r is
                    the only cell).
    adice, ddice    the most dice each side may roll.
    free            True: the defender picks its dice in each cell to minimise V; False: it rolls
                    fixed[a, d, r] dice (its most dice where that is 0).
    allowed[a,d,n]  nonzero when the attacker may stop (n = 0) or roll n dice at (a, d).
    win[a]          the payoff of conquering with a survivors (what follows the conquest included).
    loss, kill      payoff per attacking army lost (negative of it) and per defending army destroyed.
    V[a, d]         the attacker's expected payoff from (a, d) on; stopping is worth 0.
    action[a, d]    the attacker's choice: 0 stop, else its dice; reply[a, d, r] the defender's answer.
    Ties keep stopping over rolling, more dice over fewer, and the defender's most dice over fewer.
    """
    A = V.shape[0] - 1
    D = V.shape[1] - 1
    R = W.shape[1]
    answer = np.zeros(R, dtype=np.int64)
    for a in range(A + 1):
        V[a, 0] = win[a]
        action[a, 0] = 0
        for d in range(1, D + 1):
            best = win[0] * 0
            action[a, d] = 0
            for r in range(R):
                reply[a, d, r] = 0
            found = allowed[a, d, 0] != 0
            mmax = min(ddice, d)
            for n in range(min(adice, a), 0, -1):
                if allowed[a, d, n] == 0:
                    continue
                total = best * 0
                for r in range(R):
                    answer[r] = 0
                    if W[n, r] == 0:
                        continue
                    m_hi = mmax
                    m_lo = 1
                    if not free:
                        m_hi = fixed[a, d, r] if fixed[a, d, r] > 0 else mmax
                        m_lo = m_hi
                    worst = best * 0
                    for m in range(m_hi, m_lo - 1, -1):
                        k = min(n, m)
                        q = best * 0
                        for i in range(k + 1):
                            q += C[n, r, m, i] * (V[a - i, d - k + i] - loss * i + kill * (k - i))
                        if answer[r] == 0 or q < worst:
                            worst = q
                            answer[r] = m
                    total += W[n, r] * worst
                if not found or total > best:
                    best = total
                    action[a, d] = n
                    for r in range(R):
                        reply[a, d, r] = answer[r]
                    found = True
            V[a, d] = best


def _forward(W, C, action, reply, mass, end):  # pragma: no cover - compiled
    """Push probability mass through one battle played by (action, reply); mass[a, d] is consumed and
    end[a, d] += the mass that ends at (a, d): conquered (d = 0), eliminated (a = 0) or stopped."""
    A = mass.shape[0] - 1
    D = mass.shape[1] - 1
    R = W.shape[1]
    for t in range(A + D, -1, -1):
        for a in range(max(0, t - D), min(A, t) + 1):
            d = t - a
            p = mass[a, d]
            if p == 0:
                continue
            mass[a, d] = p * 0
            n = action[a, d]
            if n == 0:
                end[a, d] += p
                continue
            for r in range(R):
                if W[n, r] == 0:
                    continue
                m = reply[a, d, r]
                k = min(n, m)
                for i in range(k + 1):
                    mass[a - i, d - k + i] += p * W[n, r] * C[n, r, m, i]


def cells(rules: DiceRules, after_roll: bool, exact: bool = False):
    """The information cells the defender chooses in: ``(W, C, rolls)`` as `_backward` takes them.

    ``rolls[n]`` lists the attacker's sorted rolls of n dice, one per cell, when the defender sees the
    faces; otherwise every n has the one cell ``None`` and ``C[n, 0]`` is the one-roll table.
    """
    K = rules.max_losses
    if not after_roll:
        table = rules.table(exact)
        W = zeros((rules.attacker_dice + 1, 1), exact)
        W[1:, 0] = Fraction(1) if exact else 1.0
        C = zeros((rules.attacker_dice + 1, 1, rules.defender_dice + 1, K + 1), exact)
        C[:, 0] = table
        return W, C, [[None]] * (rules.attacker_dice + 1)
    rolls = [[]] + [list(rules.attacker_rolls(n)) for n in range(1, rules.attacker_dice + 1)]
    R = max(len(r) for r in rolls)
    W = zeros((rules.attacker_dice + 1, R), exact)
    C = zeros((rules.attacker_dice + 1, R, rules.defender_dice + 1, K + 1), exact)
    for n in range(1, rules.attacker_dice + 1):
        for r, (roll, p) in enumerate(rules.attacker_rolls(n).items()):
            W[n, r] = p if exact else float(p)
            for m in range(1, rules.defender_dice + 1):
                for i, q in enumerate(rules.outcome_fractions_given_roll(roll, m)):
                    C[n, r, m, i] = q if exact else float(q)
    return W, C, rolls


@dataclass(frozen=True)
class _Problem:
    """A validated attack: the chain's territories, payoffs and rules, in the arithmetic to use."""

    attackers: int
    defenders: tuple[int, ...]
    values: tuple
    rules: tuple[DiceRules, ...]
    leave: int
    cost: object
    survivor_value: object
    kill_value: object
    defender: str
    exact: bool
    cells: tuple = field(repr=False)

    @property
    def states(self) -> int:
        return (self.attackers + 1) * sum(d + 1 for d in self.defenders)

    def number(self, x):
        return Fraction(x) if self.exact else float(x)


@dataclass
class _Play:
    """Both sides' strategies over every territory's states, and the attacker's value under them."""

    V: list
    action: list
    reply: list


def _solve(problem: _Problem, allowed: list, free: bool, fixed: list | None = None,
           values=None, loss=None, kill=None) -> _Play:
    """Backward induction over the chain, last territory first; a territory's conquest is worth its
    value plus the next battle's value from (survivors - leave, next defenders)."""
    A, n = problem.attackers, len(problem.defenders)
    values = problem.values if values is None else values
    loss = problem.cost + problem.survivor_value if loss is None else loss
    kill = problem.kill_value if kill is None else kill
    play = _Play([None] * n, [None] * n, [None] * n)
    for k in range(n - 1, -1, -1):
        W, C, _ = problem.cells[k]
        kernel = _kernel(_backward, problem.exact, problem.states * W.shape[1] * _WORK_PER_STATE)
        D, rules = problem.defenders[k], problem.rules[k]
        win = zeros(A + 1, problem.exact)
        for a in range(A + 1):
            win[a] = values[k]
            if k < n - 1 and a - problem.leave >= 1:
                win[a] += play.V[k + 1][a - problem.leave, problem.defenders[k + 1]]
        V = zeros((A + 1, D + 1), problem.exact)
        action = np.zeros((A + 1, D + 1), dtype=np.int64)
        reply = np.zeros((A + 1, D + 1, W.shape[1]), dtype=np.int64)
        f = fixed[k] if fixed is not None else reply.copy()
        kernel(W, C, rules.attacker_dice, rules.defender_dice, free, allowed[k], f, win, loss, kill, V, action,
               reply)
        play.V[k], play.action[k], play.reply[k] = V, action, reply
    return play


def _mask(problem: _Problem, k: int, go) -> np.ndarray:
    """allowed[a, d, n] for territory k: every choice where ``go`` is None, else the most dice where
    ``go[a, d]`` and stopping elsewhere."""
    A, D, adice = problem.attackers, problem.defenders[k], problem.rules[k].attacker_dice
    allowed = np.zeros((A + 1, D + 1, MAX_DICE + 1), dtype=np.int8)
    a = np.arange(A + 1)[:, None]
    if go is None:
        allowed[:, :, 0] = 1
        for n in range(1, adice + 1):
            allowed[:, :, n] = n <= a
        return allowed
    go = np.broadcast_to(go, (A + 1, D + 1))
    allowed[:, :, 0] = ~go
    dice = np.broadcast_to(np.minimum(adice, a), (A + 1, D + 1))
    for n in range(1, adice + 1):
        allowed[:, :, n] = go & (dice == n) & (a >= 1)
    return allowed


def _baseline_rules(problem: _Problem) -> dict:
    """name -> per-territory ``go[a, d]`` boolean arrays of the baselines the module docstring lists."""
    A, defenders = problem.attackers, problem.defenders
    grids = [np.meshgrid(np.arange(A + 1), np.arange(D + 1), indexing="ij") for D in defenders]
    everywhere = [np.ones((A + 1, D + 1), dtype=bool) for D in defenders]
    rules = {ATTACK_TO_END: everywhere}
    for s in range(1, A):
        rules[f"stop_at_{s}"] = [a > s for a, _ in grids]
    rules[NO_ATTACK] = [~g for g in everywhere]
    for name, rule in RULES_OF_THUMB.items():
        rules[name] = [np.asarray(rule(a, d), dtype=bool) for a, d in grids]
    for j in range(1, len(defenders)):
        rules[f"first_{j}"] = [g if k < j else ~g for k, g in enumerate(everywhere)]
    return rules


def _one_hot(problem: _Problem, action: list) -> list:
    """allowed masks that permit exactly the chosen action at every state."""
    masks = []
    for k, chosen in enumerate(action):
        mask = np.zeros((problem.attackers + 1, problem.defenders[k] + 1, MAX_DICE + 1), dtype=np.int8)
        np.put_along_axis(mask, chosen[:, :, None], 1, axis=2)
        masks.append(mask)
    return masks


def _measures(problem: _Problem, play: _Play) -> dict:
    """Expected value, P(every territory conquered), expected conquests and losses of a strategy pair."""
    fixed = _one_hot(problem, play.action)
    zero, one = problem.number(0), problem.number(1)
    n, A, D0 = len(problem.defenders), problem.attackers, problem.defenders[0]

    def evaluate(values, loss, kill):
        return _solve(problem, fixed, False, play.reply, values, loss, kill).V[0][A, D0]

    return {
        "expected_value": play.V[0][A, D0] + problem.survivor_value * A,
        "p_win": evaluate((zero,) * (n - 1) + (one,), zero, zero),
        "expected_conquered": evaluate((one,) * n, zero, zero),
        "expected_attacker_losses": zero - evaluate((zero,) * n, one, zero),
        "expected_defender_losses": evaluate((zero,) * n, zero, one),
    }


@dataclass(frozen=True)
class AttackPolicy:
    """The optimal way to fight an attack (a battle or a chain), beside the baselines.

    ``table``: one row per state (territory, attackers, defenders) with the attacker's ``action``
    ("attack" or "stop"), its ``dice`` (0 when it stops), the defender's answer ``defender_dice`` (when it
    answers the faces: its most frequent answer; `answers` lists them), ``p_defender_fewer`` (P(the defender
    rolls fewer than its most dice)) and the attacker's expected payoff ``value`` from that state on
    (survivors counted from that state).
    ``summary``: one row per policy (``optimal`` first, then the baselines) with ``expected_value``,
    ``p_win`` (every territory conquered), ``expected_conquered`` and the expected losses of each side.
    ``values``: the expected payoff of each policy at every state of the first battle.
    """

    attackers: int
    defenders: tuple[int, ...]
    values_per_territory: tuple
    rules: tuple[DiceRules, ...]
    leave: int
    cost: object
    survivor_value: object
    kill_value: object
    defender: str
    exact: bool
    table: object = field(repr=False)
    summary: object = field(repr=False)
    values: object = field(repr=False)
    play: _Play = field(repr=False)
    cells: tuple = field(repr=False)

    def _scalar(self, value):
        return value if self.exact else float(value)

    @property
    def expected_value(self):
        """The attacker's expected payoff under the optimal policy, from the starting state."""
        return self._scalar(self.summary.expected_value[OPTIMAL])

    @property
    def p_win(self):
        """P(every territory conquered) under the optimal policy."""
        return self._scalar(self.summary.p_win[OPTIMAL])

    @property
    def baseline(self) -> dict:
        """Each baseline's expected payoff from the starting state, keyed by policy name."""
        return {name: self._scalar(v) for name, v in self.summary.expected_value.drop(OPTIMAL).items()}

    @property
    def best_baseline(self) -> str:
        """The baseline with the highest expected payoff (the first listed among equals)."""
        values = self.baseline
        return max(values, key=lambda name: values[name])

    @property
    def value_of_choice(self):
        """What deciding optimally is worth: the optimal payoff minus the best baseline's (>= 0)."""
        return self.expected_value - self.baseline[self.best_baseline]

    def answers(self, attackers: int, defenders: int, territory: int = 1):
        """The defender's answer to each attacker roll at one state of the optimal play: a DataFrame with
        ``attacker_roll`` (the faces, high to low; "any" when the defender answers only the dice count),
        its probability ``p`` and the ``defender_dice`` rolled against it. Empty where the attacker stops."""
        import pandas as pd

        check_int("territory", territory, 1, len(self.defenders))
        k = territory - 1
        check_int("attackers", attackers, 1, self.attackers)
        check_int("defenders", defenders, 1, self.defenders[k])
        W, _, rolls = self.cells[k]
        n = self.play.action[k][attackers, defenders]
        rows = [{"attacker_roll": "any" if roll is None else "-".join(map(str, roll)), "p": W[n, r],
                 "defender_dice": int(self.play.reply[k][attackers, defenders, r])}
                for r, roll in enumerate(rolls[n])] if n else []
        return pd.DataFrame(rows, columns=["attacker_roll", "p", "defender_dice"])

    def outcomes(self):
        """The optimal play's end states: DataFrame indexed by (conquered, armies_left), column ``p``,
        in `riskstats.odds.chain.chain_odds`' shape. ``armies_left`` is the attacking force at the end
        beyond the ``leave`` armies left in each conquered territory (every survivor on full success)."""
        from riskstats.odds.chain import chain_outcomes_frame

        A, n, exact = self.attackers, len(self.defenders), self.exact
        kernel = _kernel(_forward, exact, A * max(self.defenders) * self.cells[0][0].shape[1])
        distribution = zeros((n + 1, A + 1), exact)
        force = zeros(A + 1, exact)
        force[A] = Fraction(1) if exact else 1.0
        for k, D in enumerate(self.defenders):
            mass = zeros((A + 1, D + 1), exact)
            mass[:, D] = force
            end = zeros((A + 1, D + 1), exact)
            W, C, _ = self.cells[k]
            kernel(W, C, self.play.action[k], self.play.reply[k], mass, end)
            distribution[k, :] += end[:, 1:].sum(axis=1)  # stopped or eliminated here
            force = zeros(A + 1, exact)
            for x in range(A + 1):
                if end[x, 0] == 0:
                    continue
                if k == n - 1:
                    distribution[n, x] += end[x, 0]
                elif x - self.leave >= 1:
                    force[x - self.leave] += end[x, 0]
                else:
                    distribution[k + 1, max(x - self.leave, 0)] += end[x, 0]
        return chain_outcomes_frame(distribution)


def _real(name: str, value, low=None):
    if isinstance(value, bool) or not isinstance(value, (int, float, Fraction, np.integer, np.floating)):
        raise RiskstatsError(f"{name} must be a number, got {value!r}")
    if not math.isfinite(value):
        raise RiskstatsError(f"{name} must be finite, got {value!r}")
    if low is not None and value < low:
        raise RiskstatsError(f"{name} must be at least {low}, got {value!r}")
    return Fraction(value) if isinstance(value, (int, Fraction, np.integer)) else Fraction(float(value))


def _problem(attackers, defenders, values, rules, leave, cost, survivor_value, kill_value, defender,
             exact) -> _Problem:
    attackers = check_armies("attackers", attackers)
    defenders = _validate_defenders(defenders)
    if isinstance(values, (int, float, Fraction, np.integer, np.floating)) and not isinstance(values, bool):
        values = (values,) * len(defenders)
    values = list(values) if isinstance(values, Sequence) else [values]
    if len(values) != len(defenders):
        raise RiskstatsError(f"values must be one number or one per territory ({len(defenders)}), got {len(values)}")
    values = [_real("value", v) for v in values]
    leave = check_int("leave", leave, 1)
    cost, survivor_value, kill_value = (_real(name, x, 0) for name, x in
                                        (("cost", cost), ("survivor_value", survivor_value),
                                         ("kill_value", kill_value)))
    if defender not in DEFENDERS:
        raise RiskstatsError(f"defender must be one of {', '.join(DEFENDERS)}, got {defender!r}")
    rules = tuple(_rules_per_territory(rules, len(defenders)))
    states = attackers * sum(defenders)
    limit = MAX_EXACT_STATES if exact else MAX_STATES
    if states > limit:
        raise RiskstatsError(f"{'exact ' if exact else ''}policies are limited to attackers x defenders <= {limit}, "
                             f"got {attackers} x {sum(defenders)}" + ("; drop exact for float64" if exact else ""))
    convert = (lambda x: x) if exact else float
    after_roll = defender == "after_roll"
    if exact and after_roll and states > MAX_AFTER_ROLL_EXACT_STATES:
        raise RiskstatsError(f"exact policies with defender after_roll are limited to attackers x defenders <= "
                             f"{MAX_AFTER_ROLL_EXACT_STATES}, got {attackers} x {sum(defenders)}; "
                             "drop exact for float64")
    shared = {r: cells(r, after_roll, exact) for r in set(rules)}
    return _Problem(attackers, defenders, tuple(convert(v) for v in values), rules, leave, convert(cost),
                    convert(survivor_value), convert(kill_value), defender, exact, tuple(shared[r] for r in rules))


def _answers(problem: _Problem, k: int, play: _Play) -> dict:
    """The defender's answer at every state of territory k (a, d >= 1, attackers varying slowest):
    ``defender_dice``, its dice against the attacker's chosen dice (when it answers the faces: the answer
    it gives most often), and ``p_defender_fewer``, P(it rolls fewer than its most dice there)."""
    W, _, _ = problem.cells[k]
    action, reply = play.action[k][1:, 1:], play.reply[k][1:, 1:]
    ddice = problem.rules[k].defender_dice
    most = np.minimum(ddice, np.arange(1, reply.shape[1] + 1))[None, :]
    weight = np.zeros((ddice + 1, *action.shape))  # weight[m, a, d] = P(the defender answers m dice)
    for n in range(1, W.shape[0]):
        chosen = action == n
        for m in range(1, ddice + 1):
            weight[m][chosen] = ((reply[chosen] == m) @ W[n].astype(float))
    fewer = sum(weight[m] * (m < most) for m in range(1, ddice + 1))
    dice = np.where(action > 0, weight.argmax(axis=0), 0)
    return {"defender_dice": dice.ravel(), "p_defender_fewer": fewer.ravel()}


def _answer(problem: _Problem) -> AttackPolicy:
    import pandas as pd

    free = problem.defender != "max"
    n = len(problem.defenders)
    plays = {OPTIMAL: _solve(problem, [_mask(problem, k, None) for k in range(n)], free)}
    for name, go in _baseline_rules(problem).items():
        plays[name] = _solve(problem, [_mask(problem, k, g) for k, g in enumerate(go)], free)
    summary = pd.DataFrame({name: _measures(problem, play) for name, play in plays.items()}).T
    summary.index.name = "policy"
    if not problem.exact:
        summary = summary.astype(float)
    A, keep = problem.attackers, problem.survivor_value
    a_col = np.arange(A + 1)
    optimal = plays[OPTIMAL]
    rows = []
    for k, D in enumerate(problem.defenders):
        a, d = np.meshgrid(a_col[1:], np.arange(1, D + 1), indexing="ij")
        act = optimal.action[k][1:, 1:]
        rows.append(pd.DataFrame({
            "territory": k + 1, "attackers": a.ravel(), "defenders": d.ravel(),
            "action": np.where(act.ravel() > 0, "attack", "stop"), "dice": act.ravel(),
            **_answers(problem, k, optimal),
            "value": (optimal.V[k][1:, 1:] + keep * a).ravel()}))
    table = pd.concat(rows, ignore_index=True)
    D0 = problem.defenders[0]
    a, d = np.meshgrid(a_col[1:], np.arange(1, D0 + 1), indexing="ij")
    values = pd.DataFrame({name: (play.V[0][1:, 1:] + keep * a).ravel() for name, play in plays.items()},
                          index=pd.MultiIndex.from_arrays([a.ravel(), d.ravel()], names=["attackers", "defenders"]))
    return AttackPolicy(problem.attackers, problem.defenders, problem.values, problem.rules, problem.leave,
                        problem.cost, problem.survivor_value, problem.kill_value, problem.defender, problem.exact,
                        table, summary, values, optimal, problem.cells)


def policy(attackers: int, defenders: int, value, rules: DiceRules | None = None, *, cost=1,
           survivor_value=0, kill_value=0, defender: str = "best", exact: bool = False) -> AttackPolicy:
    """The optimal stopping and dice policy for one attack, solved exactly by backward induction.

    Parameters
    ----------
    attackers : int
        Armies able to roll (the army that stays behind is not counted).
    defenders : int
        Armies on the defending territory.
    value : number
        What conquering the territory is worth, in armies (a territory, a card, a broken or completed
        continent ...).
    rules : DiceRules, optional
        The dice rule; standard rules by default.
    cost : number
        Payoff lost per attacking army lost (default 1).
    survivor_value : number
        Payoff per attacking army still alive at the end (default 0).
    kill_value : number
        Payoff per defending army destroyed (default 0).
    defender : {"best", "after_roll", "max"}
        "best": the defender chooses its dice, knowing how many the attacker rolls, to minimise the
        attacker's payoff (the minimax solution); "after_roll": the same, knowing the attacker's faces;
        "max": it always rolls its most dice.
    exact : bool
        Rational arithmetic (`fractions.Fraction`) instead of float64.

    Returns
    -------
    AttackPolicy
        The policy ``table``, the ``summary`` of the optimal policy and every baseline, and
        ``expected_value``, ``baseline``, ``value_of_choice``.

    Examples
    --------
    >>> p = policy(5, 3, value=2, exact=True)
    >>> p.table.query("attackers == 1 and defenders == 3")[["action", "dice"]].values.tolist()
    [['stop', 0]]
    >>> p.value_of_choice >= 0
    True
    >>> q = policy(10, 5, value=1000, defender="max")
    >>> bool(q.table.action.eq("attack").all()), round(q.p_win, 6)
    (True, 0.916284)
    """
    return _answer(_problem(attackers, defenders, value, rules, 1, cost, survivor_value, kill_value, defender,
                            exact))


def chain_policy(attackers: int, defenders: Sequence[int], values, rules=None, *, leave: int = 1, cost=1,
                 survivor_value=0, kill_value=0, defender: str = "best", exact: bool = False) -> AttackPolicy:
    """The optimal stopping and dice policy for a sweep through a chain of territories.

    As `policy`, with ``defenders`` and ``values`` one per territory in the order attacked (``values`` may
    be one number for all), ``rules`` one `DiceRules` or one per territory, and ``leave`` armies staying
    in each conquered territory before the rest attack on (see `riskstats.odds.chain.chain_odds`). The
    decision to end the sweep after a conquest is the stop decision at the next battle's first state.

    Examples
    --------
    >>> c = chain_policy(8, [2, 3], values=[3, 1])
    >>> c.best_baseline in c.baseline, c.value_of_choice >= 0
    (True, True)
    """
    return _answer(_problem(attackers, defenders, values, rules, leave, cost, survivor_value, kill_value, defender,
                            exact))
