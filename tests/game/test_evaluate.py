"""evaluate: win chances from a position against exact battle odds, best moves, seeds, bad input."""
import numpy as np
import pytest

from riskstats.errors import RiskstatsError
from riskstats.game.bots.catalog import BUILT_IN
from riskstats.game.evaluate import candidate_moves, describe_move, evaluate
from riskstats.game.play import Game, Move
from riskstats.game.rules.board import classic_board
from riskstats.intervals import wilson_interval
from riskstats.odds.battle import battle_odds

FINISHER = ("aggressive", [0.0])
"""An aggressive bot that attacks while any attack is possible (threshold 0)."""


def one_conquest_from_victory(armies=6, defenders=2, seed=3):
    """Two players, no neutral: player 0 owns every territory but Kamchatka (player 1, ``defenders``
    armies); only Alaska (``armies``) can attack it. The turn cap ends the game after this turn, so player 0
    wins exactly when it conquers Kamchatka now: P = battle_odds(armies - 1, defenders)."""
    board = classic_board()
    territories = {name: [0, 1] for name in board.territories}
    territories["Kamchatka"] = [1, defenders]
    territories["Alaska"] = [0, armies]
    return {"players": 2, "rules": {"variant": "two-player", "two_player_classic_50": True, "max_turns": 9},
            "seed": seed, "phase": "attack", "player": 0, "turn": 9, "round": 5, "territories": territories,
            "hands": [[], []]}


def test_one_conquest_from_victory_agrees_with_exact_odds():
    exact = float(battle_odds(5, 2).p_win)
    result = evaluate(one_conquest_from_victory(), FINISHER, rollouts=4000, seed=1)
    p0, p1 = result.players.itertuples(index=False)
    assert p0.ci_low <= exact <= p0.ci_high
    assert (p0.ci_low, p0.ci_high) == pytest.approx(wilson_interval(p0.wins, 4000))
    assert p1.wins == 0 and p0.rollouts == 4000  # the turn cap: player 1 never gets a turn
    # the moves: attacking (with 3 dice) wins as often, stopping never
    moves = result.moves.set_index("move")
    assert list(moves.index) == ["attack Alaska -> Kamchatka (3 dice)", "stop attacking"]
    assert moves.loc["attack Alaska -> Kamchatka (3 dice)", "ci_low"] <= exact
    assert exact <= moves.loc["attack Alaska -> Kamchatka (3 dice)", "ci_high"]
    assert moves.loc["stop attacking", "p_win"] == 0


@pytest.mark.parametrize("armies, defenders", [(3, 3), (12, 5)])
def test_other_battles_agree_with_exact_odds(armies, defenders):
    exact = float(battle_odds(armies - 1, defenders).p_win)
    p0 = evaluate(one_conquest_from_victory(armies, defenders), FINISHER, rollouts=3000, seed=2, top=0).players.iloc[0]
    assert p0.ci_low <= exact <= p0.ci_high


def test_the_answer_does_not_depend_on_how_the_rollouts_are_cut(monkeypatch):
    """Rollouts run in short calls (`riskstats.pieces`) for Ctrl-C's sake: one rollout a call gives the same
    answer as calls growing freely; progress counts every rollout, the players' and each move's."""
    from riskstats import pieces
    from riskstats.game.evaluate import _choose

    game = Game(3, seed=2).play(["aggressive"], max_moves=400)
    seen = []
    free = evaluate(game, rollouts=30, seed=7, top=3, candidates=4, progress=lambda done, n: seen.append((done, n)))
    moves = len(_choose(game, ("aggressive", None), 4, 7)[0])
    assert seen[-1] == (30 * (1 + moves), 30 * (1 + moves))
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    monkeypatch.setattr(pieces, "PIECE_SECONDS", 0.0)
    one_by_one = evaluate(game, rollouts=30, seed=7, top=3, candidates=4)
    assert one_by_one.players.equals(free.players) and one_by_one.moves.equals(free.moves)


def test_same_seed_same_answer_and_the_game_is_untouched():
    game = Game(4, seed=2).play(["aggressive"], max_moves=600)
    text = game.to_json()
    a = evaluate(game, rollouts=60, seed=4, top=3)
    assert game.to_json() == text
    b = evaluate(text, rollouts=60, seed=4, top=3)
    assert a.players.equals(b.players) and a.moves.equals(b.moves)
    c = evaluate(game, rollouts=60, seed=5, top=3)
    assert not a.players.equals(c.players)
    best = a.moves[~a.moves.own] if len(a.moves) > 3 else a.moves  # the bot's own move follows the best 3
    assert len(best) == 3 and best["p_win"].is_monotonic_decreasing and a.moves.own.sum() == 1
    assert a.players["p_win"].sum() <= 1 and (a.players["ci_low"] <= a.players["p_win"]).all()
    assert set(a.as_dict()) == {"players", "moves", "rollouts", "seed", "moves_mean"}


