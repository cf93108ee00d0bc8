"""The board map: every territory drawn and labelled, coloured by its owner, continents and borders drawn,
positions and games read, custom boards laid out."""
import json

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

from riskstats.errors import RiskstatsError  # noqa: E402
from riskstats.game.rules.board import board_from_dict, classic_board  # noqa: E402
from riskstats.stats.board_map import board_layout, board_map, map_state, seat_colours, spring_layout  # noqa: E402


def position(players=3, owner=lambda i: i % 3, armies=lambda i: 1 + i % 5, **extra):
    territories = {t: [owner(i), armies(i)] for i, t in enumerate(classic_board().territories)}
    return {"players": players, "phase": "attack", "player": 0, "turn": 1, "round": 1, "territories": territories,
            **extra}


def texts(ax, kind):
    return {t.get_gid().split(":", 1)[1]: t.get_text() for t in ax.texts if (t.get_gid() or "").startswith(kind)}


def test_the_map_has_42_territories_labelled_with_armies_and_names():
    board = classic_board()
    ax = board_map(position())
    armies = texts(ax, "armies:")
    assert set(armies) == set(board.territories) and len(armies) == 42
    assert all(armies[t] == str(1 + i % 5) for i, t in enumerate(board.territories))
    names = texts(ax, "name:")
    assert {n.replace("\n", " ") for n in names.values()} == set(board.territories)
    assert set(texts(ax, "continent_label:")) == set(board.continents)
    assert texts(ax, "continent_label:")["Asia"] == "Asia (+7)"
    assert ax.get_legend() is not None and ax.get_title()


def test_a_map_of_who_holds_what_writes_no_placeholder_armies_and_names_its_owners():
    """Issue 42, item 7: notebook 08's maps wrote 0 and 1 on the territories (held or not) where a reader
    expects army counts; ``armies=False`` draws the owners alone and ``owners`` names them in the legend."""
    import pandas as pd

    board = classic_board()
    held = [board.continents[k] == "Australia" for k in board.arrays.continent_of]
    frame = pd.DataFrame({"territory": list(board.territories), "owner": [0 if h else -1 for h in held],
                          "armies": [int(h) for h in held]})
    ax = board_map(frame, armies=False, owners={0: "held: Australia", -1: "not held"})
    assert texts(ax, "armies:") == {}
    legend = ax.get_legend()
    assert [t.get_text() for t in legend.get_texts()][:2] == ["held: Australia: 4 territories",
                                                             "not held: 38 territories"]
    assert legend.get_title().get_text() == "owners" and "armies written" not in ax.get_title()
    assert len(texts(board_map(frame), "armies:")) == 42  # the default still writes them


def test_territories_are_coloured_by_owner():
    board = classic_board()
    ax = board_map(position(players=4, owner=lambda i: (i * 7) % 4))
    dots = next(c for c in ax.collections if c.get_gid() == "territories")
    colours = seat_colours(board, 4)
    fills = [to_hex(c) for c in dots.get_facecolors()]
    assert fills == [to_hex(colours[(i * 7) % 4]) for i in range(42)]
    assert len(set(fills)) == 4 and len(set(colours[:6])) == len(colours[:6])


def test_the_neutral_and_unclaimed_have_their_own_colours():
    ax = board_map(position(players=2, owner=lambda i: i % 3))  # seat 2 of a two-player game: the neutral
    dots = next(c for c in ax.collections if c.get_gid() == "territories")
    assert to_hex(dots.get_facecolors()[2]) == "#b5b5b5"
    assert any("neutral" in t.get_text() for t in ax.get_legend().get_texts())
    claim = position(owner=lambda i: -1 if i < 5 else i % 3, armies=lambda i: 0 if i < 5 else 1, phase="claim",
                     turn=0, round=0, setup_armies=[24, 24, 24])
    dots = next(c for c in board_map(claim).collections if c.get_gid() == "territories")
    assert to_hex(dots.get_facecolors()[0]) == "#ffffff"


def test_every_border_is_drawn_and_alaska_kamchatka_wraps_round_the_edges():
    board = classic_board()
    ax = board_map(position())
    lines = [line for line in ax.get_lines() if line.get_gid() == "border"]
    assert len(lines) == board.n_borders + 1  # the wrapping border is two segments
    layout = board_layout(board)
    a, k = board.territories.index("Alaska"), board.territories.index("Kamchatka")
    ends = [tuple(np.round(line.get_xydata()[:, 0], 6)) for line in lines]
    assert (layout.xy[a, 0], 0.0) in ends and (layout.width, layout.xy[k, 0]) in ends
    assert (min(a, k), max(a, k)) in layout.sea
    dashed = [line for line in lines if line.get_linestyle() != "-"]
    assert len(dashed) == len(layout.sea) + 1


