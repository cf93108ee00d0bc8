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
