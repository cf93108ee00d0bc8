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
one threshold by which an estimator is called calibrated, `ECE_TARGET`, and `calibration_verdicts`, which judges
the scores' intervals by it (notebook 06 and ``docs/position_value.md`` use this threshold and no other).

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
"""The expected calibration error (10 equal-width bins) at or below which a P(win) estimate is called calibrated:
the position value's target (``docs/position_value.md``) and notebook 06's test of every estimator."""


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
