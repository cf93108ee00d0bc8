"""Calibration of `evaluate`'s rollout P(win) and of the fitted position value against real outcomes (issue #19 §4).

``python scripts/calibration.py --games 120 --out data/calibration`` plays ``--games`` seeded four-player
Classic games with `value:rollouts=1:plans=4` in every seat (seeds the position value was never fitted on:
it was fitted on heuristic games, seed 18,000), keeps ``--per-game`` turn starts of each
(`riskstats.analysis.calibration.calibration_positions`), and at each computes every player's P(win) by
`evaluate` (``--rollouts`` rollouts of its default bot, aggressive), by the fitted model (``evaluate
--rollouts 0``), by the model refitted with search self-play added (``--model strong``) and by
``--own-rollouts`` rollouts with the strong bot itself in every seat. Writes ``predictions.csv`` (one row
per position and player, with who won), ``scores.csv`` (ECE over 10 bins, Brier, log loss, bootstrap-by-game
intervals), ``reliability.csv`` (10 bins, Wilson intervals) and ``runs.csv`` (the command and CPU seconds).
"""
import argparse
import sys
import time
from pathlib import Path

import pandas as pd

from riskstats.analysis.calibration import (
    calibration_positions,
    calibration_predictions,
    calibration_reliability,
    calibration_scores,
)
from riskstats.runs.selfplay import play_games

STRONG = "value:rollouts=1:plans=4"
ESTIMATORS = ("evaluate", "model", "strong", "own")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--per-game", type=int, default=4)
    parser.add_argument("--rollouts", type=int, default=200)
    parser.add_argument("--own-rollouts", type=int, default=16)
    parser.add_argument("--boot", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=19_400)
    parser.add_argument("--out", default="data/calibration")
    args = parser.parse_args(argv)
    command = "python scripts/calibration.py " + " ".join(argv if argv is not None else sys.argv[1:])
    start = time.process_time()
    games = play_games(args.games, 4, STRONG, seed=args.seed)
    positions = calibration_positions(games, args.per_game, seed=args.seed)
    preds = calibration_predictions(positions, args.rollouts, seed=args.seed, own_rollouts=args.own_rollouts)
    preds = preds.assign(population="strong", bots=",".join([STRONG] * 4))
    scores = calibration_scores(preds, ESTIMATORS, boot=args.boot, seed=args.seed)
    scores.insert(1, "rollouts", [args.rollouts, 0, 0, args.own_rollouts])
    reliability = calibration_reliability(preds, ESTIMATORS)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    preds.to_csv(out / "predictions.csv", index=False, float_format="%.6g")
    scores.to_csv(out / "scores.csv", index=False, float_format="%.6g")
    reliability.to_csv(out / "reliability.csv", index=False, float_format="%.6g")
    run = {"games": args.games, "positions": len(positions), "cpu_s": round(time.process_time() - start, 1),
           "command": command}
    pd.DataFrame([run]).to_csv(out / "runs.csv", index=False)
    print(run)
    print(scores.to_string())


if __name__ == "__main__":
    main()
