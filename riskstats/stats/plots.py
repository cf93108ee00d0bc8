"""Plots of riskstats results: each takes a DataFrame (and an optional Axes) and returns the Axes.

One style for every plot, so that a notebook needs no styling of its own (`tests/stats/test_plots.py`
checks it on the returned Axes):

- **Legends outside the data**: to the right of the axes (`legend_outside`), never over bars or points.
- **Categorical axes in their natural order**: seats by seat number, other labels in the table's order
  (or sorted), never by the value plotted, so the eye does not read a ranking the data may not support.
- **Error bars on every estimate**: a rate comes with its ``ci_low``..``ci_high`` interval, a rating with
  its bootstrap interval; the legend says which interval.
- **Labelled units**: every axis says what it counts ("win rate (wins / decided games)", "turns (all
  players)", "Elo points").
- **Counts shown**: each estimate's sample size is in its tick label (``n=...``), or in the legend.
- **No empty legend entries**: every entry has a visible handle; a note about what an entry counts goes in
  that entry's text, never in a handle-less entry or a legend title that reads as one.

matplotlib is imported here only, never at CLI start-up.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from riskstats.intervals import Z95


def _axes(ax):
    return ax if ax is not None else plt.subplots(figsize=(8, 5))[1]


def legend_outside(ax, **kwargs):
    """Put the legend to the right of the axes, outside the data; return it."""
    return ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, **kwargs)


def natural_order(frame: pd.DataFrame, label: str) -> pd.DataFrame:
    """Rows in the natural order of ``label``: numbers (seats, players, rounds) ascending, otherwise the
    table's own order."""
    if pd.api.types.is_numeric_dtype(frame[label]):
        return frame.sort_values(label, kind="stable")
    return frame


def _counted(labels, counts):
    return [f"{a}\n(n={int(n):,})" for a, n in zip(labels, counts)]


def _counted_once(labels, counts):
    """Tick labels with each bar's count, one line each, and a note for the axis label: where every bar
    rests on the same count, the ticks are the bare labels and the note says "n = N each" once."""
    counts = [int(n) for n in counts]
    if counts and len(set(counts)) == 1:
        return list(labels), f" (n = {counts[0]:,} each)"
    return [f"{a} (n={n:,})" for a, n in zip(labels, counts)], ""


def _errors(frame, value):
    """Error-bar lengths below and above each estimate; an open (infinite) side is drawn without a bar."""
    v = frame[value].to_numpy(float)
    errors = np.vstack([v - frame["ci_low"].to_numpy(float), frame["ci_high"].to_numpy(float) - v])
    return np.where(np.isfinite(errors), errors, np.nan)


def _count_column(frame):
    return next((c for c in ("trials", "games", "count", "n", "seats", "holders") if c in frame.columns), None)


def heatmap(table: pd.DataFrame, value: str = "p_win", ax=None, title: str | None = None,
            cmap: str = "RdYlGn", center: float | None = None):
    """A colour map of ``value`` over attackers (rows) and defenders (columns) of a long-form table."""
    ax = _axes(ax)
    grid = table.pivot(index="attackers", columns="defenders", values=value)
    if center is None:
        vmin, vmax = 0.0, 1.0
    else:
        span = np.nanmax(np.abs(grid.to_numpy() - center))
        vmin, vmax = center - span, center + span
    image = ax.imshow(grid.to_numpy(), origin="lower", cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto",
                      extent=(grid.columns.min() - 0.5, grid.columns.max() + 0.5,
                              grid.index.min() - 0.5, grid.index.max() + 0.5))
    if center is None:
        ax.contour(grid.columns, grid.index, grid.to_numpy(), levels=[0.5, 0.8, 0.95], colors="k",
                   linewidths=0.8)
    ax.figure.colorbar(image, ax=ax, label=value.replace("_", " "))
    ax.set_xlabel("defenders (armies)")
    ax.set_ylabel("attackers (armies able to roll)")
    ax.set_title(title or f"{value.replace('_', ' ')} by attackers and defenders")
    return ax


