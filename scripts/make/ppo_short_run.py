"""The PPO example of docs/environments.md, measured further: its greedy policy against `random` as it trains.

``NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 python scripts/make/ppo_short_run.py > data/env/ppo_short_run.txt`` (the `learn`
extra). The example's environment and `MaskablePPO` (sb3-contrib's defaults, seed 0); 100 games against `random`
(`play_against`, seed 1, the same games each time) untrained, then after training on to 10,000, 50,000, 100,000 and
200,000 steps (each `learn` call finishes its rollout of 2,048 steps: 10,240, 51,200, ... steps), with the wins' 95%
Wilson interval and the CPU seconds of each part. Its first two tallies are what the example prints.
"""
import time

from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker

from riskstats.env.single_agent import SingleAgentEnv, play_against
from riskstats.intervals import wilson_interval

env = ActionMasker(SingleAgentEnv(opponents=("random", "random", "random", "uniform"), shaping=0.5, seed=0),
                   lambda e: e.action_masks())
model = MaskablePPO("MlpPolicy", env, seed=0, device="cpu")


def policy(obs, mask):
    return int(model.predict(obs, action_masks=mask, deterministic=True)[0])


def point(label):
    c0, w0 = time.process_time(), time.time()
    t = play_against(policy, "random", games=100, seed=1)
    lo, hi = wilson_interval(t["wins"], t["games"])
    print(f"{label}: steps {model.num_timesteps} {t} wins {t['wins']}/100 [{lo:.2f}, {hi:.2f}] "
          f"eval {time.process_time() - c0:.1f} CPU s {time.time() - w0:.1f} wall; total CPU {time.process_time():.1f}",
          flush=True)


point("untrained")
done = 0
for n in [10_000, 50_000, 100_000, 200_000]:
    c0, w0 = time.process_time(), time.time()
    model.learn(n - done, reset_num_timesteps=(done == 0))
    done = n
    print(f"learn to {n}: {time.process_time() - c0:.1f} CPU s {time.time() - w0:.1f} wall", flush=True)
    point(f"after learn to {n}")
