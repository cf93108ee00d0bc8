"""The package's layout: every import, at module level or inside a function, points to the same or an
earlier layer, and no chain of imports comes back to where it started."""
import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "riskstats"
LAYERS = (
    ("riskstats", "riskstats.errors", "riskstats._numba", "riskstats.intervals"),
    ("riskstats.odds",),
    ("riskstats.game.rules",),
    ("riskstats.game.bots",),
    ("riskstats.game",),
    ("riskstats.runs",),
    ("riskstats.env",),
    ("riskstats.stats", "riskstats.plots"),
    ("riskstats.analysis",),
    ("riskstats.cli", "riskstats.__main__"),
)


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer(module: str) -> int:
    best = None
    for rank, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (best is None or len(prefix) > best[1]):
                best = (rank, len(prefix))
    assert best is not None, module
    return best[0]


def imports(module: str) -> set[str]:
    """The riskstats modules that ``module`` imports anywhere in its body."""
    found = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text())):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        found |= {n for n in names if n in MODULES and n != module}
    return found


GRAPH = {m: imports(m) for m in MODULES}


def test_every_module_sits_in_a_layer():
    assert {layer(m) for m in MODULES} == set(range(len(LAYERS)))


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_flow_from_earlier_layers(module):
    later = sorted(m for m in GRAPH[module] if layer(m) > layer(module))
    assert not later, f"{module} imports {later}, which belong to later layers"


def test_no_import_circle():
    done, path = set(), []

    def visit(m):
        if m in path:
            raise AssertionError("import circle: " + " -> ".join(path[path.index(m):] + [m]))
        if m in done:
            return
        path.append(m)
        for n in sorted(GRAPH[m] - {"riskstats"}):
            visit(n)
        path.pop()
        done.add(m)

    for m in sorted(MODULES):
        visit(m)


@pytest.mark.parametrize("part", ["odds", "game", "runs", "env", "stats", "cli"])
def test_each_part_says_what_it_owns_and_may_import(part):
    doc = ast.get_docstring(ast.parse((PACKAGE / part / "__init__.py").read_text()))
    assert doc and "May import" in doc
    modules = sorted(p.stem for p in (PACKAGE / part).glob("*.py") if p.stem != "__init__")
    assert [m for m in modules if f"`{m}`" not in doc] == [], "modules the part's docstring does not name"


def test_analysis_says_what_it_may_import():
    assert "May import" in ast.get_docstring(ast.parse((PACKAGE / "analysis" / "__init__.py").read_text()))
