"""Secret Mission and Capital Risk: scenario tests at each win condition's boundary, secrecy of missions
and capital picks, the CLI, and the share of self-play games that end by the variant's own condition."""
import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from riskstats.cli import app
from riskstats.game.play import Game, Move
from riskstats.game.rules.board import classic_board
from riskstats.game.rules.options import GameRules
from riskstats.game.rules.state import (
    ASIDE,
    ATTACK,
    I_AFTER_PLACE,
    I_PHASE,
    I_PLAYER,
    I_RESERVE,
    I_TURN,
    M_CARD,
    M_KIND,
    M_TARGET,
    MK_ACHIEVED,
    MK_DESTROY,
    MK_TERRITORIES,
    REINFORCE,
)
from riskstats.runs.selfplay import play_games

BOARD = classic_board()
T = BOARD.territory_index
CARDS = BOARD.arrays.missions
CONT = {name: k for k, name in enumerate(BOARD.continents)}


def card(kind, **match):
    """Index of the first mission card of this kind matching the given columns."""
    cols = {"c1": 1, "c2": 2, "third": 3, "count": 4, "min_armies": 5, "target": 6}
    for m, row in enumerate(CARDS):
        if row[0] == kind and all(row[cols[k]] == v for k, v in match.items()):
            return m
    raise LookupError(kind, match)


def arrange(game, owner, armies=1, phase=ATTACK, player=0, reserve=3):
    st = game.state
    st.owner[:] = owner
    st.armies[:] = armies
    st.n_terr[:] = np.bincount(st.owner, minlength=len(st.n_terr))
    st.alive[:] = st.n_terr > 0
    st.info[I_PHASE] = phase
    st.info[I_PLAYER] = player
    st.info[I_RESERVE] = reserve
    st.info[I_AFTER_PLACE] = ATTACK
    st.info[I_TURN] = 5
    return game


def give_mission(game, seat, m):
    """Deal mission card m to a seat (as the engine's deal does, own-colour fallback included)."""
    row = game.state.mission[seat]
    row[:] = [m, *CARDS[m][:7]]
    if row[M_KIND] == MK_DESTROY and row[M_TARGET] == seat:
        row[M_KIND], row[M_TARGET] = MK_TERRITORIES, -1


def conquer(game, src, dst):
    """Attack until dst falls, the defender always rolling its most dice."""
    while game.phase == "attack" and game.state.owner[dst] != game.player:
        game.step(Move.attack(src, dst, min(3, int(game.state.armies[src]) - 1)))
        game.step(Move.defend(game.legal_mask()["defend"][1]))


def continent(name):
    return np.flatnonzero(BOARD.arrays.continent_of == CONT[name])


# ---------------------------------------------------------------- Secret Mission
def mission_game(players=4, **options):
    return Game(players, GameRules(variant="mission", **options), seed=0)


def test_two_continents_one_territory_short():
    game = mission_game()
    owner = np.full(42, 1)
    owner[continent("Asia")] = 0
    owner[continent("Africa")] = 0
    owner[T("Madagascar")] = 1
    arrange(game, owner)
    give_mission(game, 0, card(0, c1=CONT["Asia"], c2=CONT["Africa"]))
    game.state.armies[T("South Africa")] = 60
    assert not game.over  # one territory short
    conquer(game, T("South Africa"), T("Madagascar"))
    assert game.over and game.winner == 0 and game.reason == "mission"


def test_european_third_continent_is_any():
    game = mission_game(mission_deck="european")
    owner = np.full(42, 1)
    for name in ("Europe", "Australia"):
        owner[continent(name)] = 0
    owner[continent("South America")] = 0
    owner[T("Argentina")] = 1
    arrange(game, owner)
    give_mission(game, 0, card(0, c1=CONT["Europe"], c2=CONT["Australia"], third=1))
    game.state.armies[T("Brazil")] = 60
    game.step(Move.end_attack())
    assert not game.over  # Europe + Australia but no third continent
    arrange(game, owner)
    game.state.armies[T("Brazil")] = 60
    conquer(game, T("Brazil"), T("Argentina"))  # South America is the third
    assert game.over and game.reason == "mission"


