"""Tune the shipped tuned bots and write their records to data/tuned_bots/tuned_bots.json.

Usage: python scripts/make/tune_bots.py [STORAGE]   (default sqlite:///runs/tune.db; rerunning resumes)

Each study is `riskstats.tune` with the arguments below; the record keeps the command that reproduces
it, the seeds, the games and both fresh-game win rates (best and defaults) with their 95% Wilson
intervals. Copy the best parameters into `riskstats.game.bots.catalog.TUNED` (a test checks they agree).
"""
import json
import sys
import time
from pathlib import Path

import riskstats

STUDIES = {
    "continent-tuned": {"bot": "continent", "against": "aggressive,continent,defensive", "players": 4,
                        "variant": "classic", "trials": 40, "games_per_trial": 400, "seed": 1,
                        "check_games": 8000},
}
OUT = Path(__file__).resolve().parents[2] / "data" / "tuned_bots" / "tuned_bots.json"


def command(args: dict, storage: str) -> str:
    variant = "" if args["variant"] == "classic" else f" --variant {args['variant']}"
    return (f"riskstats tune {args['bot']} --against {args['against']} --players {args['players']}{variant} "
            f"--trials {args['trials']} --games-per-trial {args['games_per_trial']} --seed {args['seed']} "
            f"--check-games {args['check_games']} --storage {storage}")


def main(storage: str = "sqlite:///runs/tune.db") -> None:
    records = {}
    for name, args in STUDIES.items():
        start = time.perf_counter()
        table = riskstats.tune(**args, storage=storage)
        seconds = time.perf_counter() - start
        best, default = table.attrs["best"], table.attrs["default"]
        top = table[table.state == "complete"].sort_values(["win_rate", "number"], ascending=[False, True]).iloc[0]
        records[name] = {
            "base": args["bot"],
            "params": best["params"],
            "command": command(args, storage),
            "study": table.attrs["study"],
            "riskstats_version": riskstats.__version__,
            "trials": int((table.state == "complete").sum()),
            "games_per_trial": args["games_per_trial"],
            "tuning_seeds": f"trial n plays SeedSequence([{args['seed']}, 0, n]).generate_state(games_per_trial)",
            "best_trial": {"number": int(top.number), "win_rate": float(top.win_rate), "ci_low": float(top.ci_low),
                           "ci_high": float(top.ci_high), "games": int(top.games)},
            "check_seeds": f"SeedSequence([{args['seed']}, 1]).generate_state({args['check_games']})",
            "check": {k: best[k] for k in ("bot", "games", "wins", "win_rate", "ci_low", "ci_high")},
            "default": {k: default[k] for k in ("bot", "games", "wins", "win_rate", "ci_low", "ci_high")},
            "seconds": round(seconds, 1),
        }
        print(json.dumps(records[name], indent=2))
    OUT.write_text(json.dumps(records, indent=2) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main(*sys.argv[1:])
