"""The command line under Balanced Blitz and the app's dice augments (issue 40): the mode in titles and JSON,
the published figures through the commands, ``--compare-modes``, and one-line errors naming the option."""
import json

import pytest
from cli_helpers import run, run_json

from riskstats.odds.augments import with_augments
from riskstats.odds.battle import battle_odds
from riskstats.odds.chain import attackers_needed, chain_odds


def one_line_error(result, *words):
    assert result.exit_code != 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.output
    assert "Traceback" not in result.output
    for word in words:
        assert word in lines[0], lines[0]


def test_odds_balanced_blitz_on_a_capital_reproduces_the_published_figure():
    out = run_json("odds", 30, 15, "--balanced-blitz", "--defender-augment", "capital")
    assert out["mode"] == "Balanced Blitz"
    assert out["balance"] == {"win_cutoff": 0.05, "win_power": 1.3, "outcome_cutoff": 0.1, "outcome_power": 1.8}
    assert out["augments"] == {"attacker": [], "defender": ["capital"]} and out["rules"]["defender_dice"] == 3
    lost_12 = [o["p"] for o in out["outcomes"] if (o["attackers_left"], o["defenders_left"]) == (18, 0)]
    assert lost_12 == [pytest.approx(0.0100282888709122, abs=1e-15)]
    true = run_json("odds", 30, 15, "--defender-augment", "capital")
    assert true["mode"] == "true random" and true["balance"] is None
    assert [o["p"] for o in true["outcomes"] if (o["attackers_left"], o["defenders_left"]) == (18, 0)] == \
        [pytest.approx(0.0222128001707278, abs=1e-15)]


def test_the_text_title_names_the_mode():
    balanced = run("odds", 30, 15, "--balanced-blitz", "--defender-augment", "capital", "--summary")
    assert balanced.exit_code == 0 and "capital" in balanced.stdout and "81.0056%" in balanced.stdout
    assert balanced.stdout.splitlines()[0].startswith("mode: Balanced Blitz (")
    assert run("odds", 10, 5).stdout.splitlines()[0].startswith("mode: true random (")


def test_zombie_defenders_through_the_command_line():
    out = run_json("odds", 300, 800, "--defender-augment", "zombie", "--summary")
    assert out["p_win"] == pytest.approx(0.8897331, abs=5e-7)
    assert out["rules"]["ties"] == "attacker"
    zombie_attacker = run_json("odds", 10, 5, "--attacker-augment", "zombie", "--summary")
    assert zombie_attacker["rules"]["attacker_dice"] == 2
    assert zombie_attacker["p_win"] == pytest.approx(battle_odds(10, 5, with_augments(attacker="zombie")).p_win)


def test_need_balanced_blitz():
    balanced = run_json("need", 50, "--p", 0.8, "--balanced-blitz")
    assert (balanced["attackers"], balanced["mode"]) == (49, "Balanced Blitz")
    true = run_json("need", 50, "--p", 0.8)
    assert (true["attackers"], true["mode"]) == (53, "true random")
    chain = run_json("need", 3, 2, "--p", 0.7, "--balanced-blitz")
    assert chain["attackers"] == attackers_needed([3, 2], 0.7, balance="blitz").attackers
    assert run("need", 50, "--p", 0.8, "--balanced-blitz").stdout.startswith("mode: Balanced Blitz")


def test_compare_modes_side_by_side():
    out = run_json("odds", 30, 15, "--compare-modes", "--defender-augment", "capital")
    assert out["mode"] == "compare" and [m["mode"] for m in out["modes"]] == ["true random", "Balanced Blitz"]
    capital = with_augments(defender="capital")
    for summary, balance in zip(out["modes"], (None, "blitz")):
        expected = battle_odds(30, 15, capital, balance=balance)
        assert summary["p_win"] == pytest.approx(expected.p_win, abs=1e-15)
        assert summary["expected_attacker_losses"] == pytest.approx(expected.expected_attacker_losses, abs=1e-12)
        assert summary["expected_defender_losses"] == pytest.approx(expected.expected_defender_losses, abs=1e-12)
    text = run("odds", 20, 15, "--compare-modes")
    assert text.exit_code == 0
    assert text.stdout.startswith("mode: true random and Balanced Blitz")
    assert "86.0399%" in text.stdout and "100.0000%" in text.stdout  # 20 against 15 becomes certain


