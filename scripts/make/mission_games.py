"""Secret Mission self-play with one bot in every seat, for notebook 06's "which mission is hardest" (issue #29).

``python scripts/make/mission_games.py --bot search:rollouts=8:horizon=1:plans=6:value=formula --games 1500
--out data/missions/search`` plays ``--games`` seeded four-player Secret Mission games (standard deck, seed
``--seed``) with ``--bot`` in every seat, ``--chunk`` games at a time (`play_games(first=...)`: the same games
as one run), and after each chunk rewrites ``games.csv`` (`play_games`' table without its ``rules`` column, the
same in every row; its ``missions`` column is what `riskstats.analysis.missions.mission_win_rates` reads) and
``runs.csv`` (one row per chunk: first game, games, CPU seconds, the command) whole. Rerun the same command to
resume after the last chunk written.

``python scripts/make/mission_games.py --set top_hunter --games 2500`` plays the population of every tier of that
tier set (`riskstats.runs.tiers.TIER_SETS`: its bot in every seat, or alternating with the others') into
``<out>/<folder>`` (``--out`` default ``data/missions``; the tier's ``folder``), as ``scripts/make/findings.py`` does.
"""
import argparse
import sys
import time
from pathlib import Path

import pandas as pd

from riskstats.errors import RiskstatsError
from riskstats.game.rules.options import GameRules
from riskstats.runs.results import write_table
from riskstats.runs.selfplay import play_games
from riskstats.runs.tiers import set_populations


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", help="the bot spec in every seat (or a line-up, its seats cycled)")
    parser.add_argument("--set", help="instead of --bot: every tier of this tier set, each into <out>/<its folder>")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--chunk", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", help="the folder written (with --set: default data/missions)")
    args = parser.parse_args(argv)
    command = "python scripts/make/mission_games.py " + " ".join(argv if argv is not None else sys.argv[1:])
    try:
        if (args.bot is None) == (args.set is None):
            raise RiskstatsError("give --bot or --set, one of them")
        if args.set:
            for lineup, folder in set_populations(args.set).values():
                run(lineup, Path(args.out or "data/missions") / folder, args, command)
        elif args.out is None:
            raise RiskstatsError("give --out with --bot")
        else:
            run(args.bot, Path(args.out), args, command)
    except RiskstatsError as e:
        sys.exit(f"error: {e}")


def run(bot: str, out: Path, args, command: str) -> None:
    """Play ``args.games`` mission games of ``bot`` into ``out``, resuming after the chunks ``runs.csv`` records."""
    out.mkdir(parents=True, exist_ok=True)
    games_path, runs_path = out / "games.csv", out / "runs.csv"
    runs = pd.read_csv(runs_path) if runs_path.exists() else pd.DataFrame()
    done = int((runs["first"] + runs["games"]).max()) if len(runs) else 0
    games = pd.read_csv(games_path) if games_path.exists() and done else pd.DataFrame()
    if len(games):
        games = games[games.game < done]
    rules = GameRules(variant="mission")
    first = done
    while first < args.games:
        n = min(args.chunk, args.games - first)
        start = time.process_time()
        table = play_games(n, 4, bot, rules=rules, seed=args.seed, first=first).drop(columns="rules")
        games = pd.concat([games, table], ignore_index=True)
        runs = pd.concat([runs, pd.DataFrame([{"first": first, "games": n, "bot": bot,
                                               "cpu_s": round(time.process_time() - start, 1),
                                               "command": command}])], ignore_index=True)
        write_table(games, games_path)
        write_table(runs, runs_path)
        print(runs.iloc[-1].to_dict(), flush=True)
        first += n
    print(f"{out}: {len(games)} games, {runs.cpu_s.sum():.1f} CPU s")


if __name__ == "__main__":
    main()
