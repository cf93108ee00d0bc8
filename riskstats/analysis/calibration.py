"""Calibration of the P(win) estimates against real outcomes: positions of real games, each estimator's
P(win) there, and who went on to win.

This module owns `calibration_positions` (turn starts of seeded games, a few per game, with the game's
winner), `calibration_predictions` (at each position every player's P(win) by `riskstats.game.evaluate`'s
rollouts, by the fitted position value `riskstats.game.evaluate.position_value`, and optionally by rollouts
with the game's own bots), `calibration_scores` (ECE over 10 bins, Brier and log loss of each estimator,
with percentile intervals from a bootstrap that resamples whole games, since positions of one game are
correlated) and `calibration_reliability` (the reliability table of each estimator, Wilson intervals per
bin). The scores and the reliability table themselves are `riskstats.game.value_fit.scores` and
`riskstats.game.value_fit.reliability` (the position value's own validation uses them too). It also owns the
fit target of the position value, `ECE_TARGET`, with `calibration_verdicts` (the scores' intervals against it) and
`ece_noise_floor` (the ECE that calibrated predictions reach by chance at a sample's size: below it the target
cannot be resolved), and the test of calibration against its own null, `calibration_consistency` (consistency
resampling: the winners redrawn from the predictions themselves; notebook 06's robustness rows use it).

>>> import pandas as pd
>>> preds = pd.DataFrame({"game": [0, 0, 1, 1], "turn": 1, "player": [0, 1, 0, 1], "alive": True,
...                       "won": [1, 0, 0, 1], "p_model": [0.9, 0.1, 0.2, 0.8]})
>>> calibration_scores(preds, ["model"], boot=20)[["estimator", "positions", "games"]].values.tolist()
[['model', 2, 2]]
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from riskstats.errors import RiskstatsError, check_int

ECE_TARGET = 0.02
"""The expected calibration error (10 equal-width bins) the position value is fitted to reach
(``docs/position_value.md``, on tens of thousands of positions). At a few thousand positions calibrated predictions
themselves reach about this ECE by chance (`ece_noise_floor`), so a sample that small cannot show an estimator within
it; notebook 06 tests calibration by `calibration_consistency` instead."""
CONSISTENCY_DRAWS = 20_000
"""Redraws of the winners in `calibration_consistency`: its smallest p is 1 / (draws + 1), small enough to survive
Holm over the top tier's rows (about a hundred) where no redraw reaches the observed ECE."""


def calibration_positions(table: pd.DataFrame, per_game: int = 4, rules=None, board=None, seed: int = 0,
                          params: dict | None = None) -> list[dict]:
    """Turn starts of the games of ``table`` (`riskstats.runs.selfplay.play_games`), ``per_game`` of them per
    game evenly spread over the game from an offset drawn from ``seed`` and the game's index (as
    `riskstats.game.value_fit.sample_positions` keeps them), with the game's winner.

    Each entry: ``game``, ``turn``, ``round``, ``winner`` (the game's; turn-capped games give no entry),
    ``bots`` and ``position`` (a `riskstats.game.play.Game`).
    """
    from riskstats.analysis.trajectories import TURN_PHASES, replay_game
    from riskstats.game.play import Game
    from riskstats.game.rules.board import classic_board

    per_game = check_int("per_game", per_game, 1, 100)
    seed = check_int("seed", seed, 0)
    board = board or classic_board()
    found = []
    for row in table.itertuples():
        if row.winner < 0:
            continue
        bots = row.bots.split(",")
        starts, last = [], -1
        for game in replay_game(row, rules, board, params):
            if not game.over and game.turn >= 1 and game.turn != last and game.phase in TURN_PHASES:
                last = game.turn
                starts.append((game.turn, game.round, game.to_json(indent=None)))
        keep = min(per_game, len(starts))
        u = np.random.default_rng([seed, int(row.game)]).random()
        for j in range(keep):
            turn, rnd, text = starts[min(len(starts) - 1, int((j + u) * len(starts) / keep))]
            found.append({"game": row.game, "turn": turn, "round": rnd, "winner": int(row.winner), "bots": bots,
                          "position": Game.from_json(text, board)})
    return found


