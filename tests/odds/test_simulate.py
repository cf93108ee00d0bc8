"""The simulators against the exact engine: agreement within 4 standard errors, dice that are really
fair, results that depend on the seed only, and the ``simulate`` command's contract."""
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pytest
from scipy import stats
from typer.testing import CliRunner

from riskstats.cli import app
from riskstats.errors import RiskstatsError
from riskstats.odds import simulate as simulate_module
from riskstats.odds.battle import battle_odds
from riskstats.odds.chain import chain_odds
from riskstats.odds.dice import DiceRules
from riskstats.odds.rng import BITS53, die_threshold
from riskstats.odds.simulate import (
    CHUNK,
    resolve_battles,
    roll_dice,
    sampling_table,
    simulate_battles,
    simulate_chain,
)

ROOT = Path(__file__).resolve().parents[2]
SIGMAS = 4

VARIANTS = {
    "standard": DiceRules(),
    "defender 3 dice": DiceRules(defender_dice=3),
    "ties to attacker": DiceRules(ties="attacker"),
    "8-sided": DiceRules(attacker_sides=8, defender_sides=8),
    "attacker d8 vs d6": DiceRules(attacker_sides=8),
    "defender +1": DiceRules(defender_modifier=1),
    "defender -1": DiceRules(defender_modifier=-1),
    "1 v 1 dice": DiceRules(attacker_dice=1, defender_dice=1),
}


def assert_agrees(exact: pd.Series, sampled: pd.Series, trials: int) -> None:
    """Every sampled state is possible, and every state's frequency is within SIGMAS standard errors."""
    assert sampled.index.isin(exact.index).all(), "simulated an end state the exact engine says is impossible"
    q = sampled.reindex(exact.index, fill_value=0.0)
    p = exact.to_numpy()
    se = np.sqrt(p * (1 - p) / trials)
    worst = np.max(np.abs(q.to_numpy() - p) / np.maximum(se, 1e-300))
    assert np.all(np.abs(q.to_numpy() - p) <= SIGMAS * se + 1e-12), f"off by {worst:.1f} standard errors"


# --- battles against the exact engine -----------------------------------------------------------

BATTLES = [
    pytest.param(1, 1, {}, id="1v1"),
    pytest.param(3, 2, {}, id="3v2"),
    pytest.param(2, 3, {}, id="2v3"),
    pytest.param(10, 10, {}, id="10v10"),
    pytest.param(25, 8, {}, id="25v8"),
    pytest.param(4, 15, {}, id="4v15"),
    pytest.param(12, 9, {"stop_at": 4}, id="stop_at"),
    pytest.param(12, 9, {"stop_at": 4, "cautious": True}, id="cautious"),
    pytest.param(10, 10, {"goal": 3}, id="goal"),
    pytest.param(15, 12, {"stop_at": 2, "goal": 4}, id="stop_at+goal"),
    pytest.param(15, 12, {"stop_at": 2, "goal": 4, "cautious": True}, id="cautious+goal"),
]


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize(("attackers", "defenders", "options"), BATTLES)
def test_battles_agree_with_exact_engine(attackers, defenders, options, variant):
    rules = VARIANTS[variant]
    trials = 200_000
    exact = battle_odds(attackers, defenders, rules, **options)
    sample = simulate_battles(attackers, defenders, rules, trials=trials, seed=2024, **options)
    assert sample.trials == trials and sample.counts.sum() == trials
    assert abs(sample.p_win - exact.p_win) <= SIGMAS * math.sqrt(exact.p_win * (1 - exact.p_win) / trials) + 1e-12
    assert_agrees(exact.outcomes.p, sample.outcomes.p, trials)
    root_n = np.sqrt(trials)
    for side in ("attacker", "defender"):
        mean_error = getattr(sample, f"expected_{side}_losses") - getattr(exact, f"expected_{side}_losses")
        assert abs(mean_error) <= SIGMAS * getattr(exact, f"sd_{side}_losses") / root_n + 1e-12


def test_outcomes_line_up_with_the_exact_engine():
    exact = battle_odds(5, 4)
    sample = simulate_battles(5, 4, trials=100_000, seed=1)
    difference = exact.outcomes.p.sub(sample.outcomes.p, fill_value=0)
    assert list(difference.index.names) == ["attackers_left", "defenders_left"]
    assert difference.index.equals(exact.outcomes.index)
    assert sample.outcomes.p.sum() == pytest.approx(1)


