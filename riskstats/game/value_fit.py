"""Fitting the position value: positions sampled from seeded self-play, and the conditional logit fitted on them.

This module owns `sample_positions` (games played by a line-up, each game's turn starts sampled, the
`riskstats.game.value.FEATURES` of every player recorded with the game's winner, beside the two baselines
the model is judged against), `fit_weights` (the multinomial/conditional logit over the seats, fitted by
maximum likelihood), `predict` (the model's P(win) from sampled features, as the compiled value computes
it), `scores` (log loss, Brier and calibration) and `fit_model` (a whole fit from a list of line-ups, what
``scripts/make/fit_value.py`` runs and writes). It does not own the features or the compiled model
(`riskstats.game.value`).

**The likelihood.** Position i with players j in play and winner w_i has log-likelihood
``x_iw . b - log sum_j exp(x_ij . b)``: McFadden's conditional logit, the softmax over seats of
`riskstats.game.value`. statsmodels' ``ConditionalLogit`` fits exactly this model (a test checks the
two agree), but loops over the groups in Python; here the same likelihood is vectorised over padded
arrays and minimised by scipy's L-BFGS with its exact gradient and a small ridge penalty (``l2``) that
keeps the optimum unique when a feature is constant (missions outside Secret Mission). Deterministic:
the same positions give the same coefficients.

**Sampling.** Each game is played to its end; every turn start (the position a search leaf sees) is
recorded, then ``per_game`` of them, evenly spread over the game from an offset drawn from the game's
seed, are kept. Turn-capped games (no winner) are dropped.
"""
from __future__ import annotations

import numba
import numpy as np
from numba import prange

from riskstats._numba import parallel_jit
from riskstats.errors import RiskstatsError, check_int
from riskstats.game.bots.roster import roster_for
from riskstats.game.drive import _drive, _start_game
from riskstats.game.loop import NO_HORIZON
from riskstats.game.rules.options import R_SEATS, VARIANTS, GameRules, default_rules
from riskstats.game.rules.state import I_MOVES, I_PHASE, I_ROUND, I_TURN, I_WINNER, OVER
from riskstats.game.search import _value
from riskstats.game.value import FEATURES, N_FEATURES, N_INPUTS, _boosted_inputs, _features
from riskstats.pieces import in_pieces

MAX_RECORDED = 600
"""Turn starts recorded per game before sampling (later ones are not recorded)."""


@parallel_jit
def _sample(seeds, lineup_bots, lineup_params, B, R, CUT, V, seats, per_game, roster, X, base,
            meta):  # pragma: no cover
    """Play game g (seat s plays line-up entry (s + g) % P) and keep ``per_game`` of its turn starts:
    X[g, j, s] the boosted model's inputs (`FEATURES` first) of player s at kept start j, base[g, j, s] = (the
    search bot's formula value, territory share), meta[g, j] = (turn, round, alive players, winner, moves
    applied) (-1 rows: not kept).

    Parameters
    ----------
    seeds : uint64[G]
        Each game's seed.
    lineup_bots : int64[P]
        The line-up's bot ids (`riskstats.game.bots.catalog.Lineup.arrays`).
    lineup_params : float64[P, N_PARAMS]
        Their parameter vectors.
    B, R, CUT, V
        The context (`riskstats.game.rules.context.compile_context`): the board arrays (`BoardArrays`), the rule
        vector (int64[R_SIZE]), the one-roll table and the P(conquer) table.
    seats : int
        Seats at the table.
    per_game : int
        Turn starts kept per game (drawn from the game's recorded ones, at most `MAX_RECORDED`).
    roster : tuple
        The line-up's roster (`riskstats.game.bots.roster.roster_for`): the bots compiled in.
    X : float64[G, per_game, P, N_INPUTS]
        Written: the model's inputs, as above.
    base : float64[G, per_game, P, 2]
        Written: the formula value and the territory share.
    meta : int64[G, per_game, 5]
        Written: each kept start's (turn, round, alive players, winner, moves applied); -1 rows not kept.
    """
    G = seeds.shape[0]
    P = lineup_bots.shape[0]
    for g in prange(G):
        st, bots, params = _start_game(lineup_bots, lineup_params, g, B, R, seats, 0, seeds[g])
        feats = np.zeros((MAX_RECORDED, P, X.shape[3]))
        vals = np.zeros((MAX_RECORDED, P, 2))
        info_rows = np.zeros((MAX_RECORDED, 4), np.int64)
        buf = np.zeros((P, X.shape[3]))
        n = 0
        while st.info[I_PHASE] != OVER:
            _drive(st, B, R, CUT, V, bots, params, False, st.info[I_TURN], NO_HORIZON, roster, None)
            if st.info[I_PHASE] == OVER or st.info[I_TURN] < 1 or n >= MAX_RECORDED:
                continue
            _features(st, B, R, buf)
            _boosted_inputs(st, B, R, buf)
            alive = 0
            for s in range(P):
                feats[n, s] = buf[s]
                vals[n, s, 0] = _value(st, B, R, s) if st.alive[s] == 1 else 0.0
                vals[n, s, 1] = buf[s, 0]
                alive += st.alive[s]
            info_rows[n, 0] = st.info[I_TURN]
            info_rows[n, 1] = st.info[I_ROUND]
            info_rows[n, 2] = alive
            info_rows[n, 3] = st.info[I_MOVES]
            n += 1
        winner = st.info[I_WINNER]
        keep = min(per_game, n)
        u = (seeds[g] >> np.uint64(11)) * (1.0 / 9007199254740992.0)
        for j in range(keep):
            i = min(n - 1, int((j + u) * n / keep))
            X[g, j] = feats[i]
            base[g, j] = vals[i]
            meta[g, j, 0] = info_rows[i, 0]
            meta[g, j, 1] = info_rows[i, 1]
            meta[g, j, 2] = info_rows[i, 2]
            meta[g, j, 3] = winner
            meta[g, j, 4] = info_rows[i, 3]


