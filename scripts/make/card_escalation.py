"""Notebook 03's card experiments for one bot population, written to CSV for the notebook to read (issue #19 §2).

    python scripts/make/card_escalation.py --population strong --out data/card_escalation
    python scripts/make/card_escalation.py --population search --timing-games 1200 --rule-games 250 \
        --escalation-games 1000 --out data/card_escalation

A population is a line-up (`POPULATIONS`): ``strong`` is the value bot in every seat, ``search`` and
``search_model`` the ladder's two top tiers (`riskstats.stats.robustness.TOP_TIER`: the search bot
``search:rollouts=8:horizon=1:plans=6:value=formula`` and ``search:rollouts=8:horizon=0:plans=8:value=model``) in
every seat, ``heuristic`` notebook 03's own line-up. The first seat of the strong and top-tier line-ups is the bot
written with its parameters (``value:rollouts=1:plans=4``, the tier's spec) and the others the same bot with its
default ``trade_at=0`` written out, so the first seat's label tells it apart: it is the seat a trade-timing
treatment changes, and it plays exactly as the others in the control.

Steps, each written to ``<out>/<population>_<step>.csv.gz`` and skipped if that file exists (resumable):

- ``timing`` (populations with a treated seat): `riskstats.analysis.cards.trade_timing`, ``--timing-games``
  games per arm: the control, the
  first seat trading at once (``trade_at=3``) and holding until forced (``5``). The games of every arm.
- ``rules``: `compare_rules` with logs, ``--rule-games`` games per arm, one card per turn (docs/rules.md)
  against one per conquest; ``escalation``: progressive, fixed and no escalation, ``--escalation-games`` games per
  arm (default ``--rule-games``; one card per conquest costs the search bot about 1.5 CPU s a game, so the top
  tier's rules step is smaller). The per-game tables
  (`LOGGED_MEASURES`), and for ``escalation`` also ``<population>_rounds.csv.gz`` (`per_round` by scheme, every
  round reached by at least 10 games).
- ``capture`` (``--capture-games``, 0 to skip): the population's games (seed ``--seed`` + 1, as notebook 03's
  own) replayed to each one's first elimination that captured cards, and each such position rolled out
  ``--capture-rollouts`` times with and without the captured cards (`cards.capture_value`); the per-position table.
- ``ranking`` (``--ranking-games``, 0 to skip): the line-up ``--ranking-lineup`` (default the population's
  `RANKING`: its bot among continent-tuned, aggressive and continent) under the four card rule settings, to see
  whether the rules reorder the bots. Played in chunks of 250 games, each kept in ``<out>/<population>_ranking.parts/``
  as it ends, so an interrupted run resumes where it stopped.

``--set top_hunter`` runs every tier of that tier set (`riskstats.runs.tiers.TIER_SETS`) as a population instead,
its files named by the tier's ``folder`` (``<out>/top_hunter/hunter_timing.csv.gz``): the first seat the tier's bot
and the rest its others' (`riskstats.runs.tiers.tier_seats` with a treated seat), those of the same bot with their
default ``trade_at`` written out, as ``scripts/make/findings.py`` does; a tier whose ranking line-up (its bot among
the heuristics) an earlier tier of the set played skips that step, which would replay the same games.

Every run is single-threaded (``NUMBA_NUM_THREADS=1`` is set here when run as a script) and records its CPU seconds in
``<out>/runs.csv`` with the command.
"""
import argparse
import os
import sys
import time
from pathlib import Path

if __name__ == "__main__":  # run as a script: one thread (imported, e.g. by the tests, it leaves numba alone)
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import pandas as pd  # noqa: E402

from riskstats.analysis import cards  # noqa: E402
from riskstats.errors import RiskstatsError  # noqa: E402
from riskstats.game.bots.catalog import bot_info, parse_bot  # noqa: E402
from riskstats.game.rules.options import GameRules  # noqa: E402
from riskstats.runs.tiers import TIER_SETS, tier_seats, tier_set  # noqa: E402

TIERS = cards.TIER_RUNS
"""Population -> the ``top`` set's tier (`TIER_SETS`) whose bot plays every seat."""


