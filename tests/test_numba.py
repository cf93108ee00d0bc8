"""Tests of riskstats._numba: the on-demand compiler and borrowed views."""
import numpy as np
import pytest

from riskstats._numba import borrow, compiled, jit, lowest_bit, popcount


@jit
def _borrowed_sums(arrays):
    a, (b, c) = borrow(arrays)
    a[0] = 7  # a view: writes reach the caller's array
    return a.sum(), b.sum(), c[1, 2], c.shape[0], c.shape[1]


def test_borrowed_views_see_the_same_memory_shape_and_strides():
    a = np.arange(4, dtype=np.int64)
    b = np.arange(10.0)[::3]  # strided
    c = np.arange(12, dtype=np.int64).reshape(3, 4)
    assert _borrowed_sums((a, (b, c))) == (7 + 1 + 2 + 3, 0.0 + 3 + 6 + 9, 6, 3, 4)
    assert a[0] == 7


def test_borrowing_leaves_reference_counts_alone():
    import sys

    a = np.zeros(3, np.int64)
    c = np.zeros((2, 3), np.int64)
    before = sys.getrefcount(a), sys.getrefcount(c)
    for _ in range(100):
        _borrowed_sums((a, (np.zeros(2), c)))
    assert (sys.getrefcount(a), sys.getrefcount(c)) == before


def _double(x):
    return 2 * x


def test_compiled_is_built_once_per_kernel():
    assert compiled(_double) is compiled(_double)
    assert compiled(_double)(21) == 42


def test_a_new_cache_folder_removes_only_stale_riskstats_siblings(tmp_path):
    import os

    from riskstats._numba import STALE_AFTER, _adopt_cache

    now = 1_000_000_000.0
    folders = {"stale": "riskstats-00000000000000aa", "in_use": "riskstats-00000000000000bb",
               "other_package": "somepackage-00000000000000cc", "odd_name": "riskstats-notadigest"}
    for name in folders.values():
        (tmp_path / name).mkdir()
        (tmp_path / name / "kernel.nbi").write_text("x")
        os.utime(tmp_path / name, (now - 2 * STALE_AFTER,) * 2)
    os.utime(tmp_path / folders["in_use"], (now - STALE_AFTER / 2,) * 2)  # a process of that version started
    current = tmp_path / "riskstats-00000000000000dd"
    _adopt_cache(str(current), now)
    assert current.is_dir()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [current.name] + [v for k, v in folders.items() if k != "stale"])
    # an existing folder is only marked as used, its siblings are left
    os.utime(current, (now - 2 * STALE_AFTER,) * 2)
    _adopt_cache(str(tmp_path / folders["in_use"]), now + STALE_AFTER)
    assert current.is_dir() and os.stat(tmp_path / folders["in_use"]).st_mtime == now + STALE_AFTER
    _adopt_cache(str(tmp_path / "missing" / "riskstats-00000000000000ee"), now)  # a new base: no error


@jit
def _bit_facts(x):
    return popcount(x), lowest_bit(x)


def test_popcount_and_lowest_bit_match_python():
    rng = np.random.default_rng(5)
    values = [1, 2, 3, 0b1011000, 2**31, 2**32 - 1, 2**62 + 2**40] + rng.integers(1, 2**62, 200).tolist()
    for x in values:
        assert _bit_facts(np.int64(x)) == (bin(x).count("1"), (x & -x).bit_length() - 1), x
    assert _bit_facts(np.int64(0))[0] == 0


def _package(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def _digests(root):
    from riskstats._numba import _imports, source_digest

    _imports.cache_clear()
    source_digest.cache_clear()
    return {str(p.relative_to(root)): source_digest(p, root) for p in sorted(root.rglob("*.py"))}


def test_an_edit_changes_the_digest_of_its_module_and_of_the_modules_importing_it_only(tmp_path):
    """`source_digest` follows imports of every form (module, package, relative, inside a function)."""
    root = tmp_path / "pkg"
    _package(root, {
        "__init__.py": "",
        "leaf.py": "X = 1\n",
        "mid.py": "from pkg.leaf import X\n",
        "top.py": "from pkg import mid\n",  # the submodule pkg.mid, through the package
        "rel.py": "def f():\n    from .leaf import X\n    return X\n",
        "sub/__init__.py": "",
        "sub/deep.py": "from ..mid import X\n",
        "other.py": "import os\nimport pkgx.leaf\n",  # not this package
    })
    before = _digests(root)
    (root / "leaf.py").write_text("X = 2\n")
    after = _digests(root)
    changed = {name for name in before if before[name] != after[name]}
    assert changed == {"leaf.py", "mid.py", "top.py", "rel.py", "sub/deep.py"}
    (root / "other.py").write_text("import os  # edited\n")
    again = _digests(root)
    assert {name for name in after if after[name] != again[name]} == {"other.py"}


def test_an_edit_to_the_bots_recompiles_only_what_calls_them(tmp_path):
    """On a copy of the real package: the game loop, search and self-play depend on the bots; the rules
    engine, the odds and the numba options do not."""
    import shutil
    from pathlib import Path

    import riskstats

    root = tmp_path / "riskstats"
    shutil.copytree(Path(riskstats.__file__).parent, root, ignore=shutil.ignore_patterns("__pycache__"))
    before = _digests(root)
    with open(root / "game" / "bots" / "common.py", "a") as f:
        f.write("\n# an edit\n")
    after = _digests(root)
    changed = {name for name in before if before[name] != after[name]}
    assert {"game/bots/common.py", "game/bots/dispatch.py", "game/loop.py", "game/search.py", "game/drive.py",
            "game/play.py", "runs/selfplay.py"} <= changed
    assert not changed & {"game/rules/engine.py", "game/rules/state.py", "game/bots/catalog.py", "odds/battle.py",
                          "odds/simulate.py", "_numba.py", "errors.py"}


def test_each_module_caches_its_kernels_in_a_folder_of_its_own_digest():
    from pathlib import Path

    from riskstats._numba import CACHE_ROOT, _ModuleCacheLocator, source_digest
    from riskstats.game import loop

    locator = loop._play._cache._impl.locator
    assert isinstance(locator, _ModuleCacheLocator)
    folder = Path(locator.get_cache_path())
    assert folder.parent.name == "game.loop" and folder.parent.parent.name == CACHE_ROOT
    assert folder.name == f"riskstats-{source_digest(Path(loop.__file__).resolve())[:16]}" and folder.is_dir()
    assert locator.get_source_stamp() == source_digest(Path(loop.__file__).resolve())


def test_a_file_outside_the_package_is_left_to_numba_unless_it_imports_the_package(tmp_path, monkeypatch):
    from riskstats._numba import _kernel_cache

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))

    plain = tmp_path / "plain.py"
    plain.write_text("import numpy\n")
    assert _kernel_cache(str(plain)) is None
    user = tmp_path / "user.py"
    user.write_text("from riskstats.game.loop import _play\n")
    folder, digest = _kernel_cache(str(user))
    assert folder.startswith(str(tmp_path / "cache")) and folder.endswith(f"riskstats-{digest[:16]}")
    assert "user-" in folder


