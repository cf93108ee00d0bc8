"""The event log is complete: hundreds of seeded games of every variant, replayed from their logs alone
(riskstats.game.replay), end in the engine's final state; and the log's rows say what they mean."""
import numpy as np
import pandas as pd
import pytest

from riskstats.errors import RiskstatsError
from riskstats.game.play import Game, Move, play_game
from riskstats.game.replay import replay_events
from riskstats.game.rules.board import classic_board
from riskstats.game.rules.options import GameRules
from riskstats.game.rules.state import EVENTS, LOG_COLS, MOVES, REASONS
from riskstats.runs.selfplay import play_games
from tests.variants import cases

BOARD = classic_board()
LINEUPS = {
    "classic": ["random", "aggressive", "continent", "defensive"],
    "classic-5-deal": ["aggressive", "random", "defensive"],
    "two-player": ["aggressive", "random"],
    "two-player-50": ["continent", "aggressive"],
    "mission": ["mission", "aggressive", "random", "defensive"],
    "mission-4-choice": ["mission", "aggressive", "random"],
    "capital-4": ["capital", "aggressive", "random", "continent"],
}
VARIANTS = {name: (*case, LINEUPS[name]) for name, case in cases(*LINEUPS).items()}


def assert_replays(game):
    position = replay_events(game.events())
    st = game.state
    for name in ("owner", "armies", "card_owner", "alive", "capital"):
        np.testing.assert_array_equal(getattr(position, name), getattr(st, name), err_msg=name)
    np.testing.assert_array_equal(position.mission, st.mission[:, 0])
    assert (position.winner, position.reason, position.turn) == (game.winner, game.reason, game.turn)


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_logs_replay_to_the_final_state(variant):
    players, rules, bots = VARIANTS[variant]
    for seed in range(200):
        game = play_game(players, bots, rules, seed=seed)
        assert_replays(game)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_logs_replay_move_by_move(variant):
    """Part-way through a game too: the position after every tenth move."""
    players, rules, bots = VARIANTS[variant]
    game = Game(players, rules, seed=1)
    for k in range(600):
        if game.over:
            break
        game.step(game.bot_move(bots[game.player % len(bots)]))
        if k % 10 == 0:
            position = replay_events(game.events())
            assert (position.owner == game.state.owner).all() and (position.armies == game.state.armies).all()
            assert (position.card_owner == game.state.card_owner).all()


def test_the_log_has_a_row_for_every_deal_claim_card_and_reinforcement():
    game = play_game(3, ["aggressive"], GameRules(setup="deal"), seed=2)
    events = game.events()
    assert list(events.columns) == list(LOG_COLS)
    assert (events.move == "deal").sum() == 42 and set(events.dst[events.move == "deal"]) == set(range(42))
    assert (events.move.iloc[:42] == "deal").all() and events.move.iloc[-1] == "game_over"
    claims = play_game(3, ["aggressive"], seed=2).events()
    assert (claims.move == "claim").sum() == 42 and (claims.move == "deal").sum() == 0
    draws = events[events.move == "draw"]
    conquering_turns = set(events.turn[events.conquered == 1])
    assert set(draws.turn) <= conquering_turns and draws.turn.is_unique  # at most one card a turn
    assert (events.card[events.move == "end_attack"] == -1).all()
    attacks = events[events.move == "attack"]
    assert (attacks.conquered == (attacks.armies > 0)).all()
    assert (attacks.armies[attacks.conquered == 1] == attacks.attacker_dice[attacks.conquered == 1]).all()
    assert (attacks.defender != attacks.player).all() and (attacks.defender >= 0).all()
    captures = events[events.move == "capture"]
    assert set(captures.turn) <= set(attacks.turn[attacks.eliminated >= 0]) and (captures.eliminated == -1).all()
    after = events.move.shift(1)[events.move == "capture"]
    assert after.isin(["attack", "capture"]).all()  # a capture follows the attack that eliminated
    begins = events[events.move == "begin_turn"]
    assert (begins.value == 0).all()
    reinforce = events[(events.move == "reinforce") & (events.phase != "elim_trade")]
    assert (reinforce.from_territories >= 3).all() and (reinforce.by == -1).all()
    assert set(events.move) <= set(EVENTS) and set(events.reason) <= set(REASONS)


