"""The text environment: prompts with the exact odds, replies read in any form, bad ones bounded, no string fatal."""
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from riskstats.env.text import TextEnv, parse_reply
from riskstats.errors import RiskstatsError
from riskstats.odds.battle import battle_odds

OPTIONS = ["place 3 on Alaska", "end the attack phase", "attack Peru (2) from Brazil (5), until decided: ..."]


def play(env, choose, limit=5000):
    """Play a game to its end with ``choose(options) -> reply``; the transcript of (prompt, reply, info)."""
    text, transcript, done = env.reset(), [], False
    while not done:
        reply = choose(env.options)
        nxt, reward, done, info = env.step(reply)
        transcript.append((text, reply, info))
        text = nxt
        assert len(transcript) < limit
    return transcript, reward


def test_a_game_is_played_to_its_end_by_numbers_and_the_same_seed_plays_it_again():
    env = TextEnv(players=3, opponents="continent-tuned", seed=4)
    first, reward = play(env, lambda options: "1")
    assert env.game.over and env.prompt == "" and first[-1][2]["winner"] == env.game.winner
    assert reward == (1.0 if env.game.winner == 0 else -0.5 if env.game.winner > 0 else 0.0)
    again, _ = play(TextEnv(players=3, opponents="continent-tuned", seed=4), lambda options: "1")
    assert [t for t, _, _ in again] == [t for t, _, _ in first]
    with pytest.raises(RiskstatsError, match="the game is over"):
        env.step("1")


def test_every_phase_gets_a_prompt_with_numbered_moves_and_attacks_carry_their_exact_odds():
    env = TextEnv(players=2, opponents="hunter", seed=2)
    phases, checked = set(), 0

    def choose(options):
        nonlocal checked
        for line in options:
            m = re.match(r"attack .* \((\d+)\) from .* \((\d+)\), until decided: P\(conquer\) ([0-9.]+), expected "
                         r"losses ([0-9.]+) yours, ([0-9.]+) theirs", line)
            if m:
                d, a = int(m[1]), int(m[2])
                odds = battle_odds(a - 1, d)
                assert float(m[3]) == round(odds.p_win, 3) and float(m[4]) == round(odds.expected_attacker_losses, 1)
                checked += 1
        best = next((i for i, o in enumerate(options, 1) if "until decided: P(conquer) 0.9" in o), 1)
        return str(best)

    text = env.reset()
    done = False
    while not done:
        phases.add(env.game.phase)
        lines = text.splitlines()
        assert lines[0].startswith(f"You are seat 0 of 2 (two-player), turn {env.game.turn}, phase {env.game.phase}")
        numbered = [ln for ln in lines if re.match(r"\d+\. ", ln)]
        assert [ln.split(". ", 1)[1] for ln in numbered] == env.options
        text, _, done, _ = env.step(choose(env.options))
    assert {"setup_place", "reinforce", "attack", "occupy", "fortify"} <= phases and checked > 10


def test_replies_as_numbers_texts_or_json_and_bad_ones_with_a_reason():
    assert parse_reply("2", OPTIONS) == (1, "")
    assert parse_reply("I choose 3, clearly.", OPTIONS) == (2, "")
    assert parse_reply("  END the   attack phase ", OPTIONS) == (1, "")
    assert parse_reply('{"move": 1}', OPTIONS) == (0, "")
    assert parse_reply('{"choice": "end the attack phase"}', OPTIONS) == (1, "")
    assert parse_reply("[3]", OPTIONS) == (2, "")
    for bad, reason in [("", "empty"), ("pass", "names no move"), ("7", "not the number of a legal move (1 to 3)"),
                        ("0", "not the number"), ('{"move": true}', "names no move"), ("{oops", "not valid JSON"),
                        (None, "a reply is text"), (3, "a reply is text")]:
        index, why = parse_reply(bad, OPTIONS)
        assert index is None and reason in why and "\n" not in why, bad


