"""How strong a bot is, measured: head-to-head win rates against fixed opponents, its speed, and a
rating ladder of many bots from multiplayer games.

A bot's strength is a number measured against fixed opponents, never a claim. `head_to_head` seats one
bot against copies of each opponent in turn (two-player games with the neutral, or one seat of a
multiplayer table) on fixed seeds, with the seats rotating one place a game
(`riskstats.runs.selfplay.play_games`), so no bot keeps the first move; the win rate carries its 95%
Wilson interval and is tested against the fair share 1/P. `head_to_head_sprt` compares a candidate with a baseline
two-player in chunks of games until the sequential probability ratio test (`riskstats.stats.sprt`) decides.
`ladder_games` plays every line-up of
``players`` distinct bots from a pool (each line-up the same number of games, seats rotating), the
balanced design the Luce model of who wins (`riskstats.stats.ratings.luce`) rates with a bootstrap
over games and tests for fit across line-ups. `speed` measures games and decisions (moves) per CPU second of bots
playing themselves. ``scripts/bench/bench_strength.py`` runs all three for the search bot (issue #11).
"""
from __future__ import annotations

import itertools
import time
from collections.abc import Iterable

import numpy as np
import pandas as pd

from riskstats.errors import RiskstatsError, check_int
from riskstats.game.bots.catalog import parse_bot
from riskstats.game.rules.options import GameRules
from riskstats.intervals import wilson_interval
from riskstats.runs.selfplay import play_games
from riskstats.stats.compare import versus_share
from riskstats.stats.head_to_head import PAIR_OUTCOMES, pair_rates  # noqa: F401 - re-exported
from riskstats.stats.sprt import sprt


def _rules(players: int, rules: GameRules | None) -> GameRules:
    if rules is not None:
        return rules
    return GameRules(variant="two-player") if players == 2 else GameRules()


def head_to_head(bot: str, opponents: Iterable[str], players: int = 2, games: int = 2000, seed: int = 0,
                 rules: GameRules | None = None) -> pd.DataFrame:
    """``bot`` in one seat against ``players - 1`` copies of each opponent: its win rate, one row each.

    Parameters
    ----------
    bot : str
        A bot spec (``"search:rollouts=16"``).
    opponents : iterable of str
        Bot specs; each plays every other seat of its own series of games.
    players : int
        Seats at the table (2: the two-player game with the neutral unless ``rules`` says otherwise).
    games : int
        Games against each opponent. Every series plays the same seeds (game g: seed word g of ``seed``)
        and rotates the seats one place a game, so ``bot`` moves first in 1/P of them.
    rules : GameRules, optional

    Returns
    -------
    pandas.DataFrame
        bot, opponent, players, games, decided (games with a winner: the trials), wins, win_rate (wins /
        decided), ci_low, ci_high (95% Wilson), share (1/P), p_value (exact binomial test against the share
        over the decided games), p_holm (Holm over the opponents), significant, truncated (games that hit
        the turn cap: left out, neither wins nor losses), mean_rounds, cpu_s (process time of the series)
        and games_per_cpu_s.
    """
    players = check_int("players", players, 2, 6)
    games = check_int("games", games, 1)
    label = parse_bot(bot).label
    opponents = [parse_bot(o).label for o in opponents]
    if not opponents:
        raise RiskstatsError("give at least one opponent")
    if label in opponents:
        raise RiskstatsError(f"bot {label!r} cannot be its own opponent: its wins would be ambiguous")
    rules = _rules(players, rules)
    rows = []
    for opponent in opponents:
        cpu = time.process_time()
        table = play_games(games, players, [label] + [opponent] * (players - 1), seed=seed, rules=rules)
        cpu = time.process_time() - cpu
        wins = int((table.winner_bot == label).sum())
        truncated = int((table.winner < 0).sum())
        rows.append({"bot": label, "opponent": opponent, "players": players, "trials": games - truncated,
                     "games": games, "wins": wins, "truncated": truncated, "mean_rounds": float(table.rounds.mean()),
                     "cpu_s": cpu, "games_per_cpu_s": games / cpu if cpu > 0 else np.inf})
    out = pd.DataFrame(rows)
    if (out.trials <= 0).any():
        raise RiskstatsError(f"every game against {out.opponent[out.trials <= 0].iloc[0]} stalled at the turn cap: "
                             f"no decided game to count")
    out["win_rate"] = out.wins / out.trials
    bounds = [wilson_interval(w, n) for w, n in zip(out.wins, out.trials)]
    out["ci_low"], out["ci_high"] = [b[0] for b in bounds], [b[1] for b in bounds]
    out = versus_share(out, 1 / players).rename(columns={"trials": "decided"})
    columns = ["bot", "opponent", "players", "games", "decided", "wins", "win_rate", "ci_low", "ci_high", "share",
               "p_value", "p_holm", "significant", "truncated", "mean_rounds", "cpu_s", "games_per_cpu_s"]
    return out[columns]


