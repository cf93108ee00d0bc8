"""The legality kernels of riskstats.game.rules.legal agree with its own `_check`, and legality is read there alone."""
import ast
import re
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from riskstats.game.play import Game, Move
from riskstats.game.rules.legal import (
    LIMITS,
    LM_DEFEND,
    LM_FORCED,
    LM_PASS,
    OK,
    _attack_dice,
    _check,
    _defend_dice,
    _fortify_reach,
    _fortify_regions,
    _legal_masks,
    _may_fortify,
    _may_leave,
)
from riskstats.game.rules.options import GameRules
from riskstats.game.rules.state import ATTACK_MOVE, DEFEND_MOVE, FORTIFY_MOVE, I_PLAYER, TRADE_SET
from riskstats.odds.dice import DiceRules

PACKAGE = Path(__file__).resolve().parents[3] / "riskstats"


def positions(rules, seeds=(0, 1), every=7, moves=700):
    """Games of ``rules`` stopped every ``every`` moves of random play (4 players)."""
    for seed in seeds:
        game = Game(4, rules, seed=seed)
        for k in range(moves):
            if game.over:
                break
            if k % every == 0:
                yield game
            game.step(game.bot_move("random"))


@pytest.mark.parametrize("fortify", ["connected", "adjacent"])
def test_the_fortify_reach_is_the_checks_reach(fortify):
    seen = 0
    for game in positions(GameRules(fortify=fortify)):
        st, (B, R) = game.state, game.context[:2]
        p = int(st.info[I_PLAYER])
        T = st.owner.shape[0]
        region = np.empty(T, np.int64)
        _fortify_regions(st, B, R, p, region)
        reach = np.empty(T, np.int64)
        for a in np.flatnonzero(st.owner == p):
            _fortify_reach(st, B, R, p, a, reach)
            leaves = _may_leave(st.owner, st.armies, p, a)
            for b in range(T):
                legal = _check(st, B, R, FORTIFY_MOVE, a, b, 1, 0) == OK if game.phase == "fortify" else None
                pair = bool(_may_fortify(st, B, R, p, a, b, region))
                assert pair == (leaves and reach[b] == 1), (fortify, a, b)
                if legal is not None:
                    assert pair == legal, (fortify, a, b)
                    seen += legal
    assert seen > 0


def test_the_dice_bounds_are_the_checks_bounds():
    attacks = defences = 0
    for game in positions(GameRules(dice=DiceRules(defender_dice=3)), every=1, moves=400):
        st, (B, R) = game.state, game.context[:2]
        if game.phase == "attack":
            for a, b in np.argwhere(game.legal_mask()["attack"]):
                most = _attack_dice(st, R, a)
                assert [c for c in range(5) if _check(st, B, R, ATTACK_MOVE, a, b, c, 0) == OK] == \
                    list(range(1, most + 1))
                attacks += 1
        if game.phase == "defend":
            most = _defend_dice(st, R)
            assert [d for d in range(5) if _check(st, B, R, DEFEND_MOVE, d, 0, 0, 0) == OK] == list(range(1, most + 1))
            defences += 1
    assert attacks > 0 and defences > 0


