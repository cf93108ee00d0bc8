"""Experiment grids: a TOML file describing a sweep of self-play runs, played as one resumable job.

This module owns the file format, its validation (every cell is checked before any game is played),
`run_experiment` and `read_experiment` (`riskstats.stats.report.cell_win_rates`
tabulates it). Each cell is one `riskstats.runs.tournament.RunConfig`,
played into its own sub-directory ``cell-NNN`` of the output; ``experiment.json`` lists the cells and what
they vary.
Running the same file again resumes: finished cells are read back, unfinished ones completed.

The format (``scripts/experiments/example.toml`` is a complete example)::

    games = 600                 # games per cell (required)
    seed = 1                    # seed of every cell (game i of each cell uses seed word i)
    chunk_size = 200            # optional; games per part file
    board = "classic"           # optional; or a board JSON path
    scheduler = "tcp://host:8786"   # optional; play every cell on this Dask cluster

    [grid]                      # every combination of these lists is one cell
    players = [3, 4]
    bots = ["aggressive,continent,defensive"]   # line-ups, seats in order and cyclic; a bot may carry
                                                # parameters: "continent:threshold=0.6,aggressive"
    # or the top tier's populations, read from riskstats.runs.tiers.TOP_TIER: "{top}" (its bot in every
    # seat), "{top}:first=Australia:draft=1,{rest}" (a treated seat): one line-up per tier, tier by tier
    variant = ["classic"]
    # without players, each line-up seats one bot a seat: bots = ["a,b,c", "a,b,c,d"] plays 3 and 4 players
    # with no bot seated twice (a repeated bot's game counts once for it: reports name it)

    [grid.rules]                # GameRules options to sweep (lists of values)
    escalation = ["progressive", "fixed"]

    [grid.params]               # bot parameters to sweep: tables of some by name (or whole vectors)
    aggressive = [{threshold = 0.5}, {threshold = 0.7}]
    continent = [{first = -1}, {first = "Australia"}]   # a continent parameter by name or number

    [rules]                     # GameRules options fixed for every cell
    max_turns = 2000

    [params]                    # bot parameters fixed for every cell
    defensive = [0.9, 1.0, 0.97]
    mission = {card_threshold = 0.8}

Parameters given for a bot that is not in a cell's line-up are left out of that cell. Reports name a
swept bot's parameters (`read_experiment`): each cell's value reads ``first=Australia`` (the parameters that
differ between cells, and any off their defaults), however the file wrote it, vectors included.

**Controlled experiments.** Every cell plays the same seeds (game i of each cell uses seed word i) with
the same seat rotation, so cells that differ only in one bot's ``[grid.params]`` are the arms of a
controlled experiment: the same deals, dice streams and opponents, under a *treatment* (the parameter
override), e.g. the ``continent`` bot forced to take Australia first (``first = "Australia"``, or its
number 5) or South America first (``first = "South America"``) against its own choice (``-1``);
``scripts/experiments/treatment.toml`` is one.
These common random numbers make the arms' results positively correlated, so the effect on the bot's
win rate, paired game by game, has a narrower interval than independent runs of the same size would
give. `riskstats.stats.compare.treatment_effects` computes it (the first arm is the control), and
`riskstats report` prints it for every swept bot.

>>> cells = experiment_cells({"games": 10, "grid": {"players": [3, 4], "bots": ["aggressive"],
...                                                  "rules": {"escalation": ["progressive", "fixed"]}}})
>>> [(c["label"]["players"], c["label"]["rules.escalation"]) for c in cells]
[(3, 'progressive'), (3, 'fixed'), (4, 'progressive'), (4, 'fixed')]
"""
from __future__ import annotations

import itertools
import json
from pathlib import Path

from riskstats.errors import RiskstatsError

TOP_KEYS = {"name", "description", "games", "seed", "chunk_size", "board", "scheduler", "grid", "rules", "params"}
GRID_KEYS = {"players", "bots", "variant", "rules", "params"}
MANIFEST = "experiment.json"


def load_experiment(path) -> dict:
    """Read an experiment TOML file (no validation beyond the TOML syntax)."""
    from riskstats.runs.results import read_toml

    return read_toml(path, "experiment file")


def _as_list(name, value):
    if not isinstance(value, list) or not value:
        raise RiskstatsError(f"grid entry {name} must be a non-empty list, got {value!r}")
    return value


