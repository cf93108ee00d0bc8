"""The value bot and the search on the fitted value: legal, reproducible, blind to what they cannot see."""
import numba
import numpy as np
import pandas as pd
import pytest

from riskstats.errors import RiskstatsError
from riskstats.game.bots.catalog import BOTS, parse_bot
from riskstats.game.play import Game, play_game
from riskstats.game.rules.options import GameRules
from riskstats.game.rules.state import M_CARD, M_KIND
from riskstats.game.search import search_plans
from riskstats.intervals import wilson_interval
from riskstats.runs.selfplay import play_games
from tests.game.test_search import copy, permute_unseen_cards, turn_start, wins_of
from tests.variants import MAIN

TWO = GameRules(variant="two-player")
VARIANTS = [MAIN[v] for v in ("two-player", "classic", "mission", "capital")]
MODEL_SEARCH = "search:rollouts=3:horizon=1:plans=4:value=model"
STRONG_SEARCH = "search:rollouts=3:horizon=1:plans=4:value=strong"


def test_the_value_bot_and_the_model_search_are_in_the_catalogue():
    assert "value" in BOTS
    spec = parse_bot("value:rollouts=3")
    assert spec.label == "value:rollouts=3" and spec.values[0] == 3.0
    search = parse_bot("search:value=model")
    assert search.label == "search:value=model" and search.values[3] == 1.0
    assert parse_bot("search").values[3] == 0.0 and parse_bot("search:value=formula").label == "search:value=formula"
    assert parse_bot("search:value=1").label == "search:value=model"
    assert parse_bot("search:value=strong").values[3] == 2.0 and parse_bot("value:model=strong").values[9] == 1.0
    for bad, words in (("search:value=fitted", "must be one of formula, model, strong"),
                       ("value:model=formula", "must be one of model, strong"), ("value:plans=9", "out of range"),
                       ("value:horizon=21", "out of range")):
        with pytest.raises(RiskstatsError, match=words):
            parse_bot(bad)


@pytest.mark.parametrize("players, rules", VARIANTS)
@pytest.mark.parametrize("bot", ["value", "value:rollouts=1:plans=1", MODEL_SEARCH, STRONG_SEARCH,
                                 "value:model=strong"])
def test_plays_only_legal_moves(players, rules, bot):
    """Compiled play checks every move (Game.play)."""
    for seed in range(2):
        game = play_game(players, [bot, "continent-tuned", "aggressive"][:players], rules, seed=seed)
        assert game.over and (game.winner >= 0) != game.truncated


def test_step_by_step_equals_the_compiled_loop():
    fast = play_game(2, ["value", "continent-tuned"], TWO, seed=5)
    slow = Game(2, TWO, seed=5)
    slow.play(["value", "continent-tuned"], max_moves=10**6)
    pd.testing.assert_frame_equal(fast.events(), slow.events())


@pytest.mark.parametrize("bot, players", [("value", 4), (MODEL_SEARCH, 2), (STRONG_SEARCH, 2),
                                          ("value:model=strong", 4)])
def test_same_seed_same_games_whatever_the_threads(bot, players):
    rules = TWO if players == 2 else GameRules()
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = play_games(6, players, [bot, "continent-tuned"], rules=rules, seed=3)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = play_games(6, players, [bot, "continent-tuned"], rules=rules, seed=3)
    finally:
        numba.set_num_threads(threads)
    pd.testing.assert_frame_equal(one, two)


@pytest.mark.parametrize("bot", ["value:rollouts=3", MODEL_SEARCH, STRONG_SEARCH, "value:rollouts=3:model=strong"])
@pytest.mark.parametrize("players, rules, seed, turns", [(4, GameRules(), 2, 21), (2, TWO, 7, 11),
                                                         (4, GameRules(variant="mission"), 4, 13)])
