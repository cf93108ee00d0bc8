"""Fingerprints of seeded games with look-ahead seats (tests/golden/lookahead_games.csv): winner, turns, moves
and a digest of the final board of each, so that a change meant to speed the search and value bots without
changing their play is checked game for game (tests/game/test_value_bot.py).

Run only after a deliberate change of how those bots play: ``python scripts/tools/golden_lookahead.py``.
"""
import hashlib
from pathlib import Path

import pandas as pd

from riskstats.game.play import play_game
from riskstats.game.rules.options import GameRules
from riskstats.game.rules.state import I_MOVES

FILE = Path(__file__).resolve().parents[2] / "tests" / "golden" / "lookahead_games.csv"
CASES = [
    ("classic", 4, "value,value,value,value", range(12)),
    ("classic", 4, "value,continent-tuned,continent-tuned,continent-tuned", range(12)),
    ("two-player", 2, "value,continent-tuned", range(8)),
    ("mission", 4, "value,mission,value,continent-tuned", range(4)),
    ("capital", 3, "value,capital,continent-tuned", range(4)),
    ("two-player", 2, "search,continent-tuned", range(4)),
    ("classic", 4, "search:rollouts=3:plans=8,continent-tuned,aggressive,value", range(3)),
    ("two-player", 2, "search:rollouts=4:horizon=0:plans=8:value=model,search:rollouts=4", range(4)),
]
"""(variant, players, line-up, seeds) of the fingerprinted games."""


def fingerprints() -> pd.DataFrame:
    rows = []
    for variant, players, bots, seeds in CASES:
        for seed in seeds:
            game = play_game(players, bots.split(","), GameRules(variant=variant), seed=seed, log=False)
            board = game.state.owner.tobytes() + game.state.armies.tobytes()
            rows.append({"variant": variant, "players": players, "bots": bots, "seed": seed,
                         "winner": game.winner, "turn": game.turn, "moves": int(game.state.info[I_MOVES]),
                         "board": hashlib.sha1(board).hexdigest()[:12]})
    return pd.DataFrame(rows)


if __name__ == "__main__":
    fingerprints().to_csv(FILE, index=False)
    print(f"wrote {FILE}")