@pytest.mark.slow
def test_many_trials_tight_agreement():
    trials = 20_000_000  # SE ~ 1.1e-4 on p_win
    exact = battle_odds(10, 10)
    sample = simulate_battles(10, 10, trials=trials, seed=99)
    assert_agrees(exact.outcomes.p, sample.outcomes.p, trials)
    low, high = sample.p_win_interval(z=SIGMAS)
    assert low <= exact.p_win <= high


def test_a_batch_pools_to_the_mixture_of_exact_answers():
    n = 100_000
    attackers = np.repeat([5, 8], n)
    sample = simulate_battles(attackers, 4, seed=5)
    mixture = battle_odds(5, 4).outcomes.p.add(battle_odds(8, 4).outcomes.p, fill_value=0) / 2
    assert sample.trials == 2 * n
    assert_agrees(mixture, sample.outcomes.p, 2 * n)
    assert sample.expected_defender_losses == pytest.approx(
        (battle_odds(5, 4).expected_defender_losses + battle_odds(8, 4).expected_defender_losses) / 2, abs=0.02)


def test_resolve_battles_ends_every_battle():
    rng = np.random.default_rng(0)
    attackers = rng.integers(3, 40, 50_000)
    defenders = rng.integers(2, 40, 50_000)
    a, d = resolve_battles(attackers, defenders, seed=3, stop_at=2, goal=1)
    assert ((d <= 1) | (a <= 2)).all()
    assert ((a >= 0) & (a <= attackers) & (d >= 0) & (d <= defenders)).all()
    assert (attackers - a + defenders - d > 0).all()


# --- chains --------------------------------------------------------------------------------------

CHAINS = [
    pytest.param(10, [3, 2], {}, id="two"),
    pytest.param(20, [4, 1, 3, 2, 5], {}, id="five"),
    pytest.param(20, [4, 6, 3], {"leave": 2, "stop_at": 3}, id="leave+stop_at"),
    pytest.param(12, [3, 3], {"rules": [DiceRules(defender_dice=3), DiceRules(defender_modifier=1)]},
                 id="per-territory"),
    pytest.param(15, [5, 5], {"rules": DiceRules(ties="attacker", attacker_sides=8)}, id="variant"),
]


@pytest.mark.parametrize(("attackers", "defenders", "options"), CHAINS)
def test_chains_agree_with_exact_engine(attackers, defenders, options):
    trials = 300_000
    exact = chain_odds(attackers, defenders, **options)
    rules = options.pop("rules", None)
    sample = simulate_chain(attackers, defenders, rules, trials=trials, seed=7, **options)
    assert list(sample.outcomes.index.names) == ["conquered", "armies_left"]
    assert_agrees(exact.outcomes.p, sample.outcomes.p, trials)
    for p, q in zip(exact.p_at_least, sample.p_at_least, strict=True):
        assert abs(q - p) <= SIGMAS * math.sqrt(p * (1 - p) / trials) + 1e-12


def test_one_territory_chain_is_a_battle():
    one = simulate_chain(8, [5], trials=50_000, seed=11)
    assert one.p_all == simulate_battles(8, 5, trials=50_000, seed=11).p_win


# --- dice level: real dice validate the exact one-roll table ------------------------------------

ROLLS = [(v, na, nd) for v, rules in VARIANTS.items()
         for na in range(1, rules.attacker_dice + 1) for nd in range(1, rules.defender_dice + 1)
         if v != "1 v 1 dice"]


@pytest.mark.parametrize(("variant", "na", "nd"), ROLLS, ids=[f"{v}-{a}v{d}" for v, a, d in ROLLS])
def test_dice_frequencies_match_the_exact_table(variant, na, nd):
    rules = VARIANTS[variant]
    rolls = roll_dice(60_000, na, nd, rules, seed=na * 10 + nd)
    k = min(na, nd)
    observed = np.bincount(rolls.attacker_loses, minlength=k + 1)
    expected = rules.table()[na, nd, : k + 1] * len(rolls)
    assert stats.chisquare(observed, expected).pvalue > 1e-4
    assert (rolls.attacker_loses + rolls.defender_loses == k).all()


