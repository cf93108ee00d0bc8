"""The OpenSpiel game python_risk passes OpenSpiel's random-simulation test (with serialisation), with either
action space and defence, and OpenSpiel's MCTS and ISMCTS bots play legal moves in it; a multi-roll macro is a run
of chance nodes; information states are short keys."""
import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import riskstats.env.openspiel as rs_openspiel
from riskstats.errors import RiskstatsError

FULL = {"actions": "full", "defend": "choose"}
"""The full encoding with the defender choosing (the defaults are the macro space with automatic defence)."""
SMALL = {**FULL, "players": 2, "max_turns": 6}


def test_registered_with_its_type():
    game = pyspiel.load_game("python_risk", SMALL)
    t = game.get_type()
    assert t.short_name == "python_risk"
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.num_players() == 2 and game.num_distinct_actions() == 5971
    assert game.observation_tensor_size() == game.information_state_tensor_size() > 0


@pytest.mark.parametrize("params", [SMALL, {**FULL, "players": 4, "max_turns": 4},
                                    {**FULL, "players": 3, "variant": "mission", "max_turns": 4},
                                    {**FULL, "players": 3, "variant": "capital", "max_turns": 3, "setup": "deal"}])
def test_random_sim_test_with_serialisation(params):
    game = pyspiel.load_game("python_risk", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("params", [{"players": 2, "max_turns": 6, "actions": "macro", "defend": "auto"},
                                    {"players": 4, "max_turns": 4, "actions": "macro", "observation": "log1p"},
                                    {"players": 3, "max_turns": 4, "actions": "full", "defend": "auto"}])
def test_random_sim_test_with_macro_actions_and_automatic_defence(params):
    game = pyspiel.load_game("python_risk", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_an_until_decided_macro_is_a_run_of_chance_nodes():
    game = pyspiel.load_game("python_risk", {"players": 2, "actions": "macro", "defend": "auto", "max_turns": 300})
    space = game.encoding
    until = range(*space.blocks["attack_until"])
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    longest = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        legal = state.legal_actions()
        assert all(space.first_move(state.game, a) is not None for a in legal)
        action = int(rng.choice(legal))
        state.apply_action(action)
        rolls = 0
        while state.is_chance_node():
            assert state.game.phase == "defend" and (action in until or rolls == 0)
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            rolls += 1
        longest = max(longest, rolls)
    assert longest >= 3 and state.returns() in ([1.0, -1.0], [-1.0, 1.0])  # uniform-random macro play ends
    again = game.deserialize_state(state.serialize())
    assert again.history() == state.history() and str(again) == str(state)


def test_information_states_are_short_keys():
    game = pyspiel.load_game("python_risk", {**FULL, "players": 3, "max_turns": 30})
    state = play_random(game, 4, 3000)
    keys = {state.information_state_string(p) for p in range(3)}
    assert len(keys) == 3 and all(len(k) == 32 for k in keys)
    assert "armies=" in state.observation_string(0)  # the observation string stays readable


def play_random(game, seed, moves, until=lambda state: False):
    """A state after ``moves`` random actions and chance outcomes, or as soon as ``until(state)``."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    for _ in range(moves):
        if state.is_terminal() or (state.game is not None and until(state)):
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_serialise_clone_and_chance():
    game = pyspiel.load_game("python_risk", {**FULL, "players": 2, "max_turns": 50})
    state = play_random(game, 1, 400)
    assert not state.is_terminal()
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state) and again.history() == state.history()
    assert again.observation_tensor(0) == state.observation_tensor(0)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0] if not clone.is_chance_node() else clone.chance_outcomes()[0][0])
    assert str(state) == str(again)  # the clone's move left the original alone
    small = pyspiel.load_game("python_risk", SMALL)
    ends = [play_random(small, s, 100_000) for s in range(3)]  # random games reach the end (the turn cap)
    assert all(e.is_terminal() and sum(e.returns()) == 0 for e in ends)


def test_resample_keeps_the_information_state():
    game = pyspiel.load_game("python_risk", {**FULL, "players": 3, "variant": "mission", "max_turns": 30})
    state = play_random(game, 2, 20_000, until=lambda s: s.current_player() >= 0 and s.game.turn > 3 and
                        sum(len(h) for h in s.game.hands) - len(s.game.hand()) >= 2)
    assert not state.is_terminal()
    player = state.current_player()
    changed = 0
    for _ in range(5):
        other = state.resample_from_infostate(player, None)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.observation_tensor(player) == state.observation_tensor(player)
        changed += not np.array_equal(other.game.state.card_owner, state.game.state.card_owner) or \
            not np.array_equal(other.game.state.mission, state.game.state.mission)
    assert changed > 0


def bot_game(game, bot, seat, decisions, seed):
    """Play with ``bot`` at ``seat`` and random moves elsewhere; the number of bot decisions."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    made = 0
    while not state.is_terminal() and made < decisions:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif state.current_player() == seat:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            made += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return made


def test_mcts_bot_plays_legal_moves():
    game = pyspiel.load_game("python_risk", {**FULL, "players": 2, "max_turns": 3})
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))  # OpenSpiel's own random rollouts
    bot = mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=np.random.RandomState(0))
    assert bot_game(game, bot, 0, 6, 0) == 6


