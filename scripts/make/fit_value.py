"""Fit the position value on seeded self-play and validate it on games it never saw (issue #18 §1).

    python scripts/make/fit_value.py fit        # sample positions, fit, write riskstats/game/data/value_model.json
    python scripts/make/fit_value.py fit --variants mission   # refit one variant's vector only (the others kept)
    python scripts/make/fit_value.py fit --model strong   # the same line-ups plus search self-play (`SEARCH_DESIGN`):
                                           # riskstats/game/data/value_model_strong.json
    python scripts/make/fit_value.py fit --model boosted  # those plus value-bot play (`VALUE_DESIGN`), 12 turn starts a
                                           # game, gradient-boosted trees (LightGBM, the `fit` extra):
                                           # riskstats/game/data/value_model_boosted.npz and
                                           # data/position_value/boosted_fit.json (--samples DIR keeps the
                                           # sampled positions there and reads them back on a rerun)
    python scripts/make/fit_value.py validate   # other seeds and bots (search games too), strong play (the value
                                           # bot and search in every seat), four-player heuristic and top-tier
                                           # play: every model beside the baselines, in every phase (all, the
                                           # middle game: moves 150-1,500, the rest), data/position_value/*.csv
                                           # and docs/position_value.png
    python scripts/make/fit_value.py golden     # the small seeded fit the tests reproduce (tests/golden/)
    python scripts/make/fit_value.py speed      # the value bot's four-player self-play on each model, one thread (200
                                           # games, seed 2026, as data/value_bot/value_speed.csv):
                                           # data/position_value/value_bot_speed.csv

Run ``fit`` (both models) then ``validate`` after any change to the features, the rules or the bots, and
``golden`` after a change that alters seeded games (as regenerate_golden.py for the playthroughs). One
coefficient vector per variant; the player count is covered by the inputs (`riskstats.game.value`). Every
line-up fitted on is played by bots that do not read a fitted model (heuristics; search with its formula
leaf), so a fit never depends on an earlier one, except the boosted model's value-bot games (the value bot reads
the default model).
"""
import argparse
import json
import pickle
import time
from pathlib import Path

import numpy as np

from riskstats.game.rules.options import VARIANTS, GameRules
from riskstats.game.value import _WS, BOOSTED_INPUTS, FEATURES, LINEAR, MODELS, load_boosted
from riskstats.game.value_fit import (
    BOOSTED_PARAMS,
    BOOSTED_ROUNDS,
    _pad,
    fit_boosted,
    fit_model,
    normalise,
    predict,
    predict_boosted,
    reliability,
    sample_positions,
    scores,
    seat_rows,
)
from riskstats.game.value_trees import export_trees, save_trees

ROOT = Path(__file__).resolve().parents[2]
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
SEARCH_DESIGN = {
    "classic": [(4, ["search"], 800), (3, ["search"], 400), (5, ["search"], 300), (6, ["search"], 200),
                (4, ["search", "continent-tuned", "aggressive", "defensive"], 300)],
    "two-player": [(2, ["search"], 1500), (2, ["search", "continent-tuned"], 500)],
    "mission": [(4, ["search"], 400), (4, ["search", "mission", "continent-tuned", "aggressive"], 300)],
    "capital": [(4, ["search"], 400), (4, ["search", "capital", "continent-tuned", "aggressive"], 300)],
}
"""variant -> line-ups the ``strong`` model adds to `DESIGN` (after them, so on seeds SEED + len(DESIGN[v]) on):
today's search (formula leaf) in every seat at every table size, and beside heuristics."""
VALUE_TUNED = "value-tuned"
VALUE_DESIGN = {
    "classic": [(4, [VALUE_TUNED], 1500), (3, [VALUE_TUNED], 400), (5, [VALUE_TUNED], 300),
                (4, [VALUE_TUNED, "continent-tuned", "aggressive", "defensive"], 500),
                (4, [VALUE_TUNED, "search", "continent-tuned", "value"], 300), (4, ["value"], 800),
                (3, ["value"], 300)],
    "two-player": [(2, [VALUE_TUNED], 1500), (2, [VALUE_TUNED, "continent-tuned"], 500), (2, ["value"], 800)],
    "mission": [(4, [VALUE_TUNED], 400), (4, [VALUE_TUNED, "mission", "continent-tuned", "aggressive"], 300),
                (4, ["value"], 300)],
    "capital": [(4, [VALUE_TUNED], 400), (4, [VALUE_TUNED, "capital", "continent-tuned", "aggressive"], 300),
                (4, ["value"], 300)],
}
"""variant -> line-ups the ``boosted`` model adds to the ``strong`` design (after them): the tuned value bot
(``value:plans=5:order=12367:closer=0.5``) in every seat and beside heuristics and search, and the default value
bot (``value:rollouts=1:plans=4``) in every seat; both read the default model."""
FITS = {"model": DESIGN, "strong": {v: DESIGN[v] + SEARCH_DESIGN[v] for v in DESIGN},
        "boosted": {v: DESIGN[v] + SEARCH_DESIGN[v] + VALUE_DESIGN[v] for v in DESIGN}}
