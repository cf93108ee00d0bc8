"""Observations: the layout, and hidden information staying hidden."""
import numpy as np

from riskstats.env.actions import ActionEncoding
from riskstats.env.observation import ObservationLayout
from riskstats.game.play import Game
from riskstats.game.rules.objectives import _give_mission
from riskstats.game.rules.options import GameRules
from riskstats.game.rules.state import DECK, I_DECK_N


def played(players, rules, seed, moves, until=lambda game: False):
    """A game after ``moves`` random masked ids, or as soon as ``until(game)``."""
    game = Game(players, rules, seed=seed, log=False)
    enc = ActionEncoding.for_game(game)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if game.over or until(game):
            break
        game.step(enc.decode(game, int(rng.choice(np.flatnonzero(enc.mask(game))))))
    return game


def test_layout_fields_cover_the_vector():
    game = played(4, GameRules(variant="mission"), 1, 300)
    layout = ObservationLayout.for_game(game)
    obs = layout.observe(game, 1)
    f = layout.fields(obs)
    assert sum(s.stop - s.start for s in layout.slices.values()) == layout.size == obs.size
    assert (f["owner"].sum(axis=1) == 1).all()  # every territory owned once the claim is over
    np.testing.assert_array_equal(f["armies"], game.state.armies)
    assert f["me"].argmax() == 1 and f["to_move"].argmax() == game.player
    assert f["hand"].sum() == len(game.hand(1))
    np.testing.assert_array_equal(f["hand_sizes"], [len(h) for h in game.hands])
    assert f["mission"].argmax() == game.state.mission[1, 0]
    assert "capitals" not in f


def test_a_seat_never_sees_other_seats_cards_missions_or_the_pile():
    game = played(4, GameRules(variant="mission"), 7, 5000,
                  until=lambda g: len(g.hand(0)) >= 2 and sum(len(h) for h in g.hands[1:]) >= 3)
    assert not game.over and len(game.hand(0)) >= 2
    layout = ObservationLayout.for_game(game)
    seat = 0
    before = layout.observe(game, seat).copy()
    st = game.state
    rng = np.random.default_rng(0)
    # deal the other seats' cards and the draw pile afresh (same hand sizes), give them other missions,
    # and reseed the random stream
    owner = st.card_owner
    pool = np.flatnonzero(np.isin(owner, [1, 2, 3]) | (owner == DECK))
    shuffled = pool[rng.permutation(len(pool))]
    sizes = [int((owner == q).sum()) for q in (1, 2, 3)]
    k = 0
    for q, n in zip((1, 2, 3), sizes):
        owner[shuffled[k:k + n]] = q
        k += n
    owner[shuffled[k:]] = DECK
    st.deck[:st.info[I_DECK_N]] = shuffled[k:]
    own = int(st.mission[seat, 0])
    others = [m for m in range(game.board.arrays.missions.shape[0]) if m != own]
    for q in (1, 2, 3):
        _give_mission(st, game.board.arrays, q, int(rng.choice(others)))
    st.rng[0] = np.uint64(12345)
    assert not np.array_equal(pool, shuffled)
    np.testing.assert_array_equal(layout.observe(game, seat), before)
    # the seat's own cards and mission are in it: changing them changes the observation
    mine = np.flatnonzero(owner == seat)
    if len(mine):
        owner[mine[0]] = DECK
        assert not np.array_equal(layout.observe(game, seat), before)


def test_capital_picks_stay_hidden_until_all_have_picked():
    game = Game(3, GameRules(variant="capital", setup="deal"), seed=4, log=False)
    while game.phase != "capital":
        game.step(game.bot_move("random"))
    layout = ObservationLayout.for_game(game)
    enc = ActionEncoding.for_game(game)
    seen_by_1 = layout.observe(game, 1).copy()
    game.step(enc.decode(game, int(np.flatnonzero(enc.mask(game))[0])))  # seat 0 picks
    caps = layout.fields(layout.observe(game, 1))["capitals"]
    assert caps[:, 0].sum() == 0  # seat 1 does not see seat 0's pick
    assert layout.fields(layout.observe(game, 0))["capitals"][:, 0].sum() == 1  # seat 0 sees its own
    np.testing.assert_array_equal(layout.fields(seen_by_1)["capitals"], caps)
    while game.phase == "capital":
        game.step(enc.decode(game, int(np.flatnonzero(enc.mask(game))[0])))
    assert layout.fields(layout.observe(game, 1))["capitals"].sum() == 3  # revealed


def test_log1p_observation_scales_the_counts_and_leaves_the_flags():
    game = played(4, GameRules(), 3, 600)
    raw = ObservationLayout.for_game(game)
    scaled = ObservationLayout.for_game(game, "log1p")
    assert scaled.size == raw.size and scaled.log1p and not raw.log1p
    a, b = raw.fields(raw.observe(game, 2)), scaled.fields(scaled.observe(game, 2))
    assert a["armies"].max() > 1
    for name in a:
        if name in ("armies", "hand_sizes", "sets_traded", "reserve", "to_place", "attack_dice", "conquered", "turn",
                    "deck"):
            np.testing.assert_allclose(b[name], np.log1p(a[name]), rtol=1e-6)
        else:
            np.testing.assert_array_equal(b[name], a[name])
