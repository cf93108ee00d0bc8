"""Benchmark: env steps per second of `riskstats.env.VectorEnv` on one core, beside the PettingZoo and OpenSpiel
wrappers'.

``python scripts/bench/bench_env.py [--envs 1024] [--steps 400] [--players 4] [--spaces full:choose,macro:auto]
[--pz-steps 5000] [--os-steps 0] [--sim-tests 0] [--out data/env/env_speed.csv]``

Random legal actions: a compiled picker chooses one id uniformly from each env's mask; its time is excluded
(only ``env.step`` is timed). Compilation is excluded (a warm-up reset and steps first). Rates are given per
second of wall time and per second of process CPU time (one thread; on a shared machine the CPU-time rate
is what other processes disturb least). The issue's target is 1,000,000 env steps/s on one core. The wrappers
(PettingZoo's ``raw_env``, OpenSpiel's ``python_risk``) step one game at a time from Python: their rows time a
step and what an agent reads after it.
"""
import argparse
import csv
import os
import time

import numba
import numpy as np

from riskstats.env import VectorEnv
from riskstats.env.pettingzoo import raw_env


@numba.njit(cache=True)
def pick(mask, state, out):
    """out[i] = a uniformly random True column of mask[i] (xorshift64 stream in state[0])."""
    n, m = mask.shape
    for i in range(n):
        count = 0
        for j in range(m):
            count += mask[i, j]
        x = state[0]
        x ^= x << np.uint64(13)
        x ^= x >> np.uint64(7)
        x ^= x << np.uint64(17)
        state[0] = x
        k = int(x % np.uint64(count))
        for j in range(m):
            if mask[i, j]:
                if k == 0:
                    out[i] = j
                    break
                k -= 1


def bench_vector(n_envs: int, steps: int, players: int, space: str = "full", defend: str = "choose") -> dict:
    env = VectorEnv(n_envs, players=players, seed=1, actions=space, defend=defend)
    obs, info = env.reset(seed=1)
    actions = np.zeros(n_envs, np.int64)
    state = np.array([88172645463325252], np.uint64)
    for _ in range(20):  # warm-up (compiles)
        pick(info["action_mask"], state, actions)
        obs, rewards, term, trunc, info = env.step(actions)
    wall = cpu = 0.0
    done = 0
    for _ in range(steps):
        pick(info["action_mask"], state, actions)
        w0, c0 = time.perf_counter(), time.process_time()
        obs, rewards, term, trunc, info = env.step(actions)
        wall += time.perf_counter() - w0
        cpu += time.process_time() - c0
        done += int(term.sum() + trunc.sum())
    n = n_envs * steps
    return {"env": f"VectorEnv actions={space} defend={defend}", "players": players, "batch": n_envs,
            "env_steps": n, "wall_s": wall, "cpu_s": cpu,
            "steps_per_s": n / wall, "steps_per_cpu_s": n / cpu, "games_finished": done}


def bench_pettingzoo(steps: int, players: int, space: str = "full", defend: str = "choose") -> dict:
    env = raw_env(players=players, actions=space, defend=defend)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(200):  # warm-up (compiles)
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    wall = cpu = 0.0
    n = 0
    while n < steps:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.reset(seed=int(rng.integers(2**62)))
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        w0, c0 = time.perf_counter(), time.process_time()
        env.step(action)
        env.last()  # the observation an agent reads after each step
        wall += time.perf_counter() - w0
        cpu += time.process_time() - c0
        n += 1
    return {"env": f"pettingzoo raw_env (step + last) actions={space} defend={defend}", "players": players,
            "batch": 1, "env_steps": n, "wall_s": wall, "cpu_s": cpu, "steps_per_s": n / wall,
            "steps_per_cpu_s": n / cpu, "games_finished": 0}