FAST_BOTS = [b for b in BUILT_IN if b not in ("search", "value")]
"""The built-in bots that play a rollout in milliseconds; the look-ahead bots are tested apart (slow)."""


def own_choice_against_the_position(bot, rollouts, position):
    """`evaluate`'s answer with ``bot``: the mover's row of the players' table and the bot's own move's row."""
    result = evaluate(position, bot, rollouts=rollouts, seed=5, top=1, candidates=1)  # the own move alone
    own = result.moves[result.moves.own]
    assert len(own) == 1, result.moves
    return result.players.iloc[result.player], own.iloc[0]


@pytest.mark.parametrize("bot", FAST_BOTS)
def test_the_bots_own_choice_scores_the_positions_value(bot):
    """Issue 56: the position's P(win) and each candidate's come from the same play after the first move, so
    the bot's own move, always a candidate and marked ``own``, scores within the position's 95% interval (here
    a new four-player game, the first placement of its first turn, and a mid-game attack phase)."""
    from riskstats.game.position import template_position

    for position in (template_position(4), Game(3, seed=2).play(["aggressive"], max_moves=400)):
        mover, own = own_choice_against_the_position(bot, 300, position)
        assert mover.ci_low <= own.p_win <= mover.ci_high, (bot, mover, own)


@pytest.mark.parametrize("bot", ["hunter", "aggressive", "continent"])
def test_a_bot_that_draws_no_dice_to_choose_scores_exactly_the_positions_value(bot):
    """The same seeds and the same play: a deterministic bot's own move wins exactly the rollouts the position's
    own rollouts win (the hunter's spread placement of a part of its reserve included)."""
    from riskstats.game.position import template_position

    mover, own = own_choice_against_the_position(bot, 200, template_position(4))
    assert own.wins == mover.wins


@pytest.mark.slow
@pytest.mark.parametrize("bot", ["search:rollouts=2:plans=2", "value:rollouts=1:plans=2"])
def test_a_look_ahead_bots_own_choice_scores_the_positions_value(bot):
    mover, own = own_choice_against_the_position(bot, 40, one_conquest_from_victory(5, 3))
    assert mover.ci_low <= own.p_win <= mover.ci_high, (bot, mover, own)


def test_candidates_are_legal_and_reduced():
    game = Game(3, seed=1)
    for _ in range(2000):
        if game.over:
            break
        moves = candidate_moves(game)
        assert moves and all(game.check(m) == "" for m in moves)
        if game.phase == "attack":
            assert Move.end_attack() in moves
        game.step(game.bot_move("continent"))


def test_describe_moves():
    board = classic_board()
    assert describe_move(Move.place(0, 4), board) == "place 4 on Alaska"
    assert describe_move(Move.trade(0, 1, 43), board) == "trade Alaska, Northwest Territory, wild 2"
    assert describe_move(Move.end_turn(), board) == "end turn without fortifying"


@pytest.mark.parametrize("kwargs, message", [
    ({"rollouts": -1}, "rollouts must be"),
    ({"seed": -1}, "seed must be"),
    ({"bot": "genius"}, "unknown bot 'genius'"),
    ({"bot": ("random", [0, 0.5, 2])}, "takes up to 2 parameters, got 3"),
])
def test_bad_input(kwargs, message):
    with pytest.raises(RiskstatsError, match=message):
        evaluate(one_conquest_from_victory(), **({"rollouts": 10} | kwargs))


def test_over_and_invalid_positions():
    pos = one_conquest_from_victory()
    pos["phase"] = "over"
    with pytest.raises(RiskstatsError, match="the game is over"):
        evaluate(pos, rollouts=10)
    with pytest.raises(RiskstatsError, match="invalid position: unknown territory"):
        evaluate(one_conquest_from_victory() | {"territories": {"Atlantis": [0, 1]}}, rollouts=10)
    assert np.isfinite(evaluate(one_conquest_from_victory(), rollouts=10, top=0).players["p_win"]).all()