@pytest.mark.parametrize("sides", [2, 6, 8, 20])
def test_every_face_is_equally_likely(sides):
    """Catches a die that never shows its top face, off-by-one faces, and modulo-biased draws."""
    rules = DiceRules(attacker_sides=sides, defender_sides=sides)
    rolls = roll_dice(50_000, 3, 2, rules, seed=sides)
    faces = rolls.filter(like="attacker_").to_numpy()[:, :3].ravel()  # sorting keeps the multiset
    counts = np.bincount(faces, minlength=sides + 1)
    assert counts[0] == 0 and counts.size == sides + 1
    assert stats.chisquare(counts[1:]).pvalue > 1e-4
    assert die_threshold(sides) == 2**32 % sides


def test_dice_are_sorted_and_modified_as_the_rules_say():
    rules = DiceRules(defender_dice=3, defender_modifier=1)
    rolls = roll_dice(20_000, 3, 3, rules, seed=4)
    a = rolls[["attacker_1", "attacker_2", "attacker_3"]].to_numpy().astype(int)
    d = rolls[["defender_1", "defender_2", "defender_3"]].to_numpy().astype(int)
    assert (np.diff(a, axis=1) <= 0).all() and (np.diff(d, axis=1) <= 0).all()
    assert d.max() == 6 and d.min() == 1
    assert (d[:, 0] >= 2).all()  # the best defender die is at least 1 + 1
    lost = (a < d).sum(axis=1) + (a == d).sum(axis=1)  # ties to the defender
    assert (lost == rolls.attacker_loses).all()


def test_sorted_pairs_are_not_independent_pairs():
    """3 dice vs 2: the defender loses both with p = 2890/7776, not (15/36)**2 as for independent pairs."""
    n = 400_000
    rolls = roll_dice(n, 3, 2, seed=8)
    frequency = (rolls.defender_loses == 2).mean()
    exact = 2890 / 7776
    se = math.sqrt(exact * (1 - exact) / n)
    assert abs(frequency - exact) <= SIGMAS * se
    assert abs(frequency - (15 / 36) ** 2) > 50 * se
    assert abs((rolls.attacker_1 == 6).mean() - 91 / 216) <= SIGMAS * math.sqrt(91 / 216 * 125 / 216 / n)


def test_sampling_table_is_the_cumulative_exact_table():
    for rules in VARIANTS.values():
        cut = sampling_table(rules).astype(float) / BITS53
        table = rules.table()
        for na in range(1, rules.attacker_dice + 1):
            for nd in range(1, rules.defender_dice + 1):
                k = min(na, nd)
                np.testing.assert_allclose(cut[na, nd, :k], np.cumsum(table[na, nd, :k]), atol=1e-15)
                assert (cut[na, nd, k:] == 1).all()


# --- reproducibility ------------------------------------------------------------------------------

def test_same_seed_same_result_and_different_seeds_differ():
    one = simulate_battles(10, 10, trials=150_000, seed=42)
    two = simulate_battles(10, 10, trials=150_000, seed=42)
    other = simulate_battles(10, 10, trials=150_000, seed=43)
    pd.testing.assert_frame_equal(one.outcomes, two.outcomes)
    assert not one.outcomes.equals(other.outcomes)
    assert roll_dice(1000, seed=1).equals(roll_dice(1000, seed=1))
    assert not roll_dice(1000, seed=1).equals(roll_dice(1000, seed=2))
    assert simulate_battles(3, 2, trials=10, seed=None).seed != simulate_battles(3, 2, trials=10, seed=None).seed


def test_thread_count_does_not_change_results():
    def run():
        return (simulate_battles(10, 10, trials=5 * CHUNK + 17, seed=6).outcomes,
                simulate_chain(10, [2, 3], trials=3 * CHUNK, seed=6).counts,
                roll_dice(3 * CHUNK, seed=6))

    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        single = run()
    finally:
        numba.set_num_threads(before)
    many = run()
    pd.testing.assert_frame_equal(single[0], many[0])
    np.testing.assert_array_equal(single[1], many[1])
    pd.testing.assert_frame_equal(single[2], many[2])


@pytest.mark.slow
def test_thread_count_does_not_change_results_across_processes():
    code = ("from riskstats.odds.simulate import simulate_battles;"
            "print(simulate_battles(10, 10, trials=700_001, seed=12).outcomes.to_json())")
    outputs = []
    for threads in ("1", "2"):
        env = {**os.environ, "NUMBA_NUM_THREADS": threads, "PYTHONPATH": str(ROOT)}
        outputs.append(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                      check=True).stdout)
    assert outputs[0] == outputs[1]


