"""Test settings shared by the whole suite: deterministic hypothesis runs; every game kernel compiled once for all
bots (`riskstats.game.bots.roster.full_rosters`), not once for each line-up a test seats; the suite's size, for the
README."""
import pytest
from hypothesis import settings

from riskstats.game.bots.roster import full_rosters

settings.register_profile("riskstats", derandomize=True, deadline=None, max_examples=60, print_blob=True)
settings.load_profile("riskstats")

SUITE_SIZE = pytest.StashKey[int]()


@pytest.fixture(autouse=True)
def one_compile_for_every_line_up():
    """The game kernels compiled for the full roster: a line-up's own roster would compile them again for each
    new set of bots a test seats (tests/game/bots/test_roster.py checks the line-ups' own rosters). Set for each
    test and undone after it, so that the package's doctests, which this file does not reach, see the default."""
    with full_rosters():
        yield


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


@pytest.fixture
def judged_by_top(monkeypatch):
    """The findings judged by the former tier set ``top`` (the two searches), whose labels the rows of the judging
    mechanics' tests carry: every module's binding of the judging set is patched for the test, and undone after it."""
    from riskstats.runs import tiers
    from riskstats.stats import robustness, verdicts

    top = tiers.TIER_SETS["top"]
    former = tuple(t for name, entries in tiers.TIER_SETS.items() if name != "top" for t in entries)
    context = (*former, *robustness.CONTEXT[len(robustness.FORMER):])
    for module, name, value in ((tiers, "JUDGING", "top"), (tiers, "TOP_TIER", top), (robustness, "TOP_TIER", top),
                                (robustness, "FORMER", former), (robustness, "CONTEXT", context),
                                (robustness, "GROUPS", (*top, *context)), (verdicts, "TOP_TIER", top),
                                (verdicts, "TIER_TABLES", tiers.LADDERS["top"])):
        monkeypatch.setattr(module, name, value)
    yield top
