"""The fitted position value: its features, the compiled model, position_value, the fit and evaluate --rollouts 0."""
import json
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pytest

import riskstats
from riskstats.errors import RiskstatsError
from riskstats.game.evaluate import evaluate, position_value
from riskstats.game.play import Game
from riskstats.game.rules.options import VARIANTS as VARIANT_NAMES
from riskstats.game.rules.options import GameRules
from riskstats.game.rules.state import I_MOVES
from riskstats.game.value import (
    _WS,
    BOOSTED_INPUTS,
    FEATURES,
    LINEAR,
    MODELS,
    N_FEATURES,
    N_INPUTS,
    _model_probs,
    _model_value,
    load_boosted,
    load_model,
    model_index,
    model_weights,
)
from riskstats.game.value_fit import fit_model, fit_weights, normalise, predict, sample_positions, scores
from riskstats.game.value_trees import margins
from tests.variants import MAIN

_W = _WS[0]  # the default model's coefficients

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "value_fit_small.json"
VARIANTS = list(MAIN.values())


def mid_game(players, rules, seed, turns=9):
    """A game stepped with continent-tuned until turn ``turns`` has begun (the next seed if it ended first)."""
    for s in range(seed, seed + 20):
        game = Game(players, rules, seed=s, log=False)
        while game.turn < turns and not game.over:
            game.step(game.bot_move("continent-tuned"))
        if not game.over:
            return game
    raise AssertionError("every game ended early")


def test_the_committed_model_covers_every_variant_and_feature():
    model = load_model()
    assert model["features"] == list(FEATURES)
    assert set(model["weights"]) == {"classic", "two-player", "mission", "capital"}
    W = model_weights(model)
    assert W.shape == (4, N_FEATURES) and np.isfinite(W).all() and (W == _W).all()
    assert np.abs(W).sum() > 0
    without_capital = {**model, "weights": {k: v for k, v in model["weights"].items() if k != "capital"}}
    with pytest.raises(RiskstatsError, match="no coefficients for variant capital"):
        model_weights(without_capital)


@pytest.mark.parametrize("players, rules", VARIANTS)
def test_position_value_is_the_compiled_value(players, rules):
    game = mid_game(players, rules, seed=3)
    table = position_value(game)
    assert table["player"].tolist() == list(range(players))
    assert list(table.columns) == ["player", "p_win", *FEATURES]
    assert table["p_win"].between(0, 1).all() and table["p_win"].sum() == pytest.approx(1.0)
    st, B, R = game.state, game.board.arrays, game.context.R
    compiled = [_model_value(st, B, R, p, 0) for p in range(players)]
    assert table["p_win"].tolist() == compiled  # exactly
    alive = (table["territory_share"] > 0).to_numpy()[None]
    again = predict(table[list(FEATURES)].to_numpy()[None], alive, _W[int(R[0])])[0]
    np.testing.assert_allclose(again, table["p_win"], rtol=1e-12)
    assert table.equals(position_value(json.loads(game.to_json())))  # a position file: the same answer


def test_features_mean_what_they_say():
    game = mid_game(4, GameRules(), seed=5)
    table = position_value(game).set_index("player")
    st = game.state
    terr = np.bincount(st.owner, minlength=4)[:4]
    np.testing.assert_allclose(table["territory_share"], terr / terr.sum())
    np.testing.assert_allclose(table["log_territories"], np.log(terr))
    assert table["to_move"].tolist() == [float(p == game.player) for p in range(4)]
    assert table["cards"].tolist() == [len(game.hand(p)) for p in range(4)]
    assert table[["mission_progress", "capital_held"]].eq(0).all().all()  # Classic: no missions, no capitals
    mission = position_value(mid_game(4, GameRules(variant="mission"), seed=5))
    assert mission["mission_progress"].between(0, 1).all() and mission["mission_progress"].gt(0).any()
    capital = position_value(mid_game(3, GameRules(variant="capital"), seed=5))
    assert capital["capital_held"].isin([0, 1]).all() and capital["capital_threat"].between(0, 1).all()


def test_more_armies_more_value_and_a_won_game_is_certain():
    game = mid_game(4, GameRules(), seed=6)
    p = game.player
    before = position_value(game)["p_win"][p]
    richer = Game.from_json(game.to_json(indent=None))
    for t in np.flatnonzero(richer.state.owner == p)[:4]:
        richer.state.armies[t] += 10
    assert position_value(richer)["p_win"][p] > before
    won = Game(2, GameRules(variant="two-player"), seed=1).play(["continent-tuned"])
    assert won.over and won.winner >= 0
    assert position_value(won)["p_win"].tolist() == [float(s == won.winner) for s in range(2)]


def test_public_api_and_errors():
    assert riskstats.position_value is position_value
    with pytest.raises(RiskstatsError):
        position_value({"players": 2})


