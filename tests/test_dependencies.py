"""Every third-party module the project imports is declared: the base package's in the base dependencies, the
optional parts' in their extras, the tests' in ``dev``. A module that only an extra happens to bring in (click,
once typer stopped depending on it, came in through dask's ``distributed``) breaks a user's plain install while
the test environment stays green; this test reads the imports themselves, so it fails on the tree, not on an
install."""
import ast
import functools
import importlib.metadata
import json
import re
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
EXTRAS = PROJECT["optional-dependencies"]

OPTIONAL_PARTS = {
    "riskstats/env": "rl",
    "riskstats/runs/distributed.py": "distributed",
    "riskstats/runs/tune.py": "tune",
    "riskstats/game/value_fit.py": "fit",
}
"""The optional parts of the package and the extra each one's imports must be declared in."""

KNOWN_PROVIDERS = {"pyspiel": "open-spiel", "open_spiel": "open-spiel"}
"""Import names whose distribution has another name, for when that distribution is not installed here (so
`importlib.metadata.packages_distributions` cannot tell)."""


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _declared(requirements) -> set[str]:
    """The distribution names a list of requirement strings declares (``dask[distributed]>=1`` names dask)."""
    return {_normalise(re.match(r"[A-Za-z0-9._-]+", r)[0]) for r in requirements}


BASE = _declared(PROJECT["dependencies"])
LOCAL = {"riskstats", "tests"} | {p.stem for folder in ("tests", "scripts") for p in (ROOT / folder).rglob("*.py")}
"""The project's own modules: the package, and the helpers the tests and scripts import from beside them."""


def _third_party(source: str) -> set[str]:
    """The top-level names of the absolute imports in ``source`` that are neither standard library nor
    the project's own (`LOCAL`); imports inside functions and ``try`` blocks count as much as those at the top."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return {n for n in names if n not in sys.stdlib_module_names and n not in LOCAL}


@functools.cache
def _providers() -> dict:
    return importlib.metadata.packages_distributions()


def _distribution(module: str) -> str:
    providers = _providers().get(module)
    if providers:
        return _normalise(providers[0])
    return _normalise(KNOWN_PROVIDERS.get(module, module))


def _part(path: Path) -> str | None:
    relative = path.relative_to(ROOT).as_posix()
    return next((extra for part, extra in OPTIONAL_PARTS.items() if relative.startswith(part)), None)


def _undeclared(files, allowed_for) -> list[str]:
    """``file: module (distribution)`` for each import whose distribution ``allowed_for(file)`` lacks."""
    missing = []
    for path in files:
        for module in sorted(_third_party(path.read_text())):
            distribution = _distribution(module)
            if distribution not in allowed_for(path):
                missing.append(f"{path.relative_to(ROOT)}: {module} ({distribution})")
    return missing


def test_the_package_declares_what_it_imports():
    def allowed(path):
        extra = _part(path)
        return BASE | (_declared(EXTRAS[extra]) if extra else set())

    assert _undeclared(sorted((ROOT / "riskstats").rglob("*.py")), allowed) == []


def test_each_optional_part_names_an_extra_that_ci_installs():
    for extra in OPTIONAL_PARTS.values():
        assert _declared(EXTRAS[extra]) <= _declared(EXTRAS["dev"]), extra
    for part in OPTIONAL_PARTS:
        assert (ROOT / part).exists(), part


def _skipped_without(path: Path) -> set[str]:
    """The distributions of the modules a test file skips itself without (``pytest.importorskip("sb3_contrib")``)."""
    return {_distribution(m.split(".")[0]) for m in re.findall(r"importorskip\(\s*[\"'](\w[\w.]*)", path.read_text())}


def test_the_tests_and_scripts_declare_what_they_import():
    """A test imports ``dev``'s packages, or those of another extra that it skips itself without (the ``learn``
    extra's smoke test, which the main test environment skips); a script, any extra's."""
    everything = BASE.union(*(_declared(r) for r in EXTRAS.values()))
    dev = BASE | _declared(EXTRAS["dev"])
    assert _undeclared(sorted((ROOT / "tests").rglob("*.py")),
                       lambda path: dev | (_skipped_without(path) & everything)) == []
    assert _undeclared(sorted((ROOT / "scripts").rglob("*.py")), lambda _: everything) == []


def test_the_notebooks_declare_what_they_import():
    allowed = BASE | _declared(EXTRAS["notebooks"])
    missing = []
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(notebook.read_text())["cells"]
        code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        code = "\n".join(line for line in code.splitlines() if not line.lstrip().startswith(("%", "!")))
        missing += [f"{notebook.name}: {m}" for m in sorted(_third_party(code)) if _distribution(m) not in allowed]
    assert missing == []


@pytest.mark.parametrize("source, expected", [
    ("import click\nfrom numpy.random import default_rng\nimport os, json", {"click", "numpy"}),
    ("def f():\n    from riskstats.cli import app\n    import optuna", {"optuna"}),
    ("from . import sibling\nfrom .x import y", set()),
])
def test_imports_are_read_wherever_they_stand(source, expected):
    assert _third_party(source) == expected
