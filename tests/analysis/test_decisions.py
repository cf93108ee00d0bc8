"""Attack-decision analyses: frontiers, rule losses, choice values and dice choices, checked exactly."""
import pytest

from riskstats.analysis.decisions import choice_value, dice_choices, frontiers, rule_losses, stop_frontier
from riskstats.odds.dice import DiceRules
from riskstats.odds.policy import policy


def test_stop_frontier_reads_the_policy_table():
    solved = policy(12, 6, 5, kill_value=1)
    frontier = stop_frontier(solved).set_index("defenders")
    table = solved.table.set_index(["attackers", "defenders"]).action
    for d, row in frontier.iterrows():
        attacking = [a for a in range(1, 13) if table[a, d] == "attack"]
        assert row.min_attackers == (min(attacking) if attacking else 0)
        assert row.threshold == (attacking == list(range(min(attacking), 13)) if attacking else True)


def test_frontier_moves_down_as_the_conquest_is_worth_more():
    f = frontiers(15, 8, [2, 8]).pivot(index="defenders", columns="value", values="min_attackers")
    attacked = f[(f[2] > 0)]
    assert (attacked[8] <= attacked[2]).all()
    assert (f[8] > 0).sum() >= (f[2] > 0).sum()


def test_rule_losses_are_differences_of_exact_values():
    solved = policy(10, 6, 6)
    losses = rule_losses(solved).set_index("rule")
    v = solved.values
    assert losses.max_loss["attack to the end"] == pytest.approx((v.optimal - v.attack_to_end).max())
    assert losses.mean_loss["stop below 3 attackers"] == pytest.approx((v.optimal - v.stop_at_2).mean())
    assert (losses.max_loss >= -1e-12).all()
    assert losses.max_loss["best threshold"] <= losses.max_loss["attack to the end"] + 1e-12


def test_choice_value_matches_the_solver():
    t = choice_value([(12, 8)], [10]).iloc[0]
    solved = policy(12, 8, 10)
    assert t.optimal == pytest.approx(solved.expected_value)
    assert t.value_of_choice == pytest.approx(solved.value_of_choice) and t.value_of_choice > 0
    assert t["attack to the end"] == pytest.approx(solved.baseline["attack_to_end"])


def test_dice_choices_finds_the_bunker_defenders_one_die():
    t = dice_choices(4, 3, [10], {"standard": DiceRules(), "bunker": DiceRules(defender_modifier=1)},
                     kill_value=1, survivor_value=1).set_index("variant")
    assert t.defender_fewer["standard"] == 0
    assert t.defender_fewer["bunker"] == 2 and "3 v 2: attacker 3, defender 1" in t.examples["bunker"]


def test_monte_carlo_check_never_counts_an_empty_comparison_as_a_pass():
    from riskstats.analysis.decisions import monte_carlo_check, monte_carlo_verdict

    never = policy(1, 9, 1)  # never attacks: every sample is 0 = the exact 0
    assert never.expected_value == 0 and never.table.action.eq("stop").all()
    check = monte_carlo_check({"never attacks": never}, 1_000, [0, 1])
    assert check.status.eq("excluded").all() and check.p_value.isna().all()
    verdict = monte_carlo_verdict(check).iloc[0]
    assert verdict.comparisons == 0 and verdict.excluded == 2 and not verdict.family_pass


def test_monte_carlo_check_holm_over_the_family():
    from riskstats.analysis.decisions import monte_carlo_check, monte_carlo_verdict

    solved = policy(10, 5, 3, kill_value=1)
    check = monte_carlo_check({"10 v 5": solved, "never": policy(1, 9, 1)}, 20_000, [0, 1, 2])
    tested = check[check.status != "excluded"]
    assert len(tested) == 3 and tested.status.eq("pass").all()
    assert (tested.p_holm >= tested.p_value).all() and tested.p_holm.min() == pytest.approx(
        min(1.0, 3 * tested.p_value.min()))
    verdict = monte_carlo_verdict(check).iloc[0]
    assert verdict.comparisons == 3 and verdict.excluded == 3 and verdict.family_pass