def calibration_predictions(positions: list[dict], rollouts: int = 200, bot: str | None = None, seed: int = 0,
                            own_rollouts: int = 0, params: dict | None = None) -> pd.DataFrame:
    """Every player's P(win) at each position (`calibration_positions`) by each estimator, beside the outcome.

    ``p_evaluate``: `riskstats.game.evaluate.evaluate` with ``rollouts`` rollouts of ``bot`` (its default
    bot if None) in every seat; ``p_model``: the fitted position value (``evaluate --rollouts 0``);
    ``p_strong``: the position value refitted with search self-play added (``model="strong"``);
    ``p_own`` (if ``own_rollouts`` > 0): that many rollouts with the game's own bots in their seats. Long
    form, one row per position and player: ``game``, ``turn``, ``round``, ``player``, ``alive`` (in play),
    ``won`` (1 if the player won the game), then the estimators' columns.
    """
    from riskstats.game.evaluate import DEFAULT_BOT, evaluate, position_value
    from riskstats.game.rollout import rollouts as roll

    rollouts = check_int("rollouts", rollouts, 1)
    own_rollouts = check_int("own_rollouts", own_rollouts, 0)
    if not positions:
        raise RiskstatsError("no positions to evaluate")
    seeds = np.random.SeedSequence(seed).generate_state(len(positions), np.uint32)
    frames = []
    for entry, s in zip(positions, seeds):
        game = entry["position"]
        players = game.players
        frame = pd.DataFrame({"game": entry["game"], "turn": entry["turn"], "round": entry["round"],
                              "player": np.arange(players), "alive": game.state.alive[:players] == 1,
                              "won": (np.arange(players) == entry["winner"]).astype(int)})
        frame["p_evaluate"] = evaluate(game, bot or DEFAULT_BOT, rollouts, int(s), top=0).players.p_win.to_numpy()
        frame["p_model"] = position_value(game, features=False).p_win.to_numpy()
        frame["p_strong"] = position_value(game, features=False, model="strong").p_win.to_numpy()
        if own_rollouts:
            bots = [(b, (params or {}).get(b)) for b in entry["bots"]]
            winner = roll(game, own_rollouts, bots=bots, seed=int(s)).winner.to_numpy()
            frame["p_own"] = np.bincount(winner[winner >= 0], minlength=players)[:players] / own_rollouts
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def _arrays(preds: pd.DataFrame, estimator: str):
    """One estimator's predictions as value_fit's arrays: p [n, players], alive [n, players], winner [n],
    and each position's game [n]."""
    column = f"p_{estimator}"
    if column not in preds.columns:
        raise RiskstatsError(f"no column {column!r} in the predictions")
    preds = preds.sort_values(["game", "turn", "player"])
    players = int(preds.player.max()) + 1
    p = preds[column].to_numpy(float).reshape(-1, players)
    alive = preds.alive.to_numpy(bool).reshape(-1, players)
    won = preds.won.to_numpy(int).reshape(-1, players)
    if not (won.sum(axis=1) == 1).all():
        raise RiskstatsError("every position needs one winner among its players")
    return p, alive, won.argmax(axis=1), preds.game.to_numpy()[::players]


