"""Output a newcomer reads: tables written whole to a pipe, odds --top/--summary, report and tune captions,
and the position commands (through CliRunner, whose stdout is no terminal, like a pipe)."""
import json
import re

import pandas as pd
import pytest

from riskstats.cli import _supported_digits, _tune_verdict, app
from tests.cli_helpers import run, run_json, runner

LONG = "continent:threshold=0.55:card_threshold=0.65:entrance_weight=1.5"


def games_csv(tmp_path, players, bots, winners, name="games.csv"):
    """A hand-made results table: one game per line-up in ``bots`` (comma-separated seats)."""
    table = pd.DataFrame({"players": players, "bots": bots, "winner": winners,
                          "turns": [30 + 7 * i for i in range(len(bots))], "rounds": 10,
                          "truncated": [w < 0 for w in winners]})
    table["winner_bot"] = [b.split(",")[w] if w >= 0 else "" for b, w in zip(table.bots, table.winner)]
    path = tmp_path / name
    table.to_csv(path, index=False)
    return str(path)


def test_a_wide_report_table_is_written_whole_to_a_pipe(tmp_path, monkeypatch):
    """Rich cuts tables to 80 columns off a terminal; here the table is wider and comes out whole."""
    monkeypatch.delenv("COLUMNS", raising=False)  # a terminal's width, if another test left one
    lineups = [f"{LONG},aggressive:threshold=0.65,defensive", f"aggressive:threshold=0.65,defensive,{LONG}",
               f"defensive,{LONG},aggressive:threshold=0.65"] * 4
    result = run("report", games_csv(tmp_path, 3, lineups, [0, 1, 2, 0, 0, 1, 2, 1, 0, 2, 1, 0]), "--boot", "20")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(map(len, lines)) > 80
    assert any(LONG in line for line in lines) and "…" not in result.stdout


