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
    assert "riskstats odds" in install_and_run and "[" not in install_and_run  # no extras: the user's install
    assert "compile" not in install_and_run  # an odds lookup compiles no game kernel
    assert "pytest" in install_and_test
    ci = (ROOT / ".ci" / "run").read_text()
    assert install_and_test in ci
    assert ci.index(".ci/first_command") < ci.index(install_and_test)  # the user's command first, as written


def test_flags_render_as_flags_in_help():
    """typer 0.29 began to write boolean flags as ``--json <bool>`` (and ``--json true`` is refused): the
    pinned range must render them as the flags they are."""
    from typer.testing import CliRunner

    from riskstats.cli import app

    for command in (["odds"], ["table"], ["selfplay"], ["position", "new"]):
        shown = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "120"}).stdout
        assert "--json" in shown or "--players" in shown, command
        assert "<bool>" not in shown, command



def test_readme_commands_use_their_own_environments():
    """The first command is the user's install in `.venv`; the second makes `.venv-test` for the test tools, so it
    is a fresh environment as its text says, and the user's is left as it was."""
    install_and_run, install_and_test = readme_commands()
    assert re.findall(r"\.venv[\w-]*", install_and_run) == [".venv"] * 3
    assert re.findall(r"\.venv[\w-]*", install_and_test) == [".venv-test"] * 3
    assert ".venv-test/" in (ROOT / ".gitignore").read_text().split()


def measured(step: str) -> str:
    """How the README states the install step ``step`` of data/install/measurements.csv: its wall and CPU time."""
    import csv

    rows = {r["step"]: r for r in csv.DictReader((ROOT / "data/install/measurements.csv").open())}
    wall, cpu = float(rows[step]["wall_s"]), float(rows[step]["cpu_s"])
    return f"{wall:.1f} s ({cpu:.1f} CPU s)" if wall < 10 else f"{wall:.0f} s ({cpu:.0f} CPU s)"


README_STEPS = {  # README's words before each measured step, then the step (data/install/measurements.csv)
    "first command's install": "install", "the odds": "first_command", "the second's install": "install_dev",
    "the base install alone so:": "install_again", "`fit`": "install_fit", "`rl`": "install_rl",
    "`distributed`": "install_distributed", "`tune`": "install_tune", "`notebooks`": "install_notebooks",
    "`learn`": "install_learn", "a file on this machine:": "install_torch_cpu"}


def test_readme_install_figures_are_the_measured_ones():
    """Each install figure of the README's opening is the committed measurement's wall and CPU time (issue 42)."""
    text = re.sub(r"\s+", " ", (ROOT / "README.md").read_text())
    opening = text[:text.index("riskstats answers, exactly and fast")]
    for words, step in README_STEPS.items():
        assert f"{words} {measured(step)}" in opening, (words, measured(step))


def test_readme_says_where_the_kernel_cache_lives():
    """The README names the folder `riskstats._numba` caches kernels in, and how to start cold."""
    from riskstats import _numba

    text = (ROOT / "README.md").read_text()
    assert f"`{_numba.CACHE_ROOT}`" in text and "`NUMBA_CACHE_DIR`" in text and "~/.cache/numba" in text
    assert "NUMBA_CACHE_DIR=$(mktemp -d)" in text


def test_readme_states_the_suite_size(suite_size):
    """README's "about N tests" is the number of tests the whole suite collects, to the nearest hundred. Checked in
    a run that collects the whole suite (README's test command; tests/conftest.py counts before -m or -k deselect
    any), skipped in a run of a part of it."""
    if suite_size is None:
        pytest.skip("counts the suite only in a run that collects all of it (pytest with no path)")
    stated = int(re.search(r"about ([\d,]+) tests", (ROOT / "README.md").read_text())[1].replace(",", ""))
    assert round(suite_size, -2) == stated, f"{suite_size} tests collected"

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


def test_readme_command_table_names_every_command():
    """The README is a reference: its command table names every command the CLI registers, and no other
    (``position`` is the group of `POSITION_COMMANDS`)."""
    from riskstats.cli import COMMANDS

    text = (ROOT / "README.md").read_text()
    table = text[text.index("| command | answers |"):]
    table = table[:table.index("\n\n")]
    named = set(re.findall(r"`([a-z]+)(?: [A-Z ]+)?`", table))
    assert named == {name for name, *_ in COMMANDS} | {"position"}


# ---------------------------------------------------------------- what the docs cite
SKIP_DIRS = {".git", ".venv", ".venv-test", ".venv-learn", "__pycache__", "build", "dist", ".pytest_cache",
             ".hypothesis", ".ruff_cache"}
