"""The environments' options: one list of names each, and a bad value is a one-line error naming it in every
environment."""
import pytest

from riskstats.env import VectorEnv
from riskstats.env.actions import ActionEncoding
from riskstats.env.macro import MacroEncoding
from riskstats.env.spaces import ACTIONS, action_space, check_choice
from riskstats.errors import RiskstatsError
from riskstats.game.rules.board import classic_board
from riskstats.game.rules.options import GameRules


def test_action_space_builds_the_space_named():
    board, rules = classic_board(), GameRules()
    assert ACTIONS == ("full", "macro")
    assert isinstance(action_space(board, rules), ActionEncoding) and action_space(board, rules).n == 5971
    macro = action_space(board, rules, "macro", "auto")
    assert isinstance(macro, MacroEncoding) and macro.n == 629
    assert check_choice("actions", "macro", ACTIONS) == "macro"


@pytest.mark.parametrize("kwargs,message", [
    ({"actions": "micro"}, "actions must be one of full, macro, got 'micro'"),
    ({"actions": None}, "actions must be one of full, macro, got None"),
    ({"defend": "never"}, "defend must be one of choose, auto, got 'never'"),
    ({"observation": "scaled"}, "observation must be one of raw, log1p, got 'scaled'")])
def test_a_bad_option_is_one_line_naming_it(kwargs, message):
    with pytest.raises(RiskstatsError, match=f"^{message}$"):
        VectorEnv(2, **kwargs)
