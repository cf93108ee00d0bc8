"""The attack-policy solver against brute force, the exact battle and chain engines, and a simulation."""
from fractions import Fraction
from functools import cache
from itertools import product

import numpy as np
import pytest

from riskstats.errors import RiskstatsError
from riskstats.odds.battle import battle_odds
from riskstats.odds.chain import chain_odds
from riskstats.odds.dice import DiceRules
from riskstats.odds.policy import chain_policy, policy


@cache
def _face_losses(n: int, m: int, ties: str, modifier: int) -> tuple:
    """P(attacker loses i), i = 0..min(n, m), by rolling every face of six-sided dice (independent of
    riskstats.odds.dice)."""
    counts = [0] * (min(n, m) + 1)
    for attack in product(range(1, 7), repeat=n):
        for defend in product(range(1, 7), repeat=m):
            a = sorted(attack, reverse=True)
            d = sorted(defend, reverse=True)
            d[0] = min(6, max(1, d[0] + modifier))
            d.sort(reverse=True)
            counts[sum(x < y or (x == y and ties == "defender") for x, y in zip(a, d))] += 1
    return tuple(Fraction(c, 6 ** (n + m)) for c in counts)


def _evaluate(attack, defend, start, value, cost, kill, keep, ties, modifier):
    """The attacker's payoff from ``start`` when it plays ``attack[(a, d)]`` dice (0: stop) and the
    defender ``defend[(a, d)]`` dice, by plain recursion."""
    @cache
    def v(a, d):
        if d == 0:
            return value + keep * a
        n = attack.get((a, d), 0) if a > 0 else 0
        if n == 0:
            return keep * a
        m = defend[(a, d)]
        k = min(n, m)
        return sum(p * (-cost * i + kill * (k - i) + v(a - i, d - k + i))
                   for i, p in enumerate(_face_losses(n, m, ties, modifier)))
    return v(*start)


def _brute_force(A, D, value, cost=1, kill=0, keep=0, ties="defender", modifier=0):
    """max over every deterministic attacker policy of min over every defender policy, per start state."""
    states = [(a, d) for a in range(1, A + 1) for d in range(1, D + 1)]
    attacker_choices = [range(min(3, a) + 1) for a, _ in states]
    defender_choices = [range(1, min(2, d) + 1) for _, d in states]
    defender_policies = [dict(zip(states, c)) for c in product(*defender_choices)]
    best = {}
    for choice in product(*attacker_choices):
        attack = dict(zip(states, choice))
        for start in states:
            worst = min(_evaluate(attack, defend, start, value, cost, kill, keep, ties, modifier)
                        for defend in defender_policies)
            best[start] = max(best.get(start, worst), worst)
    return best


@pytest.mark.parametrize("value, cost, kill, keep, ties, modifier", [
    (2, 1, 0, 0, "defender", 0),
    (5, 1, Fraction(1, 2), 0, "attacker", 0),
    (10, 1, 1, 1, "defender", 1),  # a bunker: the defender's best answer is sometimes one die
])
def test_minimax_value_matches_brute_force_over_every_policy_pair(value, cost, kill, keep, ties, modifier):
    rules = DiceRules(ties=ties, defender_modifier=modifier)
    solved = policy(3, 2, value, rules, cost=cost, kill_value=kill, survivor_value=keep, exact=True)
    brute = _brute_force(3, 2, value, cost, kill, keep, ties, modifier)
    values = solved.table.set_index(["attackers", "defenders"]).value
    assert {s: values[s] for s in brute} == brute
    assert solved.expected_value == brute[(3, 2)]


def test_the_bunker_case_exercises_the_defenders_choice():
    solved = policy(3, 2, 10, DiceRules(defender_modifier=1), kill_value=1, survivor_value=1, exact=True)
    row = solved.table.query("attackers == 3 and defenders == 2").iloc[0]
    assert (row.action, row.dice, row.defender_dice) == ("attack", 3, 1)
    always_two = policy(3, 2, 10, DiceRules(defender_modifier=1), kill_value=1, survivor_value=1, exact=True,
                        defender="max")
    assert always_two.expected_value > solved.expected_value  # the defender gains by its choice


def test_solved_strategies_replayed_by_recursion_give_the_reported_values():
    solved = policy(4, 3, 3, exact=True, kill_value=Fraction(1, 3))
    t = solved.table
    attack = {(a, d): n for a, d, n in zip(t.attackers, t.defenders, t.dice)}
    defend = {(a, d): m for a, d, m in zip(t.attackers, t.defenders, t.defender_dice)}
    for a, d, v in zip(t.attackers, t.defenders, t.value):
        assert _evaluate(attack, defend, (a, d), 3, 1, Fraction(1, 3), 0, "defender", 0) == v


