"""The solved attack policy as the continent bot's rule (riskstats.game.bots.solved_attack, attack=solved)."""
import numpy as np
import pytest

from riskstats.analysis.decisions import stop_frontier
from riskstats.game.bots.catalog import FRONTIER_AT, FRONTIER_DEFENDERS, N_PARAMS, parse_bot
from riskstats.game.bots.solved_attack import FRONTIER_ATTACKERS, frontier
from riskstats.game.play import Game
from riskstats.game.rules.state import ATTACK_MOVE, END_ATTACK
from riskstats.odds.policy import policy


def test_frontier_is_the_solvers_stop_threshold():
    for kill in (0.0, 0.5, 1.0):
        solved = policy(FRONTIER_ATTACKERS, FRONTIER_DEFENDERS, 4, kill_value=kill, defender="max")
        expected = stop_frontier(solved).min_attackers.to_numpy()
        np.testing.assert_array_equal(frontier(4, kill), expected)
    assert frontier(4, 1.0)[5:].tolist() == [3.0] * (FRONTIER_DEFENDERS - 5)  # zero-sum: attack down to 3
    assert frontier(4, 0.0)[4:].tolist() == [0.0] * (FRONTIER_DEFENDERS - 4)  # only the conquest pays


def test_a_solved_spec_carries_its_frontier_and_a_plain_one_none():
    solved = parse_bot("continent:attack=solved:kill=0.5")
    assert solved.label == "continent:attack=solved:kill=0.5"
    vector = solved.vector()
    assert vector.shape == (N_PARAMS,) and vector[5] == 1 and vector[7] == 0.5
    np.testing.assert_array_equal(vector[FRONTIER_AT:], frontier(4, 0.5))
    for plain in ("continent", "continent-tuned"):  # the rule: no flag, no frontier
        assert parse_bot(plain).vector()[5] == 0 and not parse_bot(plain).vector()[FRONTIER_AT:].any()


def _attack_moves(bot, seed, turns):
    """(declared attack, attackers, defenders) of every attack decision ``bot`` makes in all seats of a game,
    and how often the plain continent bot would have decided otherwise in the same state."""
    game = Game(4, seed=seed, log=False)
    decisions, differ = [], 0
    while not game.over and game.turn < turns:
        move = game.bot_move(bot)
        if game.phase == "attack":
            rule = game.bot_move("continent")
            differ += (rule.kind == ATTACK_MOVE) != (move.kind == ATTACK_MOVE)
            if move.kind == ATTACK_MOVE:
                armies = game.state.armies
                decisions.append((int(armies[move.a]) - 1, int(armies[move.b])))
            else:
                assert move.kind == END_ATTACK
        game.step(move)
    return decisions, differ


@pytest.mark.parametrize("kill", [0.0, 1.0])
def test_the_solved_bot_attacks_only_where_the_policy_does(kill):
    m = frontier(4, kill)
    decisions, differ = _attack_moves(f"continent:attack=solved:kill={kill}", seed=3, turns=25)
    assert decisions  # it does attack
    for attackers, defenders in decisions:
        need = m[min(defenders, FRONTIER_DEFENDERS) - 1]
        assert need > 0 and attackers >= need, (attackers, defenders)
    assert differ > 0  # and the rule it replaces decides otherwise somewhere
