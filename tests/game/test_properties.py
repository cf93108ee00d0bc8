"""Property tests (hypothesis) of the step API and of positions, in every variant and rule option.

Random legal move sequences (uniform over what `Game.legal_mask` allows, mixed with built-in bots' moves so
that games get far: trades, eliminations, endings) never break an invariant
(`riskstats.game.invariants.check_invariants`); `to_json` / `from_json` round-trips at any point and the
copy plays on exactly as the original; mutated positions (fields removed, wrong types, extreme numbers,
extra list items, lists where numbers belong) raise only a one-line `RiskstatsError`. Derandomized, so CI
sees the same examples every run.
"""
import copy
import json
import random
from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from riskstats.errors import RiskstatsError
from riskstats.game.bots.catalog import BUILT_IN
from riskstats.game.invariants import check_invariants
from riskstats.game.play import Game, Move
from riskstats.game.rules.state import I_DECK_N, I_LOG_N, I_QUOTA
from riskstats.game.search import LOOKAHEAD_IDS
from tests.variants import cases

PROFILE = dict(deadline=None, derandomize=True, database=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

VARIANTS = cases("classic-3", "classic-6-deal", "classic-4-per-conquest-fixed", "classic-5-flat-adjacent", "two-player",
                 "two-player-interleaved", "two-player-50", "mission", "mission-3-choice-european-24", "capital-4",
                 "capital-5-short-deal")
BOTS = tuple(name for name, info in BUILT_IN.items() if info.id not in LOOKAHEAD_IDS)
"""Every built-in bot that moves through `Game.bot_move` without a look-ahead (the catalogue's, not a copy)."""


def random_move(game: Game, rng: random.Random) -> Move:
    """A move drawn from the legal-move masks: each phase's choices uniform (an attack phase ends with
    chance 1 / (attacks + 1), a fortify phase likewise)."""
    m = game.legal_mask()
    phase, info, armies = m["phase"], game.state.info, game.state.armies
    if phase == "capital":
        return Move.capital(int(rng.choice(np.flatnonzero(m["place"]))))
    if phase in ("claim", "setup_place", "reinforce"):
        most = 1 if phase == "claim" else game.reserve if phase == "reinforce" else int(info[I_QUOTA])
        return Move.place(int(rng.choice(np.flatnonzero(m["place"]))), rng.randint(1, max(most, 1)))
    if phase in ("trade", "elim_trade"):
        options = [Move.trade(*s) for s in m["sets"]] + ([Move.pass_()] if m["can_pass"] else [])
        return rng.choice(options)
    if phase == "attack":
        pairs = np.argwhere(m["attack"])
        if len(pairs) == 0 or rng.random() < 1 / (len(pairs) + 1):
            return Move.end_attack()
        a, b = pairs[rng.randrange(len(pairs))]
        return Move.attack(int(a), int(b), rng.randint(1, min(game.rules.dice.attacker_dice, int(armies[a]) - 1)))
    if phase == "defend":
        return Move.defend(rng.randint(*m["defend"]))
    if phase == "occupy":
        return Move.occupy(rng.randint(*m["occupy"]))
    pairs = np.argwhere(m["fortify"])
    if len(pairs) == 0 or rng.random() < 1 / (len(pairs) + 1):
        return Move.end_turn()
    a, b = pairs[rng.randrange(len(pairs))]
    return Move.fortify(int(a), int(b), rng.randint(1, int(armies[a]) - 1))


def play_random(game: Game, rng: random.Random, moves: int, bot_share: float, check_every: int = 0) -> Game:
    """Play up to ``moves`` legal moves: a built-in bot's with chance ``bot_share``, else `random_move`."""
    for i in range(moves):
        if game.over:
            break
        if rng.random() < bot_share:
            game.step(game.bot_move(rng.choice(BOTS)))
        else:
            game.step(random_move(game, rng))
        if check_every and i % check_every == 0:
            assert check_invariants(game) == [], (i, game.phase)
    return game


@settings(max_examples=40, **PROFILE)
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 2**32), moves=st.integers(1, 500),
       bot_share=st.sampled_from([0.0, 0.5, 0.9]))
def test_random_legal_moves_never_break_an_invariant(variant, seed, moves, bot_share):
    players, rules = VARIANTS[variant]
    game = Game(players, rules, seed=seed)
    play_random(game, random.Random(seed), moves, bot_share, check_every=23)
    assert check_invariants(game) == []


def _same_state(a: Game, b: Game) -> None:
    sa, sb = a.state, b.state
    for field in ("owner", "armies", "card_owner", "alive", "n_terr", "to_place", "rng", "mission", "capital", "out"):
        assert np.array_equal(getattr(sa, field), getattr(sb, field)), field
    n = int(sa.info[I_DECK_N])  # the draw pile; the rest of the deck array is free
    assert np.array_equal(sa.deck[:n], sb.deck[:n])
    keep = np.arange(len(sa.info)) != I_LOG_N  # the log starts afresh at a position
    assert np.array_equal(sa.info[keep], sb.info[keep])


