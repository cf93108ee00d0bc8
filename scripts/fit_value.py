"""Fit the position value on seeded self-play and validate it on games it never saw (issue #18 §1).

    python scripts/fit_value.py fit        # sample positions, fit, write riskstats/game/data/value_model.json
    python scripts/fit_value.py validate   # other seeds and bots (search games too): data/position_value/*.csv
                                           # and docs/position_value.png
    python scripts/fit_value.py golden     # the small seeded fit the tests reproduce (tests/golden/)

Run ``fit`` then ``validate`` after any change to the features, the rules or the bots, and ``golden`` after
a change that alters seeded games (as regenerate_golden.py for the playthroughs). One coefficient vector per
variant; the player count is covered by the inputs (`riskstats.game.value`).
"""
import argparse
import json
import time
from pathlib import Path

import numpy as np

from riskstats.game.rules import GameRules
from riskstats.game.value import FEATURES, MODEL_FILE, model_weights
from riskstats.game.value_fit import (
    _pad,
    fit_model,
    normalise,
    predict,
    reliability,
    sample_positions,
    scores,
)

ROOT = Path(__file__).resolve().parents[1]
HEUR4 = ["continent-tuned", "aggressive", "defensive", "continent"]
CHEAP_SEARCH = "search:rollouts=2:plans=3"
DESIGN = {
    "classic": [(4, HEUR4, 2000), (3, ["continent-tuned", "aggressive", "defensive"], 1000),
                (5, HEUR4 + ["continent-tuned"], 700), (6, HEUR4 + ["continent-tuned", "aggressive"], 500),
                (4, [CHEAP_SEARCH, "continent-tuned", "aggressive", "defensive"], 150)],
    "two-player": [(2, ["continent-tuned", "aggressive"], 2000), (2, ["continent", "defensive"], 1000),
                   (2, ["continent-tuned", "defensive"], 1000), (2, [CHEAP_SEARCH, "continent-tuned"], 300)],
    "mission": [(4, ["mission", "continent-tuned", "aggressive", "mission"], 2000),
                (3, ["mission", "continent-tuned", "defensive"], 1000),
                (5, ["mission", "continent-tuned", "aggressive", "mission", "defensive"], 600),
                (4, [CHEAP_SEARCH, "mission", "continent-tuned", "aggressive"], 150)],
    "capital": [(4, ["capital", "continent-tuned", "aggressive", "capital"], 2000),
                (3, ["capital", "continent-tuned", "defensive"], 1000),
                (5, ["capital", "continent-tuned", "aggressive", "capital", "defensive"], 600),
                (4, [CHEAP_SEARCH, "capital", "continent-tuned", "aggressive"], 150)],
}
"""variant -> (players, bots, games) line-ups of the fit: heuristics at every table size, some search games."""
SEED = 18_000

VALIDATION = {
    "classic": [(4, ["search", "continent-tuned", "aggressive:threshold=0.35", "mission"], 300),
                (4, ["continent:threshold=0.7", "defensive:threshold=0.6", "aggressive", "continent-tuned"], 1000),
                (5, ["search", "continent", "aggressive:threshold=0.35", "defensive", "continent-tuned"], 200)],
    "two-player": [(2, ["search", "continent-tuned"], 500), (2, ["search", "aggressive"], 300),
                   (2, ["aggressive:threshold=0.35", "continent:threshold=0.7"], 1000)],
    "mission": [(4, ["search", "mission", "continent-tuned", "aggressive:threshold=0.35"], 300),
                (4, ["mission:threshold=0.7", "aggressive", "mission", "continent"], 1000)],
    "capital": [(4, ["search", "capital", "aggressive:threshold=0.35", "continent-tuned"], 300),
                (4, ["capital:guard=2.0", "aggressive", "capital", "continent"], 1000)],
}
"""variant -> line-ups never fitted on: other seeds (`VALIDATION_SEED`), other bots and parameters, the
search bot in every first line-up."""
VALIDATION_SEED = 918_000