def test_the_compile_notice_shows_only_for_a_long_riskstats_compile(monkeypatch):
    import io
    import time

    from riskstats import _numba
    from riskstats.game.loop import _play

    monkeypatch.delenv(_numba.NOTICE_VARIABLE, raising=False)
    stream = io.StringIO()
    notice = _numba._CompileNotice(stream, after=0.05)
    notice.on_start(_play.py_func)
    notice.on_start(_double)  # nested: a callee
    time.sleep(0.3)
    notice.on_end()
    notice.on_end()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2 and "compiling (first run only" in lines[0] and lines[1].startswith("riskstats: compiled in")
    quick = _numba._CompileNotice(stream := io.StringIO(), after=5)
    quick.on_start(_play.py_func)
    quick.on_end()
    assert stream.getvalue() == ""  # over before the notice was due
    other = _numba._CompileNotice(stream := io.StringIO(), after=0.01)
    other.on_start(_double)  # not a riskstats kernel
    time.sleep(0.1)
    other.on_end()
    assert stream.getvalue() == ""
    muted = _numba._CompileNotice(stream := io.StringIO(), after=0.01)
    with _numba.on_compile(lambda: None):  # the caller tells the user itself
        muted.on_start(_play.py_func)
        time.sleep(0.1)
        muted.on_end()
    monkeypatch.setenv(_numba.NOTICE_VARIABLE, "0")
    muted.on_start(_play.py_func)
    time.sleep(0.1)
    muted.on_end()
    assert stream.getvalue() == ""


_COUNT_COMPILES = """
import sys
from numba.core import event

compiles = []

class Count(event.Listener):
    def on_start(self, e):
        compiles.append(getattr(e.data.get("dispatcher"), "py_func", None))

    def on_end(self, e):
        pass

event.register("numba:compile", Count())
import riskstats
from riskstats.cli import app

try:
    app(sys.argv[1:])
except SystemExit as end:
    assert not end.code, end.code
print(sys.prefix, riskstats.__file__, len(compiles), [getattr(f, "__qualname__", "?") for f in compiles][:5])
"""


@pytest.mark.slow
def test_a_second_virtual_environment_of_the_same_checkout_compiles_nothing(tmp_path):
    """The kernels' cache lives in the user's numba folder, keyed by the modules' source (`_kernel_cache`), not
    by the environment: a new virtual environment of the same checkout loads every kernel its first selfplay
    needs, and numba's compile events count zero.

    The second environment is made offline, as pip's editable install lays one out: ``python -m venv``, and in
    its site-packages a path file naming the checkout and one naming this environment's packages (its
    dependencies; pip cannot build the editable wheel here without the network). Measured on 2 busy cores
    (load 1.8): that first selfplay of 20 four-player games took 1.4 s wall (1.5 CPU s) in the new environment,
    against 163 s wall (93 CPU s) from an empty cache.
    """
    import os
    import site
    import subprocess
    import sysconfig
    import venv
    from pathlib import Path

    from typer.testing import CliRunner

    import riskstats
    from riskstats.cli import app

    command = ["selfplay", "--games", "20", "--players", "4", "--bots", "continent,aggressive,defensive,random",
               "--seed", "1", "--json"]
    first = CliRunner().invoke(app, command)  # this environment: loads the kernels, or compiles them once
    assert first.exit_code == 0, first.output
    checkout = Path(riskstats.__file__).resolve().parents[1]
    second = tmp_path / "venv"
    venv.create(second, with_pip=False)
    packages = Path(sysconfig.get_path("purelib", vars={"base": str(second), "platbase": str(second)}))
    (packages / "checkout.pth").write_text(f"{checkout}\n")
    (packages / "dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    python = second / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    run = subprocess.run([str(python), "-c", _COUNT_COMPILES, *command], env=env, capture_output=True, text=True,
                         cwd=tmp_path, timeout=600)
    assert run.returncode == 0, run.stderr
    prefix, module, count, names = run.stdout.strip().splitlines()[-1].split(" ", 3)
    assert Path(prefix) == second and Path(module).resolve().is_relative_to(checkout), run.stdout
    assert count == "0", names
    assert run.stdout.splitlines()[:-1] and run.stderr == ""  # the games' JSON, and no compile notice