def test_waves_and_batches_do_not_change_results(monkeypatch):
    """Chunks, not waves or threads, own the streams: a scalar run equals a batch of the same battles."""
    trials = 3 * CHUNK + 5
    whole = simulate_battles(6, 4, trials=trials, seed=9)
    seen = []
    monkeypatch.setattr(simulate_module, "WAVE", 1)
    waved = simulate_battles(6, 4, trials=trials, seed=9, progress=lambda done, total: seen.append((done, total)))
    pd.testing.assert_frame_equal(whole.outcomes, waved.outcomes)
    ends = [(CHUNK, trials), (2 * CHUNK, trials), (3 * CHUNK, trials), (trials, trials)]
    assert set(ends) <= set(seen) and seen == sorted(seen) and seen[-1] == ends[-1]  # each wave's end, and within
    batch = simulate_battles(np.full(trials, 6), 4, seed=9)
    pd.testing.assert_frame_equal(whole.outcomes, batch.outcomes)
    a, _ = resolve_battles(np.full(trials, 6), 4, seed=9)
    b, _ = resolve_battles(np.full(100, 6), 4, seed=9)
    np.testing.assert_array_equal(a[:100], b)


# --- bad input --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("call", "message"), [
    (lambda: simulate_battles(0, 5, trials=10), "attackers"),
    (lambda: simulate_battles(5, 0, trials=10), "defenders"),
    (lambda: simulate_battles(5, 5, trials=0), "trials"),
    (lambda: simulate_battles(5, 5, trials=1.5), "trials"),
    (lambda: simulate_battles(5, 5, trials=10, seed=-1), "seed"),
    (lambda: simulate_battles(5, 5, trials=10, stop_at=5), "stop_at"),
    (lambda: simulate_battles(5, 5, trials=10, goal=5), "goal"),
    (lambda: simulate_battles([5, 6], [5, 5, 5]), "one length"),
    (lambda: simulate_battles([5.0, 6.0], 5), "whole numbers"),
    (lambda: simulate_battles([5, 0], 5), "attackers"),
    (lambda: simulate_battles([5, 6], 5, trials=3), "trials"),
    (lambda: simulate_chain(5, [3, 0], trials=10), "defenders"),
    (lambda: simulate_chain(5, [3], trials=10, leave=0), "leave"),
    (lambda: roll_dice(0), "rounds"),
    (lambda: roll_dice(10, 4, 2), "attacker dice"),
    (lambda: roll_dice(10, 3, 3), "defender dice"),
])
def test_bad_input_names_the_value(call, message):
    with pytest.raises(RiskstatsError, match=message):
        call()


def test_a_wave_cut_into_short_calls_counts_the_same(monkeypatch):
    """Waves run in short calls (`riskstats.pieces`) for Ctrl-C's sake, each going on with every chunk's
    stream: a few trials of each chunk a call (chunks of 300 here, the last one short) count exactly what
    whole waves count, for battles and chains, and progress counts up to every trial."""
    from riskstats import pieces

    def whole_waves(n, run, **_):
        run(0, n)
        return n

    monkeypatch.setattr(simulate_module, "CHUNK", 300)
    monkeypatch.setattr(simulate_module, "in_pieces", whole_waves)
    seen = []
    whole = (simulate_battles(12, 9, trials=2_000, seed=5), simulate_chain(9, [4, 3], trials=2_000, seed=5))
    monkeypatch.setattr(simulate_module, "in_pieces", pieces.in_pieces)
    monkeypatch.setattr(pieces, "PIECE_SECONDS", 0.0)  # one trial of each chunk a call
    cut = (simulate_battles(12, 9, trials=2_000, seed=5, progress=lambda done, n: seen.append(done)),
           simulate_chain(9, [4, 3], trials=2_000, seed=5))
    pd.testing.assert_frame_equal(cut[0].outcomes, whole[0].outcomes)
    assert (cut[1].counts == whole[1].counts).all()
    assert seen == sorted(seen) and seen[-1] == 2_000 and len(seen) == 300  # the longest chunk's trials


# --- the simulate command ----------------------------------------------------------------------------

runner = CliRunner()
KEYS = {"trials", "seed", "p_win", "ci_low", "ci_high", "p_win_exact", "battles_per_second", "outcomes",
        "mode", "balance", "augments"}


