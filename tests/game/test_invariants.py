"""The invariant checker: a sample of the sweep in every variant (scripts/make/invariant_sweep.py runs it at
scale), swept games are self-play's games, and each invariant catches a state that breaks it."""
import numpy as np
import pytest

from riskstats.errors import RiskstatsError
from riskstats.game.invariants import INVARIANTS, check_invariants, sweep, violation_names
from riskstats.game.play import Game
from riskstats.game.rules.options import GameRules
from riskstats.game.rules.state import (
    ASIDE,
    DECK,
    DISCARD,
    I_DECK_N,
    I_PHASE,
    I_REASON,
    I_RESERVE,
    I_WINNER,
    OVER,
    WIN_ALL,
)
from riskstats.runs.selfplay import play_games

SAMPLE = {  # variant -> (players, line-up, rules); the line-ups mix bots (seats rotate by game)
    "classic-3": (3, "random,continent-tuned,defensive", GameRules()),
    "classic-4": (4, "aggressive,continent,defensive,random", GameRules()),
    "classic-5-deal": (5, "continent-tuned,random,aggressive,mission,defensive", GameRules(setup="deal")),
    "classic-6": (6, "aggressive,continent,defensive,random,continent-tuned,capital", GameRules()),
    "two-player-neutral": (2, "aggressive,random", GameRules(variant="two-player")),
    "two-player-interleaved": (2, "continent-tuned,defensive", GameRules(variant="two-player",
                                                                         neutral_interleaved=True)),
    "two-player-50": (2, "continent,random", GameRules(variant="two-player", two_player_classic_50=True)),
    "mission-4-deal": (4, "mission,aggressive,continent-tuned,random", GameRules(variant="mission")),
    "mission-3-choice": (3, "mission,defensive,continent", GameRules(variant="mission", setup="choice",
                                                                     mission_deck="european",
                                                                     mission_target_lost="24_territories")),
    "capital-4-choice": (4, "capital,aggressive,continent-tuned,random", GameRules(variant="capital")),
    "capital-5-short-deal": (5, "capital,mission,defensive,continent,random",
                             GameRules(variant="capital", setup="deal", capital_short=True)),
    "per-conquest-progressive": (4, "aggressive,continent,defensive,random",  # long turns: 60 games
                                 GameRules(cards_per_turn="per_conquest", max_turns=200)),
    "fixed-per-set-adjacent": (4, "continent-tuned,aggressive,random,defensive",
                               GameRules(escalation="fixed", territory_bonus="per_set", fortify="adjacent")),
    "flat-no-bonus": (3, "random,aggressive,continent", GameRules(escalation="none", territory_bonus="off")),
}


@pytest.mark.parametrize("variant", sorted(SAMPLE))
def test_a_sample_of_every_variant_breaks_no_invariant(variant):
    players, bots, rules = SAMPLE[variant]
    table = sweep(60 if variant == "per-conquest-progressive" else 200, players, bots, rules, seed=11)
    broken = table[table["violations"] != ""]
    assert broken.empty, broken.head().to_dict("records")
    # every turn's start and the end; a mission achieved in another's turn wins as its owner's turn begins
    at_start = (table["checks"] == table["turns"]) & (table["win_reason"] == "mission")
    assert ((table["checks"] == table["turns"] + 1) | at_start).all()
    assert (table["violation_turn"] == -1).all() and table["turns"].min() >= 1


def test_a_search_seat_is_swept_too():
    table = sweep(3, 3, "search:rollouts=2:plans=2,aggressive,continent", seed=4)
    assert table["violations"].eq("").all() and (table["checks"] == table["turns"] + 1).all()


@pytest.mark.parametrize("variant", ["classic-4", "two-player-neutral", "mission-4-deal", "capital-5-short-deal",
                                     "per-conquest-progressive"])
def test_swept_games_are_self_plays_games(variant):
    """Checking turn by turn changes nothing: the same seeds give self-play's winners, turns and endings."""
    players, bots, rules = SAMPLE[variant]
    swept = sweep(60, players, bots, rules, seed=3)
    played = play_games(60, players, bots, rules=rules, seed=3)
    for column in ("seed", "bots", "winner", "turns", "win_reason"):
        assert swept[column].tolist() == played[column].tolist(), column
    later = sweep(20, players, bots, rules, seed=3, first=40)  # a chunk of the sweep is the same games
    assert later.drop(columns="game").equals(swept.iloc[40:].reset_index(drop=True).drop(columns="game"))


