"""The numba options every compiled kernel in riskstats uses, fixed in one place.

Kernels are private, take arrays and scalars, write into `out` arrays and never validate: the public
function that calls them does that. Set ``NUMBA_DISABLE_JIT=1`` to step through a kernel in Python.

`jit` and `parallel_jit` decorate kernels compiled when first called. `compiled` compiles a plain
kernel function on demand: the exact engine keeps its kernels as plain functions so that one body
serves float64 (compiled) and `fractions.Fraction` (interpreted) arithmetic, and so that a small
odds lookup never pays numba's start-up. `inline_jit` and `borrow` are the two tools of a hot loop that
passes many arrays down: the first removes the call, the second the arrays' reference counting;
`lean_jit` compiles a helper that allocates nothing without any reference counting.
`popcount` and `lowest_bit` count and locate set bits in one instruction each (bit sets of a hot loop).
`on_compile` reports when numba starts compiling (the CLI's "compiling (first run only)" notice).

Caching: every kernel is cached on disk (``cache=True``), each module's kernels in a folder keyed by a
digest of that module and of the package's modules it imports (`source_digest`, `_ModuleCacheLocator`),
so no kernel runs stale code and an edit recompiles only the kernels that depend on the edited module.
"""
import ast
import hashlib
import os
import re
import shutil
import time
from contextlib import contextmanager
from functools import cache
from pathlib import Path

STALE_AFTER = 3600.0
"""Seconds a cache folder of another version of a module must have gone unused before it is removed."""
CACHE_ROOT = "riskstats-modules"
"""The folder, under ``NUMBA_CACHE_DIR`` or the user's numba cache folder, holding one folder per module."""
_LEAF = re.compile(r"riskstats-[0-9a-f]{16}")
_PACKAGE = Path(__file__).resolve().parent


def _cache_base() -> str:
    """``NUMBA_CACHE_DIR`` if set, else the user's numba cache folder (``~/.cache/numba``)."""
    return os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "numba")


def _module_file(name: str, root: Path) -> Path | None:
    """The source file of the dotted module ``name`` (its first part the package ``root``'s name), or None."""
    parts = name.split(".")[1:]
    candidates = [root.joinpath(*parts).with_suffix(".py")] if parts else []
    for path in [*candidates, root.joinpath(*parts, "__init__.py")]:
        if path.is_file():
            return path
    return None


@cache
def _imports(path: Path, root: Path) -> frozenset:
    """The modules of the package ``root`` that the source file ``path`` names in an import statement
    (anywhere in the file: a function's lazy import counts too), as their files."""
    package = root.name
    inside = path.is_relative_to(root.parent)
    here = path.relative_to(root.parent).with_suffix("").parts if inside else ()
    if here and here[-1] == "__init__":
        here = here[:-1]
    else:
        here = here[:-1]  # the package the module is in, for relative imports
    names = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                if not inside or node.level - 1 > len(here):
                    continue
                base = ".".join(here[:len(here) - (node.level - 1)])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)  # a submodule, or a name in it
    files = {_module_file(n, root) for n in names if n == package or n.startswith(package + ".")}
    return frozenset(f for f in files if f is not None)


@cache
def source_digest(path: Path, root: Path = _PACKAGE) -> str:
    """A digest of the source file ``path``, of every module of the package ``root`` it imports, directly
    or through others, and of the package's data files (what a kernel of ``path`` may have compiled in).

    A kernel's compiled code holds the kernels it calls, inlined or linked, and the constants it reads from
    other modules, so its cache must change when any of those files change; edits to modules it does not
    import leave it alone. A dotted import of a package (``from riskstats.game import engine``) counts
    the package's ``__init__.py`` and the submodule.
    """
    seen = {path}
    todo = [path]
    while todo:
        for dep in _imports(todo.pop(), root):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    data = [f for f in root.rglob("*") if f.is_file() and f.suffix not in (".py", ".pyc", ".nbi", ".nbc")
            and "__pycache__" not in f.parts]
    digest = hashlib.sha256()
    for f in sorted(seen) + sorted(data):
        name = str(f.relative_to(root)) if f.is_relative_to(root) else f.name
        digest.update(name.encode() + b"\0" + hashlib.sha256(f.read_bytes()).digest())
    return digest.hexdigest()


