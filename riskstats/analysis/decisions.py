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


MC_LEVEL = 0.95
"""The family-wise confidence of `monte_carlo_check`: the exact values pass when no Holm-adjusted p-value
falls below 1 - this."""


def monte_carlo_check(policies: Mapping[str, AttackPolicy], trials: int, seeds: Iterable[int],
                      level: float = MC_LEVEL) -> pd.DataFrame:
    """Play each solved policy ``trials`` times per seed (`riskstats.odds.policy_simulate.simulate_policy`)
    and test its exact value against each simulated mean, Holm-adjusted over the whole family.

    One row per (policy, seed) with ``exact``, ``simulated``, its normal ``ci_low``/``ci_high`` (95%),
    ``z`` = (simulated - exact) / standard error, the two-sided normal ``p_value`` and ``p_holm`` (Holm
    over every compared row), and ``status``: "pass" (p_holm at least 1 - ``level``), "fail", or
    "excluded" when the sample has no spread and equals the exact value (e.g. a policy that never attacks:
    0 = 0 tests nothing, so it is neither a pass nor in the family). A sample with no spread that differs
    from the exact value fails (z infinite, p 0). `monte_carlo_verdict` summarises the table.

    Examples
    --------
    >>> from riskstats.odds.policy import policy
    >>> solved = {"never attacks": policy(1, 9, 1), "10 v 5": policy(10, 5, 3, kill_value=1)}
    >>> check = monte_carlo_check(solved, 2_000, [0, 1])
    >>> check.status.tolist()
    ['excluded', 'excluded', 'pass', 'pass']
    """
    from scipy.stats import norm
    from statsmodels.stats.multitest import multipletests

    from riskstats.errors import RiskstatsError
    from riskstats.odds.policy_simulate import simulate_policy

    if not 0 < level < 1:
        raise RiskstatsError(f"level must lie in (0, 1), got {level}")
    seeds = list(seeds)
    if not policies or not seeds:
        raise RiskstatsError("give at least one policy and one seed")
    rows = []
    for name, solved in policies.items():
        exact = float(solved.expected_value)
        for seed in seeds:
            sample = simulate_policy(solved, trials, seed=seed)
            low, high = sample.interval
            se = sample.sd / np.sqrt(sample.trials)
            diff = sample.mean - exact
            if se > 0:
                z = diff / se
            else:  # no spread: equal is no test at all, unequal is a certain miss
                z = 0.0 if abs(diff) <= 1e-12 * max(1.0, abs(exact)) else np.copysign(np.inf, diff)
            rows.append({"policy": name, "seed": seed, "exact": exact, "simulated": sample.mean, "ci_low": low,
                         "ci_high": high, "z": z if se > 0 or np.isinf(z) else np.nan,
                         "p_value": float(2 * norm.sf(abs(z))) if se > 0 or np.isinf(z) else np.nan,
                         "trials": sample.trials, "exact_p_win": float(solved.p_win), "simulated_p_win": sample.p_win})
    table = pd.DataFrame(rows)
    compared = table.p_value.notna()
    table["p_holm"] = np.nan
    if compared.any():
        table.loc[compared, "p_holm"] = multipletests(table.p_value[compared].to_numpy(), method="holm")[1]
    table["status"] = np.where(~compared, "excluded", np.where(table.p_holm >= 1 - level, "pass", "fail"))
    return table


def monte_carlo_verdict(check: pd.DataFrame, level: float = MC_LEVEL) -> pd.DataFrame:
    """One row summarising a `monte_carlo_check`: ``comparisons`` (rows tested), ``excluded`` (rows with
    nothing to test), ``inside_95`` (tested rows whose 95% interval holds the exact value), ``max_abs_z``,
    ``min_p_holm``, ``failed`` and ``family_pass`` (True only if something was tested and nothing failed
    after Holm at ``level``)."""
    tested = check[check.status != "excluded"]
    inside = int(((tested.ci_low <= tested.exact) & (tested.exact <= tested.ci_high)).sum())
    failed = int((tested.status == "fail").sum())
    return pd.DataFrame([{
        "comparisons": len(tested), "excluded": int((check.status == "excluded").sum()), "inside_95": inside,
        "max_abs_z": float(tested.z.abs().max()) if len(tested) else np.nan,
        "min_p_holm": float(tested.p_holm.min()) if len(tested) else np.nan,
        "failed": failed, "family_pass": bool(len(tested) > 0 and failed == 0), "level": level,
        "trials_each": int(check.trials.iloc[0]) if len(check) else 0}])