def bench_openspiel(steps: int, players: int, space: str = "full", defend: str = "choose") -> dict:
    """OpenSpiel's ``python_risk``: ``apply_action`` of a uniformly random legal action, or of a chance outcome
    drawn with its probability; each step reads ``legal_actions`` (or ``chance_outcomes``) first, as a search does."""
    import pyspiel

    import riskstats.env.openspiel  # noqa: F401  (registers python_risk)

    game = pyspiel.load_game("python_risk", {"players": players, "actions": space, "defend": defend})
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    wall = cpu = 0.0
    n = done = 0
    while n < steps + 200:  # the first 200 steps warm up (compile) and are not timed
        if state.is_terminal():
            state = game.new_initial_state()
            done += 1
        w0, c0 = time.perf_counter(), time.process_time()
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(outcomes[rng.choice(len(outcomes), p=probs)]))
        else:
            legal = state.legal_actions()
            state.apply_action(int(legal[rng.integers(len(legal))]))
        if n >= 200:
            wall += time.perf_counter() - w0
            cpu += time.process_time() - c0
        n += 1
    return {"env": f"openspiel python_risk actions={space} defend={defend}", "players": players, "batch": 1,
            "env_steps": steps, "wall_s": wall, "cpu_s": cpu, "steps_per_s": steps / wall,
            "steps_per_cpu_s": steps / cpu, "games_finished": done}


def bench_sim_test(sims: int, players: int, space: str = "full", defend: str = "choose") -> dict:
    """OpenSpiel's own check, ``pyspiel.random_sim_test`` (uniformly random games to their end, each state
    serialised and read back), timed whole."""
    import pyspiel

    import riskstats.env.openspiel  # noqa: F401  (registers python_risk)

    game = pyspiel.load_game("python_risk", {"players": players, "actions": space, "defend": defend})
    w0, c0 = time.perf_counter(), time.process_time()
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)
    return {"env": f"openspiel random_sim_test ({sims} games, serialised) actions={space} defend={defend}",
            "players": players, "batch": 1, "wall_s": time.perf_counter() - w0, "cpu_s": time.process_time() - c0,
            "games_finished": sims}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--pz-steps", type=int, default=5000, help="PettingZoo steps for each of --spaces")
    parser.add_argument("--os-steps", type=int, default=0, help="OpenSpiel steps for each of --spaces")
    parser.add_argument("--sim-tests", type=int, default=0,
                        help="games of OpenSpiel's random_sim_test (3 players) for each of --spaces")
    parser.add_argument("--spaces", default="full:choose",
                        help="the VectorEnv's action spaces and defences, actions:defend, comma-separated")
    parser.add_argument("--out", default=None, help="write the rows as CSV here")
    args = parser.parse_args()
    numba.set_num_threads(1)
    rows = []
    spaces = [item.split(":") for item in args.spaces.split(",")]
    for space, defend in spaces:
        if args.steps > 0:
            rows.append(bench_vector(args.envs, args.steps, args.players, space, defend))
        if args.pz_steps > 0:
            rows.append(bench_pettingzoo(args.pz_steps, args.players, space, defend))
        if args.os_steps > 0:
            rows.append(bench_openspiel(args.os_steps, args.players, space, defend))
        if args.sim_tests > 0:
            rows.append(bench_sim_test(args.sim_tests, 3, space, defend))
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    for r in rows:
        if "env_steps" not in r:
            print(f"{r['env']}: {r['wall_s']:.1f} s wall, {r['cpu_s']:.1f} CPU s (target: within a minute)")
            continue
        print(f"{r['env']:<44} batch {r['batch']:>5}: {r['steps_per_s']:>12,.0f} steps/s wall, "
              f"{r['steps_per_cpu_s']:>12,.0f} per CPU s ({r['env_steps']:,} steps; target 1,000,000)")
    if args.out:
        with open(args.out, "w", newline="") as f:
            f.write(f"# python scripts/bench/bench_env.py --envs {args.envs} --steps {args.steps} "
                    f"--players {args.players} "
                    f"--pz-steps {args.pz_steps} --os-steps {args.os_steps} --sim-tests {args.sim_tests} "
                    f"--spaces {args.spaces} --out {args.out}; "
                    f"load average {os.getloadavg()[0]:.2f}\n")
            writer = csv.DictWriter(f, fieldnames=list(max(rows, key=len)))
            writer.writeheader()
            for r in rows:
                writer.writerow({k: f"{v:.4g}" if isinstance(v, float) else v for k, v in r.items()})


if __name__ == "__main__":
    main()
