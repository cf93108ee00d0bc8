"""The battle commands, a skin over `riskstats.odds`: round, odds, table, chain, need, policy, simulate.

Each takes the shared dice-rule options and the official app's dice augments
(`riskstats.cli.common.with_rules`); odds, table, chain, need and simulate take ``--balanced-blitz`` (the
app's Balanced Blitz mode, `riskstats.odds.balance`) and say in a title line and the JSON key ``mode`` which
mode answered; ``odds --compare-modes`` shows both. Each reads "attackers" as armies able to roll
(`CONVENTION`; ``--territory-armies`` for the armies on the territory). It owns the command line's size
limits on battles (`MAX_STATES`, `MAX_TABLE_ROWS`, `MAX_NEED_DEFENDERS`, `MAX_BALANCED_CHAIN_WORK`,
`MAX_BALANCED_CHAIN_BATTLES`, `MAX_NEED_BALANCED_CHAIN`, `MAX_NEED_BALANCED_TERRITORIES`), which the library
does not have.
"""
import sys
from typing import Annotated

import typer

from riskstats.cli.common import (
    CONVENTION,
    BalancedBlitz,
    JsonFlag,
    _compile_notice,
    _interruptible,
    _LateProgress,
    _number,
    _percent,
    _positive_count,
    _print_json,
    _print_table,
    balance_of,
    mode_payload,
    real_number,
    whole_number,
    with_rules,
)
from riskstats.errors import RiskstatsError
from riskstats.odds.dice import DiceRules

MAX_STATES = 250_000_000
"""Largest battle-state count (attackers x defenders, summed over a chain) ``odds`` and ``chain`` take:
about 15,800 a side, a few seconds. The library has no such limit."""
MAX_TABLE_ROWS = 1_000_000
"""Most rows ``table`` prints (one per battle: 1,000 a side, a 25 MB CSV)."""
ODDS_HINT_STATES = 100
"""Above this many end states ``odds`` points to ``--top`` and ``--summary`` under the table."""
ARMIES_LEFT = ("on full success every survivor, standing in the last territory; otherwise the attackers "
               "(armies able to roll) left where the chain stopped")
"""What ``chain``'s expected armies left counts (`riskstats.odds.chain.ChainOdds.expected_armies_left`)."""
MAX_NEED_DEFENDERS = 5_000
"""Most defenders (summed over a chain) ``need`` takes: its search solves many battles of that size."""
MAX_BALANCED_CHAIN_WORK = 2_000_000_000
"""Most battle states a Balanced Blitz chain of two or more territories may cost: each battle after the first
is solved once for every force that may start it (attackers x attackers x defenders / 2 in all, about
1,600 attackers against 1,600 defenders, a few seconds)."""
MAX_BALANCED_CHAIN_BATTLES = 100_000
"""Most battles a Balanced Blitz chain may solve: attackers x (territories - 1), one per force that may start
each battle after the first (some 40 microseconds each: about four seconds)."""
MAX_NEED_BALANCED_CHAIN = 300
"""Most defenders in all ``need --balanced-blitz`` takes for a chain of two or more territories (its search
solves many balanced chains; one territory has `MAX_NEED_DEFENDERS`)."""
MAX_NEED_BALANCED_TERRITORIES = 20
"""Most territories ``need --balanced-blitz`` takes in a chain (each search step solves a balanced battle per
territory for every force that may start it)."""


def _check_states(command: str, attackers: int, defenders: int, limit: int = MAX_STATES,
                  what: str = "battle states", scale: str = "about 15,800 a side, a few seconds") -> None:
    """Refuse work too large to answer in a few seconds (`MAX_STATES`, `MAX_TABLE_ROWS`)."""
    if attackers > 0 and defenders > 0 and attackers * defenders > limit:
        raise RiskstatsError(
            f"{command}: {attackers:,} attackers x {defenders:,} defenders = {attackers * defenders:,} {what}, "
            f"over the command line's limit of {limit:,} ({scale}); call riskstats from Python for more")


