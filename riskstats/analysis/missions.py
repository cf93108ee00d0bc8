"""Secret Mission strategy: which mission cards are hardest to win with.

A Secret Mission game deals one mission card to each seat (docs/rules.md), so a card's trials are the
decided games in which a seat held it, and its win rate can be tested against the fair share 1/P
exactly (`versus_share`, Holm over the rows). A name is held by one seat of a game, except the
own-colour fallback (several seats may each be dealt their own colour's card) and the kinds, which pool
cards: there a game gives a trial per holding seat, and since at most one of them wins, those trials are
negatively correlated, which makes the Wilson interval and the binomial test conservative. Two cards
of the same game are not independent (one winner), so cards are not tested against each other here;
their intervals are shown side by side. Stalled games are counted apart (``truncated``) and are never
a loss. The mission names come from the self-play table's
``missions`` column (`riskstats.runs.selfplay.play_games` with ``variant="mission"``), as
`riskstats.game.rules.board.Board.mission_name` writes them: a seat dealt its own colour's "destroy" card
plays the fallback, "24 territories (own colour)".
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from riskstats.errors import RiskstatsError
from riskstats.intervals import wilson_interval
from riskstats.stats.compare import versus_share


def mission_kind(name: str) -> str:
    """The kind of a mission card from its name: continents, destroy, destroy (own colour) or territories.

    >>> [mission_kind(n) for n in ("Asia+Africa", "destroy red", "24 territories (own colour)", "18 territories x2")]
    ['continents', 'destroy', 'destroy (own colour)', 'territories']
    """
    if "+" in name:
        return "continents"
    if name.startswith("destroy "):
        return "destroy"
    return "destroy (own colour)" if name.endswith("(own colour)") else "territories"


def mission_seats(table: pd.DataFrame) -> pd.DataFrame:
    """One row per seat of every Secret Mission game: game, players, seat, bot, mission, kind, won, decided, reason."""
    if "missions" not in table.columns:
        raise RiskstatsError("the table has no 'missions' column: play the games with variant='mission'")
    missions = table["missions"].str.split(",")
    bots = table["bots"].str.split(",")
    counts = missions.str.len().to_numpy()
    if not np.array_equal(counts, bots.str.len().to_numpy()):
        raise RiskstatsError("the table's 'missions' and 'bots' columns name different numbers of seats")
    seat = np.concatenate([np.arange(k) for k in counts]) if len(counts) else np.zeros(0, int)
    winner = np.repeat(table["winner"].to_numpy(), counts)
    names = np.concatenate(missions.to_list()) if len(counts) else np.zeros(0, str)
    return pd.DataFrame({
        "game": np.repeat(table["game"].to_numpy(), counts), "players": np.repeat(table["players"].to_numpy(), counts),
        "seat": seat, "bot": np.concatenate(bots.to_list()) if len(counts) else [], "mission": names,
        "kind": [mission_kind(n) for n in names], "won": winner == seat, "decided": winner >= 0,
        "reason": np.repeat(table["win_reason"].to_numpy(), counts)})


def mission_win_rates(table: pd.DataFrame, by: str = "mission", level: float = 0.95) -> pd.DataFrame:
    """Win rate of each mission card (or kind of card) in Secret Mission self-play, against the fair share.

    Parameters
    ----------
    table : DataFrame
        `play_games` results of Secret Mission games, one player count.
    by : {"mission", "kind"}
    level : float
        Level of the Wilson intervals and of the Holm-corrected tests.

    Returns
    -------
    DataFrame
        One row per card (or kind), hardest first: ``trials`` (decided games, one per seat that held it),
        ``wins``, ``win_rate``, ``ci_low``, ``ci_high`` (Wilson), ``by_mission`` (wins by completing the
        mission, the rest by eliminating every rival), ``share`` (1/P), ``p_value`` (exact binomial test
        against the share), ``p_holm`` (Holm over the rows), ``significant`` and ``truncated`` (stalled
        games it was held in). A card held in fewer decided games than 5 gets no test (NaN).
    """
    from statistics import NormalDist

    if by not in ("mission", "kind"):
        raise RiskstatsError(f"by must be 'mission' or 'kind', got {by!r}")
    seats = mission_seats(table)
    players = seats["players"].unique()
    if len(players) != 1:
        raise RiskstatsError(f"the table mixes player counts {sorted(players.tolist())}: pass one at a time")
    if not 0 < level < 1:
        raise RiskstatsError(f"level must lie in (0, 1), got {level}")
    seats["by_mission"] = seats["won"] & (seats["reason"] == "mission")
    grouped = seats.groupby(by).agg(trials=("decided", "sum"), wins=("won", "sum"), by_mission=("by_mission", "sum"),
                                    held=("won", "size")).reset_index()
    grouped["truncated"] = grouped.pop("held") - grouped["trials"]
    grouped = grouped.astype({"trials": int, "wins": int, "by_mission": int, "truncated": int})
    z = NormalDist().inv_cdf(0.5 + level / 2)
    grouped["win_rate"] = grouped["wins"] / grouped["trials"].where(grouped["trials"] > 0)
    bounds = [wilson_interval(w, n, z) if n > 0 else (np.nan, np.nan) for w, n in zip(grouped.wins, grouped.trials)]
    grouped["ci_low"], grouped["ci_high"] = [b[0] for b in bounds], [b[1] for b in bounds]
    testable = grouped["trials"] >= 5
    tested = versus_share(grouped[testable], 1 / int(players[0]), level)
    grouped = grouped.join(tested[["share", "p_value", "p_holm", "significant"]])
    grouped["share"] = 1 / int(players[0])
    grouped["significant"] = grouped["significant"].fillna(False).astype(bool)
    columns = [by, "trials", "wins", "win_rate", "ci_low", "ci_high", "by_mission", "share", "p_value", "p_holm",
               "significant", "truncated"]
    return grouped[columns].sort_values(["win_rate", by], ignore_index=True)


def hardest_card(rates: pd.DataFrame) -> dict:
    """The card with the lowest win rate in `mission_win_rates`' table, and whether its interval lies below every
    other card's (a ranking only where the intervals separate).

    Returns ``mission``, ``trials``, ``win_rate``, ``ci_low``, ``ci_high``, ``separated`` (its interval's upper end
    below every other card's lower end) and ``next`` (the card with the second-lowest win rate, for the text).

    >>> rates = pd.DataFrame({"mission": ["a", "b", "c"], "trials": 100, "win_rate": [0.3, 0.1, 0.2],
    ...                       "ci_low": [0.22, 0.05, 0.13], "ci_high": [0.39, 0.17, 0.29]})
    >>> card = hardest_card(rates)
    >>> card["mission"], card["separated"], card["next"]
    ('b', False, 'c')
    """
    if len(rates) < 2:
        raise RiskstatsError("need at least two cards to find the hardest")
    ordered = rates.sort_values("win_rate", kind="stable")
    low, rest = ordered.iloc[0], ordered.iloc[1:]
    return {"mission": low["mission"], "trials": int(low["trials"]), "win_rate": float(low["win_rate"]),
            "ci_low": float(low["ci_low"]), "ci_high": float(low["ci_high"]),
            "separated": bool(low["ci_high"] < rest["ci_low"].min()), "next": rest["mission"].iloc[0]}
