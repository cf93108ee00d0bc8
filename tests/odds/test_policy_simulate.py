"""Simulated play of solved attack policies against their exact values, seeded and thread-independent."""
import numba
import numpy as np

from riskstats.odds.dice import DiceRules
from riskstats.odds.policy import chain_policy, policy
from riskstats.odds.policy_simulate import cut_tables, simulate_policy
from riskstats.odds.simulate import sampling_table


def test_simulated_policy_agrees_with_its_exact_value():
    # A bunker battle where the defender's best answer is sometimes one die, and a chain with stops.
    for solved in (policy(4, 3, 10, DiceRules(defender_modifier=1), kill_value=1, survivor_value=1),
                   chain_policy(10, [3, 2, 4], [2, 3, 6], leave=1)):
        sample = simulate_policy(solved, 200_000, seed=11)
        se = sample.sd / np.sqrt(sample.trials)
        assert abs(sample.mean - solved.expected_value) < 4 * se  # fails by chance with p < 1e-4
        low, high = sample.p_win_interval
        pw_se = np.sqrt(solved.p_win * (1 - solved.p_win) / sample.trials)
        assert abs(sample.p_win - solved.p_win) < 4 * pw_se
        assert low - 2 * pw_se < solved.p_win < high + 2 * pw_se
        assert abs(sample.expected_conquered - solved.summary.expected_conquered["optimal"]) < 0.02


def test_simulated_policy_does_not_depend_on_the_threads():
    solved = policy(9, 5, 4)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = simulate_policy(solved, 150_000, seed=3)
    finally:
        numba.set_num_threads(before)
    assert simulate_policy(solved, 150_000, seed=3) == one
    assert simulate_policy(solved, 150_000, seed=4) != one


def test_simulated_after_roll_policy_agrees_with_its_exact_value():
    solved = chain_policy(9, [3, 2], [3, 4], defender="after_roll", kill_value=0.5)
    sample = simulate_policy(solved, 200_000, seed=5)
    assert abs(sample.mean - solved.expected_value) < 4 * sample.sd / np.sqrt(sample.trials)
    assert abs(sample.p_win - solved.p_win) < 4 * np.sqrt(solved.p_win * (1 - solved.p_win) / sample.trials)


def test_the_simulation_samples_the_simulators_own_table():
    for rules in (DiceRules(), DiceRules(ties="attacker", defender_dice=3, defender_modifier=-1)):
        cell_cut, loss_cut = cut_tables(rules, False, 1)
        assert (loss_cut[:, 0] == sampling_table(rules)).all()  # one cell: exactly the simulator's cut points
        assert (cell_cut == 2**53).all()
        cell_cut, _ = cut_tables(rules, True, 60)
        assert cell_cut[3, 54] < 2**53 == cell_cut[3, 55]  # 56 sorted rolls of three six-sided dice