def _uses_kernels(attackers: int, defenders: int, exact: bool = False) -> bool:
    from riskstats.odds.battle import INTERPRETED_STATES

    return not exact and attackers * defenders > INTERPRETED_STATES


Attackers = Annotated[int, typer.Argument(parser=whole_number, metavar="ATTACKERS",
                                          help="Attackers (armies able to roll).")]
Defenders = Annotated[int, typer.Argument(parser=whole_number, metavar="DEFENDERS", help="Defenders.")]
DefenderList = Annotated[list[int], typer.Argument(
    parser=whole_number, metavar="DEFENDERS...", help="Defenders of each territory, in the order attacked.")]
StopAt = Annotated[int, typer.Option(parser=whole_number, help="Stop once down to this many attackers.")]
Cautious = Annotated[bool, typer.Option(help="With --stop-at: never roll more dice than the attackers above it.")]
Goal = Annotated[int, typer.Option(parser=whole_number, help="Succeed once the defender is down to this many.")]
Leave = Annotated[int, typer.Option(parser=whole_number, help="Armies left in each conquered territory.")]
Exact = Annotated[bool, typer.Option(help="Rational arithmetic; probabilities printed as fractions.")]
TerritoryArmies = Annotated[bool, typer.Option(
    "--territory-armies", help="Read the attacking number as armies on the territory (one stays behind).")]


def _attackers(value: int, territory_armies: bool) -> int:
    if not territory_armies:
        return value
    if value < 2:
        raise RiskstatsError(f"--territory-armies: a territory needs at least 2 armies to attack "
                             f"(one stays behind), got {value}")
    return value - 1


def _dice(n: int, side: str) -> str:
    """``1 defender die``, ``3 attacker dice``."""
    return f"{n} {side} {'die' if n == 1 else 'dice'}"


def _short_of_aim(stop_at: int, goal: int) -> tuple[str, str]:
    """The label and the meaning of ``p_lose``, the chance the battle ends short of its aim: with no stop
    rule and no goal that is losing every attacker; with one, stopping counts too."""
    aim = f"did not bring the defender down to {goal}" if goal else "did not conquer"
    if stop_at:
        return (f"P({'goal not reached' if goal else 'not conquered'}: stopped or lost)",
                f"{aim}: stopped with {stop_at} attackers or fewer, or lost them all")
    if goal:
        return "P(goal not reached: lost)", f"{aim}: lost every attacker"
    return "P(lose)", f"{aim}: lost every attacker"


def _rules_dict(rules: DiceRules) -> dict:
    from dataclasses import asdict

    return asdict(rules)


MODE_NOTES = {"true random": "the dice as they fall",
              "Balanced Blitz": "the official app's balancing of whole battles (0.05, 1.3, 0.1, 1.8)"}
"""What the title line says of each mode (`_print_mode`)."""


def _print_mode(balance) -> None:
    """The title line above a command's tables that names the dice mode: ``mode: Balanced Blitz (...)``."""
    mode = mode_payload(balance)["mode"]
    typer.echo(f"mode: {mode} ({MODE_NOTES.get(mode, 'custom parameters')})")


def _augments_note(augments: dict) -> str:
    """``; defender augments: capital`` (empty when there are none), for captions."""
    parts = [f"{side} augments: {', '.join(names)}" for side, names in augments.items() if names]
    return "".join(f"; {p}" for p in parts)


def _check_balanced_chain(attackers: int, defenders: list[int]) -> None:
    """Refuse a Balanced Blitz chain whose battles after the first cost more than `MAX_BALANCED_CHAIN_WORK`
    states or `MAX_BALANCED_CHAIN_BATTLES` battles."""
    battles = max(attackers, 0) * (len(defenders) - 1)
    if battles > MAX_BALANCED_CHAIN_BATTLES:
        raise RiskstatsError(
            f"chain --balanced-blitz: {attackers:,} attackers through {len(defenders):,} territories solve about "
            f"{battles:,} balanced battles (one per force that may start each battle after the first), over the "
            f"command line's limit of {MAX_BALANCED_CHAIN_BATTLES:,}; call riskstats.chain_odds from Python for more")
    rest = sum(max(d, 0) for d in defenders[1:])
    work = attackers * attackers * rest // 2
    if len(defenders) > 1 and attackers > 0 and work > MAX_BALANCED_CHAIN_WORK:
        raise RiskstatsError(
            f"chain --balanced-blitz: {attackers:,} attackers against {rest:,} defenders after the first territory "
            f"cost about {work:,} battle states (each battle is balanced for every force that may start it), over "
            f"the command line's limit of {MAX_BALANCED_CHAIN_WORK:,}; call riskstats.chain_odds from Python for more")


