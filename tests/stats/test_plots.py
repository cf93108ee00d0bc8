"""Plots come back labelled."""
import matplotlib

matplotlib.use("Agg")

from riskstats.analysis.attack import stop_rule_odds  # noqa: E402
from riskstats.odds.battle import battle_odds, win_table  # noqa: E402
from riskstats.stats import plots  # noqa: E402


def labelled(ax):
    return ax.get_title() and ax.get_xlabel() and ax.get_ylabel()


def test_plots_are_labelled():
    assert labelled(plots.heatmap(win_table(8, 8)))
    assert labelled(plots.heatmap(win_table(8, 8).assign(d=0.1), value="d", center=0.0))
    ax = plots.end_states(battle_odds(6, 4).outcomes)
    assert labelled(ax) and len(ax.get_legend().get_texts()) == 2
    ax = plots.lines(stop_rule_odds(10, 8, [0, 2, 4]), "stop_at", "p_win", hue="rule", title="stop rules")
    assert labelled(ax) and len(ax.get_lines()) == 2


def test_rate_and_bar_plots_are_labelled():
    import pandas as pd

    frame = pd.DataFrame({"bot": ["a", "b"], "win_rate": [0.3, 0.6], "ci_low": [0.2, 0.5], "ci_high": [0.4, 0.7]})
    ax = plots.rates(frame, "bot", baseline=0.5, title="win rates")
    assert labelled(ax) and len(ax.patches) == 2
    assert labelled(plots.bars(frame, "bot", "win_rate", title="bars"))
