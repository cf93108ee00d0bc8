"""Macro actions: the id table, the exact mask (an id is masked if and only if its first engine move is legal), every
masked id expanding to engine moves that the step API replays legally to the same state, over seeded random games
of every variant; "once", "until decided", pending macros with a choosing defender, explicit chance, and the front."""
import numpy as np
import pytest

from riskstats.env.macro import MACRO_BLOCKS, P_NONE, P_ONCE, P_UNTIL, MacroEncoding, _on_front
from riskstats.errors import RiskstatsError
from riskstats.game.play import Game, Move
from riskstats.game.rules.options import GameRules
from riskstats.game.rules.state import ATTACK_MOVE, DEFEND_MOVE
from tests.variants import MAIN, cases

VARIANTS = {**MAIN, **cases("classic-5-house", "two-player-50")}
FIELDS = ("owner", "armies", "card_owner", "deck", "alive", "n_terr", "to_place", "info", "rng", "mission",
          "capital", "out")


def copy_game(game: Game) -> Game:
    """A copy of a game that shares its board, rules and context (its state arrays copied)."""
    c = Game.__new__(Game)
    c.__dict__.update(game.__dict__)
    c.state = game.state._replace(**{f: getattr(game.state, f).copy() for f in game.state._fields})
    return c


def same_state(a: Game, b: Game) -> bool:
    return all(np.array_equal(getattr(a.state, f), getattr(b.state, f)) for f in FIELDS)


def random_macro_walk(players, rules, defend, seed, decisions):
    """Yield (game, space, mask, pend) along a game played by uniformly random masked macro ids."""
    game = Game(players, rules, seed=seed, log=False)
    space = MacroEncoding.for_game(game, defend)
    pend = space.new_pending()
    rng = np.random.default_rng(seed)
    for _ in range(decisions):
        if game.over:
            break
        mask = space.mask(game)
        yield game, space, mask, pend
        space.play(game, int(rng.choice(np.flatnonzero(mask))), pend)


def check_expansion(game, space, action, pend):
    """Play ``action`` on a copy with its trace, replay the trace through `Game.step` (which checks every move) on
    another copy, and compare the two states; the trace."""
    played = copy_game(game)
    trace = np.zeros((4096, 5), np.int64)
    n = space.play(played, action, pend.copy(), trace)
    assert 1 <= n <= len(trace)
    replayed = copy_game(game)
    for move in trace[:n]:
        replayed.step(Move(*(int(x) for x in move)))  # raises on an illegal move
    assert same_state(played, replayed)
    return trace[:n]


@pytest.mark.parametrize("defend", ["auto", "choose"])
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_exact_mask_and_legal_expansions_over_a_random_game(name, defend):
    players, rules = VARIANTS[name]
    phases = set()
    rng = np.random.default_rng(5)
    for k, (game, space, mask, pend) in enumerate(random_macro_walk(players, rules, defend, seed=11,
                                                                   decisions=450)):
        phases.add(game.phase)
        ids = np.flatnonzero(mask)
        assert len(ids) > 0
        if game.phase in ("claim", "setup_place") and k % 10:
            continue
        # masked if and only if its first engine move is legal (every id at every third decision)
        for a in range(space.n) if k % 3 == 0 else ids:
            move = space.first_move(game, a)
            assert mask[a] == (move is not None and game.check(move) == ""), (a, space.describe(a), move)
        for a in rng.choice(ids, min(2, len(ids)), replace=False):  # and it expands to legal engine moves
            check_expansion(game, space, int(a), pend)
    assert {"attack", "occupy", "fortify", "reinforce"} <= phases, phases
    assert ("defend" in phases) == (defend == "choose")


def test_blocks_tile_the_ids():
    game = Game(4, seed=0, log=False)
    auto, choose = MacroEncoding.for_game(game, "auto"), MacroEncoding.for_game(game, "choose")
    T, E = 42, int(game.board.arrays.nbr_src.shape[0])
    assert E == 166 and auto.n == 3 * T + 2 + 3 * E + 3 == 629 and choose.n == 631
    for space in (auto, choose):
        blocks = space.blocks
        assert list(blocks) == list(MACRO_BLOCKS)
        starts = [b[0] for b in blocks.values()]
        assert starts == sorted(starts) and blocks["fortify"][1] == space.n
    assert auto.blocks["defend"][1] - auto.blocks["defend"][0] == 0
    assert choose.describe(choose.blocks["defend"][0] + 1) == "defend dice=2"
    assert auto.describe(auto.blocks["attack_once"][0]) == "attack 0->1 once"
    assert auto.describe(auto.blocks["occupy"][0] + 2) == "occupy least"
    with pytest.raises(RiskstatsError, match="defend must be one of choose, auto, got 'never'"):
        MacroEncoding.for_game(game, "never")


def attack_position(defend, seed=3):
    """A game in its attack phase with an attack open, its space and pending array."""
    for game, space, mask, pend in random_macro_walk(4, GameRules(), defend, seed, 5000):
        lo, hi = space.blocks["attack_until"]
        if game.phase == "attack" and mask[lo:hi].any() and game.turn > 8:
            return game, space, pend
    raise AssertionError("no attack reached")