def _summary_rows(result, goal: int, stop_at: int) -> list[tuple[str, str]]:
    """The summary of one battle's answer: P(win) (or P(defenders <= goal)), P(lose) and the expected losses."""
    lose_label, _ = _short_of_aim(stop_at, goal)
    if goal:  # the battle ends at the goal, so it never reaches a conquest: no P(win) row
        rows = [(f"P(defenders <= {goal})", _percent(result.p_goal)), (lose_label, _percent(result.p_lose))]
    else:
        rows = [("P(win)", _percent(result.p_win)), (lose_label, _percent(result.p_lose))]
    return rows + [
        ("attacker losses", f"{float(result.expected_attacker_losses):.3f} ± {result.sd_attacker_losses:.3f}"),
        ("defender losses", f"{float(result.expected_defender_losses):.3f} ± {result.sd_defender_losses:.3f}"),
    ]


def _mode_summary(result, goal: int) -> dict:
    """One mode's summary numbers, for ``odds --compare-modes --json``."""
    return {**mode_payload(result.balance), "p_win": float(result.p_win), "p_lose": float(result.p_lose),
            **({"p_goal": float(result.p_goal)} if goal else {}),
            "expected_attacker_losses": float(result.expected_attacker_losses),
            "expected_defender_losses": float(result.expected_defender_losses),
            "sd_attacker_losses": result.sd_attacker_losses, "sd_defender_losses": result.sd_defender_losses}


@with_rules
def round_(
    adice: Annotated[int, typer.Argument(parser=whole_number, metavar="ADICE", help="Dice the attacker rolls.")],
    ddice: Annotated[int, typer.Argument(parser=whole_number, metavar="DDICE", help="Dice the defender rolls.")],
    as_json: JsonFlag = False,
    *,
    rules: DiceRules,
    augments: dict,
):
    """The exact outcome table of one roll, as fractions and decimals."""
    fractions = rules.outcome_fractions(adice, ddice)
    k = len(fractions) - 1
    outcomes = [{"attacker_loses": i, "defender_loses": k - i, "p": float(f), "fraction": _number(f)}
                for i, f in enumerate(fractions)]
    if as_json:
        _print_json({"attacker_dice": adice, "defender_dice": ddice,
                     "rules": _rules_dict(rules), "augments": augments, "outcomes": outcomes})
        return
    _print_table(f"One roll: {_dice(adice, 'attacker')} vs {_dice(ddice, 'defender')}",
                 ["attacker loses", "defender loses", "fraction", "p"],
                 [(o["attacker_loses"], o["defender_loses"], o["fraction"], f"{o['p']:.6f}") for o in outcomes])


