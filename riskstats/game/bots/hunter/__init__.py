"""The ``hunter`` bot (issue 38): an attack phase planned with the exact odds of whole chains of conquests.

Where the other heuristics look one battle ahead (the best single P(conquer)), the hunter prices routes by the
exact forward Markov chain of a run of battles (`chain`). With it the hunter

- **eliminates for cards** (`hunt`): every opponent with few territories is priced as a route through all of them
  from one of its stacks (with ``sweep``, a sweep through that seat's land, the stack split where it branches); a
  seat holding cards is hunted at lower odds than one without, and with ``finish`` the last other seat whatever
  its size;
- **stops rolling** where the exact engine says the attack has stopped paying (`riskstats.game.bots.common._rolls_on`);
- **takes continents it can hold and mans their borders** (`holding`): it reinforces a held continent's border
  up to the largest enemy stack next to it, breaks a continent another seat holds when the odds allow, takes one
  territory a turn for a card and, beyond that, any territory whose P(conquer) reaches ``expand``;
- **moves in what the onward route needs** after a conquest (`hunt._occupy_extra`);
- **does not stack its setup** (`setup`), and with two players claims contested moving first, planted moving
  second, and goes big where it holds half a continent.

The rooms: `chain` (routes and their exact odds), `holding` (continents), `hunt` (kills), `setup` (claims and
setup armies), `bot` (the move by phase). What each rule measured against Domination's hard AI, and the hunter's
strength, are in docs/bots.md and the data READMEs under ``data/outside/issue38/``.
"""
from riskstats.game.bots.hunter.bot import PLAYS, _hunter_bot

__all__ = ["PLAYS", "_hunter_bot"]
