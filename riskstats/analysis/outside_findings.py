"""The guide's answers checked in Domination's engine (issue 52 item 4): the outside experiments of
``data/outside/findings/`` (``scripts/outside/findings.py``) read into their verdicts.

Two kinds of arm, each a CSV of the outside match (`scripts/outside/outside_domination.py`, one row a game, the
measured seat against Domination's hard AIs, the first player balanced):

- **treatments** (`TREATMENTS`): the hunter with one of the guide's treatments against the hunter without
  (``hunter_4p``), on the same game numbers. Domination's AIs do not replay a game from its number, so the arms are
  independent samples: the effect on the hunter's win rate has Newcombe's hybrid score interval and the score test's
  p, Holm over the treatments (`treatment_effects`). Each row says whether the guide's claim holds there, is
  reversed, or neither (`ROW_VERDICTS`).
- **card modes** (`CARD_MODES`): hard AIs in every seat under Domination's increasing and fixed sets; game length
  (Domination's turn count, every player's turn) and the first player's share of the wins, against the fair share
  (`card_modes`).

>>> sorted(TREATMENTS)[:2]
['hunter_break_always_4p', 'hunter_claim_random_4p']
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from riskstats.errors import RiskstatsError
from riskstats.stats.robustness import ALPHA, ROW_VERDICTS

CONTROL = "hunter_4p"
"""The control arm of the treatments: the hunter as it plays (its own first continent, stacking, fortifying to the
most threatened border, trading at once, its claim rule, breaking at P(conquer) >= 0.65)."""
TREATMENTS = {
    "hunter_first_australia_4p": ("02", "claiming and going for Australia first beats the own choice", 1),
    "hunter_first_south_america_4p": ("02", "claiming and going for South America first beats the own choice", 1),
    "hunter_trade_hold_4p": ("03", "holding cards until forced lowers the holder's win rate", -1),
    "hunter_break_always_4p": ("06", "forcing a break of a rival's continent raises the mover's P(win)", 1),
    "hunter_fortify_spread_4p": ("07", "fortifying to the most threatened border beats evening out the borders "
                                    "(fortify=spread)", -1),
    "hunter_fortify_none_4p": ("07", "fortifying to the most threatened border beats never fortifying (fortify=none)",
                               -1),
    "hunter_reinforce_spread_4p": ("07", "stacking the reinforcements beats spreading them over the threatened borders "
                                      "(reinforce=spread)", -1),
    "hunter_claim_random_4p": ("07", "the bot's claim rule beats random claims (claim=random)", -1),
}
"""Treatment arm -> (notebook, the finding's words as ``data/robustness/verdicts.csv`` has them, the sign of the
claim: +1 where it says the treatment wins more than the control, -1 where it says less). The break arm breaks at any
odds its stop rule allows (``break_threshold=0``) all game, where the guide's break is forced once from a position."""
CARD_MODES = {"cards_increasing_4p": "increasing", "cards_fixed_4p": "fixed"}
"""Card-mode arm -> Domination's card mode (hard AIs in every seat)."""


def _folder(folder) -> Path:
    from riskstats.analysis.paths import data_dir

    return Path(folder) if folder is not None else data_dir() / "outside" / "findings"


def _arm(folder: Path, name: str) -> pd.DataFrame:
    path = folder / f"{name}.csv"
    if not path.is_file():
        raise RiskstatsError(f"no outside arm {name!r} at {path} (scripts/outside/findings.py plays it)")
    games = pd.read_csv(path)
    if games.empty:
        raise RiskstatsError(f"the outside arm {path} holds no game")
    return games


def _row_verdict(sign: int, low: float, high: float) -> str:
    """The claim's verdict from the effect's interval: it holds where the interval lies on the claim's side of 0
    (``sign``), is reversed where it lies on the other side."""
    low, high = sorted((sign * low, sign * high))
    return ROW_VERDICTS[0] if low > 0 else ROW_VERDICTS[1] if high < 0 else ROW_VERDICTS[2]