@with_rules
def odds(
    attackers: Attackers,
    defenders: Defenders,
    stop_at: StopAt = 0,
    cautious: Cautious = False,
    goal: Goal = 0,
    exact: Exact = False,
    territory_armies: TerritoryArmies = False,
    top: Annotated[int | None, typer.Option(
        "--top", parser=whole_number, metavar="N",
        help="Show only the N most likely end states (JSON: outcomes holds those N, most likely first).")] = None,
    summary_only: Annotated[bool, typer.Option(
        "--summary", help="Show only the summary, no end states (JSON: no outcomes list).")] = False,
    balanced_blitz: BalancedBlitz = False,
    compare_modes: Annotated[bool, typer.Option(
        "--compare-modes", help="Show true random and Balanced Blitz side by side: P(win) and expected losses "
                                "(JSON: modes).")] = False,
    as_json: JsonFlag = False,
    *,
    rules: DiceRules,
    augments: dict,
):
    """Exact odds and end-state distribution of one battle (true random, or the app's Balanced Blitz)."""
    from riskstats.odds.battle import battle_odds

    balance = balance_of(balanced_blitz, exact)
    if compare_modes and exact:
        raise RiskstatsError("--exact cannot be combined with --compare-modes: Balanced Blitz leaves the fractions; "
                             "drop --exact")
    if compare_modes and top is not None:
        raise RiskstatsError("give --top N or --compare-modes (summaries only), not both")
    if top is not None and top < 1:
        raise RiskstatsError(f"--top must be at least 1, got {top}")
    if top is not None and summary_only:
        raise RiskstatsError("give --top N or --summary, not both")
    attackers = _attackers(attackers, territory_armies)
    _check_states("odds", attackers, defenders)
    with _compile_notice(_uses_kernels(attackers, defenders, exact)):
        result = battle_odds(attackers, defenders, rules, stop_at=stop_at, goal=goal, cautious=cautious,
                             exact=exact, balance=balance)
        if compare_modes:
            both = [battle_odds(attackers, defenders, rules, stop_at=stop_at, goal=goal, cautious=cautious,
                                balance=b) for b in (None, "blitz")]
    if compare_modes:
        _compare_modes(both, stop_at, goal, rules, augments, as_json)
        return
    _, lose_means = _short_of_aim(stop_at, goal)
    order = sorted(zip(result.attackers_left.tolist(), result.defenders_left.tolist(), result.p))
    states = len(order)
    if top is not None:
        order = sorted(order, key=lambda row: -float(row[2]))[:top]
    payload = {
        "attackers": result.attackers,
        "defenders": result.defenders,
        "stop_at": stop_at,
        "goal": goal,
        "cautious": cautious,
        "rules": _rules_dict(rules),
        "augments": augments,
        **mode_payload(balance),
        "convention": CONVENTION,
        "p_win": _number(result.p_win),
        "p_lose": _number(result.p_lose),
        "p_lose_means": lose_means,
        **({"p_goal": _number(result.p_goal)} if goal else {}),
        "expected_attacker_losses": _number(result.expected_attacker_losses),
        "expected_defender_losses": _number(result.expected_defender_losses),
        "sd_attacker_losses": result.sd_attacker_losses,
        "sd_defender_losses": result.sd_defender_losses,
        "outcomes": [{"attackers_left": a, "defenders_left": d, "p": _number(p)} for a, d, p in order],
    }
    if top is not None:
        payload["outcomes_total"] = states
    if summary_only:
        del payload["outcomes"]
        payload["outcomes_total"] = states
    if as_json:
        _print_json(payload)
        return
    caption = CONVENTION + _augments_note(augments)
    if goal:
        caption = f"the battle ends once the defender is down to {goal}; {caption}"
    summary = _summary_rows(result, goal, stop_at)
    title = f"{result.attackers} attackers vs {defenders} defenders"
    _print_mode(balance)
    _print_table(title, ["", "value"], summary, caption=caption)
    if stop_at:
        below = (result.attackers_left < stop_at).any()
        typer.echo(f"The attacker stops once down to {stop_at} attackers or fewer" + (
            f"; an end state can sit below {stop_at} because one roll can cost {rules.max_losses} armies "
            f"(--cautious avoids that)." if below else "."))
    if summary_only:
        return
    note = None
    if top is not None:
        shown = sum(float(p) for _, _, p in order)
        note = f"the {len(order):,} most likely of {states:,} end states: {100 * shown:.2f}% of the probability"
    elif states > ODDS_HINT_STATES:
        note = f"{states:,} end states: --top N shows the N most likely, --summary none"
    _print_table("End states" if top is None else f"End states (top {top})", ["attackers left", "defenders left", "p"],
                 [(a, d, p if exact else f"{p:.6f}") for a, d, p in order], caption=note)


