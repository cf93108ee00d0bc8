"""The bot catalogue: each built-in bot's name, compiled id, description and declared parameters, and the
``name:key=value`` syntax that names a bot with parameters.

This module owns what a bot is from the outside: `CATALOG` (name -> `BotInfo`), the tuned bots (a
registry entry is a base bot plus parameter values, `TUNED`), and `parse_bot`, the one function every
entry point (``--bots``, experiment files, `riskstats.runs.selfplay.play_games`,
`riskstats.game.play.Game`) uses to read a bot spec and check its parameters. The policies themselves are
`riskstats.game.bots`' compiled kernels, which read the parameters through the named slots declared here
(`slot`), never by a bare position.

A bot spec is a name, optionally followed by ``:key=value`` pieces, e.g.
``continent:threshold=0.6:card_threshold=0.8``; a line-up is comma-separated specs, seated in order and
repeated to fill the seats, never more bots than seats (`seat_entries`, every line-up's seating). Parameters
not given keep their defaults. A spec's label (how results name the bot) lists the given values in the
declared order, so equal specs get equal labels.

>>> spec = parse_bot("continent:card_threshold=0.8:threshold=0.60")
>>> spec.label, spec.values[:5]
('continent:threshold=0.6:card_threshold=0.8', (0.6, 0.8, 2.0, -1.0, 3.0))
>>> parse_bot("continent:treshold=0.6")
Traceback (most recent call last):
...
riskstats.errors.RiskstatsError: unknown parameter 'treshold' of bot 'continent'; its parameters: threshold, ...
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from riskstats.errors import RiskstatsError
from riskstats.game.bots.solved_attack import FRONTIER_DEFENDERS

FRONTIER_AT = 24
"""Where a bot's parameter vector holds the solved attack policy's frontier (after the declared parameters,
the hunter's 21 the most, so a bot may declare 24; filled only for a spec with ``attack=solved``, see
`riskstats.game.bots.solved_attack`). It was 9 before the placement parameters (``fortify``, ``reinforce``,
``claim``) were appended, 12 before the look-ahead bots' treatment parameters (issue 29), 16 before the hunter's
treatment parameters (issue 52); the frontier is never stored, so no record depends on it."""
N_PARAMS = FRONTIER_AT + FRONTIER_DEFENDERS
"""Length of the parameter vector handed to every compiled bot (a bot reads its first few, and the continent
bot with ``attack=solved`` the frontier)."""


OWN_CHOICE = "own"
"""A continent parameter's -1 (no continent forced: the bot's own choice) by name, as reports write it
(``first=own``, `value_text`) and a spec may (``continent:first=own``)."""


class Param(NamedTuple):
    """One declared bot parameter: its default, the closed range of valid values, and what it does."""

    name: str
    default: float
    low: float
    high: float
    meaning: str
    integer: bool = False
    tunable: bool = True
    """False for a parameter that sets up an experiment's treatment rather than a strategy to tune."""
    names: str = ""
    """"continents": the value is a continent's number, and may be given by its name (the classic board's
    order and ``name_aliases``: ``first=Australia`` is ``first=5``); -1, no continent (the bot's own choice),
    may be written `OWN_CHOICE` (``first=own``)."""
    choices: tuple[str, ...] = ()
    """Names of the values 0, 1, ... of a parameter that picks one of a few options (a spec may name the
    option, ``value=model``, or give its number); empty for a numeric parameter."""
    digits: int = 0
    """Not 0 for a parameter whose value lists items by number, one decimal digit each (1..digits, none
    twice; 0 alone: the default list), such as the value bot's plan ``order``."""


@dataclass(frozen=True)
class BotInfo:
    """A bot of the catalogue: the compiled policy ``id`` plays it with ``params`` (in kernel order).

    ``base`` is the built-in bot a tuned bot plays (its ``params`` defaults are the tuned values);
    empty for a built-in bot.
    """

    id: int
    description: str
    params: tuple[Param, ...]
    base: str = ""

    @property
    def defaults(self) -> tuple[float, ...]:
        return tuple(p.default for p in self.params)


_THRESHOLD = "attacks while the best attack's exact P(conquer) is at least this"
_CARD = "otherwise attacks once a turn, for a card, when P(conquer) is at least this"


def _trade_at(default: float) -> Param:
    """The card-timing parameter of the bots that trade (appended last, so shorter vectors keep working)."""
    return Param("trade_at", default, 3.0, 6.0, "trades a set once it holds at least this many cards, and "
                 "whenever the rules force a trade: 3 = as soon as it holds a set; with the default rules (a "
                 "trade forced at 5 cards) 5 or 6 = only when forced", integer=True)

STYLE = ("fortify", "reinforce", "claim")
"""The placement parameters (issue 19 §4), appended in this order, last, to the aggressive, continent,
defensive and value bots; each one's 0 is the bot's old behaviour."""


def _style(whose: str = "") -> tuple[Param, ...]:
    """The placement parameters: how a bot fortifies, reinforces and claims (0: as before they existed).
    ``whose`` = "plans": the value bot's, imposed on every plan it compares and plays and on its setup; "hunter":
    0 is the hunter's own rule."""
    every = {"plans": " (imposed on every plan, in the search and in play, and on its setup; border, stack and "
                      "greedy are what every plan does anyway)",
             "hunter": " (border, stack and greedy: the hunter's own rules, described above; spread and none "
                       "replace them, kills and routes included)"}.get(whose, "")
    return (
        Param("fortify", 0.0, 0.0, 2.0, "how it fortifies at the end of a turn: border (its largest interior stack "
              "to the most threatened border territory it can reach), spread (evens out the borders: its "
              "largest interior stack to the reachable border territory with the fewest armies, or, with no "
              "interior stack, half the lead of its largest border stack over that territory) or none (never)"
              + every, integer=True, tunable=False, choices=("border", "spread", "none")),
        Param("reinforce", 0.0, 0.0, 1.0, "where it places armies (setup and reinforcement): stack (all on the "
              "territory its play picks) or spread (one army at a time on its most threatened territory, enemy "
              "armies next to it minus its own, so that the reserve evens out over the threatened borders)"
              + every, integer=True, tunable=False, choices=("stack", "spread")),
        Param("claim", 0.0, 0.0, 1.0, "how it claims territories in a claiming setup: greedy (its own claim "
              "rule) or random (uniform over the unclaimed territories)" + every, integer=True, tunable=False,
              choices=("greedy", "random")))


