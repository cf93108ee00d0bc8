"""Placement, claiming and fortification under strong play, measured in real games (issue #19 §4).

``NUMBA_NUM_THREADS=1 python scripts/placement_experiment.py --games 10000 --out data/placement`` plays,
in 4-player Classic (territories claimed by choice), one seat with each placement treatment
(`riskstats.analysis.placement.TREATMENTS`: fortify=spread, fortify=none, reinforce=spread, claim=random)
against the same seat with the default (border, stack, greedy), in two populations
(`riskstats.analysis.placement.POPULATIONS`: the value bot in every seat, continent-tuned in every seat),
every arm on the same seeded games with seats rotated; it writes ``effects.csv`` (one row per population
and treatment: win rates with Wilson intervals, the paired effect with its McNemar-matched interval, Holm
over all rows, truncations, CPU seconds) and a README.md with the command, and prints the table.
"""
import argparse
import sys
import time
from pathlib import Path

from riskstats.analysis.placement import placement_effects, placement_verdicts


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10000, help="games per arm")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--out", default="data/placement")
    args = parser.parse_args(argv)
    start = time.process_time()
    effects = placement_effects(args.games, args.players, seed=args.seed)
    cpu = time.process_time() - start
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    effects.to_csv(out / "effects.csv", index=False, float_format="%.6g")
    command = ("NUMBA_NUM_THREADS=1 python scripts/placement_experiment.py "
               + " ".join(argv if argv is not None else sys.argv[1:]))
    (out / "README.md").write_text(
        "# Placement, claiming and fortification under strong play\n\n"
        f"Made by `{command}` ({cpu:.0f} CPU s in all). See the script's docstring and "
        "`riskstats.analysis.placement` for the design; read by `notebooks/07_placement.ipynb`.\n\n"
        "- `effects.csv`: one row per population (strong: `value:rollouts=1:plans=4` in every seat; heuristic: "
        "`continent-tuned` in every seat) and treatment of one seat (fortify=spread, fortify=none, "
        "reinforce=spread, claim=random, each against the default border, stack, greedy): the treated seat's "
        "win rate in the control and treated arms with 95% Wilson intervals, the paired effect and its 95% "
        "interval (agrees with exact McNemar), p_value, p_holm (Holm over all rows), discordant games, the "
        "arms' correlation, truncated games per arm (no winner), mean turns, CPU seconds per arm.\n")
    print(effects.round(4).to_string())
    print(placement_verdicts(effects).round(2).to_string())
    print(f"{cpu:.0f} CPU s")


if __name__ == "__main__":
    main()