def calibration_scores(preds: pd.DataFrame, estimators=("evaluate", "model"), bins: int = 10, boot: int = 500,
                       seed: int = 0, level: float = 0.95) -> pd.DataFrame:
    """ECE (``bins`` equal-width bins), Brier and log loss of each estimator (`riskstats.game.value_fit.scores`),
    with percentile intervals from ``boot`` resamples of whole games.

    One row per estimator: ``estimator``, ``positions``, ``games``, then ``ece``, ``brier``, ``log_loss``, each
    with ``*_low`` and ``*_high``. A log loss clips a predicted 0 for the winner at 1e-15 (rollout
    estimates can say 0).
    """
    from riskstats.game.value_fit import scores

    boot = check_int("boot", boot, 1)
    bins = check_int("bins", bins, 1)
    rows = []
    for estimator in estimators:
        p, alive, winner, games = _arrays(preds, estimator)
        point = scores(p, alive, winner, bins)
        ids, where = np.unique(games, return_inverse=True)
        members = [np.flatnonzero(where == g) for g in range(len(ids))]
        rng = np.random.default_rng(seed)
        draws = []
        for _ in range(boot):
            pick = np.concatenate([members[g] for g in rng.integers(0, len(ids), len(ids))])
            s = scores(p[pick], alive[pick], winner[pick], bins)
            draws.append((s["ece"], s["brier"], s["log_loss"]))
        low, high = np.quantile(np.array(draws), [(1 - level) / 2, (1 + level) / 2], axis=0)
        row = {"estimator": estimator, "positions": point["positions"], "games": len(ids)}
        for k, name in enumerate(("ece", "brier", "log_loss")):
            row.update({name: point[name], f"{name}_low": low[k], f"{name}_high": high[k]})
        rows.append(row)
    return pd.DataFrame(rows)


def calibration_reliability(preds: pd.DataFrame, estimators=("evaluate", "model"), bins: int = 10) -> pd.DataFrame:
    """Each estimator's reliability table (`riskstats.game.value_fit.reliability`: per bin of the (position,
    player in play) predictions, count, mean prediction, observed win rate and its 95% Wilson interval),
    stacked with an ``estimator`` column."""
    from riskstats.game.value_fit import reliability

    frames = []
    for estimator in estimators:
        p, alive, winner, _ = _arrays(preds, estimator)
        frames.append(reliability(p, alive, winner, bins).assign(estimator=estimator))
    return pd.concat(frames, ignore_index=True)


def calibration_verdicts(scores: pd.DataFrame, target: float = ECE_TARGET) -> pd.DataFrame:
    """Judge `calibration_scores`' ECE intervals by ``target`` (default `ECE_TARGET`).

    Returns the scores with ``target``, ``calibrated`` (the interval's upper end at or below the target: the
    estimator is calibrated to it) and ``miscalibrated`` (its lower end above the target) added; an estimator
    that is neither is not resolved by these positions.

    >>> s = pd.DataFrame({"estimator": ["a", "b", "c"], "ece": [0.01, 0.04, 0.02], "ece_low": [0.005, 0.03, 0.01],
    ...                   "ece_high": [0.015, 0.05, 0.03]})
    >>> calibration_verdicts(s)[["calibrated", "miscalibrated"]].values.tolist()
    [[True, False], [False, True], [False, False]]
    """
    missing = {"ece", "ece_low", "ece_high"} - set(scores.columns)
    if missing:
        raise RiskstatsError(f"the scores lack the columns {', '.join(sorted(missing))}")
    if not 0 < target < 1:
        raise RiskstatsError(f"the ECE target must lie in (0, 1), got {target}")
    return scores.assign(target=target, calibrated=scores["ece_high"] <= target,
                         miscalibrated=scores["ece_low"] > target)


