"""Calibration of `evaluate`'s rollout P(win) and of the position value against real outcomes (issue #19 §4, #29).

``python scripts/make/calibration.py --games 120 --out data/calibration/value`` plays ``--games`` seeded four-player
Classic games with the population's bot in every seat (`POPULATIONS`, ``--population``; seeds the position
value was never fitted on: it was fitted on seed 18,000 on), keeps ``--per-game`` turn starts of each
(`riskstats.analysis.calibration.calibration_positions`), and at each computes every player's P(win) by
`evaluate` (``--rollouts`` rollouts of its default bot, aggressive), by the fitted model (``evaluate
--rollouts 0``), by the model refitted with search self-play added (``--model strong``) and, if
``--own-rollouts`` > 0, by that many rollouts with the population's bot itself in every seat. Writes
``predictions.csv`` (one row per position and player, with who won), ``scores.csv`` (ECE over 10 bins, Brier,
log loss, bootstrap-by-game intervals), ``reliability.csv`` (10 bins, Wilson intervals) and ``runs.csv`` (the
command and CPU seconds).

``--chunk`` games at a time (games ``first .. first + chunk - 1`` of the run, their predictions seeded by
``--seed`` + first): after each chunk ``predictions.csv`` and ``runs.csv`` (a row per chunk) are rewritten whole,
and rerunning the command resumes after the last chunk written; the scores are computed at the end from every
chunk's predictions. (The strong run in ``data/calibration/value/`` was one chunk of 300 games.)

``--set top_hunter`` calibrates every tier of that tier set instead (`riskstats.runs.tiers.TIER_SETS`: its bot in
every seat, or alternating with the others'), each into ``<out>/<folder>`` (``--out`` default ``data/calibration``;
the tier's ``folder``) under the tier's name, as ``scripts/make/findings.py`` does.
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
from riskstats.errors import RiskstatsError
from riskstats.runs.results import write_table
from riskstats.runs.selfplay import play_games
from riskstats.runs.tiers import TIER_SETS, set_populations

TOP = TIER_SETS["top"]
POPULATIONS = {"strong": "value:rollouts=1:plans=4",
               "search": TOP["search"]["bot"], "search-model": TOP["search:value=model"]["bot"]}
"""population -> the bot in every seat (search, search-model: the ``top`` tier set's, by their runs' names;
``--set`` plays a tier set's populations by their tiers' names)."""


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--population", choices=list(POPULATIONS), default="strong")
    parser.add_argument("--per-game", type=int, default=4)
    parser.add_argument("--rollouts", type=int, default=200)
    parser.add_argument("--own-rollouts", type=int, default=16, help="0: no own estimator")
    parser.add_argument("--boot", type=int, default=1000)
    parser.add_argument("--chunk", type=int, default=None, help="games per chunk (default: all in one)")
    parser.add_argument("--seed", type=int, default=19_400)
    parser.add_argument("--set", help="instead of --population: every tier of this tier set, each into "
                        "<out>/<its folder>")
    parser.add_argument("--out", default=None, help="default data/calibration/value (with --set: data/calibration)")
    args = parser.parse_args(argv)
    command = "python scripts/make/calibration.py " + " ".join(argv if argv is not None else sys.argv[1:])
    if args.set:
        try:
            populations = set_populations(args.set)
        except RiskstatsError as e:
            sys.exit(f"error: {e}")
        for tier, (lineup, folder) in populations.items():
            run(tier, lineup, Path(args.out or "data/calibration") / folder, args, command)
    else:
        run(args.population, ",".join([POPULATIONS[args.population]] * 4),
            Path(args.out or "data/calibration/value"), args, command)


def run(population: str, lineup: str, out: Path, args, command: str) -> None:
    """Calibrate ``population`` (``lineup``: the four seats' bots) into ``out``, resuming after ``runs.csv``."""
    estimators = ("evaluate", "model", "strong") + (("own",) if args.own_rollouts else ())
    out.mkdir(parents=True, exist_ok=True)
    pred_path, runs_path = out / "predictions.csv", out / "runs.csv"
    runs = pd.read_csv(runs_path) if runs_path.exists() else pd.DataFrame()
    if len(runs) and "first" not in runs:
        runs = runs.assign(first=0)
    done = int((runs["first"] + runs["games"]).max()) if len(runs) else 0
    preds = pd.read_csv(pred_path) if pred_path.exists() and done else pd.DataFrame()
    if len(preds):
        preds = preds[preds.game < done]
    first, chunk = done, args.chunk or args.games
    while first < args.games:
        games = min(chunk, args.games - first)
        start = time.process_time()
        table = play_games(games, 4, lineup, seed=args.seed, first=first)
        positions = calibration_positions(table, args.per_game, seed=args.seed)
        part = calibration_predictions(positions, args.rollouts, seed=args.seed + first,
                                       own_rollouts=args.own_rollouts)
        preds = pd.concat([preds, part.assign(population=population, bots=lineup)], ignore_index=True)
        runs = pd.concat([runs, pd.DataFrame([{"first": first, "games": games, "positions": len(positions),
                                               "cpu_s": round(time.process_time() - start, 1),
                                               "command": command}])], ignore_index=True)
        write_table(preds, pred_path, float_format="%.6g")
        write_table(runs, runs_path, float_format="%.6g")
        print(runs.iloc[-1].to_dict(), flush=True)
        first += games
    start = time.process_time()
    scores = calibration_scores(preds, estimators, boot=args.boot, seed=args.seed)
    scores.insert(1, "rollouts", [args.rollouts, 0, 0, args.own_rollouts][:len(estimators)])
    write_table(scores, out / "scores.csv", float_format="%.6g")
    write_table(calibration_reliability(preds, estimators), out / "reliability.csv", float_format="%.6g")
    print(f"{out}: scores {time.process_time() - start:.1f} CPU s; the run: {runs.cpu_s.sum():.1f} CPU s")
    print(scores.to_string())

if __name__ == "__main__":
    main()
