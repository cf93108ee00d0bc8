"""The full game: board, rule options, the state of arrays, the compiled engine, bots and the step API.

Owns the board (`board`), the typed rule options (`rules`), the state layout (`state`), every rule that
changes a state (`engine`), the bot catalogue (`registry`), the built-in bots (`bots`) and the solved attack
rule they can read (`solved_attack`), the compiled game loop (`loop`), the search bot that looks ahead with
it (`search`), playing a game, compiled or move by move (`play`), rebuilding a game from its event log
(`replay`), positions as JSON (`position`), a position played on many times with fresh chance (`rollout`)
and win chances and best moves from a position (`evaluate`), the fitted position value (`value`) and its
fit on self-play (`value_fit`), and the compiled checks of a game's invariants (`invariants`).
May import: `riskstats.odds` (the battle kernel and its tables) and the foundations.
"""
