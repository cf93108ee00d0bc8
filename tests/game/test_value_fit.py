"""Fitting the boosted position value: the seat table, the LightGBM fit on the conditional-logit likelihood, and
the seeds the fits and the validation play (the conditional logit's fit is tested in test_value.py)."""
import importlib.util
from pathlib import Path

import numpy as np
import pytest

from riskstats.game.value import BOOSTED_INPUTS, N_FEATURES
from riskstats.game.value_fit import (
    _group_softmax,
    fit_boosted,
    predict_boosted,
    sample_positions,
    scores,
    seat_rows,
)
from riskstats.game.value_trees import export_trees

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "make" / "fit_value.py"


def _script():
    spec = importlib.util.spec_from_file_location("fit_value", SCRIPT)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return script


@pytest.fixture(scope="module")
def small():
    return [sample_positions(60, 4, ["continent-tuned", "aggressive", "defensive", "continent"], seed=31,
                             per_game=8),
            sample_positions(40, 3, ["continent-tuned", "aggressive", "defensive"], seed=32, per_game=8)]


def test_seat_rows_group_each_position_with_one_winner(small):
    table = seat_rows(small)
    positions = sum(len(s["winner"]) for s in small)
    assert len(table["starts"]) == len(table["game"]) == positions
    assert table["rows"].shape == (sum(int(s["alive"].sum()) for s in small), len(BOOSTED_INPUTS))
    assert np.add.reduceat(table["won"], table["starts"]).tolist() == [1.0] * positions
    np.testing.assert_array_equal(table["rows"][:, :N_FEATURES], np.concatenate([s["X"][s["alive"]] for s in small]))
    assert len(np.unique(table["game"])) == len(np.unique(np.concatenate(
        [[(k, g) for g in np.unique(s["game"])] for k, s in enumerate(small)]), axis=0))
    p = _group_softmax(np.random.default_rng(0).normal(size=len(table["won"])), table["starts"])
    np.testing.assert_allclose(np.add.reduceat(p, table["starts"]), 1.0)


def test_the_boosted_fit_is_seeded_and_beats_territory_share_in_sample(small):
    """The same table fits the same trees; the exported trees' compiled probabilities sum to 1 over the players
    in play and score better than the territory share on the fitted positions."""
    table = seat_rows(small)
    dump, scale, info = fit_boosted(table, rounds=30)
    again, scale2, _ = fit_boosted(table, rounds=30)
    assert dump == again and scale == scale2 and 0.2 <= scale <= 5.0
    assert info["held_positions"] > 0 and info["held_log_loss_scaled"] <= info["held_log_loss"] + 1e-12
    trees = export_trees([dump], [scale])
    s = small[0]
    p = predict_boosted(s["inputs"], s["alive"], trees, 0)
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    assert (p[~s["alive"]] == 0).all()
    share = s["territory"] / s["territory"].sum(axis=1, keepdims=True)
    assert scores(p, s["alive"], s["winner"])["brier"] < scores(share, s["alive"], s["winner"])["brier"]


def test_validation_never_plays_a_game_of_a_fit():
    """The games of every validation population (seed words of its line-ups' seeds) are disjoint from those of
    every fit's design, and the boosted design holds the strong design and the tuned value bot's games."""
    script = _script()

    def words(design, seed):
        return {int(w) for variant, lineups in design.items() for k, (_, _, games) in enumerate(lineups)
                for w in np.random.SeedSequence(seed + k).generate_state(games, np.uint64)}

    fitted = set().union(*(words(design, script.SEED) for design in script.FITS.values()))
    for name, design, seed, _ in script.POPULATIONS:
        assert not fitted & words(design, seed), name
    for v, lineups in script.FITS["boosted"].items():
        assert lineups[:len(script.FITS["strong"][v])] == script.FITS["strong"][v]
        assert any(script.VALUE_TUNED in bots for _, bots, _ in lineups)
