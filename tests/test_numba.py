"""Tests of riskstats._numba: the on-demand compiler and borrowed views."""
import numpy as np

from riskstats._numba import borrow, compiled, jit, lowest_bit, popcount


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


def test_a_new_cache_folder_removes_only_stale_riskstats_siblings(tmp_path):
    import os

    from riskstats._numba import STALE_AFTER, _adopt_cache

    now = 1_000_000_000.0
    folders = {"stale": "riskstats-00000000000000aa", "in_use": "riskstats-00000000000000bb",
               "other_package": "somepackage-00000000000000cc", "odd_name": "riskstats-notadigest"}
    for name in folders.values():
        (tmp_path / name).mkdir()
        (tmp_path / name / "kernel.nbi").write_text("x")
        os.utime(tmp_path / name, (now - 2 * STALE_AFTER,) * 2)
    os.utime(tmp_path / folders["in_use"], (now - STALE_AFTER / 2,) * 2)  # a process of that version started
    current = tmp_path / "riskstats-00000000000000dd"
    _adopt_cache(str(current), now)
    assert current.is_dir()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [current.name] + [v for k, v in folders.items() if k != "stale"])
    # an existing folder is only marked as used, its siblings are left
    os.utime(current, (now - 2 * STALE_AFTER,) * 2)
    _adopt_cache(str(tmp_path / folders["in_use"]), now + STALE_AFTER)
    assert current.is_dir() and os.stat(tmp_path / folders["in_use"]).st_mtime == now + STALE_AFTER
    _adopt_cache(str(tmp_path / "missing" / "riskstats-00000000000000ee"), now)  # a new base: no error


@jit
def _bit_facts(x):
    return popcount(x), lowest_bit(x)


def test_popcount_and_lowest_bit_match_python():
    rng = np.random.default_rng(5)
    values = [1, 2, 3, 0b1011000, 2**31, 2**32 - 1, 2**62 + 2**40] + rng.integers(1, 2**62, 200).tolist()
    for x in values:
        assert _bit_facts(np.int64(x)) == (bin(x).count("1"), (x & -x).bit_length() - 1), x
    assert _bit_facts(np.int64(0))[0] == 0