def test_reinforcement_parts_match_the_board():
    """Each turn's reinforce row: max(3, territories // 3) and the bonus of the continents held whole."""
    game = Game(4, seed=5)
    while game.turn < 30 and not game.over:
        if game.phase == "reinforce" and game.events().move.iloc[-1] == "reinforce":
            row = game.events().iloc[-1]
            owned = game.state.owner == game.player
            if row.phase != "elim_trade":
                held = [k for k in range(len(BOARD.continents)) if owned[BOARD.arrays.continent_of == k].all()]
                assert row.from_territories == max(3, owned.sum() // 3)
                assert row.from_continents == BOARD.arrays.continent_bonus[held].sum()
            assert game.reserve == row.from_territories + row.from_continents + row.from_cards
        game.step(game.bot_move("aggressive"))


def test_neutral_placements_name_the_neutral_and_the_placer():
    game = play_game(2, ["aggressive", "defensive"], seed=4)
    events = game.events()
    neutral = events[(events.move == "place") & (events.player == 2)]
    assert len(neutral) == 40 - 14 and set(neutral.by) == {0, 1}
    assert ((events.by == events.player) | (events.by == -1) | (events.player == 2)).all()
    assert (events.by[events.move.isin(MOVES)] >= 0).all()


def test_events_are_cached_and_extended():
    game = Game(3, seed=0)
    first = game.events()
    first.loc[0, "armies"] = 99  # a copy: changing it changes nothing
    for _ in range(50):
        game.step(game.bot_move("random"))
    later = game.events()
    assert later.armies.iloc[0] == 1 and len(later) > len(first)
    pd.testing.assert_frame_equal(later.iloc[:len(first)], game.events().iloc[:len(first)])
    fresh = Game(3, seed=0)
    for _ in range(50):
        fresh.step(fresh.bot_move("random"))
    pd.testing.assert_frame_equal(later, fresh.events())


def test_play_games_keeps_logs_of_the_same_games():
    table, events = play_games(6, 3, ["aggressive", "random", "defensive"], seed=3, log=True, first=2)
    plain = play_games(6, 3, ["aggressive", "random", "defensive"], seed=3, first=2)
    pd.testing.assert_frame_equal(table, plain)
    assert list(events.columns) == ["game", *LOG_COLS] and sorted(set(events.game)) == list(range(2, 8))
    for row in table.itertuples():
        game = play_game(3, row.bots.split(","), seed=int(row.seed))
        logged = events[events.game == row.game].drop(columns="game").reset_index(drop=True)
        pd.testing.assert_frame_equal(logged, game.events())
        assert replay_events(logged).winner == row.winner


def test_two_players_mean_the_neutral_game():
    game = Game(2, seed=1)
    assert game.rules.variant == "two-player" and game.rules.has_neutral and len(game.state.alive) == 3
    assert play_games(2, 2, ["aggressive"], seed=0).variant.tolist() == ["two-player"] * 2
    with pytest.raises(RiskstatsError):
        Game(2, GameRules())  # Classic rules are for 3-6 players


def test_game_properties():
    game = Game(3, seed=0)
    while game.phase != "reinforce":
        game.step(game.bot_move("aggressive"))
    assert game.reserve == int(game.state.info[4]) > 0 and game.sets_traded == 0
    assert game.hands == [game.hand(s) for s in range(3)]
    game.play(["aggressive"])
    assert game.sets_traded == (game.events().move == "trade").sum()


def test_move_repr():
    assert repr(Move.fortify(1, 2, 3)) == "Move.fortify(src=1, dst=2, armies=3)"
    assert str(Move.end_turn()) == "Move.end_turn()" and repr(Move.defend(2)) == "Move.defend(dice=2)"
    assert repr(Move(3, 1, 2, 3, 1)) == "Move(3, 1, 2, 3, 1)"  # not an attack's shape: every field
    assert eval(repr(Move.trade(4, 5, 6))) == Move.trade(4, 5, 6)
    assert [Move(k).name for k in range(len(MOVES))] == list(MOVES)


def test_replay_needs_a_whole_log():
    events = play_game(3, ["random"], seed=0).events()
    with pytest.raises(RiskstatsError, match="first row"):
        replay_events(events.iloc[60:])  # from a placement, after the claims


def test_secret_mission_by_choice_replays():
    """Such a log starts with the mission rows, before the claims (seed 74195 of the audit, and others)."""
    for seed in (74195, 3):
        game = play_game(4, ["mission"], GameRules(variant="mission", setup="choice"), seed=seed)
        assert game.events().move.iloc[0] == "mission"
        assert_replays(game)


def test_by_on_rows_that_are_not_moves():
    """docs/event_log.md: begin_turn rows carry the player whose turn begins in `by`; every other row that
    is not a move has by = -1."""
    events = pd.concat([play_game(4, ["mission"], GameRules(variant="mission"), seed=5).events(),
                        play_game(4, ["capital"], GameRules(variant="capital"), seed=5).events()])
    begins = events[events.move == "begin_turn"]
    assert len(begins) and (begins.by == begins.player).all() and (begins.by >= 0).all()
    events_only = ["deal", "mission", "reinforce", "draw", "reshuffle", "capture", "aside", "game_over"]
    others = events[events.move.isin(events_only)]
    assert set(others.move) >= {"deal", "mission", "reinforce", "draw", "aside", "game_over"}
    assert (others.by == -1).all()
