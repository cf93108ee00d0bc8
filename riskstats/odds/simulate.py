"""Monte Carlo battles, chains and dice: compiled, parallel, reproducible, checked against the exact engine.

Two levels, one rule. The dice level (`roll_dice`) rolls real dice as `riskstats.odds.dice` describes them
(sorted per side, the defender's modifier on its highest die then re-sorted, highest paired with
highest) and validates the exact one-roll table. The battle level (`simulate_battles`,
`simulate_chain`) samples each roll from that exact table: one uniform per roll against the
cumulative table (`sampling_table`). Results come back in the exact engine's pandas shape, so
``exact.outcomes.p - simulated.outcomes.p`` lines up (states never seen are missing: use
``.sub(..., fill_value=0)``). Attackers are the armies able to roll, as everywhere in riskstats.

Work is cut into chunks of `CHUNK` trials; chunk ``c`` draws from the ``c``-th stream spawned from
``SeedSequence(seed)`` (`riskstats.odds.rng`), chunks run in parallel (``numba.prange``) and only integer
counts are summed, so a seed gives the same answer on any number of threads. A wave of chunks runs in
short calls (`riskstats.pieces`), each going on with every chunk's stream, so that Ctrl-C is answered
within a second whatever the battles' size, and the cut changes nothing. Scalar battles stream
wave by wave into an end-state histogram shaped like the exact engine's, never per-trial arrays.

Balanced Blitz (``balance="blitz"``) resolves a whole battle at once, as the official app does: each
battle is one uniform against the cumulative balanced end-state distribution of
`riskstats.odds.battle.battle_odds` (`_pick_counts`), in the same chunked, seeded streams.

For compiled callers: `roll_losses` turns one 53-bit uniform into a roll's losses (the game engine rolls through
it, one roll a move), `roll_p` reads one outcome's probability back from the table, and `resolve_battle` fights one
battle to its end from a stream's ``uint64[4]`` state (advanced in place); both take the rules' `sampling_table`.
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numba import prange

from riskstats._numba import jit, parallel_jit
from riskstats.errors import RiskstatsError, check_int
from riskstats.intervals import wilson_interval
from riskstats.odds.balance import BalanceRules, mode_name, resolve_balance
from riskstats.odds.battle import battle_odds, check_armies, outcomes_frame, validate_battle
from riskstats.odds.chain import _rules_per_territory, chain_outcomes_frame, validate_chain
from riskstats.odds.dice import MAX_DICE, DiceRules
from riskstats.odds.rng import BITS53, _die, _next, check_seed, die_threshold, streams
from riskstats.pieces import in_pieces

CHUNK = 1 << 16
"""Trials per chunk: the unit of work that owns one random stream."""
WAVE = 64
"""Most chunks run side by side (a wave: the chunks of one call of a parallel kernel, each call playing a
few of their trials; see `_run_waves`)."""
DEFAULT_TRIALS = 1_000_000
"""Battles simulated when a call does not say."""
MAX_TRIALS = 10**13
"""The most trials one call may ask for."""
_WAVE_CELLS = 1 << 23
"""Bound on the cells of a wave's per-chunk histograms (int32), which caps the wave for huge armies."""
_NEVER = np.uint64(BITS53)
_11 = np.uint64(11)
_TWO53 = float(BITS53)

Progress = Callable[[int, int], None]
"""``progress(done, total)``: called a few times a second with the trials finished so far."""