HUNTER_SWEEPS = ("path", "kills", "all")
"""The hunter's ``sweep`` choices; the kernels compare with `SWEEP_PATH`, `SWEEP_KILLS`, `SWEEP_ALL`."""
SWEEP_PATH, SWEEP_KILLS, SWEEP_ALL = range(len(HUNTER_SWEEPS))
HUNTER_SETUPS = ("spread", "planted", "auto", "duel")
"""The hunter's ``setup`` choices; the kernels compare with `SETUP_SPREAD`, `SETUP_PLANTED`, `SETUP_AUTO`,
`SETUP_DUEL`."""
SETUP_SPREAD, SETUP_PLANTED, SETUP_AUTO, SETUP_DUEL = range(len(HUNTER_SETUPS))
SEARCH_BASES = ("continent-tuned", "hunter")
"""What the search bot's plans are made of (its ``base``; `riskstats.game.search.BASES` in this order)."""
OPPONENTS = ("policy", "actual", "proxy")
"""How a look-ahead bot's rollouts play the other seats (its ``opponents`` parameter, in this order): every one
as continent-tuned (policy, the old behaviour); each as the bot it is in the line-up, a look-ahead seat as
continent-tuned (actual); or as actual, a look-ahead seat playing the plan it chose at its last turn (proxy)."""


def _first_param() -> Param:
    """The look-ahead bots' ``first`` (the search and value bots read it the same way)."""
    return Param("first", -1.0, -1.0, 63.0, "forces its plan to continent-tuned going for continent number first "
                 "(continent's first) on every turn until it first holds that continent, then searches as usual; "
                 "-1 or own: never (its own choice); a number the board lacks is ignored; or the continent's name",
                 integer=True,
                 tunable=False, names="continents")


def _plans_trade_at() -> Param:
    """The look-ahead bots' ``trade_at``: one card timing imposed on every plan."""
    return Param("trade_at", 0.0, 0.0, 6.0, "card timing: 0 = each plan's own (trade_at 3, the defensive plan 5); "
                 "3-6 = every plan, in the search and in play, trades a set once it holds this many cards and "
                 "whenever forced (1 and 2 act as 3)", integer=True, tunable=False)


def _draft() -> Param:
    """The look-ahead bots' ``draft`` parameter (issue 29), appended last so older vectors keep working."""
    return Param("draft", 0.0, 0.0, 1.0, "with first: 1 also claims the first continent's territories first in a "
                 "claiming setup and places its setup armies toward it (its setup policy, continent-tuned, going "
                 "for first: the continent bot's first does the same), so that a forced first target means one "
                 "treatment in every population; 0: sets up as plain continent-tuned", integer=True,
                 tunable=False)


def _opponents() -> Param:
    """The look-ahead bots' ``opponents`` parameter (`OPPONENTS`), appended last so older vectors keep working."""
    return Param("opponents", 0.0, 0.0, 2.0, "how its rollouts play the other seats: policy (every one as "
                 "continent-tuned), actual (each as the bot it is: the line-up is public; a search or value seat, "
                 "which cannot look ahead inside a rollout, as continent-tuned) or proxy (as actual, but a search "
                 "or value seat plays the plan it chose at its last turn); hidden cards and missions stay redrawn",
                 integer=True, tunable=False, choices=OPPONENTS)


