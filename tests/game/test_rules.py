"""GameRules: validation, set values, the rule vector."""
import pytest

from riskstats.errors import RiskstatsError
from riskstats.game.board import classic_board
from riskstats.game.rules import R_CARDS_PER_TURN, R_NEUTRAL, R_SEATS, R_START, GameRules


def test_progressive_values():
    assert GameRules().set_values(10) == [4, 6, 8, 10, 12, 15, 20, 25, 30, 35]


@pytest.mark.parametrize("kwargs", [{"variant": "risk2210"}, {"escalation": "steep"}, {"fortify": "anywhere"},
                                    {"territory_bonus": "always"}, {"setup": "auction"}, {"max_turns": 0},
                                    {"two_player_classic_50": True}, {"fixed_values": (1, 2)},
                                    {"cards_per_turn": "all"}])
def test_bad_options(kwargs):
    with pytest.raises(RiskstatsError):
        GameRules(**kwargs)


def test_players_and_starting_armies():
    board = classic_board()
    assert GameRules().starting_armies(4, board) == 30
    assert GameRules().starting_armies(6, board) == 20
    with pytest.raises(RiskstatsError):
        GameRules().check_players(2, board)
    with pytest.raises(RiskstatsError):
        GameRules(variant="two-player").check_players(3, board)
    r = GameRules(variant="two-player").vector(2, board)
    assert (r[R_NEUTRAL], r[R_SEATS], r[R_START]) == (2, 3, 40)
    r = GameRules(variant="two-player", two_player_classic_50=True).vector(2, board)
    assert (r[R_NEUTRAL], r[R_SEATS], r[R_START]) == (-1, 2, 50)


def test_record_is_plain():
    d = GameRules().as_dict()
    assert d["cards_per_turn"] == "one"
    assert GameRules(cards_per_turn="per_conquest").vector(4, classic_board())[R_CARDS_PER_TURN] == 1
    assert d["setup"] == "choice" and d["dice"]["defender_dice"] == 2
    assert GameRules(variant="two-player").as_dict()["setup"] == "deal"
