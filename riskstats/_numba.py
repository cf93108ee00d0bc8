"""The numba options every compiled kernel in riskstats uses, fixed in one place.

Kernels are private, take arrays and scalars, write into `out` arrays and never validate: the public
function that calls them does that. Set ``NUMBA_DISABLE_JIT=1`` to step through a kernel in Python.

`jit` and `parallel_jit` decorate kernels compiled when first called. `compiled` compiles a plain
kernel function on demand: the exact engine keeps its kernels as plain functions so that one body
serves float64 (compiled) and `fractions.Fraction` (interpreted) arithmetic, and so that a small
odds lookup never pays numba's start-up.
"""
from functools import cache

from numba import njit

jit = njit(cache=True, nogil=True)
"""Decorator for a serial kernel."""

parallel_jit = njit(cache=True, nogil=True, parallel=True)
"""Decorator for a kernel whose outer loop is a ``numba.prange``."""


@cache
def compiled(kernel):
    """The compiled form of a plain kernel function, built (or loaded from the cache) once."""
    return jit(kernel)
