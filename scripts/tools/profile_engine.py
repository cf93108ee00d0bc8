"""Profile the compiled game loop with Linux ``perf``: which kernels the time goes to, by name.

``python scripts/tools/profile_engine.py [line-up] [games] [variant]`` compiles self-play into a fresh numba
cache folder (a kernel loaded from the cache has no symbol perf can see), writes ``/tmp/perf-<pid>.map``
(every function of the compiled self-play library, by address), prints its process id and ``go``, waits
a second and plays ``games`` 4-player games on one thread. Attach perf when ``go`` shows, e.g.::

    python scripts/tools/profile_engine.py random 6000 > out.txt &
    until grep -q '^go' out.txt; do sleep 1; done
    perf record -F 4999 -p $! -o perf.data; perf report -i perf.data --no-children --sort symbol

Kernels that numba inlined (``inline_jit``: the bots, `_apply`) count as their caller, `_play`.
Compiling takes minutes; the cache folder is removed at the end.
"""
import gc
import os
import shutil
import sys
import tempfile
import time

folder = tempfile.mkdtemp(prefix="riskstats-profile-")
os.environ["NUMBA_CACHE_DIR"] = folder  # riskstats keys a fresh folder under it: everything compiles

import numba  # noqa: E402

from riskstats.runs.selfplay import _selfplay, play_games  # noqa: E402


def perf_map(path: str) -> int:
    """Write every function of the compiled self-play library to a perf map; the number written."""
    names = {}
    for cres in _selfplay.overloads.values():
        library = cres.library
        for fn in library._final_module.functions:
            if not fn.is_declaration:
                address = library.get_pointer_to_function(fn.name)
                if address:
                    names[address] = fn.name
    addresses = sorted(names)
    with open(path, "w") as out:
        for i, address in enumerate(addresses):  # a function ends where the next begins
            size = min(addresses[i + 1] - address if i + 1 < len(addresses) else 1 << 16, 1 << 18)
            out.write(f"{address:x} {size:x} {names[address]}\n")
    return len(addresses)


def main(lineup: str = "random", games: int = 6000, variant: str = "classic") -> None:
    bots = lineup.split(",")
    numba.set_num_threads(1)
    try:
        play_games(50, 4, bots, variant=variant, seed=0)  # compile
        n = perf_map(f"/tmp/perf-{os.getpid()}.map")
        gc.collect()  # the compiler's garbage, or Python collects it while the games play
        print(f"pid {os.getpid()}: {n} functions mapped", flush=True)
        print("go", flush=True)
        time.sleep(1)
        start = time.process_time()
        play_games(games, 4, bots, variant=variant, seed=1)
        print(f"{games / (time.process_time() - start):.0f} games per CPU second", flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main(*sys.argv[1:2], *(int(x) for x in sys.argv[2:3]), *sys.argv[3:4])
