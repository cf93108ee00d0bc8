"""Regenerate the golden playthrough: the event log of one seeded game (tests/golden/*.csv).

Run after a deliberate rule change, then read the diff: ``python scripts/regenerate_golden.py``.
"""
from pathlib import Path

from riskstats.game import play_game

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden" / "classic_4p_seed7.csv"
PLAYERS, BOTS, SEED = 4, ["random", "aggressive", "continent", "defensive"], 7


def golden_events():
    return play_game(PLAYERS, BOTS, seed=SEED).events()


if __name__ == "__main__":
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    golden_events().to_csv(GOLDEN, index=False)
    print(f"wrote {GOLDEN}")
