"""The board map: who owns what, and with how many armies, drawn at each territory's place on the board.

This module owns `board_map` (a game or a position drawn on an Axes), `map_state` (what it draws: one
row per territory with its continent, owner, armies and coordinates), `seat_status` and `status_lines`
(whose move it is, the phase, the reserve and each seat's cards, as the map's title and legend and
``riskstats show`` state them) and `board_layout` (where each territory sits). The classic board has a
layout file, ``riskstats/game/data/classic_layout.json``: coordinates laid out to resemble the familiar
world map, and the borders that cross water (the sea lines, drawn dashed). Any other board gets a spring
layout computed here (borders pull, territories push apart, a continent's territories pull together;
seeded, so the same board draws the same way), or the coordinates a caller passes. A border longer than
half the map's width (Alaska-Kamchatka) is drawn wrapping round the edges, as on the board.

Territories are circles filled with their owner's colour (the board's player colours, seat s plays
colour s; the two-player neutral grey, unclaimed white) with their armies written inside and their
names below; each continent is a coloured halo round its territories, labelled with its name and bonus.
A position is read and validated whole by `riskstats.game.position.game_from_position`, the reader
behind `riskstats.game.play.Game.from_json` and ``riskstats evaluate``, so a bad position gets the same
message everywhere. It does not own the positions' format (`riskstats.game.position`) or the other plots
(`riskstats.stats.plots`); ``riskstats.plots`` gathers both.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from riskstats.errors import RiskstatsError
from riskstats.game.position import game_from_position
from riskstats.game.rules.board import Board, classic_board
from riskstats.game.rules.state import I_PHASE, I_PLAYER, I_RESERVE, I_ROUND, I_TURN, PHASES

LAYOUT_FILES = {"classic": "classic_layout.json"}
"""Layout files (in ``riskstats/game/data``) by board name."""

SEAT_COLOURS = {"black": "#3b3b3b", "blue": "#2f6fc0", "green": "#2e9e48", "pink": "#e37bc0", "red": "#d03a32",
                "yellow": "#f0c419"}
"""How the board's player colours are drawn (other colour names are taken as matplotlib colours)."""
FALLBACK_COLOURS = ("#d03a32", "#2f6fc0", "#2e9e48", "#f0c419", "#8c5bb5", "#e37bc0")
NEUTRAL_COLOUR, UNOWNED_COLOUR = "#b5b5b5", "#ffffff"
CONTINENT_COLOURS = ("#f5c77e", "#e9a0a0", "#9fc5e8", "#c9b37e", "#b6d7a8", "#c7a6dc", "#9fd8d2", "#f4b6d2")


@dataclass(frozen=True)
class Layout:
    """Where a board's territories are drawn: ``xy`` [T, 2] (x east, y north), the sea lines (pairs of
    territory indices, smaller first), the map's ``width`` and ``height``, and continent label places."""

    xy: np.ndarray
    sea: frozenset
    width: float
    height: float
    labels: dict


def _read_layout(board: Board, data: dict, source: str) -> Layout:
    def bad(message):
        raise RiskstatsError(f"invalid layout {source}: {message}")

    places = data.get("territories")
    if not isinstance(places, dict):
        bad("needs 'territories': territory name -> [x, y]")
    missing = [t for t in board.territories if t not in places]
    if missing:
        bad(f"territory {missing[0]!r} has no place ({len(missing)} missing)")
    unknown = [t for t in places if t not in board.territories]
    if unknown:
        bad(f"unknown territory {unknown[0]!r} on board {board.name!r}")
    try:
        xy = np.array([[float(v) for v in places[t]] for t in board.territories])
    except (TypeError, ValueError):
        bad("every place is [x, y], two numbers")
    if xy.shape != (board.n_territories, 2) or not np.isfinite(xy).all():
        bad("every place is [x, y], two numbers")
    sea = set()
    for pair in data.get("sea_lines", []):
        if not (isinstance(pair, list) and len(pair) == 2 and all(p in board.territories for p in pair)):
            bad(f"a sea line is two territories of the board, got {pair!r}")
        i, j = sorted(board.territories.index(p) for p in pair)
        if not board.arrays.adjacency[i, j]:
            bad(f"sea line {pair[0]} - {pair[1]} is not a border")
        sea.add((i, j))
    labels = {name: tuple(map(float, at)) for name, at in data.get("continent_labels", {}).items()}
    width = float(data.get("width", xy[:, 0].max() + xy[:, 0].min()))
    height = float(data.get("height", xy[:, 1].max() + xy[:, 1].min()))
    return Layout(xy, frozenset(sea), width, height, labels)


