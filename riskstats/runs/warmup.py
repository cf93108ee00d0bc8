"""Compile ahead: every kernel a command needs, compiled once into numba's on-disk cache (``riskstats compile``).

This module owns `STEPS` (what each part of the package needs compiled, and a small call that compiles it)
and `warm_cache`, which runs them. numba compiles a kernel the first time it is called and keeps the result
on disk (`riskstats._numba`: each module's kernels in a folder keyed by its source and what it imports),
so a first run otherwise waits for it: a minute or more for the game loop, as long again for the search
bot. After `warm_cache`, a first ``selfplay``, ``evaluate`` or ``Game(...).play`` loads its kernels in a
few seconds. Running it again, with the cache full, takes seconds: each step then only loads.

With ``workers`` above 1 the steps run in as many processes at once, each step once the steps it builds on
(`Step.after`) are in the cache: the game loop first (and the odds beside it), then the search, self-play,
evaluation and move-by-move steps side by side, each loading the game's kernels instead of compiling them
again. numba writes each kernel's cache file whole, so processes compiling side by side never read a
half-written one.

>>> [step.name for step in STEPS]
['game', 'selfplay', 'evaluate', 'step', 'odds', 'search']
"""
from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import NamedTuple

from riskstats.errors import RiskstatsError


class Step(NamedTuple):
    """One part of the package to compile: its name, what it covers, a small call that compiles it, the
    steps whose kernels it reuses (run first when steps run side by side), its outermost kernels (compiled
    last, around the others it calls: their cache files say whether the step is in the cache, `in_cache`) and
    the CPU seconds it took from an empty cache, as measured (``data/engine_speed/compile_vs_54f06c5.csv``:
    a whole first run, the kernels it loads or compiles besides; None where not measured)."""

    name: str
    covers: str
    run: Callable[[], object]
    after: tuple[str, ...] = ()
    kernels: tuple[str, ...] = ()
    cold_cpu_s: float | None = None


def _game():
    from riskstats.game.play import Game

    Game(4, seed=1).play(["random", "aggressive", "continent", "defensive"])


def _selfplay():
    from riskstats.runs.selfplay import play_games

    play_games(2, 3, ["random"], seed=1)


def _evaluate():
    from riskstats.game.evaluate import evaluate
    from riskstats.game.play import Game

    evaluate(Game(3, seed=1).play(["random"], max_moves=400), rollouts=2, seed=1, top=1, candidates=2)


def _step():
    from riskstats.game.play import Game

    game = Game(3, seed=1)
    game.legal_moves()
    game.step(game.bot_move("aggressive"))


def _odds():
    from riskstats.odds.battle import battle_odds, win_table
    from riskstats.odds.simulate import simulate_battles, simulate_chain

    battle_odds(100, 100)
    win_table(100, 100, balance="blitz")  # the balanced win chances' kernel
    simulate_battles(10, 10, trials=1000, seed=1)
    simulate_battles(10, 10, trials=1000, seed=1, balance="blitz")  # whole battles drawn
    simulate_chain(10, [3, 2], trials=1000, seed=1)


def _search():
    from riskstats.game.evaluate import evaluate
    from riskstats.game.play import Game
    from riskstats.runs.selfplay import play_games

    bot = "search:rollouts=1:horizon=1:plans=2"
    play_games(1, 2, [bot, "random"], seed=1)  # also Game.play's search loop: the same kernel and types
    game = Game(2, seed=1).play(["random"], max_moves=300)
    game.bot_move(bot)
    evaluate(game, bot, rollouts=1, seed=1, top=1, candidates=2)  # rollouts and candidate moves, search seats


STEPS = (
    Step("game", "Game(...).play with built-in bots: the game loop", _game,
         kernels=("riskstats.game.loop._play",), cold_cpu_s=60),
    Step("selfplay", "riskstats selfplay, play_games, tournaments and experiments", _selfplay, ("game",),
         kernels=("riskstats.runs.selfplay._selfplay",), cold_cpu_s=90),
    Step("evaluate", "riskstats evaluate and rollouts", _evaluate, ("game",),
         kernels=("riskstats.game.rollout._rollouts", "riskstats.game.evaluate._move_rollouts"), cold_cpu_s=130),
    Step("step", "Game.step, Game.bot_move and legal_moves: the move-by-move API", _step, ("game",)),
    Step("odds", "riskstats odds, table, chain and simulate beyond small battles (Balanced Blitz too)", _odds),
    Step("search", "the search bot, in self-play, games and rollouts", _search, ("game",),
         kernels=("riskstats.game.search._play_search",), cold_cpu_s=150),
)
"""The parts compiled, in order (the game loop first: most of the others reuse it)."""


def step_for(step: str, bots: str) -> str:
    """The step whose kernels a command's first run compiles: ``search`` when a seat of the comma-separated
    line-up ``bots`` looks ahead (a bot playing as ``search`` or ``value``), else ``step``. A name that is not a
    bot leaves ``step``: the command's own check reports it."""
    from riskstats.game.bots.catalog import CATALOG, SEARCH_ID, VALUE_ID

    for spec in bots.split(","):
        info = CATALOG.get(spec.split(":")[0].strip())
        if info is not None and info.id in (SEARCH_ID, VALUE_ID):
            return "search"
    return step


