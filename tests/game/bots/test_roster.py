"""The roster: a line-up compiles only the bots it seats, plays the same games as with every bot compiled in, and
reuses a larger roster that numba already holds."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from riskstats.game.bots import roster as rosters
from riskstats.game.bots.catalog import BUILT_IN, HUNTER_ID, RANDOM_ID, VALUE_ID, Lineup
from riskstats.game.bots.roster import FULL, SLOT_OF, SLOTS, full_rosters, roster, roster_for
from riskstats.game.loop import NO_HORIZON, _play
from riskstats.game.play import Game


def test_a_roster_seats_the_line_up_s_bots_and_a_look_ahead_seat_seats_all():
    with full_rosters(False):
        assert roster([RANDOM_ID, HUNTER_ID, -1]) == (True, None, None, None, None, None, True, None)
        assert roster([BUILT_IN["defensive"].id]) == (None,) * len(SLOTS)  # always compiled: no slot
        assert roster([RANDOM_ID, VALUE_ID]) == FULL
    with full_rosters():
        assert roster([RANDOM_ID]) == FULL


def test_every_built_in_bot_but_defensive_has_a_slot():
    assert {info.id for name, info in BUILT_IN.items() if name != "defensive"} == set(SLOT_OF)


@pytest.mark.parametrize("lineup", [["aggressive", "continent", "defensive", "random"], ["hunter", "random", "uniform"],
                                    ["mission", "capital", "defensive"]])
def test_a_line_up_plays_the_same_game_with_its_own_roster_as_with_every_bot(lineup):
    ids, params = Lineup.of(lineup).arrays(len(lineup))
    games = []
    for everything in (True, False):
        with full_rosters(everything):
            game = Game(len(lineup), seed=7, log=False)
            chosen = roster_for(_play, ids)
            assert (chosen == FULL) == everything
            assert _play(game.state, *game.context, ids, params, True, NO_HORIZON, NO_HORIZON, *chosen) == 0
            games.append(game)
    full, own = games
    assert full.over and np.array_equal(full.state.info, own.state.info)
    assert np.array_equal(full.state.armies, own.state.armies) and np.array_equal(full.state.owner, own.state.owner)


def test_a_larger_roster_numba_holds_is_reused(monkeypatch):
    """With no block in force, a line-up whose own roster is not compiled takes the smallest larger one that is."""
    own = (True, None, None, None, None, None, None, None)
    larger = (True, True, None, None, None, None, None, None)
    monkeypatch.setattr(rosters, "_CHOSEN", {})
    with full_rosters(None):
        import riskstats._numba as nb

        at = 10  # _play's first roster argument (with_random)
        monkeypatch.setattr(nb, "known_signatures", lambda kernel: [(None,) * at + FULL, (None,) * at + larger])
        assert roster_for(_play, [RANDOM_ID]) == larger
        monkeypatch.setattr(rosters, "_CHOSEN", {})
        monkeypatch.setattr(nb, "known_signatures", lambda kernel: [(None,) * at + own, (None,) * at + FULL])
        assert roster_for(_play, [RANDOM_ID]) == own
        monkeypatch.setattr(rosters, "_CHOSEN", {})
        monkeypatch.setattr(nb, "known_signatures", lambda kernel: [])
        assert roster_for(_play, [RANDOM_ID]) == own


COLD = """
import json, sys
from numba.core import event
from riskstats._numba import compile_listener
names = []
event.register("numba:compile", compile_listener(lambda f: names.append(f"{f.__module__}.{f.__qualname__}"),
                                                 lambda f: None))
from riskstats.game.play import Game
Game(3, seed=1, log=False).play(["random", "aggressive", "random"])
print(json.dumps(names))
"""


@pytest.mark.slow
def test_a_cold_game_compiles_none_of_the_bots_it_does_not_seat(tmp_path):
    """A first game of random and aggressive bots, from an empty numba cache, compiles no kernel of the hunter,
    the objective bots, the uniform bot or the search (their modules' kernels), and fewer kernels than a game
    loop with every bot (some 220 compiles)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", COLD], env=env, capture_output=True, text=True, check=True)
    names = json.loads(done.stdout.strip().splitlines()[-1])
    assert any(".random_bot." in n for n in names) and any(".aggressive." in n or ".common." in n for n in names)
    unseated = [n for n in names if any(f".{m}." in n for m in ("hunter", "objective", "uniform", "search"))]
    assert not unseated, unseated
    assert len(names) < 170


def test_every_kernel_and_call_takes_the_roster_flags_in_their_order():
    """Issue 53: the roster's flags bind by position, so every kernel that takes them (`_bot_move`, `_play`,
    `_look_ahead`) declares them in `FLAGS`' order, and every call spells them out in that order: a misordered name
    would play a seated bot as another."""
    import inspect
    import re
    from pathlib import Path

    from riskstats.game.bots.dispatch import _bot_move
    from riskstats.game.bots.roster import FLAGS
    from riskstats.game.drive import _look_ahead

    for kernel in (_bot_move, _play, _look_ahead):
        names = list(inspect.signature(getattr(kernel, "py_func", kernel)).parameters)
        assert [n for n in names if n.startswith("with_")] == list(FLAGS), kernel
        assert names[-len(FLAGS):] == list(FLAGS)  # last, so that a call may pass them as *roster
    root = Path(__file__).resolve().parents[3] / "riskstats"
    runs = [re.findall(r"with_\w+", m.group(0)) for p in root.rglob("*.py") if p.name != "roster.py"
            for m in re.finditer(r"with_\w+(?:,\s*with_\w+)+", p.read_text())]
    assert len(runs) >= 6 and all(run == list(FLAGS) for run in runs)
