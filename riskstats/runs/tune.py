"""Tuning a bot's parameters for win rate against a line-up, with Optuna, in a resumable study.

This module owns `tune` (the study and its trials) and `measure_bot` (a bot's win rate in one seat
against a line-up, with its Wilson interval). The games are `riskstats.runs.selfplay.play_games`' (the
compiled runner, on all cores); the bots and their parameter ranges are `riskstats.game.bots.catalog`'s.

A trial plays ``games_per_trial`` games: the candidate (the bot with the trial's parameters) and the
line-up's bots in the other ``players - 1`` seats (cyclic), seats rotating by game as in `play_games`.
Its value is the candidate's share of wins. Determinism:

- trial ``n``'s games use seeds ``SeedSequence([seed, 0, n])``, so its games depend only on
  (seed, n) and the parameters tried;
- the sampler (Optuna's TPE) is seeded afresh before each trial from (seed, number of trials already
  in the study), so a study interrupted and run again to the same number of trials asks for the same
  parameters as one run straight through (unless a trial was cut short: it stays in the study as
  failed, and the later trials take the next numbers);
- the best parameters are measured again on ``check_games`` fresh games, seeds
  ``SeedSequence([seed, 1])``, never a tuning seed, beside the bot's defaults on the same games.

The study lives in any Optuna storage (``sqlite:///runs/tune.db``, a PostgreSQL URL shared by several
machines, ...); it records what it tunes, and running `tune` again with the same arguments continues it
until it holds ``trials`` complete trials. A trial cut short by an exception or Ctrl-C is marked failed at
once; one left running by a process that was killed (its user attribute ``runner`` names this machine
and a process that is gone) is marked failed when `tune` next opens the study.
"""
from __future__ import annotations

import json
import os
import socket

import numpy as np

from riskstats.errors import RiskstatsError, check_int
from riskstats.intervals import wilson_interval

TUNE_STREAM = 0
CHECK_STREAM = 1
SAMPLER_STREAM = 2
STEPS = 100
"""A real parameter is tuned on a grid of this many steps across its range."""


def trial_seeds(seed: int, number: int, games: int) -> np.ndarray:
    """The game seeds of trial ``number`` of a study with ``seed``."""
    return np.random.SeedSequence([seed, TUNE_STREAM, number]).generate_state(games, np.uint64)


def check_seeds(seed: int, games: int) -> np.ndarray:
    """The fresh game seeds on which the best parameters are measured again (never a trial's)."""
    return np.random.SeedSequence([seed, CHECK_STREAM]).generate_state(games, np.uint64)


def _sampler_seed(seed: int, count: int) -> int:
    return int(np.random.SeedSequence([seed, SAMPLER_STREAM, count]).generate_state(1)[0])


def _lineup(candidate: str, against, players: int) -> list[str]:
    """The candidate in seat 0, then ``against`` seated in the other ``players - 1`` (no more bots than that)."""
    from riskstats.game.bots.catalog import check_lineup, seat_entries

    try:
        others = check_lineup(against, seats=players - 1)
    except RiskstatsError as error:
        raise RiskstatsError(f"against: {error}") from None
    return [candidate, *seat_entries(others, players - 1)]


def measure_bot(bot: str, against, players: int, variant: str = "classic", *, seeds, rules=None) -> dict:
    """Win rate of ``bot`` in one seat against ``against`` in the others, over the games with ``seeds``
    (seats rotating by game): ``{"bot", "games", "wins", "win_rate", "ci_low", "ci_high"}``, the
    interval a 95% Wilson interval."""
    from riskstats.runs.selfplay import play_games

    lineup = _lineup(bot, against, players)
    seeds = np.asarray(seeds, np.uint64)
    table = play_games(len(seeds), players, lineup, variant, rules=rules, seeds=seeds)
    # seat s of game g plays line-up entry (s + g) % players: the candidate (entry 0) sits in seat -g
    candidate_seat = (-table["game"].to_numpy()) % players
    wins = int((table["winner"].to_numpy() == candidate_seat).sum())
    low, high = wilson_interval(wins, len(seeds))
    return {"bot": lineup[0], "games": len(seeds), "wins": wins, "win_rate": wins / len(seeds),
            "ci_low": float(low), "ci_high": float(high)}


