"""Every riskstats plot in one namespace: the board map (`riskstats.stats.board_map`), the plots of
results and estimates (`riskstats.stats.plots`, one style for all) and those of attack decisions
(`riskstats.stats.decision_plots`). Each takes a DataFrame, a game or a
position (and an optional Axes) and returns the Axes. It sits with `riskstats.stats` in the layers.

>>> from riskstats.plots import board_map, win_rates
>>> callable(board_map) and callable(win_rates)
True
"""
from riskstats.stats.board_map import board_layout, board_map, map_state, seat_colours, spring_layout
from riskstats.stats.decision_plots import frontier_lines, loss_bars, policy_map
from riskstats.stats.plots import (
    bars,
    end_states,
    game_length_histogram,
    heatmap,
    legend_outside,
    line_panels,
    lines,
    natural_order,
    rates,
    ratings,
    reliability_diagram,
    win_rates,
)

__all__ = ["bars", "board_layout", "board_map", "end_states", "frontier_lines", "game_length_histogram", "heatmap",
           "legend_outside", "line_panels", "lines", "loss_bars", "map_state", "natural_order", "policy_map", "rates",
           "ratings", "reliability_diagram", "seat_colours", "spring_layout", "win_rates"]
