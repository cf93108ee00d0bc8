"""riskstats.game.rules.stream: the state's own random stream."""
import numpy as np
from scipy.stats import chisquare

from riskstats.game.rules.stream import _randint, _seed, _shuffle, _uniform


def stream(seed):
    rng = np.zeros(1, np.uint64)
    _seed(rng, seed)
    return rng


def test_a_seed_gives_one_stream_and_seeds_differ():
    a, b, c = stream(7), stream(7), stream(8)
    assert a[0] == b[0] != c[0] and a[0] != 0
    assert [_randint(a, 1000) for _ in range(20)] == [_randint(b, 1000) for _ in range(20)]
    assert stream(0)[0] != 0  # splitmix64 never leaves the xorshift state at 0


def test_draws_are_in_range_and_uniform():
    """60,000 draws of a die: every face in range, and the counts pass a chi-square test (fixed seed)."""
    rng = stream(3)
    faces = np.array([_randint(rng, 6) for _ in range(60_000)])
    assert faces.min() == 0 and faces.max() == 5
    assert chisquare(np.bincount(faces, minlength=6)).pvalue > 1e-3
    u = np.array([_uniform(rng) for _ in range(10_000)])
    assert 0.0 <= u.min() and u.max() < 1.0 and abs(u.mean() - 0.5) < 0.01  # 0.5 +- 3.5 standard errors


def test_a_shuffle_is_a_permutation_of_its_first_n_and_leaves_the_rest():
    rng = stream(5)
    firsts = []
    for _ in range(6_000):
        a = np.arange(10, dtype=np.int64)
        _shuffle(rng, a, 6)
        assert sorted(a[:6]) == list(range(6)) and a[6:].tolist() == [6, 7, 8, 9]
        firsts.append(a[0])
    assert chisquare(np.bincount(firsts, minlength=6)).pvalue > 1e-3  # every element leads equally often
