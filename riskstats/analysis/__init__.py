"""Analyses behind the notebooks: functions that answer one question each and return DataFrames.

One module per notebook topic (`attack` for attack odds), and `paths`, which finds the repository's
``data/`` folder for them from any working directory. Plots of their results live in
`riskstats.stats.plots`.
May import: every other part but the CLI.
"""