def _compare_modes(both, stop_at: int, goal: int, rules: DiceRules, augments: dict, as_json: bool) -> None:
    """``odds --compare-modes``: true random and Balanced Blitz side by side (summaries, no end states)."""
    true_random, blitz = both
    if as_json:
        _, lose_means = _short_of_aim(stop_at, goal)
        _print_json({"attackers": true_random.attackers, "defenders": true_random.defenders, "stop_at": stop_at,
                     "goal": goal, "cautious": true_random.cautious, "rules": _rules_dict(rules), "augments": augments,
                     "mode": "compare", "convention": CONVENTION, "p_lose_means": lose_means,
                     "modes": [_mode_summary(r, goal) for r in both]})
        return
    rows = [(label, a, b) for (label, a), (_, b) in zip(_summary_rows(true_random, goal, stop_at),
                                                       _summary_rows(blitz, goal, stop_at))]
    shift = float(blitz.p_goal) - float(true_random.p_goal)
    rows.append(("Balanced Blitz - true random", "", f"{100 * shift:+.2f} points"))
    typer.echo("mode: true random and Balanced Blitz, side by side")
    _print_table(f"{true_random.attackers} attackers vs {true_random.defenders} defenders",
                 ["", "true random", "Balanced Blitz"], rows,
                 caption=CONVENTION + _augments_note(augments))


@with_rules
def table(
    attackers: Annotated[int, typer.Option("--attackers", parser=whole_number, help="Largest number of attackers.")],
    defenders: Annotated[int, typer.Option("--defenders", parser=whole_number, help="Largest number of defenders.")],
    output_format: Annotated[str, typer.Option("--format", help="text, csv or json.")] = "text",
    stop_at: StopAt = 0,
    goal: Goal = 0,
    balanced_blitz: BalancedBlitz = False,
    as_json: JsonFlag = False,
    *,
    rules: DiceRules,
    augments: dict,
):
    """P(win) for every battle from 1..N attackers against 1..M defenders (true random, or Balanced Blitz).

    The text table's title names the mode; with --balanced-blitz CSV and JSON gain a "mode" column."""
    from riskstats.odds.battle import win_table

    if output_format not in ("text", "csv", "json"):
        raise RiskstatsError(f"--format must be text, csv or json, got {output_format!r}")
    if as_json and output_format not in ("text", "json"):
        raise RiskstatsError(f"give --json or --format {output_format}, not both")
    output_format = "json" if as_json else output_format
    _check_states("table", attackers, defenders, MAX_TABLE_ROWS, "rows", "1,000 a side")
    with _compile_notice(attackers > 0 and defenders > 0 and _uses_kernels(attackers, defenders)):
        frame = win_table(attackers, defenders, rules, stop_at=stop_at, goal=goal,
                          balance=balance_of(balanced_blitz))
    mode = mode_payload(balance_of(balanced_blitz))["mode"]
    if output_format != "text" and balanced_blitz:  # true random output stays as it always was
        frame = frame.assign(mode=mode)
    if output_format == "csv":
        typer.echo(frame.to_csv(index=False), nl=False)
    elif output_format == "json":
        typer.echo(frame.to_json(orient="records"))
    else:
        column = frame.columns[-1]
        grid = frame.pivot(index="attackers", columns="defenders", values=column)
        rows = [[a, *(f"{p:.3f}" for p in values)] for a, values in zip(grid.index, grid.to_numpy())]
        _print_mode(balance_of(balanced_blitz))
        _print_table(f"{column} by attackers (rows) and defenders (columns)",
                     ["A \\ D", *map(str, grid.columns)], rows, caption=CONVENTION + _augments_note(augments))