@settings(max_examples=30, **PROFILE)
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 2**32), moves=st.integers(0, 400),
       bot_share=st.sampled_from([0.3, 0.9]))
def test_positions_round_trip_at_any_point_and_play_on_the_same(variant, seed, moves, bot_share):
    players, rules = VARIANTS[variant]
    game = play_random(Game(players, rules, seed=seed), random.Random(seed), moves, bot_share)
    again = Game.from_json(game.to_json())
    _same_state(game, again)
    assert again.to_json() == game.to_json()
    assert check_invariants(again) == []
    play_random(game, random.Random(seed + 1), 60, 0.5)  # the same choices (bots draw from the game's stream)
    play_random(again, random.Random(seed + 1), 60, 0.5)
    _same_state(game, again)


@cache
def base_positions() -> tuple[str, ...]:
    """Positions (JSON text) of every variant at several points: setup, early, mid-game, and an attack
    awaiting its defender's dice."""
    found = []
    for k, (players, rules) in enumerate(VARIANTS.values()):
        for moves in (3, 200, 1500):
            found.append(play_random(Game(players, rules, seed=k), random.Random(k), moves, 0.9).to_json())
        game = play_random(Game(players, rules, seed=k + 100), random.Random(k), 300, 0.9)
        while not game.over and game.phase != "defend":
            game.step(game.bot_move("aggressive"))
        found.append(game.to_json())
    return tuple(found)


WEIRD = st.sampled_from([None, True, False, "", "x", "wild", "Alaska", 1.5, float("nan"), float("inf"), -1, 0, 1,
                         7, 10**9 + 1, 10**30, 2**63, -(2**63), 2**64, [], [1], [[1]], [1, 2, 3], {}, {"a": 1},
                         ["Alaska"]]).map(copy.deepcopy)  # a fresh copy: a mutation may change it in place


def _mutate(data, pos) -> str:
    """Apply one mutation to the nested dict ``pos`` at a path drawn down its tree; say what was done."""
    path, node = [], pos
    while isinstance(node, (dict, list)) and len(node) and not (path and data.draw(st.booleans())):
        keys = sorted(node) if isinstance(node, dict) else list(range(len(node)))
        key = data.draw(st.sampled_from(keys))
        path.append(key)
        node = node[key]
    if not path:
        pos[data.draw(st.sampled_from(["extra", "format"]))] = data.draw(WEIRD)
        return "top"
    parent = pos
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    action = data.draw(st.sampled_from(["remove", "replace", "replace", "extra", "wrap"]))
    if action == "remove":
        del parent[key]
    elif action == "replace":
        parent[key] = data.draw(WEIRD)
    elif action == "extra" and isinstance(node, list):
        node.append(data.draw(WEIRD))
    elif action == "extra" and isinstance(node, dict):
        node["extra_key"] = data.draw(WEIRD)
    else:
        parent[key] = [node]
    return f"{action} {path}"


@settings(max_examples=400, **PROFILE)
@given(data=st.data(), which=st.integers(0, 10**6), mutations=st.integers(1, 3))
def test_mutated_positions_raise_only_a_one_line_riskstats_error(data, which, mutations):
    texts = base_positions()
    pos = json.loads(texts[which % len(texts)])
    done = [_mutate(data, pos) for _ in range(mutations)]
    try:
        Game.from_json(pos)
    except RiskstatsError as error:
        assert "\n" not in str(error) and len(str(error)) < 400, (done, str(error))
    except Exception as error:  # pragma: no cover - the failure this test looks for
        pytest.fail(f"{type(error).__name__}: {error} after {done}")


@pytest.mark.parametrize("value", [10**30, 2**63, -(2**63), 10**9 + 1, [3], "3", 2.0, True])
@pytest.mark.parametrize("where", ["armies", "owner", "setup_armies", "engine", "out", "reserve"])
def test_huge_or_wrong_numbers_are_one_line_errors(where, value):
    pos = json.loads(base_positions()[1])
    if where == "armies":
        pos["territories"]["Alaska"][1] = value
    elif where == "owner":
        pos["territories"]["Alaska"][0] = value
    elif where == "setup_armies":
        pos["setup_armies"][0] = value
    elif where == "engine":
        pos["engine"]["moves"] = value
    elif where == "out":
        pos["out"][0] = value
    else:
        pos["reserve"] = value
    with pytest.raises(RiskstatsError) as caught:
        Game.from_json(pos)
    assert "\n" not in str(caught.value)


def test_the_documented_maximum_is_accepted():
    from riskstats.game.position import MAX_NUMBER

    pos = json.loads(base_positions()[2])
    owned = next(name for name, (owner, _) in pos["territories"].items() if owner >= 0)
    pos["territories"][owned][1] = MAX_NUMBER
    assert int(Game.from_json(pos).state.armies.max()) == MAX_NUMBER
    pos["territories"][owned][1] = MAX_NUMBER + 1
    with pytest.raises(RiskstatsError, match="at most 1,000,000,000 armies"):
        Game.from_json(pos)