def test_sampling_in_short_calls_keeps_the_same_positions(monkeypatch):
    """Games are sampled in short calls (`riskstats.pieces`) for Ctrl-C's sake: one game a call, each call
    rotating the line-up from its first game, keeps the same positions."""
    from riskstats import pieces

    whole = sample_positions(7, 3, ["continent-tuned", "aggressive", "random"], seed=8, per_game=2)
    monkeypatch.setattr(pieces, "PIECE_SECONDS", 0.0)
    cut = sample_positions(7, 3, ["continent-tuned", "aggressive", "random"], seed=8, per_game=2)
    for key in ("X", "alive", "winner", "turn", "round", "game", "formula", "territory"):
        np.testing.assert_array_equal(cut[key], whole[key])


def test_sampling_is_seeded_whatever_the_threads():
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = sample_positions(12, 4, ["continent-tuned", "aggressive"], seed=4, per_game=3)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = sample_positions(12, 4, ["continent-tuned", "aggressive"], seed=4, per_game=3)
    finally:
        numba.set_num_threads(threads)
    for key in ("X", "alive", "winner", "turn", "formula", "territory"):
        np.testing.assert_array_equal(one[key], two[key])
    assert len(one["winner"]) <= 36 and one["alive"][np.arange(len(one["winner"])), one["winner"]].all()
    assert (one["turn"] >= 1).all()


def test_the_fit_matches_statsmodels_conditional_logit():
    """Our vectorised likelihood is McFadden's conditional logit: statsmodels' ConditionalLogit, unpenalised,
    finds the same coefficients on the same positions."""
    from statsmodels.discrete.conditional_models import ConditionalLogit

    rng = np.random.default_rng(0)
    n, P, F = 400, 3, 3
    X = rng.normal(size=(n, P, F))
    true = np.array([1.0, -0.5, 0.3])
    p = np.exp(X @ true)
    p /= p.sum(axis=1, keepdims=True)
    winner = np.array([rng.choice(P, p=row) for row in p])
    alive = np.ones((n, P), bool)
    ours = fit_weights(X, alive, winner, l2=0.0)
    y = np.zeros((n, P))
    y[np.arange(n), winner] = 1
    theirs = ConditionalLogit(y.ravel(), X.reshape(n * P, F), groups=np.repeat(np.arange(n), P)).fit(disp=0)
    np.testing.assert_allclose(ours, theirs.params, atol=1e-4)


def test_the_fit_script_reproduces_its_small_seeded_fit():
    """scripts/make/fit_value.py's small design, fitted again, gives the committed golden coefficients (regenerate
    them with ``python scripts/make/fit_value.py golden`` after a change that alters seeded games)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("fit_value", Path(__file__).resolve().parents[2] / "scripts"
                                                  / "make" / "fit_value.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    golden = json.loads(GOLDEN.read_text())
    model = fit_model(script.SMALL_DESIGN, script.SMALL_SEED)
    assert model["positions"] == golden["positions"]
    for variant, weights in golden["weights"].items():
        np.testing.assert_allclose([model["weights"][variant][f] for f in FEATURES],
                                   [weights[f] for f in FEATURES], rtol=1e-5, atol=1e-7)
    committed = load_model()
    assert committed["design"] == json.loads(json.dumps({v: [[p, list(b), g] for p, b, g in lineups]
                                                         for v, lineups in script.DESIGN.items()}))
    assert committed["seed"] == script.SEED
    strong = load_model("strong")  # the default design with search self-play after it, on the same seeds
    assert strong["design"] == json.loads(json.dumps({v: [[p, list(b), g] for p, b, g in lineups]
                                                      for v, lineups in script.FITS["strong"].items()}))
    assert all(strong["design"][v][:len(lineups)] == committed["design"][v] for v, lineups in script.DESIGN.items())
    assert strong["seed"] == script.SEED and all(len(script.SEARCH_DESIGN[v]) > 0 for v in script.DESIGN)


@pytest.mark.parametrize("players, rules", VARIANTS)
def test_the_strong_model_is_its_own_fit(players, rules):
    """position_value(model="strong") is the compiled value of the second model (`MODELS`), a different fit
    of the same features; an unknown model is refused by name."""
    assert list(MODELS) == ["model", "strong", "boosted"]
    strong = load_model("strong")
    assert strong["features"] == list(FEATURES) and (model_weights(strong) == _WS[1]).all()
    assert np.abs(_WS[1] - _WS[0]).max() > 0.01
    game = mid_game(players, rules, seed=4)
    table = position_value(game, model="strong", features=False)
    st, B, R = game.state, game.board.arrays, game.context.R
    assert table["p_win"].tolist() == [_model_value(st, B, R, p, 1) for p in range(players)]
    assert table["p_win"].sum() == pytest.approx(1.0)
    assert not np.allclose(table["p_win"], position_value(game, features=False)["p_win"], atol=1e-6)
    result = evaluate(game, rollouts=0, top=0, model="strong")
    np.testing.assert_array_equal(result.players["p_win"], table["p_win"])
    with pytest.raises(RiskstatsError, match="unknown position-value model 'weak'"):
        position_value(game, model="weak")
    with pytest.raises(RiskstatsError, match="'weak'"):
        evaluate(game, rollouts=0, model="weak")


def test_the_model_beats_territory_share_on_a_fresh_sample():
    """Positions of seeds the fit never used: a lower Brier score than the territory share's."""
    data = sample_positions(150, 4, ["continent-tuned", "aggressive", "defensive", "continent"], seed=999_001)
    model = scores(predict(data["X"], data["alive"], _W[0]), data["alive"], data["winner"])
    share = scores(normalise(data["territory"], data["alive"]), data["alive"], data["winner"])
    assert model["brier"] < share["brier"] and model["log_loss"] < share["log_loss"]