def sample_positions(games: int, players: int, bots, rules: GameRules | None = None, seed: int = 0,
                     per_game: int = 6) -> dict:
    """Positions of ``games`` seeded games between ``bots`` (seats rotating one place a game), with their
    games' winners.

    Parameters
    ----------
    games, players : int
    bots : list of str
        Bot specs, one per seat (repeated cyclically).
    rules : GameRules, optional
        Default: Classic, or the two-player game with the neutral for 2 players.
    seed : int
        Game g plays seed word g of ``np.random.SeedSequence(seed)``, on any number of threads.
    per_game : int
        Turn starts kept per game (fewer if the game is shorter).

    Returns
    -------
    dict of arrays
        ``X`` [n, players, features], ``inputs`` [n, players, `riskstats.game.value.BOOSTED_INPUTS`] (the
        boosted model's, ``X`` first), ``alive`` [n, players] (bool: in play), ``winner`` [n] (seat),
        ``formula`` and ``territory`` [n, players] (the search bot's formula value and the territory share,
        the baselines), ``turn``, ``round``, ``moves`` (moves applied), ``game`` [n], and ``variant`` (its index
        in `VARIANTS`).
    """
    from riskstats.game.bots.catalog import Lineup
    from riskstats.game.rules.board import classic_board
    from riskstats.game.rules.context import compile_context

    games = check_int("games", games, 1)
    players = check_int("players", players, 2, 6)
    per_game = check_int("per_game", per_game, 1, 100)
    if rules is None:
        rules = default_rules(players)
    ids, params = Lineup.of(list(bots)).arrays(players)
    board = classic_board()
    ctx = compile_context(rules, board, players)
    R = ctx.R
    S = int(R[R_SEATS])
    seeds = np.random.SeedSequence(seed).generate_state(games, np.uint64)
    X = np.zeros((games, per_game, players, N_INPUTS))
    base = np.zeros((games, per_game, players, 2))
    meta = np.full((games, per_game, 5), -1, np.int64)
    seat = np.arange(players)
    roster = roster_for(_sample, ids)

    def run(start, stop):  # games start .. stop - 1, in a short call (Ctrl-C): the line-up rotated by start
        turned = (seat + start) % players
        _sample(seeds[start:stop], ids[turned], params[turned], *ctx, S, per_game, roster, X[start:stop],
                base[start:stop], meta[start:stop])

    in_pieces(games, run, first=numba.get_num_threads())
    kept = (meta[:, :, 0] >= 0) & (meta[:, :, 3] >= 0)
    alive = np.abs(X[..., :N_FEATURES]).sum(axis=3) > 0
    return {"X": X[kept][..., :N_FEATURES], "inputs": X[kept], "alive": alive[kept], "winner": meta[:, :, 3][kept],
            "formula": base[..., 0][kept], "territory": base[..., 1][kept], "turn": meta[:, :, 0][kept],
            "round": meta[:, :, 1][kept], "moves": meta[:, :, 4][kept],
            "game": np.broadcast_to(np.arange(games)[:, None], kept.shape)[kept],
            "variant": VARIANTS.index(rules.variant)}


