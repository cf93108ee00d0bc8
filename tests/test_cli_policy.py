"""The ``policy`` command: its JSON contract, its table, its dice-rule options and one-line errors."""
from fractions import Fraction

import pytest
from cli_helpers import run, run_json

from riskstats.odds.dice import DiceRules
from riskstats.odds.policy import chain_policy, policy


def test_policy_json_contract():
    out = run_json("policy", 8, 4, "--value", 5)
    assert {"expected_value", "baseline", "policy"} <= set(out)
    expected = policy(8, 4, 5)
    assert out["expected_value"] == pytest.approx(expected.expected_value, abs=1e-12)
    assert set(out["baseline"]) == set(expected.baseline)
    assert {"attack_to_end", "stop_at_1", "stop_at_7", "no_attack"} <= set(out["baseline"])
    assert out["baseline"]["attack_to_end"] == pytest.approx(expected.baseline["attack_to_end"], abs=1e-12)
    assert len(out["policy"]) == 8 * 4
    assert all({"attackers", "defenders", "action", "dice"} <= set(row) for row in out["policy"])
    cell = {(r["attackers"], r["defenders"]): (r["action"], r["dice"]) for r in out["policy"]}
    assert cell[(1, 4)] == ("stop", 0) and cell[(8, 1)] == ("attack", 3)


def test_policy_json_exact_rules_and_chains():
    out = run_json("policy", 4, 2, "--value", 5, "--exact", "--defender-modifier", 1, "--kill-value", 1)
    expected = policy(4, 2, 5, DiceRules(defender_modifier=1), kill_value=1, exact=True)
    assert Fraction(out["expected_value"]) == expected.expected_value
    assert out["rules"]["defender_modifier"] == 1
    chain = run_json("policy", 8, 2, 3, "--value", 3, "--value", 1, "--leave", 1)
    assert chain["expected_value"] == pytest.approx(chain_policy(8, [2, 3], [3, 1]).expected_value, abs=1e-12)
    assert {r["territory"] for r in chain["policy"]} == {1, 2}


def test_policy_table_shows_the_policies_and_the_grid():
    result = run("policy", 6, 3, "--value", 4)
    assert result.exit_code == 0, result.output
    assert "optimal" in result.stdout and "attack_to_end" in result.stdout and "value of the choice" in result.stdout
    assert "dice to roll" in result.stdout


@pytest.mark.parametrize("args, message", [
    (("policy", 5, 2), "--value"),
    (("policy", 5, 2, "--value", "x"), "'x' is not a number"),
    (("policy", 0, 2, "--value", 1), "ATTACKERS must be"),
    (("policy", 5, 2, "--value", 1, "--defender", "smart"), "--defender must be one of best, after_roll, max"),
    (("policy", 5, 2, 2, "--value", 1, "--value", 2, "--value", 3), "values must be one number or one per"),
])
def test_policy_bad_input_is_one_line_and_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith("error:")


def test_policy_defender_after_roll():
    out = run_json("policy", 10, 5, "--value", 5, "--defender", "after_roll")
    assert out["defender"] == "after_roll"
    assert out["expected_value"] == pytest.approx(policy(10, 5, 5, defender="after_roll").expected_value, abs=1e-12)
    row = next(r for r in out["policy"] if (r["attackers"], r["defenders"]) == (3, 2))
    assert 0 < row["p_defender_fewer"] < 1
