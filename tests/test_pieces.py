"""Compiled work in short calls: the ranges cover every item once, in order, sized by the time a call
takes, and a KeyboardInterrupt between two calls ends the work."""
import time

import pytest

from riskstats import pieces
from riskstats.pieces import in_pieces


def ranges(n, **options):
    calls = []
    in_pieces(n, lambda start, stop: calls.append((start, stop)), **options)
    return calls


def test_the_ranges_cover_every_item_once_in_order():
    for n, first in [(1, 1), (10, 3), (1000, 7), (5, 100)]:
        calls = ranges(n, first=first)
        assert calls[0][0] == 0 and calls[-1][1] == n
        assert all(stop == start for (_, stop), (start, _) in zip(calls, calls[1:]))
        assert all(stop > start for start, stop in calls)
    assert ranges(0) == []


def test_fast_calls_grow_at_most_twofold_and_slow_ones_shrink():
    sizes = [stop - start for start, stop in ranges(1000, first=4, seconds=3600)]
    assert sizes[:4] == [4, 8, 16, 32]  # far under the time: doubling, no more

    def slow(start, stop):
        time.sleep(0.01 * (stop - start))  # 10 ms an item: 2 items fill 20 ms

    calls = []
    in_pieces(12, lambda start, stop: (calls.append((start, stop)), slow(start, stop)), first=6, seconds=0.02)
    sizes = [stop - start for start, stop in calls]
    assert sizes[0] == 6 and max(sizes[1:]) <= 3, sizes


def test_piece_seconds_is_read_at_each_call(monkeypatch):
    monkeypatch.setattr(pieces, "PIECE_SECONDS", 0.0)  # as short as can be: one item a call
    assert ranges(5, first=2) == [(0, 2), (2, 3), (3, 4), (4, 5)]


def test_progress_follows_each_call():
    seen = []
    in_pieces(10, lambda start, stop: None, first=3, seconds=3600, progress=lambda done, n: seen.append((done, n)))
    assert seen == [(3, 10), (9, 10), (10, 10)]


def test_an_interrupt_between_calls_ends_the_work():
    calls = []

    def run(start, stop):
        calls.append((start, stop))
        if len(calls) == 2:
            raise KeyboardInterrupt  # what Ctrl-C raises once the kernel of this call returns

    with pytest.raises(KeyboardInterrupt):
        in_pieces(100, run, first=1, seconds=3600)
    assert calls == [(0, 1), (1, 3)]


def test_it_returns_the_size_a_next_run_should_start_from():
    """A caller running the same work again and again (simulate's waves) starts each run where the last
    one's sizing got to, even when that run's last piece was cut short by its end."""
    assert in_pieces(10, lambda start, stop: None, first=3, seconds=3600) == 24
    assert in_pieces(0, lambda start, stop: None, first=5) == 5