def test_table_and_chain_balanced():
    rows = json.loads(run("table", "--attackers", 20, "--defenders", 15, "--format", "json",
                          "--balanced-blitz").stdout)
    assert rows[-1]["p_win"] == pytest.approx(1, abs=1e-12) and rows[-1]["mode"] == "Balanced Blitz"
    csv = run("table", "--attackers", 3, "--defenders", 2, "--format", "csv", "--balanced-blitz").stdout
    assert csv.splitlines()[0] == "attackers,defenders,p_win,mode"
    assert run("table", "--attackers", 3, "--defenders", 2, "--balanced-blitz").stdout.startswith("mode: Balanced")
    out = run_json("chain", 10, 3, 2, "--balanced-blitz")
    assert out["mode"] == "Balanced Blitz"
    assert out["p_all"] == pytest.approx(chain_odds(10, [3, 2], balance="blitz").p_all, abs=1e-15)
    assert run("chain", 10, 3, 2, "--balanced-blitz").stdout.startswith("mode: Balanced Blitz")
    assert run("chain", 10, 3, 2).stdout.startswith("mode: true random")


def test_simulate_balanced_blitz():
    out = run_json("simulate", 10, 10, "--trials", "2e5", "--seed", 4, "--balanced-blitz")
    assert out["mode"] == "Balanced Blitz"
    assert out["p_win_exact"] == pytest.approx(battle_odds(10, 10, balance="blitz").p_win, abs=1e-15)
    assert out["ci_low"] <= out["p_win_exact"] <= out["ci_high"]
    assert run("simulate", 10, 10, "--trials", "1e4", "--seed", 4, "--balanced-blitz").stdout.startswith(
        "mode: Balanced Blitz")


def test_true_random_output_keeps_its_keys():
    out = run_json("odds", 10, 5)
    assert out["p_win"] == pytest.approx(battle_odds(10, 5).p_win, abs=1e-15)
    assert out["mode"] == "true random" and out["augments"] == {"attacker": [], "defender": []}
    csv = run("table", "--attackers", 3, "--defenders", 2, "--format", "csv").stdout
    assert csv.splitlines()[0] == "attackers,defenders,p_win"


@pytest.mark.parametrize("args, words", [
    (["odds", 5, 3, "--exact", "--balanced-blitz"], ["--exact", "--balanced-blitz"]),
    (["chain", 5, 3, "--exact", "--balanced-blitz"], ["--exact", "--balanced-blitz"]),
    (["odds", 5, 3, "--exact", "--compare-modes"], ["--exact", "--compare-modes"]),
    (["odds", 5, 3, "--top", 2, "--compare-modes"], ["--top", "--compare-modes"]),
    (["odds", 5, 3, "--defender-augment", "castle"], ["--defender-augment", "castle", "capital, wall, zombie"]),
    (["odds", 5, 3, "--attacker-augment", "capital"], ["--attacker-augment", "zombie"]),
    (["odds", 5, 3, "--defender-augment", "capital", "--defender-augment", "wall"], ["--defender-augment", "4 dice"]),
    (["need", 100, 100, 100, 100, "--p", 0.5, "--balanced-blitz"], ["need --balanced-blitz", "300"]),
    (["chain", 3000, 1000, 1000, "--balanced-blitz"], ["chain --balanced-blitz", "limit"]),
    (["chain", 2000, *[3] * 60, "--balanced-blitz"], ["chain --balanced-blitz", "balanced battles"]),
    (["need", *[2] * 25, "--p", 0.5, "--balanced-blitz"], ["need --balanced-blitz", "25 territories"]),
])
def test_bad_input_is_one_line_naming_the_option(args, words):
    one_line_error(run(*args), *words)
