"""The fitted position value: each player's chance of winning from a position, from a model, instantly.

This module owns the position features (`FEATURES`, computed per seat by the compiled kernel
`_features`), the fitted model (`_model_value`, `_model_probs`: a softmax over the players in play of
``w[variant] . x[seat]``, with the coefficients of ``riskstats/game/data/value_model.json``, or of another
committed fit named in `MODELS`), and the boosted model's inputs (`BOOSTED_INPUTS`, `_boosted_inputs`) and
softmax of its trees' margins (`_boosted_softmax`); the public
`riskstats.position_value` that answers from it lives in `riskstats.game.evaluate`.
It does not own fitting (`riskstats.game.value_fit` and ``scripts/make/fit_value.py``
write the coefficients and trees), the trees' format and evaluation (`riskstats.game.value_trees`) or the bots
that use the value (`riskstats.game.search`: ``search:value=model`` and the ``value`` bot).

**The model.** P(seat s wins) = exp(w . x_s) / sum over the players in play of exp(w . x_q): a conditional
(multinomial) logit over the seats, fitted by maximum likelihood on positions of seeded self-play (the
winner of each position's game is the outcome). There is **one coefficient vector per variant**
(classic, two-player, mission, capital); the player count is covered by the inputs, which are shares,
logarithms and counts that mean the same at any table size. Features that a variant lacks (missions,
capitals) are 0 there and get weight 0. A finished game is valued 1 for its winner and 0 for the others;
a turn-capped game is valued like an unfinished one.

**Whose view.** `_features` reads the whole state: `riskstats.game.evaluate.position_value` is an onlooker's view (as
`riskstats.game.evaluate.evaluate`'s). A bot calls it only on its own determinised copies (the search
redeals what it cannot see first), so hidden information stays hidden.

>>> from riskstats.game.evaluate import position_value
>>> from riskstats.game.play import Game
>>> game = Game(4, seed=3, log=False).play(["continent-tuned"], max_moves=600)
>>> table = position_value(game)
>>> list(table.columns[:3]), round(float(table["p_win"].sum()), 6)
(['player', 'p_win', 'territory_share'], 1.0)
"""
from __future__ import annotations

import json
from importlib import resources

import numpy as np

from riskstats._numba import jit
from riskstats.errors import RiskstatsError
from riskstats.game.rules.cards import _has_set, _progressive
from riskstats.game.rules.engine import _base_reinforcement
from riskstats.game.rules.options import (
    ESCALATION_NONE,
    ESCALATION_PROGRESSIVE,
    OBJ_CAPITAL,
    OBJ_MISSION,
    R_CAPITALS_NEEDED,
    R_ESCALATION,
    R_FIX_INF,
    R_FIX_MIX,
    R_NEUTRAL,
    R_OBJECTIVE,
    R_PLAYERS,
    R_VARIANT,
    VARIANTS,
)
from riskstats.game.rules.state import (
    I_MOVES,
    I_PHASE,
    I_RESERVE,
    I_ROUND,
    I_SETS_TRADED,
    I_WINNER,
    M_C1,
    M_C2,
    M_COUNT,
    M_KIND,
    M_MIN,
    M_TARGET,
    M_THIRD,
    MK_ACHIEVED,
    MK_CONTINENTS,
    MK_DESTROY,
    MK_TERRITORIES,
    OVER,
    _turn_seat,
)
from riskstats.game.value_trees import TREE_ARRAYS, _margin, load_trees

