"""Monte Carlo play of a solved attack policy: the check of its exact value by sampling.

`simulate_policy` fights ``trials`` attacks in which both sides follow the strategies an
`riskstats.odds.policy.AttackPolicy` solved (the attacker's stop and dice choices, the defender's
answers), drawing each roll from the same exact tables the solver used: the cell the defender sees
(the attacker's faces, when it answers them), then the losses given that cell, each from one 53-bit
uniform against integer cut points, as `riskstats.odds.simulate.sampling_table` does. Work is cut
into chunks with one random stream each, as in `riskstats.odds.simulate`, so a seed gives the same
answer on any number of threads. The mean payoff comes with a normal 95% interval and P(win) with a
Wilson interval.

This module owns only the sampling; the exact solution is `riskstats.odds.policy`'s.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from numba import prange

from riskstats._numba import parallel_jit
from riskstats.intervals import Z95, wilson_interval
from riskstats.odds.dice import MAX_DICE
from riskstats.odds.policy import AttackPolicy
from riskstats.odds.policy import cells as policy_cells
from riskstats.odds.rng import BITS53, _next, check_seed
from riskstats.odds.simulate import _check_trials, _run_waves

_11 = np.uint64(11)


def cut_tables(rules, after_roll: bool, cells: int):
    """Integer cut points for sampling the defender's information cell and then the losses.

    ``cell_cut[n, r]`` = ceil(2**53 P(cell <= r | n dice)) and ``loss_cut[n, r, m, j]`` = ceil(2**53 P(attacker
    loses j or fewer | cell r, n v m dice)), both 2**53 (never reached) past the last outcome: the
    rules' `riskstats.odds.simulate.sampling_table` generalised to cells, computed in rational
    arithmetic. Padded to ``cells`` cells.
    """
    W, C, _ = policy_cells(rules, after_roll, exact=True)
    cell_cut = np.full((MAX_DICE + 1, cells), BITS53, dtype=np.uint64)
    loss_cut = np.full((MAX_DICE + 1, cells, MAX_DICE + 1, MAX_DICE), BITS53, dtype=np.uint64)
    for n in range(1, W.shape[0]):
        cumulative = Fraction(0)
        for r in range(W.shape[1]):
            cumulative += W[n, r]
            if W[n, r] != 0 and cumulative < 1:
                cell_cut[n, r] = -((-cumulative.numerator * BITS53) // cumulative.denominator)
            for m in range(1, C.shape[2]):
                total = Fraction(0)
                for j in range(min(n, m)):
                    total += C[n, r, m, j]
                    loss_cut[n, r, m, j] = -((-total.numerator * BITS53) // total.denominator)
    return cell_cut, loss_cut


@parallel_jit
def _play(cell_cut, loss_cut, action, reply, defenders, values, leave, loss, kill, A, sizes, states, total, squares,
          wins, conquered):  # pragma: no cover - compiled
    """Chunk w plays sizes[w] attacks from states[w]; per chunk: the sum and the sum of squares of the
    payoffs, the attacks that took every territory and the territories conquered. Each roll draws one output for
    the cell (when there is more than one) and one for the losses.

    Parameters
    ----------
    cell_cut : uint64[T, MAX_DICE + 1, R]
        Territory k's `cut_tables` cell cut points: cell_cut[k, n, r] samples the defender's information cell r
        when the attacker rolls n dice.
    loss_cut : uint64[T, MAX_DICE + 1, R, MAX_DICE + 1, MAX_DICE]
        Territory k's loss cut points: loss_cut[k, n, r, m, j] samples the attacker's losses, n dice against m
        in cell r.
    action : int64[T, A + 1, D + 1]
        The attacker's dice at territory k with a attackers against d defenders (0: stop), padded to the largest
        defender count D.
    reply : int64[T, A + 1, D + 1, R]
        The defender's dice in cell r (padded likewise).
    defenders : int64[T]
        Each territory's defenders, attacked in order.
    values : float64[T]
        The payoff of conquering each territory.
    leave : int
        Armies left behind on each conquered territory.
    loss, kill : float
        The payoff of each attacking army lost (subtracted) and of each defender destroyed (added).
    A : int
        Attackers (able to roll) at the start.
    sizes : int64[W]
        Attacks each chunk plays.
    states : uint64[W, 4]
        Each chunk's random stream (`riskstats.odds.rng.streams`).
    total, squares : float64[W]
        Added to: each chunk's sum of payoffs and sum of their squares.
    wins, conquered : int64[W]
        Added to: each chunk's attacks that took every territory, and the territories they conquered.
    """
    T = defenders.shape[0]
    R = cell_cut.shape[2]
    for w in prange(sizes.shape[0]):
        s0, s1, s2, s3 = states[w, 0], states[w, 1], states[w, 2], states[w, 3]
        for _ in range(sizes[w]):
            k = 0
            a = A
            d = defenders[0]
            pay = 0.0
            while True:
                if d == 0:
                    pay += values[k]
                    conquered[w] += 1
                    if k == T - 1:
                        wins[w] += 1
                        break
                    if a - leave < 1:
                        break
                    a -= leave
                    k += 1
                    d = defenders[k]
                    continue
                n = action[k, a, d]
                if n == 0:
                    break
                r = 0
                if R > 1:
                    u, s0, s1, s2, s3 = _next(s0, s1, s2, s3)
                    u = u >> _11
                    while u >= cell_cut[k, n, r]:
                        r += 1
                m = reply[k, a, d, r]
                u, s0, s1, s2, s3 = _next(s0, s1, s2, s3)
                u = u >> _11
                pair = min(n, m)
                lost = 0
                for j in range(pair):
                    if u >= loss_cut[k, n, r, m, j]:
                        lost += 1
                pay += kill * (pair - lost) - loss * lost
                a -= lost
                d -= pair - lost
            total[w] += pay
            squares[w] += pay * pay


@dataclass(frozen=True)
class PolicySample:
    """Simulated attacks under a solved policy: mean payoff and P(win), each with its 95% interval."""

    trials: int
    seed: int
    mean: float
    sd: float
    wins: int
    expected_conquered: float

    @property
    def interval(self) -> tuple[float, float]:
        """Normal 95% interval for the expected payoff."""
        half = Z95 * self.sd / math.sqrt(self.trials)
        return self.mean - half, self.mean + half

    @property
    def p_win(self) -> float:
        """Frequency of conquering every territory."""
        return self.wins / self.trials

    @property
    def p_win_interval(self) -> tuple[float, float]:
        """Wilson 95% interval for P(win)."""
        return wilson_interval(self.wins, self.trials)


def simulate_policy(solved: AttackPolicy, trials: int = 100_000, seed: int | None = 0) -> PolicySample:
    """Play the solved strategies ``trials`` times and estimate the payoff and P(win).

    Examples
    --------
    >>> from riskstats.odds.policy import policy
    >>> solved = policy(10, 5, 3)
    >>> sample = simulate_policy(solved, 50_000, seed=1)
    >>> low, high = sample.interval
    >>> bool(low - 0.05 < solved.expected_value < high + 0.05)
    True
    """
    trials = _check_trials(trials)
    seed = check_seed(seed)
    A, n = solved.attackers, len(solved.defenders)
    D = max(solved.defenders)
    R = max(c[0].shape[1] for c in solved.cells)
    action = np.zeros((n, A + 1, D + 1), dtype=np.int64)
    reply = np.zeros((n, A + 1, D + 1, R), dtype=np.int64)
    for k, d in enumerate(solved.defenders):
        action[k, :, :d + 1] = solved.play.action[k]
        reply[k, :, :d + 1, :solved.play.reply[k].shape[2]] = solved.play.reply[k]
    after_roll = solved.defender == "after_roll"
    cuts = [cut_tables(r, after_roll, R) for r in solved.rules]
    cell_cut = np.stack([c[0] for c in cuts])
    loss_cut = np.stack([c[1] for c in cuts])
    defenders = np.array(solved.defenders, dtype=np.int64)
    values = np.array([float(v) for v in solved.values_per_territory])
    loss = float(solved.cost + solved.survivor_value)
    kill = float(solved.kill_value)
    parts = []

    def run(sizes, states):
        w = sizes.shape[0]
        out = (np.zeros(w), np.zeros(w), np.zeros(w, dtype=np.int64), np.zeros(w, dtype=np.int64))
        _play(cell_cut, loss_cut, action, reply, defenders, values, solved.leave, loss, kill, A, sizes, states, *out)
        parts.append(out)

    _run_waves(trials, seed, 1, run, None)
    total, squares, wins, conquered = (np.concatenate([p[i] for p in parts]) for i in range(4))
    mean = float(total.sum()) / trials
    variance = max(float(squares.sum()) / trials - mean * mean, 0.0) * trials / max(trials - 1, 1)
    keep = float(solved.survivor_value) * A
    return PolicySample(trials, seed, mean + keep, math.sqrt(variance), int(wins.sum()),
                        float(conquered.sum()) / trials)
