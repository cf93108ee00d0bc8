"""A smoke test of learning on `SingleAgentEnv` (the ``learn`` extra: sb3-contrib, torch): a few hundred steps of
sb3-contrib's MaskablePPO train, and the trained agent's every action over an evaluation game is in the mask,
though the same network without the mask would choose illegal ones; and scripts/make/train_ppo.py writes its curve and
its final evaluation, and evaluates a saved model again.
Skipped where the extra is not installed (the main test environment)."""
import csv
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sb3_contrib = pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

from sb3_contrib.common.wrappers import ActionMasker  # noqa: E402

from riskstats.env.single_agent import SingleAgentEnv, play_against  # noqa: E402
from riskstats.game.rules.options import GameRules  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SHORT = GameRules(variant="two-player", max_turns=100)


@pytest.fixture(scope="module")
def model():
    torch.set_num_threads(1)
    env = ActionMasker(SingleAgentEnv(opponents=("random", "uniform"), rules=SHORT, shaping=0.5, seed=0),
                       lambda e: e.action_masks())
    ppo = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=2, seed=0, device="cpu",
                                  policy_kwargs={"net_arch": [32, 32]})
    before = [p.detach().clone() for p in ppo.policy.parameters()]
    ppo.learn(total_timesteps=384)
    assert ppo.num_timesteps >= 384
    assert any(not torch.equal(a, b) for a, b in zip(before, ppo.policy.parameters()))  # it did update
    return ppo


@pytest.mark.parametrize("deterministic", [True, False])
def test_the_trained_agent_only_chooses_legal_actions(model, deterministic):
    env = SingleAgentEnv(opponents="random", rules=SHORT, seed=3)
    obs, info = env.reset()
    illegal_without_mask = decisions = 0
    done = False
    while not done:
        mask = env.action_masks()
        action, _ = model.predict(obs, action_masks=mask, deterministic=deterministic)
        assert mask[int(action)], f"illegal action {int(action)} at decision {decisions}"
        unmasked, _ = model.predict(obs, deterministic=True)
        illegal_without_mask += not mask[int(unmasked)]
        obs, reward, terminated, truncated, info = env.step(int(action))
        decisions += 1
        done = terminated or truncated
    assert decisions > 20 and env.game.over
    assert illegal_without_mask > 0  # the mask is what keeps it legal: 629 ids, some 15 legal at a time


def test_play_against_plays_the_trained_policy(model):
    policy = lambda obs, mask: int(model.predict(obs, action_masks=mask, deterministic=True)[0])  # noqa: E731
    tally = play_against(policy, "uniform", 2, seed=5, rules=SHORT)
    assert tally["games"] == 2 == tally["wins"] + tally["losses"] + tally["truncated"]


def test_the_training_script_writes_its_curve_with_its_command(tmp_path):
    out = tmp_path / "curve.csv"
    command = [sys.executable, "scripts/make/train_ppo.py", "--steps", "256", "--eval-every", "256",
               "--eval-games", "2", "--n-envs", "2", "--n-steps", "64", "--batch-size", "64", "--epochs", "1",
               "--net", "16", "--max-turns", "60", "--phase", "128:random", "--out", str(out),
               "--plot", str(tmp_path / "c.png"), "--model", str(tmp_path / "m.zip"), "--final-games", "3",
               "--final-out", str(tmp_path / "final.csv")]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    first, *rest = out.read_text().splitlines()
    assert first.startswith("# python scripts/make/train_ppo.py --steps 256")
    rows = list(csv.DictReader(rest))
    assert [(r["steps"], r["opponent"]) for r in rows] == [("0", "uniform"), ("0", "random"),
                                                          ("256", "uniform"), ("256", "random")]
    for r in rows:
        wins, games = int(r["wins"]), int(r["games"])
        assert games == 2 == wins + int(r["losses"]) + int(r["truncated"])
        assert float(r["low"]) <= float(r["win_rate"]) == wins / games <= float(r["high"])
    assert "training opponents now random" in done.stdout
    assert (tmp_path / "c.png").stat().st_size > 1000
    assert np.isfinite([float(r["cpu_s"]) for r in rows]).all()
    final = list(csv.DictReader((tmp_path / "final.csv").read_text().splitlines()[1:]))
    assert [(r["steps"], r["opponent"], r["games"]) for r in final] == [("256", "uniform", "3"), ("256", "random", "3")]
    # a saved model is evaluated again on the same final seeds: the same tally
    again = [sys.executable, "scripts/make/train_ppo.py", "--load", str(tmp_path / "m.zip"), "--steps", "0",
             "--max-turns", "60", "--n-envs", "1", "--eval-opponents", "random", "--final-games", "3", "--final-out",
             str(tmp_path / "again.csv"), "--out", str(tmp_path / "no_curve.csv")]
    done = subprocess.run(again, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    (row,) = csv.DictReader((tmp_path / "again.csv").read_text().splitlines()[1:])
    assert (row["steps"], row["wins"], row["losses"]) == ("256", final[1]["wins"], final[1]["losses"])
    assert not (tmp_path / "no_curve.csv").exists()  # --steps 0: no training, no curve
