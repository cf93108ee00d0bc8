"""Plots of riskstats results: each takes a DataFrame (and an optional Axes) and returns the Axes.

Plots are labelled (title, axes with units, legend) so that a notebook needs no styling of its own.
matplotlib is imported here only, never at CLI start-up.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from riskstats.intervals import Z95


def _axes(ax):
    return ax if ax is not None else plt.subplots(figsize=(7, 5))[1]


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
    ax.legend()
    return ax


def lines(frame: pd.DataFrame, x: str, y: str, hue: str | None = None, ax=None, title: str = "",
          xlabel: str | None = None, ylabel: str | None = None, marker: str = "o"):
    """One line of ``y`` against ``x`` per value of ``hue`` (or a single line)."""
    ax = _axes(ax)
    groups = frame.groupby(hue, sort=False) if hue else [(None, frame)]
    for name, group in groups:
        ax.plot(group[x], group[y], marker=marker, markersize=3, label=None if name is None else f"{hue} = {name}")
    ax.set_xlabel(xlabel or x.replace("_", " "))
    ax.set_ylabel(ylabel or y.replace("_", " "))
    ax.set_title(title)
    if hue:
        ax.legend()
    ax.grid(alpha=0.3)
    return ax


def rates(frame: pd.DataFrame, label: str, value: str = "win_rate", ax=None, title: str = "",
          xlabel: str = "win rate", baseline: float | None = None):
    """Horizontal bars of a rate per ``label`` with its ``ci_low``..``ci_high`` interval."""
    ax = _axes(ax)
    frame = frame.sort_values(value)
    errors = np.vstack([frame[value] - frame.ci_low, frame.ci_high - frame[value]])
    ax.barh(frame[label].astype(str), frame[value], xerr=errors, color="tab:blue", alpha=0.8, capsize=3,
            label="estimate with 95% interval")
    if baseline is not None:
        ax.axvline(baseline, color="k", linestyle="--", linewidth=1, label=f"baseline {baseline:.2f}")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(label.replace("_", " "))
    ax.set_title(title)
    ax.legend(loc="lower right")
    return ax


def bars(frame: pd.DataFrame, label: str, value: str, ax=None, title: str = "", ylabel: str | None = None):
    """Vertical bars of ``value`` per ``label``."""
    ax = _axes(ax)
    ax.bar(frame[label].astype(str), frame[value], color="tab:blue", alpha=0.8)
    ax.set_xlabel(label.replace("_", " "))
    ax.set_ylabel(ylabel or value.replace("_", " "))
    ax.set_title(title)
    ax.tick_params(axis="x", rotation=30)
    return ax


def win_rates(rates: pd.DataFrame, ax=None, title: str | None = None):
    """Bars of win rate with 95% intervals from a `riskstats.stats.report.win_rates` table (by bot or by seat)."""
    ax = _axes(ax)
    key = "bot" if "bot" in rates.columns else "seat"
    labels = [str(v) for v in rates[key]]
    rate = rates["win_rate"].to_numpy(float)
    err = np.vstack([rate - rates["ci_low"].to_numpy(float), rates["ci_high"].to_numpy(float) - rate])
    ax.bar(labels, rate, yerr=err, capsize=4, color="tab:blue", label="win rate (95% Wilson interval)")
    ax.set_xlabel(key)
    ax.set_ylabel("win rate (wins / seats played)")
    ax.set_ylim(0, min(1.0, max(0.1, float(rates["ci_high"].max()) * 1.15)))
    ax.set_title(title or f"Win rate by {key}")
    ax.legend()
    return ax


def ratings(fit: pd.DataFrame, ax=None, title: str = "Bradley-Terry ratings (Elo scale, mean 0)"):
    """Horizontal bars of Elo-scale ratings with +-1.96 standard errors from `riskstats.stats.ratings.bradley_terry`."""
    ax = _axes(ax)
    order = fit.sort_values("elo")
    ax.barh(order["bot"].astype(str), order["elo"], xerr=Z95 * order["elo_se"], capsize=4, color="tab:green",
            label="rating +- 95% interval")
    ax.axvline(0, color="k", linewidth=0.8)
    ax.set_xlabel("rating (Elo points; 400 = 10:1 odds)")
    ax.set_ylabel("bot")
    ax.set_title(title)
    ax.legend()
    return ax


def game_length_histogram(games: pd.DataFrame, ax=None, title: str = "Game length"):
    """Histogram of turns per game (columns turns, truncated), truncated games shown apart."""
    ax = _axes(ax)
    truncated = games["truncated"].astype(bool).to_numpy()
    turns = games["turns"].to_numpy(float)
    bins = np.histogram_bin_edges(turns, bins=min(50, max(5, len(turns) // 20)))
    ax.hist([turns[~truncated], turns[truncated]], bins=bins, stacked=True, color=["tab:blue", "tab:red"],
            label=["finished", "truncated (turn cap)"])
    ax.set_xlabel("turns (all players)")
    ax.set_ylabel("games")
    ax.set_title(title)
    ax.legend()
    return ax