def test_18_territories_with_two_armies_boundary():
    game = mission_game()
    owner = np.full(42, 1)
    americas_europe = [CONT["North America"], CONT["South America"], CONT["Europe"]]
    mine = np.flatnonzero(np.isin(BOARD.arrays.continent_of, americas_europe))[:18]
    owner[mine] = 0
    arrange(game, owner, armies=2, phase=REINFORCE, reserve=3)
    game.state.armies[mine[0]] = 1  # 17 with 2+, one with 1
    give_mission(game, 0, card(1, count=18, min_armies=2))
    game.step(Move.place(int(mine[1]), 1))
    assert not game.over  # still 17
    game.step(Move.place(int(mine[0]), 1))
    assert game.over and game.winner == 0 and game.reason == "mission"  # a placement completes it


def test_24_territories_at_a_conquest():
    game = mission_game()
    owner = np.full(42, 1)
    owner[:23] = 0
    arrange(game, owner)
    give_mission(game, 0, card(1, count=24, min_armies=1))
    src = next(t for t in range(23) if any(owner[u] == 1 for u in BOARD.neighbours(t)))
    dst = next(u for u in BOARD.neighbours(src) if owner[u] == 1)
    game.state.armies[src] = 80
    game.step(Move.end_attack())
    assert not game.over
    arrange(game, owner)
    game.state.armies[src] = 80
    conquer(game, src, dst)
    assert game.over and game.reason == "mission"


def test_destroy_by_the_holder():
    game = mission_game()
    owner = np.full(42, 2)
    owner[T("Alaska")] = 0
    owner[T("Kamchatka")] = 1
    owner[T("Peru")] = 3
    arrange(game, owner)
    give_mission(game, 0, card(2, target=1))
    game.state.armies[T("Alaska")] = 60
    conquer(game, T("Alaska"), T("Kamchatka"))
    assert game.over and game.winner == 0 and game.reason == "mission"


@pytest.mark.parametrize("lost, over", [("achieved", True), ("24_territories", False)])
def test_destroy_by_someone_else(lost, over):
    game = Game(3, GameRules(variant="mission", mission_target_lost=lost), seed=0)
    owner = np.full(42, 2)
    owner[[T("Peru"), T("Brazil")]] = 0
    owner[T("Kamchatka")] = 1
    arrange(game, owner, player=2)
    give_mission(game, 0, card(2, target=1))
    give_mission(game, 2, card(2, target=0))  # seat 2's own mission is far off
    game.state.armies[T("Alaska")] = 60
    conquer(game, T("Alaska"), T("Kamchatka"))  # seat 2 eliminates seat 1, seat 0's target
    assert not game.over and game.state.alive[1] == 0  # the game goes on
    row = game.state.mission[0]
    assert row[M_KIND] == (MK_ACHIEVED if over else MK_TERRITORIES)
    game.step(Move.occupy(0))
    game.step(Move.end_attack())
    game.step(Move.end_turn())
    assert game.over == over  # seat 0 wins as its turn begins, or plays on for 24 territories
    if over:
        assert game.winner == 0 and game.reason == "mission"


def test_own_colour_and_colours_not_in_play():
    own_colour = 0
    for seed in range(200):
        game = Game(3, GameRules(variant="mission"), seed=seed)
        for seat in range(3):
            m = game.state.mission[seat, M_CARD]
            kind, target = CARDS[m][0], CARDS[m][6]
            assert not (kind == MK_DESTROY and target >= 3)  # colours not in play are removed
            assert CARDS[m][7] == 0  # the standard deck
            if kind == MK_DESTROY and target == seat:
                own_colour += 1
                assert game.state.mission[seat, M_KIND] == MK_TERRITORIES
                assert game.mission(seat) == "24 territories (own colour)"
        assert len(set(game.state.mission[:3, M_CARD])) == 3
    assert own_colour > 0
    european = {int(Game(4, GameRules(variant="mission", mission_deck="european"), seed=s).state.mission[q, M_CARD])
                for s in range(100) for q in range(4)}
    assert {card(0, c1=CONT["Europe"], c2=CONT["Australia"], third=1),
            card(0, c1=CONT["Europe"], c2=CONT["South America"], third=1)} <= european


