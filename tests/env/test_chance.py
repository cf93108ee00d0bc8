"""Explicit chance: the roll table and the steered stream give the engine's roll the chosen outcome."""
import numpy as np
import pytest

from riskstats.env.chance import _steer_stream, roll_outcomes
from riskstats.game.play import Game, Move
from riskstats.game.rules import GameRules
from riskstats.odds.dice import round_outcomes


@pytest.mark.parametrize("na,nd", [(1, 1), (2, 1), (3, 2), (1, 2)])
def test_roll_outcomes_are_the_exact_table(na, nd):
    p = roll_outcomes(GameRules(), na, nd)
    exact = round_outcomes(na, nd).sort_values("attacker_loses")["p"].tolist()
    assert np.allclose(p, exact, atol=1e-15)
    assert abs(sum(p) - 1) < 1e-12


def attack_position(seed):
    game = Game(4, seed=seed, log=False)
    while not (game.phase == "attack" and game.state.armies.max() >= 4):
        game.step(game.bot_move("aggressive"))
    mask = game.legal_mask()["attack"]
    src, dst = max(map(tuple, np.argwhere(mask)), key=lambda e: game.state.armies[e[0]])
    return game, int(src), int(dst)


@pytest.mark.parametrize("lose", [0, 1])
def test_a_steered_roll_comes_out_as_chosen(lose):
    game, src, dst = attack_position(5)
    dice = min(3, int(game.state.armies[src]) - 1)
    game.step(Move.attack(src, dst, dice))
    nd = min(2, int(game.state.armies[dst]))
    before = int(game.state.armies[src])
    assert _steer_stream(game._cut, dice, nd, lose, game.state.rng) >= 1
    game.step(Move.defend(nd))
    conquered = game.state.owner[dst] == game.state.owner[src]
    assert before - int(game.state.armies[src]) - (dice if conquered else 0) == lose