"""model name (`riskstats.game.value.MODELS`) -> its design."""
BOOSTED_PER_GAME = 12
"""Turn starts kept per game of the boosted model's fit (the conditional logits keep 6)."""

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
STRONG_VALIDATION = {
    "classic": [(4, ["value:rollouts=1:plans=4"], 600), (4, ["search"], 200)],
    "two-player": [(2, ["value:rollouts=1:plans=4"], 800), (2, ["search"], 400)],
}
"""variant -> strong play (the value bot, and search, in every seat) on `STRONG_SEED`'s seeds: a second
validation population, of which neither model saw a game (the value bot's games depend on the default
model, which plays them)."""
STRONG_SEED = 928_000
HEURISTIC4_VALIDATION = {
    "classic": [(4, ["continent:threshold=0.7", "defensive:threshold=0.6", "aggressive", "continent-tuned"], 1000),
                (4, ["continent-tuned", "aggressive:threshold=0.35", "continent", "defensive"], 500)],
}
"""Four-player Classic heuristic line-ups on `HEURISTIC4_SEED`'s seeds, 12 turn starts a game (the middle game's
target population, issue #30)."""
HEURISTIC4_SEED = 948_000
TOP_VALIDATION = {
    "classic": [(4, [VALUE_TUNED], 600), (4, ["search"], 300)],
    "two-player": [(2, [VALUE_TUNED], 600), (2, ["search"], 300)],
}
"""Top-tier self-play (the tuned value bot, and search, in every seat) on `TOP_SEED`'s seeds, 12 turn starts a
game."""
TOP_SEED = 938_000
POPULATIONS = (("unseen", VALIDATION, VALIDATION_SEED, 6), ("strong", STRONG_VALIDATION, STRONG_SEED, 6),
               ("heuristic-4p", HEURISTIC4_VALIDATION, HEURISTIC4_SEED, BOOSTED_PER_GAME),
               ("top", TOP_VALIDATION, TOP_SEED, BOOSTED_PER_GAME))
"""(name, design, seed, turn starts kept per game) of every validation population; none shares a seed with a fit."""
MIDDLE = (150, 1500)
"""The middle game: positions after this many moves applied (from the first claim on), ends included."""

SMALL_DESIGN = {"classic": [(4, HEUR4, 40)], "two-player": [(2, ["continent-tuned", "aggressive"], 60)]}
"""The small seeded fit the tests reproduce (`golden`)."""
SMALL_SEED = 7


def fit(args) -> None:
    if args.model == "boosted":
        return fit_boosted_model(args)
    start = time.process_time()
    path = ROOT / "riskstats" / "game" / MODELS[args.model]
    if args.variants:  # refit these variants only: each variant's vector is fitted on its own line-ups and seeds
        variants = args.variants.split(",")
        model = json.loads(path.read_text())
        previous = {v: model["weights"][v] for v in variants}
        part = fit_model({v: FITS[args.model][v] for v in variants}, SEED, l2=1.0)
        for key in ("weights", "positions", "design"):
            model[key].update(part[key])
        command = f"python scripts/make/fit_value.py fit --model {args.model} --variants {args.variants}"
        model.setdefault("refits", {}).update({v: {"cpu_s": round(time.process_time() - start, 1),
                                                   "engine_commit": _head(), "command": command,
                                                   "previous_weights": previous[v]} for v in variants})
    else:
        model = fit_model(FITS[args.model], SEED, l2=1.0)
        model["cpu_s"] = round(time.process_time() - start, 1)
    path.write_text(json.dumps(model, indent=1) + "\n")
    print(f"wrote {path}: positions {model['positions']}, {time.process_time() - start:.1f} CPU s (this process)")