def experiment_cells(spec: dict, tiers: dict | None = None) -> list[dict]:
    """The cells of an experiment: each ``{"label": {...}, "config": RunConfig}``, all validated; line-ups naming
    the top tier are written out for ``tiers`` (default `riskstats.runs.tiers.TOP_TIER`: `top_tier_lineups`)."""
    from riskstats.game.bots.catalog import BOTS, parse_bot
    from riskstats.runs.tournament import DEFAULT_CHUNK, RunConfig

    unknown = set(spec) - TOP_KEYS
    if unknown:
        raise RiskstatsError(f"unknown experiment key {', '.join(sorted(unknown))}; "
                             f"known: {', '.join(sorted(TOP_KEYS))}")
    if "games" not in spec:
        raise RiskstatsError("the experiment needs games (per cell)")
    grid = spec.get("grid", {})
    unknown = set(grid) - GRID_KEYS
    if unknown:
        raise RiskstatsError(f"unknown grid key {', '.join(sorted(unknown))}; known: {', '.join(sorted(GRID_KEYS))}")
    if "bots" not in grid:
        raise RiskstatsError("the grid needs bots (and players, unless each line-up names one bot a seat)")
    for table in ("params",):
        for source in (spec.get(table, {}), grid.get(table, {})):
            bad = set(source) - set(BOTS)
            if bad:
                raise RiskstatsError(f"unknown bot {', '.join(sorted(bad))} in params; bots: {', '.join(BOTS)}")
    from riskstats.runs.tiers import top_tier_lineups

    bots = [",".join(b) if isinstance(b, list) else b for b in _as_list("bots", grid["bots"])]
    axes = [(f"rules.{k}", _as_list(f"rules.{k}", v)) for k, v in grid.get("rules", {}).items()]
    axes += [(f"params.{k}", _as_list(f"params.{k}", v)) for k, v in grid.get("params", {}).items()]
    grid_cells = [{"variant": variant, "players": players, "bots": lineup, **dict(zip((k for k, _ in axes), values))}
                  for variant in _as_list("variant", grid.get("variant", ["classic"]))
                  for players in (_as_list("players", grid["players"]) if "players" in grid else [None])
                  for lineup in top_tier_lineups(bots, tiers, players)  # the top tier's bots may go by player count
                  for values in itertools.product(*(v for _, v in axes))]
    cells = []
    for label in grid_cells:
        rules = dict(spec.get("rules", {})) | {k[6:]: v for k, v in label.items() if k.startswith("rules.")}
        params = dict(spec.get("params", {})) | {k[7:]: v for k, v in label.items() if k.startswith("params.")}
        lineup = [b.strip() for b in label["bots"].split(",") if b.strip()]
        if label["players"] is None:  # no players in the grid: each line-up seats one bot a seat
            label["players"] = len(lineup)
        try:
            playing = {parse_bot(b).name for b in lineup}
        except RiskstatsError as error:
            raise RiskstatsError(f"line-up {label['bots']!r}: {error}") from None
        params = {k: v for k, v in params.items() if k in playing}
        try:
            config = RunConfig(games=spec["games"], players=label["players"], bots=tuple(lineup),
                               variant=label["variant"], seed=spec.get("seed", 0), rules=rules, params=params,
                               board=spec.get("board", "classic"), chunk_size=spec.get("chunk_size", DEFAULT_CHUNK))
        except (RiskstatsError, TypeError) as error:
            where = ", ".join(f"{k}={v}" for k, v in label.items())
            raise RiskstatsError(f"cell {len(cells)} ({where}): {error}") from None
        cells.append({"label": label, "config": config})
    return cells