def written(bot: str) -> str:
    """``bot`` with its ``trade_at`` written out (its default unless given): the same play under a label of its own."""
    spec = parse_bot(bot)
    if "trade_at" in spec.given:
        return bot
    value = spec.values[[p.name for p in bot_info(spec.name).params].index("trade_at")]
    return f"{bot}:trade_at={value:g}"


def tier_lineup(entry: dict) -> str:
    """A tier's four-player line-up for a treated seat (`tier_seats`): the first seat the tier's bot, the treated
    seat, and the others' in the rest (those of the same bot with their ``trade_at`` written out, `written`)."""
    focal, *rest = tier_seats(entry, 4, treated=True)
    return ",".join([focal] + [written(b) if b == focal else b for b in rest])


FOCAL = {"strong": "value:rollouts=1:plans=4", **{p: TIER_SETS["top"][t]["bot"] for p, t in TIERS.items()}}
"""The treated seat of a population's trade-timing experiment: its bot written with its parameters."""
POPULATIONS = {"strong": f"{FOCAL['strong']},value,value,value",
               **{p: tier_lineup(TIER_SETS["top"][t]) for p, t in TIERS.items()},
               "heuristic": "continent-tuned,aggressive,continent,defensive"}
"""The line-ups (seats rotate game by game); the strong and top-tier ones' first seat is the treated seat (the
others write their default ``trade_at=0`` out, so their label differs and their play does not)."""
RANKING_LINEUP = "value,continent-tuned,aggressive,continent"
RANKING = {"strong": RANKING_LINEUP, **{p: f"{FOCAL[p]},continent-tuned,aggressive,continent" for p in TIERS}}
"""The ranking step's line-up per population: its bot among three heuristics."""
COLUMNS = ["arm", "game", "seed", "bots", "winner", "winner_bot", "turns", "rounds", "first_won", "truncated",
           *cards.LOGGED_MEASURES]
RULE_ARMS = {"one card": GameRules(), "per conquest": GameRules(cards_per_turn="per_conquest")}
SCHEMES = {s: GameRules(escalation=s) for s in ("progressive", "fixed", "none")}


def _keep(games: pd.DataFrame) -> pd.DataFrame:
    return games[[c for c in COLUMNS if c in games.columns]]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--population", choices=sorted(POPULATIONS), default="strong")
    parser.add_argument("--timing-games", type=int, default=8000)
    parser.add_argument("--rule-games", type=int, default=2000)
    parser.add_argument("--escalation-games", type=int, default=None, help="default: --rule-games")
    parser.add_argument("--ranking-games", type=int, default=0)
    parser.add_argument("--capture-games", type=int, default=0)
    parser.add_argument("--capture-rollouts", type=int, default=100)
    parser.add_argument("--ranking-lineup", default=None, help="default: the population's RANKING line-up")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--steps", default="timing,rules,escalation,capture,ranking",
                        help="the steps to run (comma-separated), of those the sizes allow")
    parser.add_argument("--set", help="instead of --population: every tier of this tier set, named by its folder")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.set is None:
        return run(POPULATIONS[args.population], args.population, FOCAL.get(args.population), args, argv)
    try:
        tiers = tier_set(args.set)
    except RiskstatsError as e:
        sys.exit(f"error: {e}")
    ranked = set()
    for entry in tiers.values():
        (args.out / entry["folder"]).parent.mkdir(parents=True, exist_ok=True)
        ranking = f"{entry['bot']},continent-tuned,aggressive,continent"
        steps = args.steps if ranking not in ranked else args.steps.replace("ranking", "")  # the same games again
        ranked.add(ranking)
        run(tier_lineup(entry), entry["folder"], entry["bot"], argparse.Namespace(**{**vars(args), "steps": steps}),
            argv, ranking_lineup=ranking)