BUILT_IN = {
    "random": BotInfo(0, (
        "Not uniform over the legal moves (that is uniform): a weak heuristic that draws at random among "
        "sensible options. It attacks only where its attackers are at least as many as the defenders, always "
        "with the most dice, puts its whole reinforcement on one border territory and moves every army it can "
        "forward after a conquest. Each decision is uniform over those options: claims and setup placements "
        "(a uniform territory, a uniform count up to the quota), capital "
        "picks, trades (uniform over the valid sets, plus passing when allowed), reinforcement (the whole "
        "reserve on one territory uniform over its border territories), attacks (uniform over the (from, to) "
        "pairs where the attackers, armies able to roll, are at least as many as the defenders, with the most "
        "dice), and fortification (with probability p_fortify: a source uniform over the territories that can "
        "fortify, a destination uniform over those it can reach, a count uniform over 1..armies-1). It attacks "
        "until no such favourable attack is left, or, before each attack, stops with probability p_stop; after "
        "a conquest it moves every army it can forward."),
        (Param("p_stop", 0.0, 0.0, 1.0, "chance of ending the attack phase before each attack"),
         Param("p_fortify", 0.5, 0.0, 1.0, "chance of fortifying at the end of a turn"))),
    "aggressive": BotInfo(1, (
        "Trades whenever it can (trade_at), piles its armies on the border territory with the weakest enemy "
        "neighbour, and keeps attacking while the best attack's exact probability of conquering (the "
        "win_values table) is at least threshold; after a conquest it moves everything forward unless the "
        "old territory still faces enemies (then half). Fortifies the largest interior stack toward the "
        "most threatened border."),
        (Param("threshold", 0.5, 0.0, 1.0, _THRESHOLD), _trade_at(3.0), *_style())),
    "continent": BotInfo(2, (
        "Picks the cheapest continent to take and hold: bonus / (1 + enemy armies in it + entrance_weight "
        "x its entrances). Reinforces its strongest territory touching enemy land in that continent, "
        "attacks into it while P(conquer) >= threshold, otherwise takes one territory a turn for a card "
        "when P >= card_threshold. Once its continents are held it reinforces and fortifies their most "
        "threatened borders."),
        (Param("threshold", 0.5, 0.0, 1.0, "attacks into its target continent while P(conquer) is at least this"),
         Param("card_threshold", 0.75, 0.0, 1.0, _CARD),
         Param("entrance_weight", 2.0, 0.0, 10.0, "cost of each entrance of a continent, in enemy armies"),
         Param("first", -1.0, -1.0, 63.0, "forces the target to continent number first (the board's continent "
               "order; Classic: 5 Australia, 1 South America) until it first holds it, and claims its territories "
               "first in a claiming setup; from then on it chooses as usual, also after losing it; -1 or own: never "
               "(its own choice); a number the board lacks is ignored; or the continent's name, first=Australia",
               integer=True, tunable=False, names="continents"),
         _trade_at(3.0),
         Param("attack", 0.0, 0.0, 1.0, "how it decides to roll again: rule (P(conquer) at least threshold in "
               "its target continent, card_threshold for a card) or solved (riskstats.policy's optimal stop rule "
               "for a conquest worth `value` armies and each defender destroyed worth `kill`, against a defender "
               "rolling its most dice; the same best attack is picked either way)", integer=True,
               tunable=False, choices=("rule", "solved")),
         Param("value", 4.0, 0.0, 50.0, "attack=solved: what a conquest is worth, in armies", tunable=False),
         Param("kill", 1.0, 0.0, 1.0, "attack=solved: what each defending army destroyed is worth, in armies "
               "(1: zero-sum, as in a duel)", tunable=False),
         Param("again", 0.0, 0.0, 1.0, "1: first is forced again whenever it does not hold it, and claims are "
               "greedy (the search bot's one-turn plans); 0: only until it first holds it", integer=True,
               tunable=False), *_style())),
    "defensive": BotInfo(3, (
        "Trades cards only when forced (trade_at); puts every army on its most threatened border (enemy armies next "
        "to it minus its own); attacks when P(conquer) >= threshold, at most max_conquests times a turn "
        "(one is enough for a card), and beyond that only when P >= sure_threshold; moves in the minimum "
        "after a conquest. Fortifies interior armies to the most threatened border."),
        (Param("threshold", 0.8, 0.0, 1.0, "attacks, up to max_conquests a turn, when P(conquer) is at least this"),
         Param("max_conquests", 1.0, 0.0, 50.0, "conquests a turn made at threshold", integer=True),
         Param("sure_threshold", 0.97, 0.0, 1.0, "attacks beyond max_conquests when P(conquer) is at least this"),
         _trade_at(5.0), *_style())),
    "mission": BotInfo(4, (
        "Secret Mission: reads its own mission card (never another seat's) and marks goal territories: the "
        "missing territories of its two continents (and of the cheapest third one when 'any third continent' "
        "is asked), the target colour's territories for 'destroy', any enemy land for 'territories'. "
        "Reinforces its border territory nearest a goal, attacks along the way while P(conquer) >= threshold, "
        "else once for a card when P >= card_threshold; for '18 territories with 2 armies' it keeps 2 armies "
        "behind and, once it holds enough land, tops up thin territories. Other phases as aggressive."),
        (Param("threshold", 0.5, 0.0, 1.0, "attacks toward its goal while P(conquer) is at least this"),
         Param("card_threshold", 0.75, 0.0, 1.0, _CARD), _trade_at(3.0))),
    "capital": BotInfo(5, (
        "Capital Risk: picks the safest own territory (interior first, most armies minus enemy armies next to "
        "it) as capital; its goals are the enemy capitals it does not hold and its own if lost. When enemy "
        "armies next to its capital x guard reach the capital's armies it reinforces and fortifies the "
        "capital, and it never attacks out of the capital below that many armies. Otherwise plays like "
        "mission toward its goals; in a game without capitals (Classic, two-player) its goal is the "
        "opponents' land (not the neutral's)."),
        (Param("threshold", 0.5, 0.0, 1.0, "attacks toward a capital while P(conquer) is at least this"),
         Param("card_threshold", 0.75, 0.0, 1.0, _CARD),
         Param("guard", 1.0, 0.0, 5.0, "weight of the enemy armies next to its capital when guarding it"),
         _trade_at(3.0))),
    "search": BotInfo(6, (
        "Looks ahead with the compiled engine (riskstats.game.search): at the start of each of its turns it "
        "compares the first `plans` candidate plans (continent-tuned, continent-tuned going for Australia or "
        "South America, aggressive, defensive, then continent-tuned going for Africa, North America or "
        "Europe) by `rollouts` rollouts each: the rest of the turn with the plan, then `horizon` more "
        "rounds of continent-tuned in every seat (with `opponents`, the other seats as the bots they are), "
        "scored 1/0 if the game ended, else by its share of "
        "strength (armies, income, cards), or with value=model by the fitted position value (value=strong: "
        "the one refitted with search self-play added). The same "
        "rollout seeds serve every plan, and a rollout redraws what the bot cannot see (the draw pile, "
        "other hands, other missions, the dice). It plays the "
        "turn with the best plan; setup as continent-tuned; defends with the most dice."),
        (Param("rollouts", 8.0, 1.0, 1000.0, "rollouts per plan at each turn's start", integer=True,
               tunable=False),
         Param("horizon", 1.0, 0.0, 20.0, "rounds played after the searched turn in each rollout", integer=True,
               tunable=False),
         Param("plans", 6.0, 1.0, 8.0, "how many of the candidate plans to compare (the first ones)",
               integer=True, tunable=False),
         Param("value", 0.0, 0.0, 3.0, "the rollouts' leaf value: formula (the share of strength squared), "
               "model (the fitted position value, riskstats.game.value), strong (that value refitted with "
               "search self-play added) or boosted (gradient-boosted trees fitted on every phase of heuristic, "
               "search and value-bot play; riskstats.game.value.MODELS)", integer=True, tunable=False,
               choices=("formula", "model", "strong", "boosted")),
         Param("order", 0.0, 0.0, 98765432.0, "the candidate plans in the order compared, one digit each, as the "
               "value bot's order; 0: the order above (12345678)", integer=True, tunable=False, digits=9),
         _opponents(), _first_param(), _plans_trade_at(), *_style("plans"), _draft(),
         Param("base", 0.0, 0.0, 1.0, "what its plans are made of: continent-tuned (the plans above; continent-tuned "
               "plays its setup and every rollout turn but the plan's) or hunter (riskstats.game.search.HUNTER_PLANS: "
               "the hunter's own choice, hunting, taking Australia, South America, Africa, North America or Europe "
               "this turn, a card only, no attack; the hunter plays its setup and the rollouts' other turns; issue 54)",
               integer=True, tunable=False, choices=SEARCH_BASES))),
    "value": BotInfo(7, (
        "Chooses its turn plan by the fitted position value (riskstats.game.value), with no long rollouts: at "
        "the start of each of its turns it plays the rest of the turn with each of the first `plans` candidate "
        "plans of the search bot (or of its own `order`; with `closer`, the aggressive plan too on the turns "
        "where the model says it is ahead), over `rollouts` determinised rollouts each (what it cannot see "
        "redrawn; the same seeds for every plan), and scores each end-of-turn position (or, with `horizon`, the "
        "position `horizon` rounds later, the other seats played as `opponents` says) by the model's P(win). It plays "
        "the turn with the best plan; setup as continent-tuned; defends with the most dice."),
        (Param("rollouts", 1.0, 1.0, 1000.0, "determinised rollouts of the rest of the turn per plan",
               integer=True, tunable=False),
         Param("plans", 4.0, 1.0, 8.0, "how many of the search bot's candidate plans to compare (the first ones: "
               "continent-tuned, going for Australia or South America, aggressive, ...)", integer=True,
               tunable=False),
         _first_param(),
         Param("order", 0.0, 0.0, 98765432.0, "the candidate plans in the order compared, one digit each (the "
               "1-based numbers of riskstats.game.search.PLAN_LIST: 1 continent-tuned, 2 going for Australia, 3 "
               "South America, 4 aggressive, 5 defensive, 6 Africa, 7 North America, 8 Europe, 9 continent-tuned "
               "attacking at P(conquer) >= 0.35), of which the first `plans` are compared; 0: the search bot's "
               "order (12345678)", integer=True, tunable=False, digits=9),
         Param("closer", 0.0, 0.0, 1.0, "also compares the aggressive plan (when its plans lack it) at the turns "
               "where the model gives it at least this P(win), read with what it cannot see redrawn; 0: never",
               tunable=False),
         _plans_trade_at(), *_style("plans"),
         Param("model", 0.0, 0.0, 2.0, "the fitted position value it scores with: model (fitted on heuristic "
               "play), strong (refitted with search self-play added) or boosted (gradient-boosted trees, "
               "riskstats.game.value.MODELS)", integer=True, tunable=False, choices=("model", "strong", "boosted")),
         Param("horizon", 0.0, 0.0, 20.0, "rounds played after the searched turn in each rollout before the model "
               "scores it (0: the rest of the turn only)", integer=True, tunable=False),
         _opponents(), _draft())),
    "uniform": BotInfo(8, (
        "Uniformly random over every legal move of the engine's move space, the honest random baseline: each "
        "decision is uniform over the legal move tuples of the phase (Game.legal_moves), so a placement is a "
        "(territory, armies) pair, an attack a (from, to, dice) triple, a fortification a (from, to, armies) "
        "triple, and ending the attack or the turn is one tuple among them (it rarely stops attacking while it "
        "can, and nearly always fortifies); it also picks its defence dice, occupations, trades (passing when "
        "allowed) and capital uniformly. No strategy: games between uniform bots seldom end before the turn "
        "cap (they are truncated)."),
        ()),
    "hunter": BotInfo(9, (
        "Plans its attacks with the exact odds of whole chains of conquests (riskstats.game.bots.hunter; issue "
        "38). At each decision it prices a kill of every opponent with at most kill_max territories (of the last "
        "other seat whatever its size, with finish) by the exact chain odds: a sweep from one of its stacks through "
        "all of that seat's territories it reaches (see sweep), perhaps through one other seat's territory first, "
        "its reserve added while reinforcing, the rest swept from its other stacks; it hunts a seat holding cards "
        "when P(kill) >= kill, one without when P(kill) >= kill_plain, placing its reserve at the sweep's start "
        "and splitting its stack after a conquest where the sweep branches. Otherwise it "
        "tops up the borders of the continents it holds "
        "to the largest enemy stack next to them and reinforces the start of its best route into the continent "
        "best to take and hold ((bonus + territories / 3) / entrances ** entrance_weight x its share of the "
        "armies there, squared). It attacks into that continent while the exact P(taking all of it this turn) "
        "is >= threshold, breaks another seat's continent at P(conquer) >= break_threshold, takes one territory "
        "a turn for a card at >= card_threshold and any territory at >= expand (cheap conquests: armies turned "
        "into land and cards, not hoarded). It never rolls with two armies or fewer against as many defenders "
        "or more, unless that is the defender's last territory. After a conquest it moves in all the old "
        "territory's border can spare when a kill or its continent's route goes on from the new one, else "
        "nothing. Its setup (see setup) builds no single stack; it fortifies the largest interior stack toward the "
        "most threatened border. The defaults were chosen against Domination's hard AI (docs/outside.md, tuning "
        "seeds). With hold (three players or more) its target continent is priced by the exact P(taking it "
        "all this turn) and weighed against the enemy armies facing its entrances, its attacks for land and cards "
        "use only what a held continent's border can spare (hold_margin armies beyond the largest enemy stack "
        "next to it) and it fortifies such a border that falls short first."),
        (Param("kill", 0.2, 0.0, 1.0, "hunts a seat holding cards when the exact P(kill this turn) is at least "
               "this"),
         Param("kill_plain", 0.4, 0.0, 1.0, "hunts a seat holding no card when P(kill this turn) is at least this"),
         Param("kill_max", 10.0, 0.0, 42.0, "prices kills of seats with at most this many territories",
               integer=True),
         Param("finish", 1.0, 0.0, 1.0, "1: once one other seat is left (the neutral not counted), prices the "
               "kill that wins the game whatever that seat's territories, up to the whole board", integer=True),
         Param("sweep", 1.0, 0.0, 2.0, "how it prices and plays a route: path (one path of conquests, each next "
               "territory the weakest next to the last, the targets it misses by one attack each), kills (a kill as "
               "a sweep through every territory of the hunted seat's that the stack reaches, one chain, the stack "
               "split after a conquest where the sweep branches) or all (continents too)", integer=True,
               choices=HUNTER_SWEEPS),
         Param("threshold", 0.5, 0.0, 1.0, "attacks into its target continent while the exact P(taking all of it "
               "this turn) by its best route is at least this"),
         Param("break_threshold", 0.65, 0.0, 1.0, "attacks a continent another seat holds when P(conquer) is at "
               "least this"),
         Param("card_threshold", 0.6, 0.0, 1.0, _CARD),
         Param("expand", 0.75, 0.0, 1.0, "beyond those, takes any territory whose P(conquer) is at least this "
               "(cheap conquests; 1: never)"),
         Param("entrance_weight", 2.0, 0.0, 4.0, "the power of a continent's entrances that divides its value "
               "(how much a continent with many entrances is worth less: 0 not at all, 2 by their square)"),
         _trade_at(3.0),
         Param("setup", 2.0, 0.0, 3.0, "how it claims and places its setup armies: spread (greedy claims; armies "
               "one at a time on the thinnest border of its target continent), planted (claims that block a "
               "continent another seat would complete, then plant one claim in each best-paying continent nobody "
               "has claimed in, then grow where its share pays best; armies on the start of its best route into its "
               "target until P(taking it all in one turn) reaches 0.8 or it holds 10, then as spread), auto "
               "(duel with two players and no neutral, spread otherwise) or duel (claiming first, contested "
               "claims: block, complete its own, plant one claim in every continent, then grow where it can still "
               "have the majority; claiming second, planted claims; armies on the start of the best route into each "
               "of the one or two continents where it has half the territories or more, moving first the best by "
               "bonus and size alone, moving second by entrance_weight too, until P(taking it all in one turn) "
               "reaches 0.8 or it holds 10, else as spread)", integer=True,
               choices=HUNTER_SETUPS),
         Param("hold", 1.0, 0.0, 1.0, "1: with three players or more, goes for the continent it can take and hold "
               "(the exact P(taking it all this turn), its reserve added, weighed against the enemy armies next to "
               "its entrances), keeps the borders of the continents it holds manned when it attacks for land or a "
               "card, and fortifies the border of a held continent that falls short first", integer=True),
         Param("hold_margin", 2.0, 0.0, 20.0, "with hold: the armies a border of a continent it holds keeps beyond "
               "the largest enemy stack next to it", integer=True),
         Param("lead", 42.0, -42.0, 42.0, "with three players or more, takes cheap conquests (expand) only while "
               "it holds fewer territories than the other seats' mean plus this (Domination's hard AIs attack the "
               "seats with more territories and fewer armies; 42: no limit)", integer=True),
         Param("duel_expand", -1.0, -1.0, 1.0, "once one other seat is left (the neutral not counted; with two "
               "players, the whole game), takes any territory whose P(conquer) is at least this instead of expand "
               "(-1: as expand)"),
         Param("first", -1.0, -1.0, 63.0, "forces its target continent to continent number first until it first "
               "holds all of it: it reinforces the start of its best route into it and, besides its route rule, "
               "attacks into it while its best attack there has P(conquer) >= threshold; kills, breaks and cheap "
               "conquests go on as usual; from then on it chooses as usual, also after losing it; -1 or own: never "
               "(its own choice); a number the board lacks is ignored; or the continent's name",
               integer=True, tunable=False, names="continents"),
         *_style("hunter"),
         Param("draft", 0.0, 0.0, 1.0, "with first: 1 also claims the first continent's territories first in a "
               "claiming setup and places its setup armies on the start of its best route into it (its planted "
               "setup, whatever setup says), as the continent bot's first and the look-ahead bots' draft do, so that "
               "a forced first target means one treatment in every population; 0: sets up as its own", integer=True,
               tunable=False),
         Param("again", 0.0, 0.0, 1.0, "1: first is its target whenever it does not hold all of it (the look-ahead "
               "bots' one-turn plans, search's base=hunter); 0: only until it first holds it", integer=True,
               tunable=False)),
    ),
}
"""The built-in bots. Bots that don't know about capitals pick the safest own territory as capital and
otherwise play as in Classic; no bot reads another seat's mission or an unrevealed capital pick."""