def run_experiment(spec, out, *, workers=None, scheduler=None, dask_local=None, client=None, progress=None,
                   tiers=None):
    """Play every cell of an experiment (a TOML path or a parsed dict) into ``out``; return the combined table.
    ``tiers`` are the top tiers its top-tier line-ups are written out for (`experiment_cells`).

    All cells are validated before any game is played; a cell already finished is read back, an
    unfinished one resumed, and one asked for more games than it holds grown (`riskstats.runs.results.grows`:
    the same games and then the new ones, as a fresh run of that size plays them). ``scheduler`` (or the
    file's ``scheduler``) and ``dask_local`` play the chunks on a Dask cluster started once for the whole
    experiment, before anything is written. The table's ``attrs["games_present"]`` counts the games already
    in ``out`` when it was called (the table's length when there was nothing left to play).
    """
    from riskstats.runs import results
    from riskstats.runs.tournament import run_selfplay

    if not isinstance(spec, dict):
        spec = load_experiment(spec)
    cells = experiment_cells(spec, tiers)
    scheduler = scheduler or spec.get("scheduler")
    out = Path(out)
    old = out / MANIFEST
    stored = results.read_json(old) if old.exists() else None
    if stored is not None:  # an experiment resumes with its cells' seed scheme (1 if it records none)
        for cell, was in zip(cells, stored.get("cells", [])):
            if isinstance(was.get("run"), dict):
                was["run"] = results.current_record(was["run"])  # scheme 1 if none, later options' defaults
                cell["config"] = cell["config"].with_seed_scheme(was["run"]["seed_scheme"])
    manifest = {"cells": [{"cell": f"cell-{i:03d}", "label": c["label"], "run": c["config"].record()}
                          for i, c in enumerate(cells)]}
    rewrite = stored is None
    if stored is not None:
        asked = json.loads(json.dumps(manifest))
        was = stored.get("cells", [])
        if len(was) != len(asked["cells"]) or any(
                w.get("cell") != c["cell"] or (w.get("run") != c["run"] and not (
                    isinstance(w.get("run"), dict) and results.grows(w["run"], c["run"])))
                for w, c in zip(was, asked["cells"])):
            raise RiskstatsError(f"{out} holds a different experiment; choose another --out")
        rewrite = stored != asked  # the same games, their grid values written another way (by name): keep the new
    total = sum(c["config"].games for c in cells)
    offset = [0]
    present = {}  # cell -> the games already there (run_selfplay's first progress call for that cell)
    current = [0]

    def cell_progress(done, _):
        present.setdefault(current[0], done)
        if progress:
            progress(offset[0] + done, total)

    cluster = None
    own = client is None and (scheduler is not None or dask_local is not None)
    if own:  # connected before anything is written: a cluster that cannot start leaves no experiment behind
        from riskstats.runs.distributed import _client

        client, cluster = _client(scheduler, dask_local)
    try:
        if rewrite:
            results.write_json(manifest, old)
        for i, cell in enumerate(cells):
            current[0] = i
            run_selfplay(cell["config"], out / f"cell-{i:03d}", workers=workers, client=client,
                         progress=cell_progress, load=False)
            offset[0] += cell["config"].games
    finally:
        if own:
            client.close()
            if cluster is not None:
                cluster.close()
    table = read_experiment(out)
    table.attrs["games_present"] = sum(present.values())  # before this call; all of them: nothing was played
    return table


def read_experiment(out):
    """The games of every cell of an experiment directory in one table, with ``cell`` and its grid values."""
    import pandas as pd

    from riskstats.runs import results

    out = Path(out)
    path = out / MANIFEST
    if not path.exists():
        raise RiskstatsError(f"{out} holds no experiment ({MANIFEST} missing)")
    manifest = results.read_json(path)
    named = _named_params(manifest["cells"])
    tables = []
    for i, cell in enumerate(manifest["cells"]):
        table = results.read_results(out / cell["cell"])
        table.insert(0, "cell", cell["cell"])
        for key, value in cell["label"].items():
            if key in ("variant", "players"):
                continue
            if key in named:
                value = named[key][i]
            table[key if key != "bots" else "lineup"] = str(value) if isinstance(value, list | dict) else value
        tables.append(table)
    combined = pd.concat(tables, ignore_index=True)
    combined.attrs = {}
    return combined


def _named_params(cells) -> dict:
    """Each swept ``params.<bot>`` grid value of the cells by name (`riskstats.game.bots.catalog.params_text`):
    the parameters that differ between cells, and any off their defaults, as ``key=value`` (``first=Australia``,
    not ``[0.5, 0.75, 2.0, 5]``); a value that no longer parses is left as it was."""
    from riskstats.game.bots.catalog import bot_info, params_text, parse_bot
    from riskstats.game.rules.board import load_board

    board = None
    where = cells[0].get("run", {}).get("board", "classic") if cells else "classic"
    if where != "classic":
        try:
            board = load_board(where)
        except RiskstatsError:
            board = None
    keys = {k for c in cells for k in c.get("label", {}) if k.startswith("params.")}
    out = {}
    for key in keys:
        bot = key[len("params."):]
        values = [c["label"].get(key) for c in cells]
        try:
            full = [parse_bot(bot, v).values for v in values]
        except RiskstatsError:
            continue
        names = [p.name for p in bot_info(bot).params]
        varying = {n for i, n in enumerate(names) if len({f[i] for f in full}) > 1}
        out[key] = [params_text(bot, v, varying, board) for v in values]
    return out