def _head() -> str:
    """The commit the engine was at (``git rev-parse HEAD``; "unknown" outside a git checkout)."""
    import subprocess

    done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return done.stdout.strip() or "unknown"


def fit_boosted_model(args) -> None:
    """Sample every variant's boosted design (or read the samples of an earlier run from ``--samples``), fit one
    LightGBM ensemble per variant, export them as flat arrays."""
    start = time.process_time()
    dumps, scales, report, cached = [], [], {}, []
    for variant in VARIANTS:
        cache = None if args.samples is None else args.samples / f"{variant}.pkl"
        if cache is not None and cache.exists():
            samples = pickle.loads(cache.read_bytes())
            cached.append(variant)
        else:
            rules = GameRules(variant=variant)
            samples = [sample_positions(games, players, bots, rules, SEED + k, BOOSTED_PER_GAME)
                       for k, (players, bots, games) in enumerate(FITS["boosted"][variant])]
            if cache is not None:
                cache.parent.mkdir(parents=True, exist_ok=True)
                cache.write_bytes(pickle.dumps(samples))
        dump, scale, info = fit_boosted(seat_rows(samples))
        dumps.append(dump)
        scales.append(scale)
        report[variant] = {**info, "temperature": scale}
        print(variant, report[variant], flush=True)
    path = ROOT / "riskstats" / "game" / MODELS["boosted"]
    save_trees(path, export_trees(dumps, scales))
    meta = {"format": "riskstats-value-boosted/1", "inputs": list(BOOSTED_INPUTS), "variants": list(VARIANTS),
            "params": BOOSTED_PARAMS, "max_trees": BOOSTED_ROUNDS, "per_game": BOOSTED_PER_GAME, "seed": SEED,
            "design": {v: [[p, list(b), g] for p, b, g in FITS["boosted"][v]] for v in VARIANTS}, "fit": report,
            "cpu_s": round(time.process_time() - start, 1), "samples_read_back": cached}
    out = ROOT / "data" / "position_value" / "boosted_fit.json"
    out.write_text(json.dumps(meta, indent=1) + "\n")
    print(f"wrote {path} and {out}: {meta['cpu_s']} CPU s (this process)")


def _phases(moves) -> dict:
    """Each phase's positions (bool masks) by their moves applied: all, the middle game (`MIDDLE`), the rest."""
    middle = (moves >= MIDDLE[0]) & (moves <= MIDDLE[1])
    return {"all": np.ones(len(moves), bool), "middle": middle, "rest": ~middle}


def _scored(population: str, variant: str, lineups, seed: int, per_game: int):
    """Every committed model and both baselines scored on the positions of ``lineups`` (line-up k on seed
    seed + k), in every phase: (the score rows, each model's predictions with the positions' players in play,
    winners and moves, as {model: sample}, for the pooled rows, and each model's reliability table)."""
    rules = GameRules(variant=variant)
    v = VARIANTS.index(variant)
    data = _pad([sample_positions(games, players, bots, rules, seed + k, per_game)
                 for k, (players, bots, games) in enumerate(lineups)])
    alive, winner = data["alive"], data["winner"]
    trees = load_boosted()
    preds = {name: predict(data["X"], alive, _WS[m, v]) for m, name in enumerate(LINEAR)}
    preds["boosted"] = predict_boosted(data["inputs"], alive, trees, v)
    baselines = {"formula": normalise(data["formula"], alive), "territory share": normalise(data["territory"], alive)}
    rows = []
    for phase, keep in _phases(data["moves"]).items():
        rows += [{"population": population, "variant": variant, "value": name,
                  **scores(p[keep], alive[keep], winner[keep]), "phase": phase}
                 for name, p in (preds | baselines).items()]
    reliab = [reliability(p, alive, winner).assign(population=population, variant=variant, model=name)
              for name, p in preds.items()]
    return rows, {name: {"p": p, "alive": alive, "winner": winner, "moves": data["moves"]}
                  for name, p in (preds | baselines).items()}, reliab


