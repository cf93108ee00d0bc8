"""Tree ensembles as flat arrays: LightGBM's models exported, read back and evaluated by the compiled kernel."""
import io

import lightgbm as lgb
import numpy as np
import pytest

from riskstats.errors import RiskstatsError
from riskstats.game.value_trees import TREE_ARRAYS, export_trees, load_trees, margins, save_trees


def _booster(seed, rounds=40, features=6, rows=2000):
    """A small LightGBM regression on random rows (no initial score: margins are the trees' sums)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(rows, features))
    X[:, 0] = np.round(X[:, 0], 1)  # ties on a threshold: `<=` goes left, as in LightGBM
    y = np.sin(X[:, 0]) + X[:, 1] * X[:, 2] + rng.normal(scale=0.1, size=rows)
    params = {"objective": "regression", "num_leaves": 15, "learning_rate": 0.2, "verbose": -1, "num_threads": 1,
              "deterministic": True, "boost_from_average": False, "seed": seed}
    return lgb.train(params, lgb.Dataset(X, y), num_boost_round=rounds), X


def test_compiled_margins_equal_lightgbm_raw_scores():
    """Two boosters exported as two variants: the compiled sum of leaves equals LightGBM's raw score on every
    row (training rows, fresh rows and rows sitting exactly on thresholds), to 1e-9."""
    one, X = _booster(1)
    two, _ = _booster(2, rounds=25)
    trees = export_trees([one.dump_model(), two.dump_model()], scale=[1.0, 0.5])
    fresh = np.random.default_rng(3).normal(size=(500, X.shape[1]))
    on_threshold = np.tile(X[:50], (1, 1))
    split = np.isfinite(trees["threshold"]) & (np.abs(trees["threshold"]) > 1e-30)  # not LightGBM's +-1e-35 zero bin
    on_threshold[np.arange(50), trees["feature"][split][:50]] = trees["threshold"][split][:50]
    for rows in (X, fresh, on_threshold):
        np.testing.assert_allclose(margins(trees, rows, 0), one.predict(rows, raw_score=True), rtol=0, atol=1e-9)
        np.testing.assert_allclose(margins(trees, rows, 1), 0.5 * two.predict(rows, raw_score=True), rtol=0,
                                   atol=1e-9)
    assert len(trees["leaf"]) == one.num_trees() + two.num_trees()
    assert trees["tree_ptr"].tolist() == [0, one.num_trees(), one.num_trees() + two.num_trees()]


def test_saved_trees_read_back_the_same_and_malformed_ones_are_refused():
    booster, X = _booster(4, rounds=10)
    trees = export_trees([booster.dump_model()])
    buffer = io.BytesIO()
    save_trees(buffer, trees)
    buffer.seek(0)
    back = load_trees(buffer)
    for name in TREE_ARRAYS:
        np.testing.assert_array_equal(back[name], trees[name])
    np.testing.assert_array_equal(margins(back, X, 0), margins(trees, X, 0))
    broken = {**trees, "leaf": trees["leaf"][:, :-1]}
    buffer = io.BytesIO()
    save_trees(buffer, broken)
    buffer.seek(0)
    with pytest.raises(RiskstatsError, match="malformed"):
        load_trees(buffer)
    with pytest.raises(RiskstatsError, match="out of range"):
        margins(trees, X, 1)


def test_a_stump_by_hand():
    """One split on input 1 at 0.5 (a row at 0.5 goes left) and a single-leaf tree, for one variant: stored at
    depth 1, the single leaf under a split that always goes left."""
    stump = {"tree_info": [
        {"tree_structure": {"split_feature": 1, "threshold": 0.5, "decision_type": "<=", "missing_type": "None",
                            "left_child": {"leaf_value": -1.0}, "right_child": {"leaf_value": 2.0}}},
        {"tree_structure": {"leaf_value": 0.25}}]}
    trees = export_trees([stump])
    rows = np.array([[9.0, 0.5], [9.0, 0.50001], [0.0, -3.0]])
    np.testing.assert_array_equal(margins(trees, rows, 0), [-0.75, 2.25, -0.75])
    assert trees["feature"].tolist() == [[1], [0]] and trees["threshold"].tolist() == [[0.5], [np.inf]]
    assert trees["leaf"].tolist() == [[-1.0, 2.0], [0.25, 0.25]]
    categorical = {"tree_info": [{"tree_structure": {**stump["tree_info"][0]["tree_structure"],
                                                     "decision_type": "=="}}]}
    with pytest.raises(RiskstatsError, match="unsupported split"):
        export_trees([categorical])