def test_a_wide_selfplay_summary_is_written_whole_to_a_pipe(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    result = run("selfplay", "--games", "3", "--players", "3", "--bots", f"{LONG},aggressive:threshold=0.65",
                 "--seed", "1")
    assert result.exit_code == 0, result.output
    assert any(LONG in line for line in result.stdout.splitlines()) and "…" not in result.stdout


def test_a_bot_in_every_seat_gets_no_interval(tmp_path):
    path = games_csv(tmp_path, 3, ["aggressive,aggressive,aggressive"] * 6, [0, 1, 2, 0, 1, -1])
    result = run("report", path, "--boot", "20")
    assert result.exit_code == 0, result.output
    row = next(line for line in result.stdout.splitlines() if line.lstrip("│ ").startswith("aggressive"))
    assert "- (every seat)" in row and not re.search(r"\d-\d", row)
    assert "a bot in all 3 seats of every game wins every decided game" in " ".join(result.stdout.split())
    assert [r["every_seat"] for r in run_json("report", path, "--boot", "20")["win_rate_by_bot"]] == [True]
    mixed = run("report", games_csv(tmp_path, 3, ["a,b,c", "b,c,a", "c,a,b"], [0, 1, 2], "mixed.csv"), "--boot", "20")
    assert "every seat" not in mixed.stdout


def test_a_bot_seated_twice_is_named(tmp_path):
    """report, experiment and selfplay mark a bot a short line-up seats twice and say what its rate counts
    (issue 42, item 5)."""
    def run_wide(*args):  # the tables' width, not the terminal's, must not decide what is checked
        return runner.invoke(app, [str(a) for a in args], env={"COLUMNS": "200"})

    note = "aggressive holds 2 seats of each game: a game counts once for it, won if any of its seats won"
    path = games_csv(tmp_path, 4, ["aggressive,b,c,aggressive", "b,c,aggressive,aggressive"] * 2, [0, 1, 2, 3])
    result = run_wide("report", path, "--boot", "20")
    assert result.exit_code == 0, result.output
    assert "aggressive (2 seats)" in result.stdout and note in " ".join(result.stdout.split())
    assert [r["seats"] for r in run_json("report", path, "--boot", "20")["win_rate_by_bot"]] == [2, 1, 1]
    spec = tmp_path / "grid.toml"
    spec.write_text('games = 2\nseed = 1\n[grid]\nplayers = [4]\nbots = ["aggressive,continent,defensive"]\n')
    result = run_wide("experiment", spec, "--out", tmp_path / "exp")
    assert result.exit_code == 0, result.output
    assert "aggressive (2 seats)" in result.stdout and note in " ".join(result.stdout.split())
    result = run_wide("selfplay", "--games", "2", "--players", "4", "--bots", "aggressive,continent,defensive")
    assert result.exit_code == 0, result.output
    assert "aggressive (2 seats)" in result.stdout and note in " ".join(result.stdout.split())


def test_the_bradley_terry_caveat_only_for_more_than_two_players(tmp_path):
    caveat = "each win counted as P-1 pairs"
    two = run("report", games_csv(tmp_path, 2, ["a,b", "b,a"] * 4, [0, 1, 1, 0, 0, 0, 1, 1]), "--boot", "20")
    assert two.exit_code == 0, two.output
    assert "Bradley-Terry" in two.stdout and caveat not in " ".join(two.stdout.split())
    three = run("report", games_csv(tmp_path, 3, ["a,b,c", "b,c,a", "c,a,b"] * 2, [0, 1, 2, 1, 0, 2], "3.csv"),
                "--boot", "20")
    assert caveat in " ".join(three.stdout.split())


def test_tune_says_which_side_the_fresh_games_favour():
    def measured(rate, low, high):
        return {"win_rate": rate, "ci_low": low, "ci_high": high}

    # the run the issue saw: the defaults ahead of "best", 32.6% against 28.9%, intervals overlapping
    text = _tune_verdict(measured(0.289, 0.26, 0.32), measured(0.326, 0.296, 0.358))
    assert text == "the intervals overlap: no ranking (the defaults 32.6% against best 28.9%, within the noise)"
    # issue 32: "in favour of the defaults: they beat best, 18.6% against 24.4%" when the defaults had 24.4%
    text = _tune_verdict(measured(0.186, 0.17, 0.20), measured(0.244, 0.23, 0.26))
    assert text.startswith("the intervals separate in favour of the defaults: the defaults 24.4% against best 18.6%")
    assert _tune_verdict(measured(0.40, 0.37, 0.43), measured(0.30, 0.27, 0.33)) == \
        "the intervals separate in favour of the tuned parameters: best 40.0% against the defaults 30.0%"
    tie = _tune_verdict(measured(0.3, 0.2, 0.4), measured(0.3, 0.2, 0.4))
    assert tie.endswith("(best and the defaults both 30.0%)")


def test_tune_table_shows_the_whole_bot_spec_at_160_columns(tmp_path, monkeypatch):
    """The fresh-games table folds a long bot spec rather than cutting it with an ellipsis (issue 32 §8)."""
    pytest.importorskip("optuna")
    monkeypatch.setenv("COLUMNS", "160")
    result = run("tune", "continent", "--against", "aggressive", "--players", "3", "--trials", "1",
                 "--games-per-trial", "2", "--check-games", "2", "--seed", "1", "--storage", f"sqlite:///{tmp_path}/t.db")
    assert result.exit_code == 0, result.output
    assert "…" not in result.stdout and max(map(len, result.stdout.splitlines())) <= 160
    spec = json.loads(run("tune", "continent", "--against", "aggressive", "--players", "3", "--trials", "1",
                          "--games-per-trial", "2", "--check-games", "2", "--seed", "1", "--storage",
                          f"sqlite:///{tmp_path}/t.db", "--json").stdout)["best"]["bot"]
    assert len(spec) > 160  # every parameter written out: wider than the terminal
    cells = "".join(line.split("│")[1].strip() for line in result.stdout.splitlines() if line.count("│") == 5)
    assert spec in cells


def test_odds_top_and_summary():
    full = run_json("odds", 40, 40)
    top = run_json("odds", 40, 40, "--top", 5)
    assert top["outcomes_total"] == len(full["outcomes"]) > 5 and len(top["outcomes"]) == 5
    ps = [o["p"] for o in top["outcomes"]]
    assert ps == sorted(ps, reverse=True) and ps[0] == max(o["p"] for o in full["outcomes"])
    assert top["p_win"] == full["p_win"]
    summary = run_json("odds", 40, 40, "--summary")
    assert "outcomes" not in summary and summary["outcomes_total"] == len(full["outcomes"])
    text = run("odds", 40, 40, "--top", 3)
    assert text.exit_code == 0 and "the 3 most likely of" in " ".join(text.stdout.split())
    assert len(text.stdout.splitlines()) < 30
    assert "End states" not in run("odds", 40, 40, "--summary").stdout
    assert "--top N shows the N most likely" not in " ".join(run("odds", 40, 40).stdout.split())  # 80 lines
    assert "--top N shows the N most likely" in " ".join(run("odds", 60, 60).stdout.split())  # 120 lines
    for args, words in ((("--top", 0), "--top must be at least 1"), (("--top", 2, "--summary"), "not both")):
        result = run("odds", 5, 5, *args)
        assert result.exit_code == 2 and result.output.startswith("error:") and words in result.output


def test_odds_with_a_stop_rule_says_what_p_lose_counts():
    """With --stop-at (or --goal), p_lose is "did not conquer (stopped or lost)", and a line under the table
    says why an end state can sit below the stop: one roll can cost two armies."""
    plain = run("odds", 20, 20)
    assert "P(lose)" in plain.stdout and "stops once" not in plain.stdout
    stopped = run("odds", 20, 20, "--stop-at", 5)
    words = " ".join(stopped.stdout.split())
    assert stopped.exit_code == 0 and "P(lose)" not in words
    assert "P(not conquered: stopped or lost) │ 61.1421%" in words
    assert "an end state can sit below 5 because one roll can cost 2 armies" in words
    assert "│ 4 │" in words  # such an end state: 4 attackers left
    cautious = " ".join(run("odds", 20, 20, "--stop-at", 5, "--cautious").stdout.split())
    assert "P(not conquered: stopped or lost)" in cautious and "can sit below" not in cautious
    assert "P(goal not reached: lost)" in run("odds", 20, 20, "--goal", 3).stdout
    assert "P(goal not reached: stopped or lost)" in run("odds", 20, 20, "--goal", 3, "--stop-at", 5).stdout
    out = run_json("odds", 20, 20, "--stop-at", 5, "--cautious")
    assert out["p_lose"] == pytest.approx(0.677487, abs=1e-6) and out["cautious"] is True  # p_lose stays
    assert out["p_lose_means"] == "did not conquer: stopped with 5 attackers or fewer, or lost them all"
    assert run_json("odds", 20, 20)["p_lose_means"] == "did not conquer: lost every attacker"


@pytest.mark.parametrize("players, variant", [(3, None), (2, None), (4, "mission"), (3, "capital"),
                                              (2, "two-player")])
def test_position_new_prints_a_template_that_loads(tmp_path, players, variant):
    from riskstats.game.play import Game

    args = ["position", "new", "--players", players] + (["--variant", variant] if variant else [])
    result = run(*args)
    assert result.exit_code == 0, result.output
    pos = json.loads(result.stdout)
    assert len(pos["territories"]) == 42 and pos["players"] == players
    game = Game.from_json(result.stdout)
    assert game.phase == "reinforce" and game.player == 0 and game.reserve >= 3
    assert game.rules.variant == (variant or ("two-player" if players == 2 else "classic"))
    if variant == "mission":
        assert len(set(game.missions())) == players
    if variant == "capital":
        assert min(game.capitals) >= 0


def test_position_new_errors_are_one_line():
    for args, words in ((["--players", "7"], "players"), (["--players", "3", "--variant", "risk2210"], "variant")):
        result = run("position", "new", *args)
        assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
        assert result.output.startswith("error:") and words in result.output


def test_position_names_lists_the_territories_and_their_aliases():
    payload = run_json("position", "names")
    rows = {r["territory"]: r for r in payload["territories"]}
    assert len(rows) == 42 and "Mexico" in rows["Central America"]["aliases"]
    assert rows["Ukraine"]["aliases"] == ["Russia"]
    assert run("position", "names").stdout.count("Kamchatka") == 1


def test_rollout_digits_follow_the_interval():
    from riskstats.intervals import wilson_interval

    def frame(wins, n):
        low, high = wilson_interval(wins, n)
        return pd.DataFrame({"ci_low": [low], "ci_high": [high]})

    assert _supported_digits(frame(25, 50)) == 0  # +-13 points: whole percents
    assert _supported_digits(frame(5000, 10_000)) == 1  # +-1.0 point
    assert _supported_digits(frame(500_000, 1_000_000)) == 2


def test_round_titles_count_a_die_and_dice():
    assert "One roll: 3 attacker dice vs 1 defender die" in run("round", 3, 1).stdout
    assert "One roll: 1 attacker die vs 2 defender dice" in run("round", 1, 2).stdout


def test_chain_says_what_the_armies_left_are():
    """The expected armies left: every survivor on full success, standing in the last territory; otherwise the
    attackers left where the chain stopped (JSON: the number, and what it counts)."""
    words = " ".join(run("chain", 10, 3, 2, 4).stdout.split())
    assert ("Expected armies left 2.000: on full success every survivor, standing in the last territory; "
            "otherwise the attackers (armies able to roll) left where the chain stopped.") in words
    out = run_json("chain", 10, 3, 2, 4)
    assert out["expected_armies_left"] == pytest.approx(2.0, abs=5e-4)
    assert out["expected_armies_left_means"].startswith("on full success every survivor")


def test_chain_summary_shows_the_whole_chains_odds_only():
    """``chain --summary`` as ``odds --summary``: P(all conquered) and the armies left, no row per territory
    (JSON: no p_at_least list, the rest unchanged)."""
    words = " ".join(run("chain", 20, 3, 2, 4, "--summary").stdout.split())
    full = run_json("chain", 20, 3, 2, 4)
    assert f"P(all 3 conquered) │ {100 * full['p_all']:.4f}%" in words and "at least k" not in words
    assert "Expected armies left 10.960" in words
    short = run_json("chain", 20, 3, 2, 4, "--summary")
    assert "p_at_least" not in short and short == {k: v for k, v in full.items() if k != "p_at_least"}


def test_selfplay_says_how_games_ended_on_one_line_at_any_width(monkeypatch):
    """The count after "ended by:" stays beside its reason: a line of its own, not a caption wrapped to the
    table's width (issue 56: it wrapped even at 200 columns)."""
    monkeypatch.setenv("COLUMNS", "200")
    result = run("selfplay", "--games", "6", "--players", "3", "--bots", "aggressive")
    assert result.exit_code == 0, result.output
    [line] = [x for x in result.stdout.splitlines() if "ended by" in x]
    assert re.fullmatch(r"ended by: [a-z_]+ [\d,]+(, [a-z_]+ [\d,]+)*", line.strip()), line
