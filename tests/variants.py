"""The game variants the variant-parametrised tests run over, defined once.

`MAIN` holds one case ``(players, rules)`` per variant of `riskstats.game.rules.options.VARIANTS` (a test holds its
keys to that tuple), so a new variant reaches every test that runs over the variants; `OPTIONS` names the rule
option combinations the engine's tests add to them; `cases` picks cases by name from both.
"""
from riskstats.game.rules.options import GameRules

MAIN = {
    "classic": (4, GameRules()),
    "two-player": (2, GameRules(variant="two-player")),
    "mission": (4, GameRules(variant="mission")),
    "capital": (3, GameRules(variant="capital")),
}
OPTIONS = {
    "classic-3": (3, GameRules()),
    "classic-3-deal-fixed": (3, GameRules(setup="deal", escalation="fixed", territory_bonus="per_set")),
    "classic-4-per-conquest-fixed": (4, GameRules(cards_per_turn="per_conquest", escalation="fixed",
                                                 territory_bonus="per_set")),
    "classic-5-deal": (5, GameRules(setup="deal")),
    "classic-5-flat-adjacent": (5, GameRules(escalation="none", territory_bonus="off", fortify="adjacent")),
    "classic-5-house": (5, GameRules(fortify="adjacent", escalation="fixed", cards_per_turn="per_conquest")),
    "classic-6-deal": (6, GameRules(setup="deal")),
    "classic-6-adjacent-none": (6, GameRules(fortify="adjacent", escalation="none", territory_bonus="off")),
    "two-player-interleaved": (2, GameRules(variant="two-player", neutral_interleaved=True)),
    "two-player-50": (2, GameRules(variant="two-player", two_player_classic_50=True)),
    "mission-4-choice": (4, GameRules(variant="mission", setup="choice")),
    "mission-3-choice-european-24": (3, GameRules(variant="mission", setup="choice", mission_deck="european",
                                                  mission_target_lost="24_territories")),
    "mission-5-european-24": (5, GameRules(variant="mission", mission_deck="european",
                                           mission_target_lost="24_territories", setup="choice")),
    "capital-4": (4, GameRules(variant="capital")),
    "capital-5-short-deal": (5, GameRules(variant="capital", capital_short=True, setup="deal")),
}


def cases(*names: str) -> dict:
    """The named cases, from `MAIN` and `OPTIONS`, in the order given."""
    every = {**MAIN, **OPTIONS}
    return {name: every[name] for name in names}
