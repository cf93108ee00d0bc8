"""The commands over the notebooks' questions, a skin over `riskstats.analysis`: continents, cards."""
from typing import Annotated

import typer

from riskstats.cli.common import (
    JsonFlag,
    _compile_notice,
    _number,
    _print_json,
    _print_table,
    real_number,
    whole_number,
)
from riskstats.errors import RiskstatsError


def continents(
    defenders: Annotated[int, typer.Option(parser=whole_number, help="Armies on each territory attacked.")] = 3,
    p: Annotated[float, typer.Option("--p", parser=real_number, help="Wanted P(taking the whole continent).")]
    = 0.8,
    as_json: JsonFlag = False,
):
    """What each continent is worth: bonus per border, and the exact cost of taking it."""
    from riskstats.analysis.continents import continent_cost, continent_facts

    if not 0 < p < 1:
        raise RiskstatsError(f"p must lie in (0, 1), got {p}")
    with _compile_notice():
        frame = continent_facts().merge(continent_cost(defenders=defenders, p=p),
                                        on=["continent", "bonus", "territories"])
    if as_json:
        _print_json({"defenders": defenders, "p": p, "continents": frame.to_dict("records")})
        return
    _print_table(f"Continents: {defenders} defenders per territory, a force sized for P(all) >= {p}",
                 ["continent", "bonus", "terri-\ntories", "borders", "entries", "bonus/\nborder", "attackers",
                  "expected\nlosses", "payback\nturns"],
                 [(r.continent, r.bonus, r.territories, r.borders, r.entries, f"{r.bonus_per_border:.2f}",
                   r.attackers_needed, f"{r.expected_losses:.1f}", f"{r.payback_turns:.1f}")
                  for r in frame.itertuples()], compact=True,
                 caption="borders: its territories next to another continent; entries: territories outside it "
                         f"next to it, where attacks come from; attackers: the force (armies able to roll; one more "
                         f"stays behind) that takes every territory with P >= {p}; expected losses: armies that "
                         "force loses on average; "
                         "payback turns: expected losses / bonus, the turns of holding it that earn them back")


def cards(
    max_cards: Annotated[int, typer.Option(parser=whole_number, help="Largest hand.")] = 6,
    as_json: JsonFlag = False,
):
    """The exact chance that a hand drawn from the classic deck holds a valid set."""
    from riskstats.analysis.cards import board_deck, set_odds

    deck = board_deck()
    frame = set_odds(deck, max_cards)
    rows = [{"cards": int(r.cards), "p_set": r.p_set, "fraction": _number(r.fraction)} for r in frame.itertuples()]
    if as_json:
        _print_json({"deck": deck, "odds": rows})
        return
    _print_table("P(a hand holds a valid set), classic 44-card deck", ["cards", "fraction", "p"],
                 [(r["cards"], r["fraction"], f"{r['p_set']:.6f}") for r in rows])