def test_the_complete_masks_hold_every_valid_set_and_the_limits():
    phases = set()
    for game in positions(GameRules(), seeds=(2,), every=1, moves=1500):
        st, (B, R) = game.state, game.context[:2]
        p = int(st.info[I_PLAYER])
        T = st.owner.shape[0]
        hand = np.flatnonzero(st.card_owner == p)
        sets = np.zeros((len(hand) * (len(hand) - 1) * (len(hand) - 2) // 6, 3), np.int64)
        limits = np.zeros(len(LIMITS), np.int64)
        n = _legal_masks(st, B, R, np.zeros(T, bool), np.zeros((T, T), bool), np.zeros(T, np.int64),
                         np.zeros((T, T), bool), sets, limits)
        if game.phase in ("trade", "elim_trade"):
            valid = [s for s in combinations(hand.tolist(), 3) if _check(st, B, R, TRADE_SET, *s, 0) == OK]
            assert sets[:n].tolist() == [list(s) for s in valid]
        else:
            assert n == 0
        assert limits[LM_PASS] == (game.check(Move.pass_()) == "")
        assert limits[LM_DEFEND] == (_defend_dice(st, R) if game.phase == "defend" else 0)
        assert limits[LM_FORCED] in (0, 1)
        phases.add(game.phase)
    assert {"trade", "attack", "defend", "occupy", "fortify", "reinforce"} <= phases


def test_every_listed_move_is_legal_and_every_mask_entry_is_listed():
    for game in positions(GameRules(), seeds=(3,), every=3, moves=900):
        moves = game.legal_moves()
        assert moves and all(game.check(m) == "" for m in moves)
        mask = game.legal_mask()
        assert set(mask) == {"phase", "place", "attack", "fortify", "sets", "can_pass", "occupy", "defend",
                             "forced_trade"}
        if game.phase == "attack":
            assert {(m.a, m.b) for m in moves if m.name == "attack"} == {tuple(x) for x in np.argwhere(mask["attack"])}


# ---------------------------------------------------------------- legality is read in the rules wing alone
RULE_SLOTS_OF_LEGALITY = ("R_ADICE", "R_DDICE", "R_FORTIFY", "R_FORCED")
READ_ELSEWHERE = {
    # the hunter's chain odds read the most dice of a full roll (the dice rule, like riskstats.odds), not what
    # a move may roll now; its own file is another engineer's to edit
    ("game/bots/hunter/chain.py", "R_ADICE"), ("game/bots/hunter/chain.py", "R_DDICE"),
    # the invariant oracle is the deliberate second copy of the rules (docs/architecture.md)
    ("game/invariants.py", "R_FORCED"),
}


def _slot_reads(path: Path) -> set[str]:
    return set(re.findall(r"R\[(R_[A-Z_]+)\]", path.read_text()))


def test_the_legality_slots_are_read_in_legal_py_and_options_py_alone():
    """A rule option that changes what is legal is read by `rules/legal.py` (and defined in `rules/options.py`):
    the bots, the game API and the environments ask legal.py, so no other file re-decides it."""
    outside = set()
    for path in PACKAGE.rglob("*.py"):
        name = path.relative_to(PACKAGE).as_posix()
        if name in ("game/rules/legal.py", "game/rules/options.py"):
            continue
        for slot in _slot_reads(path) & set(RULE_SLOTS_OF_LEGALITY):
            if (name, slot) not in READ_ELSEWHERE:
                outside.add((name, slot))
    assert not outside


def test_the_dice_bounds_and_the_fortify_reach_are_written_once():
    """No file outside the rules wing writes min(most dice, armies) or branches on the fortify option."""
    bound = re.compile(r"min\((R\[R_[AD]DICE\]|adice, *(int\()?st\.armies"
                       r"|(self\.)?rules\.dice\.(attacker|defender)_dice)")
    fortify = re.compile(r"FORTIFY_(ADJACENT|CONNECTED)")
    found = []
    for path in PACKAGE.rglob("*.py"):
        name = path.relative_to(PACKAGE).as_posix()
        if name.startswith("game/rules/"):
            continue
        text = path.read_text()
        found += [(name, m.group(0)) for m in bound.finditer(text)]
        found += [(name, m.group(0)) for m in fortify.finditer(text)]
    assert not found


def test_legal_and_cards_sit_below_the_engine():
    """legal.py imports cards.py, options.py and state.py, never the engine; cards.py imports neither."""
    def imported(module):
        tree = ast.parse((PACKAGE / "game" / "rules" / f"{module}.py").read_text())
        return {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}

    assert "riskstats.game.rules.engine" not in imported("legal")
    assert {"riskstats.game.rules.engine", "riskstats.game.rules.legal"}.isdisjoint(imported("cards"))
    assert {"riskstats.game.rules.legal", "riskstats.game.rules.cards"} <= imported("engine")


# ---------------------------------------------------------------- the recipe: a toy legality option
TOY_OPTION = {
    # docs/architecture.md's recipe for a rule option that changes what is legal, followed for a toy option
    # ``no_fortify`` (no fortification at all): options.py (field, validation, table row, slot, vector) and
    # legal.py (every fortify reach reads it), nothing else. docs/rules.md would get its row too.
    "game/rules/options.py": [
        ("    capital_short: bool = False\n", "    capital_short: bool = False\n    no_fortify: bool = False\n"),
        ('for name in ("two_player_classic_50", "neutral_interleaved", "capital_short"):',
         'for name in ("two_player_classic_50", "neutral_interleaved", "capital_short", "no_fortify"):'),
        ('"capitals_needed", "cards_per_turn", "objective")',
         '"capitals_needed", "cards_per_turn", "objective", "no_fortify")'),
        (" R_CARDS_PER_TURN, R_OBJECTIVE) = range(len(RULE_SLOTS))",
         " R_CARDS_PER_TURN, R_OBJECTIVE, R_NO_FORTIFY) = range(len(RULE_SLOTS))"),
        ("        r[R_MAX_TURNS] = self.max_turns\n",
         "        r[R_MAX_TURNS] = self.max_turns\n        r[R_NO_FORTIFY] = self.no_fortify\n"),
        ("_ABOUT = {\n", '_ABOUT = {\n    "no_fortify": (bool, (False, True), "A toy: no fortification at all."),\n'),
    ],
    "game/rules/legal.py": [
        ("    R_NEUTRAL,\n)", "    R_NEUTRAL,\n    R_NO_FORTIFY,\n)"),
        ("    out[src] = 0\n", "    out[src] = 0\n    if R[R_NO_FORTIFY]:\n        out[:] = 0\n"),
        ("    if a == b or not _may_leave(st.owner, st.armies, p, a):",
         "    if a == b or R[R_NO_FORTIFY] or not _may_leave(st.owner, st.armies, p, a):"),
        ("    return _may_fortify_adjacent(st.owner, st.armies, p, t, u)\n",
         "    return R[R_NO_FORTIFY] == 0 and _may_fortify_adjacent(st.owner, st.armies, p, t, u)\n"),
        ("    if a == b or st.owner[a] != p", "    if a == b or R[R_NO_FORTIFY] or st.owner[a] != p"),
        ("    return n\n", "    if R[R_NO_FORTIFY]:\n        fortify[:, :] = False\n    return n\n"),
    ],
}

_TOY_CHECK = """if True:
    import numpy as np
    from riskstats.env.actions import ActionEncoding
    from riskstats.env.macro import MacroEncoding
    from riskstats.game.play import Game
    from riskstats.game.rules.options import RULE_OPTIONS, GameRules
    assert "no_fortify" in RULE_OPTIONS and GameRules.from_dict({"no_fortify": True}).no_fortify
    rules = GameRules(no_fortify=True)
    for bot in ("random", "uniform", "aggressive", "continent", "defensive", "hunter"):
        game = Game(4, rules, seed=3).play([bot])  # checked: a bot's illegal move raises
        assert "fortify" not in set(game.events().move), bot
    game, seen = Game(3, rules, seed=1), 0
    full, macro = ActionEncoding.for_game(game), MacroEncoding.for_game(game)
    for _ in range(3000):
        if game.over:
            break
        if game.phase == "fortify":
            seen += 1
            assert [m.name for m in game.legal_moves()] == ["end_turn"]
            assert not full.mask(game)[slice(*full.blocks["fortify"])].any()
            assert not macro.mask(game)[slice(*macro.blocks["fortify"])].any()
        game.step(game.bot_move("random"))
    print("ok", seen)
"""


@pytest.mark.slow  # compiles a copy of the package: every kernel afresh
def test_a_new_legality_option_touches_options_py_and_legal_py_alone(tmp_path):
    import shutil
    import subprocess
    import sys

    copy = tmp_path / "riskstats"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    for name, edits in TOY_OPTION.items():
        path = copy / name
        text = path.read_text()
        for old, new in edits:
            assert text.count(old) == 1, (name, old)
            text = text.replace(old, new)
        path.write_text(text)
    assert sorted(TOY_OPTION) == ["game/rules/legal.py", "game/rules/options.py"]
    done = subprocess.run([sys.executable, "-c", _TOY_CHECK], capture_output=True, text=True, cwd=tmp_path,
                          env={**__import__("os").environ, "PYTHONPATH": str(tmp_path)})
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split()[0] == "ok" and int(done.stdout.split()[1]) > 0