@cache
def _kernel_cache(py_file: str) -> tuple[str, str] | None:
    """(cache folder, source digest) for the kernels of the source file ``py_file``: under `CACHE_ROOT`, a
    folder per module (``game.loop``), in it one ``riskstats-<digest>`` per version (`source_digest`).
    None for a file outside the package that does not import it (numba's own caching applies)."""
    path = Path(py_file).resolve()
    if path.is_relative_to(_PACKAGE):
        key = ".".join(path.relative_to(_PACKAGE).with_suffix("").parts) or "__init__"
    elif path.is_file() and _imports(path, _PACKAGE):
        key = f"{path.stem}-{hashlib.sha1(str(path.parent).encode()).hexdigest()[:8]}"  # a test, a script
    else:
        return None
    digest = source_digest(path)
    folder = os.path.join(_cache_base(), CACHE_ROOT, key, f"riskstats-{digest[:16]}")
    _adopt_cache(folder)
    return folder, digest


def _adopt_cache(folder: str, now: float | None = None) -> None:
    """Mark the cache folder ``folder`` as in use; if it is new, remove its stale siblings.

    Every change of a module or of what it imports (an upgrade, an edit) makes a new ``riskstats-<digest>``
    folder for it, so the old ones would pile up. When a process first creates a folder, it removes each
    sibling ``riskstats-<digest>`` folder not used for `STALE_AFTER` (an hour): every process touches the
    folders of the modules it imports, so a folder in use by a process of another version (another
    checkout, a run started before an upgrade) is kept. Should an old process outlive that hour and then
    compile a kernel it had not loaded, numba compiles it afresh (slower, not wrong). Never the current
    folder, never another name, never an error: a folder that cannot be listed or removed is left.
    """
    now = time.time() if now is None else now
    try:
        if os.path.isdir(folder):
            os.utime(folder, (now, now))
            return
        os.makedirs(folder, exist_ok=True)
        base, leaf = os.path.split(folder)
        for name in os.listdir(base):
            path = os.path.join(base, name)
            if name != leaf and _LEAF.fullmatch(name) and now - os.stat(path).st_mtime > STALE_AFTER:
                shutil.rmtree(path, ignore_errors=True)
    except OSError:
        pass


# the folders of the old layout (one ``riskstats-<digest>`` of the whole package) go, once stale
_adopt_cache(os.path.join(_cache_base(), CACHE_ROOT))

import numba  # noqa: E402
from numba import njit  # noqa: E402
from numba.core import caching, cgutils, types  # noqa: E402
from numba.extending import intrinsic  # noqa: E402


class _ModuleCacheLocator(caching._CacheLocator):
    """numba's cache locator for the package's kernels: each module's in a folder keyed by `source_digest`.

    numba's own locators key a kernel's cache by its file alone, so a kernel that calls kernels of other
    modules (the game loop calls the bots) would keep running old code after those change. Here the
    folder changes with any module the kernel's file imports, directly or not, and only with those: an
    edit to one module recompiles the kernels of that module and of the modules that import it.
    """

    def __init__(self, py_func, folder: str, digest: str):
        self._lineno = py_func.__code__.co_firstlineno
        self._py_file = py_func.__code__.co_filename  # numba's warning for a kernel it cannot cache names it
        self._folder = folder
        self._digest = digest

    def get_cache_path(self):
        return self._folder

    def get_source_stamp(self):
        return self._digest

    def get_disambiguator(self):
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        found = _kernel_cache(py_file)
        if found is None:
            return None
        locator = cls(py_func, *found)
        try:
            locator.ensure_cache_path()
        except OSError:
            return None  # not writable: the next locator
        return locator


_impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
if _ModuleCacheLocator not in _impl._locator_classes:
    _impl._locator_classes.insert(0, _ModuleCacheLocator)



def _by_type(decorate):
    """``decorate`` (a numba decorator), whose kernels compile once per argument *type* when another kernel
    calls them, not once per constant.

    numba types a constant argument of a call inside a kernel by its value (``Literal[int](11)``), and a
    kernel called with constants compiles a version for every combination of them: the event log's writer
    was compiled 19 times, once per event kind, in one first game. Here a kernel called from a kernel is
    compiled for the plain types of its arguments (``int64``, ``bool``), and a constant converts to them. A
    ``None`` argument keeps its own type, so a branch on ``x is None`` is still pruned at compile time."""
    def decorator(py_func):
        kernel = decorate(py_func)
        template = kernel.get_call_template

        def get_call_template(args, kws):
            return template(tuple(types.unliteral(a) for a in args),
                            {k: types.unliteral(v) for k, v in kws.items()})

        kernel.get_call_template = get_call_template
        return kernel
    return decorator


