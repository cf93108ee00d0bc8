"""Monte Carlo play of a solved attack policy: the check of its exact value by sampling.

`simulate_policy` fights ``trials`` attacks in which both sides follow the strategies an
`riskstats.odds.policy.AttackPolicy` solved (the attacker's stop and dice choices, the defender's
answers), drawing each roll from the rules' exact one-roll table with the compiled simulator's
`riskstats.odds.simulate.roll_losses`. Work is cut into chunks with one random stream each, as in
`riskstats.odds.simulate`, so a seed gives the same answer on any number of threads. The mean payoff
comes with a normal 95% interval and P(win) with a Wilson interval.

This module owns only the sampling; the exact solution is `riskstats.odds.policy`'s.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import prange

from riskstats._numba import parallel_jit
from riskstats.intervals import Z95, wilson_interval
from riskstats.odds.policy import AttackPolicy
from riskstats.odds.rng import _next, check_seed
from riskstats.odds.simulate import _check_trials, _run_waves, roll_losses, sampling_table

_11 = np.uint64(11)


@parallel_jit
def _play(cut, action, reply, defenders, values, leave, loss, kill, A, sizes, states, total, squares, wins,
          conquered):  # pragma: no cover - compiled
    """Chunk w plays sizes[w] attacks from states[w]; per chunk: the sum and the sum of squares of the
    payoffs, the attacks that took every territory and the territories conquered.

    cut[k]            territory k's `sampling_table`; action[k, a, d], reply[k, a, d] the strategies
                      (0: stop) padded to the largest defender count; defenders[k], values[k] per territory.
    leave, loss, kill armies left per conquest; payoff per attacking army lost and per defender destroyed.
    """
    T = defenders.shape[0]
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
                m = reply[k, a, d]
                r, s0, s1, s2, s3 = _next(s0, s1, s2, s3)
                lost = roll_losses(cut[k], n, m, r >> _11)
                pair = min(n, m)
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
    action = np.zeros((n, A + 1, D + 1), dtype=np.int64)
    reply = np.zeros((n, A + 1, D + 1), dtype=np.int64)
    for k, d in enumerate(solved.defenders):
        action[k, :, :d + 1] = solved.play.action[k]
        reply[k, :, :d + 1] = solved.play.reply[k]
    cut = np.stack([sampling_table(r) for r in solved.rules])
    defenders = np.array(solved.defenders, dtype=np.int64)
    values = np.array([float(v) for v in solved.values_per_territory])
    loss = float(solved.cost + solved.survivor_value)
    kill = float(solved.kill_value)
    parts = []

    def run(sizes, states):
        w = sizes.shape[0]
        out = (np.zeros(w), np.zeros(w), np.zeros(w, dtype=np.int64), np.zeros(w, dtype=np.int64))
        _play(cut, action, reply, defenders, values, solved.leave, loss, kill, A, sizes, states, *out)
        parts.append(out)

    _run_waves(trials, seed, 1, run, None)
    total, squares, wins, conquered = (np.concatenate([p[i] for p in parts]) for i in range(4))
    mean = float(total.sum()) / trials
    variance = max(float(squares.sum()) / trials - mean * mean, 0.0) * trials / max(trials - 1, 1)
    keep = float(solved.survivor_value) * A
    return PolicySample(trials, seed, mean + keep, math.sqrt(variance), int(wins.sum()),
                        float(conquered.sum()) / trials)
