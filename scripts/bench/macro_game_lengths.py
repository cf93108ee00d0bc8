"""How long uniform-random games last with macro actions (issue 31 §1), beside the full action space.

``python scripts/bench/macro_game_lengths.py [--games 200] [--seed 31] [--out data/env/macro_game_lengths.csv]``

Each configuration plays ``--games`` seeded games in one `riskstats.env.VectorEnv` (game 0 of env i, the seed
``env.game_seed(i, 0)`` of the run seed), every decision a legal id drawn uniformly at random (a compiled picker
with its own seeded stream), on the default rules with their turn cap of 1,000: two players (with the neutral)
and four (classic), macro actions with automatic defence and with the defender choosing, and the full action
space as it was. A game "ends before 300 turns" when it is won in a turn numbered below 300. The share comes
with its Wilson 95% interval (`riskstats.intervals.wilson_interval`); the turn quantiles are of all games (a
truncated game counts as 1,000). The command is the file's first line.
"""
import argparse
import csv
import os
import time

import numba
import numpy as np
from bench_env import pick  # the same uniform picker the speed benchmark uses

from riskstats.env import VectorEnv
from riskstats.game.rules.state import I_TURN
from riskstats.intervals import wilson_interval

CONFIGS = (  # players, actions, defend
    (2, "macro", "auto"), (4, "macro", "auto"), (2, "macro", "choose"), (4, "macro", "choose"),
    (2, "full", "choose"), (4, "full", "choose"))
BEFORE = 300


def lengths(players: int, actions: str, defend: str, games: int, seed: int) -> dict:
    """Play the first game of ``games`` envs to its end; its summary row."""
    env = VectorEnv(games, players=players, seed=seed, actions=actions, defend=defend)
    obs, info = env.reset(seed=seed)
    state = np.array([seed * 2 + 1], np.uint64)
    chosen = np.zeros(games, np.int64)
    turns = np.full(games, -1, np.int64)
    won = np.zeros(games, np.bool_)
    decisions = np.zeros(games, np.int64)
    cpu = time.process_time()
    while (turns < 0).any():
        pick(info["action_mask"], state, chosen)
        before = env.states.info[:, I_TURN].copy()  # a game is won in the turn it was in
        open_ = turns < 0
        decisions += open_
        obs, rewards, terminations, truncations, info = env.step(chosen)
        done = open_ & (terminations | truncations)
        turns[done] = before[done]
        won[done] = terminations[done]
    ended = int((won & (turns < BEFORE)).sum())
    low, high = wilson_interval(ended, games)
    q = np.quantile(turns, [0.5, 0.9, 0.95, 0.99])
    return {"players": players, "variant": "two-player" if players == 2 else "classic", "actions": actions,
            "defend": defend, "action_ids": env.n_actions, "games": games, "ended_before_300": ended,
            "share": ended / games, "share_low": low, "share_high": high, "truncated_at_cap": int((~won).sum()),
            "turns_median": q[0], "turns_p90": q[1], "turns_p95": q[2], "turns_p99": q[3],
            "turns_max": int(turns.max()),
            "decisions_per_game": decisions.mean(), "decisions_per_turn": decisions.sum() / turns.sum(),
            "cpu_s": time.process_time() - cpu}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--full-games", type=int, default=None, help="games of the full space (default: --games)")
    parser.add_argument("--only", default=None, help="the full or the macro space alone")
    parser.add_argument("--out", default=None, help="write the rows as CSV here")
    args = parser.parse_args()
    numba.set_num_threads(1)
    rows = []
    for players, actions, defend in CONFIGS:
        games = args.full_games if actions == "full" and args.full_games is not None else args.games
        if games <= 0 or args.only not in (None, actions):
            continue
        r = lengths(players, actions, defend, games, args.seed)
        rows.append(r)
        print(f"{players} players, {actions} ({r['action_ids']} ids), defend {defend}: {r['ended_before_300']}/{games} "
              f"ended before turn {BEFORE} ({r['share']:.1%}, 95% [{r['share_low']:.1%}, {r['share_high']:.1%}]); "
              f"median {r['turns_median']:.0f} turns, {r['truncated_at_cap']} truncated at the cap; "
              f"{r['decisions_per_turn']:.1f} decisions a turn; {r['cpu_s']:.1f} CPU s", flush=True)
    if args.out:
        os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
        with open(args.out, "w", newline="") as f:
            full = f" --full-games {args.full_games}" if args.full_games is not None else ""
            f.write(f"# python scripts/bench/macro_game_lengths.py --games {args.games}{full} --seed {args.seed} "
                    f"--out {args.out}\n")
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            for r in rows:
                writer.writerow({k: f"{v:.4g}" if isinstance(v, float) else v for k, v in r.items()})


if __name__ == "__main__":
    main()
