"""Train a masked PPO agent (sb3-contrib's ``MaskablePPO``) on one seat of two-player Classic, against built-in bots,
and record its learning curve (issue 31 §3).

``python scripts/make/train_ppo.py [--steps 2000000] [--eval-every 100000] [--eval-games 100]
[--train-opponents random,random,random,uniform] [--shaping 0.5] [--seed 31] [--out data/env/learning_curve.csv]
[--plot docs/learning_curve.png] [--model ppo.zip] [--final-games 500 --final-out data/env/learning_final.csv]``

Needs the ``learn`` extra (install the torch build you want first, a CPU build is enough; then
``pip install -e ".[learn]"``). The environment is `riskstats.env.single_agent.SingleAgentEnv`: the PettingZoo
environment with macro actions, automatic defence and log1p observations, two players with the neutral, the
learner's seat rotating, every other seat played by a bot drawn from ``--train-opponents`` each episode (a list
with repeats weights the mix; ``--phase`` switches it part-way, a curriculum), the turn cap ``--max-turns``. The
reward is +1 for a win, -1 for a loss, 0 at the cap, plus ``--shaping`` times the change in the learner's share of
the territories.

Every ``--eval-every`` steps (and before training) the greedy policy (the most probable legal action) plays
``--eval-games`` games against each of ``--eval-opponents`` (`riskstats.env.single_agent.play_against`, seats
rotating, the same game seeds at each point); a row per opponent goes to ``--out`` at once, so an interrupted run
keeps the points it finished: wins over games (a truncated game is no win) with the Wilson 95% interval
(`riskstats.intervals.wilson_interval`), and the process CPU seconds so far. The command is the file's first line.
``--final-games N --final-out PATH`` then plays N games against each on other seeds (the curve's points are chosen
on theirs); ``--load MODEL --steps 0`` evaluates a saved model only (``--model`` saves one).
One thread (``torch.set_num_threads(1)``; set ``NUMBA_NUM_THREADS=1`` too).
"""
from __future__ import annotations

import argparse
import contextlib
import csv
import os
import shlex
import sys
import time

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

from riskstats.env.single_agent import SingleAgentEnv, play_against
from riskstats.game.rules.options import GameRules
from riskstats.intervals import wilson_interval

FIELDS = ("steps", "opponent", "games", "wins", "losses", "truncated", "win_rate", "low", "high", "decisions",
          "cpu_s", "wall_s")


def masks_of(env: SingleAgentEnv) -> np.ndarray:
    return env.action_masks()


def make_env(opponents, rules, shaping, seed):
    def build():
        return ActionMasker(SingleAgentEnv(opponents=opponents, rules=rules, shaping=shaping, seed=seed), masks_of)
    return build


def greedy(model):
    """The policy's most probable legal action."""
    def policy(obs, mask):
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)
    return policy


class Curve(BaseCallback):
    """Evaluates every ``every`` steps, writes the rows and switches the training opponents at the phases."""

    def __init__(self, args, rules, writer, file, start):
        super().__init__()
        self.args, self.rules, self.writer, self.file, self.start = args, rules, writer, file, start
        self.next_eval = args.eval_every  # the last evaluation was at next_eval - eval_every
        self.phases = sorted(args.phase)

    def evaluate(self, steps, games=None, seed=None):
        games = games or self.args.eval_games
        seed = self.args.seed + 1 if seed is None else seed
        for opponent in self.args.eval_opponents:
            t = play_against(greedy(self.model), opponent, games, seed=seed, rules=self.rules)
            low, high = wilson_interval(t["wins"], t["games"])
            row = {"steps": steps, "opponent": opponent, "games": t["games"], "wins": t["wins"], "losses": t["losses"],
                   "truncated": t["truncated"], "win_rate": f"{t['wins'] / t['games']:.4g}", "low": f"{low:.4g}",
                   "high": f"{high:.4g}", "decisions": t["decisions"], "cpu_s": f"{time.process_time():.1f}",
                   "wall_s": f"{time.time() - self.start:.1f}"}
            self.writer.writerow(row)
            self.file.flush()
            print(f"{steps:>9} steps vs {opponent}: {t['wins']}/{t['games']} wins [{low:.2f}, {high:.2f}], "
                  f"{t['truncated']} truncated; {time.process_time():.0f} CPU s", flush=True)

    def _on_rollout_start(self) -> None:
        """Between updates: the model has learnt from every step so far."""
        steps = self.num_timesteps
        while self.phases and steps >= self.phases[0][0]:
            _, opponents = self.phases.pop(0)
            self.training_env.env_method("set_opponents", opponents)
            print(f"{steps:>9} steps: training opponents now {','.join(opponents)}", flush=True)
        if steps >= self.next_eval:
            self.next_eval = steps + self.args.eval_every
            self.evaluate(steps)

    def _on_step(self) -> bool:
        return True


