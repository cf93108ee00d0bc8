"""Board loading: the classic board validates; broken boards give clear errors."""
import copy
import json

import numpy as np
import pytest

from riskstats.errors import RiskstatsError
from riskstats.game.rules.board import board_from_dict, classic_board, load_board


@pytest.fixture
def classic_dict():
    from importlib import resources

    return json.loads(resources.files("riskstats.game").joinpath("data/classic.json").read_text())


def test_classic_board_facts():
    board = classic_board()
    a = board.arrays
    assert (board.n_territories, board.n_borders, board.n_continents, board.n_cards) == (42, 83, 6, 44)
    assert (a.adjacency == a.adjacency.T).all() and not a.adjacency.diagonal().any()
    assert dict(zip(board.continents, a.continent_bonus.tolist())) == {
        "North America": 5, "South America": 2, "Europe": 5, "Africa": 3, "Asia": 7, "Australia": 2}
    assert np.bincount(a.card_symbol).tolist() == [14, 14, 14, 2]
    assert (a.nbr_ptr[1:] - a.nbr_ptr[:-1] == a.adjacency.sum(1)).all()
    alaska, kamchatka = board.territory_index("Alaska"), board.territory_index("Kamchatka")
    assert a.adjacency[alaska, kamchatka]
    # the edges: from, to and back, in the order from ascending, then the neighbour list
    assert a.nbr_src.tolist() == [t for t in range(42) for _ in range(a.nbr_ptr[t], a.nbr_ptr[t + 1])]
    assert (a.nbr_src[a.nbr_rev] == a.nbr_idx).all() and (a.nbr_idx[a.nbr_rev] == a.nbr_src).all()
    assert (a.nbr_rev[a.nbr_rev] == np.arange(2 * 83)).all()
    # entrances: Alaska, Greenland, Central America; Venezuela, Brazil; Iceland, Western Europe, Southern
    # Europe, Ukraine; North Africa, Egypt, East Africa; Ural, Afghanistan, Middle East, Kamchatka, Siam;
    # Indonesia
    assert dict(zip(board.continents, a.continent_entrances.tolist())) == {
        "North America": 3, "South America": 2, "Europe": 4, "Africa": 3, "Asia": 5, "Australia": 1}


def test_load_board_round_trip(tmp_path, classic_dict):
    path = tmp_path / "b.json"
    path.write_text(json.dumps(classic_dict))
    assert load_board(path).n_borders == 83


@pytest.mark.parametrize("breakage, message", [
    ("asymmetric", "asymmetric border"),
    ("disconnected", "not connected"),
    ("two_continents", "in two continents"),
    ("bad_symbol", "has symbol"),
    ("missing_card", "no card for territory"),
    ("unknown_neighbour", "unknown territory"),
])
def test_broken_boards(classic_dict, breakage, message):
    d = copy.deepcopy(classic_dict)
    if breakage == "asymmetric":
        d["adjacency"]["Alaska"].append("Iceland")
    elif breakage == "disconnected":
        for t in d["continents"]["Australia"]["territories"]:
            d["adjacency"][t] = [u for u in d["adjacency"][t] if u in d["continents"]["Australia"]["territories"]]
        d["adjacency"]["Siam"].remove("Indonesia")
    elif breakage == "two_continents":
        d["continents"]["Asia"]["territories"].append("Egypt")
    elif breakage == "bad_symbol":
        d["cards"]["Alaska"] = "dragon"
    elif breakage == "missing_card":
        del d["cards"]["Alaska"]
    elif breakage == "unknown_neighbour":
        d["adjacency"]["Alaska"].append("Atlantis")
    with pytest.raises(RiskstatsError, match=message):
        board_from_dict(d, "test")


def test_missing_file_and_bad_json(tmp_path):
    with pytest.raises(RiskstatsError, match="not found"):
        load_board(tmp_path / "none.json")
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(RiskstatsError, match="not JSON"):
        load_board(tmp_path / "bad.json")


def test_a_small_custom_board_plays():
    from riskstats.game.play import play_game

    d = {"continents": {"A": {"bonus": 2, "territories": ["a", "b", "c"]},
                        "B": {"bonus": 1, "territories": ["d", "e", "f"]}},
         "adjacency": {"a": ["b"], "b": ["a", "c"], "c": ["b", "d"], "d": ["c", "e"], "e": ["d", "f"], "f": ["e"]},
         "cards": {"a": "infantry", "b": "cavalry", "c": "artillery", "d": "infantry", "e": "cavalry",
                   "f": "artillery"},
         "wilds": 1, "starting_armies": {"3": 5}}
    game = play_game(3, ["aggressive"], board=board_from_dict(d), seed=3)
    assert game.over


def test_names_and_aliases():
    board = classic_board()
    assert board.territory_index("Mexico") == board.territory_index("Central America")
    assert board.territory_name("Russia") == "Ukraine" and board.continent_name("Oceania") == "Australia"
    with pytest.raises(RiskstatsError, match="unknown territory 'Kamchatca'; did you mean 'Kamchatka'"):
        board.territory_name("Kamchatca")
    with pytest.raises(RiskstatsError, match="did you mean 'Ukraine'"):  # a misspelt alias leads to its territory
        board.territory_name("Rusia")
    with pytest.raises(RiskstatsError, match="unknown continent 'Atlantis'$"):
        board.continent_name("Atlantis")
    with pytest.raises(RiskstatsError, match="unknown territory 'Australia'"):  # a continent, no territory
        board.territory_name("Australia")


@pytest.mark.parametrize("aliases, message", [
    ({"Narnia": ["X"]}, "name_aliases names 'Narnia'"),
    ({"Alaska": "Alyaska"}, "must be a list of names"),
    ({"Alaska": ["Peru"]}, "alias 'Peru' is already the name"),
    ({"Alaska": ["X"], "Peru": ["X"]}, "alias 'X' is already the name"),
])
def test_bad_aliases_are_refused(classic_dict, aliases, message):
    with pytest.raises(RiskstatsError, match=message):
        board_from_dict(classic_dict | {"name_aliases": aliases})


def test_mission_table_columns_are_named():
    from riskstats.game.rules.board import MISSION_TABLE, MISSION_TYPES, MT_EUROPEAN, MT_KIND, MT_TARGET

    missions = classic_board().arrays.missions
    assert missions.shape[1] == len(MISSION_TABLE)
    destroy = missions[:, MT_KIND] == MISSION_TYPES.index("destroy")
    assert destroy.any() and (missions[destroy, MT_TARGET] >= 0).all() and (missions[~destroy, MT_TARGET] == -1).all()
    assert set(missions[:, MT_EUROPEAN]) <= {0, 1}
