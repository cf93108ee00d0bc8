"""Property tests over seeded games of every variant and bot, the conformance test, the golden playthrough."""

import json

import numpy as np
import pandas as pd
import pytest

from riskstats.errors import RiskstatsError
from riskstats.game.bots.catalog import BOTS
from riskstats.game.play import Game, Move, play_game
from riskstats.game.rules.options import GameRules
from riskstats.game.rules.state import ASIDE, DECK, I_DECK_N
from tests.golden import FOLDER, GOLDENS, golden_events
from tests.variants import cases

VARIANTS = cases("classic", "classic-3-deal-fixed", "classic-6-adjacent-none", "two-player", "two-player-interleaved",
                 "two-player-50", "mission", "mission-5-european-24", "capital-4", "capital-5-short-deal")


def check_cards(st):
    owners = st.card_owner
    assert ((owners >= ASIDE) & (owners < len(st.alive))).all()
    n = st.info[I_DECK_N]
    assert sorted(st.deck[:n].tolist()) == np.flatnonzero(owners == DECK).tolist()  # all 44 somewhere


def check_accounting(events):
    """Armies change only by the deal, claims, placements, the territory bonus and battle losses; every
    turn places what its reinforce rows grant, and their card part is what the turn's trades were worth."""
    total = events["total_armies"].to_numpy()
    put = np.where(events.move.isin(["deal", "claim", "place", "trade"]), events.armies, 0)
    assert (events.armies[events.move == "trade"] == 2 * (events.bonus_territory[events.move == "trade"] >= 0)).all()
    losses = np.where(events.move == "attack", events.attacker_loss + events.defender_loss, 0)
    assert (np.diff(np.r_[0, total]) == put - losses).all()
    turns = events[events.turn > 0]
    last = turns.turn.max()
    for number, turn in turns.groupby("turn"):
        grants = turn[turn.move == "reinforce"]
        granted = (grants.from_territories + grants.from_continents + grants.from_cards).sum()
        placed = turn.armies[turn.move == "place"].sum()
        traded = turn.value[turn.move == "trade"].sum()
        if number < last:  # the last turn may end (won) before all is placed
            assert placed == granted and traded == grants.from_cards.sum()
        assert placed <= granted and grants.from_cards.sum() <= traded


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("bot", list(BOTS))
def test_conformance_every_bot_every_variant(variant, bot):
    """Like pgx's api_test: compiled play checks every move; the game ends or is truncated."""
    players, rules = VARIANTS[variant]
    others = [b for b in BOTS if b != bot]
    for seed in range(3):
        game = play_game(players, [bot, *others][:players], rules, seed=seed)
        assert game.over and (game.winner >= 0) != game.truncated
        st = game.state
        assert (st.owner >= 0).all() and (st.armies >= 1).all()
        check_cards(st)
        events = game.events()
        check_accounting(events)
        if game.winner >= 0 and rules.variant == "classic":
            assert (st.owner == game.winner).all()
        if rules.variant == "capital":
            assert (st.card_owner == ASIDE).sum() == players  # one capital card each, set aside for good
            assert not events[events.move == "trade"][["card1", "card2", "card3"]].isin(
                np.flatnonzero(st.card_owner == ASIDE)).any().any()


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_invariants_after_every_move(variant):
    """Step by step from Python: every move legal, no territory empty or ownerless, all cards somewhere."""
    players, rules = VARIANTS[variant]
    game = Game(players, rules, seed=11)
    bots = list(BOTS)
    while not game.over:
        move = game.bot_move(bots[game.player % len(bots)])
        assert game.check(move) == ""
        game.step(move)
        st = game.state
        if game.phase not in ("claim",):
            assert (st.owner >= 0).all() and (st.armies >= 1).all()
        check_cards(st)
    check_accounting(game.events())


def test_python_steps_equal_the_compiled_loop():
    bots = ["random", "aggressive", "continent", "defensive"]
    fast = play_game(4, bots, seed=3)
    slow = Game(4, seed=3)
    slow.play(bots, max_moves=10**7)
    pd.testing.assert_frame_equal(fast.events(), slow.events())


