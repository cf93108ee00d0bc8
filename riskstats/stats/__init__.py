"""Statistics of results: ratings, reports of runs, and the plots of every estimate.

Owns the rating models (`ratings`: the Luce model of who wins with its fit test, Plackett-Luce as a
survival measure, both with bootstrap intervals; Bradley-Terry), the tests that say when a difference is
significant and the effects of controlled experiments (`compare`), self-play reports and summaries, cell
by cell (`report`), the one plotting style (`plots`), the plots of exact attack decisions
(`decision_plots`), the board map of a game or position (`board_map`), the rows of issue 19's
robustness table (`robustness`), the head-to-head rates of a per-game table (`head_to_head`), the tiers and
the verdicts of the findings under the top tier with the table's family-wise adjustment (`verdicts`) and the
sequential probability ratio test that stops a head-to-head comparison of two bots (`sprt`); ``riskstats.plots``
gathers the plots in one namespace.
Interval arithmetic shared with the simulator lives in the foundation `riskstats.intervals`.
May import: `riskstats.runs`, `riskstats.game`, `riskstats.odds` and the foundations.
"""