def head_to_head_sprt(bot: str, baseline: str, max_games: int = 20_000, chunk: int = 200, seed: int = 0,
                      rules: GameRules | None = None, elo0: float = 0.0, elo1: float = 5.0, alpha: float = 0.05,
                      beta: float = 0.05) -> pd.Series:
    """``bot`` against ``baseline`` two-player, in chunks of games, until the SPRT decides (or ``max_games``).

    The games are `head_to_head`'s series of ``bot`` against ``baseline`` (the two-player game with the neutral
    unless ``rules`` says otherwise; game g: seed word g of ``seed``, seats rotating one place a game), played
    ``chunk`` at a time; after each chunk `riskstats.stats.sprt.sprt` tests H0 ``elo0`` against H1 ``elo1`` on all
    the games so far (a win scores 1, a game cut at the turn cap is a draw, 1/2) and the series stops once it
    accepts either. Testing after each chunk rather than each game only makes the test stop a little later.

    Parameters
    ----------
    bot, baseline : str
        Bot specs: the candidate and the bot it must beat.
    max_games : int
        The most games to play; the decision is ``"continue"`` if the test has not decided by then.
    chunk : int
        Games between two looks at the test.
    seed : int
    rules : GameRules, optional
    elo0, elo1, alpha, beta : float
        The test's hypotheses and error rates (`riskstats.stats.sprt.sprt`: 0 and 5 Elo, 5% and 5%).

    Returns
    -------
    pandas.Series
        bot, opponent, then `riskstats.stats.sprt.sprt`'s fields at the stop (games, wins, draws, losses, score,
        llr, lower, upper, decision, elo0, elo1, alpha, beta), then cpu_s (process time of the games).
    """
    max_games = check_int("max_games", max_games, 1)
    chunk = check_int("chunk", chunk, 1)
    label, opponent = parse_bot(bot).label, parse_bot(baseline).label
    if label == opponent:
        raise RiskstatsError(f"bot {label!r} cannot be its own baseline: its wins would be ambiguous")
    sprt(0, 0, 0, elo0, elo1, alpha, beta)  # checks the test's arguments before any game
    rules = _rules(2, rules)
    wins = draws = losses = 0
    cpu = time.process_time()
    while True:
        done = wins + draws + losses
        table = play_games(min(chunk, max_games - done), 2, [label, opponent], seed=seed, rules=rules, first=done)
        wins += int((table.winner_bot == label).sum())
        draws += int((table.winner < 0).sum())
        losses += int((table.winner_bot == opponent).sum())
        test = sprt(wins, draws, losses, elo0, elo1, alpha, beta)
        if test.decision != "continue" or test.games >= max_games:
            break
    head = pd.Series({"bot": label, "opponent": opponent})
    return pd.concat([head, test, pd.Series({"cpu_s": time.process_time() - cpu})]).rename("sprt")