def phase(text: str):
    steps, _, opponents = text.partition(":")
    return int(steps), tuple(opponents.split(","))


@contextlib.contextmanager
def table(path, command):
    """A CSV table at ``path`` (its folder made), its first line the command that writes it: (file, writer)."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", newline="") as f:
        f.write(command)
        writer = csv.DictWriter(f, fieldnames=FIELDS)
        writer.writeheader()
        yield f, writer


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=2_000_000)
    ap.add_argument("--eval-every", type=int, default=100_000)
    ap.add_argument("--eval-games", type=int, default=100)
    ap.add_argument("--eval-opponents", type=lambda s: tuple(s.split(",")), default=("uniform", "random"))
    ap.add_argument("--train-opponents", type=lambda s: tuple(s.split(",")),
                    default=("random", "random", "random", "uniform"))
    ap.add_argument("--phase", type=phase, action="append", default=[],
                    help="STEPS:BOT,BOT...: from STEPS on, draw the training opponents from these (repeatable)")
    ap.add_argument("--shaping", type=float, default=0.5)
    ap.add_argument("--max-turns", type=int, default=300)
    ap.add_argument("--n-envs", type=int, default=8)
    ap.add_argument("--n-steps", type=int, default=512, help="rollout steps per env between updates")
    ap.add_argument("--batch-size", type=int, default=512)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--gamma", type=float, default=0.995)
    ap.add_argument("--ent-coef", type=float, default=0.01)
    ap.add_argument("--net", type=lambda s: [int(x) for x in s.split(",")], default=[256, 256])
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--out", default="data/env/learning_curve.csv")
    ap.add_argument("--plot", default=None, help="a PNG of the curve, drawn at the end")
    ap.add_argument("--model", default=None, help="save the trained model here (a .zip)")
    ap.add_argument("--load", default=None, help="start from this saved model (with --steps 0: only evaluate it)")
    ap.add_argument("--final-games", type=int, default=0,
                    help="after training, play this many games against each evaluation opponent, on seeds the curve "
                         "does not use, into --final-out")
    ap.add_argument("--final-out", default=None)
    args = ap.parse_args()
    if args.final_games and not args.final_out:
        ap.error("--final-games needs --final-out")

    torch.set_num_threads(1)
    start = time.time()
    rules = GameRules(variant="two-player", max_turns=args.max_turns)
    env = DummyVecEnv([make_env(args.train_opponents, rules, args.shaping, args.seed * 1000 + i)
                       for i in range(args.n_envs)])
    if args.load:
        model = MaskablePPO.load(args.load, env=env, device="cpu")
    else:
        model = MaskablePPO("MlpPolicy", env, n_steps=args.n_steps, batch_size=args.batch_size, n_epochs=args.epochs,
                            learning_rate=args.lr, gamma=args.gamma, ent_coef=args.ent_coef, seed=args.seed,
                            policy_kwargs={"net_arch": args.net}, device="cpu", verbose=0)
    command = "# python " + " ".join(shlex.quote(a) for a in sys.argv) + "\n"
    if args.steps > 0:
        with table(args.out, command) as (f, writer):
            curve = Curve(args, rules, writer, f, start)
            curve.model = model
            curve.evaluate(model.num_timesteps)
            model.learn(total_timesteps=args.steps, callback=curve, reset_num_timesteps=not args.load)
            if model.num_timesteps > curve.next_eval - args.eval_every:
                curve.evaluate(model.num_timesteps)
    if args.final_games:
        with table(args.final_out, command) as (f, writer):
            final = Curve(args, rules, writer, f, start)
            final.model = model
            final.evaluate(model.num_timesteps, args.final_games, seed=args.seed + 2)
    if args.model:
        model.save(args.model)
    if args.plot:
        plot(args.out, args.plot)


def plot(path: str, png: str) -> None:
    """The curve of ``path`` (win rate with its interval against steps, a line per opponent) as ``png``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    df = pd.read_csv(path, comment="#")
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for opponent, d in df.groupby("opponent", sort=False):
        ax.plot(d["steps"] / 1e6, d["win_rate"], marker="o", label=f"vs {opponent}")
        ax.fill_between(d["steps"] / 1e6, d["low"], d["high"], alpha=0.2)
    ax.set_xlabel("training steps (the learner's decisions), millions")
    ax.set_ylabel("win rate (95% Wilson)")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title(f"MaskablePPO, two-player Classic, macro actions\n({df['games'].iloc[0]} games a point, seats "
                 "alternating; greedy policy)", fontsize=10)
    fig.tight_layout()
    fig.savefig(png, dpi=100)


if __name__ == "__main__":
    main()