def spring_layout(board: Board, seed: int = 0, width: float = 100.0, height: float = 62.0,
                  steps: int = 400) -> np.ndarray:
    """Coordinates [T, 2] for a board without a layout file: a Fruchterman-Reingold spring layout of its
    border graph (borders attract, every pair repels, territories of one continent attract weakly),
    scaled to ``width`` x ``height``. Deterministic for a given ``seed``.

    >>> xy = spring_layout(classic_board())
    >>> xy.shape, bool(xy.min() >= 0), bool(xy[:, 0].max() <= 100)
    ((42, 2), True, True)
    """
    n = board.n_territories
    rng = np.random.default_rng(seed)
    pos = rng.uniform(-1, 1, (n, 2))
    adjacency = board.arrays.adjacency.astype(float)
    continent = board.arrays.continent_of
    together = (continent[:, None] == continent[None, :]).astype(float) - np.eye(n)
    k = 1.0 / np.sqrt(n)
    temperature = 0.1
    for _ in range(steps):
        delta = pos[:, None, :] - pos[None, :, :]
        distance = np.maximum(np.linalg.norm(delta, axis=2), 1e-3)
        force = k * k / distance - (adjacency + 0.15 * together) * distance ** 2 / k
        np.fill_diagonal(force, 0.0)
        move = (delta / distance[:, :, None] * force[:, :, None]).sum(1)
        length = np.maximum(np.linalg.norm(move, axis=1, keepdims=True), 1e-9)
        pos += move / length * np.minimum(length, temperature)
        temperature = max(temperature * 0.99, 0.002)
    low, high = pos.min(0), pos.max(0)
    span = np.where(high - low > 0, high - low, 1.0)
    margin = 6.0
    return margin + (pos - low) / span * (np.array([width, height]) - 2 * margin)


def board_layout(board: Board, layout=None, seed: int = 0) -> Layout:
    """Where to draw ``board``'s territories: ``layout`` (a layout file's path, its dict, or a dict of
    territory name -> (x, y)), else the board's layout file (`LAYOUT_FILES`), else `spring_layout`."""
    if layout is None and board.name in LAYOUT_FILES:
        layout = Path(__file__).resolve().parents[1] / "game" / "data" / LAYOUT_FILES[board.name]
    if layout is None:
        return Layout(spring_layout(board, seed), frozenset(), 100.0, 62.0, {})
    if isinstance(layout, (str, Path)):
        try:
            data = json.loads(Path(layout).read_text())
        except OSError as error:
            raise RiskstatsError(f"cannot read layout file {str(layout)!r}: {error.strerror}") from None
        except json.JSONDecodeError as error:
            raise RiskstatsError(f"layout file {str(layout)!r} is not JSON ({error})") from None
        return _read_layout(board, data, repr(str(layout)))
    if isinstance(layout, dict):
        data = layout if "territories" in layout else {"territories": layout}
        return _read_layout(board, {**data, "territories": {k: list(v) for k, v in data["territories"].items()}},
                            "given")
    raise RiskstatsError(f"layout must be a layout file's path or a dict, got {type(layout).__name__}")