def ladder_lineups(bots: Iterable[str], players: int = 4) -> list[tuple[str, ...]]:
    """Every line-up of ``players`` distinct bots from ``bots`` (in the pool's order), for a balanced ladder.

    >>> ladder_lineups(["random", "aggressive", "continent"], 2)
    [('random', 'aggressive'), ('random', 'continent'), ('aggressive', 'continent')]
    """
    pool = [parse_bot(b).label for b in bots]
    if len(set(pool)) != len(pool):
        raise RiskstatsError(f"the ladder's bots must be distinct, got {', '.join(pool)}")
    players = check_int("players", players, 2, 6)
    if len(pool) < players:
        raise RiskstatsError(f"a ladder of {players}-player games needs at least {players} bots, got {len(pool)}")
    return list(itertools.combinations(pool, players))


def ladder_games(bots: Iterable[str], players: int = 4, games_per_lineup: int = 16, seed: int = 0,
                 rules: GameRules | None = None, every_seat: bool = False,
                 own_seeds: bool = False) -> pd.DataFrame:
    """Self-play games of every `ladder_lineups` line-up, ``games_per_lineup`` each, stacked.

    Each line-up plays the same seeds with its seats rotating one place a game (use a multiple of
    ``players`` games so every bot holds every seat equally often). With ``every_seat``, each seed is played
    ``players`` times in a row, once in each rotation (games ``players * k .. players * k + players - 1``: seed
    word k of ``seed``), so every bot holds every seat on the same deal: two-player, both seatings of each seed
    (``games_per_lineup`` must then be a multiple of ``players``). With ``own_seeds``, line-up i plays seed words
    ``i * games .. (i + 1) * games - 1`` (``games`` its games, or its deals with ``every_seat``) instead of the same
    words as every other line-up: without it, a pair of bots meets on the same few deals in every line-up, and
    their results cluster by deal (`pair_rates`). The table has the columns of
    `riskstats.runs.selfplay.play_games` plus ``lineup`` (its number); rate it with
    `riskstats.stats.ratings.luce` (and test the fit with `riskstats.stats.ratings.luce_fit`), or read its
    head-to-head rates with `pair_rates`.

    >>> t = ladder_games(["random", "aggressive", "continent"], 2, 4, seed=1, every_seat=True)
    >>> t.groupby("lineup").bots.first().tolist(), t.seed.nunique()
    (['random,aggressive', 'random,continent', 'aggressive,continent'], 2)
    >>> t.bots[:2].tolist(), bool(t.seed[0] == t.seed[1])
    (['random,aggressive', 'aggressive,random'], True)
    """
    return pd.concat([lineup_games(bots, i, players, games_per_lineup, seed, rules, every_seat, own_seeds)
                      for i in range(len(ladder_lineups(bots, players)))], ignore_index=True)


def lineup_games(bots: Iterable[str], i: int, players: int = 4, games_per_lineup: int = 16, seed: int = 0,
                 rules: GameRules | None = None, every_seat: bool = False, own_seeds: bool = False) -> pd.DataFrame:
    """The games of line-up ``i`` of `ladder_lineups` (``bots``, ``players``) in `ladder_games`' table, on the same
    seeds as there: a ladder played one line-up at a time (and resumed where it stopped) is the same table.

    >>> whole = ladder_games(["random", "aggressive", "continent"], 2, 4, seed=1, every_seat=True, own_seeds=True)
    >>> one = lineup_games(["random", "aggressive", "continent"], 2, 2, 4, seed=1, every_seat=True, own_seeds=True)
    >>> one.equals(whole[whole.lineup == 2].reset_index(drop=True))
    True
    """
    from riskstats.runs.selfplay import game_seeds

    lineups = ladder_lineups(bots, players)
    i = check_int("i", i, 0, len(lineups) - 1)
    games_per_lineup = check_int("games_per_lineup", games_per_lineup, 1)
    rules = _rules(players, rules)
    if every_seat and games_per_lineup % players:
        raise RiskstatsError(f"every_seat needs a multiple of {players} games per line-up, got {games_per_lineup}")
    deals = games_per_lineup // players if every_seat else games_per_lineup
    first = i * deals if own_seeds else 0
    words = game_seeds(seed, first + deals, first)
    seeds = np.repeat(words, players) if every_seat else words
    return play_games(games_per_lineup, players, list(lineups[i]), seed=seed, rules=rules, seeds=seeds).assign(lineup=i)