def slot(bot: str, name: str) -> int:
    """Where built-in bot ``bot`` holds its parameter ``name`` in its vector (the order declared in `BUILT_IN`).
    Compiled kernels read their parameters through the names below, never by a bare position, so inserting
    or reordering a `Param` cannot silently change what a kernel reads (numba freezes them as constants)."""
    return [p.name for p in BUILT_IN[bot].params].index(name)


RANDOM_P_STOP, RANDOM_P_FORTIFY = slot("random", "p_stop"), slot("random", "p_fortify")
AGGRESSIVE_THRESHOLD, AGGRESSIVE_TRADE_AT = slot("aggressive", "threshold"), slot("aggressive", "trade_at")
CONTINENT_THRESHOLD, CONTINENT_CARD_THRESHOLD, CONTINENT_ENTRANCE_WEIGHT, CONTINENT_FIRST, CONTINENT_TRADE_AT, \
    CONTINENT_ATTACK, CONTINENT_AGAIN = (slot("continent", n) for n in (
        "threshold", "card_threshold", "entrance_weight", "first", "trade_at", "attack", "again"))
DEFENSIVE_THRESHOLD, DEFENSIVE_MAX_CONQUESTS, DEFENSIVE_SURE_THRESHOLD, DEFENSIVE_TRADE_AT = (
    slot("defensive", n) for n in ("threshold", "max_conquests", "sure_threshold", "trade_at"))
