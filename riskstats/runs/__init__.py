"""Many games: self-play batches, resumable runs, their files, Dask clusters and experiment grids.

Owns playing games in bulk (`selfplay`), a run's configuration and chunked, resumable execution
(`tournament`), the one module that reads and writes run files (`results`), the Dask side
(`distributed`), experiment grids (`experiment`) and tuning bots' parameters (`tune`).
May import: `riskstats.game`, `riskstats.odds` and the foundations; never `riskstats.stats`.
"""
