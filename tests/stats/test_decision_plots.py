"""Decision plots come back labelled, with their legends outside the data."""
import matplotlib
import numpy as np

matplotlib.use("Agg")

from riskstats.analysis.decisions import frontiers, rule_losses  # noqa: E402
from riskstats.odds.dice import DiceRules  # noqa: E402
from riskstats.odds.policy import policy  # noqa: E402
from riskstats.stats import decision_plots  # noqa: E402


def labelled(ax):
    return ax.get_title() and ax.get_xlabel() and ax.get_ylabel()


def legend_outside(ax):
    ax.figure.canvas.draw()
    box = ax.get_legend().get_window_extent().transformed(ax.transAxes.inverted())
    return box.x0 >= 1.0


def test_policy_map_shades_values_greys_stops_and_marks_the_frontier():
    solved = policy(4, 3, 10, DiceRules(defender_modifier=1), kill_value=1, survivor_value=1)
    ax = decision_plots.policy_map(solved.table)
    assert labelled(ax) and legend_outside(ax)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[:2] == ["stop", "fewest attackers that attack"] and "defender rolls fewer dice" in labels
    image = ax.get_images()[0].get_array()
    assert image.shape == (4, 3)
    assert image.mask[0, 2] and not image.mask[3, 0]  # 1 v 3 stops (grey), 4 v 1 attacks (shaded)
    value = solved.table.set_index(["attackers", "defenders"]).value
    assert image[3, 0] == value[4, 1]
    assert len(ax.figure.axes) == 2  # the colour bar


def test_policy_map_of_one_colour_still_spreads_its_values():
    ax = decision_plots.policy_map(policy(12, 8, 4, kill_value=1).table)
    image = ax.get_images()[0]
    shades = image.norm(image.get_array().compressed())
    assert shades.min() < 0.3 and shades.max() > 0.9  # the square-root scale uses the whole colour map


def test_frontier_lines_keep_equal_frontiers_apart():
    front = frontiers(10, 6, [2, 6])
    ax = decision_plots.frontier_lines(front)
    assert labelled(ax) and legend_outside(ax) and len(ax.get_lines()) == 2
    first, second = ax.get_lines()
    assert first.get_marker() != second.get_marker() and first.get_linestyle() != second.get_linestyle()
    gap = second.get_ydata() - first.get_ydata()
    assert np.nanmax(np.abs(gap)) > 0 and 0 < np.nanmin(np.abs(gap)) <= 0.3  # equal values drawn apart


def test_loss_bars():
    ax = decision_plots.loss_bars(rule_losses(policy(8, 5, 4)))
    assert labelled(ax) and len(ax.patches) == 4