OBJECTIVE_THRESHOLD, OBJECTIVE_CARD_THRESHOLD = slot("mission", "threshold"), slot("mission", "card_threshold")
"""The two objective bots (mission, capital) share their attack kernel, and so these two slots."""
assert (OBJECTIVE_THRESHOLD, OBJECTIVE_CARD_THRESHOLD) == (slot("capital", "threshold"),
                                                           slot("capital", "card_threshold"))
MISSION_TRADE_AT = slot("mission", "trade_at")
CAPITAL_GUARD, CAPITAL_TRADE_AT = slot("capital", "guard"), slot("capital", "trade_at")
HUNTER_KILL, HUNTER_KILL_PLAIN, HUNTER_KILL_MAX, HUNTER_THRESHOLD, HUNTER_BREAK, HUNTER_CARD, HUNTER_EXPAND, \
    HUNTER_ENTRANCE_WEIGHT, HUNTER_TRADE_AT = (slot("hunter", n) for n in (
        "kill", "kill_plain", "kill_max", "threshold", "break_threshold", "card_threshold", "expand",
        "entrance_weight", "trade_at"))
HUNTER_SETUP, HUNTER_FINISH, HUNTER_SWEEP, HUNTER_HOLD, HUNTER_HOLD_MARGIN, HUNTER_LEAD, HUNTER_DUEL_EXPAND = (
    slot("hunter", n) for n in ("setup", "finish", "sweep", "hold", "hold_margin", "lead", "duel_expand"))
