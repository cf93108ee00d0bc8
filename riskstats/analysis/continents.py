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
        low, high = wilson_interval(w, n) if n else (np.nan, np.nan)
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


def opening_positions(games: int, players: int = 4, bots="continent,aggressive,defensive,aggressive",
                      seed: int = 0, rules=None, board: Board | None = None) -> pd.DataFrame:
    """The board when setup ends (every starting army placed, before the first turn) in seeded self-play.

    The games are those of `riskstats.runs.selfplay.play_games` with the same arguments: the same seeds
    and the same seat rotation, the bots claiming and placing as in play. One row per game and territory:
    ``game``, ``territory`` (index), ``continent``, ``owner`` (seat) and ``armies``.
    """
    from riskstats.game.bots import check_lineup
    from riskstats.game.play import Game
    from riskstats.runs.selfplay import game_seeds

    board = board or classic_board()
    names = check_lineup(bots)
    lineup = [names[s % len(names)] for s in range(players)]
    frames = []
    for g, word in enumerate(game_seeds(seed, games)):
        game = Game(players, rules, board=board, seed=int(word))
        while game.phase in ("claim", "setup_place"):
            game.step(game.bot_move(lineup[(game.player + g) % players]))
        frame = game.territories()
        frames.append(pd.DataFrame({"game": g, "territory": np.arange(board.n_territories),
                                    "continent": frame.continent, "owner": frame.owner, "armies": frame.armies}))
    return pd.concat(frames, ignore_index=True)


def opening_cost(positions: pd.DataFrame, p: float = 0.8, leave: int = 1, board: Board | None = None
                 ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The exact cost of taking each continent from real opening positions (`opening_positions`).

    For every game, seat and continent, the seat's force attacks the continent's territories that others
    hold, in `conquest_path` order, against the armies really on them; the force is the smallest with
    P(taking them all) >= ``p`` (`riskstats.odds.chain.attackers_needed`), and its expected losses come
    from `riskstats.odds.chain.chain_odds`. A seat that already holds the continent costs nothing.

    Returns
    -------
    (summary, views) : pandas.DataFrame, pandas.DataFrame
        ``views``: one row per game, seat and continent (``enemy_territories``, ``defenders`` on them,
        ``attackers_needed``, ``expected_losses``). ``summary``: per continent, in the board's order,
        ``bonus``, ``views`` (game-seats), mean ``enemy_territories``, ``defenders_per_territory`` (mean
        armies on an enemy territory), mean ``attackers_needed`` and ``expected_losses`` with a 95%
        interval (``ci_low``, ``ci_high``: normal, over the views), and ``payback_turns`` (mean expected
        losses over the bonus, with its interval ``payback_low``/``payback_high``).
    """
    from functools import cache

    board = board or classic_board()
    players = int(positions.owner.max()) + 1

    @cache
    def cost(defenders: tuple) -> tuple[int, float]:
        if not defenders:
            return 0, 0.0
        needed = attackers_needed(list(defenders), p, leave=leave)
        return needed.attackers, float(chain_odds(needed.attackers, list(defenders), leave=leave)
                                       .expected_attacker_losses)

    paths = {name: conquest_path(board, name) for name in board.continents}
    rows = []
    for g, game in positions.groupby("game", sort=True):
        owner = game.owner.to_numpy()
        armies = game.armies.to_numpy()
        for seat in range(players):
            for name, path in paths.items():
                defenders = tuple(int(armies[t]) for t in path if owner[t] != seat)
                needed, losses = cost(defenders)
                rows.append((g, seat, name, len(defenders), sum(defenders), needed, losses))
    views = pd.DataFrame(rows, columns=["game", "seat", "continent", "enemy_territories", "defenders",
                                        "attackers_needed", "expected_losses"])
    out = []
    for k, name in enumerate(board.continents):
        v = views[views.continent == name]
        bonus = int(board.arrays.continent_bonus[k])
        mean, half = v.expected_losses.mean(), 1.96 * v.expected_losses.std(ddof=1) / np.sqrt(len(v))
        enemy = v.enemy_territories.sum()
        out.append({"continent": name, "bonus": bonus, "views": len(v),
                    "enemy_territories": v.enemy_territories.mean(),
                    "defenders_per_territory": v.defenders.sum() / enemy if enemy else np.nan,
                    "attackers_needed": v.attackers_needed.mean(), "expected_losses": mean,
                    "ci_low": mean - half, "ci_high": mean + half, "payback_turns": mean / bonus,
                    "payback_low": (mean - half) / bonus, "payback_high": (mean + half) / bonus})
    return pd.DataFrame(out), views


def first_target_arms(table: pd.DataFrame, bot: str = "continent", board: Board | None = None
                      ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The arms of a first-target experiment (``scripts/experiment_continent_first.toml``) by continent.

    ``table`` is `riskstats.runs.experiment.read_experiment`'s: cells that differ only in the bot's
    ``first`` parameter, the forced first continent (``first=Australia``; -1: the bot's own choice, the
    control).

    Returns
    -------
    (arms, effects) : pandas.DataFrame, pandas.DataFrame
        ``arms``: per arm, ``target`` ("own choice" or the continent), ``cell``, ``games``, ``wins`` (games
        the bot won), win_rate, ci_low, ci_high (95% Wilson) and ``mean_turns``. ``effects``: each forced
        target against the own choice, paired by seed (`riskstats.stats.compare.treatment_effects`: effect,
        its interval, p_holm over the arms), with ``target``.
    """
    from riskstats.stats.compare import treatment_effects

    board = board or classic_board()
    column = f"params.{bot}"
    if column not in table.columns:
        raise RiskstatsError(f"the table sweeps no parameters of {bot!r} ({column} missing)")

    def target(value) -> str:  # "first=Australia" (read_experiment's names), or an old "[0.5, 0.75, 2.0, 5]"
        text = str(value)
        if "[" not in text:
            name = text.partition("first=")[2].split(":")[0]
            return name if name in board.continents else "own choice"
        k = int(float(text.strip("[]").split(",")[3]))
        return board.continents[k] if 0 <= k < len(board.continents) else "own choice"

    rows = []
    for cell, games in table.groupby("cell", sort=True):
        wins = int((games.winner_bot == bot).sum())
        low, high = wilson_interval(wins, len(games))
        rows.append({"target": target(games[column].iloc[0]), "cell": cell, "games": len(games), "wins": wins,
                     "win_rate": wins / len(games), "ci_low": low, "ci_high": high,
                     "mean_turns": float(games.turns.mean())})
    effects = treatment_effects(table, bot, column)
    effects.insert(0, "target", [target(v) for v in effects.treatment])
    return pd.DataFrame(rows), effects
