"""Many games: self-play batches, resumable runs, their files, Dask clusters and experiment grids.

Owns playing games in bulk (`selfplay`), a run's configuration and chunked, resumable execution
(`tournament`), the one module that reads and writes run files (`results`), the Dask side
(`distributed`), experiment grids (`experiment`) and the top tiers their line-ups may name (`tiers`), tuning bots'
parameters (`tune`) and compiling every kernel ahead into numba's cache (`warmup`, ``riskstats compile``).
May import: `riskstats.game`, `riskstats.odds` and the foundations; never `riskstats.stats`.
"""
