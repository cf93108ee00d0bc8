"""Every input gets a one-line error (issue 21, section 3): each a CliRunner test."""
import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from riskstats.cli import _whole, app

runner = CliRunner()
SELFPLAY = ["selfplay", "--players", "3", "--bots", "aggressive,continent", "--seed", "3", "--games", "2"]
EXPERIMENT = """games = 2
seed = 1
[grid]
players = [3]
bots = ["aggressive,defensive"]
"""


def one_line_error(result, *words, code=2):
    assert result.exit_code == code, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.output
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def no_distributed(monkeypatch):
    """An install without the distributed extra: ``import distributed`` fails."""
    monkeypatch.setitem(sys.modules, "distributed", None)


@pytest.mark.parametrize("cluster", [["--dask-local", "2"], ["--scheduler", "tcp://127.0.0.1:8786"]])
def test_selfplay_on_dask_without_distributed_names_the_extra(no_distributed, tmp_path, cluster):
    out = tmp_path / "run"
    one_line_error(runner.invoke(app, [*SELFPLAY, *cluster, "--out", str(out)]),
                   "pip install 'riskstats[distributed]'")
    assert not out.exists()  # refused before anything is written
    one_line_error(runner.invoke(app, [*SELFPLAY, *cluster]), "pip install 'riskstats[distributed]'")


def test_experiment_on_dask_without_distributed_leaves_nothing_behind(no_distributed, tmp_path):
    spec = tmp_path / "grid.toml"
    spec.write_text(EXPERIMENT)
    out = tmp_path / "exp"
    one_line_error(runner.invoke(app, ["experiment", str(spec), "--out", str(out), "--dask-local", "2"]),
                   "pip install 'riskstats[distributed]'")
    assert not (out / "experiment.json").exists()


def test_experiment_into_an_unwritable_folder_is_one_line(tmp_path):
    spec = tmp_path / "grid.toml"
    spec.write_text(EXPERIMENT)
    one_line_error(runner.invoke(app, ["experiment", str(spec), "--out", "/proc/exp"]), "cannot write", "/proc/exp")


def test_a_finished_experiment_says_it_is_complete(tmp_path):
    spec = tmp_path / "grid.toml"
    spec.write_text(EXPERIMENT)
    out = tmp_path / "exp"
    first = runner.invoke(app, ["experiment", str(spec), "--out", str(out)])
    assert first.exit_code == 0, first.output
    assert "complete, nothing to play" not in first.stderr
    again = runner.invoke(app, ["experiment", str(spec), "--out", str(out)])
    assert again.exit_code == 0, again.output
    assert f"complete, nothing to play: 2 games in {out}" in again.stderr


# ------------------------------------------------------------ tune
TUNE = ["tune", "aggressive", "--against", "random", "--players", "3", "--trials", "1", "--games-per-trial", "2",
        "--check-games", "0"]


@pytest.mark.parametrize("storage", ["bad://url", "sqlite:////proc/t.db", "sqlite:////proc/no/such/t.db"])
def test_tune_with_a_storage_it_cannot_open_is_one_line(storage):
    pytest.importorskip("optuna")
    one_line_error(runner.invoke(app, [*TUNE, "--storage", storage]), storage)


def _fake_measure(bot, against, players, variant="classic", *, seeds, rules=None):
    return {"bot": bot, "games": len(seeds), "wins": 1, "win_rate": 1 / len(seeds), "ci_low": 0.0, "ci_high": 1.0}


def test_an_interrupted_tune_marks_its_trial_failed_and_a_rerun_counts_the_trials(tmp_path, monkeypatch):
    optuna = pytest.importorskip("optuna")
    import riskstats.runs.tune as tune_module

    storage = f"sqlite:///{tmp_path / 'tune.db'}"
    args = [*TUNE, "--storage", storage, "--study", "s"]

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(tune_module, "measure_bot", interrupted)
    result = runner.invoke(app, args)
    assert result.exit_code == 130 and "interrupted" in result.stderr, result.output
    study = optuna.load_study(study_name="s", storage=storage)
    assert [t.state.name for t in study.trials] == ["FAIL"]

    # a tune killed outright (no exception): its trial stays running, marked with a process that is gone
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    trial = study.ask()
    import socket

    trial.set_user_attr("runner", [socket.gethostname(), gone.pid])
    monkeypatch.setattr(tune_module, "measure_bot", _fake_measure)
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    assert ("resumed: the study holds 2 trials (0 complete, 2 failed (1 left running by an interrupted run, "
            "marked failed now))") in result.stderr
    payload = json.loads(result.stdout)
    assert payload["found"] == {"trials": 2, "complete": 0, "failed": 2, "running": 0, "marked_failed": 1}
    states = [t.state.name for t in optuna.load_study(study_name="s", storage=storage).trials]
    assert states == ["FAIL", "FAIL", "COMPLETE"]