def validate(args) -> None:
    import pandas as pd

    rows, reliab, pooled = [], [], {}
    start = time.process_time()
    for population, design, seed, per_game in POPULATIONS:
        for variant, lineups in design.items():
            scored, preds, tables = _scored(population, variant, lineups, seed, per_game)
            rows += scored
            reliab += tables
            for name, sample in preds.items():
                pooled.setdefault((population, name), []).append(sample)
    for (population, name), samples in pooled.items():
        if len(samples) < 2:
            continue
        d = _pad(samples, ("p", "alive"), ("winner", "moves"))
        for phase, keep in _phases(d["moves"]).items():
            rows.append({"population": population, "variant": "all", "value": name,
                         **scores(d["p"][keep], d["alive"][keep], d["winner"][keep]), "phase": phase})
        if name in MODELS:
            reliab.append(reliability(d["p"], d["alive"], d["winner"]).assign(population=population,
                                                                             variant="all", model=name))
    table = pd.DataFrame(rows)
    reliab = pd.concat(reliab)
    out = ROOT / "data" / "position_value"
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "validation.csv", index=False)
    reliab.to_csv(out / "reliability.csv", index=False)
    print(table.to_string(index=False, float_format=lambda x: f"{x:.4f}"))
    print(f"{time.process_time() - start:.0f} CPU s (this process)")
    _plot(reliab, ROOT / "docs" / "position_value.png")


def _plot(reliab, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = list(dict.fromkeys(zip(reliab["population"], reliab["variant"])))
    cols = (len(panels) + 1) // 2
    fig, axes = plt.subplots(2, cols, figsize=(3.0 * cols, 6.4), sharey=True, squeeze=False)
    for ax, (population, variant) in zip(axes.ravel(), panels):
        ax.plot([0, 1], [0, 1], color="grey", lw=0.8, ls="--")
        for name in MODELS:
            part = reliab[(reliab["population"] == population) & (reliab["variant"] == variant)
                          & (reliab["model"] == name)]
            ax.errorbar(part["predicted"], part["observed"],
                        yerr=[part["observed"] - part["ci_low"], part["ci_high"] - part["observed"]],
                        fmt="o", ms=3, capsize=2, label=name)
        ax.set_title(f"{variant} ({population})", fontsize=9)
        ax.set_xlabel("predicted P(win)")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
    for ax in axes[:, 0]:
        ax.set_ylabel("observed win rate (95% Wilson)")
    axes[0, 0].legend(fontsize=8, loc="upper left")
    fig.suptitle("Position value on unseen games (other bots; strong play): reliability (10 bins)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"wrote {path}")


def golden(args) -> None:
    model = fit_model(SMALL_DESIGN, SMALL_SEED)
    path = ROOT / "tests" / "golden" / "value_fit_small.json"
    path.write_text(json.dumps(model, indent=1) + "\n")
    print(f"wrote {path}")


SPEED_BOTS = ("value:plans=5:order=12367:closer=0.5", "value")
"""The value bots timed by ``speed`` (the tuned one, the default), each on every model (``model=...``)."""


def speed_step(args) -> None:
    import numba

    from riskstats.analysis.strength import speed

    numba.set_num_threads(1)
    specs = [bot if name == "model" else f"{bot}:model={name}" for bot in SPEED_BOTS for name in MODELS]
    table = speed(specs, 4, args.games, 2026, GameRules())
    table = table.assign(target=300.0, verdict=(table.games_per_cpu_s >= 300.0).map({True: "MET", False: "MISSED"}))
    out = ROOT / "data" / "position_value" / "value_bot_speed.csv"
    table.to_csv(out, index=False)
    print(table.to_string(index=False))
    print(f"wrote {out}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=["fit", "validate", "golden", "speed"])
    parser.add_argument("--model", choices=list(MODELS), default="model", help="the model fitted (fit)")
    parser.add_argument("--variants", default=None, help="fit: refit only these variants (comma-separated), keeping "
                        "the others' weights; the file records each refit's CPU s, engine commit and command")
    parser.add_argument("--samples", type=Path, default=None, help="fit --model boosted: keep the sampled positions "
                        "in this folder, and read them from it when there")
    parser.add_argument("--games", type=int, default=200, help="speed: games per bot")
    args = parser.parse_args()
    {"fit": fit, "validate": validate, "golden": golden, "speed": speed_step}[args.step](args)
    assert FEATURES  # the features' order is the model file's
