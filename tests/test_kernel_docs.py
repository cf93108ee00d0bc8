"""Every compiled kernel that takes 10 or more parameters names each of them, with its shape, in a numpydoc
``Parameters`` section (issue 41, item 4): a reader of ``_vec_step(S, B, R, CUT, AO, OO, P, ...)`` learns what
``AO``, ``OO`` and ``P`` are without reading its callers."""
import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "riskstats"
DECORATORS = {"jit", "parallel_jit", "lean_jit", "inline_jit", "njit"}
"""The names a kernel is compiled with (`riskstats._numba`), and numba's own."""
WIDE = 10


def _decorator_name(node: ast.expr) -> str:
    while isinstance(node, ast.Call):
        node = node.func
    return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")


def documented(docstring: str) -> set[str]:
    """The parameter names a numpydoc ``Parameters`` section of ``docstring`` gives an entry: a line at the
    section's indent naming one or more parameters (``B, R, CUT``), optionally followed by `` : type``."""
    lines = docstring.expandtabs().split("\n")
    try:
        start = next(i for i, line in enumerate(lines[:-1])
                     if line.strip() == "Parameters" and set(lines[i + 1].strip()) == {"-"})
    except StopIteration:
        return set()
    indent = len(lines[start]) - len(lines[start].lstrip())
    names = set()
    for i in range(start + 2, len(lines)):
        line = lines[i]
        if line.strip() and len(line) - len(line.lstrip()) < indent:
            break
        if line.strip() and len(line) - len(line.lstrip()) == indent:
            head = line.strip().split(" : ")[0]
            underlined = i + 1 < len(lines) and set(lines[i + 1].strip()) == {"-"}
            if underlined or not re.fullmatch(r"\w+(, \w+)*", head):
                break  # the next section, or prose
            names.update(head.split(", "))
    return names


def wide_kernels(source: str, path: str = "<source>") -> list[tuple[str, list[str]]]:
    """(kernel, its parameters without an entry) for every compiled function of ``source`` taking `WIDE` or
    more parameters."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef) or len(node.args.args) < WIDE:
            continue
        if not any(_decorator_name(d) in DECORATORS for d in node.decorator_list):
            continue
        have = documented(ast.get_docstring(node, clean=False) or "")
        found.append((f"{path}:{node.name}", [a.arg for a in node.args.args if a.arg not in have]))
    return found


def test_every_wide_kernel_documents_every_parameter():
    kernels = [k for f in sorted(PACKAGE.rglob("*.py"))
               for k in wide_kernels(f.read_text(), str(f.relative_to(PACKAGE.parent)))]
    assert len(kernels) >= 31  # as counted when the rule came in; a new wide kernel joins them
    undocumented = {name: missing for name, missing in kernels if missing}
    assert undocumented == {}


def test_the_check_flags_a_kernel_that_leaves_a_parameter_out():
    source = '''
@jit
def _wide(a, b, c, d, e, f, g, h, i, j):
    """Something.

    Parameters
    ----------
    a, b, c : int
        Three.
    d : float64[N]
        One more.
    e, f, g, h, i
        As in `_other`.

    Returns
    -------
    j : int
        Not a parameter entry.
    """
'''
    assert wide_kernels(source) == [("<source>:_wide", ["j"])]
    assert wide_kernels(source.replace("@jit\n", "")) == []  # not compiled: not checked
    assert wide_kernels(source.replace("@jit", "@parallel_jit")) == [("<source>:_wide", ["j"])]
