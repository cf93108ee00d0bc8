"""Mission-card win rates: trials are decided games, the fair share is tested per card, stalled games apart."""
import numpy as np
import pandas as pd
import pytest

from riskstats.analysis.missions import mission_kind, mission_seats, mission_win_rates
from riskstats.errors import RiskstatsError
from riskstats.runs.selfplay import play_games


@pytest.fixture(scope="module")
def games():
    return play_games(300, 4, "mission,continent-tuned,aggressive,mission", variant="mission", seed=5)


def test_every_seat_holds_one_card_and_cards_are_unique_per_game(games):
    seats = mission_seats(games)
    assert len(seats) == 4 * len(games)
    twice = seats[seats.duplicated(["game", "mission"], keep=False)]
    assert set(twice["mission"]) <= {"24 territories (own colour)"}  # only the fallback is held twice
    assert (twice["kind"] == "destroy (own colour)").all()
    assert set(seats["kind"]) <= {"continents", "destroy", "destroy (own colour)", "territories"}


def test_card_win_rates_add_up_to_the_games(games):
    rates = mission_win_rates(games)
    decided = int((games.winner >= 0).sum())
    assert rates["wins"].sum() == decided  # one winner per decided game, holding one card
    assert rates["trials"].sum() == 4 * decided
    assert rates["truncated"].sum() == 4 * int((games.winner < 0).sum())
    assert (rates["by_mission"] <= rates["wins"]).all()
    assert ((rates.ci_low <= rates.win_rate) & (rates.win_rate <= rates.ci_high)).all()
    assert rates["win_rate"].is_monotonic_increasing  # hardest first
    assert (rates["share"] == 0.25).all()
    kinds = mission_win_rates(games, by="kind")
    assert kinds["wins"].sum() == decided


def test_a_card_that_always_wins_is_significant_and_one_that_never_does_too():
    rows = []
    for g in range(40):  # "a" always wins, "b" never, "c" and "d" share the rest
        rows.append({"game": g, "players": 4, "bots": "x,x,x,x", "winner": 0, "win_reason": "mission",
                     "missions": "a,b,c,d"})
    rates = mission_win_rates(pd.DataFrame(rows)).set_index("mission")
    assert rates.loc["a", "win_rate"] == 1 and rates.loc["a", "significant"]
    assert rates.loc["b", "win_rate"] == 0 and rates.loc["b", "significant"]
    assert np.isclose(rates.loc["a", "by_mission"], 40)


def test_bad_tables_are_refused(games):
    with pytest.raises(RiskstatsError, match="missions"):
        mission_win_rates(games.drop(columns="missions"))
    with pytest.raises(RiskstatsError, match="by must be"):
        mission_win_rates(games, by="seat")
    mixed = pd.concat([games, play_games(5, 3, "mission", variant="mission", seed=1)])
    with pytest.raises(RiskstatsError, match="player counts"):
        mission_win_rates(mixed)


def test_kinds():
    assert mission_kind("Europe+South America+any") == "continents"
    assert mission_kind("destroy blue") == "destroy"