@with_rules
def chain(
    attackers: Attackers,
    defenders: DefenderList,
    leave: Leave = 1,
    stop_at: StopAt = 0,
    exact: Exact = False,
    territory_armies: TerritoryArmies = False,
    balanced_blitz: BalancedBlitz = False,
    as_json: JsonFlag = False,
    summary_only: Annotated[bool, typer.Option(
        "--summary", help="Show only the summary, P(all conquered) and the armies left, no row per territory "
                          "(JSON: no p_at_least list).")] = False,
    *,
    rules: DiceRules,
    augments: dict,
):
    """Exact odds of conquering a chain of territories in order (each battle true random, or Balanced Blitz)."""
    from riskstats.odds.chain import chain_odds

    balance = balance_of(balanced_blitz, exact)
    attackers = _attackers(attackers, territory_armies)
    total = sum(max(d, 0) for d in defenders)
    _check_states("chain", attackers, total)
    if balance is not None:
        _check_balanced_chain(attackers, defenders)
    with _compile_notice(_uses_kernels(attackers, total, exact)):
        result = chain_odds(attackers, defenders, rules, leave=leave, stop_at=stop_at, exact=exact, balance=balance)
    payload = {
        "attackers": result.attackers,
        "defenders": list(result.defenders),
        "leave": leave,
        "rules": _rules_dict(rules),
        "augments": augments,
        **mode_payload(balance),
        "convention": CONVENTION,
        "p_all": _number(result.p_all),
        "p_at_least": [_number(p) for p in result.p_at_least],
        "expected_armies_left": _number(result.expected_armies_left),
        "expected_armies_left_means": ARMIES_LEFT,
    }
    if summary_only:
        del payload["p_at_least"]
    if as_json:
        _print_json(payload)
        return
    _print_mode(balance)
    title = f"Chain from {result.attackers} attackers, leaving {leave} per territory"
    if summary_only:
        _print_table(title, ["", "value"], [(f"P(all {len(result.defenders)} conquered)", _percent(result.p_all))],
                     caption=CONVENTION + _augments_note(augments))
    else:
        rows = [(k, d, _percent(p)) for k, (d, p) in enumerate(zip(result.defenders, result.p_at_least), 1)]
        _print_table(title, ["k", "defenders", "P(at least k conquered)"], rows,
                     caption=CONVENTION + _augments_note(augments))
    typer.echo(f"Expected armies left {float(result.expected_armies_left):.3f}: {ARMIES_LEFT}.")


@with_rules
def need(
    defenders: DefenderList,
    p: Annotated[float, typer.Option("--p", parser=real_number, help="Wanted P(conquering all), in (0, 1].")],
    leave: Leave = 1,
    balanced_blitz: BalancedBlitz = False,
    as_json: JsonFlag = False,
    *,
    rules: DiceRules,
    augments: dict,
):
    """The smallest number of attackers that wins with probability at least P (true random, or Balanced Blitz)."""
    from riskstats.odds.chain import attackers_needed

    balance = balance_of(balanced_blitz)
    total = sum(max(d, 0) for d in defenders)
    if total > MAX_NEED_DEFENDERS:
        raise RiskstatsError(f"need: {total:,} defenders in all, over the command line's limit of "
                             f"{MAX_NEED_DEFENDERS:,} (a few seconds); call riskstats.attackers_needed from "
                             "Python for more")
    if balance is not None and len(defenders) > 1 and (total > MAX_NEED_BALANCED_CHAIN
                                                        or len(defenders) > MAX_NEED_BALANCED_TERRITORIES):
        raise RiskstatsError(
            f"need --balanced-blitz: a chain of {len(defenders):,} territories and {total:,} defenders, over the "
            f"command line's limits of {MAX_NEED_BALANCED_TERRITORIES} territories and {MAX_NEED_BALANCED_CHAIN:,} "
            "defenders for balanced chains (each battle is balanced for every force that may start it); call "
            "riskstats.attackers_needed from Python for more")
    with _compile_notice():
        result = attackers_needed(defenders, p, rules, leave=leave, balance=balance)
    payload = {"defenders": defenders, "p": p, "attackers": result.attackers,
               "territory_armies": result.attackers + 1, "p_win": result.p_win, "rules": _rules_dict(rules),
               "augments": augments, **mode_payload(balance), "convention": CONVENTION}
    if as_json:
        _print_json(payload)
        return
    _print_mode(balance)
    _print_table(f"Attackers needed for P >= {p} against {' then '.join(map(str, defenders))}",
                 ["attackers", "armies on territory", "P(win)"],
                 [(result.attackers, result.attackers + 1, _percent(result.p_win))],
                 caption=CONVENTION + _augments_note(augments))


