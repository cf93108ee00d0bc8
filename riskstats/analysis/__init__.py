"""Analyses behind the notebooks: functions that answer one question each and return DataFrames.

One module per notebook topic (`attack` for attack odds). Plots of their results live in
`riskstats.plots`.
"""
