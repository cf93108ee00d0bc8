"""The full game: board, rule options, the state of arrays, the compiled engine, bots and the step API.

Owns the board (`board`), the typed rule options (`rules`), the state layout (`state`), every rule that
changes a state (`engine`), the bot catalogue (`registry`), the built-in bots (`bots`) and playing a
game, compiled or move by move (`play`).
May import: `riskstats.odds` (the battle kernel and its tables) and the foundations.
"""
