"""What a continent is worth: its geography, the exact cost of taking it, and self-play evidence.

The geography and the cost come from the board and the exact chain engine (`riskstats.odds.chain`); the
evidence from replayed self-play games (`riskstats.analysis.trajectories`). Each function answers one
question and returns a DataFrame; ``notebooks/02_continent_value.ipynb`` only calls them.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from riskstats.errors import RiskstatsError
from riskstats.game.board import Board, classic_board
from riskstats.intervals import wilson_interval
from riskstats.odds.chain import attackers_needed, chain_odds


def _members(board: Board, k: int) -> list[int]:
    return np.flatnonzero(board.arrays.continent_of == k).tolist()


def continent_facts(board: Board | None = None) -> pd.DataFrame:
    """Per continent: bonus, territories, border territories, entry points and the bonus per each.

    ``borders`` are the continent's territories with a neighbour outside it (the ones to defend);
    ``entries`` the territories outside it that border it (where attacks come from).
    """
    board = board or classic_board()
    adjacency = board.arrays.adjacency
    rows = []
    for k, name in enumerate(board.continents):
        inside = np.zeros(board.n_territories, bool)
        inside[_members(board, k)] = True
        outside_links = adjacency[inside][:, ~inside]
        borders = int(outside_links.any(axis=1).sum())
        entries = int(adjacency[~inside][:, inside].any(axis=1).sum())
        bonus = int(board.arrays.continent_bonus[k])
        rows.append((name, bonus, int(inside.sum()), borders, entries, bonus / inside.sum(), bonus / borders))
    return pd.DataFrame(rows, columns=["continent", "bonus", "territories", "borders", "entries",
                                       "bonus_per_territory", "bonus_per_border"])


def conquest_path(board: Board, continent: str) -> list[int]:
    """An order to conquer a continent one adjacent territory after another, starting at a border.

    A path through every territory (depth-first search with backtracking; continents are small); if
    none exists, the longest found is completed by the remaining territories in breadth-first order.
    """
    if continent not in board.continents:
        raise RiskstatsError(f"unknown continent {continent!r}; the board has {', '.join(board.continents)}")
    members = _members(board, board.continents.index(continent))
    inside = set(members)
    adjacency = board.arrays.adjacency
    outside = ~np.isin(np.arange(board.n_territories), members)
    starts = sorted(members, key=lambda t: -int(adjacency[t][outside].sum()))  # the most exposed first
    best: list[int] = []

    def extend(path: list[int]) -> bool:
        nonlocal best
        if len(path) > len(best):
            best = list(path)
        if len(path) == len(members):
            return True
        return any(extend([*path, t]) for t in board.neighbours(path[-1]) if t in inside and t not in path)

    for start in starts:
        if extend([start]):
            return best
    return best + [t for t in members if t not in best]


def continent_cost(board: Board | None = None, defenders: int = 3, p: float = 0.8,
                   leave: int = 1) -> pd.DataFrame:
    """The exact cost of taking each continent from outside, ``defenders`` armies on every territory.

    One force attacks the continent's territories along `conquest_path`, leaving ``leave`` armies in
    each. Columns: ``continent``, ``bonus``, ``territories``, ``attackers_needed`` (for P(all) >= p),
    ``p_all`` (what that force gets), ``expected_losses`` (armies that force loses on average) and
    ``payback_turns`` (expected losses over the bonus: turns of holding it to earn them back).
    """
    board = board or classic_board()
    rows = []
    for k, name in enumerate(board.continents):
        path = conquest_path(board, name)
        chain = [defenders] * len(path)
        needed = attackers_needed(chain, p, leave=leave)
        losses = chain_odds(needed.attackers, chain, leave=leave).expected_attacker_losses
        bonus = int(board.arrays.continent_bonus[k])
        rows.append((name, bonus, len(path), needed.attackers, needed.p_win, losses, losses / bonus))
    return pd.DataFrame(rows, columns=["continent", "bonus", "territories", "attackers_needed", "p_all",
                                       "expected_losses", "payback_turns"])


def _final(games: pd.DataFrame) -> pd.Series:
    return games.set_index("game").winner


def holding_win_rates(turns: pd.DataFrame, games: pd.DataFrame, at_round: int) -> pd.DataFrame:
    """Win rate of the seats that hold each continent at the start of their turn in ``at_round``.

    Columns ``continent``, ``holders`` (seat-games), ``wins``, ``win_rate``, ``ci_low``, ``ci_high`` and
    ``baseline`` (1 / players: a seat's win rate if holding meant nothing). Truncated games count as
    losses for everyone.
    """
    own = turns[(turns["round"] == at_round) & (turns.to_move == turns.seat)]
    won = own.seat.to_numpy() == _final(games).reindex(own.game).to_numpy()
    continents = [c for c in turns.columns[turns.columns.get_loc("alive") + 1:]]
    rows = []
    for name in continents:
        held = own[name].to_numpy()
        n, w = int(held.sum()), int((held & won).sum())
        low, high = wilson_interval(w, n)
        rows.append((name, n, w, w / n if n else np.nan, low, high))
    frame = pd.DataFrame(rows, columns=["continent", "holders", "wins", "win_rate", "ci_low", "ci_high"])
    frame["baseline"] = 1 / games.players.iloc[0]
    return frame


def first_continent_win_rates(turns: pd.DataFrame, games: pd.DataFrame, by_round: int | None = None
                              ) -> pd.DataFrame:
    """Win rate by the first continent a seat held at the start of one of its turns (up to ``by_round``).

    Columns ``first_continent`` ("none" for seats that held none by then), ``seats``, ``wins``,
    ``win_rate``, ``ci_low``, ``ci_high``, ``mean_round`` (when it was first held). Without
    ``by_round`` every winner of a Classic game has a first continent (it ends holding them all).
    """
    continents = [c for c in turns.columns[turns.columns.get_loc("alive") + 1:]]
    own = turns[turns.to_move == turns.seat].sort_values(["game", "turn"])
    if by_round is not None:
        own = own[own["round"] <= by_round]
    held = own[continents].to_numpy()
    own = own.assign(first=np.where(held.any(axis=1), np.array(continents)[held.argmax(axis=1)], ""))
    firsts = own[own["first"] != ""].groupby(["game", "seat"]).first()[["first", "round"]]
    seats = pd.MultiIndex.from_product([games.game, range(int(games.players.iloc[0]))], names=["game", "seat"])
    firsts = firsts.reindex(seats).fillna({"first": "none"})
    winners = _final(games)
    firsts["won"] = (firsts.index.get_level_values("seat").to_numpy()
                     == winners.reindex(firsts.index.get_level_values("game")).to_numpy())
    rows = []
    for name, group in firsts.groupby("first"):
        n, w = len(group), int(group.won.sum())
        low, high = wilson_interval(w, n)
        rows.append((name, n, w, w / n, low, high, group["round"].mean()))
    return pd.DataFrame(rows, columns=["first_continent", "seats", "wins", "win_rate", "ci_low", "ci_high",
                                       "mean_round"]).sort_values("win_rate", ascending=False, ignore_index=True)
