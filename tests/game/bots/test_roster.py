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


def test_a_seat_its_roster_leaves_out_moves_illegally_and_a_checked_game_stops():
    """A wrong roster (the hunter seated, its slot None) is caught by ``check``, not played as another bot."""
    from riskstats.game.rules.legal import E_KIND, ERRORS

    ids, params = Lineup.of(["random", "hunter"]).arrays(2)
    with full_rosters(False):
        wrong = roster([RANDOM_ID])
        game = Game(2, seed=3, log=False)
        assert _play(game.state, *game.context, ids, params, True, NO_HORIZON, NO_HORIZON, *wrong) == E_KIND
    assert ERRORS[E_KIND] == "no such kind of move" and not game.over


KNOWN = """
import sys
sys.path.insert(0, sys.argv[1])
from numba import njit
from riskstats._numba import known_signatures
from toy_kernel import twice
if sys.argv[2] == "compile":
    twice(3, None)
print(sorted(str(t) for sig in known_signatures(twice) for t in sig))
"""


def test_known_signatures_reads_the_signatures_numba_compiled_and_cached_on_disk(tmp_path):
    """`known_signatures` against numba itself: none before a compile, the compiled one in that process, and the
    one on disk in a fresh process that compiled nothing (what `roster_for` reuses)."""
    (tmp_path / "toy_kernel.py").write_text(
        "from numba import njit\n\n\n@njit(cache=True)\ndef twice(x, flag):\n"
        "    return 2 * x if flag is None else x\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}

    def run(mode):
        done = subprocess.run([sys.executable, "-c", KNOWN, str(tmp_path), mode], env=env, capture_output=True,
                              text=True, check=True)
        return done.stdout.strip()

    assert run("read") == "[]"
    assert run("compile") == "['int64', 'none']"
    assert run("read") == "['int64', 'none']"


TOY_MODULE = '''"""A toy bot (a test adds it to a copy of the package): claims at random, puts its reserve on its
most threatened border, trades when forced, never attacks and never fortifies."""
from riskstats._numba import inline_jit
from riskstats.game.bots.catalog import BUILT_IN
from riskstats.game.bots.common import _most_threatened, _placement, _random_claim, _trade_timed
from riskstats.game.rules.state import ATTACK, CLAIM, ELIM_TRADE, END_ATTACK, END_TURN, I_PHASE, I_PLAYER, \\
    REINFORCE, SETUP_PLACE, TRADE

PLAYS = ("toy",)
TOY_ID = BUILT_IN["toy"].id


@inline_jit
def _toy_bot(st, B, R, V, params):
    phase = st.info[I_PHASE]
    if phase == CLAIM:
        return _random_claim(st)
    if phase == SETUP_PLACE or phase == REINFORCE:
        return _placement(st, B, R, _most_threatened(st, B, R, st.info[I_PLAYER]), 0.0)
    if phase == TRADE or phase == ELIM_TRADE:
        return _trade_timed(st, B, R, 5.0)
    if phase == ATTACK:
        return END_ATTACK, 0, 0, 0, 0
    return END_TURN, 0, 0, 0, 0
'''
def _flagged(n):
    return "with_hunter, with_search", "with_hunter, with_search, with_toy", n


TOY_BOT = {
    "game/bots/toy.py": [(None, TOY_MODULE, 1)],
    "game/bots/catalog.py": [("tunable=False)),\n    ),\n}\n",
                              "tunable=False)),\n    ),\n    \"toy\": BotInfo(10, \"A toy.\", ()),\n}\n", 1)],
    "game/bots/roster.py": [('"uniform", "hunter", "search")', '"uniform", "hunter", "search", "toy")', 1)],
    "game/bots/dispatch.py": [_flagged(2), (
        "    if bot == DEFENSIVE_ID:",
        "    if bot == TOY_ID and with_toy is not None:\n        return _toy_bot(st, B, R, V, params)\n"
        "    if bot == DEFENSIVE_ID:", 1), (
        "from riskstats.game.bots.uniform import _uniform_bot\n",
        "from riskstats.game.bots.uniform import _uniform_bot\n"
        "from riskstats.game.bots.toy import TOY_ID, _toy_bot\n", 1)],
    "game/loop.py": [_flagged(3)],
    "game/drive.py": [_flagged(2)],
}
"""Issue 53: every edit a new bot makes, file by file: (text, its replacement, how often; None: a new file).
numba prunes a bot's branch only on a kernel's own arguments, so the roster's flags are spelled out in the game
loop (`loop._play`) and the look-ahead (`drive._look_ahead`) as well as in the dispatch: the bot's own module and
five library files, in two folders."""

_TOY_CHECK = """
from riskstats.game.bots.catalog import CATALOG
from riskstats.game.play import Game
assert "toy" in CATALOG
game = Game(3, seed=2).play(["toy", "random", "toy"])  # checked: an illegal move or an unseated toy raises
moves = set(game.events()[lambda e: e.player != 1].move)
assert "attack" not in moves and "fortify" not in moves, moves
print("ok", game.state.info[2])
"""


@pytest.mark.slow  # compiles a copy of the package (only the toy and the random bot's game loop)
def test_a_new_bot_touches_its_module_and_five_library_files(tmp_path):
    import shutil
    from pathlib import Path

    package = Path(rosters.__file__).resolve().parents[2]
    copy = tmp_path / "riskstats"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    for name, edits in TOY_BOT.items():
        path = copy / name
        text = "" if edits[0][0] is None else path.read_text()
        for old, new, count in edits:
            assert old is None or text.count(old) == count, (name, old)
            text = new if old is None else text.replace(old, new)
        path.write_text(text)
    assert len(TOY_BOT) == 6 and {Path(n).parent.as_posix() for n in TOY_BOT} == {"game/bots", "game"}
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", _TOY_CHECK], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split()[0] == "ok" and int(done.stdout.split()[1]) > 0