def _read_position(position, board: Board | None):
    """(board, players, state) of a position: a dict, JSON text, or a JSON file's path, validated whole by
    the position reader (`riskstats.game.position.game_from_position`, as `Game.from_json` and ``riskstats
    evaluate`` read it), so a bad position gets the same one-line message everywhere."""
    if isinstance(position, Path) or (isinstance(position, str) and not position.lstrip().startswith("{")):
        try:
            position = Path(position).read_text()
        except OSError as error:
            raise RiskstatsError(f"cannot read position file {str(position)!r}: {error.strerror}") from None
    _, board, players, _, state = game_from_position(position, board)
    return board, players, state


def _read(game_or_position, board: Board | None):
    """(board, players, state) of a Game or a position; state is None for a territories frame, which has
    only owners and armies (in a stand-in state with no cards, turn or phase)."""
    if hasattr(game_or_position, "state") and hasattr(game_or_position, "board"):
        return game_or_position.board, game_or_position.players, game_or_position.state
    if isinstance(game_or_position, pd.DataFrame):
        board = board or classic_board()
        frame = game_or_position.set_index("territory")
        missing = [t for t in board.territories if t not in frame.index]
        if missing:
            raise RiskstatsError(f"territory {missing[0]!r} is missing from the frame")
        owner = frame.loc[list(board.territories), "owner"].to_numpy(np.int64)
        armies = frame.loc[list(board.territories), "armies"].to_numpy(np.int64)
        return board, int(max(owner.max() + 1, 2)), _Territories(owner, armies)
    if isinstance(game_or_position, (dict, str, bytes, Path)):
        return _read_position(game_or_position, board)
    raise RiskstatsError(f"board_map draws a Game, a position or a territories frame, got "
                         f"{type(game_or_position).__name__}")


@dataclass(frozen=True)
class _Territories:
    """Owners and armies alone (a territories frame): what a map needs, and no more."""

    owner: np.ndarray
    armies: np.ndarray


def map_state(game_or_position, board: Board | None = None, layout=None, seed: int = 0):
    """What `board_map` draws: ``(board, layout, frame, players)``; ``frame`` has one row per territory
    (board order): territory, continent, owner (seat; ``players`` is the two-player neutral, -1
    unclaimed), armies, x, y.

    ``game_or_position``: a `riskstats.game.play.Game`, a position (a dict, JSON text, or the path of a
    JSON file: docs/positions.md), or a territories frame (``Game.territories()``: territory, owner,
    armies) with ``board``.
    """
    board, players, state = _read(game_or_position, board)
    where, frame = _territory_frame(board, state, layout, seed)
    return board, where, frame, players


def _territory_frame(board: Board, state, layout, seed: int):
    where = board_layout(board, layout, seed)
    frame = pd.DataFrame({"territory": board.territories,
                          "continent": [board.continents[k] for k in board.arrays.continent_of],
                          "owner": state.owner.copy(), "armies": state.armies.copy(),
                          "x": where.xy[:, 0], "y": where.xy[:, 1]})
    return where, frame


def seat_status(game_or_position, board: Board | None = None) -> pd.DataFrame:
    """Where a game or a position stands, seat by seat: one row per seat (the two-player neutral last) with
    its ``colour``, ``territories``, ``armies``, ``cards`` (in hand), ``setup_armies`` (still to place in
    setup) and ``to_move`` (the seat whose move it is), and the game's ``turn``, ``round``, ``phase`` and
    ``reserve`` (armies the player to move still has to place this turn), the same on every row.

    >>> position = {"players": 3, "phase": "reinforce", "player": 1, "turn": 5, "round": 2, "reserve": 4,
    ...             "hands": [["Peru"], [], ["wild", "Ural"]],
    ...             "territories": {t: [i % 3, 2] for i, t in enumerate(classic_board().territories)}}
    >>> print(seat_status(position)[["seat", "colour", "territories", "cards", "to_move"]].to_string(index=False))
     seat colour  territories  cards  to_move
        0  black           14      1    False
        1   blue           14      0     True
        2  green           14      2    False
    """
    board, players, state = _read(game_or_position, board)
    if isinstance(state, _Territories):
        raise RiskstatsError("a territories frame holds no turn, phase or cards: give a Game or a position")
    return _status(board, players, state)


