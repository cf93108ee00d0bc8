"""Placement, claiming and fortification under strong play, measured in real games (issue #19 §4, #29).

``NUMBA_NUM_THREADS=1 python scripts/make/placement_experiment.py --games 10000 --populations strong,heuristic
--out data/placement`` plays, in 4-player Classic (territories claimed by choice), one seat with each placement
treatment (`riskstats.analysis.placement.TREATMENTS`: fortify=spread, fortify=none, reinforce=spread, claim=random)
against the same seat with the default (border, stack, greedy), in the populations named
(`riskstats.analysis.placement.POPULATIONS`: ``strong`` = the value bot in every seat, ``heuristic`` =
continent-tuned in every seat, and the ladder's top tiers ``search`` and ``search:value=model``), every arm on the
same seeded games with seats rotated. It merges the rows into ``effects.csv`` (one row per population and
treatment: win rates with Wilson intervals, the paired effect with its McNemar-matched interval, Holm over all
rows of the file, truncations, CPU seconds) after each population, so the rows of populations not rerun stay and a
stopped run keeps the populations it finished; each run's command and CPU seconds go to ``runs.csv`` and the
README.md lists them. It prints the table.

``--set top_hunter`` plays the tiers of that tier set (`riskstats.runs.tiers.TIER_SETS`) as the populations (the
first seat, the treated one, the tier's bot and the others its others'), as ``scripts/make/findings.py`` does into
``data/placement/top_hunter``.
"""
import argparse
import sys
import time
from pathlib import Path

import pandas as pd

from riskstats.analysis.placement import POPULATIONS, merge_effects, placement_effects, placement_verdicts
from riskstats.errors import RiskstatsError
from riskstats.runs.tiers import tier_set

README = """# Placement, claiming and fortification under strong play

See the script's docstring and `riskstats.analysis.placement` for the design; read by
`notebooks/07_placement.ipynb`. Made by these runs (`runs.csv`; each merges its populations' rows into
`effects.csv`, keeping the others):

{runs}

- `effects.csv`: one row per population and treatment of one seat (fortify=spread, fortify=none, reinforce=spread,
  claim=random, each against the default border, stack, greedy): the treated seat's win rate in
  the control and treated arms with 95% Wilson intervals, the paired effect and its 95% interval (agrees with
  exact McNemar), p_value, p_holm (Holm over all rows of the file), discordant games, the arms' correlation,
  truncated games per arm (no winner), mean turns, CPU seconds per arm.
- `runs.csv`: command, populations, games per arm, CPU seconds of each run.

The populations (the first seat is treated):

{populations}
"""


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10000, help="games per arm")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--populations", default=",".join(POPULATIONS),
                        help=f"comma-separated, from {', '.join(POPULATIONS)}")
    parser.add_argument("--set", help="instead of --populations: the tiers of this tier set")
    parser.add_argument("--out", default="data/placement")
    args = parser.parse_args(argv)
    try:
        names = list(tier_set(args.set)) if args.set else [n for n in args.populations.split(",") if n]
    except RiskstatsError as e:
        parser.error(str(e))
    unknown = [n for n in names if n not in POPULATIONS]
    if unknown:
        parser.error(f"unknown population {', '.join(unknown)}; choose from {', '.join(POPULATIONS)}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    command = ("NUMBA_NUM_THREADS=1 python scripts/make/placement_experiment.py "
               + " ".join(argv if argv is not None else sys.argv[1:]))
    total = 0.0
    for name in names:  # one population at a time, merged as it finishes
        start = time.process_time()
        new = placement_effects(args.games, args.players, populations={name: POPULATIONS[name]}, seed=args.seed)
        cpu = time.process_time() - start
        total += cpu
        path = out / "effects.csv"
        effects = merge_effects(pd.read_csv(path) if path.exists() else None, new)
        effects.to_csv(path, index=False, float_format="%.6g")
        runs_path = out / "runs.csv"
        runs = pd.read_csv(runs_path) if runs_path.exists() else pd.DataFrame()
        runs = pd.concat([runs, pd.DataFrame([{"command": command, "population": name, "games": args.games,
                                               "cpu_s": round(cpu)}])], ignore_index=True)
        runs.to_csv(runs_path, index=False)
        listed = "\n".join(f"- `{r.command}`: population `{r.population}`, {r.games} games per arm, "
                           f"{r.cpu_s:.0f} CPU s" for r in runs.itertuples())
        populations = "\n".join(f"- `{r.population}`: `{r.lineup}`"
                                for r in effects.drop_duplicates("population").itertuples())
        (out / "README.md").write_text(README.format(runs=listed, populations=populations))
        print(f"{name}: {cpu:.0f} CPU s", flush=True)
    print(effects.round(4).to_string())
    print(placement_verdicts(effects).round(2).to_string())
    print(f"{total:.0f} CPU s")


if __name__ == "__main__":
    main()
