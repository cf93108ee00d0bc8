"""Statistics of results: ratings, reports of runs, and the plots of every estimate.

Owns the rating models (`ratings`), self-play reports and summaries (`report`) and the plotting style
(`plots`). Interval arithmetic shared with the simulator lives in the foundation `riskstats.intervals`.
May import: `riskstats.runs`, `riskstats.game`, `riskstats.odds` and the foundations.
"""