def test_evaluate_with_no_rollouts_answers_from_the_model():
    game = mid_game(4, GameRules(), seed=8)
    while game.phase != "attack":
        game.step(game.bot_move("continent-tuned"))
    result = evaluate(game, rollouts=0, seed=2, top=4)
    value = position_value(game)
    np.testing.assert_array_equal(result.players["p_win"], value["p_win"])
    assert (result.players["ci_low"] == result.players["p_win"]).all() and result.rollouts == 0
    assert set(result.as_dict()) == {"players", "moves", "rollouts", "seed", "moves_mean"}
    moves = result.moves
    best = moves[~moves.own] if len(moves) > 4 else moves  # the bot's own move follows the best 4 if not among them
    assert 1 <= len(best) <= 4 and best["p_win"].is_monotonic_decreasing and moves["p_win"].between(0, 1).all()
    assert moves.own.sum() == 1
    again = evaluate(game, rollouts=0, seed=2, top=4)
    pd.testing.assert_frame_equal(result.moves, again.moves)


def test_evaluate_with_no_rollouts_takes_the_sure_win():
    from tests.game.test_evaluate import one_conquest_from_victory

    result = evaluate(one_conquest_from_victory(), rollouts=0, top=3)
    assert result.moves["move"][0] == "attack Alaska -> Kamchatka (3 dice)"


@pytest.mark.parametrize("players, rules", VARIANTS)
def test_the_boosted_model_is_the_softmax_of_its_exported_trees(players, rules):
    """position_value(model="boosted") is the compiled value of the third model: the softmax over the players in
    play of its variant's trees' margins of each seat's `BOOSTED_INPUTS` (whose first columns are `FEATURES`);
    the probabilities sum to 1 and differ from the conditional logit's."""
    m = model_index("boosted")
    assert m == len(LINEAR) == 2
    trees = load_boosted()
    game = mid_game(players, rules, seed=5)
    st, B, R = game.state, game.board.arrays, game.context.R
    X = np.zeros((players, N_INPUTS))
    probs = np.zeros(players)
    _model_probs(st, B, R, m, X, probs)
    alive = st.alive[:players] == 1
    score = np.where(alive, margins(trees, X, VARIANT_NAMES.index(rules.variant)), -np.inf)
    expected = np.exp(score - score.max()) / np.exp(score - score.max()).sum()
    np.testing.assert_allclose(probs, expected, rtol=0, atol=1e-12)
    table = position_value(game, model="boosted")
    assert table["p_win"].tolist() == [_model_value(st, B, R, p, m) for p in range(players)]
    assert table["p_win"].sum() == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_array_equal(table[list(FEATURES)].to_numpy(), X[:, :N_FEATURES])
    assert not np.allclose(table["p_win"], position_value(game, features=False)["p_win"], atol=1e-6)
    with pytest.raises(RiskstatsError, match="not a conditional logit"):
        load_model("boosted")


def test_boosted_inputs_mean_what_they_say():
    """The inputs beyond the features on a four-player position: the shares sum to 1 over the players in play,
    the lead is the seat's own minus the best other's, and the context is the position's."""
    game = mid_game(4, GameRules(), seed=6)
    data = position_value(game, model="boosted")
    st, B, R = game.state, game.board.arrays, game.context.R
    X = np.zeros((4, N_INPUTS))
    _model_probs(st, B, R, model_index("boosted"), X, np.zeros(4))
    col = {name: X[:, i] for i, name in enumerate(BOOSTED_INPUTS)}
    alive = st.alive[:4] == 1
    assert col["reinforce_share"][alive].sum() == pytest.approx(1.0)
    assert ((col["concentration"][alive] > 0) & (col["concentration"][alive] <= 1)).all()
    assert ((col["frontier"][alive] >= 0) & (col["frontier"][alive] <= 1)).all()
    for s in np.flatnonzero(alive):
        others = [q for q in np.flatnonzero(alive) if q != s]
        assert col["max_other_army_share"][s] == max(col["army_share"][q] for q in others)
        assert col["lead_army_share"][s] == pytest.approx(col["army_share"][s] - col["max_other_army_share"][s])
        after = next(int((s + d) % 4) for d in range(1, 4) if alive[(s + d) % 4])
        before = next(int((s - d) % 4) for d in range(1, 4) if alive[(s - d) % 4])
        assert col["next_army_share"][s] == col["army_share"][after]
        assert col["previous_army_share"][s] == col["army_share"][before]
    assert (col["players"][alive] == 4).all() and (col["players_alive"][alive] == alive.sum()).all()
    assert col["moves"][alive][0] == pytest.approx(game.state.info[I_MOVES] / 1000)
    assert len(data) == 4
