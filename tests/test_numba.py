"""Tests of riskstats._numba: the on-demand compiler and borrowed views."""
import numpy as np

from riskstats._numba import borrow, compiled, jit


@jit
def _borrowed_sums(arrays):
    a, (b, c) = borrow(arrays)
    a[0] = 7  # a view: writes reach the caller's array
    return a.sum(), b.sum(), c[1, 2], c.shape[0], c.shape[1]


def test_borrowed_views_see_the_same_memory_shape_and_strides():
    a = np.arange(4, dtype=np.int64)
    b = np.arange(10.0)[::3]  # strided
    c = np.arange(12, dtype=np.int64).reshape(3, 4)
    assert _borrowed_sums((a, (b, c))) == (7 + 1 + 2 + 3, 0.0 + 3 + 6 + 9, 6, 3, 4)
    assert a[0] == 7


def test_borrowing_leaves_reference_counts_alone():
    import sys

    a = np.zeros(3, np.int64)
    c = np.zeros((2, 3), np.int64)
    before = sys.getrefcount(a), sys.getrefcount(c)
    for _ in range(100):
        _borrowed_sums((a, (np.zeros(2), c)))
    assert (sys.getrefcount(a), sys.getrefcount(c)) == before


def _double(x):
    return 2 * x


def test_compiled_is_built_once_per_kernel():
    assert compiled(_double) is compiled(_double)
    assert compiled(_double)(21) == 42
