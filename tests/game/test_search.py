"""The search bot: legal, reproducible, blind to what it cannot see, and stronger than the bots it plans with."""
import numba
import numpy as np
import pandas as pd
import pytest

from riskstats.errors import RiskstatsError
from riskstats.game.bots.catalog import N_PARAMS, bot_spec, parse_bot
from riskstats.game.evaluate import evaluate
from riskstats.game.play import Game, play_game
from riskstats.game.rollout import rollouts
from riskstats.game.rules.options import GameRules
from riskstats.game.rules.state import DECK, M_CARD, M_KIND
from riskstats.game.search import OPP_ACTUAL, OPP_POLICY, OPP_PROXY, PLAN_LIST, PLANS, POLICY, _opponent, search_plans
from riskstats.intervals import wilson_interval
from riskstats.runs.selfplay import play_games

TWO = GameRules(variant="two-player")
CHEAP = "search:rollouts=3:horizon=1:plans=4"


def turn_start(players, rules, seed, turns):
    """A game stepped with continent-tuned until turn ``turns`` has just begun."""
    game = Game(players, rules, seed=seed, log=False)
    while game.turn < turns and not game.over:
        game.step(game.bot_move("continent-tuned"))
    assert not game.over and game.phase in ("trade", "reinforce")
    return game


def copy(game):
    return Game.from_json(game.to_json(indent=None))


def wins_of(table, bot):
    """Games the entry ``bot`` won (the line-up rotates over the seats)."""
    bot = parse_bot(bot).label
    return sum(int(w) >= 0 and bots.split(",")[int(w)] == bot for w, bots in zip(table["winner"], table["bots"]))


