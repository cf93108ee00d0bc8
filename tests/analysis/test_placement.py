"""Placement, claiming and fortification in play (riskstats.analysis.placement), on a small sample."""
import pytest

from riskstats.analysis.placement import placement_effects, placement_verdicts, treated_seat
from riskstats.errors import RiskstatsError


def test_small_sample_effects_are_paired_and_holm_corrected():
    effects = placement_effects(40, populations={"heuristic": "continent-tuned"},
                                treatments={"fortify=none": {"fortify": "none"},
                                            "reinforce=spread": {"reinforce": "spread"}})
    assert len(effects) == 2 and (effects.games == 40).all() and (effects.players == 4).all()
    assert effects.lineup.iloc[0] == ",".join([treated_seat("continent-tuned")] + ["continent-tuned"] * 3)
    assert effects.control_wins.nunique() == 1  # one control arm, shared by both treatments
    assert effects.effect.to_numpy() == pytest.approx((effects.treated_rate - effects.control_rate).to_numpy())
    assert ((effects.ci_low <= effects.effect) & (effects.effect <= effects.ci_high)).all()
    assert (effects.p_holm >= effects.p_value).all()
    assert ((effects.treated_ci_low <= effects.treated_rate) & (effects.treated_rate <= effects.treated_ci_high)).all()
    assert (effects.discordant > 0).all()  # the treatments change games
    verdicts = placement_verdicts(effects)
    assert set(verdicts.verdict) <= {"helps", "hurts", "no effect shown"}
    assert verdicts.effect_pp.to_numpy() == pytest.approx(100 * effects.effect.to_numpy())


def test_bad_input_is_refused():
    with pytest.raises(RiskstatsError, match="at least one population"):
        placement_effects(10, populations={})
    with pytest.raises(RiskstatsError, match="players"):
        placement_effects(10, players=2)
    with pytest.raises(RiskstatsError, match="not a placement_effects table"):
        import pandas as pd

        placement_verdicts(pd.DataFrame({"effect": [0.1]}))


def test_robustness_rows_say_whether_the_default_beats_each_treatment():
    import pandas as pd

    from riskstats.analysis.placement import placement_robustness
    from riskstats.stats.robustness import ROBUSTNESS_COLUMNS, population_group

    effects = pd.DataFrame({"population": ["strong", "heuristic"], "treatment": ["fortify=none", "claim=random"],
                            "lineup": ["v,v,v,v", "c,c,c,c"], "games": [100, 100], "effect": [-0.05, 0.01],
                            "ci_low": [-0.08, -0.02], "ci_high": [-0.02, 0.04], "p_holm": [0.001, 0.6]})
    rows = placement_robustness(effects)
    assert tuple(rows.columns) == ROBUSTNESS_COLUMNS and rows.holds.tolist() == [True, False]
    assert rows.reversed.tolist() == [False, False]  # the heuristic row's interval spans 0: inconclusive
    assert rows.estimate.tolist() == [0.05, -0.01] and rows.ci_low.tolist() == [0.02, -0.04]
    assert [population_group(p) for p in rows.population] == ["value:rollouts=1:plans=4", "heuristic"]
    assert "never fortifying" in rows.finding[0]


def test_decision_pairs_show_what_a_treatment_changes():
    from riskstats.analysis.placement import decision_pairs

    pairs = decision_pairs("continent-tuned", {"fortify": "spread"}, seed=3, turns=20)
    assert set(pairs.phase) == {"claim", "setup_place", "reinforce", "fortify"}
    assert not pairs[pairs.phase != "fortify"].differ.any() and pairs[pairs.phase == "fortify"].differ.any()
    same = decision_pairs("continent-tuned", {"fortify": "border"}, seed=3, turns=5)
    assert not same.differ.any() and len(same) > 42  # every claim at least
    with pytest.raises(RiskstatsError, match="must be one of"):
        decision_pairs("continent-tuned", {"fortify": "sideways"})
