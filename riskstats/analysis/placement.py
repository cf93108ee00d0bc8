"""Placement, claiming and fortification under strong play: controlled experiments (issue #19 §4).

One seat plays with a placement treatment (`riskstats.game.bots.catalog.STYLE`: ``fortify=spread`` or
``none`` against the default ``border``, ``reinforce=spread`` against ``stack``, ``claim=random`` against
``greedy``); the other seats, and the same seat in the control arm, play the population's bot as it is.
Both arms play the same seeded games with the same line-up and seat rotation (common random numbers), so
the effect on that seat's win rate is paired game by game (`riskstats.stats.compare.treatment_effect`:
McNemar's exact test and the interval that agrees with it), with Holm over every row of the table. The
treated seat is named with a default written out (``value:rollouts=1:plans=4:first=-1``), so that its
label differs from the opponents'.

In the strong population the treated seat is the value bot, which imposes its placement parameters on
every plan it compares and plays and on its setup (`riskstats.game.search`); its opponents' look-ahead
keeps modelling it with the default plans. In the heuristic population it is continent-tuned.

This module owns the experiment's design and table; the games are `riskstats.runs.selfplay`'s.
"""
from __future__ import annotations

import time

import pandas as pd

from riskstats.errors import RiskstatsError, check_int
from riskstats.intervals import wilson_interval

POPULATIONS = {
    "strong": "value:rollouts=1:plans=4",
    "heuristic": "continent-tuned",
}
"""Population -> the bot in every seat: the value bot as in the other strong reruns, or continent-tuned."""
TREATMENTS = {
    "fortify=spread": {"fortify": "spread"},
    "fortify=none": {"fortify": "none"},
    "reinforce=spread": {"reinforce": "spread"},
    "claim=random": {"claim": "random"},
}
"""Treatment name -> the treated seat's parameter overrides (each against that parameter's default)."""


def treated_seat(bot: str) -> str:
    """The treated seat's spec: ``bot`` with its default ``first=-1`` written out (the same play, a label of
    its own; not a placement parameter, which the spec would set over the treatment's override).

    >>> treated_seat("continent-tuned")
    'continent-tuned:first=-1'
    """
    return f"{bot}:first=-1"


def placement_effects(games: int, players: int = 4, populations: dict | None = None,
                      treatments: dict | None = None, seed: int = 19) -> pd.DataFrame:
    """The treated seat's win rate under each placement treatment against its default play.

    Parameters
    ----------
    games : int
        Games per arm (the same seeds in every arm).
    players : int
        Players (Classic rules, territories claimed by choice).
    populations : dict, optional
        Name -> the bot in every seat (default `POPULATIONS`).
    treatments : dict, optional
        Name -> the treated seat's overrides by parameter name (default `TREATMENTS`).
    seed : int

    Returns
    -------
    pandas.DataFrame
        One row per (population, treatment): bot, treatment, players, games, the control and treated wins
        and rates with 95% Wilson intervals, effect (treated - control rate) with its paired 95% interval,
        p_value (exact McNemar), p_holm (over every row), discordant games, truncated games in each arm (no
        winner: a loss for every seat), fair_share (1 / players), mean_turns of each arm, and cpu_s (the
        treated arm's CPU seconds; the control's is in the row's control_cpu_s).
    """
    from riskstats.runs.selfplay import play_games
    from riskstats.stats.compare import _holm, treatment_effect

    games = check_int("games", games, 1)
    players = check_int("players", players, 3)
    populations = dict(POPULATIONS if populations is None else populations)
    treatments = dict(TREATMENTS if treatments is None else treatments)
    if not populations or not treatments:
        raise RiskstatsError("give at least one population and one treatment")
    rows = []
    for name, bot in populations.items():
        seat = treated_seat(bot)
        lineup = ",".join([seat] + [bot] * (players - 1))
        start = time.process_time()
        control = play_games(games, players, lineup, seed=seed)
        control_cpu = time.process_time() - start
        for treatment, overrides in treatments.items():
            start = time.process_time()
            treated = play_games(games, players, lineup, seed=seed, params={seat: dict(overrides)})
            cpu = time.process_time() - start
            effect = treatment_effect(treated, control, seat).iloc[0]
            c_low, c_high = wilson_interval(int(effect.control_wins), games)
            t_low, t_high = wilson_interval(int(effect.treated_wins), games)
            rows.append({"population": name, "bot": bot, "treatment": treatment, "players": players,
                         "lineup": lineup, "games": games, "control_wins": int(effect.control_wins),
                         "control_rate": effect.control_rate, "control_ci_low": c_low, "control_ci_high": c_high,
                         "treated_wins": int(effect.treated_wins), "treated_rate": effect.treated_rate,
                         "treated_ci_low": t_low, "treated_ci_high": t_high, "effect": effect.effect,
                         "ci_low": effect.ci_low, "ci_high": effect.ci_high, "p_value": effect.p_value,
                         "discordant": int(effect.discordant), "correlation": effect.correlation,
                         "control_truncated": int(control.truncated.sum()),
                         "treated_truncated": int(treated.truncated.sum()), "fair_share": 1 / players,
                         "control_mean_turns": float(control.turns.mean()),
                         "treated_mean_turns": float(treated.turns.mean()),
                         "cpu_s": cpu, "control_cpu_s": control_cpu})
    frame = pd.DataFrame(rows)
    frame["p_holm"] = _holm(frame.p_value.to_numpy())
    return frame


