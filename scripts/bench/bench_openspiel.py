"""OpenSpiel's own searches as the outside anchor: MCTS and ISMCTS on the macro two-player game, against
OpenSpiel's uniform-random bot and riskstats' built-in bots.

``python scripts/bench/bench_openspiel.py --cells ismcts:rollout:64:uniform,mcts:random-rollout:100:uniform
[--games 20] [--max-cpu 2700] [--max-turns 300] [--seed 2026] [--out data/openspiel/match.csv]``

The game is ``python_risk`` (`riskstats.env.openspiel`) with two players and the neutral, default rules, macro
actions and automatic defence (``actions="macro"``, ``defend="auto"``: 629 ids). A cell is
``search:evaluator:simulations:opponent``:

- search ``mcts``: OpenSpiel's `mcts.MCTSBot` (UCT c = 2; a perfect-information search: it sees through the
  hidden cards of the state it clones); ``ismcts``: `ismcts.ISMCTSBot` (c = 2, the hidden information resampled
  at every simulation, the most visited action; ``allow_inconsistent_action_sets``, since a resampled hand can
  change whether a trade is legal);
- evaluator ``random-rollout``: OpenSpiel's `mcts.RandomRolloutEvaluator` (one rollout of uniformly random legal
  macro actions, played in Python); ``rollout``: riskstats' `RolloutEvaluator` (one compiled rollout to the end
  with the ``random`` bot in both seats); ``value``: riskstats' `riskstats.env.evaluators.ValueEvaluator` (the
  fitted position value at the leaf and a prior from the ``value`` bot's move), searched with PUCT;
- opponent ``uniform``: OpenSpiel's own uniform-random bot (`pyspiel.make_uniform_random_bot`: uniform over the
  legal macro actions); any other name: that riskstats built-in bot (`BuiltInBot`), its own engine moves played
  on the state (`RiskState.play_move`), which in the macro game need not be macro ids.

Seats alternate from game to game; chance nodes are sampled with their exact probabilities. Each row: games, the
search's wins, losses and games ended by the turn cap, its win rate over decided games with a 95% Wilson
interval, its decisions (those with more than one legal action are searched) and its CPU seconds per decision
(process time of `step`). A cell stops starting games once its share of ``--max-cpu`` process seconds is
spent; the rows say how many it played. The file is rewritten after every cell, so an interrupted run (Ctrl-C)
keeps the games it finished (the one under way is dropped).
"""
import argparse
import csv
import os
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from riskstats import wilson_interval
from riskstats.env.evaluators import ValueEvaluator
from riskstats.env.openspiel import BuiltInBot, RolloutEvaluator


def searcher(game, search, evaluator, sims, seed):
    """The search bot of a cell."""
    rs = np.random.RandomState(seed % 2**32)
    puct = evaluator == "value"
    ev = {"random-rollout": lambda: mcts.RandomRolloutEvaluator(1, np.random.RandomState((seed + 1) % 2**32)),
          "rollout": lambda: RolloutEvaluator(1, bots=("random",), seed=seed),
          "value": lambda: ValueEvaluator(seed=seed)}[evaluator]()
    if search == "mcts":
        return mcts.MCTSBot(game, 2.0, sims, ev, random_state=rs,
                            child_selection_fn=mcts.SearchNode.puct_value if puct else mcts.SearchNode.uct_value)
    policy = ismcts.ChildSelectionPolicy.PUCT if puct else ismcts.ChildSelectionPolicy.UCT
    return ismcts.ISMCTSBot(game, ev, 2.0, sims, random_state=rs, allow_inconsistent_action_sets=True,
                            child_selection_policy=policy)


