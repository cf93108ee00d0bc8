"""Balanced Blitz: SMG's published figures, the laws of the four steps, and sampling against the exact answer.

Convention mapping: SMG's dice code (risk-dice v3.3) counts attackers without the troop that stays behind
(``BattleConfig(19, 10, 0)`` is 20 troops attacking), which is riskstats' "armies able to roll": SMG's
``(A, D)`` is riskstats' ``(A, D)``. SMG's ``AttackLossChances[i]`` (i < A) is P(the attacker wins having
lost i), riskstats' end state ``(A - i, 0)``; its "stop until" is riskstats' ``stop_at`` with ``cautious``.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from riskstats.errors import RiskstatsError
from riskstats.odds.augments import with_augments
from riskstats.odds.balance import BalanceRules, balance_sides, balanced_win_chance, resolve_balance
from riskstats.odds.battle import battle_odds, win_table
from riskstats.odds.chain import attackers_needed, chain_odds
from riskstats.odds.dice import DiceRules
from riskstats.odds.simulate import simulate_battles

NEUTRAL = BalanceRules(0, 1, 0, 1)
armies = st.integers(1, 30)
variants = st.sampled_from([DiceRules(), with_augments(defender="capital"), with_augments(defender="zombie"),
                            with_augments(attacker="zombie"), DiceRules(defender_sides=8)])
balances = st.builds(BalanceRules, st.floats(0, 0.45), st.floats(0.5, 3), st.floats(0, 0.45), st.floats(0.5, 3))


def sides(result):
    """A balanced battle's two sides, as `balance_sides` orders them (attacker's best first; defender's best
    first)."""
    win = result.defenders_left <= result.goal
    w = sorted(zip(-result.attackers_left[win], result.defenders_left[win], result.p[win]))
    lose = sorted(zip(-result.defenders_left[~win], result.attackers_left[~win], result.p[~win]))
    return np.array([p for *_, p in w]), np.array([p for *_, p in lose])


# --- SMG's published figures (README of risk-dice v3.3) ---------------------------------------------------

def test_published_capital_balanced_blitz():
    # example 3: 30 attackers against 15 on a capital, P(attacker loses exactly 12): TR 0.0222128001707278,
    # BB 0.0100282888709122 (the true-random figure is in test_augments)
    capital = with_augments(defender="capital")
    balanced = battle_odds(30, 15, capital, balance="blitz")
    assert balanced.outcomes.p.loc[(18, 0)] == pytest.approx(0.0100282888709122, abs=1e-15)
    assert balanced.mode == "Balanced Blitz" and battle_odds(30, 15, capital).mode == "true random"


def test_published_fewest_attackers_for_80_percent_against_50():
    # example 6: 49 under Balanced Blitz; true random needs 53
    assert attackers_needed(50, 0.8, balance="blitz").attackers == 49
    assert attackers_needed(50, 0.8).attackers == 53


@pytest.mark.parametrize("p, expected", [(0.861, 0.928), (0.568, 0.594), (0.432, 0.406)])
def test_published_win_chance_power_examples(p, expected):
    # the code comments' examples, with power 1.4 and the other steps off, quoted to 0.1 percentage points
    assert float(balanced_win_chance(p, BalanceRules(0, 1.4, 0, 1))) == pytest.approx(expected, abs=1e-3)


def test_twenty_against_fifteen_is_certain():
    # the published analysis: Balanced Blitz makes 20 against 15 a sure win (true random: 86.0%)
    assert battle_odds(20, 15).p_win == pytest.approx(0.860399, abs=1e-6)
    assert battle_odds(20, 15, balance="blitz").p_win == pytest.approx(1, abs=1e-12)


# --- the laws of the four steps -----------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(armies, armies, variants, balances, st.integers(0, 2), st.integers(0, 2), st.booleans())
def test_every_balanced_distribution_is_a_distribution(a, d, rules, balance, stop_at, goal, cautious):
    stop_at, goal = min(stop_at, a - 1), min(goal, d - 1)
    result = battle_odds(a, d, rules, stop_at=stop_at, goal=goal, cautious=cautious, balance=balance)
    assert (result.p >= 0).all()
    assert result.p.sum() == pytest.approx(1, abs=1e-12)
    true = battle_odds(a, d, rules, stop_at=stop_at, goal=goal, cautious=cautious)
    # every balanced end state is a state the dice can reach
    assert set(result.outcomes.index) <= set(true.outcomes.index)
    # the balanced win chance depends on the true one alone (what win_table relies on)
    # (to 1e-9: the closed form reads q as 1 - p, which loses digits when q is tiny and the power below 1)
    assert result.p_goal == pytest.approx(float(balanced_win_chance(true.p_goal, balance)), abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(armies, armies, variants, st.floats(0.01, 0.45))
def test_the_win_chance_is_zero_or_one_beyond_the_cutoff(a, d, rules, cutoff):
    balance = BalanceRules(cutoff, 1.3, 0.1, 1.8)
    p = battle_odds(a, d, rules).p_win
    balanced = battle_odds(a, d, rules, balance=balance)
    if p <= cutoff:
        assert balanced.p_win == 0 and balanced.p_lose == pytest.approx(1, abs=1e-12)
    elif 1 - p <= cutoff:
        assert balanced.p_win == pytest.approx(1, abs=1e-12) and balanced.p_lose == 0


@settings(max_examples=60, deadline=None)
@given(armies, armies, variants, balances)
def test_outcome_power_keeps_each_sides_total_and_every_outcome(a, d, rules, balance):
    win, lose = sides(battle_odds(a, d, rules))
    before = BalanceRules(balance.win_cutoff, balance.win_power, balance.outcome_cutoff, 1)
    w1, l1 = balance_sides(win, lose, before)
    w2, l2 = balance_sides(win, lose, balance)
    assert w2.sum() == pytest.approx(w1.sum(), abs=1e-12) and l2.sum() == pytest.approx(l1.sum(), abs=1e-12)
    assert ((w2 > 0) == (w1 > 0)).all() and ((l2 > 0) == (l1 > 0)).all()  # none made impossible ...
    for after, total, outcomes in ((w2, w1.sum(), (w1 > 0).sum()), (l2, l1.sum(), (l1 > 0).sum())):
        if outcomes > 1:  # ... nor certain within its side
            assert after.max() < total


def test_outcome_power_sharpens_a_side():
    win, lose = balance_sides(np.array([0.2, 0.3, 0.1]), np.array([0.4]), BalanceRules(0, 1, 0, 2))
    assert win.sum() == pytest.approx(0.6) and lose.tolist() == [0.4]
    assert win[1] > 0.3 and win[2] < 0.1  # the likely outcome grows, the unlikely one shrinks


def test_outcome_cutoff_trims_each_sides_best_outcomes():
    # 0.1 comes off the attacker's best outcome (0.15 -> 0.05) and the defender's best (0.3 -> 0.2), then / 0.8
    win, lose = balance_sides(np.array([0.15, 0.25, 0.1]), np.array([0.3, 0.2]), BalanceRules(0, 1, 0.1, 1))
    assert win.tolist() == pytest.approx([0.0625, 0.3125, 0.125])
    assert lose.tolist() == pytest.approx([0.25, 0.25])
    # a side smaller than the cutoff is trimmed away, the rest comes off the other side's far end
    win, lose = balance_sides(np.array([0.04, 0.04]), np.array([0.5, 0.42]), BalanceRules(0, 1, 0.1, 1))
    assert win.tolist() == [0, 0] and lose.tolist() == pytest.approx([0.4 / 0.8, 0.4 / 0.8])


@settings(max_examples=40, deadline=None)
@given(armies, armies, variants, st.integers(0, 2), st.booleans())
def test_neutral_balance_is_the_true_distribution(a, d, rules, stop_at, cautious):
    stop_at = min(stop_at, a - 1)
    true = battle_odds(a, d, rules, stop_at=stop_at, cautious=cautious).outcomes.p
    neutral = battle_odds(a, d, rules, stop_at=stop_at, cautious=cautious, balance=NEUTRAL).outcomes.p
    assert neutral.index.equals(true.index)
    assert np.abs(neutral.to_numpy() - true.to_numpy()).max() < 1e-15


def test_balance_favours_the_favourite():
    for a, d in [(10, 5), (15, 10), (8, 12), (3, 6)]:
        true, balanced = battle_odds(a, d).p_win, battle_odds(a, d, balance="blitz").p_win
        assert (balanced > true) == (true > 0.5)


# --- the other answers that take a balance -------------------------------------------------------------------

def test_win_table_matches_battle_odds():
    table = win_table(12, 10, with_augments(defender="capital"), balance="blitz")
    for a, d, p in table.sample(15, random_state=1).itertuples(index=False):
        assert p == pytest.approx(battle_odds(a, d, with_augments(defender="capital"), balance="blitz").p_win,
                                  abs=1e-12)
    assert np.allclose(win_table(6, 6, balance=NEUTRAL).p_win, win_table(6, 6).p_win, atol=0, rtol=0)


def test_each_battle_of_a_chain_is_balanced_whole():
    one = chain_odds(12, [7], balance="blitz")
    assert one.p_all == pytest.approx(battle_odds(12, 7, balance="blitz").p_win, abs=1e-12)
    # two territories: the first battle's balanced survivors x attack on with x - 1, balanced again
    first = battle_odds(12, 4, balance="blitz").outcomes.p
    by_hand = sum(p * battle_odds(x - 1, 3, balance="blitz").p_win
                  for (x, d), p in first.items() if d == 0 and x - 1 > 0)
    chain = chain_odds(12, [4, 3], balance="blitz")
    assert chain.p_all == pytest.approx(by_hand, abs=1e-12)
    assert chain.distribution.sum() == pytest.approx(1, abs=1e-12) and chain.mode == "Balanced Blitz"
    assert chain_odds(12, [4, 3], balance=NEUTRAL).p_all == pytest.approx(chain_odds(12, [4, 3]).p_all, abs=1e-14)


@pytest.mark.parametrize("a, d, rules", [(10, 10, DiceRules()), (30, 15, with_augments(defender="capital")),
                                         (6, 9, with_augments(attacker="zombie"))])
def test_simulated_balanced_battles_agree_with_the_distribution(a, d, rules):
    exact = battle_odds(a, d, rules, balance="blitz")
    sample = simulate_battles(a, d, rules, trials=400_000, seed=11, balance="blitz")
    assert sample.mode == "Balanced Blitz"
    low, high = sample.p_win_interval(z=3.89)  # 99.99%
    assert low <= exact.p_win <= high
    p = exact.outcomes.p
    seen = sample.outcomes.p.reindex(p.index, fill_value=0)
    sd = np.sqrt(p * (1 - p) / sample.trials)
    assert (np.abs(seen - p) <= 4.5 * sd + 1e-12).all()  # every end state, 4.5 standard errors
    assert set(sample.outcomes.index) <= set(p.index)  # only states the balanced distribution allows


def test_a_seed_gives_the_same_balanced_sample():
    one = simulate_battles(20, 12, trials=100_000, seed=5, balance="blitz")
    two = simulate_battles(20, 12, trials=100_000, seed=5, balance="blitz")
    assert one.outcomes.equals(two.outcomes)


# --- input -------------------------------------------------------------------------------------------------------

def test_exact_with_a_balance_is_a_clear_error():
    for call in (lambda: battle_odds(3, 2, exact=True, balance="blitz"),
                 lambda: win_table(3, 2, exact=True, balance="blitz"),
                 lambda: chain_odds(3, [2], exact=True, balance="blitz")):
        with pytest.raises(RiskstatsError, match="exact=True cannot be combined with a balance"):
            call()


@pytest.mark.parametrize("bad, words", [
    ("smooth", "balance must be None"),
    (1.3, "balance must be None"),
])
def test_unknown_balances_are_refused(bad, words):
    with pytest.raises(RiskstatsError, match=words):
        resolve_balance(bad)


@pytest.mark.parametrize("kwargs, words", [
    ({"win_cutoff": 0.5}, r"win_cutoff must be in \[0, 0.5\)"),
    ({"win_power": 0}, r"win_power must be in \(0"),
    ({"outcome_cutoff": -0.1}, "outcome_cutoff"),
    ({"outcome_power": float("nan")}, "outcome_power must be a finite number"),
    ({"win_power": "1.3"}, "win_power must be a finite number"),
])
def test_bad_parameters_are_refused(kwargs, words):
    with pytest.raises(RiskstatsError, match=words):
        BalanceRules(**kwargs)


def test_simulating_balanced_arrays_is_refused():
    with pytest.raises(RiskstatsError, match="not arrays"):
        simulate_battles([5, 6], [3, 4], balance="blitz", seed=1)
