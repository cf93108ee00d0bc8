"""Benchmark: how strong the search bot is, measured against fixed opponents (issue #11 §3).

    python scripts/bench/bench_strength.py                         # the full benchmark (about an hour on 2 cores)
    python scripts/bench/bench_strength.py --games 200 --ladder-games 4 --boot 200   # a quick look
    python scripts/bench/bench_strength.py --out data/strength     # also write the tables as CSV

On fixed seeds (``--seed``), with the seats rotating one place a game
(`riskstats.analysis.strength`):

1. **Two-player with the neutral:** ``--bot`` against each built-in and tuned bot, ``--games`` games
   each. Target: a win rate of at least 65% against every one, with the 95% Wilson lower bound above 50%.
2. **Four-player Classic:** one ``--bot`` against three copies of ``--best`` (the strongest tuned
   heuristic), ``--games`` games. Target: at least 40%, with the Wilson lower bound above the fair 25%.
3. **Speed:** games and decisions per CPU second (one thread) of every bot playing itself, two-player.
4. **A rating ladder:** every line-up of 4 distinct bots from all built-in and tuned bots plus the
   search bot at two budgets (``--bot`` and ``--strong``) and any ``--ladder-extra`` specs, ``--ladder-games``
   games each (``--ladder-only``: this table alone), rated by
   the Luce model of who wins with a bootstrap over games (ranks shared where the intervals of the
   differences do not separate), with the model's goodness-of-fit test.

Each table is printed; a target row says MET or MISSED.

``--issue18`` measures issue #18's targets instead (fixed seeds, seats rotated)::

    python scripts/bench/bench_strength.py --issue18 --games 400 --speed-games 200

1. ``--value-bot`` (default ``value``) against continent-tuned, two-player with the neutral: >= 70%, Wilson
   lower bound above 50%;
2. one ``--value-bot`` against three continent-tuned, four-player Classic: >= 40%, lower bound above 25%;
3. ``--value-bot`` playing itself, four-player Classic, one thread: >= 300 games per CPU second;
4. ``--new-search`` (default ``search:value=model``) against today's ``search``, two-player: >= 55%, with
   the CPU per game of both.
5. with ``--search-four N``: one ``--new-search`` against three of today's ``search``, four-player Classic:
   >= 30%, lower bound above 25%.
6. with ``--speed-four N``: the CPU per game of ``--new-search`` and of ``search`` playing themselves,
   four-player Classic (issue #30: the cheap bot at most a fifth of search's).

``--new-search`` takes several specs to compare them on the same seeds (``--games 0`` skips 1-3)::

    python scripts/bench/bench_strength.py --issue18 --games 0 --search-games 600 --search-four 300 --seed 11 \
        --new-search search:value=model search:rollouts=8:horizon=1:plans=8:value=model

With ``--sprt``, table 4 stops each new search's series by the sequential probability ratio test instead of
playing a fixed number of games (`riskstats.analysis.strength.head_to_head_sprt`): chunks of ``--sprt-chunk``
games, H0 ``--elo0`` (0) against H1 ``--elo1`` (5 Elo better), alpha = beta = 0.05, at most ``--search-games``
games; it reports the decision (H1: better by elo1; H0: not; continue: undecided at the cap), the LLR and the
games played::

    python scripts/bench/bench_strength.py --issue18 --games 0 --sprt --search-games 20000 \
        --new-search search:value=model
"""
import argparse
import sys
import time
from pathlib import Path

import pandas as pd

from riskstats.analysis.strength import head_to_head, head_to_head_sprt, ladder_games, pair_rates, speed
from riskstats.game.bots.catalog import CATALOG, parse_bot
from riskstats.stats.ratings import luce_model, reported_fit
from riskstats.stats.report import fit_words

TWO_PLAYER_TARGET, FOUR_PLAYER_TARGET = 0.65, 0.40
VALUE_TWO, VALUE_FOUR, VALUE_SPEED, NEW_SEARCH_TWO, NEW_SEARCH_FOUR = 0.70, 0.40, 300.0, 0.55, 0.30