def test_a_python_bot_plugs_in():
    rng = np.random.default_rng(0)

    def uniform_bot(game):
        moves = game.legal_moves()
        attack_or_end = [m for m in moves if m.kind != 3] if rng.random() < 0.3 else moves
        return attack_or_end[rng.integers(len(attack_or_end))]

    game = Game(3, GameRules(max_turns=30), seed=2)
    game.play([uniform_bot, "aggressive", "defensive"])
    assert game.over


def test_turn_cap_truncates_without_winner():
    game = play_game(4, ["defensive"], GameRules(max_turns=5), seed=0)
    assert game.truncated and game.winner == -1 and game.reason == "turn_cap" and game.turn == 5


def test_same_seed_same_game_and_bad_input():
    a = play_game(4, ["random"], seed=9).events()
    b = play_game(4, ["random"], seed=9).events()
    pd.testing.assert_frame_equal(a, b)
    with pytest.raises(RiskstatsError, match="unknown bot"):
        play_game(4, ["nobody"])
    with pytest.raises(RiskstatsError):
        Game(7)


def test_legal_moves_match_check():
    game = Game(3, seed=4)
    for _ in range(400):
        moves = game.legal_moves()
        assert moves and all(game.check(m) == "" for m in moves)
        game.step(game.bot_move("continent"))
    assert game.check(Move.end_turn()) in ("", "this kind of move is not allowed in the current phase")


@pytest.mark.parametrize("name", list(GOLDENS))
def test_golden_playthrough(name):
    expected = pd.read_csv(FOLDER / name, keep_default_na=False)
    pd.testing.assert_frame_equal(golden_events(name), expected, check_dtype=False)


def test_a_continent_bot_can_be_forced_to_target_a_continent():
    from riskstats.game.bots.continent import _target_continent

    game = Game(4, seed=5)
    st, B, R = game.state, game.board.arrays, game.context.R
    target = game.board.continents.index("South America")
    free = _target_continent(st, B, R, 0, 2.0, -1.0)
    assert free != target  # the cheapest-continent rule picks another one at the start
    assert _target_continent(st, B, R, 0, 2.0, float(target)) == target
    assert _target_continent(st, B, R, 0, 2.0, 99.0) == free  # a continent the board lacks is ignored
    st.owner[np.flatnonzero(B.continent_of == target)] = 0  # once seat 0 holds it, it chooses as usual
    assert _target_continent(st, B, R, 0, 2.0, float(target)) == _target_continent(st, B, R, 0, 2.0, -1.0)


def test_the_state_records_the_elimination_order():
    game = play_game(4, ["aggressive", "continent", "defensive", "random"], seed=2)
    log = game.events()
    out = log[log.eliminated >= 0].eliminated.tolist()  # seats in the order they were knocked out
    assert len(out) == 3
    assert [int(game.state.out[s]) for s in out] == [1, 2, 3] and game.state.out[game.result()["winner"]] == 0


def test_bots_take_parameters_by_spec():
    spec = play_game(3, ["continent:threshold=0.9:card_threshold=0.95", "aggressive"], seed=4)
    pair = play_game(3, [("continent", {"threshold": 0.9, "card_threshold": 0.95}), "aggressive"], seed=4)
    plain = play_game(3, ["continent", "aggressive"], seed=4)
    pd.testing.assert_frame_equal(spec.events(), pair.events())
    assert not spec.events().equals(plain.events())
    assert Game(3, seed=2).bot_move("aggressive:threshold=0.7") == Game(3, seed=2).bot_move("aggressive", [0.7])
    game = Game(3, seed=2)
    with pytest.raises(RiskstatsError, match="unknown parameter 'threshhold'"):
        game.bot_move("aggressive:threshhold=0.7")
    with pytest.raises(RiskstatsError, match="out of range"):
        game.play(["aggressive:threshold=7"])


@pytest.mark.parametrize("end", ["low", "high"])
def test_bots_at_the_ends_of_their_parameter_ranges(end):
    """Tuning explores whole ranges: every bot still plays only legal moves there, and games end."""
    from riskstats.game.bots.catalog import BUILT_IN

    for variant in ("classic", "mission", "capital-4", "two-player"):
        players, rules = VARIANTS[variant]
        lineup = [":".join([name, *(f"{p.name}={getattr(p, end):g}" for p in info.params)])
                  for name, info in BUILT_IN.items() if name != "search"]  # its budget's ends: test_search
        for seed in range(2):
            game = play_game(players, (lineup[seed:] + lineup[:seed])[:players], rules, seed=seed)
            assert game.over and (game.winner >= 0) != game.truncated
            check_accounting(game.events())