HUNTER_FIRST, HUNTER_STYLE, HUNTER_DRAFT, HUNTER_AGAIN = (slot("hunter", n) for n in ("first", STYLE[0], "draft",
                                                                                       "again"))
"""Where the hunter holds its treatment parameters: ``first``, ``fortify`` (``reinforce`` and ``claim`` follow it,
`STYLE`), ``draft``, and ``again`` (its plans in a look-ahead)."""
SEARCH_ROLLOUTS, SEARCH_HORIZON, SEARCH_PLANS, SEARCH_VALUE, SEARCH_ORDER = (
    slot("search", n) for n in ("rollouts", "horizon", "plans", "value", "order"))
VALUE_ROLLOUTS, VALUE_PLANS, VALUE_HORIZON = slot("value", "rollouts"), slot("value", "plans"), slot("value", "horizon")
SEARCH_OPPONENTS, VALUE_OPPONENTS = slot("search", "opponents"), slot("value", "opponents")
SEARCH_BASE = slot("search", "base")
"""Where the search bot holds what its plans are made of (`SEARCH_BASES`)."""
SEARCH_FIRST, SEARCH_TRADE_AT, SEARCH_STYLE, SEARCH_DRAFT = (slot("search", n) for n in ("first", "trade_at", STYLE[0],
                                                                                      "draft"))
VALUE_FIRST, VALUE_TRADE_AT, VALUE_STYLE, VALUE_DRAFT = (slot("value", n) for n in ("first", "trade_at", STYLE[0],
                                                                                 "draft"))
"""Where the look-ahead bots hold the parameters they impose on their plans and setup (``fortify`` at
``*_STYLE``; ``reinforce`` and ``claim`` follow it)."""
AGGRESSIVE_STYLE, CONTINENT_STYLE, DEFENSIVE_STYLE = (slot(bot, STYLE[0]) for bot in ("aggressive", "continent",
                                                                                      "defensive"))
"""Where those bots' parameter vectors hold ``fortify``; ``reinforce`` and ``claim`` follow it (`STYLE`)."""
RANDOM_ID, AGGRESSIVE_ID, CONTINENT_ID, DEFENSIVE_ID, MISSION_ID, CAPITAL_ID, SEARCH_ID, VALUE_ID, UNIFORM_ID, \
    HUNTER_ID = (BUILT_IN[name].id for name in ("random", "aggressive", "continent", "defensive", "mission", "capital",
                                                "search", "value", "uniform", "hunter"))
"""Each built-in bot's compiled id by name: the dispatch (`riskstats.game.bots.dispatch._bot_move`) and the search
compare ids with these, never with a bare number."""
assert all(len(info.params) <= FRONTIER_AT for info in BUILT_IN.values())

TUNED = {
    "continent-tuned": ("continent", {"threshold": 0.13, "card_threshold": 0.42, "entrance_weight": 0.3}),
    "value-tuned": ("value", {"plans": 5, "order": 12367, "closer": 0.5}),
    "value-wide": ("value", {"plans": 8, "model": 1}),
}
"""Tuned bots: name -> (base bot, tuned parameter values). Each one's tuning record (command, seeds,
games, win rate and interval) is in ``data/tuned_bots/tuned_bots.json``."""


def _tuned(base: str, values: dict) -> BotInfo:
    info = BUILT_IN[base]
    params = tuple(p._replace(default=float(values.get(p.name, p.default))) for p in info.params)
    tuned = ", ".join(f"{k}={v}" for k, v in values.items())
    text = (f"{base} with its parameters tuned for win rate ({tuned}); how they were chosen, the setting and "
            f"the check on fresh seeds are in data/tuned_bots/tuned_bots.json. {info.description}")
    return BotInfo(info.id, text, params, base)


CATALOG = BUILT_IN | {name: _tuned(base, values) for name, (base, values) in TUNED.items()}
"""Every bot a spec may name: the built-in ones, then the tuned ones."""

BOTS = {name: (info.id, info.defaults) for name, info in CATALOG.items()}
"""Bot name -> (id, default parameters)."""


class BotSpec(NamedTuple):
    """A parsed bot spec: ``label`` names it in results, ``name`` is its catalogue entry, ``values``
    its whole parameter vector (declared order) and ``given`` the parameters set explicitly."""

    label: str
    name: str
    id: int
    values: tuple[float, ...]
    given: tuple[str, ...]

    def vector(self) -> np.ndarray:
        """The float64 vector of length `N_PARAMS` a compiled bot reads: its values, then, for a spec with
        ``attack=solved``, the solved policy's frontier from `FRONTIER_AT` on."""
        out = np.zeros(N_PARAMS)
        out[:len(self.values)] = self.values
        names = [p.name for p in CATALOG[self.name].params]
        if "attack" in names and self.values[names.index("attack")] == 1:
            from riskstats.game.bots.solved_attack import frontier

            out[FRONTIER_AT:] = frontier(self.values[names.index("value")], self.values[names.index("kill")])
        return out


def bot_info(name: str) -> BotInfo:
    """The catalogue entry of a bot name (no parameters)."""
    if name not in CATALOG:
        raise RiskstatsError(f"unknown bot {name!r}; choose from {', '.join(CATALOG)}")
    return CATALOG[name]


