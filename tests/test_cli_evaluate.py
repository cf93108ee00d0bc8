"""riskstats evaluate: the JSON contract, the table, reproducibility and one-line errors."""
import json

import pytest
from typer.testing import CliRunner

from riskstats.cli import app
from tests.game.test_evaluate import one_conquest_from_victory

runner = CliRunner()


def write(tmp_path, pos, name="position.json"):
    path = tmp_path / name
    path.write_text(json.dumps(pos))
    return str(path)


def test_evaluate_json_contract(tmp_path):
    path = write(tmp_path, one_conquest_from_victory())
    result = runner.invoke(app, ["evaluate", path, "--rollouts", "400", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert set(payload) == {"players", "moves", "rollouts", "seed", "moves_mean"}
    assert payload["rollouts"] == 400 and payload["seed"] == 3
    assert "same seeds as the position's rollouts" in payload["moves_mean"]
    assert [set(p) for p in payload["players"]] == [{"player", "p_win", "ci_low", "ci_high"}] * 2
    assert [p["player"] for p in payload["players"]] == [0, 1]
    assert all(set(m) == {"move", "p_win", "ci_low", "ci_high", "wins", "rollouts", "tied_with_best", "own"}
               for m in payload["moves"])
    assert sum(m["own"] for m in payload["moves"]) == 1
    assert payload["moves"][0]["move"] == "attack Alaska -> Kamchatka (3 dice)"
    best = payload["moves"][0]
    assert best["ci_low"] <= best["p_win"] <= best["ci_high"] and best["tied_with_best"]
    assert best["wins"] == round(best["p_win"] * 400) and best["rollouts"] == 400
    assert all(m["tied_with_best"] == (m["ci_high"] >= best["ci_low"]) for m in payload["moves"])
    again = runner.invoke(app, ["evaluate", path, "--rollouts", "400", "--seed", "3", "--json"])
    assert again.stdout == result.stdout  # stdout: a first run may add a compile notice on stderr


def test_evaluate_table(tmp_path):
    path = write(tmp_path, one_conquest_from_victory())
    result = runner.invoke(app, ["evaluate", path, "--rollouts", "100", "--bot", "continent"])
    assert result.exit_code == 0, result.output
    assert "P(win)" in result.output and "Best next moves of player 0" in result.output
    text = " ".join(result.output.split())
    assert "continent's own" in text and "the move continent itself plays here" in text


def test_evaluate_on_a_pipe_says_what_it_expects_and_when_it_is_done(tmp_path, monkeypatch):
    """On a pipe no bar draws: one line on stderr gives the work's size, rate and expected time once it has run
    a while, and one says when it is done, with wall and CPU time."""
    from riskstats.cli import common

    path = write(tmp_path, one_conquest_from_victory())
    real = common._progress_lines

    def soon(enabled, label, unit="rollouts", after=2.0):
        return real(enabled, label, unit, after=0.0)

    monkeypatch.setattr("riskstats.cli.game._progress_lines", soon)
    result = runner.invoke(app, ["evaluate", path, "--rollouts", "3000", "--top", "2"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("evaluate:")]
    assert len(lines) == 2, result.stderr
    assert "9,000 rollout games at" in lines[0] and "s to go" in lines[0]
    assert lines[1].startswith("evaluate: 9,000 rollout games in") and "CPU s" in lines[1]


def test_evaluate_errors(tmp_path):
    for args, message in ((["evaluate", str(tmp_path / "missing.json")], "cannot read position file"),
                          (["evaluate", write(tmp_path, {"players": 2}, "bad.json"), "--rollouts", "10"],
                           "invalid position: phase must be one of"),
                          (["evaluate", write(tmp_path, one_conquest_from_victory()), "--bot", "genius"],
                           "unknown bot 'genius'"),
                          (["evaluate", write(tmp_path, one_conquest_from_victory()), "--rollouts", "-1"],
                           "--rollouts must be a whole number, 0 or more")):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], result.output


def test_evaluate_with_the_search_bot(tmp_path):
    """``--bot search``: the rollouts are played by the search bot (a small budget here); one conquest from
    victory, the winning attack comes first and the answer repeats with the seed."""
    path = write(tmp_path, one_conquest_from_victory())
    args = ["evaluate", path, "--bot", "search:rollouts=2:plans=3", "--rollouts", "40", "--seed", "2", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["moves"][0]["move"] == "attack Alaska -> Kamchatka (3 dice)"
    assert runner.invoke(app, args).stdout == result.stdout


def test_evaluate_rounds_to_what_the_rollouts_support_and_marks_ties(tmp_path):
    """50 rollouts support whole percents only; moves whose interval overlaps the best's say so."""
    import re

    path = write(tmp_path, one_conquest_from_victory())
    result = runner.invoke(app, ["evaluate", path, "--rollouts", "50", "--top", "8"])
    assert result.exit_code == 0, result.output
    assert not re.search(r"\d\.\d+%", result.output)  # no decimals
    assert re.search(r"\b\d{1,3}% to \d{1,3}%", result.output)
    text = " ".join(result.output.split())
    assert "rounded to whole percent, what 50 rollouts support" in text and "vs best" in text
    payload = json.loads(runner.invoke(app, ["evaluate", path, "--rollouts", "50", "--top", "8", "--json"]).stdout)
    tied = [m for m in payload["moves"][1:] if m["tied_with_best"]]
    assert text.count("not separated") - 1 == len(tied)  # once in the caption
    assert "aggressive" in " ".join(runner.invoke(app, ["evaluate", "--help"]).output.split())


def test_evaluate_with_no_rollouts_answers_from_the_model(tmp_path):
    """``--rollouts 0``: the fitted position value alone, with the same JSON keys; the winning attack first."""
    path = write(tmp_path, one_conquest_from_victory())
    result = runner.invoke(app, ["evaluate", path, "--rollouts", "0", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert set(payload) == {"players", "moves", "rollouts", "seed", "moves_mean"} and payload["rollouts"] == 0
    assert [set(p) for p in payload["players"]] == [{"player", "p_win", "ci_low", "ci_high"}] * 2
    assert sum(p["p_win"] for p in payload["players"]) == pytest.approx(1.0)
    assert payload["moves"][0]["move"] == "attack Alaska -> Kamchatka (3 dice)"
    table = runner.invoke(app, ["evaluate", path, "--rollouts", "0"])
    assert table.exit_code == 0 and "P(win)" in table.output and "the model's value" in table.output


def test_evaluate_with_no_rollouts_reads_the_model_asked_for(tmp_path):
    """``--model strong``: the second fitted model (its P(win) differ from the default's, same keys); an
    unknown model is a one-line error naming it."""
    path = write(tmp_path, one_conquest_from_victory())
    default = json.loads(runner.invoke(app, ["evaluate", path, "--rollouts", "0", "--json"]).stdout)
    result = runner.invoke(app, ["evaluate", path, "--rollouts", "0", "--model", "strong", "--json"])
    assert result.exit_code == 0, result.output
    strong = json.loads(result.stdout)
    assert set(strong) == set(default) and sum(p["p_win"] for p in strong["players"]) == pytest.approx(1.0)
    assert [p["p_win"] for p in strong["players"]] != [p["p_win"] for p in default["players"]]
    table = runner.invoke(app, ["evaluate", path, "--rollouts", "0", "--model", "strong"])
    assert table.exit_code == 0 and "fitted position value 'strong'" in " ".join(table.output.split())
    bad = runner.invoke(app, ["evaluate", path, "--rollouts", "0", "--model", "weak"])
    lines = bad.output.strip().splitlines()
    assert bad.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error: ")
    assert "unknown position-value model 'weak'" in lines[0]


def test_ctrl_c_stops_a_long_evaluation_at_once(tmp_path):
    """A million rollouts from the opening would take hours: on a terminal the bar shows rollouts/s and the
    ETA, and Ctrl-C (a real SIGINT) ends the run within seconds (the rollouts run in short calls), saying
    on stderr how far it got and that nothing is kept; exit status 130."""
    import re

    from riskstats.game.evaluate import evaluate
    from riskstats.game.position import template_position
    from tests.cli_helpers import interrupt_on_a_terminal

    path = write(tmp_path, template_position(3))
    evaluate(template_position(3), rollouts=2, top=1, candidates=2)  # the kernels into numba's cache
    status, err, took, screen = interrupt_on_a_terminal(["evaluate", path, "--rollouts", "1e6"],
                                                        rb"[\d,]+ rollouts/s")
    assert took is not None, (status, err, screen[-2000:])
    assert status == 130 and took < 3, (status, took, err)
    assert "ETA" in screen and "evaluate" in screen
    assert re.search(r"interrupted after [\d,]+ of [\d,]+ rollouts: none kept", err), err
    assert "Traceback" not in err
