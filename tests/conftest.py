"""Test settings shared by the whole suite: deterministic hypothesis runs; the suite's size, for the README."""
import pytest
from hypothesis import settings

settings.register_profile("riskstats", derandomize=True, deadline=None, max_examples=60, print_blob=True)
settings.load_profile("riskstats")

SUITE_SIZE = pytest.StashKey[int]()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session, config, items):
    """Keep the number of tests collected when this run collects the whole suite: no path, no file left out and no
    last-failed selection (``-m`` and ``-k`` deselect later, so they do not change it)."""
    o = config.option
    if not (o.file_or_dir or o.ignore or o.ignore_glob or o.deselect or getattr(o, "lf", False)):
        config.stash[SUITE_SIZE] = len(items)


@pytest.fixture
def suite_size(request) -> int | None:
    """The number of tests the whole suite collects, or None in a run that collects only a part of it."""
    return request.config.stash.get(SUITE_SIZE, None)
