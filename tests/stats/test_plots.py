"""Plots come back labelled."""
import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402

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
    assert labelled(ax) and len(ax.get_lines()) == 2 and legend_is_outside(ax)


def test_rate_and_bar_plots_are_labelled():
    import pandas as pd

    frame = pd.DataFrame({"bot": ["a", "b"], "win_rate": [0.3, 0.6], "ci_low": [0.2, 0.5], "ci_high": [0.4, 0.7]})
    ax = plots.rates(frame, "bot", baseline=0.5, title="win rates")
    assert labelled(ax) and len(ax.patches) == 2
    assert labelled(plots.bars(frame, "bot", "win_rate", title="bars"))


# ---------------------------------------------------------------- the one style, checked on the Axes
def legend_is_outside(ax):
    """The legend's box lies right of the axes' box (in display coordinates), so it covers no data."""
    ax.figure.canvas.draw()
    legend = ax.get_legend()
    return legend is not None and legend.get_window_extent().x0 >= ax.get_window_extent().x1


def no_empty_entries(ax):
    """Every legend entry has a visible handle (a bar, a line or a marker), and the legend has no title
    that would read as an entry without one."""
    from matplotlib.lines import Line2D

    legend = ax.get_legend()

    def visible(handle):
        if isinstance(handle, Line2D):
            return handle.get_linestyle() not in ("None", " ", "") or handle.get_marker() not in ("None", " ", "", None)
        return handle.get_visible()

    return (legend is not None and not legend.get_title().get_text()
            and all(visible(h) for h in legend.legend_handles))


def error_bars(ax):
    from matplotlib.container import BarContainer, ErrorbarContainer

    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    return [c for c in ax.containers if isinstance(c, ErrorbarContainer)] or [b for b in bars if b.errorbar]


def ticks(ax, axis="x"):
    return [t.get_text() for t in (ax.get_xticklabels() if axis == "x" else ax.get_yticklabels())]


def seat_rates():
    import pandas as pd

    # seats listed out of order, and seat 2 has the highest rate: the plot must still go 0, 1, 2
    return pd.DataFrame({"seat": [2, 0, 1], "trials": [100, 100, 100], "wins": [40, 30, 30],
                         "win_rate": [0.4, 0.3, 0.3], "ci_low": [0.31, 0.22, 0.22], "ci_high": [0.5, 0.4, 0.4]})


def test_win_rates_plot_follows_the_style():
    ax = plots.win_rates(seat_rates(), baseline=1 / 3)
    assert ticks(ax) == ["seat 0\n(n=100)", "seat 1\n(n=100)", "seat 2\n(n=100)"]  # natural order, counts
    assert legend_is_outside(ax) and error_bars(ax)
    assert "(wins / decided games)" in ax.get_ylabel()
    assert [p.get_height() for p in ax.patches] == [0.3, 0.3, 0.4]


def test_rates_plot_keeps_natural_order_top_to_bottom():
    ax = plots.rates(seat_rates(), "seat", baseline=1 / 3)
    assert ticks(ax, "y")[::-1] == ["0", "1", "2"]  # top row first; the one count is said once
    assert ax.get_ylabel() == "seat (n = 100 each)"
    assert legend_is_outside(ax) and error_bars(ax)


def overlapping_ticks(ax, axis="x"):
    """Pairs of neighbouring tick labels that run into each other on the drawn figure. Level labels: their
    boxes overlap. Labels rotated by r degrees lie on parallel lines dx * sin(r) apart (dx: the tick spacing),
    so they collide where their lines' height (all text lines of a label) exceeds that."""
    import math

    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    labels = [t for t in (ax.get_xticklabels() if axis == "x" else ax.get_yticklabels()) if t.get_text()]
    pairs = []
    for i, (a, b) in enumerate(zip(labels, labels[1:])):
        angle = math.radians(a.get_rotation())
        if abs(math.sin(angle)) < 1e-6:
            if a.get_window_extent(renderer).overlaps(b.get_window_extent(renderer)):
                pairs.append((i, i + 1))
            continue
        ticks = ax.get_xticks() if axis == "x" else ax.get_yticks()
        dx = abs(ax.transData.transform((ticks[i + 1], 0))[0] - ax.transData.transform((ticks[i], 0))[0])
        height = a.get_fontsize() * fig.dpi / 72 * 1.2 * (a.get_text().count("\n") + 1)
        if height >= dx * abs(math.sin(angle)):
            pairs.append((i, i + 1))
    return pairs