def _policy_grid(table, territory: int, defenders: int) -> None:
    """Print one territory's policy as a grid: attackers down, defenders across; dice rolled, or "-" to stop."""
    rows = table[table.territory == territory]
    cells = {(a, d): (str(n) if act == "attack" else "-")
             for a, d, act, n in zip(rows.attackers, rows.defenders, rows.action, rows.dice)}
    attackers = sorted(set(rows.attackers))
    _print_table(f"Policy, territory {territory}: dice to roll (- = stop)",
                 ["a \\ d", *map(str, range(1, defenders + 1))],
                 [(a, *(cells[a, d] for d in range(1, defenders + 1))) for a in attackers])


@with_rules
def policy_(
    attackers: Attackers,
    defenders: DefenderList,
    value: Annotated[list[float], typer.Option(
        "--value", parser=real_number,
        help="Worth of a conquest, in armies: once for every territory, or once per territory; negative for a "
             "conquest that costs more than it brings.")],
    cost: Annotated[float, typer.Option(parser=real_number, help="Payoff lost per attacking army lost.")] = 1.0,
    survivor_value: Annotated[float, typer.Option(
        parser=real_number, help="Payoff per attacking army alive at the end.")] = 0.0,
    kill_value: Annotated[float, typer.Option(
        parser=real_number, help="Payoff per defending army destroyed.")] = 0.0,
    defender: Annotated[str, typer.Option(
        help="best: the defender picks its dice knowing how many the attacker rolls (minimax); after_roll: "
             "knowing the attacker's faces; max: always its most.")] = "best",
    leave: Leave = 1,
    exact: Exact = False,
    territory_armies: TerritoryArmies = False,
    as_json: JsonFlag = False,
    *,
    rules: DiceRules,
):
    """The optimal way to attack: when to stop and how many dice, beside fixed stop rules."""
    from riskstats.odds.policy import chain_policy

    values = value[0] if len(value) == 1 else value
    result = chain_policy(_attackers(attackers, territory_armies), defenders, values, rules, leave=leave,
                          cost=cost, survivor_value=survivor_value, kill_value=kill_value, defender=defender,
                          exact=exact)
    table = result.table
    summary = result.summary
    payload = {
        "attackers": result.attackers,
        "defenders": list(result.defenders),
        "value": [_number(v) for v in result.values_per_territory],
        "cost": _number(result.cost),
        "survivor_value": _number(result.survivor_value),
        "kill_value": _number(result.kill_value),
        "defender": defender,
        "leave": leave,
        "rules": _rules_dict(rules),
        "convention": CONVENTION,
        "expected_value": _number(result.expected_value),
        "p_win": _number(result.p_win),
        "baseline": {name: _number(v) for name, v in result.baseline.items()},
        "best_baseline": result.best_baseline,
        "value_of_choice": _number(result.value_of_choice),
        "policy": [{"territory": int(k), "attackers": int(a), "defenders": int(d), "action": act, "dice": int(n),
                    "defender_dice": int(m), "p_defender_fewer": _number(q)}
                   for k, a, d, act, n, m, q in zip(table.territory, table.attackers, table.defenders, table.action,
                                                    table.dice, table.defender_dice, table.p_defender_fewer)],
    }
    if as_json:
        _print_json(payload)
        return
    shown = [name for name in summary.index if not name.startswith("stop_at_")]
    shown.insert(2, max((n for n in summary.index if n.startswith("stop_at_")),
                        key=lambda n: summary.expected_value[n], default="attack_to_end"))
    _print_table(f"{result.attackers} attackers vs {' then '.join(map(str, result.defenders))} defenders",
                 ["policy", "expected value", "P(win)", "attacker losses", "defender losses"],
                 [(name, f"{float(summary.expected_value[name]):.4f}", _percent(summary.p_win[name]),
                   f"{float(summary.expected_attacker_losses[name]):.3f}",
                   f"{float(summary.expected_defender_losses[name]):.3f}") for name in dict.fromkeys(shown)],
                 caption=f"value of the choice {float(result.value_of_choice):.4f} over {result.best_baseline}; "
                         f"{CONVENTION}")
    for k, d in enumerate(result.defenders, 1):
        _policy_grid(table, k, d)


