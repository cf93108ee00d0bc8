"""Tree ensembles as flat arrays: the exported form of a boosted position value, and its compiled evaluation.

This module owns the format of an exported ensemble (`TREE_ARRAYS`), turning a LightGBM model's dump into it
(`export_trees`, which reads the dump's dict and needs no LightGBM), reading and writing it (`load_trees`,
`save_trees`, ``.npz`` package data) and the compiled evaluation (`_margin`: one ensemble's raw score of an input
row, as LightGBM's ``predict(raw_score=True)`` sums it). It does not own the inputs the trees read or the model
built on them (`riskstats.game.value`), nor the fit (`riskstats.game.value_fit`).

**The arrays.** Every tree is stored complete to the ensemble's depth D (a shallower leaf is repeated below
itself, under splits that always go left), in heap order, so a row is evaluated by D branch-free steps a tree:

    feature[K, 2^D - 1]    the input tested at node n of tree k (node n's children: 2n + 1 and 2n + 2)
    threshold[K, 2^D - 1]  go left when x[feature] <= threshold, else right (+inf: always left)
    leaf[K, 2^D]           the leaves' outputs, left to right
    tree_ptr[V + 1]        variant v's trees are k = tree_ptr[v] .. tree_ptr[v + 1] - 1
    scale[V]               a variant's margin is multiplied by scale[v] (a fitted temperature; 1: none)

The inputs never hold NaN, so a split's missing-value direction plays no part.
"""
from __future__ import annotations

import numpy as np

from riskstats._numba import jit
from riskstats.errors import RiskstatsError

TREE_ARRAYS = ("feature", "threshold", "leaf", "tree_ptr", "scale")
"""The arrays of an exported ensemble (a ``.npz`` file), in the order the kernels take them."""


def _depth(node: dict) -> int:
    """The depth of a LightGBM dump node's subtree (a leaf: 0)."""
    if "split_feature" not in node:
        return 0
    return 1 + max(_depth(node["left_child"]), _depth(node["right_child"]))


def _fill(node: dict, n: int, depth: int, feature, threshold, leaf) -> None:
    """Write a LightGBM dump node's subtree at heap node n, ``depth`` levels above the leaves."""
    inner = feature.shape[0]
    if depth == 0:
        leaf[n - inner] = float(node["leaf_value"])
        return
    if "split_feature" not in node:  # a leaf above the bottom: always left, the same leaf everywhere below
        feature[n], threshold[n] = 0, np.inf
        _fill(node, 2 * n + 1, depth - 1, feature, threshold, leaf)
        _fill(node, 2 * n + 2, depth - 1, feature, threshold, leaf)
        return
    if node.get("decision_type", "<=") != "<=" or node.get("missing_type", "None") not in ("None", "NaN"):
        raise RiskstatsError(f"unsupported split {node.get('decision_type')!r} / {node.get('missing_type')!r}")
    feature[n], threshold[n] = int(node["split_feature"]), float(node["threshold"])
    _fill(node["left_child"], 2 * n + 1, depth - 1, feature, threshold, leaf)
    _fill(node["right_child"], 2 * n + 2, depth - 1, feature, threshold, leaf)


def export_trees(dumps: list[dict], scale=None) -> dict:
    """Flat arrays (`TREE_ARRAYS`) of one LightGBM ensemble per variant: ``dumps[v]`` is variant v's
    ``Booster.dump_model()`` (a model fitted on raw margins: no initial score), ``scale[v]`` its temperature."""
    structures = [tree["tree_structure"] for dump in dumps for tree in dump["tree_info"]]
    depth = max([_depth(t) for t in structures] + [1])
    K = len(structures)
    feature = np.zeros((K, 2 ** depth - 1), np.int64)
    threshold = np.zeros((K, 2 ** depth - 1))
    leaf = np.zeros((K, 2 ** depth))
    for k, tree in enumerate(structures):
        _fill(tree, 0, depth, feature[k], threshold[k], leaf[k])
    ptr = np.cumsum([0] + [len(dump["tree_info"]) for dump in dumps]).astype(np.int64)
    scale = np.ones(len(dumps)) if scale is None else np.asarray(scale, float)
    return {"feature": feature, "threshold": threshold, "leaf": leaf, "tree_ptr": ptr, "scale": scale}


def save_trees(path, trees: dict) -> None:
    """Write an exported ensemble (`TREE_ARRAYS`) to ``path`` (``.npz``, compressed)."""
    np.savez_compressed(path, **{name: trees[name] for name in TREE_ARRAYS})


def load_trees(source) -> dict:
    """An exported ensemble read from a path or file object, checked: complete trees (2^D - 1 splits and 2^D
    leaves each), non-negative features, ``tree_ptr`` rising from 0 to the number of trees."""
    with np.load(source) as f:
        trees = {name: f[name] for name in TREE_ARRAYS}
    K, inner = trees["feature"].shape
    ptr = trees["tree_ptr"]
    if (trees["threshold"].shape != (K, inner) or trees["leaf"].shape != (K, inner + 1) or inner + 1 < 2
            or (inner + 1) & inner or trees["feature"].min(initial=0) < 0 or ptr[0] != 0 or ptr[-1] != K
            or (np.diff(ptr) < 0).any() or len(trees["scale"]) != len(ptr) - 1):
        raise RiskstatsError("malformed tree ensemble")
    return trees


@jit
def _margin(x, v, feature, threshold, leaf, tree_ptr, scale):  # pragma: no cover - compiled
    """Variant v's ensemble's raw score of the input row x (the sum of its trees' leaves) times scale[v]."""
    inner = feature.shape[1]
    total = 0.0
    for k in range(tree_ptr[v], tree_ptr[v + 1]):
        n = 0
        while n < inner:
            n = 2 * n + 1 + (x[feature[k, n]] > threshold[k, n])
        total += leaf[k, n - inner]
    return total * scale[v]


@jit
def _margins(rows, v, feature, threshold, leaf, tree_ptr, scale, out):  # pragma: no cover - compiled
    """out[i] = `_margin` of input row i (the rows of a table, [n, inputs])."""
    for i in range(rows.shape[0]):
        out[i] = _margin(rows[i], v, feature, threshold, leaf, tree_ptr, scale)


def margins(trees: dict, rows, variant: int) -> np.ndarray:
    """The compiled raw scores of an exported ensemble (`TREE_ARRAYS`) for the input rows [n, inputs] of
    variant index ``variant``."""
    rows = np.ascontiguousarray(rows, dtype=float)
    if rows.ndim != 2:
        raise RiskstatsError("rows must be a 2-d array [rows, inputs]")
    if not 0 <= variant < len(trees["tree_ptr"]) - 1:
        raise RiskstatsError(f"variant index {variant} out of range")
    out = np.zeros(len(rows))
    _margins(rows, variant, *(trees[name] for name in TREE_ARRAYS), out)
    return out
