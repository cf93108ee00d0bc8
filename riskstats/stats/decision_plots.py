"""Plots of attack decisions: the optimal policy over the battle's states, and stop frontiers.

Each takes a DataFrame from `riskstats.odds.policy` or `riskstats.analysis.decisions` (and an optional
Axes) and returns the Axes, labelled with units, its legend outside the data.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import PowerNorm, TwoSlopeNorm
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
    """The optimal policy over one territory's states: where the attacker stops (grey), and elsewhere the
    state's expected payoff (``value``, armies) on a square-root colour scale, so that small values stay
    visible beside the large ones; a black step line bounds the states where it attacks (its fewest
    attackers at each defender count), crosses mark states where it rolls fewer than its most dice and
    dots those where the defender rolls fewer than its most dice (at least half the time)."""
    ax = _axes(ax)
    rows = table[table.territory == territory]
    value = rows.pivot(index="attackers", columns="defenders", values="value")
    attack = rows.pivot(index="attackers", columns="defenders", values="action") == "attack"
    shown = np.ma.masked_where(~attack.to_numpy(), value.to_numpy())
    cmap = plt.get_cmap("viridis").with_extremes(bad=_ACTION_COLOURS[0])
    top = float(shown.max()) if shown.count() else 1.0
    low = min(float(shown.min()) if shown.count() else 0.0, 0.0)
    norm = PowerNorm(0.5, vmin=0.0, vmax=max(top, 1e-9)) if low >= 0 else TwoSlopeNorm(0.0, low, max(top, 1e-9))
    image = ax.imshow(shown, origin="lower", aspect="auto", cmap=cmap, norm=norm,
                      extent=(value.columns.min() - 0.5, value.columns.max() + 0.5,
                              value.index.min() - 0.5, value.index.max() + 0.5))
    ax.figure.colorbar(image, ax=ax, orientation="horizontal", fraction=0.05, pad=0.14,
                       label="expected payoff from the state where it attacks (armies, square-root scale)")
    handles = [Patch(color=_ACTION_COLOURS[0], label="stop")]
    first = {d: int(col[col].index.min()) for d, col in attack.items() if col.any()}
    if first:
        ds = np.array(sorted(first))
        edges = np.append(ds - 0.5, ds[-1] + 0.5)
        heights = np.array([first[d] - 0.5 for d in ds])
        (line,) = ax.step(edges, np.append(heights, heights[-1]), where="post", color="k", linewidth=1.5,
                          label="fewest attackers that attack")
        handles.append(line)
    live = rows[rows.action == "attack"]
    most = np.minimum(3, live.attackers)
    fewer_dice = live[live.dice < most]
    if len(fewer_dice):
        handles.append(ax.scatter(fewer_dice.defenders, fewer_dice.attackers, s=18, marker="x", color="tab:red",
                                  label="attacker rolls fewer dice"))
    fewer = live[live.p_defender_fewer >= 0.5]
    if len(fewer):
        handles.append(ax.scatter(fewer.defenders, fewer.attackers, s=12, color="k",
                                  label="defender rolls fewer dice"))
    ax.legend(handles=handles, **_OUTSIDE)
    _whole_ticks(ax)
    ax.set_xlabel("defenders (armies)")
    ax.set_ylabel("attackers (armies able to roll)")
    ax.set_title(title)
    return ax


_STYLES = [("o", "-"), ("s", "--"), ("^", "-."), ("D", ":"), ("v", "-"), ("P", "--")]


def frontier_lines(frame: pd.DataFrame, hue: str = "value", ax=None,
                   title: str = "Fewest attackers with which attacking is optimal",
                   hue_label: str = "conquest worth {} armies"):
    """``min_attackers`` against ``defenders``, one step line per ``hue`` value; defender counts at which
    the policy never attacks are left out (the line stops there). Lines that coincide stay apart: each
    has its own marker and line style and is shifted by a small vertical offset (at most 0.15 army,
    said in the y label), so equal frontiers show as parallel lines."""
    ax = _axes(ax)
    groups = list(frame.groupby(hue, sort=True))
    n = len(groups)
    offsets = np.linspace(-0.15, 0.15, n) if n > 1 else np.zeros(1)
    for (value, group), offset, (marker, style) in zip(groups, offsets, _STYLES * (n // len(_STYLES) + 1)):
        group = group.sort_values("defenders")
        y = np.where(group.min_attackers > 0, group.min_attackers + offset, np.nan)
        ax.step(group.defenders, y, where="mid", marker=marker, linestyle=style, markersize=4,
                label=hue_label.format(value))
    ax.set_xlabel("defenders (armies)")
    ax.set_ylabel("fewest attackers (armies able to roll)" + ("; lines offset by up to ±0.15" if n > 1 else ""))
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
