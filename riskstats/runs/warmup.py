"""Compile ahead: every kernel a command needs, compiled once into numba's on-disk cache (``riskstats compile``).

This module owns `STEPS` (what each part of the package needs compiled, and a small call that compiles it)
and `warm_cache`, which runs them. numba compiles a kernel the first time it is called and keeps the result
on disk (`riskstats._numba`: each module's kernels in a folder keyed by its source and what it imports),
so a first run otherwise waits for it: a minute or more for the game loop, as long again for the search
bot. After `warm_cache`, a first ``selfplay``, ``evaluate`` or ``Game(...).play`` loads its kernels in a
few seconds. Running it again, with the cache full, takes seconds: each step then only loads.

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
    """One part of the package to compile: its name, what it covers, and a small call that compiles it."""

    name: str
    covers: str
    run: Callable[[], object]


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
    from riskstats.odds.battle import battle_odds
    from riskstats.odds.simulate import simulate_battles, simulate_chain

    battle_odds(100, 100)
    simulate_battles(10, 10, trials=1000, seed=1)
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
    Step("game", "Game(...).play with built-in bots: the game loop", _game),
    Step("selfplay", "riskstats selfplay, play_games, tournaments and experiments", _selfplay),
    Step("evaluate", "riskstats evaluate and rollouts", _evaluate),
    Step("step", "Game.step, Game.bot_move and legal_moves: the move-by-move API", _step),
    Step("odds", "riskstats odds, chain and simulate beyond small battles", _odds),
    Step("search", "the search bot, in self-play, games and rollouts", _search),
)
"""The parts compiled, in order (the game loop first: most of the others reuse it)."""


def warm_cache(only=None, progress: Callable[[int, int, Step, float | None, bool], None] | None = None):
    """Compile (or load from the cache) the kernels of each step of `STEPS`, or of the steps named in ``only``.

    Parameters
    ----------
    only : iterable of str, optional
        Step names (`STEPS`); default all.
    progress : callable, optional
        Called as ``progress(k, n, step, seconds, compiled)`` before step k of n starts (``seconds`` None)
        and when it ends (its seconds, and whether numba compiled anything or only loaded the cache).

    Returns
    -------
    pandas.DataFrame
        One row per step run: step, covers, seconds, compiled (bool).
    """
    import pandas as pd

    from riskstats._numba import on_compile

    names = [step.name for step in STEPS]
    wanted = names if only is None else list(only)
    unknown = [name for name in wanted if name not in names]
    if unknown or not wanted:
        raise RiskstatsError(f"unknown compile step {unknown[0] if unknown else ''!r}; known: {', '.join(names)}")
    steps = [step for step in STEPS if step.name in wanted]
    rows = []
    for k, step in enumerate(steps, 1):
        if progress:
            progress(k, len(steps), step, None, False)
        seen = []
        start = time.perf_counter()
        with on_compile(functools.partial(seen.append, True)):
            step.run()
        seconds = time.perf_counter() - start
        rows.append((step.name, step.covers, seconds, bool(seen)))
        if progress:
            progress(k, len(steps), step, seconds, bool(seen))
    return pd.DataFrame(rows, columns=["step", "covers", "seconds", "compiled"])
