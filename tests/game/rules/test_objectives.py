"""riskstats.game.rules.objectives: missions, capitals and the winner, on positions set by hand."""
import numpy as np

from riskstats.game.play import Game
from riskstats.game.rules.objectives import _give_mission, _lose_target, _mission_done, _winner
from riskstats.game.rules.options import GameRules
from riskstats.game.rules.state import (
    I_PLAYER,
    M_COUNT,
    M_KIND,
    MK_ACHIEVED,
    MK_DESTROY,
    MK_TERRITORIES,
    WIN_ALL,
    WIN_MISSION,
)


def mission_game(**rules):
    game = Game(4, GameRules(variant="mission", **rules), seed=2, log=False)
    return game, game.state, game.board.arrays, game.context.R


def card(B, kind, **columns):
    """The first mission card of ``kind`` whose decoded columns match ``columns``."""
    for m, row in enumerate(B.missions):
        if row[0] == kind and all(row[{"count": 4, "min": 5, "target": 6}[k]] == v for k, v in columns.items()):
            return m
    raise AssertionError("no such card")


def test_a_territory_mission_is_done_with_its_count_and_not_before():
    game, st, B, R = mission_game()
    _give_mission(st, B, 0, card(B, MK_TERRITORIES, count=24))
    st.owner[:] = 1
    st.owner[:23] = 0
    st.armies[:] = 1
    assert not _mission_done(st, B, 0)
    st.owner[23] = 0
    assert _mission_done(st, B, 0)
    st.info[I_PLAYER] = 0
    assert _winner(st, B, R) == (0, WIN_MISSION)


def test_a_destroy_mission_naming_its_own_colour_becomes_24_territories():
    game, st, B, R = mission_game()
    _give_mission(st, B, 2, card(B, MK_DESTROY, target=2))
    assert st.mission[2, M_KIND] == MK_TERRITORIES and st.mission[2, M_COUNT] == 24


def test_a_target_lost_to_another_seat_is_achieved_or_24_territories_as_the_rules_say():
    for rule, kind in (("achieved", MK_ACHIEVED), ("24_territories", MK_TERRITORIES)):
        game, st, B, R = mission_game(mission_target_lost=rule)
        _give_mission(st, B, 0, card(B, MK_DESTROY, target=1))
        _lose_target(st, R, 0)
        assert st.mission[0, M_KIND] == kind


def test_the_last_seat_standing_wins_in_every_variant():
    for variant in ("classic", "mission", "capital"):
        game = Game(3, GameRules(variant=variant), seed=1, log=False)
        st = game.state
        st.alive[:] = np.array([0, 1, 0])
        assert _winner(st, game.board.arrays, game.context.R) == (1, WIN_ALL)
