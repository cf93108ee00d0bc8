"""The invariant sweep: many seeded games per variant, every invariant checked after every turn.

    python scripts/make/invariant_sweep.py                      # 100,000 games per variant, resumable
    python scripts/make/invariant_sweep.py --budget 2400        # stop starting chunks after 40 minutes
    python scripts/make/invariant_sweep.py --only mission-4-deal,capital-4-choice --games 20000

Each variant (player count, mixed line-up, rule options: every setup mode, the card options, escalation
schemes, the two-player games, Secret Mission, Capital Risk, a search seat) is played in chunks by
`riskstats.game.invariants.sweep` (the engine's own loop, one turn at a time; the checks are compiled:
`riskstats.game.invariants.INVARIANTS`). The variants take turns, a chunk each, until each has
``--games`` games or the ``--budget`` (seconds) is spent; a rerun resumes where the last one stopped.

Files in ``--out`` (default data/invariants): ``chunks.csv`` (one row per chunk: games, turns, moves,
checks, violations, seconds, CPU seconds), ``summary.csv`` (one row per variant, totals), and
``violations.csv`` (one row per game that broke an invariant: variant, game, seed, turn, invariants).
"""
import argparse
import sys
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from riskstats.game.invariants import sweep  # noqa: E402
from riskstats.game.rules.options import GameRules  # noqa: E402

SEED = 21
"""The sweep's seed (issue 21): game g of a variant has `sweep`'s seed g (seed scheme 1's words)."""

VARIANTS = {  # name -> (players, line-up, rule options); the line-ups mix bots, rotating over the seats
    "classic-3-choice": (3, "random,continent-tuned,defensive", {}),
    "classic-4-choice": (4, "aggressive,continent,defensive,random", {}),
    "classic-5-deal": (5, "continent-tuned,random,aggressive,mission,defensive", {"setup": "deal"}),
    "classic-6-choice": (6, "aggressive,continent,defensive,random,continent-tuned,capital", {}),
    "classic-4-deal": (4, "continent,aggressive,random,continent-tuned", {"setup": "deal"}),
    "two-player-neutral": (2, "aggressive,random", {"variant": "two-player"}),
    "two-player-neutral-interleaved": (2, "continent-tuned,defensive", {"variant": "two-player",
                                                                        "neutral_interleaved": True}),
    "two-player-50-choice": (2, "continent,random", {"variant": "two-player", "two_player_classic_50": True}),
    "two-player-50-deal": (2, "aggressive,continent-tuned", {"variant": "two-player", "two_player_classic_50": True,
                                                             "setup": "deal"}),
    "mission-4-deal": (4, "mission,aggressive,continent-tuned,random", {"variant": "mission"}),
    "mission-3-choice-european-24": (3, "mission,defensive,continent", {
        "variant": "mission", "setup": "choice", "mission_deck": "european", "mission_target_lost": "24_territories"}),
    "capital-4-choice": (4, "capital,aggressive,continent-tuned,random", {"variant": "capital"}),
    "capital-5-short-deal": (5, "capital,mission,defensive,continent,random", {
        "variant": "capital", "setup": "deal", "capital_short": True}),
    "cards-per-conquest": (4, "aggressive,continent,defensive,random", {"cards_per_turn": "per_conquest"}),
    "escalation-fixed-bonus-per-set-adjacent": (4, "continent-tuned,aggressive,random,defensive", {
        "escalation": "fixed", "territory_bonus": "per_set", "fortify": "adjacent"}),
    "escalation-none-bonus-off": (3, "random,aggressive,continent", {"escalation": "none", "territory_bonus": "off"}),
    "search-mixed": (3, "search,continent-tuned,aggressive", {}),
}
SLOW = {"search-mixed": (1_000, 40), "cards-per-conquest": (10_000, 100)}
"""Variants whose games take far longer, with their own target and chunk: a search seat plays dozens of
rollouts a turn; with a card per conquest the progressive sets grow to thousands of armies, so turns
have thousands of rolls and some games run into the engine's move limit (5,000,000 moves)."""


