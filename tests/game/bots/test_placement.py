"""The bots' placement parameters (riskstats.game.bots, registry.STYLE): fortify, reinforce and claim.

Their defaults play as before (the golden playthroughs and look-ahead fingerprints of test_play.py and
test_value_bot.py hold unchanged); each treatment plays legal moves and changes what the bot does; the value
bot imposes its own on every plan and on its setup (riskstats.game.search)."""
import copy

import numpy as np
import pytest

from riskstats.errors import RiskstatsError
from riskstats.game.bots.catalog import (
    AGGRESSIVE_STYLE,
    BUILT_IN,
    CONTINENT_STYLE,
    DEFENSIVE_STYLE,
    FRONTIER_AT,
    SEARCH_STYLE,
    STYLE,
    VALUE_STYLE,
    parse_bot,
)
from riskstats.game.play import Game

SPECS = ["aggressive", "continent-tuned", "defensive"]


def test_placement_parameters_are_appended_and_parse_by_name():
    after = {"value": ["model", "horizon", "opponents", "draft"], "search": ["draft", "base"]}
    for bot, at in (("aggressive", AGGRESSIVE_STYLE), ("continent", CONTINENT_STYLE),
                    ("defensive", DEFENSIVE_STYLE), ("value", VALUE_STYLE), ("search", SEARCH_STYLE)):
        names = [p.name for p in BUILT_IN[bot].params]
        start = names.index("fortify")
        assert names[start:start + 3] == list(STYLE), bot
        # only value's model, horizon and opponents (issue #30), the look-ahead bots' draft (#29) and search's base
        # (issue 54) follow
        assert names[start + 3:] == after.get(bot, []), bot
        assert at is None or start == at
        assert all(p.default == 0 and not p.tunable for p in BUILT_IN[bot].params[start:start + 3]), bot
    assert all(len(info.params) <= FRONTIER_AT for info in BUILT_IN.values())  # the frontier follows them
    spec = parse_bot("continent-tuned:fortify=none:reinforce=spread:claim=random")
    assert spec.values[CONTINENT_STYLE:CONTINENT_STYLE + 3] == (2.0, 1.0, 1.0)
    assert spec.label == "continent-tuned:fortify=none:reinforce=spread:claim=random"
    assert parse_bot("value:fortify=spread").values[VALUE_STYLE:VALUE_STYLE + 3] == (1.0, 0.0, 0.0)
    assert parse_bot("defensive:fortify=1") == parse_bot("defensive:fortify=spread")
    with pytest.raises(RiskstatsError, match="fortify of bot 'continent' must be one of border, spread, none"):
        parse_bot("continent:fortify=spreading")
    with pytest.raises(RiskstatsError, match="out of range"):
        parse_bot("aggressive:reinforce=2")
    for plain in ("mission", "capital", "random"):
        assert "fortify" not in {p.name for p in BUILT_IN[plain].params}


def test_defaults_written_out_play_the_same_games():
    from riskstats.runs.selfplay import play_games

    for bot in SPECS + ["value:rollouts=1:plans=4", "search:rollouts=2:plans=2"]:
        plain = play_games(12, 4, bot, seed=3)
        spelled = play_games(12, 4, f"{bot}:fortify=border:reinforce=stack:claim=greedy", seed=3)
        assert plain[["winner", "turns", "places"]].equals(spelled[["winner", "turns", "places"]]), bot


def _decisions(seed, phase, spec, other, turns=40):
    """Walk a game played by ``other`` in every seat and collect, at each decision in ``phase``, the
    moves ``spec`` and ``other`` would play there (neither draws from the random stream in these phases,
    but a claim does: each is asked on a copy of the game)."""
    game = Game(4, seed=seed)
    pairs = []
    while not game.over and game.turn < turns:
        if game.phase == phase:
            twin = copy.deepcopy(game)
            mine = twin.bot_move(spec)
            assert twin.check(mine) == "", (spec, mine)
            pairs.append((mine, game.bot_move(other), twin))
            game.step(pairs[-1][1])
            continue
        game.step(game.bot_move(other))
    return pairs


def test_spread_fortification_evens_out_the_borders():
    """fortify=spread sends the armies to the thinnest reachable border where border sends them to the most
    threatened; once there is no interior stack it still moves half a border stack's lead; none never moves."""
    differ = border_source = 0
    for seed in range(3):
        for spread, border, game in _decisions(seed, "fortify", "continent-tuned:fortify=spread", "continent-tuned"):
            if spread.name != "fortify":
                continue
            st = game.state
            src, dst, n = spread.a, spread.b, spread.c
            border_source += n < st.armies[src] - 1
            own = st.owner == st.owner[src]
            assert 1 <= n < st.armies[src] and own[dst]
            differ += spread != border
        none = _decisions(seed, "fortify", "continent-tuned:fortify=none", "continent-tuned", turns=12)
        assert all(mine.name == "end_turn" for mine, _, _ in none)
    assert differ > 0 and border_source > 0


def test_spread_reinforcement_places_army_by_army_on_the_most_threatened_territory():
    from riskstats.game.bots.common import _most_threatened

    moves = 0
    for spec in SPECS:
        for spread, stack, game in _decisions(1, "reinforce", f"{spec}:reinforce=spread", spec, turns=16):
            st = game.state
            assert spread.name == "place" and spread.b == 1
            assert spread.a == _most_threatened(st, game.board.arrays, game.context.R, game.player)
            assert stack.b == game.reserve  # the default stacks the whole reserve
            moves += 1
    assert moves > 10


def test_random_claims_are_legal_and_differ_from_the_claim_rule():
    claims = []
    for spec in SPECS:
        claims += _decisions(2, "claim", f"{spec}:claim=random", spec, turns=1)
    assert len(claims) > 100 and all(mine.name == "place" for mine, _, _ in claims)
    assert sum(mine != rule for mine, rule, _ in claims) > len(claims) / 2


def test_whole_games_with_treatments_keep_every_invariant():
    from riskstats.game.invariants import sweep

    lineup = ("continent-tuned:fortify=spread,aggressive:reinforce=spread:fortify=none,defensive:claim=random,"
              "value:fortify=spread:reinforce=spread")
    table = sweep(8, 4, lineup, seed=5)
    assert table.violations.eq("").all() and (table.winner >= 0).all()


def test_the_value_bot_imposes_its_placement_on_every_plan_and_its_setup():
    from riskstats.game.bots.catalog import SEARCH_ID, VALUE_ID
    from riskstats.game.search import _BASE_STYLE, _PLAN_STYLE, PLAN_LIST, _plan_bot, _style_override

    for bot, spec in ((VALUE_ID, "value"), (SEARCH_ID, "search")):
        params = parse_bot(f"{spec}:fortify=none:claim=random").vector()
        assert tuple(_style_override(bot, params)) == (2.0, 0.0, 1.0)
        assert tuple(_style_override(bot, parse_bot(spec).vector())) == (0.0, 0.0, 0.0)
        out = np.zeros_like(params)
        for k in [-1, *range(len(PLAN_LIST))]:
            _plan_bot(k, bot, params, out)
            at = _BASE_STYLE[0] if k < 0 else _PLAN_STYLE[k]
            assert out[at].tolist() == [2.0, 0.0, 1.0], (spec, k)
    game = Game(4, seed=8).play(["value:fortify=none", "value"])
    events = game.events()
    moves = events[events.move == "fortify"]
    assert len(moves) > 0 and not (moves.player % 2 == 0).any()  # seats 0 and 2 never fortify
