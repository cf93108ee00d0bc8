"""The guide's answers checked in Domination's engine (issue 52 item 4): every arm of the outside experiments,
played by `outside_domination.run` into ``data/outside/findings/<arm>.csv``, resumable (rerun to continue).

Each arm is one seat (a riskstats bot spec, or ``domination:hard``, the control) against Domination's hard AIs, the
first player balanced (the measured seat moves first in every ``players``-th game), on the same game numbers in every
arm of an experiment (`FIRST` on: numbers no earlier file of this repository used), so arms compare game by game:

- **cards**: hard AIs in every seat under Domination's increasing and fixed card modes (the measured seat is one of
  them): game length and the first player's edge per mode;
- **treatments** (`TREATMENTS`): the hunter with a treatment (a bot option) against the hunter without, one seat
  against three hard AIs.

Usage (every arm, or the named ones; ``--games`` caps each arm's games for a sample run)::

    python scripts/outside/findings.py --domination <domination> [ARM ...] [--games N]
    python scripts/outside/findings.py --list
    python scripts/outside/findings.py --summary    # the verdicts: treatments.csv, card_modes.csv, verdicts.csv

``--summary`` reads the arms (`riskstats.analysis.outside_findings`) and writes, in ``summary/`` beside them,
``treatments.csv`` (each treatment's effect on the hunter's win rate), ``card_modes.csv`` (length and the first
player's share per card mode) and ``verdicts.csv`` (each finding checked, its verdict after Holm), and prints them as
Markdown tables.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from outside_domination import run  # noqa: E402

from riskstats.errors import RiskstatsError  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "data" / "outside" / "findings"
FIRST = 300_000
"""The first game number of every arm (the earlier outside files used numbers below 100,000)."""

CARDS = {f"cards_{mode}_4p": ("domination:hard", 4, mode, 1500) for mode in ("increasing", "fixed")}
"""The card escalation arms: name -> (measured seat, players, Domination's card mode, games)."""
TREATMENTS = {f"hunter{'_' if name else ''}{name}_4p": (spec, 4, "increasing", 600) for name, spec in (
    ("", "hunter"),  # the control: its own first continent, stacks as it plays, fortifies, trades at once
    ("first_australia", "hunter:first=Australia:draft=1"),
    ("first_south_america", "hunter:first=South America:draft=1"),
    ("reinforce_spread", "hunter:reinforce=spread"),
    ("fortify_none", "hunter:fortify=none"),
    ("trade_hold", "hunter:trade_at=5"),
    ("fortify_spread", "hunter:fortify=spread"),
    ("claim_random", "hunter:claim=random"),
    ("break_always", "hunter:break_threshold=0"),
)}
"""The hunter's treatment arms, name -> (bot spec, players, card mode, games): each a treatment of the guide's against
the hunter without it (``hunter_4p``): a forced first continent (with ``draft``, as in riskstats' experiments),
spread reinforcement, never fortifying or evening out the borders, trading only when forced (``trade_at=5``:
Domination forces a trade at 5), random claims, and breaking another seat's continent at any odds its stop rule
allows (``break_threshold=0``; the guide's break is forced once, from a position, in riskstats' rollouts)."""
ARMS = TREATMENTS | CARDS


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("arms", nargs="*", help=f"arms to play (default: all): {', '.join(ARMS)}")
    parser.add_argument("--domination", type=Path, help="Domination's folder (docs/outside.md)")
    parser.add_argument("--games", type=int, help="at most this many games per arm (default: each arm's own)")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--list", action="store_true", help="print the arms and stop")
    parser.add_argument("--summary", action="store_true", help="write and print the verdicts of the arms played")
    args = parser.parse_args(argv)
    if args.summary:
        return summary(args.out)
    if args.list:
        for name, (bot, players, cards, games) in ARMS.items():
            print(f"{name}: {bot}, {players} players, {cards} cards, {games} games from {FIRST}")
        return 0
    unknown = [a for a in args.arms if a not in ARMS]
    if unknown:
        print(f"error: unknown arm {unknown[0]!r}; choose from {', '.join(ARMS)}", file=sys.stderr)
        return 2
    if args.domination is None:
        print("error: --domination is needed to play (docs/outside.md)", file=sys.stderr)
        return 2
    for name in args.arms or ARMS:
        bot, players, cards, games = ARMS[name]
        games = games if args.games is None else min(games, args.games)
        try:
            run(args.domination, bot, players, games, args.out / f"{name}.csv", FIRST, balance_first=True,
                cards=cards)
        except RiskstatsError as e:
            print(f"error: {name}: {e}", file=sys.stderr)
            return 1
        print(f"{name}: done ({games} games)", flush=True)
    return 0


def summary(folder: Path) -> int:
    """Write the arms' verdicts in ``summary/`` beside them and print them as Markdown tables."""
    from riskstats.analysis.outside_findings import card_modes, outside_verdicts, treatment_effects

    def points(x):
        return f"{100 * x:+.1f}"

    try:
        treatments, verdicts = treatment_effects(folder), outside_verdicts(folder)
        modes = card_modes(folder) if all((folder / f"{a}.csv").is_file() for a in CARDS) else None
    except RiskstatsError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    (folder / "summary").mkdir(exist_ok=True)
    treatments.to_csv(folder / "summary" / "treatments.csv", index=False, float_format="%.4f")
    verdicts.to_csv(folder / "summary" / "verdicts.csv", index=False, float_format="%.4g")
    print("| treatment | games | win rate [95%] | control [95%] | effect, points [95%] | p (Holm) | verdict |")
    print("|---|---|---|---|---|---|---|")
    for r in treatments.itertuples():
        print(f"| `{r.bot}` | {r.n} | {r.win_rate:.1%} [{r.ci_low:.1%}, {r.ci_high:.1%}] | {r.control_win_rate:.1%} "
              f"[{r.control_ci_low:.1%}, {r.control_ci_high:.1%}] | {points(r.effect)} [{points(r.effect_low)}, "
              f"{points(r.effect_high)}] | {r.p_holm:.3g} | {r.verdict_adjusted} |")
    if modes is not None:
        modes.to_csv(folder / "summary" / "card_modes.csv", index=False, float_format="%.4f")
        print("\n| card mode | games | mean turns [95%] | first player's share [95%] | fair |")
        print("|---|---|---|---|---|")
        for r in modes.itertuples():
            share = (f"{points(r.first_share)} points [{points(r.first_low)}, {points(r.first_high)}]"
                     if r.mode.startswith("increasing -") else
                     f"{r.first_share:.1%} [{r.first_low:.1%}, {r.first_high:.1%}]")
            fair = "" if r.mode.startswith("increasing -") else f"{r.fair:.0%}"
            print(f"| {r.mode} | {r.games} | {r.mean_turns:.1f} [{r.turns_low:.1f}, {r.turns_high:.1f}] | {share} | "
                  f"{fair} |")
    print("\n| notebook | finding | outside verdict (Holm) | estimate |")
    print("|---|---|---|---|")
    for r in verdicts.itertuples():
        print(f"| {r.notebook} | {r.finding} | {r.outside} | {r.outside_estimate} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