def treatment_effects(folder=None, arms=None) -> pd.DataFrame:
    """Each treatment's effect on the hunter's win rate against Domination's hard AIs, against `CONTROL`.

    Parameters
    ----------
    folder : path, optional
        The arms' CSVs (default ``data/outside/findings``).
    arms : iterable of str, optional
        The treatment arms to read (default: those of `TREATMENTS` present in the folder).

    Returns
    -------
    pandas.DataFrame
        One row per treatment: ``arm``, ``bot``, ``notebook``, ``finding``, ``n``, ``win_rate`` with its Wilson
        ``ci_low``/``ci_high``, the control's ``control_n``, ``control_win_rate``, ``control_ci_low``,
        ``control_ci_high``, ``effect`` (treatment minus control) with Newcombe's ``effect_low``/``effect_high``,
        ``p_value`` (score test, two-sided), ``p_holm`` (over the rows) and ``verdict`` (`ROW_VERDICTS`: the finding's
        claim against the effect's interval; with ``verdict_adjusted`` kept only where ``p_holm`` < `ALPHA`).
    """
    from statsmodels.stats.multitest import multipletests
    from statsmodels.stats.proportion import confint_proportions_2indep, test_proportions_2indep

    from riskstats.intervals import wilson_interval

    folder = _folder(folder)
    if arms is None:
        arms = [a for a in TREATMENTS if (folder / f"{a}.csv").is_file()]
    unknown = [a for a in arms if a not in TREATMENTS]
    if unknown:
        raise RiskstatsError(f"unknown treatment arm {unknown[0]!r}; known: {', '.join(TREATMENTS)}")
    control = _arm(folder, CONTROL)
    c_wins, c_n = int(control.remote_won.sum()), len(control)
    c_low, c_high = wilson_interval(c_wins, c_n)
    rows = []
    for arm in arms:
        games = _arm(folder, arm)
        wins, n = int(games.remote_won.sum()), len(games)
        low, high = wilson_interval(wins, n)
        e_low, e_high = confint_proportions_2indep(wins, n, c_wins, c_n, method="newcomb")
        p = float(test_proportions_2indep(wins, n, c_wins, c_n, method="score").pvalue)
        notebook, finding, sign = TREATMENTS[arm]
        rows.append({"arm": arm, "bot": str(games.remote.iloc[0]), "notebook": notebook, "finding": finding,
                     "n": n, "win_rate": wins / n, "ci_low": low, "ci_high": high, "control_n": c_n,
                     "control_win_rate": c_wins / c_n, "control_ci_low": c_low, "control_ci_high": c_high,
                     "effect": wins / n - c_wins / c_n, "effect_low": float(e_low), "effect_high": float(e_high),
                     "p_value": p, "sign": sign})
    table = pd.DataFrame(rows)
    if table.empty:
        raise RiskstatsError(f"no treatment arm in {folder}")
    table["p_holm"] = multipletests(table.p_value, method="holm")[1]
    table["verdict"] = [_row_verdict(s, lo, hi) for s, lo, hi in zip(table.sign, table.effect_low,
                                                                      table.effect_high)]
    table["verdict_adjusted"] = np.where(table.p_holm < ALPHA, table.verdict, ROW_VERDICTS[2])
    return table.drop(columns="sign")


def card_modes(folder=None) -> pd.DataFrame:
    """Game length and the first player's edge under each of Domination's card modes (`CARD_MODES`), hard AIs in
    every seat.

    Returns one row per mode: ``mode``, ``games``, ``mean_turns`` with its 95% t interval, ``first_wins`` (games the
    first player won), ``first_share`` with its Wilson interval, ``fair`` (1/players), ``draws``; and a last row
    ``increasing - fixed`` with the difference in mean turns (Welch interval) and in the first player's share
    (Newcombe interval).
    """
    from scipy import stats
    from statsmodels.stats.proportion import confint_proportions_2indep

    from riskstats.intervals import wilson_interval

    folder = _folder(folder)
    rows, turns_of = [], {}
    for name, mode in CARD_MODES.items():
        games = _arm(folder, name)
        turns = turns_of[mode] = games.turns.to_numpy(float)
        half = stats.t.ppf(0.975, len(turns) - 1) * turns.std(ddof=1) / np.sqrt(len(turns))
        first = int((games.winner == games.first_player).sum())
        low, high = wilson_interval(first, len(games))
        rows.append({"mode": mode, "games": len(games), "mean_turns": turns.mean(), "turns_low": turns.mean() - half,
                     "turns_high": turns.mean() + half, "first_wins": first, "first_share": first / len(games),
                     "first_low": low, "first_high": high, "fair": 1 / int(games.players.iloc[0]),
                     "draws": int((games.winner < 0).sum())})
    a, b = turns_of["increasing"], turns_of["fixed"]
    welch = stats.ttest_ind(a, b, equal_var=False)
    t_low, t_high = welch.confidence_interval(0.95)
    fa, fb = (r["first_wins"] for r in rows)  # CARD_MODES' order: increasing, fixed
    f_low, f_high = confint_proportions_2indep(fa, len(a), fb, len(b), method="newcomb")
    rows.append({"mode": "increasing - fixed", "games": len(a) + len(b), "mean_turns": a.mean() - b.mean(),
                 "turns_low": float(t_low), "turns_high": float(t_high), "first_share": fa / len(a) - fb / len(b),
                 "first_low": float(f_low), "first_high": float(f_high), "turns_p": float(welch.pvalue)})
    return pd.DataFrame(rows)