jit = _by_type(njit(cache=True, nogil=True))
"""Decorator for a serial kernel."""

parallel_jit = _by_type(njit(cache=True, nogil=True, parallel=True))
"""Decorator for a kernel whose outer loop is a ``numba.prange``."""

lean_jit = _by_type(njit(cache=True, nogil=True, _nrt=False))
"""Decorator for a hot helper that allocates no array and returns none: compiled without reference counting.

numba counts a reference to every array argument on a kernel's entry and releases it on exit, a call to the
runtime each (even for a borrowed view, whose count is skipped inside that call): a helper taking a State
and a board makes some 50 such calls. A lean kernel makes none. It may call ordinary kernels (they count
for themselves) but never one that returns a new array (nothing would free it), and it must not create or
return an array itself (views of its arguments, ``a[i:j]``, are fine)."""

inline_jit = njit(cache=True, nogil=True, inline="always")
"""Decorator for a kernel inlined into its callers (numba IR): no call. A call flattens every array of
its arguments into scalars (a game state and a board are some 180 of them) and copies them all."""


NOTICE_AFTER = 2.0
"""Seconds a compile of riskstats kernels may run before `_CompileNotice` says so on stderr."""
NOTICE_VARIABLE = "RISKSTATS_COMPILE_NOTICE"
"""Set this environment variable to ``0`` to silence `_CompileNotice` (the command line does: it has its own)."""
_callers = [0]  # `on_compile` blocks open: their callers tell the user themselves


@contextmanager
def on_compile(callback):
    """Within the block, call ``callback()`` once, as soon as numba starts compiling a kernel.

    numba compiles only what its on-disk cache lacks (the first run, or the first after riskstats
    changed), so the callback tells a caller that a pause of seconds to minutes is compilation, not a
    hang; it is never called when every kernel loads from the cache. Within the block `_CompileNotice`
    keeps quiet: the caller tells the user.

    >>> from riskstats.errors import check_int
    >>> with on_compile(lambda: print("compiling")):
    ...     check_int("n", 3)  # no kernel: silent
    3
    """
    from numba.core import event

    fired = []

    def once(_):
        if not fired:
            fired.append(True)
            callback()

    _callers[0] += 1
    try:
        with event.install_listener("numba:compile", compile_listener(once, lambda _: None)):
            yield
    finally:
        _callers[0] -= 1


class _CompileNotice:
    """numba's compile events -> a notice on stderr, for Python callers (a notebook's first `Game.play`).

    When numba has been compiling a riskstats kernel (and what it calls) for `NOTICE_AFTER` seconds, a
    timer prints one line saying so, and the compile's total when it ends; a shorter compile, or kernels
    loaded from the cache, print nothing. Silent inside an `on_compile` block and when the environment
    variable `NOTICE_VARIABLE` is ``0``.
    """

    def __init__(self, stream=None, after: float | None = None):
        self.stream = stream
        self.after = NOTICE_AFTER if after is None else after
        self.depth = 0
        self.timer = None
        self.started = 0.0
        self.shown = False

    def _write(self, text: str) -> None:
        import sys

        stream = self.stream or sys.stderr
        stream.write(text + "\n")
        stream.flush()

    def _show(self) -> None:
        self.shown = True
        self._write("riskstats: compiling (first run only: the result is cached; `riskstats compile` does it "
                    "all ahead)…")

    def on_start(self, kernel) -> None:
        self.depth += 1
        if self.depth > 1 or _callers[0] or os.environ.get(NOTICE_VARIABLE) == "0":
            return
        if not getattr(kernel, "__module__", "").startswith(_PACKAGE.name + "."):
            return
        import threading

        self.started, self.shown = time.perf_counter(), False
        self.timer = threading.Timer(self.after, self._show)
        self.timer.daemon = True
        self.timer.start()

    def on_end(self) -> None:
        self.depth = max(self.depth - 1, 0)
        if self.depth == 0 and self.timer is not None:
            self.timer.cancel()
            self.timer = None
            if self.shown:
                self._write(f"riskstats: compiled in {time.perf_counter() - self.started:.0f} s")