def test_a_running_trial_of_a_live_process_is_left_alone(tmp_path, monkeypatch):
    optuna = pytest.importorskip("optuna")
    import socket

    import riskstats.runs.tune as tune_module

    storage = f"sqlite:///{tmp_path / 'tune.db'}"
    monkeypatch.setattr(tune_module, "measure_bot", _fake_measure)
    assert runner.invoke(app, [*TUNE, "--storage", storage, "--study", "s"]).exit_code == 0
    study = optuna.load_study(study_name="s", storage=storage)
    trial = study.ask()
    trial.set_user_attr("runner", [socket.gethostname(), os.getppid()])  # alive: another tune playing it
    result = runner.invoke(app, [*TUNE, "--storage", storage, "--study", "s", "--json"])
    assert result.exit_code == 0, result.output
    assert "1 running elsewhere" in result.stderr
    assert json.loads(result.stdout)["found"]["running"] == 1


# ------------------------------------------------------------ messages that pointed the wrong way
@pytest.mark.parametrize("args, words", [
    (["odds", "-5", "3"], ["ATTACKERS must be", "got -5"]),
    (["odds", "5", "-3"], ["DEFENDERS must be", "got -3"]),
    (["chain", "20", "3", "-2"], ["DEFENDERS must be", "got -2"]),
    (["chain", "-20", "3"], ["ATTACKERS must be", "got -20"]),
    (["simulate", "-2", "3", "--trials", "10"], ["ATTACKERS must be", "got -2"]),
    (["need", "-3", "--p", "0.5"], ["DEFENDERS must be", "got -3"]),
    (["round", "-1", "2"], ["attacker dice must be", "got -1"]),
    (["policy", "-3", "2", "--value", "1"], ["ATTACKERS must be", "got -3"]),
    (["odds", "5", "3", "--stop-at", "-1"], ["--stop-at must be", "got -1"]),
])
def test_negative_numbers_reach_the_check(args, words):
    one_line_error(runner.invoke(app, args), *words)


# ------------------------------------------------------------ errors name what the user typed (issue 42, item 6)
@pytest.mark.parametrize("args, typed, internal", [
    (["odds", "10", "5", "--stop-at", "20"], "error: --stop-at must be below the attackers (10), got 20", "stop_at"),
    (["odds", "10", "5", "--defender-sides", "0"], "error: --defender-sides must be from 2 to 20, got 0",
     "defender_sides"),
    (["odds", "10", "5", "--defender-modifier", "9"], "error: --defender-modifier must be from -5 to 5, got 9",
     "defender_modifier"),
    (["odds", "10", "5", "--goal", "5"], "error: --goal must be below the defenders (5), got 5", "error: goal"),
    (["odds", "ten", "5"], "error: Invalid value for 'ATTACKERS': 'ten' is not a whole number", "'A'"),
    (["odds", "10"], "error: Missing argument 'DEFENDERS'.", "'D'"),
    (["chain", "10", "3", "x"], "error: Invalid value for 'DEFENDERS...': 'x' is not a whole number", "D1"),
    (["need", "3", "--p", "1.5"], "error: --p must be a probability in (0, 1], got 1.5", "error: p must"),
    (["policy", "5", "2", "--value", "1", "--cost", "-1"], "error: --cost must be at least 0, got", "error: cost"),
    (["selfplay", "--games", "0", "--players", "3", "--bots", "aggressive"], "error: --games must be from 1 to",
     "error: games"),
    # a message that names the option already is left as it is
    (["odds", "5", "3", "--top", "0"], "error: --top must be at least 1, got 0", "----"),
    (["show", "x.json", "--out", "x.txt"], "error: --out must end in .png, .svg or .pdf", "----"),
])
def test_errors_name_what_the_user_typed(args, typed, internal):
    """The library names its parameters (``stop_at``); the command line names the option typed (``--stop-at``)
    and a positional argument by its name in the help (``ATTACKERS``)."""
    line = one_line_error(runner.invoke(app, args), typed)
    assert internal not in line