def _show(title: str, table: pd.DataFrame, columns) -> None:
    print(f"\n## {title}\n")
    print(table[columns].to_string(index=False, float_format=lambda x: f"{x:.4g}"), flush=True)


def _verdict(rates: pd.DataFrame, target: float) -> pd.DataFrame:
    share = rates["share"]
    met = (rates.win_rate >= target) & (rates.ci_low > share)
    return rates.assign(target=target, verdict=met.map({True: "MET", False: "MISSED"}))


def main(args) -> None:
    bot, strong = parse_bot(args.bot).label, parse_bot(args.strong).label
    others = [name for name in CATALOG if parse_bot(name).name != parse_bot(bot).name and name not in args.ladder_skip]
    start = time.perf_counter()
    print(f"bot {bot}, strong budget {strong}, opponents {', '.join(others)}, seed {args.seed}")
    tables = {}
    if args.round_robin:
        return _round_robin(args, [*others, bot, strong, *args.ladder_extra], start)
    if args.ladder_only:
        return _ladder(args, [*others, bot, strong, *args.ladder_extra], tables, start)

    two = _verdict(head_to_head(bot, others, 2, args.games, args.seed), TWO_PLAYER_TARGET)
    columns = ["opponent", "games", "wins", "win_rate", "ci_low", "ci_high", "truncated", "mean_rounds",
               "games_per_cpu_s", "target", "verdict"]
    _show(f"two-player with the neutral: {bot} against each bot", two, columns)
    tables["two_player"] = two

    four = _verdict(head_to_head(bot, [args.best], 4, args.games, args.seed), FOUR_PLAYER_TARGET)
    _show(f"four-player Classic: one {bot} against three {args.best}", four, columns)
    tables["four_player"] = four

    fast = speed([bot, strong, *others], 2, args.speed_games, args.seed)
    _show("speed: each bot playing itself, two-player, one thread", fast,
          ["bot", "games", "decisions", "games_per_cpu_s", "decisions_per_cpu_s", "mean_rounds"])
    tables["speed"] = fast

    if args.ladder_games:
        _ladder(args, [*others, bot, strong, *args.ladder_extra], tables, start)
    else:
        _write(args, tables)
    met = all((t.verdict == "MET").all() for t in (two, four))
    print(f"\ntargets {'MET' if met else 'MISSED'}; {time.perf_counter() - start:.0f} s in all")


def _ladder(args, pool, tables, start) -> None:
    """The rating ladder of ``pool`` (every line-up of 4), written with ``tables``."""
    if args.ladder_from is not None:  # rate a committed per-game table again, playing nothing
        games = pd.read_csv(args.ladder_from)
        pool = sorted(set(",".join(games.bots).split(",")))
        args.ladder_games = int(games.groupby("lineup").size().max())
    else:
        pool = list(dict.fromkeys(parse_bot(b).label for b in pool))
        games = ladder_games(pool, 4, args.ladder_games, args.seed, every_seat=args.every_seat,
                             own_seeds=args.own_seeds)
        tables["ladder_games.csv.gz"] = games  # the per-game table the ratings and the tiers are computed from
    ratings, _, fit = luce_model(games, boot=args.boot, seed=args.seed)
    _show(f"rating ladder: Luce (who wins) over {len(games):,} four-player games of every line-up of 4 of "
          f"{len(pool)} bots ({args.ladder_games} games each), {args.boot} bootstrap resamples", ratings,
          ["bot", "rank", "elo", "ci_low", "ci_high", "wins", "games", "truncated"])
    print(fit_words(fit.iloc[0].to_dict()))
    tables["ladder"] = ratings
    tables["ladder_fit"] = reported_fit(fit)  # no chi-square p where expected counts are small
    _write(args, tables)
    print(f"{time.perf_counter() - start:.0f} s in all")