def test_missions_are_secret_to_python_bots():
    game = Game(4, GameRules(variant="mission"), seed=3)
    seen = []

    def peeking_bot(view):
        st = view.state
        others = [s for s in range(4) if s != view.seat]
        assert (st.mission[others] == -1).all() and st.mission[view.seat, M_CARD] >= 0
        assert (st.deck == 0).all() and st.log.shape[0] == 0
        seen.append(view.mission)
        return view.legal_moves()[0]

    game.play([peeking_bot, "mission"], max_moves=300)
    assert seen and set(seen) == {game.mission(0), game.mission(2)}  # seats 0 and 2 play peeking_bot
    assert len(game.missions()) == 4 and all(game.missions())


# ---------------------------------------------------------------- Capital Risk
def capital_game(players=3, short=False):
    return Game(players, GameRules(variant="capital", capital_short=short), seed=0)


def test_capital_picks_are_hidden_then_cards_set_aside():
    game = capital_game(4)
    while game.phase != "capital":
        game.step(game.bot_move("aggressive"))
    deck_before = int(game.state.info[16])
    picks = []

    def picker(view):
        assert (np.delete(view.state.capital, view.seat) == -1).all()  # no peeking at others' picks
        assert view.legal_moves() and all(m.kind == Move.capital(0).kind for m in view.legal_moves())
        t = int(np.flatnonzero(view.state.owner == view.seat)[0])
        picks.append(t)
        return Move.capital(t)

    game.play([picker], max_moves=4)
    assert game.capitals == picks and game.phase != "capital"
    aside = np.flatnonzero(game.state.card_owner == ASIDE)
    assert sorted(BOARD.arrays.card_territory[aside].tolist()) == sorted(picks)
    assert int(game.state.info[16]) == deck_before - 4


def test_capital_captured_recaptured_and_won():
    game = capital_game(3)
    owner = np.full(42, 2)
    owner[[T("Alaska"), T("Alberta"), T("Peru")]] = 0
    owner[[T("Kamchatka"), T("Yakutsk")]] = 1
    arrange(game, owner)
    game.state.capital[:3] = [T("Peru"), T("Kamchatka"), T("Argentina")]
    game.state.armies[T("Alaska")] = 60
    conquer(game, T("Alaska"), T("Kamchatka"))
    assert not game.over and game.state.alive[1] == 1  # one enemy capital of two; 1 lives on
    game.step(Move.occupy(0))
    game.step(Move.end_attack())
    game.state.info[I_PHASE], game.state.info[I_PLAYER] = ATTACK, 1  # seat 1 strikes back
    game.state.armies[T("Yakutsk")] = 60
    conquer(game, T("Yakutsk"), T("Kamchatka"))
    assert game.state.owner[T("Kamchatka")] == 1 and not game.over
    game.step(Move.occupy(0))
    game.step(Move.end_attack())
    game.state.info[I_PHASE], game.state.info[I_PLAYER] = ATTACK, 0
    conquer(game, T("Alaska"), T("Kamchatka"))
    assert not game.over
    game.step(Move.occupy(0))
    game.state.armies[T("Peru")] = 60
    conquer(game, T("Peru"), T("Argentina"))  # both enemy capitals and its own
    assert game.over and game.winner == 0 and game.reason == "capitals"