def end_states(outcomes: pd.DataFrame, ax=None, title: str = "End-state distribution"):
    """Bars of an `outcomes` frame indexed (attackers_left, defenders_left): wins up, losses down."""
    ax = _axes(ax)
    frame = outcomes.reset_index()
    won = frame[frame.defenders_left == 0]
    lost = frame[frame.defenders_left > 0]
    ax.bar(won.attackers_left, won.p, color="tab:green", label="attacker wins: attackers left")
    ax.bar(-lost.defenders_left, lost.p, color="tab:red", label="defender holds: defenders left (negative)")
    ax.axvline(0, color="k", linewidth=0.8)
    ax.set_xlabel("armies left (attackers to the right, defenders to the left)")
    ax.set_ylabel("probability")
    ax.set_title(title)
    legend_outside(ax)
    return ax


def lines(frame: pd.DataFrame, x: str, y: str, hue: str | None = None, ax=None, title: str = "",
          xlabel: str | None = None, ylabel: str | None = None, marker: str = "o", count: str | None = None,
          min_count: int = 1):
    """One line of ``y`` against ``x`` per value of ``hue`` (or a single line), x ascending.

    With ``ci_low``/``ci_high`` columns each point gets its error bar. ``count`` names a column of
    sample sizes: points resting on fewer than ``min_count`` are left out, and the legend says how many
    each remaining point rests on at least.
    """
    ax = _axes(ax)
    if count is not None:
        frame = frame[frame[count] >= min_count]
    groups = frame.groupby(hue, sort=False) if hue else [(None, frame)]
    for name, group in groups:
        group = group.sort_values(x, kind="stable")
        label = None if name is None else f"{hue} = {name}"
        if count is not None:
            n = f"n >= {int(group[count].min()):,} per point" if len(group) else "n = 0"
            label = n if label is None else f"{label} ({n})"
        if {"ci_low", "ci_high"} <= set(group.columns):
            ax.errorbar(group[x], group[y], yerr=_errors(group, y), marker=marker, markersize=3, capsize=2,
                        label=label)
        else:
            ax.plot(group[x], group[y], marker=marker, markersize=3, label=label)
    ax.set_xlabel(xlabel or x.replace("_", " "))
    ax.set_ylabel(ylabel or y.replace("_", " "))
    ax.set_title(title)
    if hue or count is not None:
        legend_outside(ax)
    ax.grid(alpha=0.3)
    return ax


def rates(frame: pd.DataFrame, label: str, value: str = "win_rate", ax=None, title: str = "",
          xlabel: str = "win rate", baseline: float | None = None):
    """Horizontal bars of a rate per ``label`` with its ``ci_low``..``ci_high`` interval, in the natural
    order of ``label`` (top to bottom) and with each bar's count (``trials``/``games``/... column)."""
    ax = _axes(ax)
    frame = natural_order(frame, label).iloc[::-1]  # barh draws bottom-up: first row on top
    names = frame[label].astype(str).tolist()
    column = _count_column(frame)
    ticks, note = _counted_once(names, frame[column]) if column else (names, "")
    ax.barh(range(len(frame)), frame[value], xerr=_errors(frame, value), color="tab:blue", alpha=0.8, capsize=3,
            label="estimate with 95% interval")
    ax.set_yticks(range(len(frame)), ticks)
    if baseline is not None:
        ax.axvline(baseline, color="k", linestyle="--", linewidth=1, label=f"baseline {baseline:.3f}")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(label.replace("_", " ") + note)
    ax.set_title(title)
    legend_outside(ax)
    return ax


def bars(frame: pd.DataFrame, label: str, value: str, ax=None, title: str = "", ylabel: str | None = None):
    """Vertical bars of ``value`` per ``label`` in the natural order of ``label``; an estimate (a frame with
    ``ci_low``/``ci_high``) gets its error bars, and a count column its counts under the labels."""
    ax = _axes(ax)
    frame = natural_order(frame, label)
    names = frame[label].astype(str).tolist()
    estimate = {"ci_low", "ci_high"} <= set(frame.columns)
    column = _count_column(frame) if estimate else None
    ax.bar(range(len(frame)), frame[value], yerr=_errors(frame, value) if estimate else None, capsize=3,
           color="tab:blue", alpha=0.8, label="estimate with 95% interval" if estimate else None)
    ticks, note = _counted_once(names, frame[column]) if column else (names, "")
    ax.set_xticks(range(len(frame)), ticks, rotation=30, ha="right", rotation_mode="anchor")
    ax.set_xlabel(label.replace("_", " ") + note)
    ax.set_ylabel(ylabel or value.replace("_", " "))
    ax.set_title(title)
    if estimate:
        legend_outside(ax)
    return ax