def tune(bot: str, against, players: int, variant: str = "classic", *, trials: int = 40,
         games_per_trial: int = 400, seed: int = 0, storage: str | None = None, study: str | None = None,
         check_games: int = 4000, progress=None, found=None):
    """Tune ``bot``'s parameters for its win rate against ``against``; the study's trials as a DataFrame.

    Parameters
    ----------
    bot : str
        A bot spec; parameters it gives (``"continent:entrance_weight=2"``) stay fixed, the others are
        tuned over their declared ranges (`riskstats.game.bots.catalog`).
    against : str or list of str
        The line-up filling the other ``players - 1`` seats, in order and cyclic.
    players : int
        2 to 6; 2 in ``"classic"`` is the two-player game with a neutral, as in
        `riskstats.runs.selfplay.play_games` (the study records the variant played, ``"two-player"``).
    variant : str
    trials : int
        Complete trials the study should hold; a study that already holds some continues from there.
    games_per_trial : int
    seed : int
    storage : str, optional
        An Optuna storage URL (``sqlite:///runs/tune.db``); in memory if not given.
    study : str, optional
        The study's name; by default one made from the arguments (bar ``trials`` and ``check_games``).
    check_games : int
        Fresh games on which the best parameters and the defaults are measured again (0: none).
    progress : callable, optional
        ``progress(done, total, best)`` after each trial (``best``: the best win rate so far).
    found : callable, optional
        ``found(counts)`` once the study is open, before any trial: the trials it already holds, a dict
        ``{"trials", "complete", "failed", "running", "marked_failed"}`` (``marked_failed``: trials left
        running by a killed process of this machine, now marked failed; ``running``: those still
        running elsewhere). Also the table's ``attrs["found"]``.

    Returns
    -------
    pandas.DataFrame
        One row per trial: number, state, bot (the candidate's label), each tuned parameter, games,
        wins, win_rate, ci_low, ci_high (95% Wilson). ``attrs``: ``study``, ``storage``, ``config``,
        and with ``check_games`` ``best`` and ``default`` (`measure_bot` on the fresh games, ``best``
        also with ``params`` and ``trial``).
    """
    try:
        import optuna
    except ImportError:  # pragma: no cover - depends on the environment
        raise RiskstatsError("tuning needs Optuna: pip install 'riskstats[tune]'") from None
    from riskstats.game.bots.catalog import bot_info, parse_bot
    from riskstats.runs.selfplay import check_games as check_batch

    spec = parse_bot(bot)
    info = bot_info(spec.name)
    space = [p for p in info.params if p.name not in spec.given and p.tunable]
    if not space:
        raise RiskstatsError(f"bot {spec.label!r} has no parameter left to tune")
    players = check_int("players", players, 2)
    trials = check_int("trials", trials, 1, 100_000)
    games_per_trial = check_int("games_per_trial", games_per_trial, 1, 10_000_000)
    seed = check_int("seed", seed, 0)
    check_games = check_int("check_games", check_games, 0, 100_000_000)
    against_labels = _lineup(spec.label, against, players)[1:]
    # the rules as self-play decides them (2 players in classic: the two-player game with the neutral)
    rules = check_batch(1, players, [spec.label, *against_labels], variant).rules
    variant = rules.variant
    config = {"bot": spec.label, "against": ",".join(against_labels), "players": players, "variant": variant,
              "games_per_trial": games_per_trial, "seed": seed,
              "space": {p.name: [p.low, p.high, p.integer] for p in space}}
    name = study or (f"{spec.label} vs {config['against']}, {players} players, {variant}, "
                     f"{games_per_trial} games a trial, seed {seed}")

    def measure(label, number):
        return measure_bot(label, against_labels, players, variant, rules=rules,
                           seeds=trial_seeds(seed, number, games_per_trial))

    verbosity = optuna.logging.get_verbosity()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    try:
        the_study, counts = open_study(optuna, storage, name, config, found)
        run_study(optuna, the_study, spec, space, measure, trials, seed, progress)
        table = _trials_frame(the_study, space, [p.name for p in info.params])
        table.attrs.update(study=name, storage=storage, config=config, found=counts)
        if check_games:
            best = the_study.best_trial
            seeds = check_seeds(seed, check_games)
            names = [p.name for p in info.params]
            tuned = parse_bot(best.user_attrs["bot"])
            table.attrs["best"] = {**measure_bot(tuned.label, against_labels, players, variant, rules=rules,
                                                 seeds=seeds), "params": dict(zip(names, tuned.values)),
                                   "trial": best.number}
            table.attrs["default"] = {**measure_bot(spec.label, against_labels, players, variant, rules=rules,
                                                    seeds=seeds), "params": dict(zip(names, spec.values))}
        return table
    finally:
        optuna.logging.set_verbosity(verbosity)


RUNNER = "runner"
"""A trial's user attribute: [host name, process id] of the process playing it."""


