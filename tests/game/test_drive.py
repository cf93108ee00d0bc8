"""The one driver: every compiled caller plays through `_drive`, which picks the plain or the look-ahead loop."""
import ast
from pathlib import Path

import numpy as np

import riskstats
from riskstats.game.bots.catalog import Lineup
from riskstats.game.drive import drive
from riskstats.game.loop import NO_HORIZON
from riskstats.game.play import Game

PACKAGE = Path(riskstats.__file__).parent


def test_only_the_driver_chooses_between_the_loops():
    """The plain loop `_play` is imported only by the driver and by the look-ahead loop itself, the look-ahead
    loop `_play_search` only by the driver: no caller writes the plain-or-look-ahead choice again."""
    importers = {"_play": set(), "_play_search": set()}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module in ("riskstats.game.loop", "riskstats.game.search"):
                for alias in node.names:
                    if alias.name in importers:
                        importers[alias.name].add(path.relative_to(PACKAGE).as_posix())
    assert importers == {"_play": {"game/drive.py", "game/search.py"}, "_play_search": {"game/drive.py"}}


def test_the_driver_plays_a_game_as_the_step_api_does():
    """A game played on by the driver (fresh plan memory) ends as `Game.play` ends it, with and without a
    look-ahead seat."""
    for lineup in (["continent", "aggressive", "random"], ["value:rollouts=1:plans=2", "aggressive", "random"]):
        played = Game(3, seed=4, log=False).play(lineup)
        game = Game(3, seed=4, log=False)
        ids, params = Lineup.of(lineup).arrays(3)
        assert drive(game.state, game.context, ids, params, True, NO_HORIZON, NO_HORIZON, None) == 0
        assert game.state.info[:8].tolist() == played.state.info[:8].tolist()
        assert np.array_equal(game.state.owner, played.state.owner)