def test_huge_value_means_attack_to_the_end_and_battle_odds_win_probability():
    for defender in ("best", "max"):
        solved = policy(12, 7, 10**6, defender=defender, exact=True)
        attacking = solved.table
        assert attacking.action.eq("attack").all()
        assert (attacking.dice == attacking.attackers.clip(upper=3)).all()
        odds = battle_odds(12, 7, exact=True)
        assert solved.p_win == odds.p_win
        assert solved.summary.expected_attacker_losses["optimal"] == odds.expected_attacker_losses
        assert solved.best_baseline == "attack_to_end"
        assert solved.value_of_choice == 0


def test_baselines_are_the_exact_engines_stop_rules():
    solved = policy(9, 6, 4, exact=True, defender="max")
    best = policy(9, 6, 4, exact=True)  # a defender who chooses does at least as well against each rule
    assert (best.summary.expected_value <= solved.summary.expected_value).all()
    for s in (0, 2, 5):
        name = "attack_to_end" if s == 0 else f"stop_at_{s}"
        odds = battle_odds(9, 6, stop_at=s, exact=True)
        row = solved.summary.loc[name]
        assert row.p_win == odds.p_win
        assert row.expected_value == 4 * odds.p_win - odds.expected_attacker_losses
    assert solved.summary.loc["no_attack"].expected_value == 0


def test_value_of_choice_is_optimal_minus_best_baseline_and_never_negative():
    solved = policy(12, 8, 10)
    assert solved.value_of_choice == pytest.approx(solved.expected_value - max(solved.baseline.values()))
    assert solved.value_of_choice >= 0
    assert (solved.values.optimal.to_numpy()[:, None] >= solved.values.drop(columns="optimal").to_numpy() - 1e-12).all()
    assert solved.value_of_choice > 0.01  # here the best fixed threshold leaves value on the table


def test_float_agrees_with_fractions():
    exact = policy(8, 6, 3, DiceRules(ties="attacker"), kill_value=Fraction(1, 2), exact=True)
    approx = policy(8, 6, 3, DiceRules(ties="attacker"), kill_value=0.5)
    assert approx.table.value.to_numpy() == pytest.approx([float(v) for v in exact.table.value], abs=1e-12)
    assert (approx.table.action == exact.table.action).all()
    assert approx.expected_value == pytest.approx(float(exact.expected_value), abs=1e-12)


def test_outcomes_are_a_distribution_consistent_with_the_summary():
    solved = policy(10, 5, 3, exact=True)
    out = solved.outcomes()
    assert out.p.sum() == 1
    assert out.p[out.index.get_level_values("conquered") == 1].sum() == solved.p_win


def test_chain_with_huge_values_is_chain_odds():
    solved = chain_policy(10, [3, 2, 2], [10**6] * 3, defender="max", exact=True)
    odds = chain_odds(10, [3, 2, 2], exact=True)
    assert solved.p_win == odds.p_all
    exact_out = odds.outcomes.p
    assert solved.outcomes().p.to_dict() == exact_out.to_dict()


def test_chain_of_one_is_a_battle_and_first_j_baselines_exist():
    assert chain_policy(6, [4], 2, exact=True).expected_value == policy(6, 4, 2, exact=True).expected_value
    c = chain_policy(8, [2, 3, 1], [3, 0, 1])
    assert {"first_1", "first_2", "attack_to_end"} <= set(c.baseline)
    assert c.summary.expected_value["optimal"] >= max(c.baseline.values()) - 1e-12
    assert set(c.table.territory) == {1, 2, 3}


def _minimax_chain(A, defenders, values, leave, cost=1):
    """The chain's minimax value by memoised recursion over (territory, a, d), faces rolled directly."""
    @cache
    def v(k, a, d):
        if d == 0:
            rest = v(k + 1, a - leave, defenders[k + 1]) if k + 1 < len(defenders) and a - leave >= 1 else 0
            return values[k] + rest
        best = Fraction(0)  # stop
        for n in range(1, min(3, a) + 1):
            answers = []
            for m in range(1, min(2, d) + 1):
                k2 = min(n, m)
                answers.append(sum(p * (-cost * i + v(k, a - i, d - k2 + i))
                                   for i, p in enumerate(_face_losses(n, m, "defender", 0))))
            best = max(best, min(answers))
        return best
    return v(0, A, defenders[0])


