"""The odds of battles: one dice rule, exact Markov-chain answers and a compiled simulator.

Owns the dice rule (`dice`) and the official app's dice augments over it (`augments`), Balanced Blitz
(`balance`: the app's reshaping of a battle's end-state distribution), the exact battle and chain engines
(`battle`, `chain`), the simulator that samples the same one-roll table (`simulate`) and its random
streams (`rng`), and the exact attack decisions (`policy`: when to stop, how many dice) with their
sampling check (`policy_simulate`).
May import: the foundations (`riskstats.errors`, `riskstats._numba`, `riskstats.intervals`, `riskstats.pieces`) only.
"""
