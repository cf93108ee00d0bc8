"""Placement, claiming and fortification in play (riskstats.analysis.placement), on a small sample."""
import pandas as pd
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
    assert (rows.reference == 0).all() and rows.p_value.between(0, 1).all()  # normal p without an exact one
    exact = placement_robustness(effects.assign(p_value=[0.0004, 0.3]))
    assert exact.p_value.tolist() == [0.0004, 0.3]  # the exact McNemar p, unadjusted


def test_the_top_tier_populations_play_the_ladders_bots_and_keep_their_labels():
    from riskstats.analysis.placement import LABELS, POPULATIONS, placement_robustness
    from riskstats.runs.tiers import TIER_SETS
    from riskstats.stats.robustness import TOP_TIER, population_group

    for tier, entry in TIER_SETS["top"].items():
        assert POPULATIONS[tier] == entry["bot"] and LABELS[tier] == entry["population"]
    for tier in TOP_TIER:
        assert population_group(LABELS[tier]) == tier
    seats = POPULATIONS["hunter against the next best"].split(",")
    assert seats == ["hunter"] + [TIER_SETS["top"]["search"]["bot"]] * 3 and POPULATIONS["hunter"] == "hunter"
    effects = pd.DataFrame({"population": list(TOP_TIER), "treatment": ["claim=random"] * 2, "lineup": ["s", "m"],
                            "games": [2000, 3000], "effect": [-0.05, 0.01], "ci_low": [-0.08, -0.02],
                            "ci_high": [-0.02, 0.04], "p_value": [0.001, 0.5], "p_holm": [0.002, 0.5]})
    rows = placement_robustness(effects)
    assert [population_group(p) for p in rows.population] == list(TOP_TIER)


def test_a_rerun_of_some_populations_keeps_the_others_rows_and_holm_covers_the_whole_table():
    from riskstats.analysis.placement import merge_effects

    old = pd.DataFrame({"population": ["strong", "strong", "heuristic"], "treatment": ["a", "b", "a"],
                        "games": [10000] * 3, "p_value": [0.01, 0.02, 0.03]})
    new = pd.DataFrame({"population": ["search", "strong"], "treatment": ["a", "b"], "games": [2000, 500],
                        "p_value": [0.04, 0.5]})
    merged = merge_effects(old, new)
    assert list(zip(merged.population, merged.treatment, merged.games)) == [
        ("strong", "a", 10000), ("heuristic", "a", 10000), ("search", "a", 2000), ("strong", "b", 500)]
    assert merged.p_holm.tolist() == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert merge_effects(None, new).population.tolist() == ["search", "strong"]
    with pytest.raises(RiskstatsError, match="not a placement_effects table"):
        merge_effects(old, pd.DataFrame({"population": ["x"]}))


def test_conclusions_name_the_population_and_stay_within_the_interval():
    from riskstats.analysis.placement import placement_conclusions

    effects = pd.DataFrame({"population": ["search", "strong"], "treatment": ["fortify=spread"] * 2,
                            "lineup": ["s", "v"], "games": [2000, 10000], "effect": [0.01, 0.046],
                            "ci_low": [-0.02, 0.034], "ci_high": [0.04, 0.059], "p_value": [0.5, 1e-9],
                            "p_holm": [0.5, 1e-8]})
    (line,) = placement_conclusions(effects)
    assert line.startswith("**fortifying to the most threatened border beats evening out")
    assert "search in every seat (top tier), -1.0 points (95% -4.0 to +2.0; 2,000 games per arm): no effect " \
           "detected, |effect| < 4.0 points" in line
    assert "value:rollouts=1:plans=4 in every seat, -4.6 points" in line and "reversed: the treatment wins" in line
    (line,) = placement_conclusions(effects.assign(ci_high=[-0.001, 0.059], p_holm=[0.07, 1e-8]))
    assert "2,000 games per arm): not shown after Holm's correction over the table (Holm p = 0.07)" in line


def test_decision_pairs_show_what_a_treatment_changes():
    from riskstats.analysis.placement import decision_pairs

    pairs = decision_pairs("continent-tuned", {"fortify": "spread"}, seed=3, turns=20)
    assert set(pairs.phase) == {"claim", "setup_place", "reinforce", "fortify"}
    assert not pairs[pairs.phase != "fortify"].differ.any() and pairs[pairs.phase == "fortify"].differ.any()
    same = decision_pairs("continent-tuned", {"fortify": "border"}, seed=3, turns=5)
    assert not same.differ.any() and len(same) > 42  # every claim at least
    with pytest.raises(RiskstatsError, match="must be one of"):
        decision_pairs("continent-tuned", {"fortify": "sideways"})


def test_a_tier_population_treats_its_first_seat_against_the_others():
    """A tier whose bot plays against others (`riskstats.runs.tiers.tier_seats` with a treated seat): the treated seat
    is the tier's bot, labelled apart, and the other three keep the others' bot."""
    from riskstats.analysis.placement import POPULATIONS, placement_effects
    from riskstats.runs.tiers import TIER_SETS

    effects = placement_effects(4, 4, populations={"t": POPULATIONS["hunter against the next best"]},
                                treatments={"fortify=none": {"fortify": "none"}}, seed=3)
    seats = effects.lineup.iloc[0].split(",")
    assert seats == ["hunter:first=-1"] + [TIER_SETS["top"]["search"]["bot"]] * 3 and effects.games.iloc[0] == 4
