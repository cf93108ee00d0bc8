"""Comparisons of win rates: when a difference is significant, and the effect of a treatment.

This module owns the tests behind every "A beats B" in a report or notebook:

- `compare_rates`: every pair of independent groups (different games: cells, arms, runs), each a
  two-proportion z-test (pooled) with a Newcombe interval of the difference, Holm-corrected over all
  pairs; `rank_rates` ranks groups only where those tests separate them.
- `versus_share`: each group against a fixed share (a seat against the fair share 1/P), an exact
  binomial test per group, Holm-corrected over the groups. Seats of the same games are not independent
  groups (their wins exclude each other), so seats are compared with the fair share, not with each other.
- `treatment_effect` / `treatment_effects`: a controlled experiment's effect on a bot's win rate.
  The arms play the same games (same seeds, same line-ups, same seats: *common random numbers*), so
  games are paired by seed, and the test is McNemar's exact test on the discordant games. The interval
  (`paired_difference_interval`, `PAIRED_METHOD`) is matched to that test: the effect is q s, q the share
  of discordant games and s = 2 pi - 1, pi the share of those the treated arm won; s gets the
  Clopper-Pearson interval of the discordant games (it excludes 0 exactly when exact McNemar rejects)
  and q the Wilson interval, and the two are combined by MOVER (the method of variance estimates
  recovery, Zou and Donner 2008): each end is the estimate minus (plus) the root of the sum of squares of
  the two margins, q's margin weighted by s at that end. Weighting by s at the end keeps the test's
  verdict: the interval excludes 0 exactly when the test rejects; it has width when no game is
  discordant, and its coverage is nominal or above (simulated 0.95-0.99, tests/stats/test_compare.py).
  Its variance is the paired one, q (1 - q s^2) / n: where both arms' games stay alike (the same deal, the
  same dice until the treated bot first acts differently) few games are discordant, the arms' wins are
  positively correlated and the interval is narrower than the unpaired one (also given); with no
  correlation the two are about as wide (the exact test's few extra points), and with a negative one it
  is wider, as it should be. (Until issue 42 the two intervals were combined by the range of q s over
  both boxes, which was valid but so conservative that it came out wider than the unpaired interval even
  on positively correlated arms; the new interval always lies inside the old one.)
- `paired_comparisons` / `rank_paired`: every pair of arms that played the same games, each paired
  (`treatment_effect`), Holm over the pairs; arms are ranked only where those paired tests separate them
  (`rank_rates` is for independent groups and must not rank paired arms).
- `effect_bound` and `equivalent`: the words for an interval that contains 0. "No effect detected" says
  only that |effect| is below the interval's farthest end (`effect_bound`); "unchanged" is claimed only
  by equivalence, the interval inside a stated margin (`equivalent`: with a 95% interval, the two
  one-sided tests (TOST) at 2.5% each).

The tests come from scipy and statsmodels. Win rates are counted as in `riskstats.stats.report`.

>>> import pandas as pd
>>> rates = pd.DataFrame({"arm": ["a", "b"], "wins": [45, 30], "trials": [100, 100]})
>>> round(float(compare_rates(rates, "arm")["p_value"].iloc[0]), 4)
0.0285
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from riskstats.errors import RiskstatsError
from riskstats.intervals import Z95


def _holm(p):
    from statsmodels.stats.multitest import multipletests

    return multipletests(p, method="holm")[1] if len(p) else np.zeros(0)


def _check_level(level):
    if not 0 < level < 1:
        raise RiskstatsError(f"level must lie in (0, 1), got {level}")


def _check_rates(rates, label):
    missing = {label, "wins", "trials"} - set(rates.columns)
    if missing:
        raise RiskstatsError(f"the rates table needs columns {', '.join(sorted(missing))}")


def compare_rates(rates, label: str, level: float = 0.95):
    """Every pair of groups of a win-rate table: the difference, its interval, and whether it is significant.

    Parameters
    ----------
    rates : pandas.DataFrame
        One row per group: ``label``, wins, trials (as `riskstats.stats.report.win_rates` gives). The
        groups must be independent samples (different games).
    label : str
        The column naming the groups.
    level : float
        Confidence level of the intervals; a difference is significant when its Holm-adjusted p-value is
        below ``1 - level``.

    Returns
    -------
    pandas.DataFrame
        One row per pair (a before b in the table's order): a, b, rate_a, rate_b, diff (rate_a - rate_b),
        ci_low, ci_high (Newcombe's score interval of the difference, not adjusted), p_value (pooled
        two-proportion z-test), p_holm (Holm-adjusted over all pairs), significant.
    """
    from statsmodels.stats.proportion import confint_proportions_2indep, proportions_ztest

    _check_rates(rates, label)
    _check_level(level)
    rows = []
    records = rates.to_dict("records")
    for i, a in enumerate(records):
        for b in records[i + 1:]:
            wa, na, wb, nb = int(a["wins"]), int(a["trials"]), int(b["wins"]), int(b["trials"])
            if min(na, nb) <= 0:
                raise RiskstatsError(f"group {a[label] if na <= 0 else b[label]!r} has no trials")
            low, high = confint_proportions_2indep(wa, na, wb, nb, method="newcomb", compare="diff",
                                                   alpha=1 - level)
            pooled = (wa + wb) / (na + nb)
            p = 1.0 if pooled in (0.0, 1.0) else float(proportions_ztest([wa, wb], [na, nb])[1])
            rows.append({"a": a[label], "b": b[label], "rate_a": wa / na, "rate_b": wb / nb, "diff": wa / na - wb / nb,
                         "ci_low": float(low), "ci_high": float(high), "p_value": p})
    frame = pd.DataFrame(rows, columns=["a", "b", "rate_a", "rate_b", "diff", "ci_low", "ci_high", "p_value"])
    frame["p_holm"] = _holm(frame["p_value"].to_numpy())
    frame["significant"] = frame["p_holm"] < 1 - level
    return frame


def rank_rates(rates, label: str, level: float = 0.95):
    """The rates table with a ``rank`` column: 1 + the number of groups significantly higher (`compare_rates`).

    Groups the tests do not separate share a rank; the table is sorted by rank, then by ``label``.

    >>> rates = pd.DataFrame({"arm": ["a", "b", "c"], "wins": [300, 290, 200], "trials": [1000] * 3})
    >>> rank_rates(rates, "arm")[["arm", "rank"]].values.tolist()
    [['a', 1], ['b', 1], ['c', 3]]
    """
    pairs = compare_rates(rates, label, level)
    higher = {g: 0 for g in rates[label]}
    for r in pairs[pairs["significant"]].itertuples():
        higher[r.b if r.diff > 0 else r.a] += 1
    out = rates.copy()
    out["rank"] = [1 + higher[g] for g in out[label]]
    return out.sort_values(["rank", label], ignore_index=True)


def versus_share(rates, share: float, level: float = 0.95):
    """Each group's win rate against a fixed ``share`` (e.g. a seat against 1/P): exact binomial tests.

    Returns the table with columns share, p_value (two-sided exact binomial test), p_holm (Holm over
    the groups) and significant added.

    >>> rates = pd.DataFrame({"seat": [0, 1, 2], "wins": [380, 320, 300], "trials": [1000] * 3})
    >>> versus_share(rates, 1 / 3)["significant"].tolist()
    [True, False, False]
    """
    from scipy.stats import binomtest

    _check_rates(rates, "wins")
    _check_level(level)
    if not 0 < share < 1:
        raise RiskstatsError(f"share must lie in (0, 1), got {share}")
    out = rates.copy()
    out["share"] = share
    out["p_value"] = [binomtest(int(w), int(n), share).pvalue for w, n in zip(out["wins"], out["trials"])]
    out["p_holm"] = _holm(out["p_value"].to_numpy())
    out["significant"] = out["p_holm"] < 1 - level
    return out


PAIRED_METHOD = "MOVER of Clopper-Pearson (discordant split) and Wilson (discordant share)"
"""How the paired interval is made (`paired_difference_interval`), as reports name it."""


def paired_difference_interval(both: int, only_treated: int, only_control: int, neither: int,
                               level: float = 0.95) -> tuple[float, float]:
    """The interval of a paired difference of proportions that agrees with exact McNemar (module docstring).

    The counts are the 2 x 2 table of pairs: won in both arms, in the treated arm only, in the control arm
    only, in neither. The effect (only_treated - only_control) / n is q s, q = m / n the share of the m
    discordant pairs and s = 2 pi - 1, pi the treated arm's share of them; with [s_lo, s_hi] from the
    Clopper-Pearson interval of pi and [q_lo, q_hi] the Wilson interval of q, each at ``level``, the ends
    are (MOVER, `PAIRED_METHOD`)::

        q s - sqrt((q (s - s_lo))^2 + (s_lo (q - q_lo))^2)     (q_hi - q in place of q - q_lo if s_lo < 0)
        q s + sqrt((q (s_hi - s))^2 + (s_hi (q_hi - q))^2)     (q - q_lo in place of q_hi - q if s_hi < 0)

    so the lower end is above 0 exactly when s_lo is (exact McNemar rejects), and the upper end below 0
    exactly when s_hi is. With no discordant pair, the effect may be anything within the Wilson interval
    of q: (-q_hi, q_hi).

    Examples
    --------
    >>> low, high = paired_difference_interval(0, 5, 0, 5)  # 5 of 10 discordant, all one way: McNemar p = 0.0625
    >>> bool(low < 0 < high)
    True
    >>> low, high = paired_difference_interval(0, 6, 0, 4)  # 6 of 10: p = 0.031
    >>> bool(low > 0)
    True
    """
    from statsmodels.stats.proportion import proportion_confint

    from riskstats.errors import check_int

    counts = [check_int(name, value, 0) for name, value in
              (("both", both), ("only_treated", only_treated), ("only_control", only_control), ("neither", neither))]
    _check_level(level)
    n, m = sum(counts), counts[1] + counts[2]
    if n == 0:
        raise RiskstatsError("no pairs: the table is empty")
    q_low, q_high = (float(x) for x in proportion_confint(m, n, alpha=1 - level, method="wilson"))
    if m == 0:
        return -q_high, q_high
    p_low, p_high = proportion_confint(counts[1], m, alpha=1 - level, method="beta")
    s_low, s_high = 2 * float(p_low) - 1, 2 * float(p_high) - 1
    q, s = m / n, (counts[1] - counts[2]) / m
    low = q * s - math.hypot(q * (s - s_low), s_low * (q - q_low if s_low >= 0 else q_high - q))
    high = q * s + math.hypot(q * (s_high - s), s_high * (q_high - q if s_high >= 0 else q - q_low))
    return float(max(-1.0, low)), float(min(1.0, high))


def _bot_won(table, bot):
    """1 where ``bot`` won the game (in any of its seats), else 0."""
    return (table["winner_bot"].to_numpy() == bot).astype(float)


def treatment_effect(treated, control, bot: str, level: float = 0.95):
    """The effect of a treatment on ``bot``'s win rate: two arms that played the same games.

    Parameters
    ----------
    treated, control : pandas.DataFrame
        Self-play tables of the two arms (`riskstats.runs.selfplay.play_games`, or two cells of an
        experiment), with the same games: the same seeds and the same line-up in each game.
    bot : str
        The bot whose wins are counted (a game counts once, won if any of its seats won).
    level : float
        Confidence level of the intervals.

    Returns
    -------
    pandas.DataFrame
        One row: bot, games, control_wins, control_rate, treated_wins, treated_rate, effect
        (treated_rate - control_rate), ci_low, ci_high (paired by game: `paired_difference_interval`,
        which excludes 0 exactly when the test rejects, narrower than the unpaired one where the arms'
        wins are positively correlated), p_value (McNemar's exact test), discordant (games
        won in one arm only),
        correlation (of the two arms' wins over games), unpaired_ci_low, unpaired_ci_high (Newcombe's
        interval, as if the arms had played independent games).
    """
    from statsmodels.stats.contingency_tables import mcnemar
    from statsmodels.stats.proportion import confint_proportions_2indep

    _check_level(level)
    for name, arm in (("treated", treated), ("control", control)):
        if len(arm) == 0:
            raise RiskstatsError(f"the {name} arm has no games")
        if bot not in set(",".join(arm["bots"]).split(",")):
            raise RiskstatsError(f"bot {bot!r} does not play in the {name} arm")
    a = treated.sort_values("game") if "game" in treated else treated
    b = control.sort_values("game") if "game" in control else control
    if len(a) != len(b) or not np.array_equal(a["seed"].to_numpy(), b["seed"].to_numpy()):
        raise RiskstatsError("the arms did not play the same games (seeds differ); pair arms of one experiment")
    if not np.array_equal(a["bots"].to_numpy(), b["bots"].to_numpy()):
        raise RiskstatsError("the arms seat different line-ups; a treatment changes parameters, not seats")
    yt, yc = _bot_won(a, bot), _bot_won(b, bot)
    n = len(yt)
    effect = float((yt - yc).mean())
    both, only_t, only_c = int((yt * yc).sum()), int((yt * (1 - yc)).sum()), int(((1 - yt) * yc).sum())
    neither = n - both - only_t - only_c
    p = float(mcnemar([[both, only_t], [only_c, neither]], exact=True).pvalue)
    ci_low, ci_high = paired_difference_interval(both, only_t, only_c, neither, level)
    wt, wc = int(yt.sum()), int(yc.sum())
    low, high = confint_proportions_2indep(wt, n, wc, n, method="newcomb", compare="diff", alpha=1 - level)
    corr = float(np.corrcoef(yt, yc)[0, 1]) if yt.std() > 0 and yc.std() > 0 else float("nan")
    return pd.DataFrame([{"bot": bot, "games": n, "control_wins": wc, "control_rate": wc / n, "treated_wins": wt,
                          "treated_rate": wt / n, "effect": effect, "ci_low": ci_low,
                          "ci_high": ci_high, "p_value": p, "discordant": only_t + only_c,
                          "correlation": corr, "unpaired_ci_low": float(low), "unpaired_ci_high": float(high)}])


def treatment_effects(table, bot: str, column: str | None = None, level: float = 0.95):
    """Every treatment arm of an experiment against its control, for ``bot``'s win rate.

    The arms are the cells of an experiment table (`riskstats.runs.experiment.read_experiment`) that
    differ only in ``column`` (default ``params.<bot>``, the bot's swept parameters); among cells equal
    in every other grid value, the first cell is the control and each other one a treatment. Effects
    come from `treatment_effect` (paired by seed); ``p_holm`` corrects over all the treatments.

    Returns
    -------
    pandas.DataFrame
        One row per treatment: the shared grid values, ``control`` and ``treatment`` (the values of
        ``column``), control_cell, cell, then `treatment_effect`'s columns and p_holm, significant.
    """
    column = column or f"params.{bot}"
    if "cell" not in table.columns or column not in table.columns:
        raise RiskstatsError(f"need an experiment table with cells that sweep {column}")
    _check_level(level)
    first = table.groupby("cell", sort=True).first()
    keys = [k for k in ("variant", "players", "lineup") if k in first.columns]
    keys += [k for k in first.columns if k.startswith(("rules.", "params.")) and k != column]
    rows = []
    groups = first.groupby(keys, sort=False, dropna=False) if keys else [((), first)]
    for values, cells in groups:
        values = values if isinstance(values, tuple) else (values,)
        control_cell = cells.index[0]
        control = table[table["cell"] == control_cell]
        for cell in cells.index[1:]:
            effect = treatment_effect(table[table["cell"] == cell], control, bot, level).iloc[0].to_dict()
            rows.append({**dict(zip(keys, values)), "control": str(cells.loc[control_cell, column]),
                         "treatment": str(cells.loc[cell, column]), "control_cell": control_cell, "cell": cell,
                         **effect})
    if not rows:
        raise RiskstatsError(f"no cells differ only in {column}: nothing to compare")
    frame = pd.DataFrame(rows)
    frame["p_holm"] = _holm(frame["p_value"].to_numpy())
    frame["significant"] = frame["p_holm"] < 1 - level
    return frame



def effect_bound(low: float, high: float) -> float:
    """What an interval that contains 0 does say: the effect's size is below this bound (its farthest end).

    "No effect detected" is reported with it ("|effect| < bound"), never as "unchanged".

    >>> effect_bound(-0.033, 0.017)
    0.033
    """
    return float(max(abs(low), abs(high)))


def equivalent(low: float, high: float, margin: float) -> bool:
    """Whether an interval lies inside (-margin, margin): equivalence within the stated margin.

    With a 95% interval this is the two one-sided tests (TOST) at 2.5% each, so "unchanged within
    ``margin``" may be claimed; an interval that merely contains 0 is not enough.

    >>> equivalent(-0.01, 0.015, 0.02), equivalent(-0.033, 0.017, 0.02)
    (True, False)
    """
    if not margin > 0:
        raise RiskstatsError(f"the equivalence margin must be positive, got {margin}")
    return bool(-margin < low and high < margin)


def equivalence_p_value(estimate: float, low: float, high: float, margin: float) -> float:
    """The two-sided p of an equivalence claim ("|effect| < margin") from a 95% interval, by the normal
    approximation (se = width / (2 * Z95)), scaled so that it falls below 0.05 exactly where the interval decides:

    - an estimate inside the margin: twice the larger of TOST's one-sided p's (effect <= -margin, effect >= margin),
      below 0.05 exactly where the 95% interval lies inside the margin (`equivalent`: the claim holds);
    - an estimate on or beyond it: the two-sided p against the nearer edge, below 0.05 exactly where the interval
      lies beyond it (the opposite claim, "changed by more than the margin", holds).

    So one p serves a robustness row whose ``reference`` is the margin, and a family-wise adjustment of it keeps
    both readings.

    >>> round(equivalence_p_value(0.0, -0.01, 0.01, 0.02), 4)  # well inside: equivalent
    0.0001
    >>> round(equivalence_p_value(0.0, -0.02, 0.02, 0.02), 4)  # the interval touches the margins
    0.05
    >>> round(equivalence_p_value(0.04, 0.02, 0.06, 0.02), 4)  # beyond: the interval touches the edge
    0.05
    """
    from scipy.stats import norm

    if not margin > 0:
        raise RiskstatsError(f"the equivalence margin must be positive, got {margin}")
    se = (high - low) / (2 * Z95)
    if not se > 0:
        return 0.0 if abs(estimate) != margin else 1.0
    if abs(estimate) < margin:
        return float(min(1.0, 2 * max(norm.sf((estimate + margin) / se), norm.cdf((estimate - margin) / se))))
    return float(min(1.0, 2 * norm.sf((abs(estimate) - margin) / se)))


def paired_comparisons(arms: dict, bot: str, level: float = 0.95) -> pd.DataFrame:
    """Every pair of arms that played the same games, paired game by game, Holm over the pairs.

    Parameters
    ----------
    arms : dict
        Label -> self-play table of one arm (all arms with the same seeds and line-ups, as `treatment_effect`
        requires), in the order wanted.
    bot : str
        The bot whose wins are counted.

    Returns
    -------
    pandas.DataFrame
        One row per pair (a before b in ``arms``' order): a, b, rate_a, rate_b, diff (rate_a - rate_b),
        ci_low, ci_high (`paired_difference_interval`), p_value (exact McNemar), correlation, p_holm,
        significant.
    """
    _check_level(level)
    labels = list(arms)
    rows = []
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            e = treatment_effect(arms[a], arms[b], bot, level).iloc[0]
            rows.append({"a": a, "b": b, "rate_a": e.treated_rate, "rate_b": e.control_rate, "diff": e.effect,
                         "ci_low": e.ci_low, "ci_high": e.ci_high, "p_value": e.p_value,
                         "correlation": e.correlation})
    frame = pd.DataFrame(rows, columns=["a", "b", "rate_a", "rate_b", "diff", "ci_low", "ci_high", "p_value",
                                        "correlation"])
    frame["p_holm"] = _holm(frame["p_value"].to_numpy())
    frame["significant"] = frame["p_holm"] < 1 - level
    return frame


def rank_paired(arms: dict, bot: str, level: float = 0.95) -> pd.DataFrame:
    """Arms that played the same games, ranked by paired tests only (`paired_comparisons`).

    A rank is 1 + the number of arms significantly higher in the paired tests (Holm over every pair); arms the
    tests do not separate share a rank.

    Returns
    -------
    pandas.DataFrame
        One row per arm, sorted by rank then by the order of ``arms``: label, games, wins, win_rate, rank,
        higher (the arms credibly above it), lower (those credibly below it).
    """
    if len(arms) < 2:
        raise RiskstatsError("need at least two arms to rank")
    pairs = paired_comparisons(arms, bot, level)
    higher = {g: [] for g in arms}
    lower = {g: [] for g in arms}
    for r in pairs[pairs["significant"]].itertuples():
        top, bottom = (r.a, r.b) if r.diff > 0 else (r.b, r.a)
        higher[bottom].append(top)
        lower[top].append(bottom)
    rows = []
    for order, (label, table) in enumerate(arms.items()):
        wins = int(_bot_won(table, bot).sum())
        rows.append({"label": label, "games": len(table), "wins": wins, "win_rate": wins / len(table),
                     "rank": 1 + len(higher[label]), "higher": ", ".join(higher[label]),
                     "lower": ", ".join(lower[label]), "order": order})
    return pd.DataFrame(rows).sort_values(["rank", "order"], ignore_index=True).drop(columns="order")
