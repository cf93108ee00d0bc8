"""Attack-odds analyses: armies needed, rules of thumb, stop rules, dice variants and the official app's
Balanced Blitz against true random, as DataFrames.

Everything here is exact (the Markov engine of `riskstats.odds.battle`); the notebook
``notebooks/01_attack_odds.ipynb`` only calls these functions and `riskstats.stats.plots`. Attackers are
armies able to roll; "territory armies" (one more) are named as such.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from riskstats.errors import RiskstatsError, check_int
from riskstats.odds.balance import balanced_win_chance, resolve_balance
from riskstats.odds.battle import battle_odds, win_values
from riskstats.odds.dice import DiceRules

VARIANTS = {
    "standard": DiceRules(),
    "defender rolls 3": DiceRules(defender_dice=3),
    "ties to attacker": DiceRules(ties="attacker"),
    "defender d8": DiceRules(defender_sides=8),
    "bunker (+1)": DiceRules(defender_modifier=1),
}
"""The dice variants the analyses compare, by name."""


def armies_needed(defenders: Iterable[int], targets: Iterable[float] = (0.5, 0.8, 0.95),
                  rules: DiceRules | None = None, balance=None) -> pd.DataFrame:
    """The fewest attackers whose P(win) reaches each target, for every defender count.

    Columns ``defenders``, ``target``, ``attackers``, ``territory_armies`` (attackers + 1) and
    ``p_win`` (the probability that force actually gets). One backward sweep answers all of them;
    ``balance="blitz"`` answers under Balanced Blitz (`riskstats.odds.balance`), whose win chance rises
    with the true one, so the same sweep serves.

    Examples
    --------
    >>> armies_needed([5], [0.8]).attackers.tolist()
    [8]
    >>> armies_needed([50], [0.8], balance="blitz").attackers.tolist()
    [49]
    """
    rules = rules or DiceRules()
    balance = resolve_balance(balance)
    defenders = sorted({int(d) for d in defenders})
    targets = [float(t) for t in targets]
    if not defenders or defenders[0] < 1:
        raise RiskstatsError(f"defenders must be whole numbers of at least 1, got {defenders}")
    if not all(0 < t < 1 for t in targets):
        raise RiskstatsError(f"targets must lie in (0, 1), got {targets}")
    top = 2 * defenders[-1] + 20
    while True:
        values = win_values(rules, top, defenders[-1])
        if balance is not None:
            values = balanced_win_chance(values, balance)
        if (values[top, defenders] >= max(targets)).all():
            break
        top *= 2
    rows = []
    for d in defenders:
        for t in targets:
            a = int(np.argmax(values[:, d] >= t))
            rows.append((d, t, a, a + 1, values[a, d]))
    return pd.DataFrame(rows, columns=["defenders", "target", "attackers", "territory_armies", "p_win"])


def fit_rule_of_thumb(needed: pd.DataFrame) -> pd.DataFrame:
    """Least-squares line ``attackers ≈ slope * defenders + intercept`` for each target.

    Columns ``target``, ``slope``, ``intercept``, ``r_squared`` and ``max_error`` (the worst miss
    in armies over the defenders fitted).
    """
    from scipy.stats import linregress

    rows = []
    for target, group in needed.groupby("target"):
        fit = linregress(group.defenders, group.attackers)
        error = (fit.slope * group.defenders + fit.intercept - group.attackers).abs().max()
        rows.append((target, fit.slope, fit.intercept, fit.rvalue**2, error))
    return pd.DataFrame(rows, columns=["target", "slope", "intercept", "r_squared", "max_error"])


def variant_odds(attackers: int, defenders: int,
                 variants: Mapping[str, DiceRules] | None = None) -> pd.DataFrame:
    """P(win) for every battle up to attackers x defenders under each variant, and its shift.

    Long form: ``variant``, ``attackers``, ``defenders``, ``p_win`` and ``p_win_change`` (minus the
    standard rules' p_win for the same battle).
    """
    variants = dict(variants or VARIANTS)
    base = win_values(DiceRules(), attackers, defenders)[1:, 1:]
    a, d = np.meshgrid(np.arange(1, attackers + 1), np.arange(1, defenders + 1), indexing="ij")
    frames = []
    for name, rules in variants.items():
        values = win_values(rules, attackers, defenders)[1:, 1:]
        frames.append(pd.DataFrame({"variant": name, "attackers": a.ravel(), "defenders": d.ravel(),
                                    "p_win": values.ravel(), "p_win_change": (values - base).ravel()}))
    return pd.concat(frames, ignore_index=True)


def balance_shift(attackers: int, defenders: int, rules: DiceRules | None = None, balance="blitz") -> pd.DataFrame:
    """P(win) for every battle up to attackers x defenders under true random and under Balanced Blitz.

    Long form: ``attackers``, ``defenders``, ``p_win_true_random``, ``p_win_balanced`` and ``p_win_change``
    (balanced minus true random).

    Examples
    --------
    >>> shift = balance_shift(20, 15).set_index(["attackers", "defenders"])
    >>> shift.loc[(20, 15)].round(4).tolist()
    [0.8604, 1.0, 0.1396]
    """
    true = win_values(rules or DiceRules(), attackers, defenders)[1:, 1:]
    balanced = balanced_win_chance(true, resolve_balance(balance))
    a, d = np.meshgrid(np.arange(1, attackers + 1), np.arange(1, defenders + 1), indexing="ij")
    return pd.DataFrame({"attackers": a.ravel(), "defenders": d.ravel(), "p_win_true_random": true.ravel(),
                         "p_win_balanced": balanced.ravel(), "p_win_change": (balanced - true).ravel()})


def stop_rule_odds(attackers: int, defenders: int, stops: Iterable[int]) -> pd.DataFrame:
    """How a retreat threshold changes one battle: bold and cautious forms side by side.

    Columns ``stop_at``, ``rule`` (``bold`` or ``cautious``), ``p_win``, ``expected_attacker_losses``,
    ``expected_defender_losses`` and ``armies_kept`` (expected attackers left when the attack fails).
    """
    rows = []
    for stop_at in stops:
        for rule, cautious in (("bold", False), ("cautious", True)):
            odds = battle_odds(attackers, defenders, stop_at=stop_at, cautious=cautious)
            failed = odds.defenders_left > 0
            kept = (odds.attackers_left[failed] @ odds.p[failed]) / max(odds.p_lose, 1e-300)
            rows.append((stop_at, rule, odds.p_win, odds.expected_attacker_losses,
                         odds.expected_defender_losses, kept))
    return pd.DataFrame(rows, columns=["stop_at", "rule", "p_win", "expected_attacker_losses",
                                       "expected_defender_losses", "armies_kept"])


COUNTS = ("attackers", "territory")
"""How `rules_of_thumb` counts an attack's armies: "attackers", the armies able to roll (riskstats'
convention), or "territory", every army on the attacking territory (one more: the one that stays behind),
as players count them."""


def rules_of_thumb(max_defenders: int = 60, count: str = "attackers") -> pd.DataFrame:
    """Common rules of thumb checked against the exact odds, for 1..max_defenders defenders.

    ``count`` says what "armies" means in the claims that compare the two sides (equal armies, one army
    more, twice the armies): "attackers", the armies able to roll, or "territory", the armies on the
    attacking territory (attackers + 1), as players count them (`COUNTS`). The even-chance rule is stated
    in territory armies either way; the one-roll claim does not depend on it.

    Columns ``claim``, ``holds`` (for every case checked), ``fails_for`` (the defender counts, or
    cases, where it fails) and ``evidence`` (the exact numbers behind the verdict).

    Examples
    --------
    >>> t = rules_of_thumb(20, count="territory").set_index("claim")
    >>> t.fails_for["One army more than the defender wins more often than not"]
    [1, 2, 3, 4]
    """
    if count not in COUNTS:
        raise RiskstatsError(f"count must be one of {', '.join(COUNTS)}, got {count!r}")
    check_int("max_defenders", max_defenders, 1)
    values = win_values(DiceRules(), 3 * max_defenders + 20, max_defenders)
    ds = np.arange(1, max_defenders + 1)
    behind = 1 if count == "territory" else 0  # territory armies = attackers able to roll + 1
    name = "territory armies" if behind else "attackers"
    rows = []

    even = values[ds - behind, ds]
    rows.append(("With equal armies the defender is favoured (ties go to it)",
                 ds[even >= 0.5].tolist(),
                 f"P(win) at {name} = D: {even[0]:.3f} at 1, {even[3]:.3f} at 4, {even[4]:.3f} at 5, "
                 f"{even[-1]:.3f} at {max_defenders}"))
    ahead = values[ds + 1 - behind, ds]
    rows.append(("One army more than the defender wins more often than not",
                 ds[ahead <= 0.5].tolist(),
                 f"P(win) at {name} = D + 1 ranges from {ahead.min():.3f} to {ahead.max():.3f}"))
    needed50 = np.array([int(np.argmax(values[:, d] >= 0.5)) for d in ds])
    folk = 0.86 * ds + 2  # a rule of thumb in territory armies for an even chance
    miss = np.abs(needed50 + 1 - np.ceil(folk))
    rows.append(("An even chance needs 86% of the defenders plus 2 armies on the territory",
                 ds[miss > 1].tolist(),
                 f"largest miss {miss.max():.0f} army; exact territory armies for 50% at D = {ds[-1]}: "
                 f"{needed50[-1] + 1} vs rule {folk[-1]:.1f}"))
    double = values[2 * ds - behind, ds]
    rows.append(("Twice the defender's armies makes a win near certain (90%+)",
                 ds[double < 0.9].tolist(),
                 f"P(win) at {name} = 2D: {double[0]:.3f} at 1, {double[1]:.3f} at 2, {double[2]:.3f} at 3"))
    one_roll = DiceRules().outcome_fractions(3, 2)
    attacker_loss = float(one_roll[1] + 2 * one_roll[2])
    rows.append(("A 3-v-2 roll favours the defender, since it wins ties",
                 ["always"] if attacker_loss < 1 else [],
                 f"per roll the attacker loses {attacker_loss:.3f} armies, the defender {2 - attacker_loss:.3f}"))
    frame = pd.DataFrame(rows, columns=["claim", "fails_for", "evidence"])
    frame.insert(1, "holds", frame.fails_for.map(len) == 0)
    return frame


def _ranges(values) -> str:
    """Whole numbers as runs: [1, 2, 3, 5] -> "1-3, 5"; "none" when empty; other cases listed as they are."""
    if not values:
        return "none"
    if not all(isinstance(v, int | np.integer) for v in values):
        return ", ".join(map(str, values))
    runs, start = [], values[0]
    for prev, cur in zip(values, [*values[1:], None]):
        if cur != prev + 1 if cur is not None else True:
            runs.append(f"{start}" if start == prev else f"{start}-{prev}")
            start = cur
    return ", ".join(runs)


def verdicts_by_count(max_defenders: int = 60) -> pd.DataFrame:
    """`rules_of_thumb` counted both ways, side by side: for each claim, whether it holds and where it fails
    (defender counts as runs, "1-4") with armies counted as attackers able to roll and as armies on the
    attacking territory.

    Examples
    --------
    >>> v = verdicts_by_count(20).set_index("claim")
    >>> v.loc["One army more than the defender wins more often than not", "fails_for (territory)"]
    '1-4'
    """
    tables = {count: rules_of_thumb(max_defenders, count) for count in COUNTS}
    out = tables["attackers"][["claim"]].copy()
    for count, table in tables.items():
        out[f"holds ({count})"] = table.holds
        out[f"fails_for ({count})"] = table.fails_for.map(_ranges)
    return out
