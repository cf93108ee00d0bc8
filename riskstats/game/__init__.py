"""The full game: the rules wing, the bots wing, the loops, the driver and the step API.

Owns the pure rules in their own wing (`rules`: the board, the typed rule options, the state layout, every rule
that changes a state and the compiled context a game's kernels read; it imports nothing else of `riskstats.game`),
the built-in bots in theirs above it (`bots`: the catalogue, one module per policy, the solved attack rule they can
read and the one dispatch from id to kernel), and above both the compiled game loop (`loop`), the search bot that
looks ahead with it (`search`), the one driver every compiled caller plays through (`drive`), playing a game,
compiled or move by move (`play`), rebuilding a game from its event log (`replay`), positions as JSON (`position`),
a position played on many times with fresh chance (`rollout`) and win chances and best moves from a position
(`evaluate`), the fitted position value (`value`), its fit on self-play (`value_fit`) and the exported tree
ensembles its boosted model evaluates (`value_trees`), and the compiled checks
of a game's invariants (`invariants`).
May import: `riskstats.odds` (the battle kernel and its tables) and the foundations.
"""
