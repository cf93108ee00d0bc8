"""Regenerate the golden playthroughs: the event log of one seeded game per variant (tests/golden/*.csv).

Run after a deliberate rule change, then read the diff: ``python scripts/tools/regenerate_golden.py``.
"""
from pathlib import Path

from riskstats.game.play import play_game
from riskstats.game.rules.options import GameRules

FOLDER = Path(__file__).resolve().parents[2] / "tests" / "golden"
GOLDENS = {
    "classic_4p_seed7.csv": (4, ["random", "aggressive", "continent", "defensive"], GameRules(), 7),
    "mission_4p_seed7.csv": (4, ["mission", "aggressive", "mission", "random"], GameRules(variant="mission"), 7),
    "capital_4p_seed7.csv": (4, ["capital", "aggressive", "capital", "random"], GameRules(variant="capital"), 7),
    "two_player_seed7.csv": (2, ["aggressive", "continent"], GameRules(variant="two-player"), 7),
}
"""File name -> (players, bots, rules, seed)."""


def golden_events(name: str):
    players, bots, rules, seed = GOLDENS[name]
    return play_game(players, bots, rules, seed=seed).events()


if __name__ == "__main__":
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name in GOLDENS:
        golden_events(name).to_csv(FOLDER / name, index=False)
        print(f"wrote {FOLDER / name}")
