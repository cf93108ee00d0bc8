"""The numba options every compiled kernel in riskstats uses, fixed in one place.

Kernels are private, take arrays and scalars, write into `out` arrays and never validate: the public
function that calls them does that. Set ``NUMBA_DISABLE_JIT=1`` to step through a kernel in Python.
"""
from numba import njit

jit = njit(cache=True, nogil=True)
"""Decorator for a serial kernel."""

parallel_jit = njit(cache=True, nogil=True, parallel=True)
"""Decorator for a kernel whose outer loop is a ``numba.prange``."""
