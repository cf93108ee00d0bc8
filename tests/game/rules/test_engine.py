"""Scenario tests of each rule against hand-built states (the kernels of riskstats.game.rules.engine)."""
import numpy as np
import pytest

from riskstats.errors import RiskstatsError
from riskstats.game.play import Game, Move
from riskstats.game.rules.board import classic_board
from riskstats.game.rules.engine import _base_reinforcement
from riskstats.game.rules.legal import _regions
from riskstats.game.rules.options import GameRules
from riskstats.game.rules.state import (
    ATTACK,
    DECK,
    DISCARD,
    FORTIFY,
    I_DECK_N,
    I_LOG_N,
    I_PHASE,
    I_PLAYER,
    I_RESERVE,
    I_SETS_TRADED,
    I_START_HAND,
    I_TRADED_TURN,
    L_ALOSS,
    L_DDICE,
    L_DLOSS,
    L_MOVE,
    TRADE,
)

BOARD = classic_board()
T = BOARD.territory_index
SYM = BOARD.arrays.card_symbol
INF, CAV, ART = (np.flatnonzero(SYM == s).tolist() for s in range(3))
WILDS = np.flatnonzero(SYM == 3).tolist()


def arrange(game, owner, armies=1, phase=TRADE, player=0, hands=None, reserve=3):
    """Overwrite a game's state: owner per territory, armies, phase, player, hands {seat: [cards]}."""
    st = game.state
    st.owner[:] = owner
    st.armies[:] = armies
    st.n_terr[:] = np.bincount(st.owner, minlength=len(st.n_terr))
    st.alive[:] = st.n_terr > 0
    st.card_owner[:] = DECK
    for seat, cards in (hands or {}).items():
        st.card_owner[cards] = seat
    st.deck[:] = np.r_[np.flatnonzero(st.card_owner == DECK), np.flatnonzero(st.card_owner != DECK)]
    st.info[16] = int((st.card_owner == DECK).sum())
    st.info[I_PHASE] = phase
    st.info[I_PLAYER] = player
    st.info[I_RESERVE] = reserve
    st.info[13] = ATTACK  # the phase after placing
    st.info[I_START_HAND] = int((st.card_owner == player).sum())
    st.info[I_TRADED_TURN] = 0
    return game


def owners(default, **named):
    owner = np.full(42, default)
    for name, seat in named.items():
        owner[T(name.replace("_", " "))] = seat
    return owner


@pytest.fixture
def game():
    return Game(3, seed=0)


def test_reinforcement_counts(game):
    owner = np.ones(42, int)
    owner[[*range(8), 9, 10, 11]] = 0  # 8 of North America's 9, 3 of South America's 4
    arrange(game, owner)
    assert _base_reinforcement(game.state, BOARD.arrays, 0) == 3  # 11 // 3 = 3
    owner[13] = 0  # and Iceland
    arrange(game, owner)
    assert _base_reinforcement(game.state, BOARD.arrays, 0) == 4  # and no continent held
    australia = [T(t) for t in ("Indonesia", "New Guinea", "Western Australia", "Eastern Australia")]
    owner = np.ones(42, int)
    owner[australia] = 0
    arrange(game, owner)
    assert _base_reinforcement(game.state, BOARD.arrays, 0) == 3 + 2
    owner[australia[0]] = 1
    arrange(game, owner)
    assert _base_reinforcement(game.state, BOARD.arrays, 0) == 3  # one missing: no bonus
    arrange(game, np.zeros(42, int))
    assert _base_reinforcement(game.state, BOARD.arrays, 0) == 14 + 24


def test_invalid_sets_are_rejected(game):
    arrange(game, np.ones(42, int), hands={0: [INF[0], INF[1], CAV[0], CAV[1]]})
    with pytest.raises(RiskstatsError, match="not a valid set"):
        game.step(Move.trade(INF[0], INF[1], CAV[0]))
    with pytest.raises(RiskstatsError, match="not a valid set"):
        game.step(Move.trade(INF[0], INF[0], CAV[0]))
    with pytest.raises(RiskstatsError, match="not a valid set"):
        game.step(Move.trade(INF[0], INF[1], INF[2]))  # INF[2] is not in the hand