def test_no_capital_win_without_your_own():
    game = capital_game(3)
    owner = np.full(42, 0)
    owner[T("Kamchatka")] = 1
    owner[T("Peru")] = 2
    arrange(game, owner)
    game.state.capital[:3] = [T("Peru"), T("Kamchatka"), T("Argentina")]  # 0 lost its capital to 2
    game.state.armies[T("Alaska")] = 60
    conquer(game, T("Alaska"), T("Kamchatka"))  # 0 holds both enemy capitals, not its own
    assert not game.over and game.state.alive[1] == 0
    game.step(Move.occupy(0))
    game.state.armies[T("Brazil")] = 60
    conquer(game, T("Brazil"), T("Peru"))  # 2 is eliminated too: last player standing
    assert game.over and game.reason == "all_territories"


@pytest.mark.parametrize("players, need", [(4, 2), (5, 3)])
def test_short_capital_game_thresholds(players, need):
    game = capital_game(players, short=True)
    enemy = [T("Kamchatka"), T("Yakutsk"), T("Alberta"), T("Ontario")][:players - 1]
    owner = np.full(42, 0)
    for q, t in enumerate(enemy, 1):
        owner[t] = q
        owner[BOARD.neighbours(t)[-1]] = q if BOARD.neighbours(t)[-1] not in enemy else owner[t]
    owner[T("Alaska")] = 0
    arrange(game, owner)
    game.state.capital[:players] = [T("Argentina"), *enemy]
    game.state.armies[T("Alaska")] = 90
    for k, t in enumerate(enemy[:need]):
        assert not game.over
        src = next(u for u in BOARD.neighbours(t) if game.state.owner[u] == 0)
        game.state.armies[src] = 90
        conquer(game, src, t)
        if k < need - 1:
            assert not game.over
            game.step(Move.occupy(0))
    assert game.over and game.reason == "capitals"


# ---------------------------------------------------------------- CLI and shares
def test_selfplay_cli_variants(tmp_path):
    runner = CliRunner()
    out = tmp_path / "missions.csv"
    result = runner.invoke(app, ["selfplay", "--games", "6", "--players", "4", "--bots", "mission,random",
                                 "--variant", "mission", "--mission-deck", "european",
                                 "--mission-target-lost", "24_territories", "--out", str(out)])
    assert result.exit_code == 0, result.output
    table = pd.read_csv(out)
    assert (table.missions.str.split(",").str.len() == 4).all()
    result = runner.invoke(app, ["selfplay", "--games", "6", "--players", "4", "--bots", "capital",
                                 "--variant", "capital", "--capital-short", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["win_reasons"] == {"capitals": 6}


@pytest.mark.slow
@pytest.mark.parametrize("variant, bot, reason", [("mission", "mission", "mission"),
                                                  ("capital", "capital", "capitals")])
def test_objective_bots_end_games_by_their_condition(variant, bot, reason):
    table = play_games(300, 4, [bot], rules=GameRules(variant=variant), seed=11)
    assert (table.win_reason == reason).mean() >= 0.95


def test_compiled_bots_see_only_their_own_mission_and_capital_pick():
    from riskstats.game.bots.dispatch import _seat_view
    from riskstats.game.play import Game
    from riskstats.game.rules.options import GameRules

    game = Game(4, GameRules(variant="mission"), seed=3)
    while game.phase in ("claim", "setup_place"):
        game.step(game.bot_move("mission"))
    view = _seat_view(game.state, game.context.R)
    me = game.player
    assert (view.mission[me] == game.state.mission[me]).all()
    others = [s for s in range(4) if s != me]
    assert (view.mission[others] == -1).all() and (game.state.mission[others] != -1).any()
    assert view.owner is not None and (view.armies == game.state.armies).all()

    game = Game(4, GameRules(variant="capital"), seed=4)
    while game.phase != "capital":
        game.step(game.bot_move("capital"))
    game.step(game.bot_move("capital"))  # the first pick is made, not yet revealed
    view = _seat_view(game.state, game.context.R)
    assert game.state.capital[0] >= 0 and view.capital[0] == -1 and game.player != 0
    classic = Game(4, seed=1)
    assert _seat_view(classic.state, classic.context.R).mission is classic.state.mission  # nothing to hide: no copy