def test_the_search_bot_is_in_the_catalogue_with_its_budget():
    spec = parse_bot("search:rollouts=16:horizon=2")
    assert spec.values == (16.0, 2.0, 6.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    assert spec.label == "search:rollouts=16:horizon=2"
    for bad, words in (("search:rollouts=0", "out of range"), ("search:horizon=1.5", "whole number"),
                       ("search:plans=9", "out of range"), ("search:depth=2", "unknown parameter 'depth'")):
        with pytest.raises(RiskstatsError, match=words):
            parse_bot(bad)


@pytest.mark.parametrize("players, rules", [(2, TWO), (4, GameRules()), (4, GameRules(variant="mission")),
                                            (3, GameRules(variant="capital"))])
def test_search_plays_only_legal_moves(players, rules):
    """Compiled play checks every move (Game.play); the smallest and a larger budget."""
    for seed, bot in enumerate(["search:rollouts=1:horizon=0:plans=1", CHEAP, "search:rollouts=2:horizon=3:plans=8"]):
        game = play_game(players, [bot, "continent-tuned", "aggressive"][:players], rules, seed=seed)
        assert game.over and (game.winner >= 0) != game.truncated


def test_step_by_step_equals_the_compiled_loop():
    """Game.bot_move keeps the turn's plan in the game's memory exactly as the compiled driver does."""
    fast = play_game(2, [CHEAP, "continent-tuned"], TWO, seed=5)
    slow = Game(2, TWO, seed=5)
    slow.play([CHEAP, "continent-tuned"], max_moves=10**6)
    pd.testing.assert_frame_equal(fast.events(), slow.events())


def test_same_seed_same_games_whatever_the_threads():
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = play_games(6, 2, [CHEAP, "continent-tuned"], rules=TWO, seed=3)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = play_games(6, 2, [CHEAP, "continent-tuned"], rules=TWO, seed=3)
    finally:
        numba.set_num_threads(threads)
    pd.testing.assert_frame_equal(one, two)
    game = Game(2, TWO, seed=int(one["seed"][0]), log=False).play([CHEAP, "continent-tuned"])
    assert (game.winner, game.turn) == (one["winner"][0], one["turns"][0])


def permute_unseen_cards(game, rng):
    """Shuffle the cards the player to move cannot see (the draw pile and other hands) among those places."""
    st, p = game.state, game.player
    owners = st.card_owner
    pool = np.flatnonzero((owners == DECK) | ((owners >= 0) & (owners != p)))
    before = owners.copy()
    owners[pool] = owners[rng.permutation(pool)]
    pile = pool[owners[pool] == DECK]
    st.deck[:len(pile)] = rng.permutation(pile)
    assert (np.bincount(owners[owners >= 0], minlength=4) == np.bincount(before[before >= 0], minlength=4)).all()
    return (owners != before).any()


@pytest.mark.parametrize("players, rules, seed, turns", [(4, GameRules(), 2, 21), (2, TWO, 7, 11),
                                                         (4, GameRules(variant="mission"), 4, 13)])
def test_choices_ignore_what_the_bot_cannot_see(players, rules, seed, turns):
    """Other hands, the draw pile's order, other missions and the random stream changed: the same scores,
    the same plan, the same move. A visible change (armies) changes the scores."""
    rng = np.random.default_rng(seed)
    game = turn_start(players, rules, seed, turns)
    p = game.player
    assert any(len(game.hand(q)) > 0 for q in range(players) if q != p), "other seats should hold cards"
    table = search_plans(game, CHEAP)
    move = copy(game).bot_move(CHEAP)

    hidden = copy(game)
    assert permute_unseen_cards(hidden, rng)
    hidden.state.rng[0] ^= np.uint64(0x1234567)
    if rules.variant == "mission":
        others = [q for q in range(players) if q != p]
        a, b = others[:2]
        rows = hidden.state.mission
        rows[[a, b]] = rows[[b, a]]
        assert rows[a, M_CARD] != game.state.mission[a, M_CARD] or rows[a, M_KIND] != game.state.mission[a, M_KIND]
    pd.testing.assert_frame_equal(search_plans(hidden, CHEAP), table)
    assert hidden.bot_move(CHEAP) == move

    seen = copy(game)
    mine = np.flatnonzero(seen.state.owner == p)[0]
    seen.state.armies[mine] += 3
    assert not search_plans(seen, CHEAP)["value"].equals(table["value"])


def test_visible_changes_change_the_chosen_plan_in_some_position():
    changed = 0
    for seed in range(6):
        game = turn_start(2, TWO, seed, 7)
        base = search_plans(game, CHEAP)
        for q in (game.player, 1 - game.player):
            other = copy(game)
            t = np.flatnonzero(other.state.owner == q)[0]
            other.state.armies[t] += 8
            changed += not search_plans(other, CHEAP)["chosen"].equals(base["chosen"])
    assert changed > 0


def test_search_plans_table_and_errors():
    game = turn_start(2, TWO, 1, 5)
    table = search_plans(game, "search:rollouts=5:plans=8")
    assert table["plan"].tolist() == list(PLANS) and table["rollouts"].eq(5).all()
    assert table["value"].between(0, 1).all() and table["chosen"].sum() == 1
    assert table.loc[table["chosen"], "value"].iloc[0] == table["value"].max()
    assert table.equals(search_plans(game, "search:rollouts=5:plans=8"))
    with pytest.raises(RiskstatsError, match="needs a search bot spec"):
        search_plans(game, "continent")
    with pytest.raises(RiskstatsError, match="turn under way"):
        search_plans(Game(2, TWO, seed=1), CHEAP)
    with pytest.raises(RiskstatsError, match="needs a Game"):
        search_plans("position", CHEAP)


def test_search_beats_random():
    table = play_games(40, 2, [CHEAP, "random"], rules=TWO, seed=11)
    wins = wins_of(table, CHEAP)
    low, _ = wilson_interval(wins, len(table))
    assert low > 0.7, (wins, len(table))


@pytest.mark.slow
def test_default_search_beats_continent_tuned_two_player():
    table = play_games(200, 2, ["search", "continent-tuned"], rules=TWO, seed=12)
    wins = wins_of(table, "search")
    low, _ = wilson_interval(wins, len(table))
    assert low > 0.55, (wins, len(table))


def test_rollouts_and_evaluate_take_a_search_seat():
    game = turn_start(2, TWO, 3, 3)
    table = rollouts(game, 6, bots=[CHEAP, "continent-tuned"], seed=2)
    assert table["over"].all() and table.equals(rollouts(game, 6, bots=[CHEAP, "continent-tuned"], seed=2))
    result = evaluate(game, bot=CHEAP, rollouts=6, seed=1, top=2, candidates=3)
    assert len(result.moves) == 2 and result.players["rollouts"].eq(6).all()


# --- opponent modelling: the ``opponents`` option of the look-ahead bots ---

OPP = "search:rollouts=4:horizon=2:plans=4"


def test_opponents_option_is_declared_with_the_old_behaviour_as_default():
    from riskstats.game.bots.catalog import SEARCH_OPPONENTS, VALUE_HORIZON, VALUE_OPPONENTS

    assert parse_bot("search").values[SEARCH_OPPONENTS] == 0.0
    assert parse_bot("value").values[VALUE_HORIZON] == parse_bot("value").values[VALUE_OPPONENTS] == 0.0
    assert parse_bot("search:opponents=proxy").values[SEARCH_OPPONENTS] == 2.0
    assert parse_bot("value:horizon=1:opponents=actual").label == "value:horizon=1:opponents=actual"
    for bad, words in (("search:opponents=mirror", "opponents"), ("value:opponents=3", "out of range"),
                       ("value:horizon=-1", "out of range")):
        with pytest.raises(RiskstatsError, match=words) as error:
            parse_bot(bad)
        assert "\n" not in str(error.value)


def test_opponent_model_of_each_seat():
    """policy: continent-tuned everywhere; actual: a plain bot as itself, a look-ahead seat as continent-tuned;
    proxy: a look-ahead seat as the plan it chose at its last turn (its setup policy before any)."""
    lineup = [bot_spec(b) for b in ("value", "aggressive", "search", "search")]
    ids = np.array([i for i, _ in lineup])
    params = np.array([v for _, v in lineup])
    memory = np.full((4, 2), -1, np.int64)
    memory[2] = (9, PLAN_LIST.index("aggressive"))
    out = np.empty(N_PARAMS)
    policy, aggressive = bot_spec(POLICY), bot_spec("aggressive")

    def model(s, mode):
        return _opponent(s, mode, ids, params, memory, out, 0), out.copy()

    for s in (1, 2, 3):
        bot, prm = model(s, OPP_POLICY)
        assert bot == policy[0] and (prm == policy[1]).all()
    bot, prm = model(1, OPP_ACTUAL)
    assert bot == aggressive[0] and (prm == aggressive[1]).all()
    assert model(2, OPP_ACTUAL)[0] == policy[0]
    assert model(2, OPP_PROXY)[0] == aggressive[0] and model(3, OPP_PROXY)[0] == policy[0]
    unknown = np.full(4, -1, np.int64)
    assert _opponent(1, OPP_ACTUAL, unknown, params, memory, out, 0) == policy[0]
    assert _opponent(1, OPP_POLICY, ids, params, memory, out, 1) == bot_spec("hunter")[0]  # base=hunter


def test_opponents_option_changes_what_the_rollouts_play():
    """With opponents=actual the seats that are aggressive play aggressive in the rollouts, so the plans' values
    change; a line-up of continent-tuned is what policy assumes, so there actual changes nothing."""
    game = turn_start(4, GameRules(), 2, 9)
    p = game.player
    fierce = ["aggressive"] * 4
    tuned = ["continent-tuned"] * 4
    fierce[p] = tuned[p] = OPP
    policy = search_plans(game, OPP, lineup=fierce)
    actual = search_plans(game, OPP + ":opponents=actual", lineup=fierce)
    assert not np.allclose(policy["value"], actual["value"])
    pd.testing.assert_frame_equal(search_plans(game, OPP + ":opponents=actual", lineup=tuned), policy)
    assert policy.equals(search_plans(game, OPP, lineup=tuned))  # policy ignores the line-up


@pytest.mark.parametrize("mode", ["actual", "proxy"])
def test_modelled_opponents_keep_hidden_information_hidden(mode):
    """The line-up is public, cards and missions are not: permuting what the seat cannot see (other hands, the
    pile, other missions, the random stream) leaves the plans' values and the move unchanged."""
    rules = GameRules(variant="mission")
    bot = f"{OPP}:opponents={mode}"
    game = turn_start(4, rules, 4, 13)
    p = game.player
    lineup = ["mission", "aggressive", "value", "continent"]
    lineup[p] = bot
    game._search_memory()[:] = -1
    table = search_plans(game, bot, lineup=lineup)
    hidden = copy(game)
    assert permute_unseen_cards(hidden, np.random.default_rng(0))
    hidden.state.rng[0] ^= np.uint64(0x1234567)
    a, b = [q for q in range(4) if q != p][:2]
    hidden.state.mission[[a, b]] = hidden.state.mission[[b, a]]
    pd.testing.assert_frame_equal(search_plans(hidden, bot, lineup=lineup), table)


def test_modelled_opponents_are_deterministic_and_step_by_step_equals_compiled():
    bots = ["value:horizon=1:opponents=proxy", "search:rollouts=2:horizon=1:plans=3:opponents=actual", "aggressive"]
    one = play_games(6, 3, bots, rules=GameRules(), seed=21)
    pd.testing.assert_frame_equal(one, play_games(6, 3, bots, rules=GameRules(), seed=21))
    fast = play_game(3, bots, GameRules(), seed=5)
    slow = Game(3, GameRules(), seed=5)
    slow.play(bots, max_moves=10**6)
    pd.testing.assert_frame_equal(fast.events(), slow.events())


HUNTER_BASE = "search:base=hunter:rollouts=2:horizon=1:plans=4"


def test_the_hunter_base_compares_the_hunters_plans_and_seats_the_hunter_elsewhere():
    """Issue 54: with base=hunter the plans are the hunter's (`HUNTER_PLANS`, in order, or by an order's digits),
    and the hunter, not continent-tuned, plays the other seats of its rollouts (the first plan, the hunter's own
    choice, then scores what a hunter seat's own rollouts would)."""
    from riskstats.game.search import HUNTER_PLANS

    game = turn_start(4, GameRules(), 2, 9)
    table = search_plans(game, "search:base=hunter:rollouts=3:horizon=1:plans=8")
    assert table.plan.tolist() == list(HUNTER_PLANS[:8]) and table.chosen.sum() == 1
    assert table.value.between(0, 1).all() and table.value.nunique() > 1
    ordered = search_plans(game, "search:base=hunter:rollouts=3:horizon=1:plans=3:order=935")
    assert ordered.plan.tolist() == [HUNTER_PLANS[8], HUNTER_PLANS[2], HUNTER_PLANS[4]]
    same = table.set_index("plan").value  # the same plan meets the same rollouts whatever its place in the order
    assert ordered.set_index("plan").value[HUNTER_PLANS[2]] == pytest.approx(same[HUNTER_PLANS[2]])
    continent = search_plans(game, "search:rollouts=3:horizon=1:plans=1")
    assert continent.value[0] != pytest.approx(table.value[0])  # other rollout policies, other scores


def test_common_random_numbers_score_two_plans_that_play_alike_the_same():
    """Two different plans that play the turn alike (the hunter's own choice, and going for a continent it holds
    already) meet the same rollouts: equal scores over several rollouts, not just on average."""
    from riskstats.game.search import HUNTER_PLANS

    game = Game(4, seed=11, log=False)
    holds = None
    while not game.over and game.turn < 60:
        game.step(game.bot_move("hunter"))
        if game.phase in ("trade", "reinforce"):
            held = [k for k in (0, 1, 2, 3, 5) if _holds(game, k)]
            if held:
                holds = held[0]
                break
    assert holds is not None, "no hunter seat held a continent at a turn's start in 60 turns"
    plan = f"hunter:first={holds}:again=1"
    digit = HUNTER_PLANS.index(plan) + 1
    table = search_plans(game, f"search:base=hunter:rollouts=6:horizon=1:plans=2:order=1{digit}")
    assert table.plan.tolist() == ["hunter", plan]
    assert table.value[0] == table.value[1] and 0 < table.value[0] < 1


def _holds(game, k):
    B = game.context[0]
    mine = game.state.owner[B.continent_of == k]
    return bool((mine == game.player).all())


def test_a_hunter_based_search_plays_legal_games_the_same_whatever_the_threads():
    threads = numba.get_num_threads()
    lineup = [HUNTER_BASE, "hunter", "hunter", "hunter"]
    try:
        numba.set_num_threads(1)
        one = play_games(3, 4, lineup, seed=5)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = play_games(3, 4, lineup, seed=5)
    finally:
        numba.set_num_threads(threads)
    pd.testing.assert_frame_equal(one, two)
    game = play_game(4, lineup, GameRules(), seed=int(one["seed"][0]))  # every move checked
    assert (game.winner, game.turn) == (one["winner"][0], one["turns"][0])


def test_the_hunter_based_look_ahead_takes_a_kill_that_wins_the_game_this_turn():
    """A fixture position (issue 54): the other player's last territory, one army, next to a stack of 20. The plans
    that kill win in every rollout; attacking nothing scores less; the seat plays the kill and wins this turn."""
    import json

    from riskstats.game.search import HUNTER_PLANS

    game = Game(2, seed=3, log=False)
    while not (game.phase == "reinforce" and game.player == 0):
        game.step(game.bot_move("hunter"))
    position = json.loads(game.to_json())
    for i, name in enumerate(position["territories"]):  # seat 0 everywhere but the neutral's last twelve
        position["territories"][name] = [0, 3] if i < 30 else [2, 2]
    position["territories"]["Alaska"], position["territories"]["Kamchatka"] = [0, 20], [1, 1]
    position["hands"], position["deck"] = [[], position["deck"][:4]], position["deck"][4:]
    fixture = Game.from_position(position)
    bot = "search:base=hunter:rollouts=4:horizon=0:plans=8"
    table = search_plans(fixture, bot)
    assert table.value[table.chosen].item() == 1.0
    idle = search_plans(fixture, "search:base=hunter:rollouts=4:horizon=0:plans=1:order=9")  # no attack
    assert idle.plan[0] == HUNTER_PLANS[-1] and idle.value[0] < 1.0
    turn = fixture.turn
    fixture.play([bot, "hunter"], max_moves=200)
    assert fixture.over and fixture.winner == 0 and fixture.turn == turn