def test_escalation_is_counted_over_all_players(game):
    owner = np.array([0, 1, 2] * 14)
    values = []
    for k in range(8):
        player = k % 3
        arrange(game, owner, hands={player: [INF[3 * (k % 4)], INF[3 * (k % 4) + 1], INF[3 * (k % 4) + 2]]},
                player=player)
        game.state.info[I_SETS_TRADED] = k
        game.step(Move.trade(*game.hand()))
        values.append(int(game.state.info[I_RESERVE]) - 3)
    assert values == [4, 6, 8, 10, 12, 15, 20, 25]


@pytest.mark.parametrize("escalation, cards, value", [
    ("fixed", (INF[0], INF[1], INF[2]), 4), ("fixed", (CAV[0], CAV[1], CAV[2]), 6),
    ("fixed", (ART[0], ART[1], ART[2]), 8), ("fixed", (INF[0], CAV[0], ART[0]), 10),
    ("fixed", (ART[0], ART[1], WILDS[0]), 8), ("fixed", (INF[0], CAV[0], WILDS[0]), 10),
    ("none", (INF[0], INF[1], INF[2]), 4),
])
def test_other_escalation_schemes(escalation, cards, value):
    game = Game(3, GameRules(escalation=escalation), seed=0)
    arrange(game, np.ones(42, int), hands={0: list(cards)})
    game.state.info[I_SETS_TRADED] = 7
    game.step(Move.trade(*cards))
    assert game.state.info[I_RESERVE] == 3 + value


@pytest.mark.parametrize("mode, bonus_total", [("per_turn", 2), ("per_set", 4), ("off", 0)])
def test_territory_bonus(mode, bonus_total):
    game = Game(3, GameRules(territory_bonus=mode), seed=0)
    set1, set2 = (INF[0], INF[1], INF[2]), (CAV[0], CAV[1], CAV[2])
    arrange(game, np.zeros(42, int), hands={0: [*set1, *set2]})  # player 0 owns every card territory
    before = game.state.armies.sum()
    game.step(Move.trade(*set1))
    game.step(Move.trade(*set2))
    assert game.state.armies.sum() - before == bonus_total
    assert game.state.info[I_RESERVE] == 3 + 4 + 6


def test_forced_trade_at_five_cards(game):
    arrange(game, np.array([0, 1, 2] * 14), hands={0: [INF[0], INF[1], INF[2], CAV[0], ART[0]]})
    with pytest.raises(RiskstatsError, match="too many cards"):
        game.step(Move.pass_())
    game.step(Move.trade(INF[0], INF[1], INF[2]))
    assert game.phase == "reinforce"  # no set left: trading ends
    arrange(game, np.array([0, 1, 2] * 14), hands={0: [INF[0], INF[1], INF[2], CAV[0]]})
    game.step(Move.pass_())  # four cards: trading is optional
    assert game.phase == "reinforce"


def conquer(game, src, dst):
    """Attack until dst falls, the defender always rolling its most dice."""
    while game.phase == "attack" and game.state.owner[dst] != game.player:
        game.step(Move.attack(src, dst, min(3, int(game.state.armies[src]) - 1)))
        game.step(Move.defend(game.legal_mask()["defend"][1]))


def test_conquest_moves_at_least_the_dice(game):
    owner = owners(1, Alaska=0)
    arrange(game, owner, armies=1, phase=ATTACK)
    game.state.armies[T("Alaska")] = 50
    conquer(game, T("Alaska"), T("Kamchatka"))
    assert game.phase == "occupy"
    assert game.state.armies[T("Kamchatka")] == 3  # three dice in the last roll moved in
    with pytest.raises(RiskstatsError, match="bad number of armies"):
        game.step(Move.occupy(int(game.state.armies[T("Alaska")])))  # one must stay behind
    game.step(Move.occupy(int(game.state.armies[T("Alaska")]) - 1))
    assert game.state.armies[T("Alaska")] == 1 and game.phase == "attack"


def test_attack_needs_two_armies_and_adjacency(game):
    arrange(game, owners(1, Alaska=0, Brazil=0), armies=1, phase=ATTACK)
    with pytest.raises(RiskstatsError, match="at least 2 armies"):
        game.step(Move.attack(T("Alaska"), T("Kamchatka"), 1))
    game.state.armies[T("Alaska")] = 3
    with pytest.raises(RiskstatsError, match="not adjacent"):
        game.step(Move.attack(T("Alaska"), T("Peru"), 1))
    with pytest.raises(RiskstatsError, match="dice"):
        game.step(Move.attack(T("Alaska"), T("Kamchatka"), 3))


