"""The search bot while it is built: win rates with Wilson intervals, games and searches per CPU second.

``python scripts/bench_search.py [games] [bot] [seed]`` plays, on one thread (so process time is the
CPU cost), ``games`` two-player games (``GameRules(variant="two-player")``, a neutral) of ``bot``
(default ``search``) against each other bot of the catalogue (`OPPONENTS`), and ``games``
4-player Classic games of one ``bot`` against three continent-tuned. `play_games` rotates the line-up
over the seats game by game, so the bot moves first in half the two-player games and in each seat in
a quarter of the 4-player ones. Each row: wins / games, the win rate with its 95% Wilson interval, CPU
ms per game, and searches (turns of the search seat, each one search) per CPU second. The opponents'
own games per CPU second (continent-tuned in the same setting) are printed for scale. The full
strength benchmark (>= 2,000 games each, the rating ladder) is ``scripts/bench_strength.py``.
"""
import sys
import time

import numba

from riskstats.game.registry import parse_bot
from riskstats.game.rules import GameRules
from riskstats.intervals import wilson_interval
from riskstats.runs.selfplay import play_games

OPPONENTS = ("continent-tuned", "continent", "aggressive", "defensive", "mission", "capital", "random")


def own_turns(table, bot):
    """Turns the entry ``bot`` played in each game: turns are taken in seat order from seat 0 (the
    eliminated skipped: an estimate for multi-player games)."""
    total = 0
    for turns, bots in zip(table["turns"], table["bots"]):
        seats = bots.split(",")
        s = seats.index(bot)
        total += turns // len(seats) + (s < turns % len(seats))
    return total


def row(label, table, bot, cpu):
    wins = sum(int(w) >= 0 and b.split(",")[int(w)] == bot for w, b in zip(table["winner"], table["bots"]))
    n = len(table)
    low, high = wilson_interval(wins, n)
    searches = own_turns(table, bot)
    print(f"{label:36s} {wins:5d}/{n:<5d} {wins / n:6.1%} [{low:6.1%}, {high:6.1%}]  {1000 * cpu / n:7.1f} ms/game "
          f"{searches / cpu:8.0f} searches/s  mean turns {table['turns'].mean():6.1f}", flush=True)


def timed(*args, **kwargs):
    start = time.process_time()
    table = play_games(*args, **kwargs)
    return table, time.process_time() - start


def main(games: int = 200, bot: str = "search", seed: int = 2026) -> None:
    numba.set_num_threads(1)
    bot = parse_bot(bot).label  # as the results name it
    two = GameRules(variant="two-player")
    play_games(4, 2, [bot, "random"], rules=two, seed=0)  # compile
    for opponent in OPPONENTS:
        table, cpu = timed(games, 2, [bot, opponent], rules=two, seed=seed)
        row(f"two-player {bot} vs {opponent}", table, bot, cpu)
    table, cpu = timed(games, 4, [bot] + ["continent-tuned"] * 3, seed=seed)
    row(f"4-player {bot} vs 3x continent-tuned", table, bot, cpu)
    for players, rules in ((2, two), (4, None)):
        _, cpu = timed(games, players, ["continent-tuned"], rules=rules, seed=seed)
        print(f"continent-tuned self-play, {players} players: {games / cpu:8.0f} games per CPU second")


if __name__ == "__main__":
    args = sys.argv[1:]
    main(int(args[0]) if args else 200, args[1] if len(args) > 1 else "search", int(args[2]) if len(args) > 2 else 2026)
