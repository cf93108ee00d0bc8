"""The state's own random stream: xorshift64* seeded through splitmix64, and the draws the rules make from it.

This module owns `_seed`, `_bits53`, `_uniform`, `_randint` and `_shuffle`. Every random choice of a game (the
deal, the dice, the card draws, the missions) comes from the state's ``rng`` through these, so a game is a
function of its seed, on any thread. It does not own the dice rule's sampling table (`riskstats.odds.simulate`)
or the Monte Carlo streams of the odds engine (`riskstats.odds.rng`).
"""
from __future__ import annotations

import numpy as np

from riskstats._numba import jit, lean_jit

_SPLIT1 = np.uint64(0x9E3779B97F4A7C15)

_SPLIT2 = np.uint64(0xBF58476D1CE4E5B9)

_SPLIT3 = np.uint64(0x94D049BB133111EB)

_XMUL = np.uint64(2685821657736338717)

@jit
def _seed(rng, seed):  # pragma: no cover - compiled
    """Seed the xorshift64* stream from any uint64 through splitmix64 (never 0)."""
    z = np.uint64(seed) + _SPLIT1
    z = (z ^ (z >> np.uint64(30))) * _SPLIT2
    z = (z ^ (z >> np.uint64(27))) * _SPLIT3
    z = z ^ (z >> np.uint64(31))
    rng[0] = z if z != np.uint64(0) else _SPLIT1


def splitmix64(x: int) -> int:
    """The word `_seed` seeds a stream with from ``x`` (0 .. 2**64 - 1): splitmix64's output, a hash that maps
    consecutive integers to unrelated 64-bit words (the outside driver seeds Domination's games with it)."""
    rng = np.zeros(1, np.uint64)
    _seed(rng, np.uint64(x))
    return int(rng[0])


@lean_jit
def _bits53(rng):  # pragma: no cover - compiled
    """An integer uniform on 0 .. 2**53 - 1 from the stream."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return (x * _XMUL) >> np.uint64(11)


@lean_jit
def _uniform(rng):  # pragma: no cover - compiled
    """A float in [0, 1) from the stream."""
    return np.float64(_bits53(rng)) * (1.0 / 9007199254740992.0)


@lean_jit
def _randint(rng, n):  # pragma: no cover - compiled
    """An int in [0, n)."""
    return min(int(_uniform(rng) * n), n - 1)


@lean_jit
def _shuffle(rng, a, n):  # pragma: no cover - compiled
    """Fisher-Yates shuffle of a[0:n] in place."""
    for i in range(n - 1, 0, -1):
        j = _randint(rng, i + 1)
        a[i], a[j] = a[j], a[i]