def test_bad_replies_get_the_prompt_again_then_the_stated_default_move():
    env = TextEnv(players=2, opponents="continent-tuned", seed=3, retries=2)
    text = env.reset()
    while env.game.phase != "attack":
        text, _, _, _ = env.step("1")
    for _ in range(2):
        again, reward, done, info = env.step("attack the weakest, please")
        assert again == text and info["move"] is None and info["error"] and not done
    _, _, _, info = env.step("still no number")
    assert info["default"] and info["move"] == "end the attack phase" and env.game.phase != "attack"


def test_bad_settings_are_clear_errors():
    with pytest.raises(RiskstatsError, match="players"):
        TextEnv(players=9)
    with pytest.raises(RiskstatsError, match="seat"):
        TextEnv(players=3, seat=3)
    with pytest.raises(RiskstatsError):
        TextEnv(opponents="nobody")
    with pytest.raises(RiskstatsError, match="call reset"):
        TextEnv().step("1")


HOSTILE = ["\x00" * 50, "9" * 5000, "-1", "1e309", "{" * 3000, '{"move": {"move": 1}}', '{"move": [1, 2]}',
           "NaN", "Infinity", '{"move": 1e400}', "１", "\u202e2", "1" + "\n" * 10_000, "[" * 100 + "]" * 100,
           json.dumps({"move": "x" * 100_000}), "\ud800", "𝟙", "end the attack phase" * 1000]


@settings(max_examples=10_000, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.one_of(st.text(), st.sampled_from(HOSTILE), st.binary().map(lambda b: b.decode("latin-1")),
                 st.recursive(st.integers() | st.text() | st.booleans() | st.none() | st.floats(),
                              lambda inner: st.lists(inner) | st.dictionaries(st.sampled_from(["move", "choice", "x"]),
                                                                              inner), max_leaves=8).map(json.dumps)))
def test_no_reply_crashes_the_parser(reply):
    """10,000 random and hostile strings (text, raw bytes, nested JSON): always an index in range or a reason."""
    index, why = parse_reply(reply, OPTIONS)
    assert (index is None and why) or (0 <= index < len(OPTIONS) and why == "")


def test_play_agent_plays_any_callable_in_rotating_seats_and_keeps_transcripts(tmp_path):
    from riskstats.env.text import BASELINES, play_agent

    log = tmp_path / "t.jsonl"
    table = play_agent(BASELINES["best_odds"], "continent-tuned", 4, seed=3, transcripts=log)
    assert table.seat.tolist() == [0, 1, 0, 1] and table.won.isin([0, 1]).all() and (table.bad == 0).all()
    summary = table.attrs["summary"]
    assert summary["games"] == 4 and summary["low95"] <= summary["win_rate"] <= summary["high95"]
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(lines) == table.decisions.sum() and {"prompt", "reply", "move"} <= set(lines[0])
    again = play_agent(BASELINES["best_odds"], "continent-tuned", 4, seed=3)
    assert again.equals(table)  # the same call, the same games
    chatty = play_agent(lambda prompt: "hmm", "random", 1, seed=1, retries=1)
    assert chatty.bad[0] == 2 * chatty.defaults[0] > 0  # each decision: one retry, then the default move
    with pytest.raises(RiskstatsError, match="agent must be a callable"):
        play_agent("not callable")


def test_the_best_odds_baseline_takes_the_surest_attack_or_ends_the_phase():
    from riskstats.env.text import best_odds

    prompt = ("You are seat 0 ...\nLegal moves (reply with one number):\n1. end the attack phase\n"
              "2. attack A (3) from B (4), one roll of 3 dice: P(conquer) 0.000, ...\n"
              "3. attack A (3) from B (4), until decided: P(conquer) 0.412, ...\n"
              "4. attack C (1) from D (9), until decided: P(conquer) 0.998, ...\n")
    assert best_odds(prompt) == "4"
    assert best_odds(prompt.replace("0.998", "0.300")) == "1"  # nothing at 0.5 or better: end the phase
    assert best_odds("1. place 3 on Alaska\n2. place 1 on Alaska") == "1"