def compile_listener(started, ended):
    """A numba listener for its ``"numba:compile"`` event: ``started(kernel)`` when numba starts compiling the
    Python function ``kernel`` (None if the event names none), ``ended(kernel)`` when it is done. The one reader of
    numba's compile events: `_CompileNotice` and the command line's spinners (`riskstats.cli.common`) listen
    through it."""
    from numba.core import event

    def kernel(e):
        return getattr(e.data.get("dispatcher"), "py_func", None)

    class _Listener(event.Listener):
        def on_start(self, e):
            started(kernel(e))

        def on_end(self, e):
            ended(kernel(e))

    return _Listener()


def _register_notice() -> None:
    from numba.core import event

    notice = _CompileNotice()
    event.register("numba:compile", compile_listener(notice.on_start, lambda _: notice.on_end()))


_register_notice()


@cache
def compiled(kernel):
    """The compiled form of a plain kernel function, built (or loaded from the cache) once."""
    return jit(kernel)


def known_signatures(kernel) -> list[tuple]:
    """The argument types (tuples of numba types) that the compiled ``kernel`` holds without compiling: those
    compiled in this process, and those in its on-disk cache for the current source and this machine's code
    generator (numba's index file), each once. Empty for a plain function (``NUMBA_DISABLE_JIT=1``)."""
    found = [tuple(sig) for sig in getattr(kernel, "signatures", ())]
    cache = getattr(kernel, "_cache", None)
    index = getattr(cache, "_cache_file", None)
    if index is not None and hasattr(index, "_load_index"):
        magic = kernel.targetctx.codegen().magic_tuple()
        found += [tuple(key[0]) for key in index._load_index() if key[1] == magic]
    return list(dict.fromkeys(found))  # a signature compiled here is also on disk: once


def _without_owner(context, builder, ty, value):
    """LLVM: ``value`` with the meminfo (and parent object) of every array in it set to null."""
    if isinstance(ty, types.Array):
        ary = context.make_array(ty)(context, builder, value=value)
        ary.meminfo = cgutils.get_null_value(ary.meminfo.type)
        ary.parent = cgutils.get_null_value(ary.parent.type)
        return ary._getvalue()
    if isinstance(ty, types.BaseTuple):
        for i, item_ty in enumerate(ty):
            item = _without_owner(context, builder, item_ty, builder.extract_value(value, i))
            value = builder.insert_value(value, item, i)
    return value


@intrinsic
def _borrow(typingctx, value):
    def codegen(context, builder, sig, args):
        return _without_owner(context, builder, sig.args[0], args[0])
    return value(value), codegen


def borrow(value):
    """Inside a kernel: the same arrays (an array, or a tuple of them, nested) as borrowed views.

    numba reference-counts an array each time it is passed to a call or taken out of a tuple, with an
    atomic add on its meminfo; a borrowed view has none, so that counting costs a null test. In the
    game loop, where every move passes the state and the board down a few calls, the atomics cost more
    than the rules. A borrowed view must not outlive the arrays it shows: borrow only arrays the caller
    holds for the whole kernel, and never return a view (or store it anywhere that is returned).
    With ``NUMBA_DISABLE_JIT=1`` it returns ``value`` itself.
    """
    return value


if not numba.config.DISABLE_JIT:
    borrow = _borrow  # noqa: F811  (the compiled form; the Python one above documents it)


@intrinsic
def _popcount(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])
    return x(x), codegen


@intrinsic
def _lowest_bit(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], cgutils.false_bit)
    return x(x), codegen


def popcount(x):
    """Inside a kernel: the number of set bits of the integer ``x`` (>= 0), one instruction.

    >>> popcount(0b1011), popcount(0)
    (3, 0)
    """
    return bin(x).count("1")


def lowest_bit(x):
    """Inside a kernel: the index of the lowest set bit of the integer ``x`` (> 0), one instruction.

    >>> lowest_bit(0b1000), lowest_bit(0b0110)
    (3, 1)
    """
    return (x & -x).bit_length() - 1


if not numba.config.DISABLE_JIT:
    popcount = _popcount  # noqa: F811  (the compiled forms; the Python ones above document them)
    lowest_bit = _lowest_bit  # noqa: F811