def test_elimination_takes_cards_and_trades_at_once(game):
    owner = owners(2, Alaska=0, Kamchatka=1)
    arrange(game, owner, phase=ATTACK,
            hands={0: [INF[0], CAV[0]], 1: [INF[1], INF[2], CAV[1], ART[1]]})
    game.state.armies[T("Alaska")] = 60
    conquer(game, T("Alaska"), T("Kamchatka"))
    assert game.state.alive[1] == 0 and len(game.hand()) == 6
    game.step(Move.occupy(0))
    assert game.phase == "elim_trade"
    with pytest.raises(RiskstatsError, match="not allowed"):
        game.step(Move.end_attack())
    game.step(Move.trade(*game.legal_mask()["sets"][0]))
    assert len(game.hand()) == 3 and game.phase == "reinforce"
    game.step(Move.place(T("Alaska"), int(game.state.info[I_RESERVE])))
    assert game.phase == "attack"


def test_elimination_with_few_cards_waits(game):
    arrange(game, owners(2, Alaska=0, Kamchatka=1), phase=ATTACK, hands={0: [INF[0]], 1: [INF[1], CAV[1]]})
    game.state.armies[T("Alaska")] = 60
    conquer(game, T("Alaska"), T("Kamchatka"))
    game.step(Move.occupy(0))
    assert len(game.hand()) == 3 and game.phase == "attack"


@pytest.mark.parametrize("cards_per_turn, cards", [("one", 1), ("per_conquest", 2)])
def test_cards_drawn_after_two_conquests(cards_per_turn, cards):
    """docs/rules.md: one card a turn with a conquest; the house rule: one per territory conquered."""
    game = Game(3, GameRules(cards_per_turn=cards_per_turn), seed=0)
    arrange(game, owners(1, Alaska=0), phase=ATTACK)
    game.state.armies[T("Alaska")] = 80
    conquer(game, T("Alaska"), T("Kamchatka"))
    game.step(Move.occupy(int(game.state.armies[T("Alaska")]) - 2))
    conquer(game, T("Kamchatka"), T("Yakutsk"))
    game.step(Move.occupy(0))
    game.step(Move.end_attack())
    assert len(game.hand()) == cards and game.phase == "fortify"
    assert (game.events().move == "draw").sum() == cards


def test_per_conquest_draws_reshuffle_the_discards_and_stop_when_no_card_is_left():
    """Three conquests, one card in the draw pile and one discarded: draw it, reshuffle the discard into a
    new pile, draw that one, then find nothing left (the third card is not drawn)."""
    game = Game(3, GameRules(cards_per_turn="per_conquest"), seed=0)
    others = [c for c in range(BOARD.n_cards) if c not in (INF[0], INF[1])]
    arrange(game, owners(1, Alaska=0), phase=ATTACK, hands={1: others})
    st = game.state
    st.card_owner[INF[1]] = DISCARD
    st.deck[:] = np.r_[INF[0], [c for c in range(BOARD.n_cards) if c != INF[0]]]
    st.info[I_DECK_N] = 1
    st.armies[T("Alaska")] = 120
    path = ["Alaska", "Kamchatka", "Yakutsk", "Siberia"]
    for src, dst in zip(path, path[1:]):
        conquer(game, T(src), T(dst))
        game.step(Move.occupy(int(st.armies[T(src)]) - 2))
    start = int(st.info[I_LOG_N])
    game.step(Move.end_attack())
    rows = game.events().loc[start:]
    assert sorted(game.hand()) == sorted([INF[0], INF[1]]) and game.phase == "fortify"
    assert rows.move.tolist()[1:] == ["draw", "reshuffle", "draw", "reshuffle"]
    assert (st.card_owner == DECK).sum() == 0 and st.info[I_DECK_N] == 0


@pytest.mark.parametrize("cards_per_turn", ["one", "per_conquest"])
def test_draws_in_a_played_game_follow_the_rule(cards_per_turn):
    """In a whole game, every turn's draws: one card (or one per conquest) after a turn with a conquest,
    none after a turn without, fewer only when every card is in someone's hand."""
    from riskstats.game.play import play_game

    rules = GameRules(cards_per_turn=cards_per_turn)
    events = play_game(4, ["aggressive", "continent"], rules, seed=3).events()
    turns = events[events.turn > 0].groupby("turn")
    conquests = turns.conquered.sum()
    draws = turns.move.apply(lambda m: int((m == "draw").sum()))
    ended = turns.move.apply(lambda m: bool((m == "end_attack").any()))
    last_draws = events[events.move.isin(["draw", "reshuffle"])].groupby("turn").move.last()
    emptied = (last_draws == "reshuffle").reindex(draws.index, fill_value=False)  # a draw found no card left
    expected = conquests.clip(upper=1) if cards_per_turn == "one" else conquests
    assert (draws[ended & ~emptied] == expected[ended & ~emptied]).all()
    assert (draws[ended & emptied] < expected[ended & emptied]).all()
    assert (draws[~ended] == 0).all()  # a turn that ends with the game (no end of attack) draws nothing
    if cards_per_turn == "per_conquest":
        assert (conquests[ended] > 1).any()  # the rule made a difference in this game