def test_the_classic_layout_resembles_the_world_map():
    board = classic_board()
    xy = dict(zip(board.territories, board_layout(board).xy))
    assert xy["Alaska"][0] < xy["Greenland"][0] < xy["Iceland"][0] < xy["Ural"][0] < xy["Kamchatka"][0]
    assert xy["Argentina"][1] < xy["Brazil"][1] < xy["Venezuela"][1] < xy["Central America"][1]
    assert xy["South Africa"][1] < xy["Egypt"][1] < xy["Southern Europe"][1] < xy["Scandinavia"][1]
    assert xy["Eastern Australia"][0] > xy["Western Australia"][0]


def test_positions_are_read_from_files_text_dicts_and_games(tmp_path):
    pos = position()
    path = tmp_path / "p.json"
    path.write_text(json.dumps(pos))
    frames = [map_state(p)[2] for p in (pos, json.dumps(pos), str(path), path)]
    for frame in frames[1:]:
        assert frame.equals(frames[0])
    assert list(frames[0].columns) == ["territory", "continent", "owner", "armies", "x", "y"]


def test_a_game_is_drawn_as_it_stands():
    from riskstats.game.play import Game

    game = Game(players=3, seed=4).play(["aggressive"], max_moves=300)
    ax = board_map(game)
    armies = texts(ax, "armies:")
    assert [int(armies[t]) for t in game.board.territories] == game.state.armies.tolist()


@pytest.mark.parametrize(("change", "message"), [
    (lambda p: p["territories"].pop("Peru"), "territory 'Peru' is missing"),
    (lambda p: p["territories"].update({"Atlantis": [0, 1]}), "unknown territory 'Atlantis'"),
    (lambda p: p.update(players=9), "players must be from 2 to 6"),
    (lambda p: p["territories"].update({"Peru": [7, 1]}), "owner must be a seat"),
])
def test_bad_positions_are_refused_with_one_line(change, message):
    pos = position()
    change(pos)
    with pytest.raises(RiskstatsError, match=message):
        board_map(pos)


def test_the_map_and_seat_status_say_whose_move_it_is():
    """Turn, phase, the seat to move and its reserve under the title; each seat's cards in the legend."""
    from riskstats.stats.board_map import seat_status, status_lines

    pos = position(phase="reinforce", player=2, turn=7, round=3, reserve=6, hands=[[], ["Peru", "Ural"], ["wild"]])
    status = seat_status(pos)
    assert status[["seat", "colour", "cards", "to_move"]].values.tolist() == [
        [0, "black", 0, False], [1, "blue", 2, False], [2, "green", 1, True]]
    assert set(status.phase) == {"reinforce"} and set(status.reserve) == {6}
    assert status_lines(status) == ["turn 7 (round 3): seat 2 (green) to move, phase reinforce, reserve 6",
                                     "cards in hand: seat 0 (black) 0, seat 1 (blue) 2, seat 2 (green) 1"]
    ax = board_map(pos, title="x")
    assert ax.get_title() == "x\nturn 7 (round 3): seat 2 (green) to move, phase reinforce, reserve 6"
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "seat 2 (green): 14 territories, 40 armies, 1 card (to move)" in legend
    assert "seat 1 (blue): 14 territories, 41 armies, 2 cards" in legend
    neutral = seat_status(position(players=2, owner=lambda i: i % 3))
    assert neutral.colour.tolist() == ["black", "blue", "neutral"]
    with pytest.raises(RiskstatsError, match="no turn, phase or cards"):
        seat_status(map_state(pos)[2], classic_board())


def test_a_custom_board_gets_a_spring_layout():
    data = {"name": "tiny", "continents": {"West": {"bonus": 1, "territories": ["a", "b", "c"]},
                                           "East": {"bonus": 2, "territories": ["d", "e", "f"]}},
            "adjacency": {"a": ["b", "c"], "b": ["a", "c", "d"], "c": ["a", "b", "e"], "d": ["b", "e", "f"],
                          "e": ["c", "d", "f"], "f": ["d", "e"]},
            "cards": dict(zip("abcdef", ["infantry", "cavalry", "artillery"] * 2)), "wilds": 0}
    board = board_from_dict(data)
    xy = spring_layout(board, seed=1)
    assert np.array_equal(xy, spring_layout(board, seed=1)) and xy.shape == (6, 2)
    distance = np.linalg.norm(xy[:, None] - xy[None], axis=2)
    assert distance[np.triu_indices(6, 1)].min() > 5  # territories kept apart
    frame = board.territories
    ax = board_map({"board": data, "players": 2, "phase": "attack", "player": 0, "turn": 1, "round": 1,
                    "territories": {t: [i % 2, 3] for i, t in enumerate(frame)}})
    assert len(texts(ax, "armies:")) == 6 and set(texts(ax, "continent_label:")) == {"West", "East"}


def test_a_layout_can_be_given_and_is_checked():
    board = classic_board()
    places = {t: (i % 7 * 10, i // 7 * 10) for i, t in enumerate(board.territories)}
    assert board_layout(board, places).xy[8].tolist() == [10.0, 10.0]
    with pytest.raises(RiskstatsError, match="has no place"):
        board_layout(board, {"Alaska": (0, 0)})
    with pytest.raises(RiskstatsError, match="is not a border"):
        board_layout(board, {"territories": places, "sea_lines": [["Alaska", "Peru"]]})
