"""Notebook 03's card experiments for one bot population, written to CSV for the notebook to read (issue #19 §2).

    python scripts/card_escalation.py --population strong --out data/card_escalation
    python scripts/card_escalation.py --population search --rule-games 300 --steps escalation --out data/card_escalation

A population is a line-up (`POPULATIONS`): ``strong`` is the value bot in every seat, ``search`` the search
bot in every seat (a smaller check of the rule comparisons; it has no card-timing parameter), ``heuristic``
notebook 03's own line-up. The first seat of the strong line-up is the same bot written with its parameters
(``value:rollouts=1:plans=4``), so its label tells it apart: it is the seat a trade-timing treatment
changes, and it plays exactly as the others in the control.

Steps, each written to ``<out>/<population>_<step>.csv.gz`` and skipped if that file exists (resumable):

- ``timing`` (populations with a treated seat): `riskstats.analysis.cards.trade_timing`, ``--timing-games``
  games per arm: the control, the
  first seat trading at once (``trade_at=3``) and holding until forced (``5``). The games of every arm.
- ``rules``: `compare_rules` with logs, ``--rule-games`` games per arm, one card per turn (docs/rules.md)
  against one per conquest; ``escalation``: progressive, fixed and no escalation. The per-game tables
  (`LOGGED_MEASURES`), and for ``escalation`` also ``<population>_rounds.csv.gz`` (`per_round` by scheme, every
  round reached by at least 10 games).
- ``ranking`` (``--ranking-games``, 0 to skip): the line-up ``--ranking-lineup`` under the four card rule
  settings, to see whether the rules reorder the bots.

Every run is single-threaded (``NUMBA_NUM_THREADS=1`` is set here when run as a script) and records its CPU seconds in
``<out>/runs.csv`` with the command.
"""
import argparse
import os
import sys
import time
from pathlib import Path

if __name__ == "__main__":  # run as a script: one thread (imported, e.g. by the tests, it leaves numba alone)
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import pandas as pd  # noqa: E402

from riskstats.analysis import cards  # noqa: E402
from riskstats.game.rules.options import GameRules  # noqa: E402

FOCAL = {"strong": "value:rollouts=1:plans=4"}
"""The treated seat of a population's trade-timing experiment (the search bot has no ``trade_at``: none)."""
POPULATIONS = {"strong": f"{FOCAL['strong']},value,value,value",
               "search": "search,search,search,search",
               "heuristic": "continent-tuned,aggressive,continent,defensive"}
"""The line-ups (seats rotate game by game); the strong ones' first seat is the treated seat."""
RANKING_LINEUP = "value,continent-tuned,aggressive,continent"
COLUMNS = ["arm", "game", "seed", "bots", "winner", "winner_bot", "turns", "rounds", "first_won", "truncated",
           *cards.LOGGED_MEASURES]
RULE_ARMS = {"one card": GameRules(), "per conquest": GameRules(cards_per_turn="per_conquest")}
SCHEMES = {s: GameRules(escalation=s) for s in ("progressive", "fixed", "none")}


def _keep(games: pd.DataFrame) -> pd.DataFrame:
    return games[[c for c in COLUMNS if c in games.columns]]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--population", choices=sorted(POPULATIONS), default="strong")
    parser.add_argument("--timing-games", type=int, default=8000)
    parser.add_argument("--rule-games", type=int, default=2000)
    parser.add_argument("--ranking-games", type=int, default=0)
    parser.add_argument("--ranking-lineup", default=RANKING_LINEUP)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--steps", default="timing,rules,escalation,ranking",
                        help="the steps to run (comma-separated), of those the sizes allow")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    lineup, name = POPULATIONS[args.population], args.population
    focal = FOCAL.get(name)
    steps = []
    if args.timing_games and focal:
        steps.append(("timing", lambda: _keep(cards.trade_timing(
            args.timing_games, 4, lineup, {"trade at once": (focal, 3), "hold until forced": (focal, 5)},
            seed=args.seed)["games"])))
    if args.rule_games:
        steps.append(("rules", lambda: _keep(cards.compare_rules(args.rule_games, 4, lineup, RULE_ARMS,
                                                                 seed=args.seed, log=True)["games"])))
        steps.append(("escalation", lambda: _escalation(args, lineup, name)))
    if args.ranking_games:
        steps.append(("ranking", lambda: _keep(cards.compare_rules(
            args.ranking_games, 4, args.ranking_lineup, {**SCHEMES, "per conquest": RULE_ARMS["per conquest"]},
            seed=args.seed)["games"])))
    wanted = set(args.steps.split(","))
    for step, run in [(step, run) for step, run in steps if step in wanted]:
        path = args.out / f"{name}_{step}.csv.gz"
        if path.exists():
            print(f"{path}: done already, skipped")
            continue
        start = time.process_time()
        table = run()
        cpu = time.process_time() - start
        table.to_csv(path, index=False)
        log = args.out / "runs.csv"
        row = pd.DataFrame([{"file": path.name, "games": len(table), "cpu_s": round(cpu, 1),
                             "command": "python scripts/card_escalation.py " + " ".join(argv or sys.argv[1:])}])
        row.to_csv(log, mode="a", header=not log.exists(), index=False)
        print(f"{path}: {len(table)} games in {cpu:.0f} CPU s", flush=True)


def _escalation(args, lineup, name):
    result = cards.compare_rules(args.rule_games, 4, lineup, SCHEMES, seed=args.seed, log=True)
    rounds = cards.per_round(result["activity"].rename(columns={"arm": "escalation"}), by="escalation",
                             min_games=10)
    rounds.to_csv(args.out / f"{name}_rounds.csv.gz", index=False)
    return _keep(result["games"])


if __name__ == "__main__":
    main()