def test_bots_time_their_trades_with_trade_at():
    """trade_at: trade once holding that many cards (3: at once), and whenever a trade is forced."""
    game = Game(3, seed=0)
    three = {0: [INF[0], INF[1], INF[2]]}
    four = {0: [INF[0], INF[1], INF[2], CAV[0]]}
    five = {0: [INF[0], INF[1], INF[2], CAV[0], ART[0]]}
    owner = np.array([0, 1, 2] * 14)
    for hands, spec, trades in [(three, "aggressive", True), (three, "aggressive:trade_at=4", False),
                                (four, "aggressive:trade_at=4", True), (four, "continent:trade_at=5", False),
                                (five, "continent:trade_at=6", True), (four, "defensive", False),
                                (three, "defensive:trade_at=3", True), (five, "defensive", True),
                                (three, "mission:trade_at=4", False), (three, "capital", True),
                                (three, "capital:trade_at=6", False)]:
        arrange(game, owner, hands=hands)
        assert (game.bot_move(spec).name == "trade") == trades, (spec, hands)


@pytest.mark.parametrize("fortify, legal", [("connected", True), ("adjacent", False)])
def test_fortify_connected_vs_adjacent(fortify, legal):
    game = Game(3, GameRules(fortify=fortify), seed=0)
    arrange(game, owners(1, Alaska=0, Alberta=0, Ontario=0, Peru=0), armies=3, phase=FORTIFY)
    move = Move.fortify(T("Alaska"), T("Ontario"), 2)
    assert (game.check(move) == "") == legal
    assert game.check(Move.fortify(T("Alaska"), T("Alberta"), 2)) == ""
    assert game.check(Move.fortify(T("Alaska"), T("Peru"), 2)) != ""  # not joined at all
    assert game.check(Move.fortify(T("Alaska"), T("Alberta"), 3)) != ""  # one stays behind


@pytest.mark.parametrize("seed", [0, 3, 8])
def test_regions_are_the_connected_parts_of_a_seats_land(seed):
    from scipy.sparse.csgraph import connected_components

    game = Game(4, seed=seed).play(["aggressive"], max_moves=400 + 50 * seed)
    B, st = game.context.B, game.state
    for p in range(4):
        region = np.empty(42, np.int64)
        _regions(st, B, p, region)
        mine = np.flatnonzero(st.owner == p)
        assert (region[st.owner != p] == -1).all()
        _, label = connected_components(B.adjacency[np.ix_(mine, mine)], directed=False)
        same = label[:, None] == label[None, :]  # what scipy joins, _regions joins, and nothing else
        assert ((region[mine][:, None] == region[mine][None, :]) == same).all()
        assert all(region[t] == mine[label == label[i]].min() for i, t in enumerate(mine))


def test_two_player_setup_and_neutral():
    game = Game(2, GameRules(variant="two-player"), seed=5)
    st = game.state
    assert st.n_terr.tolist() == [14, 14, 14]
    assert game.phase == "setup_place" and game.state.info[15] == 2  # two armies at a time
    seen_neutral_turn = False
    while game.phase == "setup_place":
        assert game.player in (0, 1)
        seen_neutral_turn |= game.state.info[14] == 2
        game.step(game.bot_move("random"))
    assert seen_neutral_turn
    assert [int(st.armies[st.owner == s].sum()) for s in range(3)] == [40, 40, 40]
    game.play(["aggressive", "defensive"])
    events = game.events()
    assert set(events["by"]) <= {-1, 0, 1}  # the neutral never moves
    assert set(events.player[events.move == "place"]) == {0, 1, 2}  # but its armies are placed
    neutral_defence = events[(events.move == "attack") & (events.dst >= 0)]
    assert len(neutral_defence) > 0
    assert game.winner in (0, 1) and game.reason == "opponent_eliminated"