def open_study(optuna, storage, name: str, config: dict, found=None):
    """The Optuna study ``name`` in ``storage`` (a path or URL; None: in memory), created with ``config`` as its
    user attribute ``riskstats`` or opened if it holds the same ``config`` (a study of something else is refused),
    with the trials left running by a killed process of this machine marked failed; returns (study, the counts of
    `_found`), the counts also passed to ``found`` if given."""
    from riskstats.runs.results import database_url

    url = None if storage is None else database_url(storage)
    the_study = optuna.create_study(storage=_storage(optuna, url, storage), study_name=name,
                                    direction="maximize", load_if_exists=True)
    held = the_study.user_attrs.get("riskstats")
    if held is None and the_study.trials:
        raise RiskstatsError(f"study {name!r} was not made by riskstats tune; choose another study name")
    if held is None:
        the_study.set_user_attr("riskstats", config)
    elif held != json.loads(json.dumps(config)):
        raise RiskstatsError(f"study {name!r} tunes something else ({held['bot']} vs {held['against']}, "
                             f"{held['players']} players, seed {held['seed']}); choose another study name")
    counts = _found(optuna, the_study)
    if found:
        found(counts)
    return the_study, counts


def run_study(optuna, the_study, spec, space, measure, trials: int, seed: int, progress=None) -> None:
    """Play trials until ``the_study`` holds ``trials`` complete ones: each asks the sampler (TPE, seeded afresh
    from (seed, trials so far); see the module docstring) for the parameters of ``space`` not given in ``spec``,
    and ``measure(label, number)`` (the candidate's label, the trial's number) returns its result, a dict with
    ``bot``, ``wins``, ``games``, ``ci_low``, ``ci_high`` and ``win_rate``. A trial cut short is marked failed."""
    from riskstats.game.bots.catalog import full_spec

    def complete():
        return sum(t.state == optuna.trial.TrialState.COMPLETE for t in the_study.trials)

    done = complete()
    if progress:
        progress(done, trials, _best_value(the_study))
    while done < trials:
        the_study.sampler = optuna.samplers.TPESampler(seed=_sampler_seed(seed, len(the_study.trials)))
        trial = the_study.ask()
        try:
            trial.set_user_attr(RUNNER, [socket.gethostname(), os.getpid()])
            values = {p.name: _suggest(trial, p) for p in space}
            result = measure(full_spec(spec.label, values).label, trial.number)
        except BaseException:
            the_study.tell(trial, state=optuna.trial.TrialState.FAIL)
            raise
        for key in ("bot", "wins", "games", "ci_low", "ci_high"):
            trial.set_user_attr(key, result[key])
        the_study.tell(trial, result["win_rate"])
        done = complete()
        if progress:
            progress(done, trials, _best_value(the_study))


def _storage(optuna, url, given):
    """The Optuna storage at ``url`` (None: in memory); one that cannot be opened is a `RiskstatsError`."""
    if url is None:
        return None
    try:
        return optuna.storages.get_storage(url)
    except Exception as error:  # sqlalchemy's errors (an unknown dialect, a file it cannot open), whichever
        message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise RiskstatsError(f"cannot open the Optuna storage {given!r}: {message}") from None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def _found(optuna, study) -> dict:
    """The study's trials by state, once trials left running by a killed process of this machine are marked
    failed (see the module docstring)."""
    state = optuna.trial.TrialState
    host = socket.gethostname()
    marked = 0
    for t in study.get_trials(deepcopy=False, states=(state.RUNNING,)):
        runner = t.user_attrs.get(RUNNER)
        if isinstance(runner, list) and len(runner) == 2 and runner[0] == host and runner[1] != os.getpid() \
                and not _alive(int(runner[1])):
            study.tell(t.number, state=state.FAIL)
            marked += 1
    trials = study.get_trials(deepcopy=False)
    return {"trials": len(trials), "complete": sum(t.state == state.COMPLETE for t in trials),
            "failed": sum(t.state == state.FAIL for t in trials),
            "running": sum(t.state == state.RUNNING for t in trials), "marked_failed": marked}


def _suggest(trial, param):
    """A value for ``param`` on a grid of a hundredth of its range (finer than 400 games can tell apart),
    rounded so that labels read plainly; whole numbers for integer parameters."""
    if param.integer:
        return trial.suggest_int(param.name, int(param.low), int(param.high))
    step = (param.high - param.low) / STEPS
    return round(trial.suggest_float(param.name, param.low, param.high, step=step), 9)


def _best_value(study):
    values = [t.value for t in study.trials if t.value is not None]
    return max(values) if values else None


def _trials_frame(study, space, names):
    import pandas as pd

    from riskstats.game.bots.catalog import parse_bot

    rows = []
    for t in study.trials:
        attrs = t.user_attrs
        values = dict(zip(names, parse_bot(attrs["bot"]).values)) if "bot" in attrs else {}
        rows.append({"number": t.number, "state": t.state.name.lower(), "bot": attrs.get("bot", ""),
                     **{p.name: values.get(p.name) for p in space},
                     "games": attrs.get("games", 0), "wins": attrs.get("wins", 0), "win_rate": t.value,
                     "ci_low": attrs.get("ci_low"), "ci_high": attrs.get("ci_high")})
    columns = ["number", "state", "bot", *(p.name for p in space), "games", "wins", "win_rate", "ci_low", "ci_high"]
    return pd.DataFrame(rows, columns=columns)