def check_value(bot: str, param: Param, value) -> float:
    """``value`` as a float if it is valid for ``param`` of ``bot``; else a one-line error naming both."""
    if param.choices and isinstance(value, str) and value.strip() in param.choices:
        return float(param.choices.index(value.strip()))
    if param.choices and isinstance(value, str) and not value.strip().lstrip("-").replace(".", "", 1).isdigit():
        raise RiskstatsError(f"parameter {param.name} of bot {bot!r} must be one of {', '.join(param.choices)}, "
                             f"got {value!r}")
    try:
        number = float(value)
    except (TypeError, ValueError):
        if param.names == "continents" and isinstance(value, str) and value.strip() == OWN_CHOICE:
            return -1.0
        if param.names == "continents" and isinstance(value, str):
            from riskstats.game.rules.board import classic_board

            board = classic_board()
            return float(board.continents.index(board.continent_name(value.strip(),
                                                                     f"(parameter {param.name} of bot {bot!r})")))
        raise RiskstatsError(f"parameter {param.name} of bot {bot!r} must be a number, got {value!r}") from None
    if not param.low <= number <= param.high:
        raise RiskstatsError(f"parameter {param.name}={value} of bot {bot!r} is out of range "
                             f"[{param.low:g}, {param.high:g}]")
    if param.integer and not number.is_integer():
        raise RiskstatsError(f"parameter {param.name} of bot {bot!r} must be a whole number, got {value!r}")
    if param.digits and number != 0:
        listed = str(int(number))
        if "0" in listed or max(listed) > str(param.digits) or len(set(listed)) < len(listed):
            raise RiskstatsError(f"parameter {param.name}={value} of bot {bot!r} must list items 1..{param.digits} "
                                 f"as digits, none twice (0: the default)")
    return number


def _format(param: Param, value: float) -> str:
    if param.choices:
        return param.choices[int(value)]
    return str(int(value)) if param.integer else repr(value)


def parse_bot(spec: str, *overrides) -> BotSpec:
    """Read a bot spec ``name[:key=value...]``, every value checked against its declared range.

    ``overrides`` are applied to the defaults first, in order, then the spec's own ``key=value``
    pieces: each is a sequence of all the bot's values (in declared order) or a dict of some of them
    by name (the ``params`` tables of `riskstats.runs.selfplay.play_games` and experiment files).
    """
    if not isinstance(spec, str):
        raise RiskstatsError(f"a bot is given by its name, got {spec!r}")
    name, *pieces = (piece.strip() for piece in spec.strip().split(":"))
    info = bot_info(name)
    index = {p.name: i for i, p in enumerate(info.params)}
    values = list(info.defaults)
    given = set()

    def assign(key, value):
        if key not in index:
            known = ", ".join(index) or "none"
            raise RiskstatsError(f"unknown parameter {key!r} of bot {name!r}; its parameters: {known}")
        values[index[key]] = check_value(name, info.params[index[key]], value)

    for override in overrides:
        if override is None:
            continue
        if isinstance(override, dict):
            for key, value in override.items():
                assign(key, value)
        else:
            if isinstance(override, str):
                raise RiskstatsError(f"parameters of bot {name!r} must be a list or a table, got {override!r}")
            override = list(override)
            if not 0 < len(override) <= len(values):  # a shorter list sets the first parameters (older records)
                raise RiskstatsError(f"bot {name!r} takes up to {len(values)} parameters, got {len(override)}")
            for param, value in zip(info.params, override):
                assign(param.name, value)
    for piece in pieces:
        key, sep, value = piece.partition("=")
        key = key.strip()
        if not sep or not key:
            raise RiskstatsError(f"bot parameter {piece!r} in {spec!r} must be written key=value")
        if key in given:
            raise RiskstatsError(f"parameter {key!r} given twice in {spec!r}")
        assign(key, value.strip())
        given.add(key)
    order = tuple(p.name for p in info.params if p.name in given)
    label = ":".join([name, *(f"{k}={_format(info.params[index[k]], values[index[k]])}" for k in order)])
    return BotSpec(label, name, info.id, tuple(values), order)


def value_text(param: Param, value, board=None) -> str:
    """A parameter value as reports print it: a continent parameter by the continent's name (on ``board``,
    default the classic one; -1 as `OWN_CHOICE`, numbers the board lacks as numbers), others as `parse_bot`
    labels do.

    >>> value_text(CATALOG["continent"].params[3], 5), value_text(CATALOG["continent"].params[3], -1)
    ('Australia', 'own')
    """
    if param.names == "continents":
        from riskstats.game.rules.board import classic_board

        names = (board or classic_board()).continents
        if float(value).is_integer() and 0 <= int(value) < len(names):
            return names[int(value)]
        if float(value) == -1:
            return OWN_CHOICE
    return _format(param, float(value))


def params_text(bot: str, values, keys=(), board=None) -> str:
    """A bot's parameter overrides (a vector of all its values in order, or a dict of some by name) as
    ``key=value`` pieces with names (`value_text`): the parameters named in ``keys`` and those off their
    defaults, in the declared order; "defaults" when there are none.

    >>> params_text("continent", [0.5, 0.75, 2.0, 5])
    'first=Australia'
    >>> params_text("continent", {"first": "South America"}), params_text("continent", [0.5, 0.75, 2.0, -1])
    ('first=South America', 'defaults')
    """
    info = bot_info(bot)
    spec = parse_bot(bot, values)
    keys = set(keys) | (set(values) if isinstance(values, dict) else set())
    shown = [f"{p.name}={value_text(p, v, board)}" for p, v in zip(info.params, spec.values)
             if p.name in keys or v != p.default]
    return ":".join(shown) or "defaults"


def full_spec(spec: str, values: dict) -> BotSpec:
    """``spec`` with ``values`` (a dict by name) set and every parameter written in its label, so that
    the label alone says how the bot plays (what tuning records)."""
    base = parse_bot(spec, values)
    info = CATALOG[base.name]
    return parse_bot(":".join([base.name, *(f"{p.name}={_format(p, v)}" for p, v in zip(info.params, base.values))]))


def bot_spec(name: str, params=None) -> tuple[int, np.ndarray]:
    """(id, float64 parameter vector of length `N_PARAMS`) of a bot spec, with optional overrides
    (all its values in order, or a dict of some by name)."""
    spec = parse_bot(name, params)
    return spec.id, spec.vector()


