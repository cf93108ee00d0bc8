"""Reports on self-play results: win rates with Wilson intervals, Bradley-Terry ratings, game lengths.

This module owns `report` (a `Report` of long-form DataFrames) and the win-rate tables it is built from.
Counting convention: every seat of every game is one trial for the bot in it (a bot in two seats of a
game counts twice), and a truncated game is a trial that nobody won. Ratings come from
`riskstats.stats.ratings` (winner-beats-each-loser pairs); files are written by `riskstats.runs.results`.

>>> import pandas as pd
>>> games = pd.DataFrame({"players": 2, "bots": ["a,b", "b,a", "a,b", "b,a"], "winner": [0, 1, 1, -1],
...                       "winner_bot": ["a", "a", "b", ""], "turns": [10, 12, 14, 1000],
...                       "truncated": [False, False, False, True]})
>>> win_rates(games, "bot")[["bot", "trials", "wins"]].values.tolist()
[['a', 4, 2], ['b', 4, 1]]
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from riskstats.intervals import wilson_interval
from riskstats.stats.ratings import bradley_terry, pairwise_results, pairwise_table


def seat_table(table):
    """One row per seat of every game: game, seat, bot, won."""
    import pandas as pd

    seats = table["bots"].str.split(",")
    counts = seats.str.len().to_numpy()
    game = np.repeat(np.arange(len(table)), counts)
    seat = np.concatenate([np.arange(k) for k in counts]) if len(counts) else np.zeros(0, int)
    winner = np.repeat(table["winner"].to_numpy(), counts)
    return pd.DataFrame({"game": game, "seat": seat, "bot": np.concatenate(seats.to_list()) if len(counts) else [],
                         "won": winner == seat})


def win_rates(table, by="bot"):
    """Trials, wins, win rate and 95% Wilson interval grouped by ``"bot"``, ``"seat"`` or ``["bot", "seat"]``."""
    keys = [by] if isinstance(by, str) else list(by)
    grouped = seat_table(table).groupby(keys, sort=True)["won"].agg(["size", "sum"]).reset_index()
    grouped = grouped.rename(columns={"size": "trials", "sum": "wins"})
    grouped["wins"] = grouped["wins"].astype(int)
    grouped["win_rate"] = grouped["wins"] / grouped["trials"]
    bounds = [wilson_interval(w, n) for w, n in zip(grouped["wins"], grouped["trials"])]
    grouped["ci_low"] = [b[0] for b in bounds]
    grouped["ci_high"] = [b[1] for b in bounds]
    return grouped


def game_lengths(table):
    """Distribution of turns (and rounds, when present) of finished and truncated games: count, mean, quantiles."""
    import pandas as pd

    rows = []
    for column in [c for c in ("turns", "rounds") if c in table.columns]:
        for label, part in (("all", table), ("finished", table[~table["truncated"].astype(bool)])):
            values = part[column].to_numpy(float)
            q = np.quantile(values, [0.05, 0.25, 0.5, 0.75, 0.95]) if len(values) else [np.nan] * 5
            rows.append({"measure": column, "games": label, "count": len(values),
                         "mean": values.mean() if len(values) else np.nan, "p5": q[0], "p25": q[1], "median": q[2],
                         "p75": q[3], "p95": q[4]})
    return pd.DataFrame(rows)


@dataclass
class Report:
    """A self-play report: each field a DataFrame (``truncated``: a dict) — see `report`."""

    games: int
    bots: object
    seats: object
    bot_seats: object
    ratings: object
    pairwise: object
    lengths: object
    turns: object
    truncated: dict

    def tables(self) -> dict:
        """The report's tables by file name."""
        return {"win_rate_by_bot": self.bots, "win_rate_by_seat": self.seats, "win_rate_by_bot_seat": self.bot_seats,
                "ratings": self.ratings, "pairwise": self.pairwise, "game_lengths": self.lengths}

    def figures(self) -> dict:
        """The report's plots by file name (matplotlib figures, drawn off-screen)."""
        import matplotlib

        matplotlib.use("Agg")
        from riskstats.stats import plots

        return {name: draw(frame).figure for name, draw, frame in (
            ("win_rate_by_bot", plots.win_rates, self.bots),
            ("win_rate_by_seat", plots.win_rates, self.seats),
            ("ratings", plots.ratings, self.ratings),
            ("game_lengths", plots.game_length_histogram, self.turns))}

    def to_dict(self) -> dict:
        """JSON-able form (lists of records)."""
        out = {"games": self.games, "truncated": self.truncated}
        for name, frame in self.tables().items():
            out[name] = frame.to_dict("records")
        return out


