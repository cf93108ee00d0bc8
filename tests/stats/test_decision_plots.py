"""Decision plots come back labelled, with their legends outside the data."""
import matplotlib

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


def test_policy_map_shows_each_choice_and_the_defenders_fewer_dice():
    ax = decision_plots.policy_map(policy(4, 3, 10, DiceRules(defender_modifier=1), kill_value=1,
                                          survivor_value=1).table)
    assert labelled(ax) and legend_outside(ax)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[0] == "stop" and "defender rolls fewer dice" in labels
    image = ax.get_images()[0].get_array()
    assert image.shape == (4, 3) and image[0, 2] == 0 and image[3, 0] == 3  # 1 v 3 stops, 4 v 1 rolls 3


def test_frontier_lines_and_loss_bars():
    ax = decision_plots.frontier_lines(frontiers(10, 6, [2, 6]))
    assert labelled(ax) and legend_outside(ax) and len(ax.get_lines()) == 2
    ax = decision_plots.loss_bars(rule_losses(policy(8, 5, 4)))
    assert labelled(ax) and len(ax.patches) == 4
