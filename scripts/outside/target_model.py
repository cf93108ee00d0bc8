"""Which seat do Domination's AIs attack? A conditional logit fitted to the per-game records of the outside match
(issue 38 §4: an opponent model learnt from Domination's measured behaviour, not from its source).

    python scripts/outside/target_model.py data/outside/issue38/hold/hunter_4p.jsonl.xz \\
        data/outside/issue38/hold/control_4p.jsonl.xz --out data/outside/issue38/targets

One choice per AI turn: the defender of its first declared attack, among the other seats still in the game, in
rounds ``--rounds`` (default 2-8). Each alternative seat is described at the attacker's turn start (the record's
``starts``): its territories and armies as multiples of a fair share (the board's 42 territories, all armies,
divided among the seats still in), its cards, the continents it holds, and two indicators: the measured seat, and
the measured seat when it is a riskstats bot (not a hard AI; its coefficient is what the features leave
unexplained about how the AIs treat the bot). Adjacency is not in the records: the model says which seat's
position draws attacks, not which border.

The fit (`statsmodels`' `ConditionalLogit`) is checked before its numbers are read: a likelihood-ratio test
against the null model (every seat equally likely), McFadden's pseudo-R², and a calibration table (alternatives
binned by fitted probability: mean fitted against observed share, with the Wilson interval). The coefficients'
95% intervals are clustered by game (`clustered_cov`), since one game's turns are not independent. Writes
``coefficients.csv``, ``calibration.csv`` and ``measured.csv`` (the measured seat's observed share of the
choices per file, the fitted share, the share its features alone predict (the ``bot`` term set to 0) and the fair
share) under ``--out`` and prints them.
"""
from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from riskstats.analysis.outside_records import read_records
from riskstats.intervals import Z95, wilson_interval

FEATURES = ("territories", "armies", "cards", "continents", "measured", "bot")


def choices(paths: list[Path], rounds: tuple[int, int]) -> pd.DataFrame:
    """One row per alternative of each AI turn's first attack: ``choice`` (a running id), ``game`` (file and
    game), ``file``, ``chosen`` and the `FEATURES`."""
    rows = []
    n = 0
    for path in paths:
        for d in read_records(path):
            m, players = d["measured"], d["players"]
            bot = not d["bot"].startswith("domination:")
            starts = {}
            for s in d["starts"]:
                starts.setdefault(s[0], []).append(s)
            seen = set()
            for seat, _, _, defender, turn in d["attacks"]:
                if seat == m or (seat, turn) in seen or not rounds[0] <= (turn - 1) // players <= rounds[1]:
                    continue
                seen.add((seat, turn))
                before = [s for s in starts.get(seat, ()) if s[1] <= turn]
                if not before:
                    continue
                _, _, terr, armies, cards, continents, _ = before[-1]
                alts = [j for j in range(players) if j != seat and terr[j] > 0]
                if defender not in alts or len(alts) < 2:
                    continue
                alive = sum(1 for t in terr if t > 0)
                n += 1
                for j in alts:
                    rows.append({"choice": n, "game": f"{path.name}:{d['game']}", "file": path.name,
                                 "chosen": int(j == defender), "territories": terr[j] * alive / sum(terr),
                                 "armies": armies[j] * alive / sum(armies), "cards": cards[j],
                                 "continents": sum(1 for c in continents if c == j), "measured": int(j == m),
                                 "bot": int(j == m and bot)})
    return pd.DataFrame(rows)


def fit(df: pd.DataFrame, features: list[str]):
    """The conditional logit of ``chosen`` on ``features``, grouped by ``choice``."""
    from statsmodels.discrete.conditional_models import ConditionalLogit

    return ConditionalLogit(df["chosen"], df[features], groups=df["choice"]).fit(disp=False)


def fitted(df: pd.DataFrame, features: list[str], params) -> np.ndarray:
    """Each alternative's fitted probability of being chosen."""
    u = np.exp(df[features].to_numpy(float) @ np.asarray(params, float))
    return u / pd.Series(u).groupby(df["choice"].to_numpy()).transform("sum").to_numpy()


