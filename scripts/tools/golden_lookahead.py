"""Fingerprints of seeded games with look-ahead seats (tests/golden/lookahead_games.csv): winner, turns, moves
and a digest of the final board of each, so that a change meant to speed the search and value bots without
changing their play is checked game for game (tests/game/test_value_bot.py).

Run only after a deliberate change of how those bots play: ``python scripts/tools/golden_lookahead.py``.
The games (``LOOKAHEAD_CASES``) are listed in tests/golden/__init__.py, beside the file and read by the test.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout's root, for tests.golden

from tests.golden import LOOKAHEAD_FILE, fingerprints  # noqa: E402

if __name__ == "__main__":
    fingerprints().to_csv(LOOKAHEAD_FILE, index=False)
    print(f"wrote {LOOKAHEAD_FILE}")