def _pad(samples: list[dict], padded=("X", "inputs", "alive", "formula", "territory"),
         stacked=("winner", "turn", "round", "moves")) -> dict:
    """Samples of different player counts stacked into one padded set (players beyond a table: not alive):
    the ``padded`` arrays, [n, players, ...], padded with zeros to the widest table; the ``stacked`` ones,
    [n], joined."""
    width = max(s[padded[0]].shape[1] for s in samples)
    out = {}
    for key in padded:
        parts = []
        for s in samples:
            a = s[key]
            pad = [(0, 0), (0, width - a.shape[1])] + [(0, 0)] * (a.ndim - 2)
            parts.append(np.pad(a, pad))
        out[key] = np.concatenate(parts)
    for key in stacked:
        out[key] = np.concatenate([s[key] for s in samples])
    return out


def _nll(w, X, alive, winner, l2):
    score = np.where(alive, X @ w, -np.inf)
    top = score.max(axis=1)
    ex = np.exp(score - top[:, None])
    total = ex.sum(axis=1)
    rows = np.arange(len(winner))
    value = float((np.log(total) + top - score[rows, winner]).sum() + 0.5 * l2 * w @ w)
    p = ex / total[:, None]
    grad = np.einsum("np,npf->f", p, X) - X[rows, winner].sum(axis=0) + l2 * w
    return value, grad


def fit_weights(X, alive, winner, l2: float = 1.0) -> np.ndarray:
    """The conditional-logit coefficients (one per feature) maximising the likelihood of the winners, with
    the ridge penalty ``l2 / 2 * |w|^2``.

    ``X`` [n, players, features], ``alive`` [n, players] bool, ``winner`` [n] (an alive seat each).
    """
    from scipy.optimize import minimize

    X = np.asarray(X, float)
    alive = np.asarray(alive, bool)
    winner = np.asarray(winner, np.int64)
    if len(winner) == 0:
        raise RiskstatsError("no positions to fit")
    if not alive[np.arange(len(winner)), winner].all():
        raise RiskstatsError("every position's winner must be in play")
    result = minimize(_nll, np.zeros(X.shape[2]), args=(X, alive, winner, l2), jac=True, method="L-BFGS-B",
                      options={"maxiter": 5000, "gtol": 1e-9, "ftol": 1e-14})
    return result.x


def predict(X, alive, w) -> np.ndarray:
    """The model's P(win) [n, players] from features, as `riskstats.game.value._softmax_seats` computes it."""
    score = np.where(alive, np.asarray(X) @ w, -np.inf)
    ex = np.exp(score - score.max(axis=1, keepdims=True))
    return ex / ex.sum(axis=1, keepdims=True)


def normalise(values, alive) -> np.ndarray:
    """Values [n, players] made into probabilities over the players in play (a baseline's P(win))."""
    v = np.where(alive, np.asarray(values, float), 0.0)
    total = v.sum(axis=1, keepdims=True)
    return np.where(total > 0, v / np.where(total > 0, total, 1.0), alive / alive.sum(axis=1, keepdims=True))


def scores(p, alive, winner, bins: int = 10) -> dict:
    """How good probabilities p [n, players] are: log loss (per position, of the winner), Brier (per position,
    summed over the players in play) and the expected calibration error over ``bins`` equal-width bins of
    every (position, player in play) prediction."""
    p = np.asarray(p, float)
    rows = np.arange(len(winner))
    outcome = np.zeros_like(p)
    outcome[rows, winner] = 1.0
    log_loss = float(-np.log(np.clip(p[rows, winner], 1e-15, 1.0)).mean())
    brier = float((np.where(alive, (p - outcome) ** 2, 0.0)).sum(axis=1).mean())
    flat_p, flat_y = p[alive], outcome[alive]
    which = np.minimum((flat_p * bins).astype(int), bins - 1)
    ece = 0.0
    for b in range(bins):
        inside = which == b
        if inside.any():
            ece += inside.sum() / len(flat_p) * abs(flat_p[inside].mean() - flat_y[inside].mean())
    return {"positions": len(winner), "log_loss": log_loss, "brier": brier, "ece": float(ece)}