def test_ismcts_bot_plays_legal_moves():
    game = pyspiel.load_game("python_risk", {**FULL, "players": 2, "max_turns": 3})
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(0))
    assert bot_game(game, bot, 1, 8, 1) == 8


@pytest.mark.slow  # compiles the game loop for the rollouts
def test_compiled_rollout_evaluator_values_and_plays():
    game = pyspiel.load_game("python_risk", {**FULL, "players": 2, "max_turns": 40})
    evaluator = rs_openspiel.RolloutEvaluator(20, bots=("random",), seed=0)
    state = play_random(game, 3, 200)
    value = evaluator.evaluate(state)
    assert value.shape == (2,) and abs(value.sum()) < 1e-9 and (abs(value) <= 1).all()
    bot = ismcts.ISMCTSBot(game, rs_openspiel.RolloutEvaluator(1, seed=1), 2.0, 8,
                           random_state=np.random.RandomState(0))
    assert bot_game(game, bot, 0, 8, 2) == 8


def test_a_bad_option_is_one_line_naming_it():
    with pytest.raises(RiskstatsError, match="^actions must be one of full, macro, got 'micro'$"):
        pyspiel.load_game("python_risk", {"actions": "micro"})
    with pytest.raises(RiskstatsError, match="^defend must be one of choose, auto, got 'never'$"):
        pyspiel.load_game("python_risk", {**FULL, "defend": "never"})


def test_the_defaults_are_the_macro_space_with_automatic_defence_and_a_true_length_bound():
    """Issue 55: with no parameters, a game whose uniformly random play ends, and whose max_game_length() is the
    cap its states enforce (10,000 actions), not 10,000 a turn."""
    from riskstats.env.openspiel import MAX_GAME_LENGTH

    game = pyspiel.load_game("python_risk")
    params = game.get_parameters()
    assert (params["actions"], params["defend"], params["max_game_length"]) == ("macro", "auto", MAX_GAME_LENGTH)
    assert game.max_game_length() == MAX_GAME_LENGTH
    assert game.num_distinct_actions() < pyspiel.load_game("python_risk", FULL).num_distinct_actions()


@pytest.mark.parametrize("params", [{"max_game_length": 40}, {**FULL, "players": 3, "max_game_length": 60}])
def test_a_game_ends_as_a_draw_at_its_max_game_length(params):
    """A game that reaches max_game_length actions (chance included) is over there, every return 0, and it
    serialises and restores like any other state."""
    game = pyspiel.load_game("python_risk", params)
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    while not state.is_terminal():
        actions = [o for o, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(int(rng.choice(actions)))
    assert len(state.history()) == params["max_game_length"] == game.max_game_length()
    assert not state.game.over and state.returns() == [0.0] * game.num_players()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL and state.legal_actions() == []
    again = game.deserialize_state(state.serialize())
    assert again.is_terminal() and again.history() == state.history()
    with pytest.raises(RiskstatsError, match="max_game_length"):
        pyspiel.load_game("python_risk", {"max_game_length": 1})


CHECK = """
import re, sys, time
import pyspiel
import riskstats.env.openspiel  # noqa: F401
params = eval(sys.argv[1])
game = pyspiel.load_game("python_risk", params) if params else pyspiel.load_game("python_risk")
began = time.process_time()
pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
peak_kb = int(re.search(r"VmHWM:\\s+(\\d+) kB", open("/proc/self/status").read())[1])
print(time.process_time() - began, peak_kb / 1024)
"""
"""The check in a process of its own. Its peak resident memory is read from /proc (VmHWM, this process image's),
not from getrusage, whose maximum a child keeps from the test worker it was forked from."""


@pytest.mark.slow
@pytest.mark.parametrize("params", [None, {"players": 3}, {"players": 4}, {"players": 5}, {"players": 6}])
def test_openspiels_own_check_passes_with_the_defaults_within_2_gb(params):
    """OpenSpiel's test suite runs ``random_sim_test(num_sims=5, serialize=True)`` on every registered game with no
    parameters: it ends, in a process that stays under 2 GB (measured: 2-23 CPU s, 0.2-1.7 GB; with the former
    defaults it held 19 GB after 16 minutes). Each in a fresh process, so that the peak is this check's."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", CHECK, repr(params)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    cpu, peak_mb = map(float, done.stdout.split())
    assert peak_mb < 2048, (params, cpu, peak_mb)