def report(table) -> Report:
    """Win rates per bot, seat and bot x seat, Bradley-Terry ratings, head-to-head shares and game lengths.

    Parameters
    ----------
    table : pandas.DataFrame
        A self-play table (`riskstats.runs.selfplay.play_games`, `riskstats.runs.results.read_results`).
    """
    from riskstats.errors import RiskstatsError

    if len(table) == 0:
        raise RiskstatsError("no games to report on")
    pairs = pairwise_results(table)
    fit = bradley_terry(pairs)
    truncated = int(table["truncated"].astype(bool).sum())
    low, high = wilson_interval(truncated, len(table))
    return Report(games=len(table), bots=win_rates(table, "bot"), seats=win_rates(table, "seat"),
                  bot_seats=win_rates(table, ["bot", "seat"]), ratings=fit, pairwise=pairwise_table(pairs, fit),
                  lengths=game_lengths(table), turns=table[["turns", "truncated"]].copy(),
                  truncated={"games": truncated, "share": truncated / len(table), "ci_low": low, "ci_high": high})


def write_report(report: Report, folder) -> list:
    """Write a `Report`'s tables (CSV) and plots (PNG) into ``folder``; return the paths."""
    from riskstats.runs.results import write_files

    return write_files(folder, report.tables(), report.figures())


def load_games(path):
    """The games table of a run directory or file, or of an experiment directory (all its cells)."""
    from pathlib import Path

    from riskstats.runs.experiment import MANIFEST, read_experiment
    from riskstats.runs.results import read_results

    if (Path(path) / MANIFEST).exists():
        return read_experiment(path)
    return read_results(path)


def summary(table) -> dict:
    """Win rates per bot and per seat (each with a 95% Wilson interval) and game lengths: the JSON form
    of `riskstats.stats.report.win_rates`, bots in the order they first sit.

    A bot's win rate is its wins over the seats it occupied (a bot in two seats of a game counts twice):
    per bot, ``seats`` counts those seats and ``games`` the games it played in; per seat, ``games``
    counts games.
    """
    def rates(by):
        return {r[by]: {"games": int(r["trials"]), "wins": int(r["wins"]), "win_rate": float(r["win_rate"]),
                        "ci95": (float(r["ci_low"]), float(r["ci_high"]))}
                for r in win_rates(table, by).to_dict("records")}

    by_bot = rates("bot")
    order = pd.unique(table["bots"].str.split(",", expand=True).to_numpy().ravel())
    lineups = table["bots"].value_counts()  # a few distinct seatings: count games per bot through them
    games_with = {name: int(sum(n for lineup, n in lineups.items() if name in lineup.split(","))) for name in order}
    return {"games": len(table),
            "bots": {name: {**by_bot[name], "games": games_with[name], "seats": by_bot[name]["games"]}
                     for name in order},
            "seats": {int(s): row for s, row in rates("seat").items()},
            "mean_turns": float(table["turns"].mean()), "mean_rounds": float(table["rounds"].mean()),
            "truncated": int(table["truncated"].sum())}


def cell_win_rates(table):
    """One row per cell and bot (the table of `read_experiment`): the cell's players, variant and swept
    ``rules.*``/``params.*`` values, then the bot's seats (``trials``), wins, win rate, 95% Wilson
    interval (`riskstats.stats.report.win_rates`) and the cell's mean turns."""
    rows = []
    for cell, games in table.groupby("cell", sort=True):
        swept = {k: games[k].iloc[0] for k in games.columns if k.startswith(("rules.", "params."))}
        for r in win_rates(games, "bot").to_dict("records"):
            rows.append({"cell": cell, "players": int(games["players"].iloc[0]), "variant": games["variant"].iloc[0],
                         **swept, "bot": r["bot"], "trials": r["trials"], "wins": r["wins"], "win_rate": r["win_rate"],
                         "ci_low": r["ci_low"], "ci_high": r["ci_high"], "mean_turns": float(games["turns"].mean())})
    return pd.DataFrame(rows)