def test_until_decided_rolls_until_the_border_is_decided_and_once_rolls_once():
    game, space, pend = attack_position("auto")
    e = int(np.flatnonzero(space.mask(game)[slice(*space.blocks["attack_until"])])[0])
    src, dst = int(space.src[e]), int(space.dst[e])
    p = game.player
    until = check_expansion(game, space, space.blocks["attack_until"][0] + e, pend)
    once = check_expansion(game, space, space.blocks["attack_once"][0] + e, pend)
    assert [m[0] for m in once] == [ATTACK_MOVE, DEFEND_MOVE]
    assert list(until[:, 0]) == [ATTACK_MOVE, DEFEND_MOVE] * (len(until) // 2)
    played = copy_game(game)
    space.play(played, space.blocks["attack_until"][0] + e, pend)
    assert pend[0] == P_NONE
    st = played.state
    assert played.over or st.owner[dst] == p or st.armies[src] == 1  # taken, or no attack left from src


def test_a_choosing_defender_answers_each_roll_of_a_pending_macro():
    game, space, pend = attack_position("choose")
    attacker = game.player
    e = int(np.flatnonzero(space.mask(game)[slice(*space.blocks["attack_until"])])[0])
    src, dst = int(space.src[e]), int(space.dst[e])
    space.play(game, space.blocks["attack_until"][0] + e, pend)
    assert game.phase == "defend" and game.pending_attack[:2] == (src, dst) and pend[0] == P_UNTIL
    rolls = 0
    while game.phase == "defend":
        assert game.player != attacker
        mask = space.mask(game)
        assert np.flatnonzero(mask).min() >= space.blocks["defend"][0]  # only the defender's dice
        space.play(game, int(np.flatnonzero(mask)[-1]), pend)
        rolls += 1
    st = game.state
    assert pend[0] == P_NONE and rolls >= 1
    assert game.over or st.owner[dst] == attacker or st.armies[src] == 1
    # "once": one roll, then the attacker decides again
    game, space, pend = attack_position("choose", seed=4)
    e = int(np.flatnonzero(space.mask(game)[slice(*space.blocks["attack_once"])])[0])
    space.play(game, space.blocks["attack_once"][0] + e, pend)
    assert pend[0] == P_ONCE and game.phase == "defend"
    space.play(game, int(np.flatnonzero(space.mask(game))[0]), pend)
    assert pend[0] == P_NONE and game.phase != "defend"


def test_explicit_chance_stops_before_each_roll():
    game, space, pend = attack_position("auto")
    e = int(np.flatnonzero(space.mask(game)[slice(*space.blocks["attack_until"])])[0])
    src, dst = int(space.src[e]), int(space.dst[e])
    p = game.player
    rng_before = game.state.rng.copy()
    dice = space.decide(game, space.blocks["attack_until"][0] + e, pend)
    rolls = 0
    while dice:
        assert game.phase == "defend" and pend[0] == P_UNTIL
        probs = np.array([float(x) for x in game.roll_outcomes(dice)])
        game.step(Move.defend(dice), outcome=int(np.flatnonzero(probs)[0]))  # the attacker's best roll
        rolls += 1
        dice = space.resume(game, pend)
    assert rolls >= 1 and pend[0] == P_NONE
    assert game.over or game.state.owner[dst] == p or game.state.armies[src] == 1
    np.testing.assert_array_equal(game.state.rng, rng_before)  # chance came from the caller, not the stream


def test_armies_go_to_the_front():
    walk = random_macro_walk(4, GameRules(), "auto", 7, 3000)
    seen = set()
    for game, space, mask, _pend in walk:
        st, B = game.state, game.board.arrays
        p = game.player
        if game.phase == "reinforce":
            placed = {int(a) // 3 for a in np.flatnonzero(mask)}
            assert all(_on_front(st, B, p, t) for t in placed)
            interior = [t for t in np.flatnonzero(st.owner == p) if not _on_front(st, B, p, t)]
            assert all(space.first_move(game, 3 * t) is None for t in interior)
            seen.add("reinforce" if interior else "no interior")
        elif game.phase == "fortify":
            lo, hi = space.blocks["fortify"]
            assert all(_on_front(st, B, p, space.dst[a - lo]) for a in np.flatnonzero(mask[lo:hi]) + lo)
        elif game.phase == "occupy":
            src, dst = int(st.info[10]), int(st.info[11])
            open_levels = np.flatnonzero(mask[slice(*space.blocks["occupy"])]).tolist()
            if _on_front(st, B, p, dst) and not _on_front(st, B, p, src):
                assert open_levels == [0]
                seen.add("occupy all")
            elif _on_front(st, B, p, src) and not _on_front(st, B, p, dst):
                assert open_levels == [2]
                seen.add("occupy least")
    assert {"reinforce", "occupy all", "occupy least"} <= seen, seen


def test_best_set_and_illegal_ids():
    game = Game(3, GameRules(escalation="fixed"), seed=2, log=False)
    space = MacroEncoding.for_game(game, "auto")
    with pytest.raises(RiskstatsError, match="not legal"):
        space.play(game, space.blocks["end"][0], space.new_pending())
    with pytest.raises(RiskstatsError, match="action"):
        space.play(game, space.n, space.new_pending())
    for game, space, mask, _pend in random_macro_walk(3, GameRules(escalation="fixed"), "auto", 9, 20_000):
        if mask[space.blocks["trade"][0]] and len(game.hand()) >= 4:
            break
    assert not game.over
    move = space.first_move(game, space.blocks["trade"][0])
    values = {}
    hand = game.hand()
    for i, a in enumerate(hand):  # every set of the hand and its value under fixed escalation
        for j, b in enumerate(hand[i + 1:], i + 1):
            for c in hand[j + 1:]:
                if game.check(Move.trade(a, b, c)) == "":
                    trial = copy_game(game)
                    before = trial.reserve
                    trial.step(Move.trade(a, b, c))
                    values[(a, b, c)] = trial.reserve - before
    assert values[(move.a, move.b, move.c)] == max(values.values())
