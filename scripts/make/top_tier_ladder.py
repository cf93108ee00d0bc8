"""Make data/top_tier/ladder/: the head-to-head matrices of the candidates for the top tier, and their tiers.

    python scripts/make/top_tier_ladder.py                       # play what is missing, then write the tables
    python scripts/make/top_tier_ladder.py --tables-only         # the tables again from the committed games

Issue 52 item 1: the candidates (`CANDIDATES`: the hunter, both searches of the former top tier, the two tuned
value bots and the best tuned heuristic) play

- **four-player**: every line-up of 4 of them (15), each on deals of its own, each deal in all 4 rotations of the
  seats (`riskstats.analysis.strength.lineup_games` with ``every_seat`` and ``own_seeds``): ``ladder_games.csv.gz``;
- **two-player** (with the neutral): every pair (15), each deal in both seatings, the same deals for every pair:
  ``round_robin_games.csv.gz``.

The games are played one line-up at a time and appended to the per-game table, so an interrupted run keeps what
it finished and a rerun plays only the line-ups missing (the same seeds: the table is the one a run in one go
makes). Then ``tiers.csv`` and ``head_to_head.csv`` (`riskstats.stats.verdicts.tiers_table`: for each pair the
share of their games the first finished ahead by finishing place, Holm over the pairs of a format; tier 1 is every
bot no other bot beats, then the same among the rest; no rating model) and, as context only, the Luce ladder of the
four-player games and its fit test (``ladder.csv``, ``ladder_fit.csv``). Each step's wall and CPU time is printed.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import pandas as pd

from riskstats.runs.tiers import TIER_SETS

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "data" / "top_tier" / "ladder"
FORMER_TOP_TIER = tuple(entry["bot"] for entry in TIER_SETS["top"].values())
CANDIDATES = ("hunter", *FORMER_TOP_TIER, "value-tuned", "value-wide", "continent-tuned")
"""The candidates for the top tier (issue 52), as bot specs: the hunter, the former top tier's two searches as the
``top`` tier set (`riskstats.runs.tiers.TIER_SETS`) spells them out (``search:value=model`` alone would be another
bot), the two tuned value bots and the best tuned heuristic."""
FORMATS = {"four": ("ladder_games.csv.gz", 4, True), "two": ("round_robin_games.csv.gz", 2, False)}
"""Format -> (per-game table, players, whether each line-up plays deals of its own)."""


def play(bots: list[str], name: str, players: int, own_seeds: bool, games: int, seed: int, out: Path) -> pd.DataFrame:
    """The per-game table ``out / name``, every line-up of ``players`` of ``bots`` played ``games`` times: the
    line-ups already in it are kept, the missing ones played and appended one at a time."""
    from riskstats.analysis.strength import ladder_lineups, lineup_games

    path = out / name
    table = pd.read_csv(path) if path.exists() else pd.DataFrame()
    done = set(table["lineup"]) if len(table) else set()
    lineups = ladder_lineups(bots, players)
    for i, lineup in enumerate(lineups):
        if i in done:
            continue
        began, cpu = time.perf_counter(), time.process_time()
        part = lineup_games(bots, i, players, games, seed, every_seat=True, own_seeds=own_seeds)
        table = pd.concat([table, part], ignore_index=True)
        out.mkdir(parents=True, exist_ok=True)
        table.to_csv(path.with_suffix(".tmp.gz"), index=False)
        path.with_suffix(".tmp.gz").replace(path)  # whole line-ups only, even if stopped while writing
        print(f"{name}: line-up {i + 1}/{len(lineups)} ({','.join(lineup)}): {games} games in "
              f"{time.perf_counter() - began:.0f} s ({time.process_time() - cpu:.0f} CPU s)", file=sys.stderr,
              flush=True)
    return table


def tables(out: Path, boot: int, seed: int) -> None:
    """``tiers.csv``, ``head_to_head.csv``, ``ladder.csv`` and ``ladder_fit.csv`` from the per-game tables."""
    from riskstats.stats.ratings import luce_model, reported_fit
    from riskstats.stats.verdicts import tiers_table

    four = pd.read_csv(out / FORMATS["four"][0])
    two = pd.read_csv(out / FORMATS["two"][0]) if (out / FORMATS["two"][0]).exists() else None
    ladder, _, fit = luce_model(four, boot=boot, seed=seed)
    fit = reported_fit(fit)
    tiers, matrices = tiers_table(four, two, ladder, fit)
    for stem, frame in {"ladder": ladder, "ladder_fit": fit, "tiers": tiers, "head_to_head": matrices}.items():
        frame.to_csv(out / f"{stem}.csv", index=False)
    print(tiers[[c for c in ("bot", "tier", "beaten_by", "tier_2p", "beaten_by_2p") if c in tiers]].to_string(
        index=False))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", nargs="+", default=list(CANDIDATES), help="the candidates (bot specs)")
    parser.add_argument("--four-games", type=int, default=960, help="games per four-player line-up (a multiple of 4)")
    parser.add_argument("--two-games", type=int, default=2000, help="games per two-player pair (even)")
    parser.add_argument("--boot", type=int, default=500, help="bootstrap resamples of the Luce context")
    parser.add_argument("--seed", type=int, default=5252)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--tables-only", action="store_true", help="play nothing: the tables from the games")
    args = parser.parse_args(argv)
    from riskstats.errors import RiskstatsError
    from riskstats.game.bots.catalog import parse_bot

    try:
        bots = list(dict.fromkeys(parse_bot(b).label for b in args.bots))
        if not args.tables_only:
            for key, games in (("four", args.four_games), ("two", args.two_games)):
                name, players, own = FORMATS[key]
                play(bots, name, players, own, games, args.seed, args.out)
        tables(args.out, args.boot, args.seed)
    except RiskstatsError as error:
        sys.exit(f"error: {error}")


if __name__ == "__main__":
    main()