def win_rates(rates: pd.DataFrame, ax=None, title: str | None = None, baseline: float | None = None,
              fixed=None):
    """Bars of win rate with 95% intervals from a `riskstats.stats.report.win_rates` table (by bot or by seat):
    seats by seat number, bots in the table's order, each bar's decided games (its trials) under its label;
    ``baseline``: the fair share 1/P as a dashed line. ``fixed`` (a flag per row): bots in every seat of every
    game, whose share is fixed by construction: drawn without an interval, labelled "every seat"."""
    ax = _axes(ax)
    key = "bot" if "bot" in rates.columns else "seat"
    fixed = np.zeros(len(rates), bool) if fixed is None else np.asarray(fixed, bool)
    rates = rates.assign(_fixed=fixed)
    rates = natural_order(rates, key)
    fixed = rates["_fixed"].to_numpy(bool)
    names = [f"seat {v}" if key == "seat" else str(v) + (" (every seat)" if f else "")
             for v, f in zip(rates[key], fixed)]
    labels = _counted(names, rates["trials"])
    rate = rates["win_rate"].to_numpy(float)
    errors = _errors(rates, "win_rate")
    errors[:, fixed] = np.nan
    ax.bar(range(len(rates)), rate, yerr=errors, capsize=4, color="tab:blue",
           label="win rate (95% Wilson interval)")
    ax.set_xticks(range(len(rates)), labels)
    if baseline is not None:
        ax.axhline(baseline, color="k", linestyle="--", linewidth=1, label=f"fair share {baseline:.3f}")
    ax.set_xlabel(f"{key} (n = decided games)")
    ax.set_ylabel("win rate (wins / decided games)")
    ax.set_ylim(0, min(1.0, max(0.1, float(rates["ci_high"].max()) * 1.15)))
    ax.set_title(title or f"Win rate by {key}")
    legend_outside(ax)
    return ax


def ratings(fit: pd.DataFrame, ax=None, title: str = "Luce ratings (who wins; Elo scale, mean 0)"):
    """Horizontal bars of Elo-scale ratings with their 95% intervals, top to bottom by rank (equal ranks:
    by name), each bot's games and rank in its label.

    Takes `riskstats.stats.ratings.luce` or `riskstats.stats.ratings.plackett_luce` (bootstrap intervals
    ``ci_low``..``ci_high``) or `riskstats.stats.ratings.bradley_terry` (+-1.96 ``elo_se``, no rank).
    """
    ax = _axes(ax)
    if {"ci_low", "ci_high"} <= set(fit.columns):
        low, high = fit["ci_low"], fit["ci_high"]
        what = "rating with 95% bootstrap interval"
    else:
        low, high = fit["elo"] - Z95 * fit["elo_se"], fit["elo"] + Z95 * fit["elo_se"]
        what = "rating +- 1.96 standard errors"
    frame = fit.assign(ci_low=low, ci_high=high)
    frame = frame.sort_values(["rank", "bot"] if "rank" in frame else ["bot"]).iloc[::-1]
    column = "games" if "games" in frame else "comparisons"
    names = [f"{b} (rank {r})" for b, r in zip(frame["bot"], frame["rank"])] if "rank" in frame else frame["bot"]
    names = [f"{n}, open interval" if not (np.isfinite(lo) and np.isfinite(hi)) else n
             for n, lo, hi in zip(names, frame["ci_low"], frame["ci_high"])]
    if "rank" in frame:
        what += "\n(equal ranks: not separated)"
    ax.barh(range(len(frame)), frame["elo"], xerr=_errors(frame, "elo"), capsize=4, color="tab:green", label=what)
    ax.set_yticks(range(len(frame)), _counted(names, frame[column]))
    ax.axvline(0, color="k", linewidth=0.8)
    ax.set_xlabel("rating (Elo points; 400 = 10:1 odds)")
    ax.set_ylabel(f"bot (n = {column})")
    ax.set_title(title)
    legend_outside(ax)
    return ax


