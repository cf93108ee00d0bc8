"""Plots of attack decisions: the optimal policy over the battle's states, and stop frontiers.

Each takes a DataFrame from `riskstats.odds.policy` or `riskstats.analysis.decisions` (and an optional
Axes) and returns the Axes, labelled with units, its legend outside the data.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import ListedColormap
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

_ACTION_COLOURS = ["#d9d9d9", "#fdae61", "#abd9e9", "#2c7bb6"]  # stop, 1, 2, 3 dice
_OUTSIDE = {"loc": "upper left", "bbox_to_anchor": (1.02, 1.0), "borderaxespad": 0.0}


def _axes(ax):
    return ax if ax is not None else plt.subplots(figsize=(7, 5))[1]


def _whole_ticks(ax):
    """Army counts are whole numbers: tick them so."""
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))


def policy_map(table: pd.DataFrame, territory: int = 1, ax=None, title: str = "Optimal attack policy"):
    """The attacker's choice at each state of one territory: stop, or the dice it rolls; a dot marks the
    states where the defender rolls fewer than its most dice (at least half the time)."""
    ax = _axes(ax)
    rows = table[table.territory == territory]
    grid = rows.pivot(index="attackers", columns="defenders", values="dice")
    ax.imshow(grid.to_numpy(), origin="lower", aspect="auto", cmap=ListedColormap(_ACTION_COLOURS), vmin=-0.5,
              vmax=3.5, extent=(grid.columns.min() - 0.5, grid.columns.max() + 0.5,
                                grid.index.min() - 0.5, grid.index.max() + 0.5))
    handles = [Patch(color=c, label=label) for c, label in
               zip(_ACTION_COLOURS, ["stop", "attack with 1 die", "attack with 2 dice", "attack with 3 dice"])]
    fewer = rows[(rows.action == "attack") & (rows.p_defender_fewer >= 0.5)]
    if len(fewer):
        handles.append(ax.scatter(fewer.defenders, fewer.attackers, s=12, color="k",
                                  label="defender rolls fewer dice"))
    ax.legend(handles=handles, **_OUTSIDE)
    _whole_ticks(ax)
    ax.set_xlabel("defenders (armies)")
    ax.set_ylabel("attackers (armies able to roll)")
    ax.set_title(title)
    return ax


def frontier_lines(frame: pd.DataFrame, hue: str = "value", ax=None,
                   title: str = "Fewest attackers with which attacking is optimal",
                   hue_label: str = "conquest worth {} armies"):
    """``min_attackers`` against ``defenders``, one step line per ``hue`` value; defender counts at which
    the policy never attacks are left out (the line stops there)."""
    ax = _axes(ax)
    for value, group in frame.groupby(hue, sort=True):
        group = group.sort_values("defenders")
        y = np.where(group.min_attackers > 0, group.min_attackers, np.nan)
        ax.step(group.defenders, y, where="mid", marker="o", markersize=3, label=hue_label.format(value))
    ax.set_xlabel("defenders (armies)")
    ax.set_ylabel("fewest attackers (armies able to roll)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(**_OUTSIDE)
    _whole_ticks(ax)
    return ax


def loss_bars(frame: pd.DataFrame, label: str = "rule", value: str = "mean_loss", ax=None,
              title: str = "Value lost against the optimal policy", ylabel: str = "expected loss (armies)"):
    """Bars of each rule's loss against optimal play, in the frame's order, with its value printed above."""
    ax = _axes(ax)
    bars = ax.bar(frame[label], frame[value], color="tab:red")
    ax.bar_label(bars, fmt="%.3f")
    ax.set_ylabel(ylabel)
    ax.set_xlabel(label.replace("_", " "))
    ax.set_title(title)
    ax.tick_params(axis="x", labelrotation=20)
    return ax