def test_rate_and_bar_labels_do_not_collide():
    """Notebook 02's panels: seven continents in a half-width panel, counts equal (said once on the axis) or
    not (one line per tick)."""
    import matplotlib.pyplot as plt
    import pandas as pd

    names = ["own choice", "North America", "South America", "Europe", "Africa", "Asia", "Australia"]
    for counts in ([20_000] * 7, [400, 400, 396, 400, 400, 12_000, 400]):
        frame = pd.DataFrame({"continent": names, "games": counts, "win_rate": 0.3, "ci_low": 0.28,
                              "ci_high": 0.32})
        fig, axes = plt.subplots(1, 3, figsize=(18, 4.5))
        rated = plots.rates(frame, "continent", ax=axes[0], title="rates")
        barred = plots.bars(frame, "continent", "win_rate", ax=axes[1], title="bars")
        old = plots.bars(frame, "continent", "win_rate", ax=axes[2], title="two-line labels")
        old.set_xticks(range(7), [f"{n}\n(n={c:,})" for n, c in zip(names, counts)], rotation=30, ha="right")
        assert overlapping_ticks(old, "x")  # the labels notebook 02 had: the check sees them collide
        assert not overlapping_ticks(rated, "y") and not overlapping_ticks(barred, "x")
        assert all("\n" not in t for t in ticks(rated, "y") + ticks(barred))
        if len(set(counts)) == 1:
            assert "n = 20,000 each" in rated.get_ylabel() and "n = 20,000 each" in barred.get_xlabel()
        else:
            assert ticks(barred)[5] == "Asia (n=12,000)"
        plt.close(fig)


def test_ratings_plot_shows_intervals_ranks_and_games():
    import pandas as pd

    fit = pd.DataFrame({"bot": ["b", "a", "c"], "rank": [1, 1, 3], "elo": [20.0, 25.0, -45.0],
                        "ci_low": [5.0, 8.0, -60.0], "ci_high": [35.0, 40.0, -30.0], "games": [50, 50, 50]})
    ax = plots.ratings(fit)
    # by rank, ties by name (not by rating): the plot draws no order the intervals do not support
    assert ticks(ax, "y")[::-1] == ["a (rank 1)\n(n=50)", "b (rank 1)\n(n=50)", "c (rank 3)\n(n=50)"]
    assert legend_is_outside(ax) and error_bars(ax) and "Elo points" in ax.get_xlabel()
    assert no_empty_entries(ax) and "equal ranks: not separated" in ax.get_legend().get_texts()[0].get_text()


def test_lines_drop_thin_points_and_say_how_many_games_each_rests_on():
    import pandas as pd

    frame = pd.DataFrame({"round": [3, 1, 2, 4], "value": [1.0, 2.0, 3.0, 9.0], "games": [50, 80, 60, 2],
                          "ci_low": [0.5, 1.5, 2.5, 1.0], "ci_high": [1.5, 2.5, 3.5, 20.0]})
    ax = plots.lines(frame, "round", "value", count="games", min_count=10, ylabel="armies per set")
    assert legend_is_outside(ax) and error_bars(ax)
    x = error_bars(ax)[0].lines[0].get_xdata()
    assert list(x) == [1, 2, 3]  # round 4 rests on 2 games: left out; x ascending
    assert "n >= 50 per point" in ax.get_legend().get_texts()[0].get_text()


def test_game_length_axis_spans_finished_games_and_counts_both():
    import pandas as pd

    games = pd.DataFrame({"turns": [40, 50, 60, 70, 1000], "truncated": [False] * 4 + [True]})
    ax = plots.game_length_histogram(games)
    assert ax.get_xlim()[1] < 100 and legend_is_outside(ax)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert len(texts) == 1 and "finished games (n=4)" in texts[0] and "turn cap, not shown (n=1)" in texts[0]
    assert "turns" in ax.get_xlabel() and no_empty_entries(ax)