def game_length_histogram(games: pd.DataFrame, ax=None, title: str = "Game length", clip: float = 0.99):
    """Histogram of turns per finished game (columns turns, truncated); the axis spans the finished games
    only, clipped at their ``clip`` quantile (the longer games are counted in the last bar, so a long tail
    does not squeeze the rest into a few bars), and the legend counts the finished games, the clipped
    ones and those stopped at the turn cap."""
    ax = _axes(ax)
    truncated = games["truncated"].astype(bool).to_numpy()
    turns = games["turns"].to_numpy(float)
    finished = turns[~truncated]
    cap = float(np.quantile(finished, clip)) if len(finished) else np.inf
    longer = int((finished > cap).sum())
    shown = np.minimum(finished, cap)
    bins = np.histogram_bin_edges(shown if len(shown) else turns, bins=min(50, max(5, len(finished) // 20)))
    label = [f"finished games (n={len(finished):,})"]  # one entry: what else was counted is said in its text
    if longer:
        label.append(f"longer than {cap:,.0f} turns, counted in the last bar (n={longer:,}; "
                     f"longest {finished.max():,.0f})")
    label.append(f"stopped at the turn cap, not shown (n={int(truncated.sum()):,})")
    ax.hist(shown, bins=bins, color="tab:blue", label="\n".join(label))
    ax.set_xlabel("turns (all players)")
    ax.set_ylabel("games")
    ax.set_title(title)
    legend_outside(ax)
    return ax


def line_panels(frame: pd.DataFrame, panels, x: str, y: str = "mean", hue: str | None = None, *,
                measure: str = "measure", log: bool = True, ncols: int = 3, count: str | None = None,
                min_count: int = 1, size: tuple[float, float] = (5.5, 3.6)):
    """Small multiples of `lines`: one panel per ``(measure value, title, ylabel)`` of ``panels``, the lines
    of ``hue`` in each, and one legend for the whole figure below the panels (so no panel gives up width
    to a legend). ``frame`` is long form with a ``measure`` column (as `riskstats.analysis.cards.per_round`
    gives). With ``log`` a panel whose values are all positive gets a log y axis (curves that grow by
    orders of magnitude stay readable), one with zeros a symmetric log axis (linear below 1) if its values
    exceed 10, else a linear one (said in its title).
    ``count``/``min_count`` leave out thin points as in `lines`; the legend says how many games each
    remaining point rests on at least. Returns the array of Axes (unused ones hidden).
    """
    panels = [tuple(p) for p in panels]
    rows = -(-len(panels) // ncols)
    fig, axes = plt.subplots(rows, ncols, figsize=(size[0] * ncols, size[1] * rows + 0.6), squeeze=False)
    for ax, (name, title, ylabel) in zip(axes.flat, panels):
        part = frame[frame[measure] == name]
        lines(part, x, y, hue=hue, ax=ax, count=count, min_count=min_count, title=title, ylabel=ylabel)
        if ax.get_legend() is not None:
            ax.get_legend().remove()
        shown = part[part[count] >= min_count] if count is not None else part
        if log and len(shown) and (shown[y] > 0).all():
            ax.set_yscale("log")
            ax.set_ylabel(f"{ylabel} (log scale)")
        elif log and len(shown) and shown[y].max() > 10:  # zeros, and values over orders of magnitude
            ax.set_yscale("symlog", linthresh=1.0)
            ax.set_ylabel(f"{ylabel} (log scale above 1)")
        elif log:
            ax.set_title(f"{title} (linear scale)")
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    handles, labels = axes.flat[0].get_legend_handles_labels()
    if labels:
        fig.legend(handles, labels, loc="lower center", ncol=min(len(labels), 4), frameon=False)
    fig.tight_layout(rect=(0, 0.6 / (size[1] * rows + 0.6), 1, 1))
    return axes


def reliability_diagram(table: pd.DataFrame, hue: str | None = "estimator", ax=None,
                        title: str = "Reliability (10 bins, 95% Wilson intervals)"):
    """Observed win rate against mean predicted P(win), one point per bin with its ``ci_low``..``ci_high``
    interval, one series per ``hue`` (its predictions counted in the legend), and the diagonal of perfect
    calibration. ``table``: `riskstats.game.value_fit.reliability` rows (``predicted``, ``observed``,
    ``ci_low``, ``ci_high``, ``count``), stacked with a ``hue`` column for several estimators."""
    ax = _axes(ax)
    ax.plot([0, 1], [0, 1], color="k", linestyle="--", linewidth=1, label="perfect calibration")
    groups = table.groupby(hue, sort=False) if hue else [("estimate", table)]
    for name, part in groups:
        ax.errorbar(part.predicted, part.observed, yerr=_errors(part, "observed"), marker="o", capsize=3,
                    label=f"{name} (n={int(part['count'].sum()):,} predictions)")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("predicted P(win) (bin mean)")
    ax.set_ylabel("observed win rate (wins / predictions)")
    ax.set_title(title)
    legend_outside(ax)
    return ax