def seat_entries(entries, seats: int) -> list:
    """A line-up's entries seat by seat: ``seats`` seats filled in order, a shorter line-up repeated (cyclic).

    More entries than seats is an error naming both counts (the entries past the last seat would never
    play). Entries may be specs, (spec, params) pairs or Python bots; every line-up is seated here.

    >>> seat_entries(["continent", "aggressive"], 3)
    ['continent', 'aggressive', 'continent']
    >>> seat_entries("a b c d e f".split(), 4)
    Traceback (most recent call last):
    ...
    riskstats.errors.RiskstatsError: 6 bots for 4 seats: a, b, c, d, e, f (give at most 4; fewer are repeated in order)
    """
    entries = list(entries)
    if not entries:
        raise RiskstatsError("give at least one bot")
    if len(entries) > seats:
        names = ", ".join(_entry_name(e) for e in entries)
        raise RiskstatsError(f"{len(entries)} bots for {seats} seats: {names} "
                             f"(give at most {seats}; fewer are repeated in order)")
    return [entries[s % len(entries)] for s in range(seats)]


def _entry_name(entry) -> str:
    """How a line-up entry reads in a message: a spec's text, a pair's spec, a Python bot's name."""
    if isinstance(entry, BotSpec):
        return entry.label
    if isinstance(entry, tuple) and entry and isinstance(entry[0], str):
        return entry[0]
    return entry if isinstance(entry, str) else getattr(entry, "__name__", repr(entry))


def lineup_specs(bots, params=None, seats: int | None = None) -> tuple[BotSpec, ...]:
    """The parsed specs of a line-up (a list, or a comma-separated string) with its ``params`` table.

    ``params`` maps a bot name (every entry of that bot) or an entry's exact label to overrides (see
    `parse_bot`); an entry takes its bot's, then its label's, then its own ``key=value`` values. There
    must be at least one bot, no override for a bot or label that does not play and, when ``seats`` is
    given, no more bots than seats (`seat_entries`: fewer are repeated).
    """
    names = bots.split(",") if isinstance(bots, str) else list(bots)
    if not all(isinstance(b, str) for b in names):
        raise RiskstatsError(f"bots are given by name, got {bots!r}")
    names = [b.strip() for b in names if b.strip()]
    if not names:
        raise RiskstatsError("give at least one bot")
    if seats is not None:
        seat_entries(names, seats)
    params = dict(params or {})
    plain = [parse_bot(b) for b in names]
    playing = {s.name for s in plain} | {s.label for s in plain}
    unknown = set(params) - playing
    if unknown:
        raise RiskstatsError(f"params given for bots not playing: {', '.join(sorted(unknown))}")
    specs = []
    for entry, first in zip(names, plain):
        extra = params.get(first.label) if first.label != first.name else None
        specs.append(parse_bot(entry, params.get(first.name), extra))
    return tuple(specs)


class Lineup(NamedTuple):
    """A checked line-up: one `BotSpec` per entry, seated in order and repeated to fill the seats
    (`seat_entries`); an entry None is a seat no built-in bot plays (a Python bot, or one unknown).

    `arrays` turns it into what the compiled loops read, the one place that does: the bots' ids and
    parameter vectors seat by seat.

    >>> lineup = Lineup.parse("continent:threshold=0.6,aggressive")
    >>> lineup.labels
    ('continent:threshold=0.6', 'aggressive')
    >>> ids, params = lineup.arrays(3, rotate=1)
    >>> ids.tolist() == [CATALOG[b].id for b in ("aggressive", "continent", "continent")], params.shape == (3, N_PARAMS)
    (True, True)
    """

    specs: tuple

    @classmethod
    def parse(cls, bots, params=None, seats: int | None = None) -> Lineup:
        """The line-up of ``bots`` (a list, or a comma-separated string) with its ``params`` table
        (`lineup_specs` says how they combine and what is checked)."""
        return cls(lineup_specs(bots, params, seats))

    @classmethod
    def of(cls, entries) -> Lineup:
        """The line-up of entries that are each a `BotSpec`, a spec string, a (spec, params) pair as
        `parse_bot` takes them, or None (no built-in bot)."""
        def spec(entry):
            if entry is None or isinstance(entry, BotSpec):
                return entry
            name, values = (entry, None) if isinstance(entry, str) else entry
            return parse_bot(name, values)

        return cls(tuple(spec(e) for e in entries))

    @property
    def labels(self) -> tuple:
        """Each entry's label (None for an entry no built-in bot plays)."""
        return tuple(None if s is None else s.label for s in self.specs)

    def seated(self, seats: int, rotate: int = 0) -> list:
        """The specs seat by seat: seat s plays the seated line-up's entry (s + rotate) % seats (a batch's
        game ``g`` rotates by ``g``)."""
        order = seat_entries(self.specs, seats)
        return [order[(s + rotate) % seats] for s in range(seats)]

    def arrays(self, seats: int, rotate: int = 0, rows: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(ids int64[rows], params float64[rows, `N_PARAMS`]): the seated line-up (`seated`) as the compiled
        loops read it, `BotSpec.vector` a row; ``rows`` (default ``seats``) may add seats nobody plays (a
        neutral's), and those, like a None entry or an empty line-up, have id -1 and zero parameters."""
        rows = seats if rows is None else rows
        ids, params = np.full(rows, -1, np.int64), np.zeros((rows, N_PARAMS))
        for s, spec in enumerate(self.seated(seats, rotate) if self.specs else ()):
            if spec is not None:
                ids[s], params[s] = spec.id, spec.vector()
        return ids, params


def check_lineup(bots, params=None, seats: int | None = None) -> tuple[str, ...]:
    """The labels of a line-up's bots, each checked with its overrides, and their number against ``seats``
    when given (see `lineup_specs`)."""
    return tuple(s.label for s in lineup_specs(bots, params, seats))


def catalog_rows() -> list[dict]:
    """Every bot with its description and parameters (default, range, meaning), as JSON-able dicts."""
    return [{"name": name, "base": info.base or name, "description": info.description,
             "params": [{"name": p.name, "default": p.default, "low": p.low, "high": p.high,
                         "integer": p.integer, "meaning": p.meaning,
                         **({"choices": list(p.choices)} if p.choices else {})} for p in info.params]}
            for name, info in CATALOG.items()]
