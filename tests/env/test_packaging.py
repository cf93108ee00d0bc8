"""The environments stay out of the core: ``import riskstats`` and the CLI load none of them, and the
``rl`` extra (also in ``dev``) names their packages; the ``learn`` extra (not in ``dev``) names the learners'."""
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_core_and_cli_do_not_import_the_environments():
    code = ("import sys, riskstats, riskstats.cli; riskstats.battle_odds(3, 2); "
            "print(sorted(m for m in sys.modules if m.startswith(('riskstats.env', 'pettingzoo', 'pyspiel', "
            "'gymnasium', 'open_spiel'))))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_rl_extra_and_dev_name_the_packages():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for name in ("pettingzoo", "gymnasium", "open-spiel"):
        assert any(r.startswith(name) for r in extras["rl"])
        assert any(r.startswith(name) for r in extras["dev"])


def test_learn_extra_names_the_learners_and_dev_does_not():
    """sb3-contrib and torch come with ``learn`` alone: the main test environment (``dev``) stays without torch, and
    the smoke test of learning skips there."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for name in ("sb3-contrib", "torch", "gymnasium", "pettingzoo"):
        assert any(r.startswith(name) for r in extras["learn"])
    for name in ("sb3-contrib", "stable-baselines3", "torch"):
        assert not any(r.startswith(name) for r in extras["dev"])
