"""The card kernels of riskstats.game.rules.cards: what makes a set, what it is worth, what a turn draws."""
import numpy as np
import pytest

from riskstats.game.play import Game
from riskstats.game.rules.board import WILD, classic_board
from riskstats.game.rules.cards import _find_set, _has_set, _progressive, _set_kind
from riskstats.game.rules.state import DECK

BOARD = classic_board()
SYM = BOARD.arrays.card_symbol
INF, CAV, ART, WILDS = (np.flatnonzero(SYM == s).tolist() for s in (0, 1, 2, WILD))


@pytest.mark.parametrize("cards, kind", [
    ((INF[0], INF[1], INF[2]), 0), ((CAV[0], CAV[1], CAV[2]), 1), ((ART[0], ART[1], ART[2]), 2),
    ((INF[0], CAV[0], ART[0]), 3), ((INF[0], INF[1], WILDS[0]), 4), ((INF[0], CAV[1], WILDS[0]), 4),
    ((INF[0], WILDS[0], WILDS[1]), 4), ((INF[0], INF[1], CAV[0]), -1), ((ART[0], ART[1], CAV[0]), -1),
])
def test_set_kinds(cards, kind):
    assert _set_kind(BOARD.arrays, *cards) == kind


def test_has_set_agrees_with_the_set_search():
    game = Game(3, seed=0)
    rng = np.random.default_rng(7)
    for size in [0, 1, 2, 3, 3, 3, 4, 4, 5, 6] * 40:
        game.state.card_owner[:] = DECK
        game.state.card_owner[rng.choice(44, size, replace=False)] = 0
        found = _find_set(game.state, BOARD.arrays, 0, 0, False)
        assert _has_set(game.state, BOARD.arrays, 0) == (found[0] >= 0)
        if found[0] >= 0:
            assert _set_kind(BOARD.arrays, *found) >= 0


def test_progressive_set_values():
    assert [_progressive(k) for k in range(9)] == [4, 6, 8, 10, 12, 15, 20, 25, 30]
