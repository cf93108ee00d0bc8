"""The solved attack policy in real games: a controlled experiment on the continent bot's attack rule.

One seat plays the continent bot with ``attack=solved`` (`riskstats.game.bots.solved_attack`: the exact stop
rule of `riskstats.policy` for a conquest worth ``value`` armies and each defender destroyed worth
``kill``); in the control arm the same seat plays the continent bot with its usual rule (P(conquer) at
least its threshold). Both arms play the same seeded games with the same line-up and seat rotation
(common random numbers), so the effect on that seat's win rate is paired game by game
(`riskstats.stats.compare.treatment_effect`: McNemar's exact test and the interval that agrees with it),
with Holm over every treatment of the table. The treated seat is named ``continent:threshold=0.5`` (the
default threshold written out), so that its label differs from the opponents' plain ``continent``.

This module owns the experiment's design and table; the games are `riskstats.runs.selfplay`'s.
"""
from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from riskstats.errors import RiskstatsError, check_int
from riskstats.intervals import wilson_interval

SEAT = "continent:threshold=0.5"
"""The treated seat's label: the continent bot, its default threshold written out."""
POPULATIONS = {
    "continent": "continent",
    "heuristic mix": "aggressive,defensive,aggressive",
}
"""Opponent line-ups (the seats after the treated one, repeated to fill them, `seat_lineup`): the same bot
with its usual rule, or notebook 02's mix of heuristic bots."""


def seat_lineup(opponents: str, players: int) -> str:
    """The treated seat, then ``opponents`` repeated to fill the other seats: exactly one seat is treated.

    >>> seat_lineup("aggressive,defensive,aggressive", 3)
    'continent:threshold=0.5,aggressive,defensive'
    """
    names = [b.strip() for b in opponents.split(",") if b.strip()]
    if not names:
        raise RiskstatsError("give at least one opponent")
    return ",".join([SEAT] + [names[i % len(names)] for i in range(players - 1)])


def solved_policy_effects(games: int, players: Iterable[int] = (3, 4), kills: Iterable[float] = (0.0, 0.5, 1.0),
                          value: float = 4.0, populations: dict | None = None, seed: int = 19) -> pd.DataFrame:
    """The treated seat's win rate with the solved attack policy against its usual rule.

    Parameters
    ----------
    games : int
        Games per arm (the same seeds in every arm).
    players : iterable of int
        Player counts (2 is the two-player game with a neutral).
    kills : iterable of float
        Kill values of the solved policy, one treatment each.
    value : float
        The conquest value of the solved policy, in armies.
    populations : dict, optional
        Name -> opponents' line-up (default `POPULATIONS`).
    seed : int

    Returns
    -------
    pandas.DataFrame
        One row per (population, players, kill): games, the control and treated wins and rates with 95%
        Wilson intervals, effect (treated - control rate) with its paired 95% interval, p_value (exact
        McNemar), p_holm (over every row), discordant games, truncated games in each arm (no winner: a loss
        for every seat, counted here), fair_share (1 / players) and mean_turns of each arm.
    """
    from riskstats.runs.selfplay import play_games
    from riskstats.stats.compare import _holm, treatment_effect

    games = check_int("games", games, 1)
    players, kills = list(players), [float(k) for k in kills]
    populations = dict(POPULATIONS if populations is None else populations)
    if not players or not kills or not populations:
        raise RiskstatsError("give at least one player count, kill value and population")
    rows = []
    for name, opponents in populations.items():
        for n in players:
            n = check_int("players", n, 2)
            lineup = seat_lineup(opponents, n)
            control = play_games(games, n, lineup, seed=seed)
            for kill in kills:
                params = {SEAT: {"attack": "solved", "value": value, "kill": kill}}
                treated = play_games(games, n, lineup, seed=seed, params=params)
                effect = treatment_effect(treated, control, SEAT).iloc[0]
                c_low, c_high = wilson_interval(int(effect.control_wins), games)
                t_low, t_high = wilson_interval(int(effect.treated_wins), games)
                rows.append({"population": name, "players": n, "lineup": lineup, "value": value, "kill": kill,
                             "games": games, "control_wins": int(effect.control_wins),
                             "control_rate": effect.control_rate, "control_ci_low": c_low, "control_ci_high": c_high,
                             "treated_wins": int(effect.treated_wins), "treated_rate": effect.treated_rate,
                             "treated_ci_low": t_low, "treated_ci_high": t_high, "effect": effect.effect,
                             "ci_low": effect.ci_low, "ci_high": effect.ci_high, "p_value": effect.p_value,
                             "discordant": int(effect.discordant),
                             "control_truncated": int(control.truncated.sum()),
                             "treated_truncated": int(treated.truncated.sum()), "fair_share": 1 / n,
                             "control_mean_turns": float(control.turns.mean()),
                             "treated_mean_turns": float(treated.turns.mean())})
    frame = pd.DataFrame(rows)
    frame["p_holm"] = _holm(frame.p_value.to_numpy())
    return frame


def best_kill(effects: pd.DataFrame) -> pd.DataFrame:
    """Per (population, players): the kill value with the highest treated win rate, whether it differs from
    the usual rule after Holm over the whole table (``beats_rule`` / ``loses_to_rule``: p_holm < 0.05, by the
    effect's sign), and whether its treated Wilson interval is separated from every other kill value's
    (``separated``)."""
    rows = []
    for (name, n), group in effects.groupby(["population", "players"], sort=False):
        top = group.loc[group.treated_rate.idxmax()]
        others = group[group.kill != top.kill]
        separated = bool((others.treated_ci_high < top.treated_ci_low).all()) if len(others) else False
        rows.append({"population": name, "players": n, "best_kill": top.kill, "treated_rate": top.treated_rate,
                     "treated_ci_low": top.treated_ci_low, "treated_ci_high": top.treated_ci_high,
                     "control_rate": top.control_rate, "effect": top.effect, "ci_low": top.ci_low,
                     "ci_high": top.ci_high, "p_holm": top.p_holm,
                     "beats_rule": bool(top.p_holm < 0.05 and top.effect > 0),
                     "loses_to_rule": bool(top.p_holm < 0.05 and top.effect < 0),
                     "separated": separated, "games": int(top.games)})
    return pd.DataFrame(rows)
