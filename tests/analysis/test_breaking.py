"""Breaking a rival's continent: the moments found are real breaks, the forced attack pays its dice, and the
paired rollouts give no effect when both arms are the same position."""
import numpy as np
import pandas as pd
import pytest

from riskstats.analysis import breaking
from riskstats.analysis.breaking import BREAK_COLUMNS, break_positions, break_summary, break_value, force_break
from riskstats.errors import RiskstatsError
from riskstats.game.rules.board import classic_board
from riskstats.runs.selfplay import play_games


@pytest.fixture(scope="module")
def found():
    games = play_games(6, 4, "continent-tuned", seed=5)
    return break_positions(games, min_p=0.0, seed=2)


def test_positions_are_breaks_open_to_the_mover(found):
    board = classic_board()
    assert found, "six games give at least one break"
    for entry in found:
        game, mover, rival = entry["position"], entry["mover"], entry["rival"]
        st = game.state
        members = np.flatnonzero(board.arrays.continent_of == list(board.continents).index(entry["continent"]))
        assert game.phase == "attack" and game.player == mover != rival
        assert (st.owner[members] == rival).all(), "the rival holds the whole continent"
        assert entry["target"] in members and st.owner[entry["source"]] == mover
        assert entry["target"] in board.neighbours(entry["source"])
        assert entry["attackers"] == st.armies[entry["source"]] - 1 and entry["defenders"] == st.armies[entry["target"]]
        assert 0 <= entry["p_conquer"] <= 1
    assert len({e["game"] for e in found}) == len(found), "at most one position per game"


def test_forced_break_attacks_to_conquest_or_the_last_army(found):
    entry = found[0]
    before = entry["position"].state.armies.copy()
    results = [force_break(entry["position"], entry["source"], entry["target"], s) for s in range(20)]
    assert (entry["position"].state.armies == before).all(), "the position is not changed"
    for game in results:
        conquered = game.state.owner[entry["target"]] == entry["mover"]
        assert conquered == (game.phase == "occupy") or game.over
        if not conquered:
            assert game.state.armies[entry["source"]] == 1, "a failed break fights to the last army"
        assert game.state.armies.sum() < before.sum(), "the dice cost armies"
    same = [force_break(entry["position"], entry["source"], entry["target"], 7).state.armies for _ in range(2)]
    assert (same[0] == same[1]).all(), "the same seed, the same attack"


def test_identical_arms_give_zero_effect(found, monkeypatch):
    """The pairing: with the break replaced by no move at all, both arms roll out the same position on the same
    seeds, so every position's effect is exactly 0."""
    from riskstats.game.play import Game

    monkeypatch.setattr(breaking, "force_break",
                        lambda position, *a: Game.from_json(position.to_json(indent=None), position.board))
    values = break_value(found[:3], outcomes=2, rollouts=3, seed=4)
    assert list(values.columns) == list(BREAK_COLUMNS)
    assert (values.effect == 0).all() and (values.rival_effect == 0).all()
    assert (values.win_break == values.win_play).all()


def test_break_value_is_seeded(found):
    a = break_value(found[:2], outcomes=2, rollouts=2, seed=9)
    b = break_value(found[:2], outcomes=2, rollouts=2, seed=9)
    pd.testing.assert_frame_equal(a, b)
    assert (a.rollouts == 4).all() and a.p_conquered.between(0, 1).all()
    assert np.allclose(a.effect, a.win_break - a.win_play)


def test_summary_interval_and_groups():
    rng = np.random.default_rng(0)
    t = pd.DataFrame({"effect": rng.normal(0.1, 0.2, 400), "rival_effect": rng.normal(-0.1, 0.2, 400),
                      "p_conquered": 1.0, "mover_lost": 2.0, "win_break": 0.5, "win_play": 0.4,
                      "rival_break": 0.2, "rival_play": 0.3, "bonus": [2, 7] * 200})
    s = break_summary(t).iloc[0]
    assert s.effect_low < 0.1 < s.effect_high and s.rival_effect_low < -0.1 < s.rival_effect_high
    half = 1.96 * t.effect.std() / np.sqrt(400)
    assert np.isclose(s.effect_high - s.effect, half, rtol=1e-3)
    assert list(break_summary(t, by="bonus").bonus) == [2, 7]


def test_errors():
    with pytest.raises(RiskstatsError):
        break_value([], 1, 1)
    with pytest.raises(RiskstatsError):
        break_positions(play_games(1, 4, "random", seed=1), min_p=2)