def placement_verdicts(effects: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Each row of `placement_effects` read out: ``verdict`` is "helps" or "hurts" when Holm's p is below
    ``alpha`` (by the effect's sign), else "no effect shown"; with the population, treatment, effect and its
    interval, in percentage points."""
    if not 0 < alpha < 1:
        raise RiskstatsError(f"alpha must be in (0, 1), got {alpha!r}")
    missing = {"population", "treatment", "effect", "ci_low", "ci_high", "p_holm"} - set(effects.columns)
    if missing:
        raise RiskstatsError(f"not a placement_effects table: no column {', '.join(sorted(missing))}")
    verdict = ["no effect shown" if p >= alpha else ("helps" if e > 0 else "hurts")
               for e, p in zip(effects.effect, effects.p_holm)]
    return pd.DataFrame({"population": effects.population, "treatment": effects.treatment,
                         "effect_pp": 100 * effects.effect, "ci_low_pp": 100 * effects.ci_low,
                         "ci_high_pp": 100 * effects.ci_high, "p_holm": effects.p_holm, "verdict": verdict})


FINDINGS = {
    "fortify=spread": "fortifying to the most threatened border beats evening out the borders (fortify=spread)",
    "fortify=none": "fortifying to the most threatened border beats never fortifying (fortify=none)",
    "reinforce=spread": "stacking the reinforcements beats spreading them over the threatened borders "
                        "(reinforce=spread)",
    "claim=random": "the bot's claim rule beats random claims (claim=random)",
}
"""Treatment -> the finding its row of the robustness table tests: the default beats the treatment."""
LABELS = {"strong": "value in every seat (strong)", "heuristic": "continent-tuned in every seat (heuristic)"}
"""Population -> its label in the robustness table (`riskstats.stats.robustness.population_group` reads it)."""


def placement_robustness(effects: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Robustness rows (`riskstats.stats.robustness.ROBUSTNESS_COLUMNS`) of `placement_effects`: per row the
    finding "the default beats the treatment" (`FINDINGS`), estimate = control rate - treated rate with its
    paired 95% interval, n = games per arm, holding when the interval lies above 0 and Holm's p is below
    ``alpha``, reversed when it lies below 0 (the treatment beats the default) and Holm's p is below ``alpha``."""
    from riskstats.stats.robustness import robustness_rows

    placement_verdicts(effects, alpha)  # checks the table
    estimates = pd.DataFrame({
        "population": [LABELS.get(p, p) for p in effects.population], "bots": effects.lineup,
        "n": effects.games, "estimate": -effects.effect, "ci_low": -effects.ci_high, "ci_high": -effects.ci_low})
    holds = (estimates.ci_low > 0) & (effects.p_holm < alpha)
    reversed_ = (estimates.ci_high < 0) & (effects.p_holm < alpha)  # the treatment beats the default
    rows = [robustness_rows("07", FINDINGS.get(t, f"the default beats {t}"), estimates.iloc[[i]], holds.iloc[[i]],
                            reversed_.iloc[[i]]) for i, t in enumerate(effects.treatment)]
    return pd.concat(rows, ignore_index=True)


def decision_pairs(bot: str, treatment: dict, seed: int = 0, players: int = 4, turns: int = 30) -> pd.DataFrame:
    """What a treatment changes, decision by decision: one seeded game played by ``bot`` in every seat, and
    at each of its decisions (claims, placements, fortifications; not attacks) the move ``bot`` plays and
    the one it would play with ``treatment`` (its overrides by name), asked on a copy of the game.

    Returns
    -------
    pandas.DataFrame
        One row per decision until turn ``turns``: turn, player, phase, default and treated (the moves, with
        the board's names), differ (whether they differ).
    """
    import copy

    from riskstats.game.bots.catalog import parse_bot
    from riskstats.game.play import Game

    parse_bot(bot, treatment)  # checks the spec and the overrides
    turns = check_int("turns", turns, 0)
    game = Game(check_int("players", players, 2), seed=seed)
    rows = []
    while not game.over and game.turn <= turns:
        if game.phase not in ("claim", "setup_place", "reinforce", "fortify"):
            game.step(game.bot_move(bot))
            continue
        twin = copy.deepcopy(game)  # the same position and random stream
        default, treated = game.bot_move(bot), twin.bot_move(bot, treatment)
        rows.append({"turn": game.turn, "player": game.player, "phase": game.phase, "default": repr(default),
                     "treated": repr(treated), "differ": tuple(default) != tuple(treated)})
        game.step(default)
    return pd.DataFrame(rows, columns=["turn", "player", "phase", "default", "treated", "differ"])
