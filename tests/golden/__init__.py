"""The golden games, listed once: the seeded playthroughs (one event log per variant, ``*_seed7.csv``) and the
fingerprints of look-ahead games (``lookahead_games.csv``), with the code that plays them.

The tests compare each game with its committed file (tests/game/test_play.py, tests/game/test_value_bot.py);
``scripts/tools/regenerate_golden.py`` and ``scripts/tools/golden_lookahead.py`` rewrite the files after a
deliberate change of play. This module holds the tables and plays the games; it writes no file.
"""
import hashlib
from pathlib import Path

import pandas as pd

from riskstats.game.play import play_game
from riskstats.game.rules.options import GameRules
from riskstats.game.rules.state import I_MOVES

FOLDER = Path(__file__).resolve().parent
"""The folder of the committed golden files (this one)."""

GOLDENS = {
    "classic_4p_seed7.csv": (4, ["random", "aggressive", "continent", "defensive"], GameRules(), 7),
    "mission_4p_seed7.csv": (4, ["mission", "aggressive", "mission", "random"], GameRules(variant="mission"), 7),
    "capital_4p_seed7.csv": (4, ["capital", "aggressive", "capital", "random"], GameRules(variant="capital"), 7),
    "two_player_seed7.csv": (2, ["aggressive", "continent"], GameRules(variant="two-player"), 7),
}
"""File name -> (players, bots, rules, seed) of each golden playthrough."""

LOOKAHEAD_FILE = FOLDER / "lookahead_games.csv"
LOOKAHEAD_CASES = [
    ("classic", 4, "value,value,value,value", range(12)),
    ("classic", 4, "value,continent-tuned,continent-tuned,continent-tuned", range(12)),
    ("two-player", 2, "value,continent-tuned", range(8)),
    ("mission", 4, "value,mission,value,continent-tuned", range(4)),
    ("capital", 3, "value,capital,continent-tuned", range(4)),
    ("two-player", 2, "search,continent-tuned", range(4)),
    ("classic", 4, "search:rollouts=3:plans=8,continent-tuned,aggressive,value", range(3)),
    ("two-player", 2, "search:rollouts=4:horizon=0:plans=8:value=model,search:rollouts=4", range(4)),
]
"""(variant, players, line-up, seeds) of the fingerprinted look-ahead games."""


def golden_events(name: str) -> pd.DataFrame:
    """The event log of the golden playthrough ``name`` (a key of `GOLDENS`), played again."""
    players, bots, rules, seed = GOLDENS[name]
    return play_game(players, bots, rules, seed=seed).events()


def fingerprints() -> pd.DataFrame:
    """Winner, turns, moves and a digest of the final board of each look-ahead game, played again."""
    rows = []
    for variant, players, bots, seeds in LOOKAHEAD_CASES:
        for seed in seeds:
            game = play_game(players, bots.split(","), GameRules(variant=variant), seed=seed, log=False)
            board = game.state.owner.tobytes() + game.state.armies.tobytes()
            rows.append({"variant": variant, "players": players, "bots": bots, "seed": seed,
                         "winner": game.winner, "turn": game.turn, "moves": int(game.state.info[I_MOVES]),
                         "board": hashlib.sha1(board).hexdigest()[:12]})
    return pd.DataFrame(rows)