def _round_robin(args, pool, start) -> None:
    """The two-player round robin of ``pool``: every pair, ``--round-robin`` games each, both seatings of each seed
    (`ladder_games` with ``every_seat``), written as ``round_robin_games.csv.gz``; its head-to-head rates printed."""
    pool = list(dict.fromkeys(parse_bot(b).label for b in pool))
    games = ladder_games(pool, 2, args.round_robin, args.seed, every_seat=True)
    _write(args, {"round_robin_games.csv.gz": games})
    rates = pair_rates(games)
    _show(f"two-player round robin of {len(pool)} bots with the neutral, {args.round_robin} games a pair (both "
          f"seatings of {args.round_robin // 2} seeds): the share of their decided games each bot won", rates,
          ["bot", "opponent", "decided", "wins", "share", "ci_low", "ci_high", "p_value"])
    print(f"{len(games):,} games; {time.perf_counter() - start:.0f} s in all")


def _write(args, tables) -> None:
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        for name, table in tables.items():
            table.to_csv(args.out / (name if name.endswith(".gz") else f"{name}.csv"), index=False)


def issue18(args) -> None:
    from riskstats.game.rules.options import GameRules

    start = time.perf_counter()
    value, news = parse_bot(args.value_bot).label, [parse_bot(spec).label for spec in args.new_search]
    columns = ["bot", "opponent", "games", "wins", "win_rate", "ci_low", "ci_high", "mean_rounds", "cpu_s",
               "games_per_cpu_s", "target", "verdict"]
    tables = {}
    if args.games:
        two = _verdict(head_to_head(value, [args.best], 2, args.games, args.seed), VALUE_TWO)
        _show(f"two-player with the neutral: {value} against {args.best}", two, columns)
        four = _verdict(head_to_head(value, [args.best], 4, args.games, args.seed), VALUE_FOUR)
        _show(f"four-player Classic: one {value} against three {args.best}", four, columns)
        fast = speed([value], 4, args.speed_games, args.seed, GameRules())
        fast = fast.assign(target=VALUE_SPEED, verdict=(fast.games_per_cpu_s >= VALUE_SPEED).map(
            {True: "MET", False: "MISSED"}))
        _show(f"speed: {value} playing itself, four-player Classic, one thread", fast,
              ["bot", "games", "decisions", "games_per_cpu_s", "decisions_per_cpu_s", "mean_rounds", "target",
               "verdict"])
        tables.update(value_two_player=two, value_four_player=four, value_speed=fast)
    if args.search_games:
        if args.sprt:
            duel = pd.DataFrame([head_to_head_sprt(new, "search", args.search_games, args.sprt_chunk, args.seed,
                                                   elo0=args.elo0, elo1=args.elo1) for new in news])
            _show(f"SPRT, two-player with the neutral: the new search against today's search (H0 {args.elo0:g} "
                  f"Elo, H1 {args.elo1:g} Elo, alpha = beta = 0.05, chunks of {args.sprt_chunk} games)", duel,
                  ["bot", "opponent", "games", "wins", "draws", "losses", "score", "llr", "lower", "upper",
                   "decision", "cpu_s"])
        else:
            duel = pd.concat([_verdict(head_to_head(new, ["search"], 2, args.search_games, args.seed),
                                       NEW_SEARCH_TWO) for new in news], ignore_index=True)
            _show("two-player with the neutral: the new search against today's search", duel, columns)
        cost = speed([*news, "search"], 2, args.speed_games, args.seed)
        _show("CPU per game: the new search and today's, each playing itself, two-player", cost,
              ["bot", "games", "games_per_cpu_s", "decisions_per_cpu_s", "mean_rounds"])
        tables.update({"new_search_sprt" if args.sprt else "new_search": duel, "search_speed": cost})
    if args.search_four:
        four_search = pd.concat([_verdict(head_to_head(new, ["search"], 4, args.search_four, args.seed),
                                          NEW_SEARCH_FOUR) for new in news], ignore_index=True)
        _show("four-player Classic: one new search against three of today's search", four_search, columns)
        tables.update(new_search_four_player=four_search)
    if args.speed_four:
        cost4 = speed([*news, "search"], 4, args.speed_four, args.seed)
        _show("CPU per game: the new search and today's, each playing itself, four-player Classic", cost4,
              ["bot", "games", "games_per_cpu_s", "decisions_per_cpu_s", "mean_rounds"])
        tables.update(search_speed_four_player=cost4)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        for name, table in tables.items():
            table.to_csv(args.out / f"{name}.csv", index=False)
    print(f"\n{time.perf_counter() - start:.0f} s in all")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="search", help="the bot measured (a spec)")
    parser.add_argument("--strong", default="search:rollouts=32", help="its second budget, for the ladder")
    parser.add_argument("--best", default="continent-tuned", help="the strongest heuristic (4-player opponent)")
    parser.add_argument("--games", type=int, default=2000,
                        help="games per head-to-head series (--issue18: of the value bot; 0: skip it)")
    parser.add_argument("--speed-games", type=int, default=100, help="games per bot for the speed table")
    parser.add_argument("--ladder-games", type=int, default=20, help="games per ladder line-up (0: no ladder)")
    parser.add_argument("--boot", type=int, default=1000, help="bootstrap resamples of the ladder")
    parser.add_argument("--ladder-extra", nargs="*", default=[], help="more bots (specs) for the ladder's pool")
    parser.add_argument("--ladder-skip", nargs="*", default=[],
                        help="catalogue bots left out of every table (e.g. uniform, whose games seldom end)")
    parser.add_argument("--round-robin", type=int, default=0,
                        help="games per pair of a two-player round robin of the ladder's bots, both seatings of "
                             "each seed (round_robin_games.csv.gz; 0: none)")
    parser.add_argument("--every-seat", action="store_true",
                        help="ladder: each seed once in every rotation of the line-up (--ladder-games a multiple of 4)")
    parser.add_argument("--own-seeds", action="store_true",
                        help="ladder: each line-up plays its own seeds, not the same seeds as every other line-up")
    parser.add_argument("--ladder-only", action="store_true", help="the rating ladder alone (no other tables)")
    parser.add_argument("--ladder-from", type=Path,
                        help="rate this committed per-game ladder table (ladder_games.csv.gz) instead of playing")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, help="write the tables here as CSV")
    parser.add_argument("--issue18", action="store_true", help="measure issue #18's targets (module docstring)")
    parser.add_argument("--value-bot", default="value", help="the value bot measured (--issue18)")
    parser.add_argument("--new-search", nargs="+", default=["search:value=model"],
                        help="the new search, or several specs to compare on the same seeds (--issue18)")
    parser.add_argument("--search-games", type=int, default=400,
                        help="games of the new search against today's (--issue18; 0: skip)")
    parser.add_argument("--sprt", action="store_true",
                        help="stop the new search's series against today's at the SPRT's decision (--issue18)")
    parser.add_argument("--sprt-chunk", type=int, default=100, help="games between two looks of the SPRT")
    parser.add_argument("--elo0", type=float, default=0.0, help="the SPRT's H0: Elo difference (default 0)")
    parser.add_argument("--elo1", type=float, default=5.0, help="the SPRT's H1: Elo difference (default 5)")
    parser.add_argument("--speed-four", type=int, default=0,
                        help="four-player self-play games per bot for a second speed table (--issue18; 0: skip)")
    parser.add_argument("--search-four", type=int, default=0,
                        help="four-player games of one new search against three of today's (--issue18; 0: skip)")
    try:
        parsed = parser.parse_args()
        issue18(parsed) if parsed.issue18 else main(parsed)
    except Exception as error:  # a one-line message for bad input, as the CLI does
        from riskstats.errors import RiskstatsError

        if not isinstance(error, RiskstatsError):
            raise
        sys.exit(f"error: {error}")
