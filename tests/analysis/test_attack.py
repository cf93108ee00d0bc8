"""Attack-odds analyses, checked against direct calls of the exact engine."""
import pytest

from riskstats.analysis.attack import (
    VARIANTS,
    armies_needed,
    balance_shift,
    fit_rule_of_thumb,
    rules_of_thumb,
    stop_rule_odds,
    variant_odds,
)
from riskstats.errors import RiskstatsError
from riskstats.odds.battle import battle_odds
from riskstats.odds.chain import attackers_needed


def test_armies_needed_matches_the_inverse_query():
    needed = armies_needed([1, 4, 9, 25], [0.5, 0.8, 0.95])
    assert len(needed) == 12
    for row in needed.itertuples():
        assert row.attackers == attackers_needed(row.defenders, row.target).attackers
        assert row.territory_armies == row.attackers + 1
        assert row.p_win >= row.target


def test_armies_needed_under_balanced_blitz_matches_the_inverse_query():
    needed = armies_needed([1, 5, 17, 50], [0.5, 0.8, 0.95], balance="blitz")
    for row in needed.itertuples():
        assert row.attackers == attackers_needed(row.defenders, row.target, balance="blitz").attackers
        assert row.p_win >= row.target
    assert needed.query("defenders == 50 and target == 0.8").attackers.item() == 49  # SMG's published figure


def test_balance_shift_against_battle_odds():
    shift = balance_shift(12, 9)
    assert len(shift) == 12 * 9
    for row in shift.sample(10, random_state=2).itertuples():
        assert row.p_win_true_random == pytest.approx(battle_odds(row.attackers, row.defenders).p_win, abs=1e-14)
        assert row.p_win_balanced == pytest.approx(
            battle_odds(row.attackers, row.defenders, balance="blitz").p_win, abs=1e-12)
        assert row.p_win_change == pytest.approx(row.p_win_balanced - row.p_win_true_random, abs=1e-15)
    # the favourite gains, the underdog loses
    assert (shift.query("p_win_true_random > 0.5").p_win_change >= 0).all()
    assert (shift.query("p_win_true_random < 0.5").p_win_change <= 0).all()


def test_armies_needed_refuses_bad_targets():
    with pytest.raises(RiskstatsError, match="targets must lie in"):
        armies_needed([3], [1.0])


def test_rule_of_thumb_fits_the_table():
    fit = fit_rule_of_thumb(armies_needed(range(1, 41)))
    assert list(fit.target) == [0.5, 0.8, 0.95]
    assert (fit.r_squared > 0.99).all()
    assert fit.slope.is_monotonic_increasing  # surer wins cost more per defender
    even = fit.set_index("target").loc[0.5]
    assert 0.8 < even.slope < 0.9  # an even fight needs fewer attackers than defenders, at scale


def test_variants_shift_the_odds_the_right_way():
    frame = variant_odds(12, 12)
    assert set(frame.variant) == set(VARIANTS)
    mean = frame.groupby("variant").p_win_change.mean()
    assert mean["standard"] == 0
    assert mean["ties to attacker"] > 0
    for harder in ("defender rolls 3", "defender d8", "bunker (+1)"):
        assert mean[harder] < 0
    row = frame[(frame.variant == "defender d8") & (frame.attackers == 5) & (frame.defenders == 3)]
    from riskstats.odds.dice import DiceRules

    assert row.p_win.item() == pytest.approx(battle_odds(5, 3, DiceRules(defender_sides=8)).p_win)


def test_stop_rules_trade_wins_for_kept_armies():
    frame = stop_rule_odds(20, 15, [0, 3, 6])
    bold = frame[frame.rule == "bold"].set_index("stop_at")
    cautious = frame[frame.rule == "cautious"].set_index("stop_at")
    assert bold.p_win.is_monotonic_decreasing
    assert (cautious.p_win <= bold.p_win + 1e-15).all()
    kept = cautious.armies_kept[cautious.index > 0]
    assert kept.to_numpy() == pytest.approx(kept.index.to_numpy(), rel=1e-12)  # retreats with exactly stop_at


def test_rules_of_thumb_verdicts():
    verdicts = rules_of_thumb(40).set_index("claim")
    even = verdicts.loc["With equal armies the defender is favoured (ties go to it)"]
    assert not even.holds and even.fails_for == list(range(5, 41))
    assert verdicts.loc["One army more than the defender wins more often than not"].holds
    assert not verdicts.loc["A 3-v-2 roll favours the defender, since it wins ties"].holds


def test_rules_of_thumb_counted_in_territory_armies():
    """Counted as players count (armies on the attacking territory, one more than can roll), equal armies
    favour the defender up to 11 a side and one army more fails for 1 to 4 defenders."""
    verdicts = rules_of_thumb(40, count="territory").set_index("claim")
    even = verdicts.loc["With equal armies the defender is favoured (ties go to it)"]
    assert even.fails_for == list(range(12, 41))
    one_more = verdicts.loc["One army more than the defender wins more often than not"]
    assert not one_more.holds and one_more.fails_for == [1, 2, 3, 4]
    p = {(a, d): battle_odds(a, d).p_win for a, d in [(10, 11), (11, 12), (4, 4), (5, 5)]}
    assert p[10, 11] < 0.5 < p[11, 12] and p[4, 4] < 0.5 < p[5, 5]  # the exact odds behind both verdicts
    with pytest.raises(RiskstatsError, match="count must be one of"):
        rules_of_thumb(10, count="dice")


def test_verdicts_by_count_side_by_side():
    from riskstats.analysis.attack import verdicts_by_count

    v = verdicts_by_count(30).set_index("claim")
    even = "With equal armies the defender is favoured (ties go to it)"
    assert v.loc[even, "fails_for (attackers)"] == "5-30" and v.loc[even, "fails_for (territory)"] == "12-30"
    assert v.loc["A 3-v-2 roll favours the defender, since it wins ties", "fails_for (territory)"] == "always"
    assert v["holds (attackers)"].dtype == bool
