"""The full game: the rules wing (board, options, state, engine, context), bots, loops and the step API.

Owns the pure rules in their own wing (`rules`: the board, the typed rule options, the state layout, every rule
that changes a state and the compiled context a game's kernels read; it imports nothing else of `riskstats.game`),
and above it the bot catalogue (`registry`), the built-in bots (`bots`) and the solved attack rule they can read
(`solved_attack`), the compiled game loop (`loop`), the search bot that looks ahead with it (`search`), the one
driver every compiled caller plays through (`drive`), playing a game, compiled or move by move (`play`), rebuilding
a game from its event log (`replay`), positions as JSON (`position`), a position played on many times with fresh
chance (`rollout`) and win chances and best moves from a position (`evaluate`), the fitted position value (`value`)
and its fit on self-play (`value_fit`), and the compiled checks of a game's invariants (`invariants`).
May import: `riskstats.odds` (the battle kernel and its tables) and the foundations.
"""