def reliability(p, alive, winner, bins: int = 10):
    """The reliability table: per bin of predictions, their count, mean prediction, observed win rate and
    its 95% Wilson interval (a pandas DataFrame)."""
    import pandas as pd

    from riskstats.intervals import wilson_interval

    p = np.asarray(p, float)
    outcome = np.zeros_like(p)
    outcome[np.arange(len(winner)), winner] = 1.0
    flat_p, flat_y = p[alive], outcome[alive]
    which = np.minimum((flat_p * bins).astype(int), bins - 1)
    rows = []
    for b in range(bins):
        inside = which == b
        n = int(inside.sum())
        if n == 0:
            continue
        wins = int(flat_y[inside].sum())
        low, high = wilson_interval(wins, n)
        rows.append({"bin": b, "count": n, "predicted": float(flat_p[inside].mean()), "observed": wins / n,
                     "ci_low": low, "ci_high": high})
    return pd.DataFrame(rows)


def fit_model(design: dict, seed: int = 0, l2: float = 1.0) -> dict:
    """Sample positions for every variant's line-ups and fit one coefficient vector per variant.

    ``design`` maps a variant name to a list of (players, bots, games) line-ups; line-up k of a variant
    plays seed ``seed + k``. Returns the model file's dict: ``features``, ``weights`` (variant -> feature
    -> weight), ``design``, ``seed``, ``l2`` and the positions fitted per variant.
    """
    weights, counts = {}, {}
    for variant, lineups in design.items():
        if variant not in VARIANTS:
            raise RiskstatsError(f"unknown variant {variant!r}; choose from {', '.join(VARIANTS)}")
        rules = GameRules(variant=variant)
        samples = [sample_positions(games, players, bots, rules, seed + k)
                   for k, (players, bots, games) in enumerate(lineups)]
        data = _pad(samples)
        w = fit_weights(data["X"], data["alive"], data["winner"], l2)
        weights[variant] = {name: float(x) for name, x in zip(FEATURES, w)}
        counts[variant] = int(len(data["winner"]))
    return {"format": "riskstats-value-model/1", "model": "conditional logit (softmax over the players in play)",
            "features": list(FEATURES), "weights": weights, "positions": counts,
            "design": {v: [[p, list(b), g] for p, b, g in lineups] for v, lineups in design.items()},
            "seed": seed, "l2": l2}


BOOSTED_PARAMS = {"learning_rate": 0.25, "num_leaves": 8, "max_depth": 3, "min_data_in_leaf": 200, "lambda_l2": 1.0,
                  "feature_fraction": 0.9, "max_bin": 255}
"""LightGBM's settings for the boosted model (`fit_boosted`; one thread, deterministic): small trees (depth 3) and
few of them (`BOOSTED_ROUNDS`), as the value bot reads the model some 350 times a four-player game."""
BOOSTED_ROUNDS = 60
"""The most trees per variant (fewer if the held-out games' log loss stops falling for 20 rounds)."""


def _group_softmax(margin, starts) -> np.ndarray:
    """The softmax of ``margin`` within each group of consecutive rows (group g: rows starts[g] to starts[g+1])."""
    sizes = np.diff(np.append(starts, len(margin)))
    e = np.exp(margin - np.repeat(np.maximum.reduceat(margin, starts), sizes))
    return e / np.repeat(np.add.reduceat(e, starts), sizes)


def seat_rows(samples: list[dict]) -> dict:
    """The boosted model's training table from `sample_positions` results: one row per (position, player in
    play), a position's rows consecutive: ``rows`` [m, inputs], ``won`` [m] (1 for the winner), ``starts`` [n]
    (each position's first row) and ``game`` [n] (sample k's game g as k * 10**6 + g: distinct games, distinct
    numbers)."""
    rows, won, sizes, game = [], [], [], []
    for k, s in enumerate(samples):
        alive = s["alive"]
        rows.append(s["inputs"][alive])
        won.append((np.arange(alive.shape[1])[None, :] == s["winner"][:, None])[alive])
        sizes.append(alive.sum(axis=1))
        game.append(k * 1_000_000 + s["game"])
    sizes = np.concatenate(sizes)
    return {"rows": np.concatenate(rows), "won": np.concatenate(won).astype(float),
            "starts": np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64), "game": np.concatenate(game)}


