"""Tune a riskstats bot's parameters against Domination's AIs, in Domination's own engine: a resumable Optuna study
(issue 38 §5; the study's loop is `riskstats.runs.tune.run_study`, the games `outside_domination.run`'s).

    python scripts/outside/tune_outside.py --domination <domination> --bot hunter \\
        --tune kill,threshold,break_threshold,expand --players 4 --games 300 --first 3000 \\
        --trials 24 --storage sqlite:///runs/outside_tune.db --out runs/outside_tune
    python scripts/outside/tune_outside.py ... --check 600 --check-first 30000  # then the best and the defaults, fresh

Every trial plays the same game numbers, ``first .. first + games - 1`` (the tuning seeds, common to all trials),
one seat against ``players - 1`` Domination AIs, every
seat through the driver and the first player balanced (`outside_domination.play_one`). A trial's games go to
``<out>/<candidate>.csv`` with their records beside it; a trial cut short is marked failed, and the same candidate
asked again resumes its file. The first trial is the bot as given (the baseline on the same game numbers).
Running the command again continues the study until it holds ``--trials`` complete
trials (the sampler is seeded from ``--seed`` and the trials so far, as in `riskstats tune`). The table of trials
(win rate, Wilson interval) is printed and written to ``<out>/trials.csv``. ``--check N`` then plays the best
candidate and the bot as given on N fresh games from ``--check-first`` (never a tuning game): a tuning win rate is
the best of many noisy trials and reads high; only the fresh games measure the candidate.

A game number does not replay the same game: Domination's AIs do not play alike on the same seed (the hard AI's
control replayed on games 10,000-10,011 had another winner in 7 of 12), so two trials compare as independent
samples, not paired ones.
"""
from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from outside_domination import run  # noqa: E402

from riskstats.errors import RiskstatsError  # noqa: E402
from riskstats.intervals import wilson_interval  # noqa: E402


def trial_file(out: Path, label: str) -> Path:
    """Where a candidate's games go: its label with ``:`` written ``_`` (a file name on every system), less the
    pieces that leave a parameter no trial tunes (a treatment's, ``tunable=False``) at its default, which a trial's
    full label writes out: the name stays short, and the same as before the hunter's treatments were appended."""
    from riskstats.game.bots.catalog import bot_info, parse_bot

    spec = parse_bot(label)
    params = bot_info(spec.name).params
    index = {p.name: i for i, p in enumerate(params)}

    def kept(piece: str) -> bool:
        p = params[index[piece.partition("=")[0]]]
        return p.tunable or spec.values[index[p.name]] != p.default

    name, *pieces = label.split(":")
    return out / ("_".join([name, *filter(kept, pieces)]) + ".csv")


def play(domination: Path, label: str, players: int, games: int, first: int, out: Path, opponents: str) -> dict:
    """The candidate ``label`` on games ``first .. first + games - 1`` (resuming its file): its wins with their
    95% Wilson interval, in `riskstats.runs.tune.run_study`'s form."""
    path = trial_file(out, label)
    run(domination, label, players, games, path, first, opponents=opponents, balance_first=True,
        records=path.with_suffix(".jsonl.gz"))
    with path.open() as f:
        rows = [r for r in csv.DictReader(f) if first <= int(r["game"]) < first + games]
    wins = sum(int(r["remote_won"]) for r in rows)
    low, high = wilson_interval(wins, len(rows))
    return {"bot": label, "wins": wins, "games": len(rows), "win_rate": wins / len(rows), "ci_low": low,
            "ci_high": high}


def study(domination: Path, bot: str, tune: list[str], players: int, games: int, first: int, trials: int,
          storage: str, out: Path, opponents: str = "hard", seed: int = 0, progress=None):
    """Run (or continue) the study; its trials as `riskstats.runs.tune`'s table."""
    import optuna

    from riskstats.game.bots.catalog import bot_info, parse_bot
    from riskstats.runs.tune import _trials_frame, open_study, run_study

    spec = parse_bot(bot)
    info = bot_info(spec.name)
    names = [p.name for p in info.params]
    tunable = [p.name for p in info.params if p.tunable]
    unknown = [n for n in tune if n not in tunable]
    if unknown:
        raise RiskstatsError(f"{spec.name} has no parameter {unknown[0]!r} to tune; it tunes {', '.join(tunable)}")
    space = [p for p in info.params if p.name in tune and p.name not in spec.given]
    config = {"bot": spec.label, "against": f"domination:{opponents}", "players": players, "games_per_trial": games,
              "first": first, "seed": seed, "space": {p.name: [p.low, p.high, p.integer] for p in space}}
    name = f"{spec.label} vs domination:{opponents}, {players} players, games {first}-{first + games - 1}, seed {seed}"
    out.mkdir(parents=True, exist_ok=True)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    the_study, _ = open_study(optuna, storage, name, config)
    if not the_study.trials:  # the first trial is the bot as given: the study's own baseline, on the same games
        the_study.enqueue_trial({p.name: spec.values[names.index(p.name)] for p in space})
    run_study(optuna, the_study, spec, space,
              lambda label, number: play(domination, label, players, games, first, out, opponents),
              trials, seed, progress)
    table = _trials_frame(the_study, space, names)
    table.to_csv(out / "trials.csv", index=False)
    return table


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--domination", type=Path, required=True, help="Domination's build (docs/outside.md)")
    parser.add_argument("--bot", default="hunter", help="the bot spec; parameters it gives stay fixed")
    parser.add_argument("--tune", required=True, help="the parameters to tune, comma-separated")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=300, help="games a trial (the same games in every trial)")
    parser.add_argument("--first", type=int, default=3000, help="the first tuning game number")
    parser.add_argument("--trials", type=int, default=20, help="complete trials the study should hold")
    parser.add_argument("--opponents", default="hard", help="the Domination AI in the other seats")
    parser.add_argument("--seed", type=int, default=0, help="the sampler's seed")
    parser.add_argument("--storage", default="sqlite:///runs/outside_tune.db", help="the study's Optuna storage URL")
    parser.add_argument("--out", type=Path, default=Path("runs/outside_tune"), help="the trials' games go here")
    parser.add_argument("--check", type=int, default=0, help="then play the best and the bot as given on N fresh games")
    parser.add_argument("--check-first", type=int, default=30000, help="the first fresh game number of --check")
    args = parser.parse_args(argv)
    try:
        if args.check and args.check_first < args.first + args.games and args.first < args.check_first + args.check:
            raise RiskstatsError("--check-first: the fresh games overlap the tuning games")

        def progress(done, total, best):
            print(f"{done}/{total} trials, best tuning win rate {best if best is None else f'{best:.3f}'}",
                  file=sys.stderr, flush=True)

        table = study(args.domination, args.bot, [n for n in args.tune.split(",") if n], args.players, args.games,
                      args.first, args.trials, args.storage, args.out, args.opponents, args.seed, progress)
        done = table[table.state == "complete"].sort_values("win_rate", ascending=False)
        print(done.to_string(index=False))
        if args.check:
            for label in dict.fromkeys([done.iloc[0]["bot"], args.bot]):
                result = play(args.domination, label, args.players, args.check, args.check_first,
                              args.out / "check", args.opponents)
                print(f"fresh games {args.check_first}-{args.check_first + args.check - 1}: {label}: "
                      f"{result['wins']}/{result['games']} = {result['win_rate']:.3f} "
                      f"[{result['ci_low']:.3f}, {result['ci_high']:.3f}]")
    except RiskstatsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
