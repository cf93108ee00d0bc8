"""The ``uniform`` bot: its moves are legal, spread uniformly over `Game.legal_moves`, and it plays every phase."""
from collections import Counter

import pytest
from scipy import stats

from riskstats.game.play import Game, play_game
from tests.variants import cases

VARIANTS = cases("two-player", "capital", "classic-5-flat-adjacent", "mission-4-choice")


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_uniform_plays_only_legal_moves_in_every_phase(variant):
    """Step by step from Python: each move is one of `Game.legal_moves`; the seats cover the phases."""
    players, rules = VARIANTS[variant]
    game = Game(players, rules, seed=5)
    phases = set()
    for _ in range(400):
        if game.over:
            break
        move = game.bot_move("uniform")
        assert move in game.legal_moves(), (game.phase, move)
        phases.add(game.phase)
        game.step(move)
    assert {"reinforce", "attack", "defend", "fortify"} <= phases


def _position(phase, seed=3):
    """A two-player position in ``phase``, reached by aggressive play."""
    game = Game(2, seed=seed)
    while game.phase != phase or (phase == "fortify" and len(game.legal_moves()) < 20):
        game.step(game.bot_move("aggressive"))
    return game


@pytest.mark.parametrize("phase", ["reinforce", "attack", "fortify"])
def test_uniform_spreads_over_the_legal_moves(phase):
    """Drawn again and again at one position (the stream moves on at each draw), its moves are uniform over
    the legal moves: every one is drawn, and a chi-square test does not reject uniformity (fixed seed)."""
    game = _position(phase)
    legal = game.legal_moves()
    k = len(legal)
    draws = Counter(game.bot_move("uniform") for _ in range(40 * k))
    assert set(draws) == set(legal)
    assert stats.chisquare([draws[m] for m in legal]).pvalue > 0.001


def test_uniform_games_end_against_a_strategy_and_may_hit_the_turn_cap_alone():
    """Against the random heuristic it loses quickly; two uniform bots may play to the turn cap (truncated)."""
    for seed in range(2):
        game = play_game(2, ["uniform", "random"][::1 - 2 * seed], seed=seed)
        assert game.over and game.winner == 1 - seed
    game = play_game(2, ["uniform", "uniform"], seed=1)
    assert game.over and (game.winner >= 0) != game.truncated