def sampling_table(rules: DiceRules) -> np.ndarray:
    """The one-roll table as integer cut points: uint64 ``cut[na, nd, j]``, shape (4, 4, 3).

    With ``u`` uniform on 0 .. 2**53 - 1 (an xoshiro output shifted right by 11), the attacker loses
    ``i = (u >= cut[na, nd, 0]) + (u >= cut[na, nd, 1]) + (u >= cut[na, nd, 2])`` armies. The cuts are
    ``ceil(2**53 * P(attacker loses j or fewer))`` computed in rational arithmetic, and 2**53 (never
    reached) for ``j >= min(na, nd)``, so each outcome's probability is exact to within 2**-53.

    Examples
    --------
    >>> cut = sampling_table(DiceRules())
    >>> int(cut[1, 1, 0]) / 2**53, int(cut[1, 1, 1]) == 2**53
    (0.4166666666666667, True)
    """
    table = rules.table(exact=True)
    cut = np.full((MAX_DICE + 1, MAX_DICE + 1, MAX_DICE), BITS53, dtype=np.uint64)
    for na in range(1, rules.attacker_dice + 1):
        for nd in range(1, rules.defender_dice + 1):
            cumulative = 0
            for j in range(min(na, nd)):
                cumulative += table[na, nd, j]
                cut[na, nd, j] = -((-cumulative.numerator * BITS53) // cumulative.denominator)
    return cut


@jit
def roll_losses(cut, na, nd, u):  # pragma: no cover - compiled
    """The attacker's losses in one roll of na dice against nd, for ``u`` uniform on 0 .. 2**53 - 1 and
    ``cut`` the rules' `sampling_table` (the game engine rolls through this too)."""
    return np.int64(u >= cut[na, nd, 0]) + np.int64(u >= cut[na, nd, 1]) + np.int64(u >= cut[na, nd, 2])


@jit
def roll_p(cut, na, nd, j):  # pragma: no cover - compiled
    """P(the attacker loses j armies) in one roll of na dice against nd, read back from the rules'
    `sampling_table` (exact to within 2**-53): what a compiled bot that prices battles needs (the hunter's chain
    odds), so that the table's encoding is read here alone."""
    hi = _TWO53 if j >= min(na, nd) else float(cut[na, nd, j])
    lo = 0.0 if j == 0 else float(cut[na, nd, j - 1])
    return (hi - lo) / _TWO53


@jit
def resolve_battle(cut, attacker_dice, defender_dice, a, d, stop_at, goal, shift, state):  # pragma: no cover
    """Fight one battle to its end; return ``(attackers_left, defenders_left)``.

    cut             `sampling_table` of the rules (uint64, (4, 4, 3)).
    attacker_dice   the most dice the attacker rolls (``rules.attacker_dice``); likewise defender_dice.
    a, d            attackers (able to roll) and defenders at the start; a > stop_at, d > goal.
    stop_at, goal   the battle ends once a <= stop_at or d <= goal (d checked first, as in the exact
                    engine: a roll that does both counts as reaching the goal).
    shift           stop_at for the cautious rule (roll at most a - stop_at dice), else 0.
    state           uint64[4] stream state, advanced in place.

    Each roll draws one 64-bit output; the attacker rolls ``min(attacker_dice, a - shift)`` dice and
    the defender ``min(defender_dice, d)``.
    """
    s0 = state[0]
    s1 = state[1]
    s2 = state[2]
    s3 = state[3]
    while a > stop_at and d > goal:
        r, s0, s1, s2, s3 = _next(s0, s1, s2, s3)
        u = r >> _11
        na = min(attacker_dice, a - shift)
        nd = min(defender_dice, d)
        lost = roll_losses(cut, na, nd, u)
        a -= lost
        d -= min(na, nd) - lost
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return a, d


@parallel_jit
def _battle_counts(cut, adice, ddice, A, D, S, G, shift, sizes, states, end_d, end_a):  # pragma: no cover
    """Chunk w fights sizes[w] battles of A vs D from states[w] and counts their end states.

    Parameters
    ----------
    cut : uint64[4, 4, 3]
        The rules' `riskstats.odds.dice.sampling_table`.
    adice, ddice : int
        The most dice the attacker and the defender roll.
    A, D : int
        Attackers (able to roll) and defenders at the start.
    S, G : int
        A battle ends once the attackers are down to S (``stop_at``) or the defenders to G (``goal``).
    shift : int
        S under the cautious rule (roll at most a - S dice), else 0 (`resolve_battle`).
    sizes : int64[W]
        Battles each chunk fights.
    states : uint64[W, 4]
        Each chunk's random stream, advanced in place.
    end_d : int32[W, A + 1, max losses]
        end_d[w, a, j]: battles of chunk w ending with a attackers and G - j defenders (goal reached).
    end_a : int32[W, max losses, D + 1]
        end_a[w, j, d]: battles ending with S - j attackers and d > G defenders (the attacker stopped).
    """
    for w in prange(sizes.shape[0]):
        state = states[w]
        for _ in range(sizes[w]):
            a, d = resolve_battle(cut, adice, ddice, A, D, S, G, shift, state)
            if d <= G:
                end_d[w, a, G - d] += 1
            else:
                end_a[w, S - a, d] += 1


@parallel_jit
def _pick_counts(cut, sizes, states, counts):  # pragma: no cover - compiled
    """Chunk w draws sizes[w] whole battles from states[w]: one uniform u on 0 .. 2**53 - 1 each, which picks
    end state i when cut[i - 1] <= u < cut[i] (cut: uint64 cumulative cut points, the last 2**53);
    counts[w, i] += 1."""
    n = cut.shape[0]
    for w in prange(sizes.shape[0]):
        s0, s1, s2, s3 = states[w, 0], states[w, 1], states[w, 2], states[w, 3]
        for _ in range(sizes[w]):
            r, s0, s1, s2, s3 = _next(s0, s1, s2, s3)
            u = r >> _11
            low = 0
            high = n - 1
            while low < high:  # the first i with u < cut[i]
                mid = (low + high) // 2
                if u < cut[mid]:
                    high = mid
                else:
                    low = mid + 1
            counts[w, low] += 1
        states[w, 0], states[w, 1], states[w, 2], states[w, 3] = s0, s1, s2, s3


def pick_table(p: np.ndarray) -> np.ndarray:
    """Cumulative cut points of a distribution ``p`` for `_pick_counts`: uint64 ``ceil(2**53 * (p[0] + ... +
    p[i]))``, the last one 2**53 (never reached), so each outcome is drawn with its probability to within
    about 2**-52.

    Examples
    --------
    >>> [int(c) / 2**53 for c in pick_table(np.array([0.25, 0.5, 0.25]))]
    [0.25, 0.75, 1.0]
    """
    cumulative = np.cumsum(np.asarray(p, dtype=float))
    cumulative /= cumulative[-1]
    cut = np.ceil(cumulative * BITS53).astype(np.uint64)
    cut[-1] = np.uint64(BITS53)
    return cut


@parallel_jit
def _battle_ends(cut, adice, ddice, A, D, S, G, shift, chunk, states, out_a, out_d):  # pragma: no cover
    """Battle t (of chunk t // chunk) from A[t] vs D[t]: its end state into out_a[t], out_d[t].

    Parameters
    ----------
    cut, adice, ddice, S, G, shift
        As in `_battle_counts`: the sampling table, the most dice of each side, the attackers' stop, the
        defenders' goal and the cautious rule's shift.
    A, D : int64[N]
        Each battle's attackers (able to roll) and defenders at the start.
    chunk : int
        Battles per random stream: stream c fights battles c * chunk .. (c + 1) * chunk - 1.
    states : uint64[streams, 4]
        The streams' states, advanced in place.
    out_a, out_d : int64[N]
        Written: each battle's attackers and defenders at its end.
    """
    n = A.shape[0]
    for c in prange(states.shape[0]):
        state = states[c]
        for t in range(c * chunk, min(n, (c + 1) * chunk)):
            out_a[t], out_d[t] = resolve_battle(cut, adice, ddice, A[t], D[t], S, G, shift, state)


@parallel_jit
def _chain_counts(cut, adice, ddice, A, defenders, leave, S, sizes, states, out):  # pragma: no cover
    """Chunk w runs sizes[w] chains; out[w, k, x] counts chains ending with k conquered and x left.

    Parameters
    ----------
    cut : uint64[T, 4, 4, 3]
        Territory k's `riskstats.odds.dice.sampling_table` at cut[k].
    adice, ddice : int64[T]
        The most dice the attacker and the defender roll at territory k.
    A : int
        Attackers (able to roll) at the start of the chain.
    defenders : int64[T]
        The defenders of each territory, attacked in order.
    leave : int
        Armies left behind on each conquered territory.
    S : int
        The force stops once its attackers are down to S (``stop_at``).
    sizes : int64[W]
        Chains each chunk runs.
    states : uint64[W, 4]
        Each chunk's random stream, advanced in place.
    out : int32[W, T + 1, A + 1]
        out[w, k, x]: chains of chunk w ending with k territories conquered and x attackers left.
    """
    T = defenders.shape[0]
    for w in prange(sizes.shape[0]):
        state = states[w]
        for _ in range(sizes[w]):
            x = A
            for k in range(T):
                a, d = resolve_battle(cut[k], adice[k], ddice[k], x, defenders[k], S, 0, 0, state)
                if d > 0:
                    out[w, k, a] += 1
                    break
                if k == T - 1:
                    out[w, T, a] += 1
                elif a - leave > S:
                    x = a - leave
                    continue
                else:
                    out[w, k + 1, max(a - leave, 0)] += 1
                break


@jit
def _sort_down(row, n):  # pragma: no cover - compiled
    """Insertion sort of row[:n], high to low."""
    for i in range(1, n):
        v = row[i]
        j = i - 1
        while j >= 0 and row[j] < v:
            row[j + 1] = row[j]
            j -= 1
        row[j + 1] = v


@parallel_jit
def _roll(na, nd, asides, dsides, athreshold, dthreshold, defender_wins_ties, modifier, chunk, states,
          adice, ddice, alost):  # pragma: no cover - compiled
    """Round t: na attacker dice into adice[t] and nd defender dice into ddice[t], each sorted high to
    low (the defender's after its modifier), and the attacker's losses into alost[t].

    Parameters
    ----------
    na, nd : int
        Dice the attacker and the defender roll each round.
    asides, dsides : int
        Faces of the attacker's and of the defender's dice.
    athreshold, dthreshold : uint64
        `riskstats.odds.rng.die_threshold` of each side's dice (`_die`'s rejection threshold).
    defender_wins_ties : bool
        Whether a tie goes to the defender (``DiceRules.ties == "defender"``).
    modifier : int
        Added to the defender's highest die, clipped to 1 .. dsides (``DiceRules.defender_modifier``).
    chunk : int
        Rounds per random stream: stream c rolls rounds c * chunk .. (c + 1) * chunk - 1.
    states : uint64[streams, 4]
        The streams' states (`riskstats.odds.rng.streams`), one per chunk.
    adice : uint8[rounds, na]
        Written: each round's attacker dice, high to low.
    ddice : uint8[rounds, nd]
        Written: each round's defender dice, high to low, after the modifier.
    alost : uint8[rounds]
        Written: the armies the attacker lost in each round.
    """
    n = alost.shape[0]
    k = min(na, nd)
    for c in prange(states.shape[0]):
        s0, s1, s2, s3 = states[c, 0], states[c, 1], states[c, 2], states[c, 3]
        for t in range(c * chunk, min(n, (c + 1) * chunk)):
            arow = adice[t]
            drow = ddice[t]
            for i in range(na):
                arow[i], s0, s1, s2, s3 = _die(asides, athreshold, s0, s1, s2, s3)
            for i in range(nd):
                drow[i], s0, s1, s2, s3 = _die(dsides, dthreshold, s0, s1, s2, s3)
            _sort_down(arow, na)
            _sort_down(drow, nd)
            if modifier != 0:
                drow[0] = min(dsides, max(1, drow[0] + modifier))
                _sort_down(drow, nd)
            lost = 0
            for i in range(k):
                if arow[i] < drow[i] or (defender_wins_ties and arow[i] == drow[i]):
                    lost += 1
            alost[t] = lost


def _chunk_sizes(trials: int, first: int, count: int) -> np.ndarray:
    """Trials in chunks first .. first + count - 1: CHUNK each, the last one what is left."""
    starts = (first + np.arange(count, dtype=np.int64)) * CHUNK
    return np.minimum(trials - starts, CHUNK)


def _run_waves(trials: int, seed: int, cells: int, run, progress: Progress | None, split: bool = False) -> float:
    """Call ``run(sizes, states)`` wave by wave over all chunks of ``trials``, in chunk order.

    ``split``: a wave runs in short calls (`riskstats.pieces.in_pieces`), so that Ctrl-C stops it within a
    second however long its battles: each call plays the next few trials of every chunk of the wave, each
    chunk's stream going on where the call before left it. Only for a ``run`` whose kernel advances
    ``states`` in place and adds whole counts, so that the counts are those of one call a wave. Returns the
    seconds the waves took, after an empty first call has loaded (or compiled) the kernel.
    """
    run(np.zeros(0, dtype=np.int64), np.zeros((0, 4), dtype=np.uint64))
    start = time.perf_counter()
    n_chunks = -(-trials // CHUNK)
    wave = max(1, min(WAVE, _WAVE_CELLS // max(cells, 1)))
    parent = np.random.SeedSequence(seed)
    size = 1
    for first in range(0, n_chunks, wave):
        count = min(wave, n_chunks - first)
        sizes = _chunk_sizes(trials, first, count)
        states = streams(parent, count)

        def part(low, high, sizes=sizes, states=states):  # trials low .. high - 1 of each chunk of the wave
            run(np.clip(sizes, low, high) - low, states)

        def done(upto, _, before=first * CHUNK, sizes=sizes):
            if progress is not None:
                progress(before + int(np.minimum(sizes, upto).sum()), trials)

        if split:
            size = in_pieces(int(sizes.max()), part, progress=done, first=size)
        else:
            run(sizes, states)
            done(CHUNK, trials)
    return time.perf_counter() - start


@dataclass(frozen=True)
class BattleSample:
    """Simulated battles: the empirical end-state distribution, in `BattleOdds`' shape.

    ``attackers`` and ``defenders`` are ints, or the per-trial arrays of a batch (then the outcomes
    pool every trial). ``counts[i]`` battles ended at (``attackers_left[i]``, ``defenders_left[i]``).
    """

    attackers: int | np.ndarray
    defenders: int | np.ndarray
    rules: DiceRules
    stop_at: int
    goal: int
    cautious: bool
    trials: int
    seed: int
    seconds: float
    attackers_left: np.ndarray = field(repr=False)
    defenders_left: np.ndarray = field(repr=False)
    counts: np.ndarray = field(repr=False)
    balance: BalanceRules | None = None

    @property
    def mode(self) -> str:
        """``"true random"`` or ``"Balanced Blitz"``."""
        return mode_name(self.balance)

    @property
    def p(self) -> np.ndarray:
        """Empirical frequency of each end state."""
        return self.counts / self.trials

    def _frequency(self, mask) -> float:
        return float(self.counts[mask].sum() / self.trials)

    @property
    def wins(self) -> int:
        """Battles that eliminated the defender."""
        return int(self.counts[self.defenders_left == 0].sum())

    @property
    def p_win(self) -> float:
        """Frequency of eliminating the defender."""
        return self._frequency(self.defenders_left == 0)

    @property
    def p_goal(self) -> float:
        """Frequency of bringing the defender down to ``goal`` or fewer."""
        return self._frequency(self.defenders_left <= self.goal)

    @property
    def p_lose(self) -> float:
        """Frequency of the attack ending short of its aim."""
        return self._frequency(self.defenders_left > self.goal)

    def p_win_interval(self, z: float = 1.959963984540054) -> tuple[float, float]:
        """Wilson interval for P(win), 95% by default."""
        return wilson_interval(self.wins, self.trials, z)

    @property
    def standard_error(self) -> float:
        """Standard error of `p_win`, from the estimate."""
        return math.sqrt(self.p_win * (1 - self.p_win) / self.trials)

    @property
    def expected_attacker_losses(self) -> float:
        return float(np.mean(self.attackers) - self.attackers_left @ self.p)

    @property
    def expected_defender_losses(self) -> float:
        return float(np.mean(self.defenders) - self.defenders_left @ self.p)

    @property
    def battles_per_second(self) -> float:
        return self.trials / self.seconds if self.seconds > 0 else math.inf

    @property
    def outcomes(self):
        """DataFrame indexed by (attackers_left, defenders_left), column ``p``, sorted; seen states only."""
        return outcomes_frame(self.attackers_left, self.defenders_left, self.p)


def _check_trials(trials, name: str = "trials") -> int:
    return check_int(name, trials, 1, MAX_TRIALS)


def _battle_arrays(attackers, defenders):
    """Per-trial starting armies as int64 arrays of one length, or None when both are scalars."""
    if np.ndim(attackers) == 0 and np.ndim(defenders) == 0:
        return None
    a, d = np.asarray(attackers), np.asarray(defenders)
    for name, x in (("attackers", a), ("defenders", d)):
        if x.dtype.kind not in "iu":
            raise RiskstatsError(f"{name} must be whole numbers, got an array of {x.dtype}")
        if x.size == 0:
            raise RiskstatsError(f"{name} must not be empty")
    try:
        a, d = np.broadcast_arrays(a.astype(np.int64).ravel(), d.astype(np.int64).ravel())
    except ValueError:
        raise RiskstatsError(f"attackers and defenders must have one length, got {a.size} and {d.size}") from None
    check_armies("attackers", int(a.max()))
    check_armies("defenders", int(d.max()))
    return np.ascontiguousarray(a), np.ascontiguousarray(d)


def _kernel_rules(rules: DiceRules, stop_at: int, cautious: bool):
    return sampling_table(rules), rules.attacker_dice, rules.defender_dice, stop_at if cautious else 0


def resolve_battles(attackers, defenders, rules: DiceRules | None = None, *, seed: int | None = None,
                    stop_at: int = 0, goal: int = 0, cautious: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Fight a batch of battles, one per pair of starting armies; return their end states.

    Parameters
    ----------
    attackers, defenders : int or array of int
        Starting armies of each battle, broadcast to one length (the number of battles).
    rules, stop_at, goal, cautious
        As for `riskstats.odds.battle.battle_odds`; one value for the whole batch.
    seed : int, optional
        Seed of the random streams; ``None`` draws fresh entropy.

    Returns
    -------
    attackers_left, defenders_left : int64 arrays, one entry per battle.

    Examples
    --------
    >>> a, d = resolve_battles([10, 3, 5], [5, 1, 7], seed=1)
    >>> bool(((a == 0) | (d == 0)).all())
    True
    """
    rules = rules or DiceRules()
    arrays = _battle_arrays(np.atleast_1d(attackers), np.atleast_1d(defenders))
    A, D = arrays
    validate_battle(int(A.min()), int(D.min()), stop_at, goal, False)
    seed = check_seed(seed)
    cut, adice, ddice, shift = _kernel_rules(rules, stop_at, cautious)
    out_a = np.empty_like(A)
    out_d = np.empty_like(D)
    states = streams(np.random.SeedSequence(seed), -(-A.size // CHUNK))
    _battle_ends(cut, adice, ddice, A, D, stop_at, goal, shift, CHUNK, states, out_a, out_d)
    return out_a, out_d


def simulate_battles(attackers, defenders, rules: DiceRules | None = None, *, trials: int | None = None,
                     seed: int | None = None, stop_at: int = 0, goal: int = 0, cautious: bool = False,
                     progress: Progress | None = None, balance=None) -> BattleSample:
    """Simulate battles to their end; the empirical counterpart of `riskstats.odds.battle.battle_odds`.

    Parameters
    ----------
    attackers, defenders : int or array of int
        Attackers (able to roll) and defenders. Ints: ``trials`` battles of that size, counted into
        a histogram as they run (memory does not grow with ``trials``). Arrays: one battle per pair
        (``trials`` must then be None or their length), pooled into one distribution; use
        `resolve_battles` for the per-battle end states.
    rules : DiceRules, optional
        The dice rule; standard by default.
    trials : int, optional
        Number of battles, at least 1: `DEFAULT_TRIALS` by default, the arrays' length for arrays.
    seed : int, optional
        Seed of the random streams; the same seed gives the same result on any number of threads.
        ``None`` draws fresh entropy, recorded in the result's ``seed``.
    stop_at, goal, cautious
        As for `riskstats.odds.battle.battle_odds`.
    progress : callable, optional
        ``progress(done, total)`` a few times a second, with the battles finished.
    balance : {None, "blitz"} or BalanceRules
        None: roll by roll (true random). ``"blitz"``: Balanced Blitz, each battle drawn whole from the
        balanced end-state distribution of `riskstats.odds.battle.battle_odds` (ints only, not arrays).

    Examples
    --------
    >>> s = simulate_battles(3, 2, trials=200_000, seed=1)
    >>> from riskstats.odds.battle import battle_odds
    >>> abs(s.p_win - battle_odds(3, 2).p_win) < 4 * s.standard_error
    True
    >>> list(s.outcomes.index.names)
    ['attackers_left', 'defenders_left']
    """
    rules = rules or DiceRules()
    balance = resolve_balance(balance)
    arrays = _battle_arrays(attackers, defenders)
    if arrays is not None:
        if balance is not None:
            raise RiskstatsError("balance needs one battle (attackers and defenders as ints), not arrays")
        return _simulate_batch(*arrays, rules, trials, seed, stop_at, goal, cautious, progress)
    attackers, defenders, stop_at, goal = validate_battle(attackers, defenders, stop_at, goal, False)
    trials = _check_trials(DEFAULT_TRIALS if trials is None else trials)
    seed = check_seed(seed)
    if balance is not None:
        return _simulate_balanced(attackers, defenders, rules, trials, seed, stop_at, goal, cautious, progress,
                                  balance)
    cut, adice, ddice, shift = _kernel_rules(rules, stop_at, cautious)
    K = rules.max_losses
    end_d = np.zeros((attackers + 1, K), dtype=np.int64)
    end_a = np.zeros((K, defenders + 1), dtype=np.int64)

    def run(sizes, states):
        wave_d = np.zeros((sizes.size, *end_d.shape), dtype=np.int32)
        wave_a = np.zeros((sizes.size, *end_a.shape), dtype=np.int32)
        _battle_counts(cut, adice, ddice, attackers, defenders, stop_at, goal, shift, sizes, states, wave_d, wave_a)
        np.add(end_d, wave_d.sum(axis=0), out=end_d)
        np.add(end_a, wave_a.sum(axis=0), out=end_a)

    seconds = _run_waves(trials, seed, end_d.size + end_a.size, run, progress, split=True)
    a_d, j_d = np.nonzero(end_d)
    j_a, d_a = np.nonzero(end_a)
    return BattleSample(
        attackers, defenders, rules, stop_at, goal, cautious, trials, seed, seconds,
        attackers_left=np.concatenate([a_d, stop_at - j_a]),
        defenders_left=np.concatenate([goal - j_d, d_a]),
        counts=np.concatenate([end_d[a_d, j_d], end_a[j_a, d_a]]),
    )


def _simulate_balanced(attackers, defenders, rules, trials, seed, stop_at, goal, cautious, progress,
                       balance) -> BattleSample:
    """Balanced Blitz battles, each drawn whole from the balanced distribution (trusted input)."""
    exact = battle_odds(attackers, defenders, rules, stop_at=stop_at, goal=goal, cautious=cautious, balance=balance)
    cut = pick_table(exact.p)
    counts = np.zeros(cut.size, dtype=np.int64)

    def run(sizes, states):
        wave = np.zeros((sizes.size, cut.size), dtype=np.int32)
        _pick_counts(cut, sizes, states, wave)
        np.add(counts, wave.sum(axis=0), out=counts)

    seconds = _run_waves(trials, seed, cut.size, run, progress, split=True)
    seen = counts > 0
    return BattleSample(attackers, defenders, rules, stop_at, goal, cautious, trials, seed, seconds,
                        attackers_left=exact.attackers_left[seen], defenders_left=exact.defenders_left[seen],
                        counts=counts[seen], balance=balance)


def _simulate_batch(A, D, rules, trials, seed, stop_at, goal, cautious, progress) -> BattleSample:
    validate_battle(int(A.min()), int(D.min()), stop_at, goal, False)
    if trials is not None and trials != A.size:
        raise RiskstatsError(f"trials must be None or the number of battles ({A.size}) with arrays, got {trials}")
    seed = check_seed(seed)
    start = time.perf_counter()
    out_a, out_d = resolve_battles(A, D, rules, seed=seed, stop_at=stop_at, goal=goal, cautious=cautious)
    seconds = time.perf_counter() - start
    if progress is not None:
        progress(A.size, A.size)
    ends, counts = np.unique(np.stack([out_a, out_d]), axis=1, return_counts=True)
    return BattleSample(A, D, rules, stop_at, goal, cautious, A.size, seed, seconds,
                        attackers_left=ends[0], defenders_left=ends[1], counts=counts)


@dataclass(frozen=True)
class ChainSample:
    """Simulated chains: ``counts[k, x]`` chains ended with k territories conquered and x armies left.

    The empirical counterpart of `riskstats.odds.chain.ChainOdds`, with the same ``distribution``,
    ``p_at_least``, ``p_all`` and ``outcomes`` (indexed by (conquered, armies_left), column ``p``).
    """

    attackers: int
    defenders: tuple[int, ...]
    leave: int
    stop_at: int
    trials: int
    seed: int
    seconds: float
    counts: np.ndarray = field(repr=False)

    @property
    def distribution(self) -> np.ndarray:
        """``distribution[k, x]``: frequency of exactly k conquered with x armies left."""
        return self.counts / self.trials

    @property
    def p_at_least(self) -> list[float]:
        """``p_at_least[k - 1]``: frequency of conquering at least k territories."""
        by_count = self.counts.sum(axis=1)
        return [float(by_count[k:].sum() / self.trials) for k in range(1, len(self.defenders) + 1)]

    @property
    def p_all(self) -> float:
        return float(self.counts[-1].sum() / self.trials)

    @property
    def expected_armies_left(self) -> float:
        return float(self.distribution.sum(axis=0) @ np.arange(self.counts.shape[1]))

    @property
    def outcomes(self):
        """DataFrame indexed by (conquered, armies_left), column ``p``: the states seen."""
        return chain_outcomes_frame(self.distribution)


def simulate_chain(attackers: int, defenders, rules=None, *, trials: int = DEFAULT_TRIALS, seed: int | None = None,
                   leave: int = 1, stop_at: int = 0, progress: Progress | None = None) -> ChainSample:
    """Simulate chains of conquests; the empirical counterpart of `riskstats.odds.chain.chain_odds`.

    Parameters are those of `riskstats.odds.chain.chain_odds` (rules: one or one per territory), plus
    ``trials``, ``seed`` and ``progress`` as for `simulate_battles`.

    Examples
    --------
    >>> s = simulate_chain(10, [3, 2], trials=100_000, seed=2)
    >>> from riskstats.odds.chain import chain_odds
    >>> bool(abs(s.p_all - chain_odds(10, [3, 2]).p_all) < 0.01)
    True
    """
    attackers, defenders, leave, stop_at = validate_chain(attackers, defenders, leave, stop_at)
    trials = _check_trials(trials)
    seed = check_seed(seed)
    per_territory = _rules_per_territory(rules, len(defenders))
    cut = np.stack([sampling_table(r) for r in per_territory])
    adice = np.array([r.attacker_dice for r in per_territory], dtype=np.int64)
    ddice = np.array([r.defender_dice for r in per_territory], dtype=np.int64)
    D = np.array(defenders, dtype=np.int64)
    counts = np.zeros((len(defenders) + 1, attackers + 1), dtype=np.int64)

    def run(sizes, states):
        wave = np.zeros((sizes.size, *counts.shape), dtype=np.int32)
        _chain_counts(cut, adice, ddice, attackers, D, leave, stop_at, sizes, states, wave)
        np.add(counts, wave.sum(axis=0), out=counts)

    seconds = _run_waves(trials, seed, counts.size, run, progress, split=True)
    return ChainSample(attackers, defenders, leave, stop_at, trials, seed, seconds, counts)


def roll_dice(rounds: int, attacker_dice: int | None = None, defender_dice: int | None = None,
              rules: DiceRules | None = None, *, seed: int | None = None):
    """Roll real dice: one row per round, each side's dice sorted high to low, and the losses.

    Parameters
    ----------
    rounds : int
        Number of rolls.
    attacker_dice, defender_dice : int, optional
        Dice each side rolls (default: the most the rules allow).
    rules : DiceRules, optional
        Sides, ties and the defender's modifier (applied to its highest die, clamped to the faces,
        then the defender's dice re-sorted).
    seed : int, optional
        As for `simulate_battles`.

    Returns
    -------
    DataFrame with columns ``attacker_1 .. attacker_na`` and ``defender_1 .. defender_nd`` (uint8,
    the dice as compared: highest first, the defender's modified), ``attacker_loses`` and
    ``defender_loses``.

    Examples
    --------
    >>> r = roll_dice(5, seed=3)
    >>> list(r.columns)
    ['attacker_1', 'attacker_2', 'attacker_3', 'defender_1', 'defender_2', 'attacker_loses', 'defender_loses']
    >>> bool((r.attacker_loses + r.defender_loses == 2).all())
    True
    """
    import pandas as pd

    rules = rules or DiceRules()
    rounds = _check_trials(rounds, "rounds")
    na = check_int("attacker dice", rules.attacker_dice if attacker_dice is None else attacker_dice,
                   1, rules.attacker_dice)
    nd = check_int("defender dice", rules.defender_dice if defender_dice is None else defender_dice,
                   1, rules.defender_dice)
    seed = check_seed(seed)
    adice = np.empty((rounds, na), dtype=np.uint8)
    ddice = np.empty((rounds, nd), dtype=np.uint8)
    alost = np.empty(rounds, dtype=np.uint8)
    states = streams(np.random.SeedSequence(seed), -(-rounds // CHUNK))
    _roll(na, nd, rules.attacker_sides, rules.defender_sides, die_threshold(rules.attacker_sides),
          die_threshold(rules.defender_sides), rules.ties == "defender", rules.defender_modifier, CHUNK,
          states, adice, ddice, alost)
    columns = {f"attacker_{i + 1}": adice[:, i] for i in range(na)}
    columns |= {f"defender_{i + 1}": ddice[:, i] for i in range(nd)}
    columns["attacker_loses"] = alost
    columns["defender_loses"] = (min(na, nd) - alost).astype(np.uint8)
    return pd.DataFrame(columns)
