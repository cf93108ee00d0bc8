"""The value bot and the search on the fitted value: legal, reproducible, blind to what they cannot see."""
import numba
import numpy as np
import pandas as pd
import pytest

from riskstats.errors import RiskstatsError
from riskstats.game.play import Game, play_game
from riskstats.game.registry import BOTS, parse_bot
from riskstats.game.rules import GameRules
from riskstats.game.search import search_plans
from riskstats.game.state import M_CARD, M_KIND
from riskstats.intervals import wilson_interval
from riskstats.runs.selfplay import play_games
from tests.game.test_search import copy, permute_unseen_cards, turn_start, wins_of

TWO = GameRules(variant="two-player")
VARIANTS = [(2, TWO), (4, GameRules()), (4, GameRules(variant="mission")), (3, GameRules(variant="capital"))]
MODEL_SEARCH = "search:rollouts=3:horizon=1:plans=4:value=model"


def test_the_value_bot_and_the_model_search_are_in_the_catalogue():
    assert "value" in BOTS
    spec = parse_bot("value:rollouts=3")
    assert spec.label == "value:rollouts=3" and spec.values[0] == 3.0
    search = parse_bot("search:value=model")
    assert search.label == "search:value=model" and search.values[3] == 1.0
    assert parse_bot("search").values[3] == 0.0 and parse_bot("search:value=formula").label == "search:value=formula"
    assert parse_bot("search:value=1").label == "search:value=model"
    for bad, words in (("search:value=fitted", "must be one of formula, model"), ("value:plans=9", "out of range"),
                       ("value:horizon=2", "unknown parameter 'horizon'")):
        with pytest.raises(RiskstatsError, match=words):
            parse_bot(bad)


@pytest.mark.parametrize("players, rules", VARIANTS)
@pytest.mark.parametrize("bot", ["value", "value:rollouts=1:plans=1", MODEL_SEARCH])
def test_plays_only_legal_moves(players, rules, bot):
    """Compiled play checks every move (Game.play)."""
    for seed in range(2):
        game = play_game(players, [bot, "continent-tuned", "aggressive"], rules, seed=seed)
        assert game.over and (game.winner >= 0) != game.truncated


def test_step_by_step_equals_the_compiled_loop():
    fast = play_game(2, ["value", "continent-tuned"], TWO, seed=5)
    slow = Game(2, TWO, seed=5)
    slow.play(["value", "continent-tuned"], max_moves=10**6)
    pd.testing.assert_frame_equal(fast.events(), slow.events())


@pytest.mark.parametrize("bot, players", [("value", 4), (MODEL_SEARCH, 2)])
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


@pytest.mark.parametrize("bot", ["value:rollouts=3", MODEL_SEARCH])
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


def early_trades(lineup, seed):
    """(turn starts where seat 0 held 3 or 4 cards, so was not forced to trade; sets it traded at them)."""
    from riskstats.game.state import I_PHASE, TRADE, TRADE_SET

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
    from riskstats.game.search import VALUE_TRADE_AT

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
