"""Card analyses: the exact chance of holding a valid set, checked by simulation.

A hand is described by how many cards of each symbol it holds (infantry, cavalry, artillery, wild).
A valid set is three of one symbol, one of each symbol, or any two cards plus a wild. Drawing n cards
from a full deck is a multivariate hypergeometric draw, so the chance of holding a set is an exact
rational sum over hand compositions. Self-play analyses of card escalation live beside this module.
"""
from __future__ import annotations

from fractions import Fraction
from itertools import product
from math import comb

import numpy as np
import pandas as pd

from riskstats.errors import RiskstatsError, check_int

SYMBOLS = ("infantry", "cavalry", "artillery", "wild")


def has_set(infantry: int, cavalry: int, artillery: int, wild: int) -> bool:
    """Whether a hand with these symbol counts holds a valid set."""
    plain = (infantry, cavalry, artillery)
    if max(plain) >= 3 or min(plain) >= 1:
        return True
    return wild >= 1 and sum(plain) + wild >= 3


def _check_deck(deck) -> tuple[int, int, int, int]:
    counts = tuple(check_int(f"{name} cards", deck[name], 0) for name in SYMBOLS)
    if sum(counts) == 0:
        raise RiskstatsError("the deck has no cards")
    return counts


def p_valid_set(cards: int, deck) -> Fraction:
    """Exact P(a hand of ``cards`` cards drawn from ``deck`` holds a valid set).

    ``deck`` maps each of `SYMBOLS` to its number of cards (the classic deck: 14, 14, 14 and 2).

    Examples
    --------
    >>> classic = {"infantry": 14, "cavalry": 14, "artillery": 14, "wild": 2}
    >>> p_valid_set(5, classic)
    Fraction(1, 1)
    >>> p_valid_set(2, classic)
    Fraction(0, 1)
    """
    counts = _check_deck(deck)
    cards = check_int("cards", cards, 0, sum(counts))
    favourable = 0
    for hand in product(*(range(min(c, cards) + 1) for c in counts[:3])):
        wild = cards - sum(hand)
        if 0 <= wild <= counts[3] and has_set(*hand, wild):
            ways = comb(counts[3], wild)
            for held, available in zip(hand, counts[:3]):
                ways *= comb(available, held)
            favourable += ways
    return Fraction(favourable, comb(sum(counts), cards))


def board_deck(board=None) -> dict[str, int]:
    """How many cards of each of `SYMBOLS` a board's deck holds (the classic board by default)."""
    from riskstats.game.board import SYMBOLS as CARD_SYMBOLS
    from riskstats.game.board import classic_board

    symbols = (board or classic_board()).arrays.card_symbol.tolist()
    return {name: symbols.count(CARD_SYMBOLS.index(name)) for name in SYMBOLS}


def set_odds(deck, max_cards: int = 6) -> pd.DataFrame:
    """P(holding a valid set) for 0..max_cards cards, exact: columns ``cards``, ``p_set``, ``fraction``."""
    max_cards = check_int("max_cards", max_cards, 0, sum(_check_deck(deck)))
    fractions = [p_valid_set(n, deck) for n in range(max_cards + 1)]
    return pd.DataFrame({"cards": range(max_cards + 1), "p_set": [float(f) for f in fractions],
                         "fraction": fractions})


def simulate_set_odds(deck, max_cards: int = 6, trials: int = 100_000, seed: int = 0) -> pd.DataFrame:
    """Monte Carlo estimate of `set_odds`: shuffle the deck ``trials`` times and read the first n cards.

    Columns ``cards``, ``p_set`` and ``se`` (its standard error).
    """
    counts = _check_deck(deck)
    trials = check_int("trials", trials, 1)
    deck_symbols = np.repeat(np.arange(4), counts)
    rng = np.random.default_rng(seed)
    hands = rng.permuted(np.broadcast_to(deck_symbols, (trials, deck_symbols.size)), axis=1)[:, :max_cards]
    rows = []
    for n in range(max_cards + 1):
        held = np.stack([(hands[:, :n] == s).sum(axis=1) for s in range(4)], axis=1)
        plain = held[:, :3]
        ok = (plain.max(axis=1) >= 3) | (plain.min(axis=1) >= 1) | ((held[:, 3] >= 1) & (n >= 3))
        p = ok.mean()
        rows.append((n, p, np.sqrt(p * (1 - p) / trials)))
    return pd.DataFrame(rows, columns=["cards", "p_set", "se"])


def _continents(turns: pd.DataFrame) -> list[str]:
    return list(turns.columns[turns.columns.get_loc("alive") + 1:])


def _movers(turns: pd.DataFrame) -> pd.DataFrame:
    return turns[turns.to_move == turns.seat]