def simulate_json(*args):
    result = runner.invoke(app, ["simulate", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_cli_json_contract():
    payload = simulate_json("10", "5", "--trials", "2e5", "--seed", "3")
    assert set(payload) == KEYS
    assert payload["trials"] == 200_000 and payload["seed"] == 3
    assert payload["ci_low"] <= payload["p_win"] <= payload["ci_high"]
    assert payload["ci_low"] <= payload["p_win_exact"] <= payload["ci_high"]
    assert payload["p_win_exact"] == pytest.approx(battle_odds(10, 5).p_win, abs=1e-15)
    assert set(payload["outcomes"][0]) == {"attackers_left", "defenders_left", "p"}
    assert sum(o["p"] for o in payload["outcomes"]) == pytest.approx(1)
    assert payload["battles_per_second"] > 0
    again = simulate_json("10", "5", "--trials", "200000", "--seed", "3")
    assert again["outcomes"] == payload["outcomes"] and again["p_win"] == payload["p_win"]


def test_cli_rules_and_options_reach_the_simulation():
    args = ["11", "6", "--territory-armies", "--trials", "1e5", "--seed", "1", "--defender-dice", "3",
            "--ties", "attacker", "--stop-at", "2", "--cautious", "--goal", "1"]
    payload = simulate_json(*args)
    sample = simulate_battles(10, 6, DiceRules(defender_dice=3, ties="attacker"), trials=100_000, seed=1,
                              stop_at=2, cautious=True, goal=1)
    assert payload["p_win"] == sample.p_win
    expected = battle_odds(10, 6, DiceRules(defender_dice=3, ties="attacker"), stop_at=2, cautious=True, goal=1)
    assert payload["p_win_exact"] == pytest.approx(expected.p_win)
    assert {(o["attackers_left"], o["defenders_left"]) for o in payload["outcomes"]} <= set(expected.outcomes.index)


def test_cli_table_shows_estimate_interval_and_exact():
    result = runner.invoke(app, ["simulate", "3", "2", "--trials", "1000", "--seed", "2"])
    assert result.exit_code == 0, result.output
    for text in ("95% interval (Wilson)", "P(win) exact", "65.5954%", "End states", "able to roll"):
        assert text in result.stdout


@pytest.mark.parametrize("trials", ["0", "-5", "abc", "1.5", "1e-3", "inf", ""])
def test_cli_bad_trials(trials):
    result = runner.invoke(app, ["simulate", "3", "2", "--trials", trials])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --trials") and repr(trials) in lines[0]


@pytest.mark.parametrize("args", [["0", "2"], ["3", "2", "--stop-at", "3"], ["3", "2", "--ties", "nobody"],
                                  ["3", "2", "--seed", "-1"]])
def test_cli_bad_input_is_one_line(args):
    result = runner.invoke(app, ["simulate", *args, "--trials", "10"])
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1


def test_ctrl_c_stops_a_huge_simulation_and_says_so(tmp_path):
    """10^12 battles would take hours: Ctrl-C (a real SIGINT, once the bar is up) ends the run within
    seconds (between two waves), saying how many battles were simulated and that none are kept; exit 130."""
    import re

    from tests.cli_helpers import interrupt_on_a_terminal

    simulate_battles(10, 10, trials=1000, seed=1)  # the kernels into numba's cache
    status, err, took, screen = interrupt_on_a_terminal(["simulate", "10", "10", "--trials", "1e12", "--seed", "1"],
                                                        rb"simulating")
    assert took is not None, (status, err, screen[-2000:])
    assert status == 130 and took < 3, (status, took, err)
    assert re.search(r"interrupted after [\d,]+ of 1,000,000,000,000 battles: none kept", err), err


@pytest.mark.parametrize("rules", [DiceRules(), DiceRules(defender_dice=3)])
def test_roll_p_reads_the_exact_one_roll_table_back_from_the_sampling_table(rules):
    """`roll_p`, what a compiled bot prices battles with, is the exact table to within 2**-53 and sums to 1."""
    from riskstats.odds.simulate import roll_p, sampling_table

    cut, table = sampling_table(rules), rules.table(exact=True)
    for na in range(1, rules.attacker_dice + 1):
        for nd in range(1, rules.defender_dice + 1):
            probs = [roll_p(cut, na, nd, j) for j in range(min(na, nd) + 1)]
            assert math.isclose(sum(probs), 1.0, abs_tol=1e-15)
            for j, p in enumerate(probs):
                assert abs(p - float(table[na, nd, j])) <= 2.0 ** -52