FEATURES = (
    "territory_share", "log_territories", "army_share", "log_armies", "income_share", "log_income",
    "continents", "nearly_held", "border_balance", "continent_threat", "cards", "set_value", "to_move",
    "order", "army_share_late", "army_share_duel", "mission_progress", "mission_near", "capital_held",
    "capitals_taken", "capital_threat",
)
"""The features of one seat in a position (`_features`), in column order:

territory_share     its territories / all players' territories (the neutral's not counted)
log_territories     log(its territories)
army_share          its armies / all players' armies; armies = on the board + still to place (setup) + the
                    reserve of the seat whose turn it is
log_armies          log(its armies)
income_share        its income / all players' income; income = max(3, territories // 3) + the bonuses of its
                    continents + its cards' worth (cards / 3 x the next set's value)
log_income          log(its income)
continents          continents it holds
nearly_held         bonuses of the continents where it lacks exactly one territory
border_balance      log((its armies on border territories + 1) / (enemy armies next to its land + 1)); a
                    neutral is no enemy (it never attacks)
continent_threat    enemy armies next to its whole continents / (those + its armies in them); 0 without one
cards               cards in hand
set_value           the next set's value / 10 if it holds a set, else 0
to_move             1 for the seat whose turn it is
order               seats after the one on turn until its own turn, / players
army_share_late     army_share x min(round, 30) / 30
army_share_duel     army_share while only two players are left, else 0
mission_progress    Secret Mission: how much of its mission it holds (continents: the share of their
                    territories it owns; territories: those it holds with enough armies / the count; destroy:
                    1 - the target's territories / (territories / players)), 1 once achieved
mission_near        mission_progress ** 4
capital_held        Capital Risk: 1 while it holds its own capital
capitals_taken      enemy capitals it holds / the capitals needed to win
capital_threat      enemy armies next to its capital / (those + the capital's armies); 1 if it lost it
"""
N_FEATURES = len(FEATURES)
(F_TERR_SHARE, F_LOG_TERR, F_ARMY_SHARE, F_LOG_ARMIES, F_INCOME_SHARE, F_LOG_INCOME, F_CONTINENTS, F_NEARLY,
 F_BORDER, F_CONT_THREAT, F_CARDS, F_SET_VALUE, F_TO_MOVE, F_ORDER, F_LATE, F_DUEL, F_MISSION, F_MISSION_NEAR,
 F_CAP_HELD, F_CAP_TAKEN, F_CAP_THREAT) = range(N_FEATURES)

EXTRAS = ("concentration", "frontier", "reinforce_share", "enemy_bonus_reach")
"""What the boosted model reads of a seat beyond `FEATURES` (`_boosted_inputs`):

concentration       armies on its biggest stack / its armies on the board
frontier            its territories next to an enemy's (the neutral's not counted) / its territories
reinforce_share     its next reinforcement, trading a set if it holds one (max(3, territories // 3) + its
                    continents' bonuses + the next set's value) / the sum of every player's
enemy_bonus_reach   bonuses of the continents an enemy holds whole that its land touches / 10
"""
CONTEXT = ("moves", "round", "players_alive", "players", "next_set")
"""The position's own inputs, the same for every seat: moves applied / 1000, rounds begun / 30, players in play,
players at the table, the next set's value / 10."""
RELATIVE = ("territory_share", "army_share", "income_share", "border_balance", "continents", "cards",
            "reinforce_share", "log_armies")
"""Inputs also given against the opponents: the largest of the other players' in play (``max_other_...``) and the
seat's own minus that (``lead_...``)."""
BOOSTED_INPUTS = (FEATURES + EXTRAS + CONTEXT + tuple(f"max_other_{n}" for n in RELATIVE)
                  + tuple(f"lead_{n}" for n in RELATIVE) + ("next_army_share", "previous_army_share"))
"""The boosted model's inputs of one seat, in column order (`_boosted_inputs`): `FEATURES`, `EXTRAS`, `CONTEXT`,
the `RELATIVE` ones against the strongest other player, and the army share of the player in play who moves right
after it and of the one right before it."""
N_INPUTS = len(BOOSTED_INPUTS)
_REL = np.array([BOOSTED_INPUTS.index(n) for n in RELATIVE], np.int64)
(E_CONC, E_FRONTIER, E_REINFORCE, E_REACH, C_MOVES, C_ROUND, C_ALIVE, C_PLAYERS, C_NEXT_SET) = range(
    N_FEATURES, N_FEATURES + len(EXTRAS) + len(CONTEXT))
_MAX_OTHER = N_FEATURES + len(EXTRAS) + len(CONTEXT)
_LEAD = _MAX_OTHER + len(RELATIVE)
_NEXT_SHARE = _LEAD + len(RELATIVE)