def test_policy_help_says_a_value_may_be_negative():
    """``--value -4`` is accepted (a conquest that costs more than it brings: the policy stops), and the help
    says so."""
    text = " ".join(runner.invoke(app, ["policy", "--help"]).stdout.replace("│", " ").split())
    assert "negative for a conquest that costs more than it brings" in text
    result = runner.invoke(app, ["policy", "10", "6", "--value", "-4", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["p_win"] == 0


def test_unknown_options_are_still_refused():
    one_line_error(runner.invoke(app, ["odds", "5", "3", "--bogus"]), "No such option", "--bogus")
    one_line_error(runner.invoke(app, ["chain", "5", "3", "-x"]), "No such option", "-x")


def test_selfplay_players_message_names_the_two_player_game():
    one_line_error(runner.invoke(app, [*SELFPLAY[:2], "7", *SELFPLAY[3:]]),
                   "players must be from 3 to 6, or 2 for the two-player game, got 7")


@pytest.mark.parametrize("text, value", [("1000000", 10**6), ("1_000_000", 10**6), ("1e6", 10**6), ("1E6", 10**6),
                                         ("2.5e3", 2500), ("1e12", 10**12), ("-5", -5), ("1e30", 10**30)])
def test_one_parser_reads_every_count(text, value):
    assert _whole(text) == value


@pytest.mark.parametrize("text", ["1.5", "1e-3", "abc", "nan", "inf", "", "1e999999"])
def test_the_count_parser_refuses_what_is_not_a_whole_number(text):
    assert _whole(text) is None


def test_counts_are_read_alike_everywhere():
    """--games 1e12 is read as 10^12 (and refused by the library's range), like --trials 1e7."""
    one_line_error(runner.invoke(app, ["selfplay", "--games", "1e12", "--players", "3", "--bots", "aggressive"]),
                   "games must be from 1 to", "got 1000000000000")
    one_line_error(runner.invoke(app, ["selfplay", "--games", "2.5", "--players", "3", "--bots", "aggressive"]),
                   "'2.5' is not a whole number")
    one_line_error(runner.invoke(app, ["odds", "1e1", "2.5"]), "'2.5' is not a whole number")


def test_sigterm_interrupts_tune_like_ctrl_c():
    """`timeout` and `kill` send SIGTERM: tune turns it into an interrupt, so its trial is marked failed."""
    import signal

    from riskstats.cli import _terminate_as_interrupt

    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt), _terminate_as_interrupt():
        os.kill(os.getpid(), signal.SIGTERM)
    assert signal.getsignal(signal.SIGTERM) == before


@pytest.fixture
def python_sigint():
    """Python's own SIGINT handler during the test, whatever the process inherited (a job a script starts in the
    background inherits SIGINT ignored, which the command line then leaves alone)."""
    import signal

    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, inherited)


def test_ctrl_c_inside_llvmlite_waits_until_the_compiler_is_out_of_it(monkeypatch, python_sigint):
    """numba's compiler calls back into Python from C through llvmlite, where a KeyboardInterrupt is swallowed
    and leaves numba broken (the command then died of "no compiled object yet" with a traceback, about one
    Ctrl-C in three during a first compile): there the command line's handler sends the signal again a moment
    later; anywhere else it raises KeyboardInterrupt at once. The handler holds SIGINT only during a command."""
    import signal
    import time
    import types

    from riskstats.cli import common, odds

    sent = []
    monkeypatch.setattr(common.os, "kill", lambda pid, signum: sent.append(signum))
    monkeypatch.setattr(common, "INTERRUPT_RETRY", 0.0)

    def frame(filename, back=None):
        return types.SimpleNamespace(f_code=types.SimpleNamespace(co_filename=filename), f_back=back)

    callback = frame(os.path.join(os.sep, "site-packages", "llvmlite", "binding", "executionengine.py"),
                     frame(os.path.join(os.sep, "site-packages", "numba", "core", "codegen.py")))
    common._interrupt(signal.SIGINT, callback)  # no KeyboardInterrupt: it would be swallowed
    deadline = time.monotonic() + 5
    while not sent and time.monotonic() < deadline:
        time.sleep(0.01)
    assert sent == [signal.SIGINT]
    with pytest.raises(KeyboardInterrupt):
        common._interrupt(signal.SIGINT, frame(os.path.join(os.sep, "site-packages", "numba", "core", "typeinfer.py")))
    seen = []
    monkeypatch.setattr(odds, "_print_json", lambda payload: seen.append(signal.getsignal(signal.SIGINT)))
    assert runner.invoke(app, ["round", "3", "2", "--json"]).exit_code == 0
    assert seen == [common._interrupt] and signal.getsignal(signal.SIGINT) is signal.default_int_handler
