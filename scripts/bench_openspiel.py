"""A measured match: OpenSpiel's ISMCTS against riskstats' built-in bots on the two-player game with a neutral.

``python scripts/bench_openspiel.py [--budgets 4,16] [--opponents random,aggressive] [--games 4]
[--max-cpu 540] [--seed 2026] [--out data/openspiel_match.csv]``

OpenSpiel's `open_spiel.python.algorithms.ismcts.ISMCTSBot` (UCT c = 2, ``budget`` simulations per decision,
the most visited action) plays one seat of ``python_risk`` (`riskstats.env.openspiel`; two players and the
neutral, default rules); its leaves are valued by one rollout to the end with compiled random bots
(`riskstats.env.openspiel.RolloutEvaluator`), its hidden information resampled at every simulation. The
other seat is a built-in bot (`riskstats.game.play.Game.bot_move`, its move encoded as an action). Seats
alternate from game to game; chance nodes are sampled with their exact probabilities. Each row: games, the
ISMCTS seat's wins with a 95% Wilson interval, games ended by the turn cap, its decisions (only those with
more than one legal action are searched), and its CPU seconds per decision (process time of `step`). The
match stops starting games once ``--max-cpu`` process seconds are spent; the rows say how many it played.
"""
import argparse
import csv
import os
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

from riskstats import wilson_interval
from riskstats.env.openspiel import RolloutEvaluator


def play(game, budget, opponent, mcts_seat, seed):
    """One game: (winner seat or -1, turns, ISMCTS decisions searched, their CPU seconds)."""
    rng = np.random.default_rng(seed)
    evaluator = RolloutEvaluator(1, bots=("random",), seed=seed)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, budget, random_state=np.random.RandomState(seed % 2**32))
    state = game.new_initial_state()
    searched = 0
    cpu = 0.0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        legal = state.legal_actions()
        if state.current_player() == mcts_seat:
            if len(legal) == 1:
                state.apply_action(legal[0])
                continue
            c0 = time.process_time()
            action = bot.step(state)
            cpu += time.process_time() - c0
            searched += 1
        else:
            g = state.game
            action = game.encoding.encode(g, g.bot_move(opponent))
        state.apply_action(int(action))
    g = state.game
    return g.winner, g.turn, searched, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", default="4,16")
    parser.add_argument("--opponents", default="random,aggressive")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--max-cpu", type=float, default=540.0)
    parser.add_argument("--max-turns", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    game = pyspiel.load_game("python_risk", {"players": 2, "max_turns": args.max_turns, "seed": args.seed})
    budgets = [int(b) for b in args.budgets.split(",")]
    opponents = args.opponents.split(",")
    start = time.process_time()
    rows = []
    for budget in budgets:
        for opponent in opponents:
            wins = truncated = games = searched = turns = 0
            cpu = 0.0
            for k in range(args.games):
                if time.process_time() - start > args.max_cpu:
                    break
                seat = k % 2
                winner, t, n, c = play(game, budget, opponent, seat, args.seed * 1000 + k)
                games += 1
                wins += winner == seat
                truncated += winner < 0
                searched += n
                turns += t
                cpu += c
                print(f"budget {budget} vs {opponent} game {k}: ISMCTS seat {seat}, winner {winner}, {t} turns, "
                      f"{n} decisions, {c:.1f} CPU s", flush=True)
            lo, hi = wilson_interval(wins, games)
            rows.append({"budget": budget, "opponent": opponent, "games": games, "ismcts_wins": wins,
                         "win_rate": wins / games if games else float("nan"), "wilson_low": lo, "wilson_high": hi,
                         "truncated": truncated, "mean_turns": turns / games if games else float("nan"),
                         "decisions": searched, "cpu_s": cpu,
                         "cpu_ms_per_decision": 1000 * cpu / searched if searched else float("nan")})
    print(f"total {time.process_time() - start:.0f} CPU s; load average {os.getloadavg()[0]:.2f}")
    for r in rows:
        print(f"ISMCTS {r['budget']:>4} sims vs {r['opponent']:<12} {r['ismcts_wins']}/{r['games']} "
              f"[{r['wilson_low']:.2f}, {r['wilson_high']:.2f}], {r['cpu_ms_per_decision']:.1f} ms/decision")
    if args.out:
        with open(args.out, "w", newline="") as f:
            f.write(f"# python scripts/bench_openspiel.py --budgets {args.budgets} --opponents {args.opponents} "
                    f"--games {args.games} --max-cpu {args.max_cpu:g} --max-turns {args.max_turns} "
                    f"--seed {args.seed} --out {args.out}\n")
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            for r in rows:
                writer.writerow({k: f"{v:.4g}" if isinstance(v, float) else v for k, v in r.items()})


if __name__ == "__main__":
    main()