def test_two_player_interleaved_setup():
    game = Game(2, GameRules(variant="two-player", neutral_interleaved=True), seed=1)
    sequence = []
    while game.phase == "setup_place":
        sequence.append(int(game.state.info[14]))
        game.step(Move.place(int(np.flatnonzero(game.state.owner == game.state.info[14])[0]),
                             int(game.state.info[15])))
    assert sequence[:4] == [0, 2, 1, 2]


def test_illegal_move_changes_nothing(game):
    before = [a.copy() for a in game.state]
    with pytest.raises(RiskstatsError, match="illegal move"):
        game.step(Move.attack(0, 1, 3))
    assert all((a == b).all() for a, b in zip(before, game.state))


# ---------------------------------------------------------------- the defender decides
def test_the_defending_seat_chooses_its_dice(game):
    arrange(game, owners(2, Alaska=0, Kamchatka=1), phase=ATTACK)
    game.state.armies[T("Alaska")] = 10
    game.state.armies[T("Kamchatka")] = 5
    game.step(Move.attack(T("Alaska"), T("Kamchatka"), 3))
    assert game.phase == "defend" and game.player == 1  # the defending seat is to move
    assert game.pending_attack == (T("Alaska"), T("Kamchatka"), 3)
    assert game.view().seat == 1 and game.view().pending_attack == game.pending_attack
    assert game.legal_moves() == [Move.defend(1), Move.defend(2)]
    before = game.state.armies.copy()
    with pytest.raises(RiskstatsError, match="not allowed in the current phase"):
        game.step(Move.attack(T("Alaska"), T("Kamchatka"), 3))  # the attacker waits for the answer
    with pytest.raises(RiskstatsError, match="bad number of dice"):
        game.step(Move.defend(3))
    assert (game.state.armies == before).all()
    game.step(Move.defend(1))
    assert game.phase == "attack" and game.player == 0 and game.pending_attack is None
    row = game.events().iloc[-1]
    assert (row.move, row.player, row.attacker_dice, row.defender_dice) == ("attack", 0, 3, 1)
    assert row.attacker_loss + row.defender_loss == 1  # one pair of dice compared
    assert game.state.armies.sum() == before.sum() - 1


def test_the_attacker_cannot_choose_the_defence(game):
    arrange(game, owners(2, Alaska=0, Kamchatka=1), phase=ATTACK)
    game.state.armies[T("Alaska")] = 10
    with pytest.raises(RiskstatsError, match="the defender chooses its own dice"):
        game.step(Move(3, T("Alaska"), T("Kamchatka"), 3, 1))


def test_a_last_army_defends_with_one_die_and_three_when_the_rules_allow():
    from riskstats.odds.dice import DiceRules

    game = arrange(Game(3, GameRules(dice=DiceRules(defender_dice=3)), seed=0),
                   owners(2, Alaska=0, Kamchatka=1), phase=ATTACK)
    game.state.armies[T("Alaska")] = 10
    game.step(Move.attack(T("Alaska"), T("Kamchatka"), 3))
    assert game.legal_mask()["defend"] == (1, 1)  # one army: one die
    game.step(Move.defend(1))
    game.state.info[I_PHASE] = ATTACK
    game.state.owner[T("Kamchatka")], game.state.armies[T("Kamchatka")] = 1, 9
    game.step(Move.attack(T("Alaska"), T("Kamchatka"), 2))
    assert game.legal_mask()["defend"] == (1, 3)


@pytest.mark.parametrize("dice, fraction", [(1, (855, 1296)), (2, (2890, 7776))])
def test_the_chosen_dice_are_rolled(game, dice, fraction):
    """3 attacker dice against the defender's choice: the defender loses every die it rolled with
    probability 855/1296 with one die, 2890/7776 with two (docs/rules.md), within a 99.9% interval."""
    from riskstats.intervals import wilson_interval

    arrange(game, owners(2, Alaska=0, Kamchatka=1), phase=ATTACK)
    game.state.armies[T("Alaska")] = 100_000
    game.state.armies[T("Kamchatka")] = 100_000
    rolls = 3000
    wiped = 0
    for _ in range(rolls):
        game.step(Move.attack(T("Alaska"), T("Kamchatka"), 3))
        game.step(Move.defend(dice))
        row = game.state.log[game.state.info[I_LOG_N] - 1]
        assert row[L_DDICE] == dice and row[L_ALOSS] + row[L_DLOSS] == dice
        wiped += int(row[L_DLOSS] == dice)
    low, high = wilson_interval(wiped, rolls, z=3.29)
    assert low <= fraction[0] / fraction[1] <= high