def _subset(table: dict, keep) -> dict:
    """The positions ``keep`` (bool [n]) of a `seat_rows` table."""
    sizes = np.diff(np.append(table["starts"], len(table["won"])))
    row_keep = np.repeat(keep, sizes)
    kept = sizes[keep]
    return {"rows": table["rows"][row_keep], "won": table["won"][row_keep], "game": table["game"][keep],
            "starts": np.concatenate([[0], np.cumsum(kept)[:-1]]).astype(np.int64)}


def _grouped_nll(margin, table) -> float:
    """Mean negative log-likelihood of the winners under the grouped softmax of ``margin``."""
    p = _group_softmax(margin, table["starts"])
    return float(-np.log(np.clip(p[table["won"] == 1], 1e-15, 1.0)).mean())


def fit_boosted(table: dict, held_every: int = 10, seed: int = 0, rounds: int = BOOSTED_ROUNDS) -> tuple:
    """Gradient-boosted trees on a `seat_rows` table, fitted with LightGBM on the conditional-logit likelihood
    (the softmax over each position's players of the trees' margins; gradient p - y, diagonal Hessian p (1 - p)).
    The games numbered ``game % held_every == held_every - 1`` are held out: they stop the boosting (no fall of
    their log loss for 20 rounds) and fit the temperature (the margins' scale maximising their likelihood).

    Returns (the booster's ``dump_model()`` at its best round, the temperature, a dict of the held-out log loss
    before and after scaling, trees and rows)."""
    import lightgbm as lgb
    from scipy.optimize import minimize_scalar

    held = table["game"] % held_every == held_every - 1
    train, valid = _subset(table, ~held), _subset(table, held)
    if len(valid["starts"]) == 0 or len(train["starts"]) == 0:
        raise RiskstatsError("too few games to hold some out")

    def objective(margin, _data):
        p = _group_softmax(margin, train["starts"])
        return p - train["won"], np.maximum(p * (1.0 - p), 1e-6)

    def held_loss(margin, _data):
        return "grouped_nll", _grouped_nll(margin, valid), False

    params = {**BOOSTED_PARAMS, "objective": objective, "num_threads": 1, "deterministic": True,
              "force_row_wise": True, "verbose": -1, "seed": seed, "boost_from_average": False}
    dtrain = lgb.Dataset(train["rows"], train["won"], free_raw_data=False)
    dvalid = lgb.Dataset(valid["rows"], valid["won"], reference=dtrain)
    booster = lgb.train(params, dtrain, num_boost_round=rounds, valid_sets=[dvalid], feval=held_loss,
                        callbacks=[lgb.early_stopping(20, verbose=False)])
    best = booster.best_iteration or rounds
    margin = booster.predict(valid["rows"], num_iteration=best, raw_score=True)
    scale = minimize_scalar(lambda a: _grouped_nll(a * margin, valid), bounds=(0.2, 5.0), method="bounded").x
    info = {"held_log_loss": _grouped_nll(margin, valid), "held_log_loss_scaled": _grouped_nll(scale * margin, valid),
            "trees": int(best), "rows": int(len(table["won"])), "positions": int(len(table["starts"])),
            "held_positions": int(len(valid["starts"]))}
    return booster.dump_model(num_iteration=best), float(scale), info


def predict_boosted(inputs, alive, trees: dict, variant: int) -> np.ndarray:
    """The boosted model's P(win) [n, players] from inputs [n, players, `riskstats.game.value.BOOSTED_INPUTS`],
    its margins computed by the compiled `riskstats.game.value_trees._margin` (as the position value does)."""
    from riskstats.game.value_trees import margins

    inputs = np.asarray(inputs, float)
    n, P, _ = inputs.shape
    score = margins(trees, inputs.reshape(n * P, -1), variant).reshape(n, P)
    score = np.where(alive, score, -np.inf)
    ex = np.exp(score - score.max(axis=1, keepdims=True))
    return ex / ex.sum(axis=1, keepdims=True)