def run(lineup: str, name: str, focal: str | None, args, argv, ranking_lineup: str | None = None) -> None:
    """Run the steps asked of the population ``name`` (``lineup``, its treated seat ``focal``), each into
    ``<out>/<name>_<step>.csv.gz`` unless that file exists."""
    args.out.mkdir(parents=True, exist_ok=True)
    escalation_games = args.rule_games if args.escalation_games is None else args.escalation_games
    ranking_lineup = args.ranking_lineup or ranking_lineup or RANKING.get(name, RANKING_LINEUP)
    steps = []
    if args.timing_games and focal:
        steps.append(("timing", lambda: _keep(cards.trade_timing(
            args.timing_games, 4, lineup, {"trade at once": (focal, 3), "hold until forced": (focal, 5)},
            seed=args.seed)["games"])))
    if args.rule_games:
        steps.append(("rules", lambda: _keep(cards.compare_rules(args.rule_games, 4, lineup, RULE_ARMS,
                                                                 seed=args.seed, log=True)["games"])))
    if escalation_games:
        steps.append(("escalation", lambda: _escalation(escalation_games, args, lineup, name)))
    if args.capture_games:
        steps.append(("capture", lambda: _capture(args, lineup)))
    if args.ranking_games:
        steps.append(("ranking", lambda: _ranking(args, ranking_lineup, args.out / f"{name}_ranking.parts")))
    wanted = set(args.steps.split(","))
    for step, run in [(step, run) for step, run in steps if step in wanted]:
        path = args.out / f"{name}_{step}.csv.gz"
        if path.exists():
            print(f"{path}: done already, skipped")
            continue
        start = time.process_time()
        table = run()
        cpu = table.attrs.get("cpu_s", time.process_time() - start)
        table.to_csv(path, index=False)
        log = args.out / "runs.csv"
        row = pd.DataFrame([{"file": path.name, "games": len(table), "cpu_s": round(cpu, 1),
                             "command": "python scripts/make/card_escalation.py " + " ".join(argv or sys.argv[1:])}])
        row.to_csv(log, mode="a", header=not log.exists(), index=False)
        print(f"{path}: {len(table)} games in {cpu:.0f} CPU s", flush=True)


RANKING_ARMS = {**SCHEMES, "per conquest": RULE_ARMS["per conquest"]}
"""The ranking step's card rule settings: the three escalation schemes and one card per conquest."""


def _ranking(args, lineup: str, parts: Path) -> pd.DataFrame:
    """The ranking step's games, `cards.compare_rules`'s over `RANKING_ARMS`, played an arm at a time in chunks of
    `cards.LOG_CHUNK` games, each chunk written to ``parts`` as it ends (an interrupted run resumes at its first
    missing chunk; ``parts`` is removed once the step's file is written). The table's ``attrs["cpu_s"]`` sums its
    chunks' CPU seconds, whichever run played them."""
    import shutil

    from riskstats.runs.selfplay import play_games

    parts.mkdir(parents=True, exist_ok=True)
    tables = []
    for arm, rules in RANKING_ARMS.items():
        for first in range(0, args.ranking_games, cards.LOG_CHUNK):
            path = parts / f"{arm.replace(' ', '_')}_{first}.csv.gz"
            if not path.exists():
                start = time.process_time()
                chunk = play_games(min(cards.LOG_CHUNK, args.ranking_games - first), 4, lineup, seed=args.seed,
                                   rules=rules, first=first)
                chunk = chunk.assign(arm=arm, first_won=(chunk.winner == 0).astype(int))
                chunk.assign(cpu_s=time.process_time() - start).to_csv(path, index=False)
                print(f"{path}: written", flush=True)
            tables.append(pd.read_csv(path))
    played = pd.concat(tables, ignore_index=True)
    table = _keep(played)
    table.attrs["cpu_s"] = sum(t.cpu_s.iloc[0] for t in tables)  # every chunk's, in whichever run it was played
    shutil.rmtree(parts)  # the caller writes the step's file next; were it interrupted, the chunks replay the same
    return table


def _capture(args, lineup):
    from riskstats.runs.selfplay import play_games

    games = play_games(args.capture_games, 4, lineup, seed=args.seed + 1)
    per_position, _ = cards.capture_value(cards.capture_positions(games, min_cards=1), args.capture_rollouts,
                                          seed=args.seed)
    return per_position


def _escalation(games, args, lineup, name):
    result = cards.compare_rules(games, 4, lineup, SCHEMES, seed=args.seed, log=True)
    rounds = cards.per_round(result["activity"].rename(columns={"arm": "escalation"}), by="escalation",
                             min_games=10)
    rounds.to_csv(args.out / f"{name}_rounds.csv.gz", index=False)
    return _keep(result["games"])


if __name__ == "__main__":
    main()
