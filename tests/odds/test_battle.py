"""The exact battle engine: published values, exact against float, and the laws a battle obeys."""
import importlib.util
import os
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from riskstats.errors import RiskstatsError
from riskstats.odds.battle import INTERPRETED_STATES, battle_odds, win_table, win_values
from riskstats.odds.chain import chain_odds
from riskstats.odds.dice import DiceRules

armies = st.integers(1, 40)
variants = st.sampled_from([DiceRules(), DiceRules(defender_dice=3), DiceRules(ties="attacker"),
                            DiceRules(defender_sides=8), DiceRules(defender_modifier=1)])


def test_published_exact_values():
    assert battle_odds(1, 1, exact=True).p_win == Fraction(5, 12)
    assert battle_odds(3, 2, exact=True).p_win == Fraction(6610505, 10077696)
    # Kuriyama's exact table (3 armies on the territory, i.e. 2 attackers, against 3 and 4)
    assert battle_odds(2, 3, exact=True).p_win == Fraction(692225, 3359232)
    assert battle_odds(2, 4, exact=True).p_win == Fraction(5520775, 60466176)


def test_literature_claims():
    # Hoehle (2025): with equal armies the attacker is favoured from 5 armies on, not below
    equal = [battle_odds(a, a).p_win for a in range(1, 31)]
    assert all(q < 0.5 for q in equal[:4]) and all(q > 0.5 for q in equal[4:])
    # the per-roll attrition of a 3-v-2 roll quoted across the literature: 0.921 attackers, 1.079 defenders
    big = battle_odds(3, 2, stop_at=1, goal=1)  # exactly one roll
    assert round(big.expected_attacker_losses, 3) == 0.921
    assert round(big.expected_defender_losses, 3) == 1.079


REFERENCE = "RISKSTATS_REFERENCE"
"""The environment variable naming the independent reference kernel's file (``reference.py``)."""


def test_the_reference_kernel_agrees(tmp_path):
    """The independent kernel of the benchmark workspace (``reference.py``, kept outside the repository, in
    ``shared/bench`` beside the checkout, or wherever `REFERENCE` names) gives the same 200 x 200 win table."""
    beside = Path(__file__).resolve().parents[3] / "shared" / "bench" / "reference.py"
    path = Path(os.environ.get(REFERENCE) or beside)
    if not path.exists():
        pytest.skip(f"optional cross-check against an independent kernel: no reference.py at {path} (it is not part "
                    f"of the repository); set {REFERENCE}=/path/to/reference.py to run it")
    spec = importlib.util.spec_from_file_location("reference", path)
    reference = importlib.util.module_from_spec(spec)
    sys.modules["reference"] = reference  # numba's cache finds the kernels' module by name
    spec.loader.exec_module(reference)
    theirs = reference.win_table(200, 200, reference._P)
    ours = win_values(DiceRules(), 200, 200)
    assert np.abs(theirs[1:, 1:] - ours[1:, 1:]).max() < 1e-13


def test_exact_and_float_agree():
    for rules in (DiceRules(), DiceRules(defender_dice=3, ties="attacker"), DiceRules(defender_sides=8)):
        for a, d, stop_at, goal in [(7, 9, 0, 0), (12, 5, 3, 0), (9, 9, 2, 3), (30, 30, 0, 0)]:
            exact = battle_odds(a, d, rules, stop_at=stop_at, goal=goal, exact=True)
            approx = battle_odds(a, d, rules, stop_at=stop_at, goal=goal)
            assert sum(exact.p) == 1
            diff = exact.outcomes.p.astype(float) - approx.outcomes.p
            assert diff.abs().max() < 1e-14
            assert float(exact.expected_attacker_losses) == pytest.approx(approx.expected_attacker_losses, rel=1e-13)
            assert float(exact.expected_defender_losses) == pytest.approx(approx.expected_defender_losses, rel=1e-13)


@pytest.mark.slow
def test_float_accuracy_at_large_armies():
    exact = battle_odds(300, 300, exact=True)
    assert abs(float(exact.p_win) - battle_odds(300, 300).p_win) < 1e-12
    big = battle_odds(5000, 5000)
    assert abs(big.p.sum() - 1) < 1e-12
    # two different algorithms (forward mass, backward values) agree
    assert abs(big.p_win - win_values(DiceRules(), 5000, 5000)[5000, 5000]) < 1e-12


def test_moments_against_a_direct_sum():
    result = battle_odds(6, 4, exact=True)
    losses = [(result.attackers - a, p) for a, p in zip(result.attackers_left, result.p)]
    mean = sum(x * p for x, p in losses)
    var = sum(x * x * p for x, p in losses) - mean**2
    assert result.expected_attacker_losses == mean
    assert result.sd_attacker_losses == pytest.approx(float(var) ** 0.5, rel=1e-15)


