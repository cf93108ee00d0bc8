"""Attack-decision analyses: where the optimal policy stops, which dice it rolls, what rules of thumb cost.

Everything here is exact (the backward induction of `riskstats.odds.policy`); the notebook
``notebooks/05_attack_decisions.ipynb`` only calls these functions and `riskstats.stats.plots`. Attackers
are armies able to roll, as everywhere in riskstats.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from riskstats.odds.dice import DiceRules
from riskstats.odds.policy import OPTIMAL, AttackPolicy, policy

RULES_OF_THUMB = {
    "attack to the end": "attack_to_end",
    "attack while you have more armies": "while_more_armies",
    "stop below 3 attackers": "stop_at_2",
}
"""The rules of thumb the analyses name, mapped to the solver's baseline names."""


def stop_frontier(solved: AttackPolicy) -> pd.DataFrame:
    """The fewest attackers with which the optimal policy attacks, per territory and defender count.

    Columns ``territory``, ``defenders``, ``min_attackers`` (0 when it never attacks) and ``threshold``
    (True when it attacks at every attacker count from ``min_attackers`` up, so that one number says
    the whole policy for that defender count).

    Examples
    --------
    >>> stop_frontier(policy(6, 2, 3)).min_attackers.tolist()
    [1, 3]
    """
    rows = []
    for (k, d), group in solved.table.groupby(["territory", "defenders"]):
        attacks = group.sort_values("attackers").action.eq("attack").to_numpy()
        a = group.sort_values("attackers").attackers.to_numpy()
        first = int(a[attacks.argmax()]) if attacks.any() else 0
        threshold = bool(attacks[attacks.argmax():].all()) if attacks.any() else True
        rows.append({"territory": k, "defenders": d, "min_attackers": first, "threshold": threshold})
    return pd.DataFrame(rows)


def frontiers(attackers: int, defenders: int, values: Iterable[float], rules: DiceRules | None = None,
              **options) -> pd.DataFrame:
    """`stop_frontier` of one battle for each conquest value, stacked with a ``value`` column."""
    frames = [stop_frontier(policy(attackers, defenders, v, rules, **options)).assign(value=v) for v in values]
    return pd.concat(frames, ignore_index=True)


def rule_losses(solved: AttackPolicy, rules: Mapping[str, str] = RULES_OF_THUMB) -> pd.DataFrame:
    """What each rule loses against the optimal policy over every starting state of the first battle.

    One row per rule (the best fixed stop threshold at each state included as "best threshold") with
    ``mean_loss`` and ``max_loss`` (expected armies lost against optimal play), ``worst_state`` (a v d
    where the loss is largest) and ``share_losing`` (the fraction of states where it loses over 0.01).

    Examples
    --------
    >>> losses = rule_losses(policy(8, 6, 4))
    >>> bool((losses.max_loss >= 0).all())
    True
    """
    values = solved.values
    thresholds = [c for c in values.columns if c == "attack_to_end" or c.startswith("stop_at_")]
    lost = {label: values[OPTIMAL] - values[name] for label, name in rules.items()}
    lost["best threshold"] = values[OPTIMAL] - values[thresholds].max(axis=1)
    rows = []
    for label, loss in lost.items():
        worst = loss.idxmax()
        rows.append({"rule": label, "mean_loss": float(loss.mean()), "max_loss": float(loss.max()),
                     "worst_state": f"{worst[0]} v {worst[1]}", "share_losing": float((loss > 0.01).mean()),
                     "states": len(loss)})
    return pd.DataFrame(rows)


def choice_value(starts: Iterable[tuple[int, int]], values: Iterable[float], rules: DiceRules | None = None,
                 **options) -> pd.DataFrame:
    """For each starting battle and conquest value: the optimal expected payoff, the rules of thumb's,
    the best baseline and the value of the choice (optimal minus the best baseline).

    Examples
    --------
    >>> t = choice_value([(10, 6)], [5])
    >>> bool((t.value_of_choice >= 0).all())
    True
    """
    rows = []
    for a, d in starts:
        for v in values:
            solved = policy(a, d, v, rules, **options)
            baseline = solved.baseline
            rows.append({"attackers": a, "defenders": d, "value": v, "optimal": solved.expected_value,
                         **{label: baseline[name] for label, name in RULES_OF_THUMB.items()},
                         "best_baseline": solved.best_baseline, "value_of_choice": solved.value_of_choice,
                         "p_win": solved.p_win})
    return pd.DataFrame(rows)


def dice_choices(attackers: int, defenders: int, values: Iterable[float],
                 variants: Mapping[str, DiceRules], **options) -> pd.DataFrame:
    """Where the optimal play rolls fewer than the most dice, per dice variant and conquest value.

    Columns ``variant``, ``value``, ``attacking_states`` (states where the attacker rolls),
    ``attacker_fewer`` and ``defender_fewer`` (of those, where the attacker, resp. the defender, rolls
    fewer dice than it may) and ``examples`` (up to three such states, "a v d: attacker n, defender m").
    """
    rows = []
    for name, rules in variants.items():
        for v in values:
            t = policy(attackers, defenders, v, rules, **options).table
            t = t[t.action == "attack"]
            most_a = np.minimum(rules.attacker_dice, t.attackers)
            most_d = np.minimum(rules.defender_dice, t.defenders)
            odd = t[(t.dice < most_a) | (t.defender_dice < most_d)]
            rows.append({"variant": name, "value": v, "attacking_states": len(t),
                         "attacker_fewer": int((t.dice < most_a).sum()),
                         "defender_fewer": int((t.defender_dice < most_d).sum()),
                         "examples": "; ".join(f"{a} v {d}: attacker {n}, defender {m}" for a, d, n, m in
                                               odd[["attackers", "defenders", "dice", "defender_dice"]]
                                               .head(3).itertuples(index=False))})
    return pd.DataFrame(rows)
