"""The action encoding: every legal Move has a masked id, every masked id decodes to a legal Move that
encodes back to it, over seeded random games of every variant."""
import numpy as np
import pytest

from riskstats.env.actions import BLOCKS, ActionEncoding
from riskstats.errors import RiskstatsError
from riskstats.game.play import Game, Move
from riskstats.game.rules.options import GameRules
from tests.variants import MAIN, cases

VARIANTS = {**MAIN, **cases("classic-5-house")}


def random_walk(players, rules, seed, moves):
    """Yield (game, encoding, mask) along a game played by uniformly random masked ids."""
    game = Game(players, rules, seed=seed, log=False)
    enc = ActionEncoding.for_game(game)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if game.over:
            break
        mask = enc.mask(game)
        yield game, enc, mask
        game.step(enc.decode(game, int(rng.choice(np.flatnonzero(mask)))))


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_round_trips_over_a_random_game(name):
    players, rules = VARIANTS[name]
    phases = set()
    for game, enc, mask in random_walk(players, rules, seed=11, moves=1200):
        phases.add(game.phase)
        ids = np.flatnonzero(mask)
        assert len(ids) > 0
        for a in ids:  # every masked id is a legal Move, and encodes back to itself
            move = enc.decode(game, a)
            assert game.check(move) == ""
            assert enc.encode(game, move) == a
        moves = game.legal_moves()
        if len(moves) > 2000:
            moves = [moves[i] for i in np.random.default_rng(0).choice(len(moves), 2000, replace=False)]
        encoded = {enc.encode(game, m) for m in moves}  # every legal Move has a masked id
        assert all(mask[a] for a in encoded)
        if len(moves) == len(game.legal_moves()):
            assert encoded == set(ids.tolist())  # and the mask holds nothing else
    assert {"attack", "defend", "fortify"} <= phases, phases
    if name != "two-player":
        assert "occupy" in phases


def test_every_phase_kind_is_met_in_a_classic_game():
    phases = {game.phase for game, _, _ in random_walk(4, GameRules(), seed=3, moves=3000)}
    assert {"claim", "setup_place", "reinforce", "trade", "attack", "defend", "occupy", "fortify"} <= phases


def test_blocks_tile_the_ids():
    game = Game(4, seed=0, log=False)
    enc = ActionEncoding.for_game(game)
    blocks = enc.blocks
    assert list(blocks) == list(BLOCKS)
    T, E = 42, int(game.board.arrays.nbr_src.shape[0])
    assert E == 2 * game.board.n_borders
    assert blocks["place"] == (0, 3 * T)
    assert blocks["attack"][1] - blocks["attack"][0] == 3 * E
    assert blocks["fortify"][1] - blocks["fortify"][0] == 3 * T * T
    assert enc.n == blocks["end_turn"][1]
    starts = [b[0] for b in blocks.values()]
    assert starts == sorted(starts)


def test_amount_levels():
    game = Game(3, GameRules(setup="deal"), seed=2, log=False)
    while game.phase != "reinforce":
        game.step(game.bot_move("random"))
    enc = ActionEncoding.for_game(game)
    reserve = game.reserve
    t = int(np.flatnonzero(game.state.owner == game.player)[0])
    assert enc.decode(game, 3 * t) == Move.place(t, reserve)
    assert enc.decode(game, 3 * t + 1) == Move.place(t, 1)
    assert enc.decode(game, 3 * t + 2) == Move.place(t, (1 + reserve) // 2)
    assert enc.encode(game, Move.place(t, 2)) == 3 * t + 2  # a bucketed amount: the middle level
    assert enc.describe(3 * t + 1) == f"place {t} least"


def test_illegal_ids_and_moves_are_refused():
    game = Game(4, seed=0, log=False)
    enc = ActionEncoding.for_game(game)
    with pytest.raises(RiskstatsError, match="not legal"):
        enc.decode(game, enc.blocks["end_turn"][0])
    with pytest.raises(RiskstatsError, match="action"):
        enc.decode(game, enc.n)
    with pytest.raises(RiskstatsError, match="not legal"):
        enc.encode(game, Move.end_turn())