def _null_eces(p, alive, bins: int, draws: int, seed: int) -> np.ndarray:
    """The ECE of ``draws`` outcome sets drawn from the predictions themselves: at each position one winner among
    the players in play, with probability its prediction (normalised over them; uniform where they sum to 0)."""
    p = np.where(alive, np.asarray(p, float), 0.0)
    total = p.sum(axis=1, keepdims=True)
    share = np.where(total > 0, p / np.where(total > 0, total, 1.0), alive / alive.sum(axis=1, keepdims=True))
    cum = np.cumsum(share, axis=1)
    cum[:, -1] = np.inf  # rounding never leaves a position without a winner
    which = np.minimum((p * bins).astype(int), bins - 1)  # each (position, player)'s bin, as value_fit.scores
    flat = np.where(alive, which, bins)  # players out of play go to a bin that is not counted
    predicted = np.bincount(which[alive], weights=p[alive], minlength=bins)
    n = int(alive.sum())
    rng = np.random.default_rng(seed)
    out = np.empty(draws)
    positions = np.arange(len(p))
    for d in range(draws):
        winner = (rng.random(len(p))[:, None] >= cum).sum(axis=1)
        wins = np.bincount(flat[positions, winner], minlength=bins + 1)[:bins]
        out[d] = np.abs(predicted - wins).sum() / n
    return out


def calibration_consistency(preds: pd.DataFrame, estimators=("evaluate", "model"), bins: int = 10,
                            draws: int = CONSISTENCY_DRAWS, seed: int = 0) -> pd.DataFrame:
    """Test each estimator's calibration against its own null by consistency resampling (Bröcker & Smith 2007).

    If the predictions were calibrated, each position's winner would be a draw from them. So the winners are
    redrawn ``draws`` times from the predictions (one winner per position among the players in play, with
    probability its prediction), the ECE (``bins`` equal-width bins, `riskstats.game.value_fit.scores`) of each
    redraw is computed against the same predictions, and the p-value is the share of redraws whose ECE reaches the
    observed one, counted as (k + 1) / (draws + 1). The redraws treat positions as independent given the
    predictions; positions of one game share its winner, so the real noise is somewhat larger and the p-value is
    somewhat too small (it errs towards calling an estimator miscalibrated).

    Returns one row per estimator: ``estimator``, ``positions``, ``ece`` (observed), ``null_mean`` and
    ``null_q95`` (the mean and 95th percentile of the redraws' ECE: the noise floor of calibrated predictions at
    this size), ``draws``, ``p_value`` and ``miscalibrated`` (p below 0.05).

    >>> rng = np.random.default_rng(1)
    >>> p0 = rng.uniform(size=1200)
    >>> won0 = (rng.uniform(size=1200) < p0).astype(int)  # seat 0 wins with its predicted probability
    >>> preds = pd.DataFrame({"game": np.repeat(np.arange(1200), 2), "turn": 1, "player": np.tile([0, 1], 1200),
    ...                       "alive": True, "won": np.column_stack([won0, 1 - won0]).ravel(),
    ...                       "p_model": np.column_stack([p0, 1 - p0]).ravel()})
    >>> bool(calibration_consistency(preds, ["model"], draws=200).miscalibrated.iloc[0])
    False
    """
    from riskstats.game.value_fit import scores

    draws = check_int("draws", draws, 1)
    bins = check_int("bins", bins, 1)
    rows = []
    for k, estimator in enumerate(estimators):
        p, alive, winner, _ = _arrays(preds, estimator)
        observed = scores(p, alive, winner, bins)["ece"]
        null = _null_eces(p, alive, bins, draws, seed + k)
        reached = int((null >= observed - 1e-12).sum())
        p_value = (reached + 1) / (draws + 1)
        rows.append({"estimator": estimator, "positions": len(winner), "ece": observed,
                     "null_mean": float(null.mean()), "null_q95": float(np.quantile(null, 0.95)), "draws": draws,
                     "p_value": p_value, "miscalibrated": p_value < 0.05})
    return pd.DataFrame(rows)


def ece_noise_floor(preds: pd.DataFrame, estimator: str, bins: int = 10, draws: int = 500, seed: int = 0) -> float:
    """The 95th percentile of the ECE that ``estimator``'s own predictions reach when the winners are drawn from
    them (`calibration_consistency`'s null): an ECE target below it cannot be shown at this sample's size."""
    p, alive, _, _ = _arrays(preds, estimator)
    return float(np.quantile(_null_eces(p, alive, check_int("bins", bins, 1), check_int("draws", draws, 1), seed),
                             0.95))