def test_chain_value_matches_an_independent_minimax_recursion():
    for A, defenders, values, leave in [(6, [2, 2], [3, 2], 1), (7, [1, 3, 2], [1, 4, 2], 2)]:
        solved = chain_policy(A, defenders, values, leave=leave, exact=True)
        assert solved.expected_value == _minimax_chain(A, defenders, values, leave)


@pytest.mark.parametrize("kwargs, message", [
    (dict(attackers=0, defenders=2, value=1), "attackers"),
    (dict(attackers=3, defenders=2, value=float("inf")), "value must be finite"),
    (dict(attackers=3, defenders=2, value="x"), "value must be a number"),
    (dict(attackers=3, defenders=2, value=1, cost=-1), "cost must be at least 0"),
    (dict(attackers=3, defenders=2, value=1, defender="smart"), "defender must be one of"),
    (dict(attackers=100, defenders=100, value=1, exact=True), "limited"),
])
def test_bad_input_raises_one_line_errors(kwargs, message):
    with pytest.raises(RiskstatsError, match=message):
        policy(**kwargs)


def test_chain_values_must_match_the_territories():
    with pytest.raises(RiskstatsError, match="values must be one number or one per territory"):
        chain_policy(5, [2, 2], [1, 2, 3])
    assert np.isfinite(chain_policy(5, [2, 2], 1).expected_value)


@cache
def _rolls(n: int) -> tuple:
    """The attacker's sorted rolls of n six-sided dice with their probabilities, by enumerating faces."""
    counts = {}
    for faces in product(range(1, 7), repeat=n):
        roll = tuple(sorted(faces, reverse=True))
        counts[roll] = counts.get(roll, 0) + 1
    return tuple((roll, Fraction(c, 6**n)) for roll, c in counts.items())


@cache
def _losses_given(roll: tuple, m: int) -> tuple:
    counts = [0] * (min(len(roll), m) + 1)
    for defend in product(range(1, 7), repeat=m):
        d = sorted(defend, reverse=True)
        counts[sum(x <= y for x, y in zip(roll, d))] += 1
    return tuple(Fraction(c, 6**m) for c in counts)


def test_defender_after_the_roll_matches_brute_force_over_attacker_policies():
    # Every deterministic attacker policy on 3 x 2 states, each against the defender's best answer to
    # every roll it sees (a recursion over faces); the best of them is the solver's value at every state.
    A, D, value = 3, 2, 5
    states = [(a, d) for a in range(1, A + 1) for d in range(1, D + 1)]
    best = {}
    for choice in product(*[range(min(3, a) + 1) for a, _ in states]):
        attack = dict(zip(states, choice))

        @cache
        def v(a, d, attack=attack):
            if d == 0:
                return Fraction(value)
            n = attack.get((a, d), 0) if a > 0 else 0
            if n == 0:
                return Fraction(0)
            total = Fraction(0)
            for roll, p in _rolls(n):
                total += p * min(sum(q * (-i + v(a - i, d - min(n, m) + i))
                                     for i, q in enumerate(_losses_given(roll, m))) for m in range(1, min(2, d) + 1))
            return total

        for s in states:
            best[s] = max(best.get(s, v(*s)), v(*s))
    solved = policy(A, D, value, defender="after_roll", exact=True)
    values = solved.table.set_index(["attackers", "defenders"]).value
    assert {s: values[s] for s in states} == best


def test_seeing_the_roll_helps_the_defender_and_answers_list_every_roll():
    after = policy(10, 5, 5, defender="after_roll")
    before = policy(10, 5, 5)
    assert (after.values.optimal <= before.values.optimal + 1e-12).all()
    assert after.expected_value < before.expected_value - 0.1
    answers = after.answers(3, 2)
    assert len(answers) == 56 and answers.p.sum() == pytest.approx(1)
    assert answers.set_index("attacker_roll").defender_dice["6-6-6"] == 1  # one die risks one army
    assert answers.set_index("attacker_roll").defender_dice["1-1-1"] == 2
    row = after.table.query("attackers == 3 and defenders == 2").iloc[0]
    assert row.p_defender_fewer == pytest.approx(answers.p[answers.defender_dice == 1].sum())
    assert before.answers(3, 2).attacker_roll.tolist() == ["any"]
    assert before.answers(1, 5).empty  # the attacker stops there