def in_cache(step: Step) -> bool:
    """Whether numba's on-disk cache holds ``step``'s kernels for the current source: the index file of each of
    its `Step.kernels` exists (`riskstats._numba` keys the folder by the kernel's module and what it imports,
    so an edit or an upgrade makes it missing). A first run finds them missing and compiles; a kernel cached
    for other argument types (a line-up with a search seat after one without) still compiles, which only the
    compile itself shows. True for a step naming no kernels, and with ``NUMBA_DISABLE_JIT=1``."""
    import importlib
    import os

    for path in step.kernels:
        module, name = path.rsplit(".", 1)
        cache = getattr(getattr(importlib.import_module(module), name), "_cache", None)  # numba's FunctionCache
        index = getattr(getattr(cache, "_cache_file", None), "_index_path", None)  # None: a kernel not cached
        if index is not None and not os.path.exists(index):
            return False
    return True


def _run(step: Step) -> tuple[float, bool]:
    """Run ``step`` with every bot compiled in (`riskstats.game.bots.roster.full_rosters`: the kernels then serve
every line-up): its seconds, and whether numba compiled anything (or only loaded the cache)."""
    from riskstats._numba import on_compile
    from riskstats.game.bots.roster import full_rosters

    seen = []
    start = time.perf_counter()
    with on_compile(functools.partial(seen.append, True)), full_rosters():
        step.run()
    return time.perf_counter() - start, bool(seen)


def warm_cache(only=None, progress: Callable[[int, int, Step, float | None, bool], None] | None = None,
               workers: int = 1):
    """Compile (or load from the cache) the kernels of each step of `STEPS`, or of the steps named in ``only``.

    Parameters
    ----------
    only : iterable of str, optional
        Step names (`STEPS`); default all.
    progress : callable, optional
        Called as ``progress(k, n, step, seconds, compiled)`` when step k of n starts (``seconds`` None)
        and when it ends (its seconds, and whether numba compiled anything or only loaded the cache).
    workers : int
        Processes compiling at once (1: the steps in turn, in this process). With more, a step starts as soon
        as a process is free and the steps of its `Step.after` that were asked for have ended.

    Returns
    -------
    pandas.DataFrame
        One row per step, in `STEPS`' order: step, covers, seconds, compiled (bool).
    """
    import pandas as pd

    from riskstats.errors import check_int

    workers = check_int("workers", workers, low=1)
    names = [step.name for step in STEPS]
    wanted = names if only is None else list(only)
    unknown = [name for name in wanted if name not in names]
    if unknown or not wanted:
        raise RiskstatsError(f"unknown compile step {unknown[0] if unknown else ''!r}; known: {', '.join(names)}")
    steps = [step for step in STEPS if step.name in wanted]
    done = {}
    if workers == 1 or len(steps) == 1:
        for k, step in enumerate(steps, 1):
            if progress:
                progress(k, len(steps), step, None, False)
            done[step.name] = _run(step)
            if progress:
                progress(k, len(steps), step, *done[step.name])
    else:
        _side_by_side(steps, workers, progress, done)
    rows = [(step.name, step.covers, *done[step.name]) for step in steps]
    return pd.DataFrame(rows, columns=["step", "covers", "seconds", "compiled"])


def _side_by_side(steps: list[Step], workers: int, progress, done: dict) -> None:
    """Run ``steps`` in ``workers`` processes, each once its `Step.after` among ``steps`` have ended, writing
    each step's (seconds, compiled) into ``done`` as it ends. The processes leave Ctrl-C to this one, which
    stops them; every kernel already written stays in the cache."""
    import multiprocessing
    import queue

    index = {step.name: k for k, step in enumerate(steps, 1)}
    waiting = list(steps)
    ended = queue.SimpleQueue()  # (step, its result or None, its exception or None)
    running = 0
    pool = multiprocessing.get_context("spawn").Pool(workers, initializer=_ignore_interrupts)
    try:
        while waiting or running:
            ready = [s for s in waiting if all(a in done or a not in index for a in s.after)]
            for step in ready[:workers - running]:
                waiting.remove(step)
                running += 1
                if progress:
                    progress(index[step.name], len(steps), step, None, False)
                pool.apply_async(_run, (step,), callback=lambda result, step=step: ended.put((step, result, None)),
                                 error_callback=lambda error, step=step: ended.put((step, None, error)))
            while True:
                try:
                    step, result, error = ended.get(timeout=0.2)  # a short wait: Ctrl-C is seen at once
                    break
                except queue.Empty:
                    continue
            running -= 1
            if error is not None:
                raise error
            done[step.name] = result
            if progress:
                progress(index[step.name], len(steps), step, *result)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _ignore_interrupts() -> None:
    """A compiling process's start: Ctrl-C is for the process that started it, which stops it."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
