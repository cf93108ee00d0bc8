"""The solved attack policy in play (riskstats.analysis.solved_play), on a small sample."""
import pytest

from riskstats.analysis.solved_play import SEAT, best_kill, seat_lineup, solved_policy_effects
from riskstats.errors import RiskstatsError


def test_one_seat_is_treated_and_the_rest_filled():
    assert seat_lineup("continent", 4) == f"{SEAT},continent,continent,continent"
    assert seat_lineup("aggressive,defensive", 2) == f"{SEAT},aggressive"
    with pytest.raises(RiskstatsError, match="at least one opponent"):
        seat_lineup(" , ", 3)


def test_small_sample_effects_are_paired_and_holm_corrected():
    effects = solved_policy_effects(30, players=[3], kills=[0.0, 1.0], populations={"continent": "continent"})
    assert len(effects) == 2 and (effects.games == 30).all()
    assert effects.control_wins.nunique() == 1  # one control arm, shared by both treatments
    assert effects.effect.to_numpy() == pytest.approx((effects.treated_rate - effects.control_rate).to_numpy())
    assert ((effects.ci_low <= effects.effect) & (effects.effect <= effects.ci_high)).all()
    assert (effects.p_holm >= effects.p_value).all()
    assert ((effects.treated_ci_low <= effects.treated_rate) & (effects.treated_rate <= effects.treated_ci_high)).all()
    by_kill = effects.set_index("kill")
    assert by_kill.treated_rate[0.0] < by_kill.control_rate[0.0]  # never attacking 5+ defenders loses games
    best = best_kill(effects).iloc[0]
    assert best.best_kill == by_kill.treated_rate.idxmax() and best.games == 30
