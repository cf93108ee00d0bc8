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
from riskstats.runs.tiers import TIER_SETS, tier_seats

TIERS = {tier: entry for tiers in TIER_SETS.values() for tier, entry in tiers.items()}
"""Every tier of every tier set (`riskstats.runs.tiers.TIER_SETS`), by name."""
POPULATIONS = {
    "strong": "value:rollouts=1:plans=4",
    "heuristic": "continent-tuned",
    **{tier: seats[0] if len(set(seats)) == 1 else ",".join(seats)
       for tier, entry in TIERS.items() for seats in [tier_seats(entry, 4, treated=True)]},
}
"""Population -> the bot in every seat, or a line-up (its names cycled over the seats): the value bot as in the
earlier strong reruns (``strong``), continent-tuned (``heuristic``), and every tier of the tier sets
(`riskstats.runs.tiers.TIER_SETS`: ``search`` and ``search:value=model``, the ``top`` set; ``hunter`` and ``hunter
against the next best``, ``top_hunter``), each named by its tier: the first seat, the treated one, the tier's bot and
the others its others' (`riskstats.runs.tiers.tier_seats`, four players; one bot in every seat by its name alone)."""
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
        Name -> the bot in every seat, or a line-up cycled over the seats (default `POPULATIONS`); the first seat
        is the treated one.
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
        seats = (bot.split(",") * players)[:players]
        seat = treated_seat(seats[0])
        lineup = ",".join([seat] + seats[1:])
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


def merge_effects(old: pd.DataFrame | None, new: pd.DataFrame) -> pd.DataFrame:
    """`placement_effects` tables merged: the rows of ``new`` replace those of ``old`` with the same population and
    treatment, the others of ``old`` are kept (a rerun of some populations keeps the rest), and ``p_holm`` is
    recomputed over every row of the result (Holm over the whole table).

    >>> old = pd.DataFrame({"population": ["a", "b"], "treatment": ["t", "t"], "p_value": [0.01, 0.04]})
    >>> new = pd.DataFrame({"population": ["b", "c"], "treatment": ["t", "t"], "p_value": [0.02, 0.5]})
    >>> merge_effects(old, new)[["population", "p_holm"]].values.tolist()
    [['a', 0.03], ['b', 0.04], ['c', 0.5]]
    """
    from riskstats.stats.compare import _holm

    missing = {"population", "treatment", "p_value"} - set(new.columns)
    if missing:
        raise RiskstatsError(f"not a placement_effects table: no column {', '.join(sorted(missing))}")
    if old is None or len(old) == 0:
        frame = new.copy()
    else:
        keys = set(zip(new.population, new.treatment))
        kept = old[[(p, t) not in keys for p, t in zip(old.population, old.treatment)]]
        frame = pd.concat([kept, new], ignore_index=True)
    frame = frame.reset_index(drop=True)
    frame["p_holm"] = _holm(frame.p_value.to_numpy(float))
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
LABELS = {"strong": "value:rollouts=1:plans=4 in every seat", "heuristic": "continent-tuned in every seat (heuristic)",
          **{tier: entry["population"] for tier, entry in TIERS.items()}}
"""Population -> its label in the robustness table (`riskstats.stats.robustness.population_group` reads it): the
old strong population named by its bot, the tiers by their sets' labels (`riskstats.runs.tiers.TIER_SETS`)."""


def placement_robustness(effects: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Robustness rows (`riskstats.stats.robustness.ROBUSTNESS_COLUMNS`) of `placement_effects`: per row the
    finding "the default beats the treatment" (`FINDINGS`), estimate = control rate - treated rate with its
    paired 95% interval, n = games per arm, holding when the interval lies above 0 and Holm's p is below
    ``alpha``, reversed when it lies below 0 (the treatment beats the default) and Holm's p is below ``alpha``.
    The reference is 0 (no effect) and ``p_value`` the exact McNemar p of the row, unadjusted (the whole table's
    adjustment is `riskstats.stats.verdicts.adjust`'s)."""
    from riskstats.stats.robustness import robustness_rows

    placement_verdicts(effects, alpha)  # checks the table
    estimates = pd.DataFrame({
        "population": [LABELS.get(p, p) for p in effects.population], "bots": effects.lineup,
        "n": effects.games, "estimate": -effects.effect, "ci_low": -effects.ci_high, "ci_high": -effects.ci_low})
    holds = (estimates.ci_low > 0) & (effects.p_holm < alpha)
    reversed_ = (estimates.ci_high < 0) & (effects.p_holm < alpha)  # the treatment beats the default
    p_value = effects["p_value"] if "p_value" in effects.columns else pd.Series(None, effects.index, float)
    rows = [robustness_rows("07", FINDINGS.get(t, f"the default beats {t}"), estimates.iloc[[i]], holds.iloc[[i]],
                            reversed_.iloc[[i]], reference=0.0,
                            p_value=None if pd.isna(p_value.iloc[i]) else [p_value.iloc[i]])
            for i, t in enumerate(effects.treatment)]
    return pd.concat(rows, ignore_index=True)


def placement_conclusions(effects: pd.DataFrame, alpha: float = 0.05) -> list[str]:
    """One markdown line per treatment of `placement_effects`, saying per population (named by its bot, `LABELS`)
    what the paired interval shows of "the default beats the treatment": the estimate (control - treated, in
    points) with its 95% interval and the games per arm, and the reading of `placement_robustness` (holds; reversed:
    the treatment wins; not shown where the interval excludes 0 but Holm's p over the table does not reach ``alpha``;
    or no effect detected, with the bound on its size that the interval gives).

    >>> effects = pd.DataFrame({"population": ["p", "q"], "treatment": ["t", "t"], "lineup": ["v", "w"],
    ...                         "games": [100, 100], "effect": [-0.05, 0.01], "ci_low": [-0.08, -0.02],
    ...                         "ci_high": [-0.02, 0.04], "p_value": [0.001, 0.5], "p_holm": [0.002, 0.5]})
    >>> print(placement_conclusions(effects)[0].replace("; q", "\\n q"))
    **the default beats t**: p, +5.0 points (95% +2.0 to +8.0; 100 games per arm): holds
     q, -1.0 points (95% -4.0 to +2.0; 100 games per arm): no effect detected, |effect| < 4.0 points.
    """
    from riskstats.stats.compare import effect_bound

    rows = placement_robustness(effects, alpha)
    lines = []
    for treatment in dict.fromkeys(effects.treatment):
        parts = []
        for i in [i for i, t in enumerate(effects.treatment) if t == treatment]:
            r = rows.iloc[i]
            p_holm = effects["p_holm"].iloc[i]
            reading = ("holds" if r.holds else "reversed: the treatment wins" if r.reversed else
                       f"not shown after Holm's correction over the table (Holm p = {p_holm:.2g})"
                       if r.ci_low > 0 or r.ci_high < 0 else
                       f"no effect detected, |effect| < {100 * effect_bound(r.ci_low, r.ci_high):.1f} points")
            parts.append(f"{r.population}, {100 * r.estimate:+.1f} points (95% {100 * r.ci_low:+.1f} to "
                         f"{100 * r.ci_high:+.1f}; {r.n:,} games per arm): {reading}")
        lines.append(f"**{FINDINGS.get(treatment, f'the default beats {treatment}')}**: " + "; ".join(parts) + ".")
    return lines


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
