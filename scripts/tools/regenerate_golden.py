"""Regenerate the golden playthroughs: the event log of one seeded game per variant (tests/golden/*.csv).

Run after a deliberate rule change, then read the diff: ``python scripts/tools/regenerate_golden.py``.
The list of games (``GOLDENS``) lives in tests/golden/__init__.py, beside the files and read by the tests.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout's root, for tests.golden

from tests.golden import FOLDER, GOLDENS, golden_events  # noqa: E402

if __name__ == "__main__":
    for name in GOLDENS:
        golden_events(name).to_csv(FOLDER / name, index=False)
        print(f"wrote {FOLDER / name}")