SMALL_DESIGN = {"classic": [(4, HEUR4, 40)], "two-player": [(2, ["continent-tuned", "aggressive"], 60)]}
"""The small seeded fit the tests reproduce (`golden`)."""
SMALL_SEED = 7


def fit(args) -> None:
    start = time.process_time()
    model = fit_model(DESIGN, SEED, l2=1.0)
    model["cpu_s"] = round(time.process_time() - start, 1)
    path = ROOT / "riskstats" / "game" / MODEL_FILE
    path.write_text(json.dumps(model, indent=1) + "\n")
    print(f"wrote {path}: positions {model['positions']}, {model['cpu_s']} CPU s (this process)")


def validate(args) -> None:
    import pandas as pd

    W = model_weights()
    rows, cells, reliab = [], [], []
    start = time.process_time()
    for variant, lineups in VALIDATION.items():
        rules = GameRules(variant=variant)
        v = W[["classic", "two-player", "mission", "capital"].index(variant)]
        samples = [sample_positions(games, players, bots, rules, VALIDATION_SEED + k)
                   for k, (players, bots, games) in enumerate(lineups)]
        data = _pad(samples)
        alive, winner = data["alive"], data["winner"]
        preds = {"model": predict(data["X"], alive, v), "formula": normalise(data["formula"], alive),
                 "territory share": normalise(data["territory"], alive)}
        for name, p in preds.items():
            rows.append({"variant": variant, "value": name, **scores(p, alive, winner)})
        cells.append((alive, winner, preds["model"]))
        reliab.append(reliability(preds["model"], alive, winner).assign(variant=variant))
    alive = np.concatenate([np.pad(a, ((0, 0), (0, 5 - a.shape[1]))) for a, _, _ in cells])
    winner = np.concatenate([w for _, w, _ in cells])
    p = np.concatenate([np.pad(q, ((0, 0), (0, 5 - q.shape[1]))) for _, _, q in cells])
    rows.append({"variant": "all", "value": "model", **scores(p, alive, winner)})
    table = pd.DataFrame(rows)
    overall = reliability(p, alive, winner).assign(variant="all")
    out = ROOT / "data" / "position_value"
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "validation.csv", index=False)
    pd.concat(reliab + [overall]).to_csv(out / "reliability.csv", index=False)
    print(table.to_string(index=False, float_format=lambda x: f"{x:.4f}"))
    print(overall.to_string(index=False, float_format=lambda x: f"{x:.4f}"))
    print(f"{time.process_time() - start:.0f} CPU s (this process)")
    _plot(pd.concat(reliab + [overall]), ROOT / "docs" / "position_value.png")


def _plot(reliab, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    variants = list(dict.fromkeys(reliab["variant"]))
    fig, axes = plt.subplots(1, len(variants), figsize=(3.2 * len(variants), 3.4), sharey=True)
    for ax, variant in zip(axes, variants):
        part = reliab[reliab["variant"] == variant]
        ax.plot([0, 1], [0, 1], color="grey", lw=0.8, ls="--")
        ax.errorbar(part["predicted"], part["observed"],
                    yerr=[part["observed"] - part["ci_low"], part["ci_high"] - part["observed"]],
                    fmt="o", ms=3, capsize=2)
        ax.set_title(variant)
        ax.set_xlabel("predicted P(win)")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
    axes[0].set_ylabel("observed win rate (95% Wilson)")
    fig.suptitle("Position value on unseen games: reliability (10 bins)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"wrote {path}")


def golden(args) -> None:
    model = fit_model(SMALL_DESIGN, SMALL_SEED)
    path = ROOT / "tests" / "golden" / "value_fit_small.json"
    path.write_text(json.dumps(model, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=["fit", "validate", "golden"])
    args = parser.parse_args()
    {"fit": fit, "validate": validate, "golden": golden}[args.step](args)
    assert FEATURES  # the features' order is the model file's