MODEL_FILE = "data/value_model.json"
"""The committed coefficients, package data of `riskstats.game` (written by ``scripts/make/fit_value.py``)."""
MODELS = {"model": MODEL_FILE, "strong": "data/value_model_strong.json", "boosted": "data/value_model_boosted.npz"}
"""The fitted models by name (written by ``scripts/make/fit_value.py fit --model NAME``): ``model``, fitted on
heuristic line-ups and a few cheap-search games, the one the value bot and ``search:value=model`` read by
default; ``strong``, the same line-ups plus search self-play at every table size, better on strong play
(data/position_value/validation.csv), read by ``search:value=strong``, ``value:model=strong`` and
``position_value(..., model="strong")``; ``boosted``, gradient-boosted trees on `BOOSTED_INPUTS` (one ensemble
per variant, a softmax over the seats of their margins), fitted on every phase of heuristic, search and value-bot
play, read by ``search:value=boosted``, ``value:model=boosted`` and ``position_value(..., model="boosted")``.
The conditional logits (``.json``) are `LINEAR`, model m < len(LINEAR) being index m of `_WS`; the boosted model
comes after them (`load_boosted`)."""
LINEAR = tuple(name for name, file in MODELS.items() if file.endswith(".json"))


def model_index(model: str) -> int:
    """The index of a model name in `MODELS` (a clear error for an unknown one)."""
    if model not in MODELS:
        raise RiskstatsError(f"unknown position-value model {model!r}; choose from {', '.join(MODELS)}")
    return list(MODELS).index(model)


def load_model(model: str = "model") -> dict:
    """A committed conditional-logit file (`LINEAR`) as a dict: its coefficients (``weights``: variant -> feature
    -> weight), the features' order and how it was fitted."""
    model_index(model)
    if model not in LINEAR:
        raise RiskstatsError(f"{model!r} is not a conditional logit; read it with load_boosted")
    return json.loads(resources.files("riskstats.game").joinpath(MODELS[model]).read_text())


def model_weights(model: dict | None = None) -> np.ndarray:
    """The coefficients as the kernels read them: float64 [variants, features] (variant order `VARIANTS`). A
    variant the model has no coefficients for is an error, never a row of zeros (a model that knows nothing)."""
    model = load_model() if model is None else model
    missing = [variant for variant in VARIANTS if variant not in model["weights"]]
    if missing:
        raise RiskstatsError(f"the position-value model has no coefficients for variant {', '.join(missing)}: "
                             "refit it with scripts/make/fit_value.py fit")
    W = np.zeros((len(VARIANTS), N_FEATURES))
    for v, variant in enumerate(VARIANTS):
        row = model["weights"][variant]
        for f, name in enumerate(FEATURES):
            W[v, f] = float(row.get(name, 0.0))
    return W


def load_boosted() -> dict:
    """The committed boosted model's ensembles (`riskstats.game.value_trees.TREE_ARRAYS`; one per variant, in
    `VARIANTS` order, over `BOOSTED_INPUTS`)."""
    trees = load_trees(resources.files("riskstats.game").joinpath(MODELS["boosted"]).open("rb"))
    if len(trees["tree_ptr"]) != len(VARIANTS) + 1 or trees["feature"].max(initial=0) >= N_INPUTS:
        raise RiskstatsError("the boosted position-value model does not match the variants and inputs: refit it "
                             "with scripts/make/fit_value.py fit --model boosted")
    return trees


_WS = np.stack([model_weights(load_model(name)) for name in LINEAR])
"""Every committed conditional logit's coefficients [models, variants, features], compiled into the kernels as a
constant (the numba cache folder's key includes the package's data files, `riskstats._numba`)."""
(_T_FEATURE, _T_THRESHOLD, _T_LEAF, _T_TREE_PTR, _T_SCALE) = (load_boosted()[name] for name in TREE_ARRAYS)
"""The boosted model's arrays (`TREE_ARRAYS`), compiled into the kernels as constants like `_WS`."""


@jit
def _next_set_value(st, R):  # pragma: no cover - compiled
    """The value of the next set traded (fixed sets: their mean)."""
    esc = R[R_ESCALATION]
    if esc == ESCALATION_PROGRESSIVE:
        return float(_progressive(st.info[I_SETS_TRADED]))
    if esc == ESCALATION_NONE:
        return 4.0
    total = 0.0
    for i in range(R_FIX_INF, R_FIX_MIX + 1):
        total += R[i]
    return total / (R_FIX_MIX + 1 - R_FIX_INF)