CARD_FINDINGS = {
    "length": ("03", "progressive sets make games longer than fixed escalation (rounds)"),
    "first": ("04", "seat 0 (moves first) wins more than its fair share 1/4, 4 players"),
}
"""The findings the card-mode arms check: game length under increasing against fixed sets (Domination's turns,
hard AIs in every seat), and the first player's share of the wins under increasing sets (Domination's default)."""


def _text(estimate: float, low: float, high: float, n: int, unit: str = "points") -> str:
    """An estimate as the verdict table writes it: in points (of a share) or in another unit, with its interval."""
    scale = 100 if unit == "points" else 1
    return f"{scale * estimate:+.1f} {unit} [{scale * low:+.1f}, {scale * high:+.1f}] (n = {n})"


def outside_verdicts(folder=None) -> pd.DataFrame:
    """Every finding the outside experiments check, with its verdict against Domination's hard AI.

    Returns one row per finding: ``notebook``, ``finding`` (as ``data/robustness/verdicts.csv`` has it),
    ``outside`` (`ROW_VERDICTS` after Holm over these rows: ``holds``, ``reversed`` or ``inconclusive``),
    ``outside_unadjusted``, ``outside_estimate`` (the effect in points, or in turns for game length, with its 95%
    interval and n), ``outside_bots`` (who played) and ``outside_p``. The treatments come from `treatment_effects`
    (the arms present), the card findings from `card_modes` (when both modes are present).
    """
    from scipy import stats
    from statsmodels.stats.multitest import multipletests

    folder = _folder(folder)
    rows = []
    if (folder / f"{CONTROL}.csv").is_file():
        for r in treatment_effects(folder).itertuples():
            rows.append({"notebook": r.notebook, "finding": r.finding, "outside_unadjusted": r.verdict,
                         "outside_estimate": _text(r.effect, r.effect_low, r.effect_high, r.n),
                         "outside_bots": f"{r.bot} against hunter, one seat each against three hard AIs",
                         "outside_p": r.p_value})
    if all((folder / f"{a}.csv").is_file() for a in CARD_MODES):
        modes = card_modes(folder).set_index("mode")
        diff, inc = modes.loc["increasing - fixed"], modes.loc["increasing"]
        notebook, finding = CARD_FINDINGS["length"]
        rows.append({"notebook": notebook, "finding": finding,
                     "outside_unadjusted": _row_verdict(1, diff.turns_low, diff.turns_high),
                     "outside_estimate": _text(diff.mean_turns, diff.turns_low, diff.turns_high, int(diff.games),
                                               "turns"),
                     "outside_bots": "hard AIs in every seat, increasing against fixed sets",
                     "outside_p": diff.turns_p})
        notebook, finding = CARD_FINDINGS["first"]
        first = stats.binomtest(int(inc.first_wins), int(inc.games), inc.fair)
        rows.append({"notebook": notebook, "finding": finding,
                     "outside_unadjusted": _row_verdict(1, inc.first_low - inc.fair, inc.first_high - inc.fair),
                     "outside_estimate": _text(inc.first_share - inc.fair, inc.first_low - inc.fair,
                                               inc.first_high - inc.fair, int(inc.games)),
                     "outside_bots": "hard AIs in every seat, increasing sets", "outside_p": first.pvalue})
    table = pd.DataFrame(rows, columns=["notebook", "finding", "outside_unadjusted", "outside_estimate",
                                        "outside_bots", "outside_p"])
    if table.empty:
        return table.assign(outside=pd.Series(dtype=str))
    holm = multipletests(table.outside_p, method="holm")[1]
    table.insert(2, "outside", np.where(holm < ALPHA, table.outside_unadjusted, ROW_VERDICTS[2]))
    return table
