"""Self-play statistics: the first player's edge, game lengths by variant, elimination order.

Compiled self-play (`riskstats.runs.selfplay.play_games`) answers the questions about results; the
elimination order needs the event logs of replayed games (`riskstats.analysis.trajectories`). Win
rates and ratings come from `riskstats.stats.report`. ``notebooks/04_selfplay_statistics.ipynb`` only calls
these functions.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

import pandas as pd

from riskstats.game.rules.options import GameRules
from riskstats.intervals import wilson_interval
from riskstats.runs.selfplay import play_games
from riskstats.stats.report import win_rates

SETTINGS = {
    "classic": (GameRules(), "aggressive,continent,defensive,random"),
    "two-player (neutral)": (GameRules(variant="two-player"), "aggressive,continent"),
    "two-player (50 each)": (GameRules(variant="two-player", two_player_classic_50=True), "aggressive,continent"),
    "mission": (GameRules(variant="mission"), "mission"),
    "capital": (GameRules(variant="capital"), "capital"),
}
"""Game settings compared by default: the rules and the bots that play them."""


def _setting_players(rules: GameRules, players: int) -> int:
    return rules.players_needed or players


def seat_advantage(games: int, bot: str = "aggressive", players: Iterable[int] = (3, 4, 5, 6),
                   seed: int = 0, two_player: bool = True) -> pd.DataFrame:
    """Win rate of every seat when the same bot plays every seat (seat 0 moves first).

    Classic games for each player count, and with ``two_player`` the two-player game with a neutral and
    with 50 armies each. Long form: ``setting``, ``players``, ``seat``, ``trials`` (decided games: a
    stalled game is no trial), ``wins``, ``win_rate``, ``ci_low``, ``ci_high``, ``baseline`` (1 / players)
    and ``truncated`` (games that stalled).
    """
    runs = {f"classic, {p} players": (GameRules(), p) for p in players}
    if two_player:
        runs["two-player (neutral)"] = (GameRules(variant="two-player"), 2)
        runs["two-player (50 each)"] = (GameRules(variant="two-player", two_player_classic_50=True), 2)
    frames = []
    for label, (rules, p) in runs.items():
        table = play_games(games, p, [bot], seed=seed, rules=rules)
        rates = win_rates(table, "seat").assign(setting=label, players=p, baseline=1 / p,
                                                truncated=int(table.truncated.sum()))
        frames.append(rates)
    columns = ["setting", "players", "seat", "trials", "wins", "win_rate", "ci_low", "ci_high", "baseline", "truncated"]
    return pd.concat(frames, ignore_index=True)[columns]


def settings_games(games: int, players: int = 4, seed: int = 0,
                   settings: Mapping[str, tuple[GameRules, str]] | None = None) -> pd.DataFrame:
    """The games of every setting (`SETTINGS` by default), stacked with a ``setting`` column."""
    settings = dict(settings or SETTINGS)
    return pd.concat([play_games(games, _setting_players(rules, players), bots, seed=seed, rules=rules)
                      .assign(setting=label) for label, (rules, bots) in settings.items()], ignore_index=True)


def length_summary(games: pd.DataFrame, by: str = "setting") -> pd.DataFrame:
    """Per value of column ``by``: games, mean and quartiles of turns and rounds, the share truncated, how
    games ended."""
    rows = []
    for label, table in games.groupby(by, sort=False):
        reasons = table.win_reason.value_counts(normalize=True)
        rows.append({by: label, "games": len(table), "mean_turns": table.turns.mean(),
                     "median_turns": table.turns.median(), "p25_turns": table.turns.quantile(0.25),
                     "p75_turns": table.turns.quantile(0.75), "mean_rounds": table.rounds.mean(),
                     "truncated_share": table.truncated.mean(), "main_win_reason": reasons.idxmax(),
                     "main_win_reason_share": reasons.max()})
    return pd.DataFrame(rows)


def elimination_order(events: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Who was knocked out when: one row per elimination with ``game``, ``order`` (1 = first out),
    ``turn``, ``seat`` (eliminated), ``bot`` (its bot), ``by_seat`` and ``by_bot`` (the eliminator)."""
    hits = events[(events.move == "attack") & (events.eliminated >= 0)].sort_values(["game", "turn"], kind="stable")
    bots = games.set_index("game").bots.str.split(",")
    frame = pd.DataFrame({"game": hits.game.to_numpy(), "turn": hits.turn.to_numpy(),
                          "seat": hits.eliminated.to_numpy(), "by_seat": hits.player.to_numpy()})
    frame["order"] = frame.groupby("game").cumcount() + 1
    frame["bot"] = [bots[g][s] for g, s in zip(frame.game, frame.seat)]
    frame["by_bot"] = [bots[g][s] for g, s in zip(frame.game, frame.by_seat)]
    return frame[["game", "order", "turn", "seat", "bot", "by_seat", "by_bot"]]


TWO_PLAYER_RULES = {
    "neutral (40 each + 40 neutral)": GameRules(variant="two-player"),
    "50 each, claim by choice": GameRules(variant="two-player", two_player_classic_50=True),
    "50 each, dealt": GameRules(variant="two-player", two_player_classic_50=True, setup="deal"),
}
"""The two-player settings `first_player_check` compares (docs/rules.md, "Variants and how each is won")."""


def first_player_check(games: int, bots: Iterable[str] = ("random", "aggressive", "continent", "defensive"),
                       seed: int = 0, settings: Mapping[str, GameRules] | None = None) -> pd.DataFrame:
    """The first player's win rate in two-player games, for each rule setting and each bot playing both seats.

    If the first player's edge comes from the rules it appears whatever the bot, even a random one; if it
    comes from a bot's play it varies with the bot. Every game's seats play the same bot, so seat 0 (who
    moves first) against 1/2 is the edge. One row per setting and bot: ``setting``, ``bot``, ``games``,
    ``decided`` (games with a winner: the trials), ``wins`` (seat 0's), win_rate (wins / decided), ci_low,
    ci_high (95% Wilson), ``p_value`` (exact binomial test against 1/2 over the decided games),
    ``truncated`` (stalled games, left out: never a loss for seat 0), ``mean_rounds`` and ``median_rounds``.
    """
    from scipy.stats import binomtest

    rows = []
    for label, rules in dict(settings or TWO_PLAYER_RULES).items():
        for bot in bots:
            table = play_games(games, 2, [bot], seed=seed, rules=rules)
            wins, decided = int((table.winner == 0).sum()), int((table.winner >= 0).sum())
            low, high = wilson_interval(wins, decided) if decided else (float("nan"), float("nan"))
            rows.append({"setting": label, "bot": bot, "games": games, "decided": decided, "wins": wins,
                         "win_rate": wins / decided if decided else float("nan"), "ci_low": low, "ci_high": high,
                         "p_value": binomtest(wins, decided, 0.5).pvalue if decided else float("nan"),
                         "truncated": int(table.truncated.sum()), "mean_rounds": float(table.rounds.mean()),
                         "median_rounds": float(table.rounds.median())})
    return pd.DataFrame(rows)