@jit
def _mission_progress(st, B, cnt, s):  # pragma: no cover - compiled
    """How much of seat s's mission it holds, in [0, 1] (see `FEATURES`); cnt[s, k] = its territories in
    continent k."""
    m = st.mission[s]
    kind = m[M_KIND]
    if kind == MK_ACHIEVED:
        return 1.0
    T = st.owner.shape[0]
    if kind == MK_TERRITORIES:
        n = 0
        for t in range(T):
            if st.owner[t] == s and st.armies[t] >= m[M_MIN]:
                n += 1
        return min(1.0, n / max(1, m[M_COUNT]))
    if kind == MK_DESTROY:
        q = m[M_TARGET]
        if st.alive[q] == 0:
            return 1.0
        P = max(1, st.alive.shape[0])
        return max(0.0, 1.0 - st.n_terr[q] * P / T)
    if kind == MK_CONTINENTS:
        size = B.continent_size
        got = cnt[s, m[M_C1]] + cnt[s, m[M_C2]]
        need = size[m[M_C1]] + size[m[M_C2]]
        if m[M_THIRD] == 1:
            best = -1
            for k in range(size.shape[0]):
                if k != m[M_C1] and k != m[M_C2] and (best < 0 or cnt[s, k] / size[k] > cnt[s, best] / size[best]):
                    best = k
            if best >= 0:
                got += cnt[s, best]
                need += size[best]
        return got / max(1, need)
    return 0.0