def test_choices_ignore_what_the_bot_cannot_see(bot, players, rules, seed, turns):
    """Other hands, the draw pile's order, other missions and the random stream changed: the same scores,
    the same plan, the same move. A visible change (armies) changes the scores."""
    rng = np.random.default_rng(seed)
    game = turn_start(players, rules, seed, turns)
    p = game.player
    table = search_plans(game, bot)
    move = copy(game).bot_move(bot)
    hidden = copy(game)
    assert permute_unseen_cards(hidden, rng)
    hidden.state.rng[0] ^= np.uint64(0x1234567)
    if rules.variant == "mission":
        a, b = [q for q in range(players) if q != p][:2]
        rows = hidden.state.mission
        rows[[a, b]] = rows[[b, a]]
        assert rows[a, M_CARD] != game.state.mission[a, M_CARD] or rows[a, M_KIND] != game.state.mission[a, M_KIND]
    pd.testing.assert_frame_equal(search_plans(hidden, bot), table)
    assert hidden.bot_move(bot) == move
    seen = copy(game)
    seen.state.armies[np.flatnonzero(seen.state.owner == p)[0]] += 3
    assert not search_plans(seen, bot)["value"].equals(table["value"])


def test_the_value_bot_searches_the_rest_of_the_turn_only():
    game = turn_start(2, TWO, 1, 5)
    table = search_plans(game, "value:rollouts=2:plans=4")
    assert len(table) == 4 and table["rollouts"].eq(2).all() and table["chosen"].sum() == 1
    assert table["value"].between(0, 1).all()


def test_the_value_bot_beats_continent_tuned_two_player():
    table = play_games(120, 2, ["value", "continent-tuned"], rules=TWO, seed=21)
    wins = wins_of(table, "value")
    low, _ = wilson_interval(wins, len(table))
    assert low > 0.5, (wins, len(table))