def play(game, cell, seat, seed):
    """One game: (winner seat or -1, turns, searched decisions, their CPU seconds)."""
    search, evaluator, sims, opponent = cell
    rng = np.random.default_rng(seed)
    bot = searcher(game, search, evaluator, sims, seed)
    other = (pyspiel.make_uniform_random_bot(1 - seat, seed % 2**31) if opponent == "uniform"
             else BuiltInBot(game, 1 - seat, opponent))
    state = game.new_initial_state()
    searched = 0
    cpu = 0.0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif state.current_player() == seat:
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply_action(legal[0])
                continue
            c0 = time.process_time()
            action = bot.step(state)
            cpu += time.process_time() - c0
            searched += 1
            state.apply_action(int(action))
        elif opponent == "uniform":
            state.apply_action(int(other.step(state)))
        else:
            state.play_move(other.move(state))
    g = state.game
    return g.winner, g.turn, searched, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", default="mcts:random-rollout:50:uniform,ismcts:rollout:64:random")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--max-cpu", type=float, default=540.0)
    parser.add_argument("--max-turns", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    game = pyspiel.load_game("python_risk", {"players": 2, "max_turns": args.max_turns, "seed": args.seed,
                                             "actions": "macro", "defend": "auto"})
    cells = []
    for text in args.cells.split(","):
        search, evaluator, sims, opponent = text.split(":")
        cells.append((search, evaluator, int(sims), opponent))
    share = args.max_cpu / len(cells)
    start = time.process_time()
    rows = []
    for cell in cells:
        row, interrupted = run_cell(game, cell, args, share)
        if row["games"]:
            rows.append(row)
            write(rows, args)  # after every cell: an interrupted run keeps the games it finished
        if interrupted:
            print(f"interrupted in cell {len(rows)} of {len(cells)}: the games finished are written")
            break
    print(f"total {time.process_time() - start:.0f} CPU s; load average {os.getloadavg()[0]:.2f}")
    for r in rows:
        print(f"{r['search']} {r['evaluator']} {r['simulations']:>4} sims vs {r['opponent']:<10} "
              f"{r['wins']}/{r['wins'] + r['losses']} decided of {r['games']} "
              f"[{r['wilson_low']:.2f}, {r['wilson_high']:.2f}], {r['cpu_ms_per_decision']:.1f} ms/decision")


def run_cell(game, cell, args, share) -> tuple[dict, bool]:
    """Up to ``args.games`` games of one cell, seats alternating, until its share of the CPU budget is spent (or
    Ctrl-C: the game under way is dropped); its row, and whether it was interrupted."""
    wins = losses = games = searched = turns = 0
    cpu = 0.0
    c0 = time.process_time()
    interrupted = False
    for k in range(args.games):
        if time.process_time() - c0 > share:
            break
        seat = k % 2
        try:
            winner, t, n, c = play(game, cell, seat, args.seed * 1000 + k)
        except KeyboardInterrupt:
            interrupted = True
            break
        games += 1
        wins += winner == seat
        losses += winner == 1 - seat
        searched += n
        turns += t
        cpu += c
        print(f"{':'.join(map(str, cell))} game {k}: search seat {seat}, winner {winner}, {t} turns, "
              f"{n} decisions, {c:.1f} CPU s", flush=True)
    decided = wins + losses
    lo, hi = wilson_interval(wins, decided) if decided else (float("nan"), float("nan"))
    return {"search": cell[0], "evaluator": cell[1], "simulations": cell[2], "opponent": cell[3],
            "games": games, "wins": wins, "losses": losses, "truncated": games - decided,
            "win_rate": wins / decided if decided else float("nan"), "wilson_low": lo, "wilson_high": hi,
            "mean_turns": turns / games if games else float("nan"), "decisions": searched, "cpu_s": cpu,
            "cpu_ms_per_decision": 1000 * cpu / searched if searched else float("nan")}, interrupted


def write(rows, args):
    """The rows so far, as CSV at ``args.out`` (its first line: the command and the load)."""
    if not args.out:
        return
    with open(args.out, "w", newline="") as f:
        f.write(f"# python scripts/bench/bench_openspiel.py --cells {args.cells} --games {args.games} "
                f"--max-cpu {args.max_cpu:g} --max-turns {args.max_turns} --seed {args.seed} --out {args.out}"
                f"; load average {os.getloadavg()[0]:.1f} when written\n")
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        for r in rows:
            writer.writerow({k: f"{v:.4g}" if isinstance(v, float) else v for k, v in r.items()})

if __name__ == "__main__":
    main()