def _status(board: Board, players: int, state) -> pd.DataFrame:
    info = state.info
    seats = range(len(state.alive))
    return pd.DataFrame({
        "seat": list(seats),
        "colour": [_colour_name(board, players, s) for s in seats],
        "territories": [int((state.owner == s).sum()) for s in seats],
        "armies": [int(state.armies[state.owner == s].sum()) for s in seats],
        "cards": [int((state.card_owner == s).sum()) for s in seats],
        "setup_armies": [int(state.to_place[s]) for s in seats],
        "to_move": [s == info[I_PLAYER] for s in seats],
        "turn": int(info[I_TURN]), "round": int(info[I_ROUND]), "phase": PHASES[info[I_PHASE]],
        "reserve": int(info[I_RESERVE]),
    })


def _count(n: int, one: str, many: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{n} {one if n == 1 else many}"


def _colour_name(board: Board, players: int, seat: int) -> str:
    if seat >= players:
        return "neutral"
    return board.colours[seat] if seat < len(board.colours) else ""


def _seat_name(seat: int, colour: str) -> str:
    return "neutral" if colour == "neutral" else f"seat {seat}" + (f" ({colour})" if colour else "")


def status_lines(status: pd.DataFrame) -> list[str]:
    """Two lines of words for a `seat_status` frame: whose move it is, in which phase, with what reserve;
    and the cards in each player's hand (in setup: the armies each seat still has to place).

    >>> from riskstats.game.play import Game
    >>> for line in status_lines(seat_status(Game(3, seed=1))):
    ...     print(line)
    setup: seat 0 (black) to move, phase claim
    armies still to place: seat 0 (black) 35, seat 1 (blue) 35, seat 2 (green) 35
    """
    first = status.iloc[0]
    mover = status[status.to_move]
    who = _seat_name(int(mover.seat.iloc[0]), mover.colour.iloc[0]) if len(mover) else "nobody"
    players = status[status.colour != "neutral"]
    if first.phase == "over":
        line = f"game over at turn {first.turn} (round {first['round']})"
    elif first.turn == 0:
        line = f"setup: {who} to move, phase {first.phase}"
    else:
        line = (f"turn {first.turn} (round {first['round']}): {who} to move, phase {first.phase}, "
                f"reserve {first.reserve}")
    if first.turn == 0 and first.phase != "over" and status.setup_armies.any():
        counts = "armies still to place: " + ", ".join(
            f"{_seat_name(r.seat, r.colour)} {r.setup_armies}" for r in status.itertuples())
    else:
        counts = "cards in hand: " + ", ".join(f"{_seat_name(r.seat, r.colour)} {r.cards}"
                                              for r in players.itertuples())
    return [line, counts]


def seat_colours(board: Board, players: int) -> list[str]:
    """The fill colour of each seat 0..players-1, then the two-player neutral (seat ``players``)."""
    from matplotlib.colors import is_color_like

    names = list(board.colours)
    out = []
    for s in range(players):
        name = names[s] if s < len(names) else None
        out.append(SEAT_COLOURS.get(name, name if name and is_color_like(name) else FALLBACK_COLOURS[s % 6]))
    return out + [NEUTRAL_COLOUR]


def _fill(owner: int, colours: list[str]) -> str:
    return UNOWNED_COLOUR if owner < 0 else colours[min(owner, len(colours) - 1)]


def _ink(colour: str) -> str:
    """Black or white text, whichever reads on ``colour``."""
    from matplotlib.colors import to_rgb

    r, g, b = to_rgb(colour)
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "white"


def _halo(points: np.ndarray, radius: float) -> np.ndarray:
    """The convex outline, rounded by ``radius``, round a continent's territory places."""
    from scipy.spatial import ConvexHull

    angles = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    ring = radius * np.stack([np.cos(angles), np.sin(angles)], axis=1)
    cloud = (points[:, None, :] + ring[None, :, :]).reshape(-1, 2)
    return cloud[ConvexHull(cloud).vertices]


def _two_lines(name: str) -> str:
    if len(name) <= 11 or " " not in name:
        return name
    words = name.split(" ")
    cut = min(range(1, len(words)), key=lambda k: abs(len(" ".join(words[:k])) - len(" ".join(words[k:]))))
    return " ".join(words[:cut]) + "\n" + " ".join(words[cut:])


def board_map(game_or_position, ax=None, *, board: Board | None = None, layout=None, title: str | None = None,
              names: bool = True, legend: bool = True, seed: int = 0, armies: bool = True,
              owners: dict | None = None):
    """Draw a game or a position on its board: territories coloured by owner with their armies, continents
    outlined and labelled, borders (sea lines dashed, Alaska-Kamchatka round the edges). Returns the Axes.

    Parameters
    ----------
    game_or_position : Game, dict, str or pathlib.Path
        A `riskstats.game.play.Game`, a position (a dict, JSON text or a JSON file's path; docs/positions.md),
        or a territories frame (``Game.territories()``) with ``board``.
    ax : matplotlib Axes, optional
        Where to draw; a new 14 x 8.6 inch figure by default.
    board : Board, optional
        The board, when the position names a board other than classic (or for a territories frame).
    layout : str, pathlib.Path or dict, optional
        Territory coordinates (see `board_layout`); by default the board's layout file, else a spring layout.
    title : str, optional
    names : bool
        Write each territory's name under it.
    legend : bool
        A legend of the seats (with their territories and armies) and continents, outside the map.
    seed : int
        Seed of the spring layout of a board without a layout file.
    armies : bool
        Write each territory's armies inside it; False draws the owners alone (a map of who holds what, where
        armies would only be placeholders).
    owners : dict, optional
        What the legend calls the owners: seat number (-1 unclaimed, ``players`` the neutral) to a name, such
        as ``{0: "held: Australia", -1: "not held"}``; given, the legend lists only the owners named.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> position = {"players": 3, "phase": "attack", "player": 0, "turn": 1, "round": 1,
    ...             "territories": {t: [i % 3, 1 + i % 4] for i, t in enumerate(classic_board().territories)}}
    >>> ax = board_map(position)
    >>> len([t for t in ax.texts if (t.get_gid() or "").startswith("armies:")])
    42
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch, Polygon

    board, players, state = _read(game_or_position, board)
    where, frame = _territory_frame(board, state, layout, seed)
    status = None if isinstance(state, _Territories) else _status(board, players, state)
    if ax is None:
        ax = plt.subplots(figsize=(14, 8.6))[1]
    colours = seat_colours(board, players)
    xy = where.xy
    radius = 2.1

    for k, continent in enumerate(board.continents):
        members = board.continent_territories(k)
        colour = CONTINENT_COLOURS[k % len(CONTINENT_COLOURS)]
        outline = _halo(xy[members], radius + 1.3)
        ax.add_patch(Polygon(outline, closed=True, facecolor=colour, alpha=0.35, edgecolor=colour, linewidth=2.5,
                             joinstyle="round", zorder=0, gid=f"continent:{continent}"))
        at = where.labels.get(continent, (float(outline[:, 0].mean()), float(outline[:, 1].max()) + 0.6))
        ax.text(*at, f"{continent} (+{int(board.arrays.continent_bonus[k])})", ha="center", va="bottom",
                fontsize=10, fontweight="bold", fontstyle="italic", color="#4a4a4a", zorder=1,
                gid=f"continent_label:{continent}")

    adjacency = board.arrays.adjacency
    for i in range(board.n_territories):
        for j in range(i + 1, board.n_territories):
            if not adjacency[i, j]:
                continue
            style = {"color": "#5a7fa8" if (i, j) in where.sea else "#707070", "zorder": 2,
                     "linestyle": (0, (3, 2)) if (i, j) in where.sea else "-",
                     "linewidth": 1.0 if (i, j) in where.sea else 1.3}
            (x0, y0), (x1, y1) = xy[i], xy[j]
            if abs(x1 - x0) > where.width / 2:  # round the back of the map: off one edge, in at the other
                if x0 > x1:
                    (x0, y0), (x1, y1) = (x1, y1), (x0, y0)
                gap = x0 + (where.width - x1)
                y_edge = y0 + (y1 - y0) * x0 / gap if gap > 0 else y0
                ax.plot([x0, 0], [y0, y_edge], gid="border", **style)
                ax.plot([where.width, x1], [y_edge, y1], gid="border", **style)
            else:
                ax.plot([x0, x1], [y0, y1], gid="border", **style)

    fills = [_fill(int(o), colours) for o in frame["owner"]]
    ax.scatter(frame["x"], frame["y"], s=(radius * 2 * 72 / 12) ** 2 * 1.6, c=fills, edgecolors="#222222",
               linewidths=1.0, zorder=3, gid="territories")
    for r, fill in zip(frame.itertuples(), fills):
        if armies:
            ax.text(r.x, r.y, str(int(r.armies)), ha="center", va="center", fontsize=9, fontweight="bold",
                    color=_ink(fill), zorder=4, gid=f"armies:{r.territory}")
        if names:
            ax.text(r.x, r.y - radius - 0.35, _two_lines(r.territory), ha="center", va="top", fontsize=6.5,
                    color="#1a1a1a", zorder=4, linespacing=0.95, gid=f"name:{r.territory}")

    tops = [t.get_position()[1] for t in ax.texts if (t.get_gid() or "").startswith("continent_label:")]
    ax.set_xlim(-1, where.width + 1)
    ax.set_ylim(min(-2.0, float(xy[:, 1].min()) - 6), max(where.height, *tops) + 3)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)
    heading = title or f"{board.name} board: {players} players, territories by owner" + (
        ", armies written" if armies else "")
    ax.set_title(heading if status is None else f"{heading}\n{status_lines(status)[0]}")
    if legend:
        handles = []
        seats = list(range(players)) + ([players] if (frame["owner"] == players).any() else [])
        if owners is not None:
            seats = [s for s in seats if s in owners]
        for s in seats:
            mine = frame["owner"] == s
            label = owners[s] if owners is not None else ("neutral" if s == players else f"seat {s}" + (
                f" ({board.colours[s]})" if s < len(board.colours) else ""))
            counts = _count(int(mine.sum()), "territory", "territories") + (
                f", {_count(int(frame.armies[mine].sum()), 'army', 'armies')}" if armies else "")
            if status is not None and s < players:
                row = status.iloc[s]
                setup = row.turn == 0 and row.phase != "over" and status.setup_armies.any()
                counts += f", {row.setup_armies} to place" if setup else f", {_count(row.cards, 'card', 'cards')}"
                counts += " (to move)" if row.to_move else ""
            handles.append(Line2D([], [], marker="o", linestyle="", markersize=11, markerfacecolor=colours[s],
                                  markeredgecolor="#222222", label=f"{label}: {counts}"))
        if (frame["owner"] < 0).any() and (owners is None or -1 in owners):
            unclaimed = int((frame.owner < 0).sum())
            label = (f"unclaimed: {unclaimed}" if owners is None else
                     f"{owners[-1]}: {_count(unclaimed, 'territory', 'territories')}")
            handles.append(Line2D([], [], marker="o", linestyle="", markersize=11, markerfacecolor=UNOWNED_COLOUR,
                                  markeredgecolor="#222222", label=label))
        handles += [Patch(facecolor=CONTINENT_COLOURS[k % len(CONTINENT_COLOURS)], alpha=0.5, label=c)
                    for k, c in enumerate(board.continents)]
        handles += [Line2D([], [], color="#707070", linewidth=1.3, label="border"),
                    Line2D([], [], color="#5a7fa8", linewidth=1.0, linestyle=(0, (3, 2)), label="sea line")]
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, fontsize=8,
                  title="owners (number: armies)" if armies else "owners", title_fontsize=9)
    return ax
