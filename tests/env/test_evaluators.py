"""riskstats' OpenSpiel evaluator (`riskstats.env.evaluators.ValueEvaluator`), built-in bots in OpenSpiel games
(`BuiltInBot`, `RiskState.play_move`) and a tiny run of the OpenSpiel benchmark."""
import runpy
import sys
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import riskstats.env.openspiel as rs_openspiel
from riskstats.env.evaluators import ValueEvaluator
from riskstats.errors import RiskstatsError
from tests.env.test_openspiel import bot_game, play_random

ROOT = Path(__file__).resolve().parents[2]
MACRO = {"players": 2, "actions": "macro", "defend": "auto", "max_turns": 60}


@pytest.mark.parametrize("params", [MACRO, {"players": 3, "max_turns": 60}])
def test_value_evaluator_is_zero_sum_in_range_and_terminal_exact(params):
    game = pyspiel.load_game("python_risk", params)
    evaluator = ValueEvaluator(seed=0)
    for seed in range(3):
        state = play_random(game, seed, 150)
        value = evaluator.evaluate(state)
        players = game.num_players()
        assert value.shape == (players,) and abs(value.sum()) < 1e-9
        assert (value >= -1 / (players - 1) - 1e-12).all() and (value <= 1 + 1e-12).all()
        if state.is_terminal():
            assert value.tolist() == state.returns()
        if not state.is_chance_node() and not state.is_terminal():
            prior = dict(evaluator.prior(state))
            assert set(prior) == set(state.legal_actions()) and abs(sum(prior.values()) - 1) < 1e-9
            favoured = evaluator.favoured(state, state.legal_actions())
            assert all(prior[a] > prior[b] for a in favoured for b in set(prior) - favoured)


def test_value_evaluator_searches_with_puct():
    game = pyspiel.load_game("python_risk", MACRO)
    bot = mcts.MCTSBot(game, 2.0, 8, ValueEvaluator(seed=1), random_state=np.random.RandomState(0),
                       child_selection_fn=mcts.SearchNode.puct_value)
    assert bot_game(game, bot, 0, 6, 0) == 6
    bot = ismcts.ISMCTSBot(game, ValueEvaluator(bot=None), 2.0, 8, random_state=np.random.RandomState(0),
                           allow_inconsistent_action_sets=True,
                           child_selection_policy=ismcts.ChildSelectionPolicy.PUCT)
    assert bot_game(game, bot, 1, 6, 1) == 6


def test_a_built_in_bot_plays_its_own_moves_in_the_macro_game():
    """A built-in bot's engine moves go onto a macro game's state (they need not be macro ids), the attacks'
    rolls stay chance nodes, and the game ends; in the full space its step is an action id."""
    game = pyspiel.load_game("python_risk", MACRO)
    bots = [rs_openspiel.BuiltInBot(game, s, "aggressive") for s in range(2)]
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    rolls = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            rolls += 1
        else:
            state.play_move(bots[state.current_player()].move(state))
    assert rolls > 10 and state.game.winner >= 0 and sorted(state.returns()) == [-1.0, 1.0]
    with pytest.raises(RiskstatsError, match="not macro ids"):
        bots[0].step(game.new_initial_state())
    full = pyspiel.load_game("python_risk", {"players": 2, "max_turns": 30, "actions": "full", "defend": "choose"})
    state = play_random(full, 1, 20)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert rs_openspiel.BuiltInBot(full, 0, "continent").step(state) in state.legal_actions()


@pytest.mark.slow  # compiles the rollouts and plays two short searched games
def test_a_tiny_openspiel_benchmark(tmp_path, monkeypatch, capsys):
    out = tmp_path / "match.csv"
    monkeypatch.setattr(sys, "argv", ["bench_openspiel.py", "--cells", "mcts:value:4:uniform,ismcts:rollout:4:random",
                                      "--games", "1", "--max-turns", "40", "--out", str(out)])
    runpy.run_path(str(ROOT / "scripts" / "bench" / "bench_openspiel.py"), run_name="__main__")
    lines = out.read_text().splitlines()
    assert lines[0].startswith("# python scripts/bench/bench_openspiel.py --cells") and len(lines) == 4
    assert "ms/decision" in capsys.readouterr().out


@pytest.mark.parametrize("kwargs, message", [({"bot": "genius"}, "genius"), ({"weight": 1.5}, "weight must be"),
                                             ({"model": "oracle"}, "oracle")])
def test_a_bad_evaluator_option_is_a_one_line_error_at_once(kwargs, message):
    with pytest.raises(RiskstatsError, match=message):
        ValueEvaluator(**kwargs)
