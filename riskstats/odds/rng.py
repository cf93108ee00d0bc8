"""Random streams for riskstats' compiled kernels: xoshiro256** seeded through `numpy.random.SeedSequence`.

A stream's state is four uint64 words, never all zero; a kernel keeps it in a ``uint64[4]`` row
(``states[c]`` for chunk ``c``) or, in a hot loop, in four local variables threaded through `_next`.
`streams` derives independent states from one seed with ``SeedSequence(seed).spawn``, one per chunk
of work (never per thread), so a result does not depend on how many threads ran it.

This module owns the generator and its seeding; what is drawn with it (a roll, a die, a battle)
belongs to `riskstats.odds.simulate`.
"""
from __future__ import annotations

import numpy as np

from riskstats._numba import jit
from riskstats.errors import check_int

_5 = np.uint64(5)
_9 = np.uint64(9)
_11 = np.uint64(11)
_17 = np.uint64(17)
_32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)

BITS53 = 1 << 53
"""`_next`'s output shifted right by 11 is uniform on 0 .. 2**53 - 1."""


@jit
def _rotl(x, k):  # pragma: no cover - compiled
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@jit
def _next(s0, s1, s2, s3):  # pragma: no cover - compiled
    """One xoshiro256** step on a state held in locals: returns ``(output, s0, s1, s2, s3)``."""
    out = _rotl(s1 * _5, 7) * _9
    t = s1 << _17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return out, s0, s1, s2, s3


@jit
def _die(sides, reject_below, s0, s1, s2, s3):  # pragma: no cover - compiled
    """A fair face 1..sides from the high 32 bits of one output, by Lemire's multiply-and-reject.

    ``reject_below`` is ``2**32 % sides`` (`die_threshold`); a draw is rejected with probability
    below ``sides / 2**32``, so every face has probability exactly ``1 / sides``: no modulo bias.
    Returns ``(face, s0, s1, s2, s3)``.
    """
    while True:
        r, s0, s1, s2, s3 = _next(s0, s1, s2, s3)
        m = (r >> _32) * np.uint64(sides)
        if (m & _LOW32) >= reject_below:
            return np.int64(m >> _32) + 1, s0, s1, s2, s3


def die_threshold(sides: int) -> np.uint64:
    """`_die`'s rejection threshold for a die with ``sides`` faces: ``2**32 % sides``."""
    return np.uint64((1 << 32) % sides)


def check_seed(seed) -> int:
    """A seed is a non-negative whole number; ``None`` draws fresh entropy (returned, so it can be reused)."""
    if seed is None:
        return int(np.random.SeedSequence().entropy)
    return check_int("seed", seed, 0)


def streams(parent: np.random.SeedSequence, n: int) -> np.ndarray:
    """The states of the next ``n`` independent streams spawned from ``parent``: uint64 array (n, 4).

    Successive calls continue the same sequence of children, so drawing the streams of a long run
    wave by wave gives exactly the states a single ``streams(SeedSequence(seed), total)`` would.

    Examples
    --------
    >>> a = streams(np.random.SeedSequence(7), 3)
    >>> parent = np.random.SeedSequence(7)
    >>> b = np.concatenate([streams(parent, 1), streams(parent, 2)])
    >>> a.shape, bool((a == b).all())
    ((3, 4), True)
    """
    states = np.empty((n, 4), dtype=np.uint64)
    for i, child in enumerate(parent.spawn(n)):
        states[i] = child.generate_state(4, dtype=np.uint64)
        if not states[i].any():  # the one state xoshiro cannot leave; odds 2**-256
            states[i, 0] = 1
    return states