def _options(rules: dict) -> str:
    return ";".join(f"{k}={v}" for k, v in rules.items()) or "defaults"


def _done(chunks: pd.DataFrame, name: str) -> int:
    """Games 0 .. n - 1 of a variant already swept (chunks are played in order)."""
    rows = chunks[chunks["variant"] == name]
    return int(rows["games"].sum()) if len(rows) else 0


def main(target: int, chunk: int, budget: float, out: Path, only: list[str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    chunks_path = out / "chunks.csv"
    chunks = pd.read_csv(chunks_path) if chunks_path.exists() else pd.DataFrame(columns=[
        "variant", "players", "bots", "rules", "seed", "first", "games", "turns", "moves", "checks", "violations",
        "seconds", "cpu_seconds"])
    violations_path = out / "violations.csv"
    names = only or list(VARIANTS)
    start = time.perf_counter()
    busy = True
    while busy and time.perf_counter() - start < budget:
        busy = False
        for name in names:
            if time.perf_counter() - start >= budget:
                break
            players, bots, options = VARIANTS[name]
            goal, size = SLOW.get(name, (target, chunk))
            goal = min(target, goal)
            first = _done(chunks, name)
            if first >= goal:
                continue
            busy = True
            games = min(size, goal - first)
            t0, c0 = time.perf_counter(), time.process_time()
            table = sweep(games, players, bots, GameRules(**options), seed=SEED, first=first)
            seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
            broken = table[table["violations"] != ""]
            if len(broken):
                rows = broken[["game", "seed", "violation_turn", "violations"]].assign(variant=name)
                rows.to_csv(violations_path, mode="a", header=not violations_path.exists(), index=False)
            row = {"variant": name, "players": players, "bots": bots, "rules": _options(options), "seed": SEED,
                   "first": first, "games": games, "turns": int(table["turns"].sum()),
                   "moves": int(table["moves"].sum()), "checks": int(table["checks"].sum()),
                   "violations": len(broken), "seconds": round(seconds, 1), "cpu_seconds": round(cpu, 1)}
            chunks = pd.concat([chunks, pd.DataFrame([row])], ignore_index=True)
            chunks.to_csv(chunks_path, index=False)
            print(f"{name:42} games {first + games:>7,} (+{games:,})  violations {len(broken)}  "
                  f"{games / max(cpu, 1e-9):,.0f} games per CPU second", flush=True)
    summary = (chunks.groupby("variant", sort=False)
               .agg(players=("players", "first"), bots=("bots", "first"), rules=("rules", "first"),
                    games=("games", "sum"), turns=("turns", "sum"), moves=("moves", "sum"), checks=("checks", "sum"),
                    violations=("violations", "sum"), cpu_seconds=("cpu_seconds", "sum"))
               .reset_index())
    summary["target"] = [min(target, SLOW.get(v, (target,))[0]) for v in summary["variant"]]
    summary.to_csv(out / "summary.csv", index=False)
    print(summary.to_string(index=False))
    total = summary[["games", "turns", "moves", "checks", "violations"]].sum()
    print(f"all variants: {int(total.games):,} games, {int(total.turns):,} turns, {int(total.moves):,} moves, "
          f"{int(total.checks):,} checked states, {int(total.violations)} violations")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="games per variant (default 100,000)")
    parser.add_argument("--chunk", type=int, default=2_500, help="games per chunk (default 2,500)")
    parser.add_argument("--budget", type=float, default=float("inf"), help="seconds before no new chunk starts")
    parser.add_argument("--out", type=Path, default=ROOT / "data" / "invariants")
    parser.add_argument("--only", default="", help="comma-separated variant names (default: all)")
    parser.add_argument("--threads", type=int, default=None, help="numba threads (default: all cores)")
    args = parser.parse_args()
    if args.threads:
        import numba

        numba.set_num_threads(args.threads)
    only = [v for v in args.only.split(",") if v]
    unknown = [v for v in only if v not in VARIANTS]
    if unknown:
        parser.error(f"unknown variant {unknown[0]!r}; variants: {', '.join(VARIANTS)}")
    main(args.games, args.chunk, args.budget, args.out, only)