def test_moves_from_a_game_print_territory_names_and_stay_plain_moves():
    game = Game(3, seed=1)
    first = game.legal_moves()[0]
    assert repr(first) == "Move.place(territory='Alaska', armies=1)" and str(first) == repr(first)
    assert first == Move.place(0, 1) and hash(first) == hash(Move.place(0, 1))
    assert (first.kind, first.a, first.b) == (Move.place(0).kind, 0, 1) and first._fields == Move._fields
    assert repr(Move(*first)) == "Move.place(territory=0, armies=1)"  # a plain move: indices, as before
    assert eval(repr(first), {"Move": Move}) == first  # a printed move builds the same move
    game.play(["aggressive"], max_moves=200)
    while game.phase != "attack":
        game.step(game.bot_move("aggressive"))
    attacks = [m for m in game.legal_moves() if m.name == "attack"]
    names = game.board.territories
    assert repr(attacks[0]) == (f"Move.attack(src={names[attacks[0].a]!r}, dst={names[attacks[0].b]!r}, "
                                f"dice={attacks[0].c})")
    assert Move.attack(names[attacks[0].a], names[attacks[0].b], attacks[0].c) == attacks[0]
    assert "Move." in repr(game.bot_move("aggressive")) and "'" in repr(game.legal_moves()[0])
    assert Move.trade("Alaska", "wild 1", "wild 2") == Move.trade(0, 42, 43)
    assert Move.attack("Mexico", "Venezuela", 3) == Move.attack(8, 9, 3)


def test_a_game_has_a_readable_repr():
    game = Game(3, seed=1)
    assert repr(game).startswith("<Game: classic, 3 players, player 0 to move, phase claim;")
    game.play(["aggressive"], max_moves=400)
    text = repr(game)
    land = [int((game.state.owner == s).sum()) for s in range(3)]
    assert f"turn {game.turn} (round {game.round}), player {game.player} to move, phase {game.phase}" in text
    assert f"territories {land[0]}/{land[1]}/{land[2]}" in text
    leader = max(range(3), key=lambda s: (land[s], int(game.state.armies[game.state.owner == s].sum())))
    assert text.endswith(f"leads: player {leader}>")
    game.play(["aggressive"])
    assert f"over at turn {game.turn}: player {game.winner} won" in repr(game)
    two = Game(2, seed=3).play(["aggressive"], max_moves=300)
    assert "two-player, 2 players" in repr(two) and ", neutral " in repr(two)


def test_the_move_cap_has_its_own_reason():
    """A game the compiled loop stops after MAX_MOVES moves reports "move_cap", not "turn_cap": here one
    attack of 10^9 armies against 2 x 10^7 needs some 2 x 10^7 rolls (two moves each: attack, defence)."""
    from riskstats.game.loop import MAX_MOVES
    from riskstats.game.rules.board import classic_board
    from riskstats.game.rules.state import I_MOVES, N_LOG

    names = classic_board().territories
    territories = {name: [0, 1] for name in names}
    territories["Alaska"] = [0, 10**9]
    territories["Kamchatka"] = [1, 2 * 10**7]
    game = Game.from_json({"players": 2, "rules": {"variant": "two-player", "two_player_classic_50": True},
                           "phase": "attack", "player": 0, "turn": 1, "round": 1, "territories": territories})
    game.state = game.state._replace(log=np.zeros((0, N_LOG), np.int64))  # no log: millions of rows
    game.play(["aggressive"])
    assert game.truncated and game.winner == -1 and game.reason == "move_cap" and game.turn == 1
    assert game.state.info[I_MOVES] == MAX_MOVES


def attack_declared(seed):
    """A game stepped with aggressive until an attack of the most dice waits for its defence."""
    game = Game(4, seed=seed, log=False)
    while not (game.phase == "attack" and game.state.armies.max() >= 4):
        game.step(game.bot_move("aggressive"))
    mask = game.legal_mask()["attack"]
    src, dst = max(map(tuple, np.argwhere(mask)), key=lambda e: game.state.armies[e[0]])
    dice = min(3, int(game.state.armies[src]) - 1)
    game.step(Move.attack(int(src), int(dst), dice))
    return game, int(src), int(dst), dice