@jit
def _features(st, B, R, out):  # pragma: no cover - compiled
    """out[s, :] = the `FEATURES` of player s (s < players; rows of players out of the game are 0)."""
    P = R[R_PLAYERS]
    N = R[R_NEUTRAL]
    T = st.owner.shape[0]
    K = B.continent_bonus.shape[0]
    S = st.alive.shape[0]
    info = st.info
    out[:, :] = 0.0
    mover = _turn_seat(st)
    armies = np.zeros(S)
    cnt = np.zeros((S, K), np.int64)
    border = np.zeros(S)
    enemy = np.zeros(S)
    for t in range(T):
        q = st.owner[t]
        if q < 0:
            continue
        armies[q] += st.armies[t]
        cnt[q, B.continent_of[t]] += 1
        faces = False
        for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
            if st.owner[B.nbr_idx[i]] != q:
                faces = True
                break
        if faces:
            border[q] += st.armies[t]
    counted = np.full(S, -1, np.int64)  # enemy armies next to s's land, each enemy territory counted once
    for u in range(T):  # (one pass over the territories: for each s the same sum, in the same order)
        q = st.owner[u]
        if q < 0 or q == N:
            continue
        for i in range(B.nbr_ptr[u], B.nbr_ptr[u + 1]):
            s = st.owner[B.nbr_idx[i]]
            if 0 <= s < P and s != q and counted[s] != u and st.alive[s] == 1:
                enemy[s] += st.armies[u]
                counted[s] = u
    for s in range(S):
        armies[s] += st.to_place[s]
    if mover >= 0 and mover < S:
        armies[mover] += info[I_RESERVE]
    hand = np.zeros(S)
    for c in range(st.card_owner.shape[0]):
        q = st.card_owner[c]
        if q >= 0:
            hand[q] += 1
    next_set = _next_set_value(st, R)
    income = np.zeros(P)
    total_terr = 0.0
    total_armies = 0.0
    total_income = 0.0
    alive = 0
    for s in range(P):
        if st.alive[s] == 0:
            continue
        alive += 1
        inc = max(3, st.n_terr[s] // 3) + hand[s] / 3.0 * next_set
        for k in range(K):
            if cnt[s, k] == B.continent_size[k]:
                inc += B.continent_bonus[k]
        income[s] = inc
        total_terr += st.n_terr[s]
        total_armies += armies[s]
        total_income += inc
    late = min(info[I_ROUND], 30) / 30.0
    objective = R[R_OBJECTIVE]
    for s in range(P):
        if st.alive[s] == 0:
            continue
        x = out[s]
        x[F_TERR_SHARE] = st.n_terr[s] / max(1.0, total_terr)
        x[F_LOG_TERR] = np.log(max(1, st.n_terr[s]))
        x[F_ARMY_SHARE] = armies[s] / max(1.0, total_armies)
        x[F_LOG_ARMIES] = np.log(max(1.0, armies[s]))
        x[F_INCOME_SHARE] = income[s] / max(1.0, total_income)
        x[F_LOG_INCOME] = np.log(max(1.0, income[s]))
        threat = 0.0
        guard = 0.0
        for k in range(K):
            if cnt[s, k] == B.continent_size[k]:
                x[F_CONTINENTS] += 1.0
                for t in range(T):
                    if B.continent_of[t] != k:
                        continue
                    guard += st.armies[t]
                    for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
                        u = B.nbr_idx[i]
                        if st.owner[u] != s and st.owner[u] != N and B.continent_of[u] != k:
                            threat += st.armies[u]
            elif B.continent_size[k] > 1 and cnt[s, k] == B.continent_size[k] - 1:
                x[F_NEARLY] += B.continent_bonus[k]
        x[F_CONT_THREAT] = threat / (threat + guard) if guard > 0 else 0.0
        x[F_BORDER] = np.log((border[s] + 1.0) / (enemy[s] + 1.0))
        x[F_CARDS] = hand[s]
        x[F_SET_VALUE] = next_set / 10.0 if _has_set(st, B, s) else 0.0
        x[F_TO_MOVE] = 1.0 if s == mover else 0.0
        x[F_ORDER] = ((s - mover) % P) / P if mover >= 0 else 0.0
        x[F_LATE] = x[F_ARMY_SHARE] * late
        x[F_DUEL] = x[F_ARMY_SHARE] if alive == 2 else 0.0
        if objective == OBJ_MISSION and st.mission[s, M_KIND] >= 0:
            progress = _mission_progress(st, B, cnt, s)
            x[F_MISSION] = progress
            x[F_MISSION_NEAR] = progress ** 4
        if objective == OBJ_CAPITAL and st.capital[s] >= 0:
            c = st.capital[s]
            taken = 0
            for q in range(P):
                if q != s and st.capital[q] >= 0 and st.owner[st.capital[q]] == s:
                    taken += 1
            x[F_CAP_TAKEN] = taken / max(1, R[R_CAPITALS_NEEDED])
            if st.owner[c] == s:
                x[F_CAP_HELD] = 1.0
                near = 0.0
                for i in range(B.nbr_ptr[c], B.nbr_ptr[c + 1]):
                    u = B.nbr_idx[i]
                    if st.owner[u] != s and st.owner[u] != N:
                        near += st.armies[u]
                x[F_CAP_THREAT] = near / (near + st.armies[c])
            else:
                x[F_CAP_THREAT] = 1.0


@jit
def _softmax_seats(st, R, W, X, probs):  # pragma: no cover - compiled
    """probs[s] = the model's P(s wins) from features X (players in play only; 0 for those out)."""
    P = R[R_PLAYERS]
    w = W[R[R_VARIANT]]
    for s in range(P):
        probs[s] = 0.0
        if st.alive[s] == 1:
            for f in range(w.shape[0]):
                probs[s] += w[f] * X[s, f]
    _normalise(st.alive, P, probs)


@jit
def _normalise(alive, P, probs):  # pragma: no cover - compiled
    """Turn the utilities probs[s] of the players in play (alive[s] == 1) into their softmax, and 0 for the others."""
    top = -1e300
    for s in range(P):
        if alive[s] == 1:
            top = max(top, probs[s])
    total = 0.0
    for s in range(P):
        probs[s] = np.exp(probs[s] - top) if alive[s] == 1 else 0.0
        total += probs[s]
    for s in range(P):
        probs[s] = probs[s] / total if total > 0 else 0.0


@jit
def _boosted_inputs(st, B, R, X):  # pragma: no cover - compiled
    """Fill the columns of X [players, `N_INPUTS`] after `FEATURES` (which `_features` wrote) with the rest of
    `BOOSTED_INPUTS` (rows of players out of the game stay 0)."""
    P = R[R_PLAYERS]
    N = R[R_NEUTRAL]
    T = st.owner.shape[0]
    K = B.continent_bonus.shape[0]
    S = st.alive.shape[0]
    cnt = np.zeros((S, K), np.int64)
    touch = np.zeros((S, K), np.bool_)  # touch[q, k]: q owns land next to a territory of continent k
    biggest = np.zeros(S)
    on_board = np.zeros(S)
    front = np.zeros(S)
    for t in range(T):
        q = st.owner[t]
        if q < 0:
            continue
        k = B.continent_of[t]
        cnt[q, k] += 1
        on_board[q] += st.armies[t]
        biggest[q] = max(biggest[q], st.armies[t])
        faces = False
        for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
            o = st.owner[B.nbr_idx[i]]
            if o >= 0:
                touch[o, k] = True
                if o != q and o != N:
                    faces = True
        if faces:
            front[q] += 1.0
    holder = np.full(K, -1, np.int64)
    for k in range(K):
        for q in range(S):
            if cnt[q, k] == B.continent_size[k]:
                holder[k] = q
    next_set = _next_set_value(st, R)
    reinforce = np.zeros(P)
    total = 0.0
    alive = 0
    for s in range(P):
        if st.alive[s] == 0:
            continue
        alive += 1
        r = _base_reinforcement(st, B, s) + (next_set if _has_set(st, B, s) else 0.0)
        reinforce[s] = r
        total += r
    for s in range(P):
        if st.alive[s] == 0:
            continue
        x = X[s]
        x[E_CONC] = biggest[s] / max(1.0, on_board[s])
        x[E_FRONTIER] = front[s] / max(1, st.n_terr[s])
        x[E_REINFORCE] = reinforce[s] / max(1.0, total)
        reach = 0.0
        for k in range(K):
            h = holder[k]
            if h >= 0 and h != s and h != N and touch[s, k]:
                reach += B.continent_bonus[k]
        x[E_REACH] = reach / 10.0
        x[C_MOVES] = st.info[I_MOVES] / 1000.0
        x[C_ROUND] = st.info[I_ROUND] / 30.0
        x[C_ALIVE] = alive
        x[C_PLAYERS] = P
        x[C_NEXT_SET] = next_set / 10.0
    for s in range(P):
        if st.alive[s] == 0:
            continue
        for j in range(_REL.shape[0]):
            f = _REL[j]
            top = -1e300
            for q in range(P):
                if q != s and st.alive[q] == 1:
                    top = max(top, X[q, f])
            if top == -1e300:
                top = 0.0
            X[s, _MAX_OTHER + j] = top
            X[s, _LEAD + j] = X[s, f] - top
        for d in range(1, P):
            q = (s + d) % P
            if st.alive[q] == 1:
                X[s, _NEXT_SHARE] = X[q, F_ARMY_SHARE]
                break
        for d in range(1, P):
            q = (s - d) % P
            if st.alive[q] == 1:
                X[s, _NEXT_SHARE + 1] = X[q, F_ARMY_SHARE]
                break


@jit
def _boosted_softmax(st, R, X, probs):  # pragma: no cover - compiled
    """probs[s] = the boosted model's P(s wins) from inputs X (players in play only; 0 for those out)."""
    P = R[R_PLAYERS]
    v = R[R_VARIANT]
    for s in range(P):
        probs[s] = 0.0
        if st.alive[s] == 1:
            probs[s] = _margin(X[s], v, _T_FEATURE, _T_THRESHOLD, _T_LEAF, _T_TREE_PTR, _T_SCALE)
    _normalise(st.alive, P, probs)


@jit
def _model_probs(st, B, R, m, X, probs):  # pragma: no cover - compiled
    """Every player's value of a position by committed model m (its index in `MODELS`; probs[s], s < players):
    1 / 0 once won, else the model's softmax; X is a [players, `N_INPUTS`] buffer (its `FEATURES`, and for the
    boosted model all its `BOOSTED_INPUTS`, on return, unless the game was won)."""
    P = R[R_PLAYERS]
    if st.info[I_PHASE] == OVER and st.info[I_WINNER] >= 0:
        for s in range(P):
            probs[s] = 1.0 if st.info[I_WINNER] == s else 0.0
        return
    _features(st, B, R, X)
    if m < _WS.shape[0]:
        _softmax_seats(st, R, _WS[m], X, probs)
    else:
        _boosted_inputs(st, B, R, X)
        _boosted_softmax(st, R, X, probs)


@jit
def _model_value(st, B, R, p, m):  # pragma: no cover - compiled
    """Seat p's value of a position by committed model m (its index in `MODELS`): 1 if p won, 0 if another
    seat won, else its modelled P(win) (a turn-capped game is valued like an unfinished one)."""
    P = R[R_PLAYERS]
    X = np.empty((P, N_INPUTS))
    probs = np.empty(P)
    _model_probs(st, B, R, m, X, probs)
    return probs[p]
