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
"""
import hashlib
import os
import re
import shutil
import time
from contextlib import contextmanager
from functools import cache
from pathlib import Path

STALE_AFTER = 3600.0
"""Seconds a cache folder of another riskstats source must have gone unused before it is removed."""
_LEAF = re.compile(r"riskstats-[0-9a-f]{16}")


def _cache_dir() -> str:
    """A numba cache folder keyed by the package's source, so no kernel runs stale compiled code.

    numba checks only the kernel's own file when it reuses a cached compilation; a kernel that calls
    kernels in other modules (the game loop calls the bots) would keep running old code after those
    change. Keying the folder by a digest of every source file (and package data file: the position value's
    coefficients are compiled in as constants) makes any change start afresh. It lives
    under ``NUMBA_CACHE_DIR`` if set, else the user's cache folder; worker processes inherit it.
    """
    package = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted([*package.rglob("*.py"), *package.rglob("*.json")]):  # kernels compile in data too
        digest.update(str(path.relative_to(package)).encode())
        digest.update(path.read_bytes())
    leaf = f"riskstats-{digest.hexdigest()[:16]}"
    current = os.environ.get("NUMBA_CACHE_DIR", "")
    if os.path.basename(current) == leaf:
        return current
    base = current or os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
                                   "numba")
    return os.path.join(base, leaf)


def _adopt_cache(folder: str, now: float | None = None) -> None:
    """Mark the cache folder ``folder`` as in use; if it is new, remove its stale siblings.

    Every source change (an upgrade, an edit) makes a new ``riskstats-<digest>`` folder, so the old ones
    would pile up (some 10 MB each). When a process first creates its folder, it removes each sibling
    ``riskstats-<digest>`` folder not used for `STALE_AFTER` (an hour): every process touches its own
    folder when it starts, so a folder in use by a process of another version (another checkout, a
    run started before an upgrade) is kept. Should an old process outlive that hour and then compile
    a kernel it had not loaded, numba compiles it afresh (slower, not wrong). Never the current
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


os.environ["NUMBA_CACHE_DIR"] = _cache_dir()
_adopt_cache(os.environ["NUMBA_CACHE_DIR"])

import numba  # noqa: E402  (after the cache folder is chosen)
from numba import njit  # noqa: E402
from numba.core import cgutils, types  # noqa: E402
from numba.extending import intrinsic  # noqa: E402

numba.config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]

jit = njit(cache=True, nogil=True)
"""Decorator for a serial kernel."""

parallel_jit = njit(cache=True, nogil=True, parallel=True)
"""Decorator for a kernel whose outer loop is a ``numba.prange``."""

lean_jit = njit(cache=True, nogil=True, _nrt=False)
"""Decorator for a hot helper that allocates no array and returns none: compiled without reference counting.

numba counts a reference to every array argument on a kernel's entry and releases it on exit, a call to the
runtime each (even for a borrowed view, whose count is skipped inside that call): a helper taking a State
and a board makes some 50 such calls. A lean kernel makes none. It may call ordinary kernels (they count
for themselves) but never one that returns a new array (nothing would free it), and it must not create or
return an array itself (views of its arguments, ``a[i:j]``, are fine)."""

inline_jit = njit(cache=True, nogil=True, inline="always")
"""Decorator for a kernel inlined into its callers (numba IR): no call. A call flattens every array of
its arguments into scalars (a game state and a board are some 180 of them) and copies them all."""


@contextmanager
def on_compile(callback):
    """Within the block, call ``callback()`` once, as soon as numba starts compiling a kernel.

    numba compiles only what its on-disk cache lacks (the first run, or the first after riskstats
    changed), so the callback tells a caller that a pause of seconds to minutes is compilation, not a
    hang; it is never called when every kernel loads from the cache.

    >>> from riskstats.errors import check_int
    >>> with on_compile(lambda: print("compiling")):
    ...     check_int("n", 3)  # no kernel: silent
    3
    """
    from numba.core import event

    class _Once(event.Listener):
        fired = False

        def on_start(self, _):
            if not self.fired:
                self.fired = True
                callback()

        def on_end(self, _):
            pass

    with event.install_listener("numba:compile", _Once()):
        yield


@cache
def compiled(kernel):
    """The compiled form of a plain kernel function, built (or loaded from the cache) once."""
    return jit(kernel)


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