EXTENSIONS = (".md", ".py", ".ipynb", ".toml", ".json", ".csv", ".gz", ".parquet", ".png")
TOP_FOLDERS = ("riskstats", "docs", "data", "scripts", "tests", "notebooks")
MAY_BE_ABSENT = {"violations.csv"}  # data/invariants/README.md: written only if a game broke an invariant


def repository_paths() -> set[str]:
    """Every file and folder of the checkout, relative to its root ("docs/rules.md", "data/strength")."""
    found = set()
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if not SKIP_DIRS.intersection(parts) and not parts[-1].endswith(".egg-info"):
            found.add("/".join(parts))
    return found


def markdown_texts() -> list[tuple[str, str]]:
    """(file, text) of every markdown a reader meets: README.md, the .md files under docs/ and data/, and the
    notebooks' markdown cells."""
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "data").rglob("*.md"))]
    texts = [(str(f.relative_to(ROOT)), f.read_text()) for f in files]
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(notebook.read_text())["cells"]
        texts.append((str(notebook.relative_to(ROOT)),
                      "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")))
    return texts


def cited_paths(text: str) -> list[str]:
    """The paths a markdown text cites: relative link targets, and code spans that name a file or folder (with a
    known extension, a trailing slash, a leading ./ or ../, or a top-level folder of the repository first);
    spans with wildcards or placeholders (``*``, ``<…>``, ``…``) or a scheme (``s3://``) are names, not paths."""
    cited = [target.split("#")[0] for target in re.findall(r"\]\(([^)\s]+)\)", text)
             if not re.match(r"[a-z][a-z0-9+.-]*:|#", target)]
    for span in re.findall(r"`([^`\s]+)`", text):
        if not re.fullmatch(r"(\.\.?/)*[\w][\w./-]*", span):
            continue
        if (span.endswith(EXTENSIONS) or span.endswith("/") or span.startswith(("./", "../"))
                or span.split("/")[0] in TOP_FOLDERS):
            cited.append(span)
    return cited


@pytest.mark.parametrize("name, text", [pytest.param(name, text, id=name) for name, text in markdown_texts()])
def test_markdown_cites_only_files_in_the_repository(name, text):
    """A reader of the repository can open every path its markdown cites: relative to the file, to the
    repository's root, or (a name as it appears in a listing: `ladder.csv`, `data/classic.json`) the tail of
    a path in it. Nothing outside the repository (`../shared/...`); the rules are docs/rules.md."""
    paths = repository_paths()
    here = (ROOT / name).parent
    missing = []
    for cited in cited_paths(text):
        target = cited.rstrip("/")
        resolved = (here / target).resolve()
        if resolved.is_relative_to(ROOT) and resolved.exists():
            continue
        if not cited.startswith(("./", "../")) and (
                target in paths or any(p.endswith("/" + target) for p in paths)):
            continue
        if target not in MAY_BE_ABSENT:
            missing.append(cited)
    assert not missing, f"{name} cites paths not in the repository: {missing}"
    assert "../shared" not in text, f"{name} cites ../shared, outside the repository"
    if name != "docs/rules.md":
        assert not re.search(r"(?<![\w/])RULES\.md", text), f"{name} cites RULES.md: cite docs/rules.md"


def test_code_cites_docs_rules_not_rules_md():
    """Docstrings and comments point to the rules a reader can open, docs/rules.md."""
    for folder, pattern in [("riskstats", "*.py"), ("scripts", "*.py"), ("scripts", "*.toml"), ("tests", "*.py")]:
        for path in (ROOT / folder).rglob(pattern):
            if path == Path(__file__).resolve():
                continue  # this file names it to forbid it
            text = path.read_text()
            assert not re.search(r"(?<![\w/])RULES\.md", text), f"{path.relative_to(ROOT)} cites RULES.md"


def test_docs_rules_lists_every_option_with_its_default():
    """docs/rules.md has a table row for every field of GameRules and of DiceRules, with the code's default."""
    import ast
    from dataclasses import MISSING, fields

    from riskstats.game.rules.options import GameRules
    from riskstats.odds.dice import DiceRules

    text = (ROOT / "docs" / "rules.md").read_text()
    rows = dict(re.findall(r"^\| `(\w+)` \| `([^`]*)` \|", text, flags=re.M))
    for config in (GameRules, DiceRules):
        for f in fields(config):
            assert f.name in rows, f"docs/rules.md has no row for {config.__name__}.{f.name}"
            default = f.default if f.default is not MISSING else f.default_factory()
            if default.__class__.__module__.startswith("riskstats"):
                assert rows[f.name] == f"{type(default).__name__}()", f.name
            else:
                assert ast.literal_eval(rows[f.name]) == default, f"{f.name}: docs say {rows[f.name]}, code {default!r}"


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