def clustered_cov(df: pd.DataFrame, features: list[str], res) -> np.ndarray:
    """The coefficients' covariance with the scores summed by game (the sandwich ``C S C``, ``C`` the model's
    inverse information, ``S`` the sum over games of each game's score outer product): one game's turns are not
    independent choices."""
    x = df[features].to_numpy(float)
    p = fitted(df, features, res.params)
    mean = pd.DataFrame(x * p[:, None]).groupby(df["choice"].to_numpy()).transform("sum").to_numpy()
    score = (x - mean) * df["chosen"].to_numpy()[:, None]  # each choice's score, on its chosen row
    by_game = pd.DataFrame(score).groupby(df["game"].to_numpy()).sum().to_numpy()
    c = np.asarray(res.cov_params())
    return c @ (by_game.T @ by_game) @ c


def calibration(df: pd.DataFrame) -> pd.DataFrame:
    """The fit check: the alternatives in ten bins of fitted probability ``p``, each bin's mean fitted and observed
    share chosen, with the observed share's Wilson interval."""
    rows = []
    for b, part in df.groupby(pd.qcut(df["p"], 10, labels=False, duplicates="drop")):
        low, high = wilson_interval(int(part["chosen"].sum()), len(part))
        rows.append({"bin": b, "alternatives": len(part), "fitted": part["p"].mean(),
                     "observed": part["chosen"].mean(), "ci_low": low, "ci_high": high})
    return pd.DataFrame(rows)


def measured_shares(df: pd.DataFrame, features: list[str], params) -> pd.DataFrame:
    """Per file, the measured seat's share of the choices it was in: observed (Wilson interval), fitted (``p``),
    predicted by its features alone (the ``bot`` term set to 0) and fair (one over the alternatives)."""
    alone = fitted(df, features, np.where(np.array(features) == "bot", 0.0, np.asarray(params)))
    sizes = df.groupby("choice").size()
    rows = []
    for name, part in df[df["measured"] == 1].groupby("file"):
        low, high = wilson_interval(int(part["chosen"].sum()), len(part))
        rows.append({"file": name, "choices": len(part), "observed": part["chosen"].mean(), "ci_low": low,
                     "ci_high": high, "fitted": part["p"].mean(), "features_only": alone[part.index].mean(),
                     "fair": (1 / sizes.loc[part["choice"]]).mean()})
    return pd.DataFrame(rows)


def _rounds(text: str) -> tuple[int, int]:
    """``--rounds`` as (first, last): two whole numbers ``a-b`` with a <= b."""
    try:
        lo, hi = (int(x) for x in text.split("-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"rounds must be two whole numbers as 2-8, got {text!r}") from None
    if not 0 <= lo <= hi:
        raise argparse.ArgumentTypeError(f"rounds must run from a first to a later round, got {text!r}")
    return lo, hi


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records", nargs="+", type=Path, help="per-game records (*.jsonl.xz, *.jsonl.gz) of the match")
    ap.add_argument("--rounds", type=_rounds, default=(2, 8), help="the rounds whose AI turns count (default 2-8)")
    ap.add_argument("--out", type=Path, help="folder for the three tables")
    args = ap.parse_args(argv)
    df = choices(args.records, args.rounds)
    features = [f for f in FEATURES if df[f].nunique() > 1]
    res = fit(df, features)
    params = np.asarray(res.params)
    n_choices = df["choice"].nunique()
    null_ll = -np.log(df.groupby("choice").size()).sum()
    lr = 2 * (res.llf - null_ll)
    from scipy.stats import chi2

    se = np.sqrt(np.diag(clustered_cov(df, features, res)))
    coef = pd.DataFrame({"feature": features, "coefficient": params, "se": se, "ci_low": params - Z95 * se,
                         "ci_high": params + Z95 * se, "choices": n_choices, "games": df["game"].nunique()})
    print(f"{n_choices} choices in {df['game'].nunique()} games; log-likelihood {res.llf:.1f} against {null_ll:.1f} "
          f"(every seat alike): LR {lr:.1f} on {len(features)} df, p = {chi2.sf(lr, len(features)):.2g}; "
          f"McFadden's pseudo-R² {1 - res.llf / null_ll:.3f}")
    df["p"] = fitted(df, features, params)
    cal, meas = calibration(df), measured_shares(df, features, params)
    for table in (coef, cal, meas):
        print(table.to_string(index=False))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        coef.to_csv(args.out / "coefficients.csv", index=False)
        cal.to_csv(args.out / "calibration.csv", index=False)
        meas.to_csv(args.out / "measured.csv", index=False)


if __name__ == "__main__":
    main()