def test_a_sweep_in_short_calls_plays_the_same_games(monkeypatch):
    """The sweep runs in short calls (`riskstats.pieces`) for Ctrl-C's sake: one game a call, each call
    rotating the line-up from its first game, gives the same table."""
    from riskstats import pieces

    players, bots, rules = SAMPLE["classic-4"]
    whole = sweep(9, players, bots, rules, seed=6, first=2)
    monkeypatch.setattr(pieces, "PIECE_SECONDS", 0.0)
    assert sweep(9, players, bots, rules, seed=6, first=2).equals(whole)


def test_sweep_validates_its_input():
    with pytest.raises(RiskstatsError, match="games"):
        sweep(0, 3, "aggressive")
    with pytest.raises(RiskstatsError, match="unknown bot"):
        sweep(2, 3, "wizard")
    with pytest.raises(RiskstatsError, match="two-player variant needs 2"):
        sweep(2, 3, "aggressive", GameRules(variant="two-player"))


def _midgame(players=4, rules=None, seed=5, moves=400):
    game = Game(players, rules, seed=seed)
    game.play(["aggressive", "continent"], max_moves=moves)
    assert not game.over and check_invariants(game) == []
    return game


def test_a_territory_without_armies_is_caught():
    game = _midgame()
    game.state.armies[int(np.flatnonzero(game.state.owner >= 0)[0])] = 0
    assert "armies" in check_invariants(game)


def test_an_army_from_nowhere_breaks_conservation():
    game = _midgame()
    game.state.armies[3] += 1
    assert check_invariants(game) == ["conservation"]


def test_a_card_in_two_places_or_none_is_caught():
    game = _midgame()
    st = game.state
    top = int(st.deck[st.info[I_DECK_N] - 1])
    st.card_owner[top] = DISCARD  # still on the pile, as the deck array says
    assert "cards" in check_invariants(game)
    st.card_owner[top] = DECK
    assert check_invariants(game) == []
    st.card_owner[top] = ASIDE  # set aside outside Capital Risk
    assert "cards" in check_invariants(game)


def test_cards_in_the_neutrals_hand_or_an_eliminated_hand_are_caught():
    game = _midgame(2, GameRules(variant="two-player"), moves=120)
    st = game.state
    st.card_owner[int(st.deck[st.info[I_DECK_N] - 1])] = 2  # the neutral's seat
    st.info[I_DECK_N] -= 1
    assert "hands" in check_invariants(game)


def test_a_wrong_owner_count_or_reserve_is_caught():
    game = _midgame()
    game.state.n_terr[0] += 1
    assert "owners" in check_invariants(game)
    game = _midgame()
    game.state.info[I_RESERVE] = -1
    assert "reserve" in check_invariants(game)


def test_a_winner_without_its_condition_is_caught():
    game = _midgame()
    info = game.state.info
    info[I_PHASE], info[I_WINNER], info[I_REASON] = OVER, 0, WIN_ALL  # seat 0 does not own the board
    assert "winner" in check_invariants(game)


def test_a_finished_game_checks_clean_in_every_variant():
    for players, _, rules in SAMPLE.values():
        game = Game(players, rules, seed=8).play(["aggressive", "continent", "mission", "capital"][:players])
        assert game.over and check_invariants(game) == []


def test_violation_names_follow_the_bits():
    assert violation_names(0) == [] and violation_names((1 << len(INVARIANTS)) - 1) == list(INVARIANTS)


def test_a_game_stopped_by_the_move_cap_breaks_no_invariant():
    """Game 4 of the sweep's card-per-conquest variant reaches the compiled loop's move cap (turn ~255)."""
    rules = GameRules(cards_per_turn="per_conquest")
    table = sweep(1, 4, "aggressive,continent,defensive,random", rules, seed=21, first=4)
    assert table["win_reason"].iloc[0] == "move_cap" and table["winner"].iloc[0] == -1
    assert table["violations"].iloc[0] == ""