def ladder_pairs(games: pd.DataFrame, bots: Iterable[str] | None = None) -> pd.DataFrame:
    """Model-free head-to-head rates from a ladder's per-game table (`ladder_games`): for each ordered pair of bots,
    the games in which both sat and one of the two won, and the share of them the first bot won, with its Wilson
    interval (95%). No rating model, so no fit to fail; seats rotate within each line-up, so every pair met in
    every seat.

    Parameters
    ----------
    games : pandas.DataFrame
        Columns ``bots`` (the line-up, comma-separated) and ``winner_bot``.
    bots : iterable of str, optional
        The bots to pair (default: every bot of the table).

    Returns
    -------
    pandas.DataFrame
        One row per ordered pair: ``bot``, ``opponent``, ``met`` (games both sat in), ``decided`` (won by one of
        them), ``wins`` (by ``bot``), ``share`` (wins / decided), ``ci_low``, ``ci_high``.

    >>> g = pd.DataFrame({"bots": ["a,b,c,d"] * 4, "winner_bot": ["a", "a", "b", "c"]})
    >>> ladder_pairs(g, ["a", "b"])[["bot", "opponent", "decided", "wins", "share"]].values.tolist()
    [['a', 'b', 3, 2, 0.6666666666666666], ['b', 'a', 3, 1, 0.3333333333333333]]
    """
    need = {"bots", "winner_bot"} - set(games.columns)
    if need:
        raise RiskstatsError(f"the games have no {', '.join(sorted(need))} column")
    seated = games["bots"].str.split(",")
    bots = list(dict.fromkeys(bots)) if bots is not None else sorted({b for s in seated for b in s})
    rows = []
    for a in bots:
        for b in bots:
            if a == b:
                continue
            both = seated.map(lambda s, a=a, b=b: a in s and b in s)
            winner = games.loc[both, "winner_bot"]
            wins, losses = int((winner == a).sum()), int((winner == b).sum())
            low, high = wilson_interval(wins, wins + losses) if wins + losses else (np.nan, np.nan)
            rows.append({"bot": a, "opponent": b, "met": int(both.sum()), "decided": wins + losses, "wins": wins,
                         "share": wins / (wins + losses) if wins + losses else np.nan, "ci_low": low, "ci_high": high})
    return pd.DataFrame(rows)


def speed(bots: Iterable[str], players: int = 2, games: int = 200, seed: int = 0,
          rules: GameRules | None = None) -> pd.DataFrame:
    """Games and decisions per CPU second of each bot playing every seat (one thread's process time).

    A decision is a move the engine asks a seat for (placements, trades, attacks, defences, moves in,
    fortifications, passes), so in these mirror games every decision is the bot's. One row per bot:
    bot, players, games, decisions, cpu_s, games_per_cpu_s, decisions_per_cpu_s, mean_rounds.
    """
    import numba

    from riskstats.game.play import Game
    from riskstats.game.rules.state import I_MOVES
    from riskstats.runs.selfplay import game_seeds

    players = check_int("players", players, 2, 6)
    games = check_int("games", games, 1)
    rules = _rules(players, rules)
    seeds = game_seeds(seed, games)
    threads = numba.get_num_threads()
    rows = []
    try:
        numba.set_num_threads(1)
        for bot in bots:
            spec = parse_bot(bot)
            Game(players, rules, seed=int(seeds[0]), log=False).play([(spec.name, spec.values)])  # compile
            decisions = rounds = 0
            cpu = time.process_time()
            for s in seeds:
                game = Game(players, rules, seed=int(s), log=False).play([(spec.name, spec.values)])
                decisions += int(game.state.info[I_MOVES])
                rounds += game.round
            cpu = time.process_time() - cpu
            rows.append({"bot": spec.label, "players": players, "games": games, "decisions": decisions,
                         "cpu_s": cpu, "games_per_cpu_s": games / cpu, "decisions_per_cpu_s": decisions / cpu,
                         "mean_rounds": rounds / games})
    finally:
        numba.set_num_threads(threads)
    return pd.DataFrame(rows)