def test_the_other_player_rolls_for_the_neutral():
    game = Game(2, GameRules(variant="two-player"), seed=5)
    while game.phase == "setup_place":
        game.step(game.bot_move("random"))
    while game.phase != "attack":
        game.step(game.bot_move("aggressive"))
    attacker = game.player
    st = game.state
    src = next(t for t in range(42) if st.owner[t] == attacker
               and any(st.owner[u] == 2 for u in np.flatnonzero(BOARD.arrays.adjacency[t])))
    dst = next(u for u in np.flatnonzero(BOARD.arrays.adjacency[src]) if st.owner[u] == 2)
    st.armies[src] = 10
    game.step(Move.attack(src, int(dst), 3))
    assert game.player == 1 - attacker and game.phase == "defend"
    before = int(st.armies[dst])
    game.step(game.bot_move("random"))  # built-in bots defend with the most
    assert game.events().iloc[-1].defender_dice == min(2, before) and game.player == attacker


def test_a_python_bot_decides_its_defence():
    """A Python bot at seat 0 rolls one die whenever it defends; the built-in bots roll their most."""
    asked = []

    def timid(view):
        if view.phase == "defend":
            asked.append(view.seat)
            return Move.defend(1)
        return view.legal_moves()[-1]  # anything legal: end attacks, end turns, the last placement

    game = Game(3, GameRules(max_turns=60), seed=3)
    bots = [timid, "aggressive", "aggressive"]
    defences = {0: 0, 1: 0, 2: 0}
    while not game.over:
        seat, pending = game.player, game.pending_attack
        before = int(game.state.armies[pending[1]]) if pending else 0
        game.play(bots, max_moves=1)
        if pending:
            log = game.state.log[:game.state.info[I_LOG_N]]
            row = log[np.flatnonzero(log[:, L_MOVE] == 3)[-1]]  # the attack row (captures may follow it)
            assert row[L_DDICE] == (1 if seat == 0 else min(2, before))
            defences[seat] += 1
    assert defences[0] == len(asked) > 0 and set(asked) == {0}
    assert defences[1] + defences[2] > 0


@pytest.mark.parametrize("variant", ["classic", "mission", "capital"])
@pytest.mark.parametrize("players", [4, 5])
def test_deal_gives_the_extra_territories_independently_of_the_first_mover(variant, players):
    """42 territories dealt to 4 or 5 players: two seats get one more. Seat 0 always moves first, so it
    must be one of them in 2/P of deals (not in all of them: the deal starts at a random seat)."""
    n = 1000
    extra = np.zeros(players, np.int64)
    for seed in range(n):
        game = Game(players, GameRules(variant=variant, setup="deal"), seed=seed, log=False)
        counts = game.state.n_terr[:players]
        assert sorted(counts.tolist()) == sorted([42 // players + 1] * 2 + [42 // players] * (players - 2))
        extra += counts == counts.max()
    p = 2 / players
    bound = 4.5 * np.sqrt(n * p * (1 - p))  # binomial: a false alarm about once in 10^5 runs per seat
    assert abs(extra[0] - n * p) <= bound, extra  # seat 0 moves first: an extra territory in 2/P of deals
    assert (np.abs(extra - n * p) <= bound).all(), extra  # and so does every other seat


def test_whose_turn_is_one_kernel():
    """Issue 53: the seat whose turn it is, the attacker while the defender picks its dice, is read by one kernel
    (riskstats.game.rules.state._turn_seat) wherever the package needs it."""
    from pathlib import Path

    from riskstats.game.play import Game
    from riskstats.game.rules.state import _turn_seat

    game = Game(4, seed=2)
    while game.phase != "defend":
        game.step(game.bot_move("aggressive"))
    attacker = game.state.owner[game.pending_attack[0]]
    assert _turn_seat(game.state) == attacker != game.player  # the defending seat is to move
    root = Path(__file__).resolve().parents[3] / "riskstats"
    rule = "if st.info[I_PHASE] == DEFEND:\n        return st.owner[st.info[I_ATK_FROM]]"
    copies = [p.name for p in root.rglob("*.py") if rule in p.read_text()]
    assert copies == ["state.py"]