_SIMULATE_EXACT_STATES = 10**7
"""Largest attackers x defenders for which ``simulate`` also prints the exact value."""


@with_rules
def simulate(
    attackers: Attackers,
    defenders: Defenders,
    trials: Annotated[str, typer.Option(help="Battles to simulate: a positive whole number, 1e6 style allowed.")]
    = "1000000",
    seed: Annotated[int | None, typer.Option(
        parser=whole_number, help="Seed of the random streams (default: fresh, and printed).")] = None,
    stop_at: StopAt = 0,
    cautious: Cautious = False,
    goal: Goal = 0,
    territory_armies: TerritoryArmies = False,
    balanced_blitz: BalancedBlitz = False,
    as_json: JsonFlag = False,
    *,
    rules: DiceRules,
    augments: dict,
):
    """Monte Carlo estimate of one battle, with a 95% Wilson interval beside the exact value.

    With --balanced-blitz each battle is drawn whole from the Balanced Blitz distribution, as the app does."""
    from riskstats.odds.battle import battle_odds
    from riskstats.odds.simulate import simulate_battles

    count = _positive_count("--trials", trials)
    balance = balance_of(balanced_blitz)
    attackers = _attackers(attackers, territory_armies)
    kept = "none kept (the estimate needs them all); fewer --trials finish sooner"
    with (_interruptible("battles", kept) as noting, _compile_notice(),
          _LateProgress("simulating", not as_json and sys.stdout.isatty()) as bar):
        sample = simulate_battles(attackers, defenders, rules, trials=count, seed=seed, stop_at=stop_at,
                                  goal=goal, cautious=cautious, progress=noting(bar), balance=balance)
    exact = None
    if attackers * defenders <= _SIMULATE_EXACT_STATES:
        exact = battle_odds(attackers, defenders, rules, stop_at=stop_at, goal=goal, cautious=cautious,
                            balance=balance)
    low, high = sample.p_win_interval()
    frame = sample.outcomes
    payload = {
        "trials": sample.trials,
        "seed": sample.seed,
        **mode_payload(balance),
        "augments": augments,
        "p_win": sample.p_win,
        "ci_low": low,
        "ci_high": high,
        "p_win_exact": None if exact is None else float(exact.p_win),
        **({} if exact is not None else {"exact_note": _skipped_exact(attackers, defenders)}),
        **({"p_goal": sample.p_goal,
            "p_goal_exact": None if exact is None else float(exact.p_goal)} if goal else {}),
        "battles_per_second": sample.battles_per_second,
        "outcomes": [{"attackers_left": int(a), "defenders_left": int(d), "p": float(p)}
                     for (a, d), p in frame.p.items()],
    }
    if as_json:
        _print_json(payload)
        return
    exact_p = exact.outcomes.p if exact is not None else None
    summary = [("P(win) simulated", _percent(sample.p_win)),
               ("95% interval (Wilson)", f"{_percent(low)} to {_percent(high)}"),
               ("P(win) exact", _skipped_exact(attackers, defenders) if exact is None else _percent(exact.p_win))]
    if goal:
        summary.append((f"P(defenders <= {goal}) simulated", _percent(sample.p_goal)))
    summary.append(("battles per second", f"{sample.battles_per_second:,.0f}"))
    title = f"{attackers} attackers vs {defenders} defenders: {sample.trials:,} battles, seed {sample.seed}"
    _print_mode(balance)
    _print_table(title, ["", "value"], summary, caption=CONVENTION + _augments_note(augments))
    _print_table("End states", ["attackers left", "defenders left", "simulated p", "exact p"],
                 [(a, d, f"{p:.6f}", "-" if exact_p is None else f"{exact_p.get((a, d), 0.0):.6f}")
                  for (a, d), p in frame.p.items()])


def _skipped_exact(attackers: int, defenders: int) -> str:
    return (f"not computed: {attackers:,} x {defenders:,} states, over {_SIMULATE_EXACT_STATES:,}; "
            "see riskstats odds")