def test_roll_outcomes_are_the_dice_rules_exact_table():
    from riskstats.odds.dice import round_outcomes

    game, _, dst, dice = attack_declared(5)
    nd = min(2, int(game.state.armies[dst]))
    exact = round_outcomes(dice, nd).sort_values("attacker_loses")["p"].tolist()
    assert [float(p) for p in game.roll_outcomes(nd)] == pytest.approx(exact, abs=1e-15)
    assert sum(game.roll_outcomes(nd)) == 1
    with pytest.raises(RiskstatsError, match="cannot roll 3 dice"):
        game.roll_outcomes(3)


@pytest.mark.parametrize("lose", [0, 1, 2])
def test_an_explicit_outcome_comes_out_as_given_and_leaves_the_stream(lose):
    game, src, dst, dice = attack_declared(5)
    nd = min(2, int(game.state.armies[dst]))
    if lose > min(dice, nd):
        pytest.skip("not a possible outcome of this roll")
    before, defenders, stream = int(game.state.armies[src]), int(game.state.armies[dst]), game.state.rng.copy()
    game.step(Move.defend(nd), outcome=lose)
    conquered = game.state.owner[dst] == game.state.owner[src]
    assert before - int(game.state.armies[src]) - (dice if conquered else 0) == lose
    assert conquered or defenders - int(game.state.armies[dst]) == min(dice, nd) - lose
    assert (game.state.rng == stream).all()
    assert game.phase in ("attack", "occupy", "over")


def test_sampled_rolls_are_the_same_chance_step():
    """The default path samples the outcome and applies it by the same step: replaying a seeded game's rolls as
    explicit outcomes (read from its event log) gives the same position, move for move (the replayed game's
    stream, which an explicit roll leaves alone, is set to the sampled one's after each roll)."""
    sampled = Game(3, seed=11)
    replayed = Game(3, seed=11)
    for _ in range(600):
        if sampled.over:
            break
        move = sampled.bot_move("aggressive")
        sampled.step(move)
        if move.kind == Move.defend(1).kind:
            events = sampled.events()
            roll = events[events["move"] == "attack"].iloc[-1]
            replayed.step(move, outcome=int(roll["attacker_loss"]))
            replayed.state.rng[:] = sampled.state.rng
        else:
            replayed.step(move)
        assert (sampled.state.armies == replayed.state.armies).all()
        assert (sampled.state.owner == replayed.state.owner).all()


def test_a_bad_outcome_is_refused_and_changes_nothing():
    game, src, dst, dice = attack_declared(5)
    armies = game.state.armies.copy()
    with pytest.raises(RiskstatsError, match="outcome must be the attacker's losses"):
        game.step(Move.defend(1), outcome=2)
    assert (game.state.armies == armies).all() and game.phase == "defend"
    game.step(Move.defend(1))
    while game.phase != "attack":
        game.step(game.bot_move("aggressive"))
    with pytest.raises(RiskstatsError, match="goes with a defend move"):
        game.step(Move.end_attack(), outcome=0)
    assert game.phase == "attack"


def test_from_position_is_the_one_constructor_at_a_position():
    """Issue 53: a game at a position (a dict, or another game's, copied) with a context and a plan memory to keep;
    nothing else in the package or the scripts builds a Game through __new__."""
    import re
    from pathlib import Path

    game = Game(4, seed=3).play(["aggressive"], max_moves=200)
    copy = Game.from_position(game)
    assert copy.context is game.context and copy.state.owner is not game.state.owner
    copy.step(copy.bot_move("aggressive"))
    assert copy.to_json() != game.to_json() and Game.from_position(game).to_json() == game.to_json()
    memory = np.full((4, 2), 7, np.int64)
    loaded = Game.from_position(json.loads(game.to_json()), context=game.context, memory=memory)
    assert loaded.context is game.context and loaded._search_memory() is memory
    assert loaded.to_json() == game.to_json() == Game.from_json(game.to_json()).to_json()
    root = Path(__file__).resolve().parents[2]
    uses = [p.relative_to(root).as_posix() for folder in ("riskstats", "scripts") for p in (root / folder).rglob("*.py")
            for _ in re.finditer(r"__new__\(", p.read_text())]
    assert uses == ["riskstats/game/play.py"]