def test_a_value_bot_forced_to_a_continent_plays_for_it_until_it_first_holds_it():
    """value's ``first``: continent-tuned going for it each turn (no search) until the seat first holds it."""
    from riskstats.game.bots.catalog import VALUE_ID
    from riskstats.game.rules.state import SC_HELD
    from riskstats.game.search import FORCED_PLAN, PLAN_LIST, PLANS, _new_state, _plan

    assert parse_bot("value").values == (1.0, 4.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    spec = parse_bot("value:first=Australia")
    assert spec.label == "value:first=5" and spec.values[2] == 5.0
    game = Game(4, seed=5)
    while not (game.phase == "reinforce" and game.player == 0):
        game.step(game.bot_move("continent-tuned"))
    st, B = game.state, game.board.arrays
    aus = np.flatnonzero(B.continent_of == game.board.continents.index("Australia"))
    assert not (st.owner[aus] == 0).all()

    def plan(bot):
        memory = np.full((4, 2), -1, np.int64)
        work = _new_state(st.owner.shape[0], st.card_owner.shape[0], 4, 0)
        bots, params = np.full(4, -1, np.int64), np.zeros((4, len(parse_bot(bot).vector())))
        bots[0], params[0] = VALUE_ID, parse_bot(bot).vector()
        return _plan(st, *game.context, 0, bots, params, memory, work, np.zeros(len(PLAN_LIST)))

    assert plan("value:first=Australia") == FORCED_PLAN and plan("value") < len(PLANS)
    assert game.bot_move("value:first=Australia") == game.bot_move("continent-tuned:first=Australia")
    lost_to = st.owner[aus].copy()
    st.owner[aus] = 0  # seat 0 holds Australia: from now on it searches
    assert plan("value:first=Australia") < len(PLANS) and st.scratch[SC_HELD] == 1
    st.owner[aus] = lost_to  # and keeps searching after losing it
    assert plan("value:first=Australia") == plan("value")
    for seed in range(2):
        played = play_game(4, ["value:first=Asia", "value"], seed=seed)
        assert played.over and (played.winner >= 0) != played.truncated


def test_a_forced_first_target_is_one_treatment_for_every_look_ahead_bot():
    """search takes value's ``first`` (no search until the continent is first held), and with ``draft=1``
    both claim the continent first and set up toward it, as the continent bot's ``first`` does (issue 29)."""
    from riskstats.game.bots.catalog import SEARCH_ID, VALUE_ID
    from riskstats.game.search import FORCED_PLAN, PLAN_LIST, _new_state, _plan

    def claim(spec):  # the first claim of seat 0 in a fresh game (a bot's move draws on the game's stream)
        game = Game(4, seed=5)
        assert game.phase == "claim" and game.player == 0
        return game.bot_move(spec).a

    game = Game(4, seed=5)
    aus = game.board.continents.index("Australia")
    in_aus = set(np.flatnonzero(game.board.arrays.continent_of == aus).tolist())
    assert claim("continent-tuned") not in in_aus  # its greedy claim is elsewhere, so drafting shows
    for spec in ("continent-tuned:first=Australia", "value:first=Australia:draft=1",
                 "search:first=Australia:draft=1"):
        assert claim(spec) in in_aus, spec
    for spec in ("value:first=Australia", "search:first=Australia"):
        assert claim(spec) == claim("continent-tuned"), spec  # draft=0: sets up as plain continent-tuned
    while not (game.phase == "reinforce" and game.player == 0):
        game.step(game.bot_move("continent-tuned"))
    st = game.state
    for bot, spec in ((VALUE_ID, "value:first=Australia"), (SEARCH_ID, "search:first=Australia:rollouts=2")):
        memory = np.full((4, 2), -1, np.int64)
        work = _new_state(st.owner.shape[0], st.card_owner.shape[0], 4, 0)
        bots, params = np.full(4, -1, np.int64), np.zeros((4, len(parse_bot(spec).vector())))
        bots[0], params[0] = bot, parse_bot(spec).vector()
        assert _plan(st, *game.context, 0, bots, params, memory, work, np.zeros(len(PLAN_LIST))) == FORCED_PLAN


ORDERED = "value:plans=3:order=937:closer=0.3"
"""A value bot with its own plan order (plan 9 is one of `EXTRA_PLANS`, beyond the search's), adding the
aggressive plan once it is a little ahead."""


def test_a_plan_order_is_read_and_checked():
    from riskstats.game.search import PLAN_LIST

    assert parse_bot("value").values == (1.0, 4.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    assert parse_bot("search").values[4] == 0.0
    spec = parse_bot("value:order=9471:plans=3")
    assert spec.label == "value:plans=3:order=9471" and spec.values[3] == 9471.0
    from riskstats.game.search import HUNTER_FROM, HUNTER_PLANS

    assert HUNTER_FROM == 9 and len(PLAN_LIST) == 9 + len(HUNTER_PLANS)  # the order's digits run 1..9 (either base)
    for bad in ("value:order=1021", "value:order=1231", "search:order=120"):
        with pytest.raises(RiskstatsError, match="must list items 1..9 as digits, none twice"):
            parse_bot(bad)


def test_search_plans_follows_the_order():
    from riskstats.game.search import PLAN_LIST

    game = turn_start(4, GameRules(), 2, 9)
    table = search_plans(game, "value:rollouts=2:plans=3:order=9471")
    assert table["plan"].tolist() == [PLAN_LIST[8], PLAN_LIST[3], PLAN_LIST[6]]
    assert table["chosen"].sum() == 1 and table["value"].between(0, 1).all()
    every = search_plans(game, "search:rollouts=2:plans=8:order=87654321:value=model:horizon=0")
    default = search_plans(game, "search:rollouts=2:plans=8:value=model:horizon=0")
    assert every["plan"].tolist() == default["plan"].tolist()[::-1]
    pd.testing.assert_series_equal(every["value"], default["value"][::-1].reset_index(drop=True))


def test_closer_adds_the_aggressive_plan_when_the_model_says_it_is_ahead():
    from riskstats.game.evaluate import position_value

    game = turn_start(2, TWO, 7, 11)
    ahead = float(position_value(game).set_index("player")["p_win"].iloc[game.player])
    plain = search_plans(game, "value:plans=2:order=13")
    assert plain["plan"].tolist() == ["continent-tuned", "continent-tuned:first=1:again=1"]
    assert search_plans(game, "value:plans=2:order=13:closer=1").equals(plain)  # a P(win) it never reaches
    added = search_plans(game, "value:plans=2:order=13:closer=0.01")
    assert added["plan"].tolist() == [*plain["plan"], "aggressive"] and 0.01 < ahead < 1
    pd.testing.assert_frame_equal(added.iloc[:2], plain.assign(chosen=added["chosen"].iloc[:2]))
    assert search_plans(game, "value:plans=3:order=134:closer=0.01")["plan"].tolist() == added["plan"].tolist()


def test_a_plan_that_plays_as_an_earlier_one_gets_its_score():
    """Once a seat holds a continent, going for it first is plain continent-tuned: equal scores, and the
    earlier plan chosen on a tie."""
    game = Game(4, seed=2, log=False)
    australia = np.flatnonzero(game.board.arrays.continent_of == game.board.continents.index("Australia"))
    while not (game.phase in ("trade", "reinforce") and (game.state.owner[australia] == game.player).all()):
        game.step(game.bot_move("continent-tuned"))
        assert not game.over
    table = search_plans(game, "value:rollouts=3:plans=2")
    assert table["plan"].tolist() == ["continent-tuned", "continent-tuned:first=5:again=1"]
    assert table["value"].iloc[0] == table["value"].iloc[1] and table["chosen"].iloc[0]


@pytest.mark.parametrize("players, rules", VARIANTS)
def test_an_ordered_value_bot_plays_only_legal_moves(players, rules):
    for seed in range(2):
        game = play_game(players, [ORDERED, "continent-tuned", "aggressive"][:players], rules, seed=seed)
        assert game.over and (game.winner >= 0) != game.truncated


@pytest.mark.parametrize("players", [2, 4])
def test_an_ordered_value_bot_is_seeded_whatever_the_threads(players):
    test_same_seed_same_games_whatever_the_threads(ORDERED, players)


@pytest.mark.parametrize("players, rules, seed, turns", [(4, GameRules(), 2, 21), (2, TWO, 7, 11)])
def test_an_ordered_value_bot_ignores_what_it_cannot_see(players, rules, seed, turns):
    test_choices_ignore_what_the_bot_cannot_see(ORDERED, players, rules, seed, turns)


def test_look_ahead_games_match_their_fingerprints():
    """Seeded games with search and value seats, game for game as before the plan orders and the skipping of
    plans that play as earlier ones (scripts/tools/golden_lookahead.py wrote them): those changed no play."""
    from tests.golden import LOOKAHEAD_FILE, fingerprints

    pd.testing.assert_frame_equal(fingerprints(), pd.read_csv(LOOKAHEAD_FILE, dtype={"board": str}),
                                  check_dtype=False)


def early_trades(lineup, seed):
    """(turn starts where seat 0 held 3 or 4 cards, so was not forced to trade; sets it traded at them)."""
    from riskstats.game.rules.state import I_PHASE, TRADE, TRADE_SET

    game, chances, traded = Game(4, seed=seed), 0, 0
    while not game.over:
        p, bot = game.player, lineup[game.player]
        move = game.bot_move(bot)
        hand = int((game.state.card_owner == p).sum())
        if p == 0 and game.state.info[I_PHASE] == TRADE and 3 <= hand < 5:
            chances += 1
            traded += move[0] == TRADE_SET
        game.step(move)
    return chances, traded


def test_the_value_bots_trade_at_sets_the_card_timing_of_every_plan():
    from riskstats.game.bots.catalog import VALUE_TRADE_AT

    assert parse_bot("value").values[VALUE_TRADE_AT] == 0.0  # the default: each plan's own timing, as before
    assert parse_bot("value:trade_at=5").label == "value:trade_at=5"
    held = [early_trades(["value:trade_at=5", "value", "value", "value"], seed) for seed in range(3)]
    free = [early_trades(["value", "value", "value", "value"], seed) for seed in range(3)]
    assert sum(c for c, _ in held) > 0 and sum(t for _, t in held) == 0  # holds until forced
    assert sum(t for _, t in free) > 0  # the plans' own timing trades early
    fast = play_games(6, 4, ["value:trade_at=5", "value"], seed=9)
    slow = [play_game(4, row.bots.split(","), seed=int(row.seed)).winner for row in fast.itertuples()]
    assert fast.winner.tolist() == slow  # the compiled loop and step by step agree
    assert not play_games(40, 4, ["value:trade_at=3", "value"], seed=9).turns.equals(
        play_games(40, 4, ["value:trade_at=5", "value"], seed=9).turns)


def test_the_strong_model_changes_the_scores_not_the_rules():
    """The leaf values of value=strong are the second model's: the same plans and rollouts, other scores."""
    game = turn_start(4, GameRules(), 2, 15)
    model = search_plans(game, "search:rollouts=2:plans=4:horizon=0:value=model")
    strong = search_plans(game, "search:rollouts=2:plans=4:horizon=0:value=strong")
    assert model["plan"].tolist() == strong["plan"].tolist() and strong["value"].between(0, 1).all()
    assert not np.allclose(model["value"], strong["value"])
    bot = search_plans(game, "value:rollouts=2:model=strong")
    np.testing.assert_allclose(bot["value"], strong["value"])
