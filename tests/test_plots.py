"""riskstats.plots: one namespace for every plot, the board map included."""


def test_plots_gathers_the_board_map_and_the_result_plots():
    import riskstats.plots as plots
    from riskstats.stats import board_map
    from riskstats.stats import plots as result_plots

    assert plots.board_map is board_map.board_map
    assert plots.win_rates is result_plots.win_rates and plots.ratings is result_plots.ratings
    assert set(plots.__all__) <= set(dir(plots))