@given(armies, armies, variants)
def test_distribution_sums_to_one_and_summaries_agree(a, d, rules):
    result = battle_odds(a, d, rules)
    assert result.p.sum() == pytest.approx(1, abs=1e-12)
    assert result.p_win + result.p_lose == pytest.approx(1, abs=1e-12)
    assert result.p_win == pytest.approx(win_values(rules, a, d)[a, d], abs=1e-13)
    assert ((result.attackers_left == 0) | (result.defenders_left == 0)).all()


@given(armies, armies, variants)
def test_p_win_rises_with_attackers_and_falls_with_defenders(a, d, rules):
    v = win_values(rules, a + 1, d + 1)
    assert v[a + 1, d] >= v[a, d] >= v[a, d + 1]


@given(armies, armies)
def test_stop_at_zero_and_one_territory_chain_are_the_plain_battle(a, d):
    plain = battle_odds(a, d)
    assert battle_odds(a, d, stop_at=0, goal=0).p_win == plain.p_win
    assert chain_odds(a, [d]).p_all == pytest.approx(plain.p_win, abs=1e-15)


@given(st.integers(2, 30), armies, st.data())
def test_stop_rules_end_where_they_say(a, d, data):
    stop_at = data.draw(st.integers(1, a - 1))
    bold = battle_odds(a, d, stop_at=stop_at)
    cautious = battle_odds(a, d, stop_at=stop_at, cautious=True)
    assert (bold.attackers_left[bold.defenders_left > 0] <= stop_at).all()
    assert (bold.attackers_left >= max(stop_at - 2, 0)).all()
    assert (cautious.attackers_left >= stop_at).all()  # never rolls what it cannot afford to lose
    assert cautious.p_win <= bold.p_win + 1e-15
    assert bold.p_win <= battle_odds(a, d).p_win + 1e-15


@given(armies, st.integers(2, 40), st.data())
def test_goal_ends_the_battle_early(a, d, data):
    goal = data.draw(st.integers(1, d - 1))
    result = battle_odds(a, d, goal=goal)
    assert (result.defenders_left[result.attackers_left > 0] <= goal).all()
    assert result.p_goal == pytest.approx(win_values(DiceRules(), a, d, goal=goal)[a, d], abs=1e-13)
    assert result.p_goal >= battle_odds(a, d).p_win - 1e-15


def test_win_table_long_form():
    table = win_table(4, 3)
    assert list(table.columns) == ["attackers", "defenders", "p_win"]
    assert len(table) == 12
    assert table.attackers.tolist() == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
    exact = win_table(4, 3, exact=True)
    assert exact.p_win.iloc[7] == battle_odds(3, 2, exact=True).p_win
    assert list(win_table(5, 4, stop_at=1, goal=1).columns) == ["attackers", "defenders", "p_goal"]


def test_outcomes_frame_shape():
    frame = battle_odds(4, 3).outcomes
    assert frame.index.names == ["attackers_left", "defenders_left"]
    assert frame.index.is_monotonic_increasing
    assert np.isclose(frame.p.sum(), 1)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: battle_odds(0, 3), "attackers must be from 1 to 1000000, got 0"),
        (lambda: battle_odds(3, -2), "defenders must be from 1 to 1000000, got -2"),
        (lambda: battle_odds(3, 2, stop_at=3), "stop_at must be below the attackers"),
        (lambda: battle_odds(3, 2, goal=2), "goal must be below the defenders"),
        (lambda: battle_odds(3, 2, stop_at=-1), "stop_at must be at least 0, got -1"),
        (lambda: battle_odds("3", 2), "attackers must be a whole number, got '3'"),
        (lambda: battle_odds(1000, 1000, exact=True), "exact answers are limited"),
        (lambda: win_table(2, 2, stop_at=2), "stop_at must be below the attackers"),
    ],
)
def test_bad_input_is_refused_by_name(call, message):
    with pytest.raises(RiskstatsError, match=message):
        call()


def test_compiled_kernels_agree_with_exact_arithmetic():
    # 100 x 80 states is above INTERPRETED_STATES, so the float answers come from the compiled kernels
    assert 100 * 80 > INTERPRETED_STATES
    exact = battle_odds(100, 80, exact=True)
    approx = battle_odds(100, 80)
    assert (exact.outcomes.p.astype(float) - approx.outcomes.p).abs().max() < 1e-14
    values = win_values(DiceRules(), 100, 80)
    assert abs(values[100, 80] - float(exact.p_win)) < 1e-14
