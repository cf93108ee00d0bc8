"""The project's own promises: lint-clean, the README's commands, a non-editable install that works."""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_is_clean():
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    done = subprocess.run([ruff, "check", str(ROOT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def readme_commands():
    return re.findall(r"```bash\n(.*?)\n```", (ROOT / "README.md").read_text(), flags=re.S)[:2]


def test_readme_opens_with_the_two_commands_and_ci_runs_the_second():
    text = (ROOT / "README.md").read_text()
    install_and_run, install_and_test = readme_commands()
    assert text.index("```bash") < text.index("\n\n", text.index("# riskstats") + 12) + 3
    assert "riskstats odds" in install_and_run
    assert "pytest" in install_and_test
    assert install_and_test in (ROOT / ".ci" / "run").read_text()


@pytest.mark.slow
def test_non_editable_install_runs_from_elsewhere(tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                    "--target", str(target), str(ROOT)], check=True, capture_output=True)
    env = {**os.environ, "PYTHONPATH": str(target)}
    done = subprocess.run([sys.executable, "-m", "riskstats", "odds", "3", "2", "--json"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout)["p_win"] == pytest.approx(0.6559539998)


@pytest.mark.slow
def test_readme_python_examples_run():
    for block in re.findall(r"```python\n(.*?)\n```", (ROOT / "README.md").read_text(), flags=re.S):
        exec(compile(block, "README.md", "exec"), {})


def test_readme_walks_a_newcomer_through():
    import tomllib

    text = (ROOT / "README.md").read_text()
    cli = text.index("## The command line")
    first_bare = text.index("\nriskstats ", cli)
    assert cli < text.index("source .venv/bin/activate") < first_bare and ".venv/bin/riskstats" in text[cli:first_bare]
    notebooks = text[text.index("## Notebooks"):]
    assert 'pip install ".[notebooks]"' in notebooks and "jupyter lab notebooks/" in notebooks
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(req.startswith("jupyter") for req in extras["notebooks"])
    assert "Every command takes the same dice-rule options" not in text


def test_readme_cli_claims_match_the_cli():
    from typer.testing import CliRunner

    from riskstats.cli import app

    text = (ROOT / "README.md").read_text()
    runner = CliRunner()
    shown = json.loads(runner.invoke(app, ["round", "3", "2", "--json"]).stdout)["outcomes"]
    comment = re.search(r"riskstats round 3 2 +# the exact one-roll table: (.*)", text)[1]
    assert comment == ", ".join(o["fraction"] for o in shown)
    claim = re.search(r"The battle commands \((.*?)\) take the same dice-rule", text)[1]
    battle = re.findall(r"`(\w+)`", claim)
    for command in ["round", "odds", "table", "chain", "need", "simulate", "continents", "cards", "selfplay",
                    "report"]:
        help_text = runner.invoke(app, [command, "--help"]).stdout
        assert ("--attacker-dice" in help_text) == (command in battle), command


@pytest.mark.slow
def test_readme_simulation_is_compared_with_its_own_exact_answer():
    block = re.findall(r"```python\n(.*?)\n```", (ROOT / "README.md").read_text(), flags=re.S)[0]
    names = {}
    exec(compile(block, "README.md", "exec"), names)
    sample, odds = names["sample"], names["odds"]
    difference = sample.outcomes.p.sub(odds.outcomes.p, fill_value=0).abs()
    assert difference.max() < 0.005  # 10**6 battles: a standard error is at most 0.0005; allow 10


def test_ctrl_c_stops_a_test_run_deep_in_a_long_kernel(tmp_path):
    """Ctrl-C at a terminal sends SIGINT to pytest and to its xdist workers: a test deep in a long self-play
    (a million games: a quarter of an hour on 2 cores) stops within seconds (2 s here), since the games are
    played in short calls of the kernel (`riskstats.pieces`) and Python raises KeyboardInterrupt between two.
    Before, the worker played on and xdist killed it only after its 10 s wait for workers to exit."""
    import signal
    import time

    started = tmp_path / "started"
    (tmp_path / "test_long.py").write_text(
        "from pathlib import Path\n"
        "from riskstats.runs.selfplay import play_games\n\n"
        "def test_long():\n"
        "    play_games(2, 3, ['aggressive'])  # the kernel compiled or loaded\n"
        f"    Path({str(started)!r}).touch()\n"
        "    play_games(1_000_000, 3, ['aggressive'])\n")
    process = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "1",
                                "test_long.py"], cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)},
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 600  # a cold numba cache compiles the game loop first
    while not started.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        assert started.exists(), "the test never reached its long self-play"
        time.sleep(1.0)  # well inside the million games
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C does: the whole foreground process group
        sent = time.monotonic()
        output, _ = process.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert took < 8 and process.returncode != 0, (took, process.returncode, output[-2000:])
    assert "KeyboardInterrupt" in output and "passed" not in output, output[-2000:]
