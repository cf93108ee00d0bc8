"""The outside experiments' verdicts (riskstats.analysis.outside_findings): effects, intervals, Holm and the claim's
direction, on made-up arms; and the committed arms read whole."""
import numpy as np
import pandas as pd
import pytest

from riskstats.analysis.outside_findings import CONTROL, TREATMENTS, card_modes, treatment_effects
from riskstats.errors import RiskstatsError


def _arm(path, bot, wins, n, players=4, turns=None, first=None):
    rng = np.random.default_rng(n + wins)
    won = np.zeros(n, int)
    won[:wins] = 1
    first_player = rng.integers(0, players, n)
    winner = np.where(won == 1, 0, 1) if first is None else np.where(np.arange(n) < first, first_player,
                                                                    (first_player + 1) % players)
    pd.DataFrame({"game": np.arange(n), "players": players, "remote": bot, "remote_won": won, "winner": winner,
                  "turns": rng.integers(40, 80, n) if turns is None else turns, "first_player": first_player}
                 ).to_csv(path, index=False)


def test_a_treatment_is_judged_by_its_claims_direction(tmp_path):
    _arm(tmp_path / f"{CONTROL}.csv", "hunter", 180, 600)  # 30%
    _arm(tmp_path / "hunter_reinforce_spread_4p.csv", "hunter:reinforce=spread", 60, 600)  # 10%: stacking wins
    _arm(tmp_path / "hunter_first_australia_4p.csv", "hunter:first=Australia:draft=1", 120, 600)  # 20%: reversed
    _arm(tmp_path / "hunter_fortify_none_4p.csv", "hunter:fortify=none", 175, 600)  # about the same
    table = treatment_effects(tmp_path).set_index("arm")
    assert table.loc["hunter_reinforce_spread_4p", "verdict"] == "holds"
    assert table.loc["hunter_first_australia_4p", "verdict"] == "reversed"
    assert table.loc["hunter_fortify_none_4p", "verdict"] == "inconclusive"
    row = table.loc["hunter_reinforce_spread_4p"]
    assert row.effect == pytest.approx(-0.2) and row.effect_low < -0.2 < row.effect_high < 0
    assert row.ci_low < 0.1 < row.ci_high and row.control_win_rate == pytest.approx(0.3)
    assert (table.p_holm >= table.p_value).all() and row.p_value < 1e-10
    assert row.finding == TREATMENTS["hunter_reinforce_spread_4p"][1]


def test_the_card_modes_give_length_and_the_first_players_share(tmp_path):
    def halves(a, b):
        return np.r_[np.full(400, a), np.full(400, b)]

    _arm(tmp_path / "cards_increasing_4p.csv", "domination:hard", 0, 800, turns=halves(55, 65), first=400)
    _arm(tmp_path / "cards_fixed_4p.csv", "domination:hard", 0, 800, turns=halves(80, 100), first=200)
    table = card_modes(tmp_path).set_index("mode")
    assert table.loc["increasing", "first_share"] == 0.5 and table.loc["fixed", "first_share"] == 0.25
    assert table.loc["fixed", "first_low"] < 0.25 < table.loc["fixed", "first_high"]
    diff = table.loc["increasing - fixed"]
    assert diff.mean_turns == -30 and diff.turns_low < -30 < diff.turns_high < 0
    assert diff.first_share == 0.25 and 0 < diff.first_low < 0.25 < diff.first_high


def test_a_missing_arm_is_one_line(tmp_path):
    with pytest.raises(RiskstatsError, match="no outside arm 'hunter_4p'"):
        treatment_effects(tmp_path, ["hunter_trade_hold_4p"])
    with pytest.raises(RiskstatsError, match="unknown treatment arm 'x'"):
        treatment_effects(tmp_path, ["x"])


def test_every_committed_outside_row_names_a_finding_of_the_verdict_table():
    from riskstats.analysis.outside_findings import outside_verdicts
    from riskstats.analysis.paths import data_dir

    verdicts = pd.read_csv(data_dir() / "robustness" / "verdicts.csv", dtype={"notebook": str})
    known = set(zip(verdicts.notebook.str.zfill(2), verdicts.finding))
    outside = outside_verdicts()
    assert len(outside) > 0 and set(zip(outside.notebook, outside.finding)) <= known
    assert set(outside.outside) <= {"holds", "reversed", "inconclusive"}