def reinforcement_sources(turns: pd.DataFrame, events: pd.DataFrame, board=None) -> pd.DataFrame:
    """Where each turn's reinforcements came from: territories, continents and cards.

    ``turns`` and ``events`` come from `riskstats.analysis.trajectories.replay`. Long form: ``game``,
    ``turn``, ``round``, ``seat``, ``source`` ("territories", "continents" or "cards") and ``armies``.
    Cards count every set traded in the turn (at its start or after an elimination) and the +2
    territory bonus.
    """
    from riskstats.game.board import classic_board

    board = board or classic_board()
    movers = _movers(turns).set_index(["game", "turn"])
    bonus = pd.Series(board.arrays.continent_bonus, index=list(board.continents))
    trades = events[events.move == "trade"].assign(extra=lambda e: 2 * (e.bonus_territory >= 0))
    cards = (trades.value + trades.extra).groupby([trades.game, trades.turn]).sum()
    frame = pd.DataFrame({
        "round": movers["round"], "seat": movers.seat,
        "territories": np.maximum(3, movers.territories // 3),
        "continents": movers[_continents(turns)].astype(int) @ bonus[_continents(turns)],
        "cards": cards.reindex(movers.index, fill_value=0),
    }).reset_index()
    return frame.melt(id_vars=["game", "turn", "round", "seat"], var_name="source", value_name="armies")


def set_values(events: pd.DataFrame, turns: pd.DataFrame) -> pd.DataFrame:
    """Every set traded: ``game``, ``turn``, ``round``, ``player``, ``phase`` (trade, or elim_trade after
    an elimination), ``value`` and ``bonus_armies`` (the +2 territory bonus, 0 or 2)."""
    rounds = _movers(turns).set_index(["game", "turn"])["round"]
    trades = events[events.move == "trade"]
    return pd.DataFrame({
        "game": trades.game, "turn": trades.turn,
        "round": rounds.reindex(pd.MultiIndex.from_arrays([trades.game, trades.turn])).to_numpy(),
        "player": trades.player, "phase": trades.phase, "value": trades.value,
        "bonus_armies": 2 * (trades.bonus_territory >= 0),
    }).reset_index(drop=True)


def first_forced_trades(turns: pd.DataFrame, forced_at: int = 5) -> pd.DataFrame:
    """For every game and seat, the first round it started a turn holding ``forced_at`` or more cards
    (so had to trade): ``game``, ``seat``, ``round`` (NaN if never)."""
    movers = _movers(turns)
    forced = movers[movers.cards >= forced_at].groupby(["game", "seat"])["round"].min()
    seats = pd.MultiIndex.from_product([sorted(turns.game.unique()), sorted(turns.seat.unique())],
                                       names=["game", "seat"])
    return forced.reindex(seats).rename("round").reset_index()


def elimination_captures(events: pd.DataFrame, turns: pd.DataFrame) -> pd.DataFrame:
    """What eliminating a player paid: one row per elimination with ``game``, ``turn``, ``round``,
    ``player`` (the eliminator), ``eliminated``, ``cards_captured`` and ``traded_at_once`` (armies from
    the sets the eliminator traded straight away)."""
    hits = events[(events.move == "attack") & (events.eliminated >= 0)]
    at_start = turns.set_index(["game", "turn", "seat"])
    elim_trades = events[(events.move == "trade") & (events.phase == "elim_trade")]
    traded = (elim_trades.value + 2 * (elim_trades.bonus_territory >= 0)).groupby(
        [elim_trades.game, elim_trades.turn]).sum()
    rows = []
    for hit in hits.itertuples():
        start = at_start.loc[(hit.game, hit.turn, hit.eliminated)]
        rows.append((hit.game, hit.turn, int(start["round"]), hit.player, hit.eliminated, int(start.cards),
                     int(traded.get((hit.game, hit.turn), 0))))
    return pd.DataFrame(rows, columns=["game", "turn", "round", "player", "eliminated", "cards_captured",
                                       "traded_at_once"])


def compare_escalation(games: int, players: int, bots, seed: int = 0,
                       schemes=("progressive", "fixed", "none")) -> dict[str, pd.DataFrame]:
    """Play the same seeded games under each card escalation scheme and compare them.

    Returns DataFrames by name, each with an ``escalation`` column: ``lengths``
    (`riskstats.analysis.tournaments.length_summary`), ``seats`` and ``bots`` (win rates with 95% Wilson
    intervals, `riskstats.stats.report`), and ``games`` (the games tables, stacked).
    """
    from riskstats.analysis.tournaments import length_summary
    from riskstats.game.rules import GameRules
    from riskstats.runs.selfplay import play_games
    from riskstats.stats.report import win_rates

    tables = {s: play_games(games, players, bots, seed=seed, rules=GameRules(escalation=s)) for s in schemes}
    stacked = {key: pd.concat([win_rates(t, key).assign(escalation=s) for s, t in tables.items()],
                              ignore_index=True) for key in ("seat", "bot")}
    games_table = pd.concat([t.assign(escalation=s) for s, t in tables.items()], ignore_index=True)
    return {"lengths": length_summary(games_table, by="escalation"), "seats": stacked["seat"],
            "bots": stacked["bot"], "games": games_table}