def test_an_open_interval_is_drawn_and_said():
    import pandas as pd

    fit = pd.DataFrame({"bot": ["a", "z"], "rank": [1, 1], "elo": [50.0, -50.0], "ci_low": [20.0, -np.inf],
                        "ci_high": [80.0, -20.0], "games": [9, 9]})
    ax = plots.ratings(fit)
    assert ticks(ax, "y")[0] == "z (rank 1), open interval\n(n=9)" and error_bars(ax)
    assert np.isfinite(ax.get_xlim()).all()


def test_game_length_plot_clips_a_long_tail():
    import pandas as pd

    turns = list(range(20, 120)) + [5000]
    games = pd.DataFrame({"turns": turns, "truncated": False})
    ax = plots.game_length_histogram(games)
    assert ax.get_xlim()[1] < 200  # the 5,000-turn game does not stretch the axis
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any("counted in the last bar (n=1; longest 5,000)" in t for t in texts) and no_empty_entries(ax)
    assert sum(p.get_height() for p in ax.patches) == len(turns)  # every finished game is in a bar


def test_win_rate_by_bot_draws_the_fair_share_and_no_interval_for_a_bot_in_every_seat():
    import pandas as pd

    rates = pd.DataFrame({"bot": ["a", "b"], "trials": [30, 30], "wins": [12, 8], "win_rate": [0.4, 8 / 30],
                          "ci_low": [0.25, 0.14], "ci_high": [0.57, 0.44]})
    ax = plots.win_rates(rates, baseline=1 / 3, fixed=[True, False])
    assert any("fair share 0.333" in t.get_text() for t in ax.get_legend().get_texts()) and no_empty_entries(ax)
    assert ticks(ax)[0].startswith("a (every seat)")
    bars = [c for c in ax.containers if hasattr(c, "has_yerr") and c.has_yerr]
    segments = bars[0].lines[2][0].get_segments()
    assert [len(s) for s in segments] == [0, 2]  # no bar for "a", a bar for "b"


def test_line_panels_share_one_legend_below_and_use_log_scales():
    import pandas as pd

    values = {"grows": lambda k, r: k * 10 ** r, "zeros": lambda k, r: float(r % 2),
              "late": lambda k, r: 0.0 if r < 3 else k * 10 ** r}
    rows = [(arm, m, r, f(k, r), 50 - r) for arm, k in (("a", 1.0), ("b", 3.0)) for m, f in values.items()
            for r in range(1, 8)]
    frame = pd.DataFrame(rows, columns=["arm", "measure", "round", "mean", "games"])
    panels = [("grows", "Grows", "armies"), ("zeros", "Zeros", "count"), ("late", "Late", "armies")]
    axes = plots.line_panels(frame, panels, "round", hue="arm", ncols=2, count="games", min_count=44)
    fig = axes.flat[0].figure
    fig.canvas.draw()
    assert all(ax.get_legend() is None for ax in axes.flat)  # no panel gives up room to a legend
    legend = fig.legends[0]
    assert legend.get_window_extent().y1 <= min(ax.get_window_extent().y0 for ax in axes.flat[:3])
    assert [t.get_text() for t in legend.get_texts()] == ["arm = a (n >= 44 per point)", "arm = b (n >= 44 per point)"]
    assert [ax.get_yscale() for ax in axes.flat[:3]] == ["log", "linear", "symlog"]
    assert "linear" in axes.flat[1].get_title() and not axes.flat[3].get_visible()
    assert list(axes.flat[0].get_lines()[0].get_xdata()) == [1, 2, 3, 4, 5, 6]  # round 7 rests on 43 games


def test_reliability_diagram_draws_each_estimator_with_its_intervals():
    import pandas as pd

    table = pd.DataFrame({"estimator": ["a", "a", "b"], "bin": [0, 9, 5], "count": [10, 20, 5],
                          "predicted": [0.05, 0.95, 0.5], "observed": [0.1, 0.9, 0.4], "ci_low": [0.0, 0.7, 0.1],
                          "ci_high": [0.4, 0.98, 0.8]})
    ax = plots.reliability_diagram(table)
    assert labelled(ax) and legend_is_outside(ax)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts == ["perfect calibration", "a (n=30 predictions)", "b (n=5 predictions)"]
