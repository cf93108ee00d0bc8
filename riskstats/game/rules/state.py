"""The state of one full game: a bag of arrays, with its layout, phases and move encoding.

This module owns the `State` layout (what every array holds), the phase and move-kind numbers, the
event-log columns, the allocator `_new_state` and `_copy_state` (a position copied into a working state:
rollouts, search). It does not own the rules that change a state (`riskstats.game.rules.engine`) or who
chooses moves (`riskstats.game.bots`).

Seats: 0..P-1 are the players in turn order (seat 0 moves first; the rulebooks' opening die roll only
decides who sits there). With a two-player neutral, seat P is the neutral: it owns territories and
armies but never takes a turn. S = number of seats, T territories, C cards.

A move is five integers ``(kind, a, b, c, d)``:

=========== =================================== ======================================================
kind        phases                              a, b, c, d
=========== =================================== ======================================================
PLACE       CLAIM, SETUP_PLACE, REINFORCE       a territory, b armies (1 when claiming)
TRADE       TRADE, ELIM_TRADE                   a, b, c: the three cards
PASS        TRADE                               stop trading (illegal while a trade is forced)
ATTACK      ATTACK                              a from, b to, c attacker dice (d: 0; the defender chooses)
DEFEND      DEFEND                              a defender dice (1 .. min(defender's most, armies there))
OCCUPY      OCCUPY                              a extra armies moved in after a conquest (0 or more)
END_ATTACK  ATTACK                              draw a card if a territory was conquered this turn
FORTIFY     FORTIFY                             a from, b to, c armies; ends the turn
END_TURN    FORTIFY                             end the turn without fortifying
CAPITAL     CAPITAL                             a: the territory picked as capital (Capital Risk)
=========== =================================== ======================================================

An ATTACK move only declares the attack: phase DEFEND then asks the defending seat (the player to move,
``info[I_PLAYER]``, is now the owner of the attacked territory; for a two-player neutral territory, the
other player, who rolls the neutral's dice, docs/rules.md) how many dice it rolls; its DEFEND move rolls the
dice and gives the turn back to the attacker (phase ATTACK, or OCCUPY after a conquest). The declared
attack waits in ``info[I_ATK_FROM]``, ``info[I_ATK_TO]`` and ``info[I_ATK_DICE]``.

On a conquest the armies of the dice in the last roll move in at once (the minimum), so no territory is
ever empty; OCCUPY then moves any extra armies.

Secret Mission: ``mission[s]`` is seat s's card, decoded into a row (`MISSION_COLS`). It is secret: a
bot reads only its own seat's row (`riskstats.game.play.Game.view` masks the others for Python bots).
Colours: seat s plays colour s of the board's colour list (`riskstats.game.rules.board.Board.colours`, the order of
the "destroy" cards), so with P players the colours P.. are not in play.

Capital Risk: after setup, phase CAPITAL asks each player in seat order for a capital (one own territory).
Picks are simultaneous in effect: ``capital[s]`` is written as s picks, but a bot must not read another
seat's entry before the phase ends (the compiled bots don't; the Python view masks them). Then the
capitals' territory cards are set aside (card_owner ASIDE) and the first turn begins.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from riskstats._numba import inline_jit, jit

State = namedtuple("State", "owner armies card_owner deck alive n_terr to_place info rng log mission capital "
                           "out scratch")
"""One game's arrays (all int64 but rng):

owner[T]        seat owning each territory; -1 while unclaimed during setup
armies[T]       armies on each territory (>= 1 once claimed)
card_owner[C]   seat holding each card, or DECK (-1, in the draw pile), DISCARD (-2) or ASIDE (-3, a
                capital's card in Capital Risk: never drawn, never traded)
deck[C]         the draw pile is deck[0:info[I_DECK_N]], its top card last
alive[S]        1 while the seat owns a territory
n_terr[S]       territories owned by each seat
to_place[S]     setup armies each seat still has to place
info[I_SIZE]    the scalars, indexed by the I_* constants below
rng[1]          uint64 state of the game's own random stream (xorshift64*)
log[L, LOG_COLS] event log rows (L = 0: no log), filled up to info[I_LOG_N]
mission[S, MISSION_COLS] each seat's mission (all -1 outside Secret Mission)
capital[S]      each seat's capital territory (-1 outside Capital Risk or before it is picked)
out[S]          0 while the seat is in play; k once it is the k-th seat eliminated (the finishing order)
scratch[SC_HEAD + SC_BLOCKS * (T + 1) + S * N_MISSION + edge words]
                working memory of the bots and helpers, not part of the game (`SCRATCH`)
"""

DECK, DISCARD, ASIDE = -1, -2, -3

PHASES = ("claim", "setup_place", "trade", "reinforce", "attack", "occupy", "elim_trade", "fortify", "over",
          "capital", "defend")
CLAIM, SETUP_PLACE, TRADE, REINFORCE, ATTACK, OCCUPY, ELIM_TRADE, FORTIFY, OVER, CAPITAL, DEFEND = \
    range(len(PHASES))

MOVES = ("place", "trade", "pass", "attack", "occupy", "end_attack", "fortify", "end_turn", "begin_turn",
         "capital", "defend")
"""Move kinds (`riskstats.game.play.Move.kind`), named as in the event log's ``move`` column; ``begin_turn`` is
only an event. A placement while claiming is logged as ``claim``, and a defend move is not logged apart: its
dice are on the attack row it answered."""
PLACE, TRADE_SET, PASS, ATTACK_MOVE, OCCUPY_MOVE, END_ATTACK, FORTIFY_MOVE, END_TURN, BEGIN_TURN, CAPITAL_PICK, \
    DEFEND_MOVE = range(len(MOVES))
NO_MOVE = -1
"""A move of no kind, which `riskstats.game.rules.legal._check` rejects (``E_KIND``): what the dispatch returns
for a bot its roster did not compile in (`riskstats.game.bots.dispatch.UNSEATED`)."""
EVENTS = MOVES + ("deal", "claim", "mission", "reinforce", "draw", "reshuffle", "capture", "aside", "game_over")
"""Every kind of event-log row: the move kinds, then events that are not moves (see `LOG_COLS`)."""
EV_DEAL, EV_CLAIM, EV_MISSION, EV_REINFORCE, EV_DRAW, EV_RESHUFFLE, EV_CAPTURE, EV_ASIDE, EV_GAME_OVER = \
    range(len(MOVES), len(EVENTS))

INFO = ("phase", "player", "turn", "round", "reserve", "sets_traded", "traded_this_turn", "start_hand",
        "bonus_given", "conquered", "occ_from", "occ_to", "elim_pending", "after_place", "place_for",
        "quota", "deck_n", "winner", "reason", "log_n", "moves", "attack_from", "attack_to", "attack_dice",
        "from_territories", "from_continents", "from_cards")
(I_PHASE, I_PLAYER, I_TURN, I_ROUND, I_RESERVE, I_SETS_TRADED, I_TRADED_TURN, I_START_HAND,
 I_BONUS_GIVEN, I_CONQUERED, I_OCC_FROM, I_OCC_TO, I_ELIM_PENDING, I_AFTER_PLACE, I_PLACE_FOR,
 I_QUOTA, I_DECK_N, I_WINNER, I_REASON, I_LOG_N, I_MOVES, I_ATK_FROM, I_ATK_TO, I_ATK_DICE,
 I_FROM_TERRITORIES, I_FROM_CONTINENTS, I_FROM_CARDS) = range(len(INFO))
I_SIZE = len(INFO)
"""info[...]: phase; player to move (the defending seat in phase DEFEND, else the player whose turn it
is); turns begun; rounds begun; armies left to place this turn; sets
traded by all players; sets traded this turn; hand size at the turn's start; territory bonus given
this turn; conquests this turn; the last conquest's from/to; an elimination trade is due; phase after
the reserve is placed; seat whose setup armies are being placed; setup armies left in this placement;
cards in the draw pile; winner seat (-1); win reason (REASONS); event-log rows written; moves applied;
the attack awaiting the defender's dice (from, to, attacker dice; phase DEFEND); the parts of the reserve
not yet logged on a reinforce row (territories, continents, cards)."""

REASONS = ("", "all_territories", "opponent_eliminated", "turn_cap", "mission", "capitals", "move_cap")
"""info[I_REASON]: why the game ended ("" while running). A truncated game has winner -1: "turn_cap" when
it reached the rules' ``max_turns``, "move_cap" when the compiled loop stopped it after
`riskstats.game.loop.MAX_MOVES` moves (only under rules that make single turns endless in practice)."""
WIN_ALL, WIN_ELIMINATED, WIN_CAP, WIN_MISSION, WIN_CAPITALS, WIN_MOVE_CAP = range(1, len(REASONS))

MISSION_COLS = ("card", "kind", "c1", "c2", "third", "count", "min_armies", "target")
"""mission[s, ...]: the card's index in the board's mission list; kind (`MISSION_KINDS`); for
"continents" the two continents and whether any third continent is needed too; for "territories" the
count and the armies each needs; for "destroy" the target seat. A player dealt their own colour gets
kind "territories" (24, 1) with the card kept; a target eliminated by another player turns the row into
"achieved" or "territories" (24, 1), as `GameRules.mission_target_lost` says."""
M_CARD, M_KIND, M_C1, M_C2, M_THIRD, M_COUNT, M_MIN, M_TARGET = range(len(MISSION_COLS))
MISSION_KINDS = ("continents", "territories", "destroy", "achieved")
MK_CONTINENTS, MK_TERRITORIES, MK_DESTROY, MK_ACHIEVED = range(len(MISSION_KINDS))
N_MISSION = len(MISSION_COLS)

LOG_COLS = ("turn", "player", "by", "phase", "move", "src", "dst", "armies", "attacker_dice", "defender_dice",
            "attacker_loss", "defender_loss", "defender", "conquered", "eliminated", "card", "card1", "card2", "card3",
            "value", "bonus_territory", "from_territories", "from_continents", "from_cards", "mission", "reason",
            "total_armies")
"""Event-log columns, one meaning each (docs/event_log.md); -1 or 0 where a column does not apply.

turn            turns begun (0 during setup)
player          the seat the row is about: who is dealt, claims, is given armies (the neutral for its
                placements), trades, attacks, draws, captures, begins a turn, wins (-1: no winner)
by              the seat that chose the move (a player placing neutral armies); on begin_turn rows the player
                whose turn begins; -1 on the other rows that are not moves
phase           the phase when it happened (`PHASES`)
move            what happened (`EVENTS`)
src, dst        territories: armies leave src and arrive on dst (-1: none)
armies          armies put on dst: dealt, claimed, placed, the +2 bonus of a traded card, or moved from src
                (a conquest's move-in on its attack row, an occupation, a fortification)
attacker_dice, defender_dice, attacker_loss, defender_loss    one roll (attack rows); each side chose its dice
defender        the seat owning dst when it was attacked (attack rows)
conquered       1 on the attack row that took dst
eliminated      the seat knocked out by this attack (attack rows); its cards' capture rows follow
card            the card drawn (draw), captured (capture) or set aside as a capital's (aside)
card1..card3    the set traded (trade rows)
value           the traded set's value, armies added to the reserve (trade rows)
bonus_territory the traded card's territory that got +2 armies (trade rows; also dst)
from_territories, from_continents, from_cards    the reinforcement's parts (reinforce rows): max(3, territories
                // 3), the continent bonuses, the sets traded since the last reinforce row; their sum is the
                reserve to place
mission         the mission card dealt (mission rows; an index into the board's mission list)
reason          why the game ended (game_over rows; `REASONS`)
total_armies    armies on the board after the row
"""
(L_TURN, L_PLAYER, L_BY, L_PHASE, L_MOVE, L_SRC, L_DST, L_ARMIES, L_ADICE, L_DDICE, L_ALOSS, L_DLOSS, L_DEFENDER,
 L_CONQUERED, L_ELIMINATED, L_CARD, L_CARD1, L_CARD2, L_CARD3, L_VALUE, L_BONUS, L_FROM_TERRITORIES,
 L_FROM_CONTINENTS, L_FROM_CARDS, L_MISSION, L_REASON, L_TOTAL) = range(len(LOG_COLS))
N_LOG = len(LOG_COLS)

SCRATCH = ("stamp", "player", "src", "dst", "held")
SC_STAMP, SC_PLAYER, SC_SRC, SC_DST, SC_HELD = range(len(SCRATCH))
SC_HEAD = 8
SC_MARK, SC_STACK, SC_GOAL, SC_DIST, SC_MEMO_GOAL, SC_MEMO_DIST, SC_RANK, SC_SPARE = range(8)
SC_OWN = 8
SC_BLOCKS = SC_OWN + 11
EDGE_BITS = 32
"""scratch[...]: memory the compiled bots and helpers reuse instead of allocating on every move; it is not
part of the game (a game is the same whatever it holds). Its head caches the random bot's attacks: the
edge bits (`_edge_bits`, one bit per directed border in the board's edge order, `BoardArrays.nbr_src`)
mark the favourable attacks of seat scratch[SC_PLAYER] as they stand once the move number
scratch[SC_STAMP] has been applied, except on the edges at territories scratch[SC_SRC] and
scratch[SC_DST] (the attack the bot chose, and its occupation); a stamp that is not info[I_MOVES] means
no cache, and every entry to the compiled bots from outside the game loop sets it to -1. The blocks are
T-long buffers (`_scratch_block`) for a bot's move: SC_MARK the territories a search marked, SC_STACK
`_reachable`'s stack (or a queue), SC_GOAL and SC_DIST a bot's goal territories and distances to them (a
continent-indexed count may use a block's first K entries); SC_MEMO_GOAL and SC_MEMO_DIST belong to
`riskstats.game.bots.objective._goal_distance` alone (a goal and its distances, kept from move to move); SC_RANK
and SC_SPARE are the best attack's (`riskstats.game.bots.common._best_attack_where`: which territories an attack may
go into, and what each source rolls), filled by its callers just before they call it; the blocks from SC_OWN on
are the moving bot's own, named in its module (the hunter's routes, sweeps and flags, `riskstats.game.bots.hunter.
chain`). Each block is T + 1 words (`_scratch_row`: a stack may hold one more than the territories), of which
`_scratch_block` shows the first T. After the
blocks, S * N_MISSION words hold the missions as the seat to move sees them
(`riskstats.game.bots.dispatch._seat_view`), then the edge bits, `EDGE_BITS` to a word (room for every pair of
territories).

One word of the head is not a cache but a bot's memory over the game: scratch[SC_HELD] has bit s set once
seat s has held the continent its bot was forced to go for first (the ``first`` parameter of ``continent``
and ``value``, `riskstats.game.bots.common._forced_first`), after which that seat chooses its target freely. It
is 0 in a new game (`_new_state`, `riskstats.game.rules.engine._init`) and copied with a position
(`_copy_state`); a position read from a file (`riskstats.game.position`) starts with it at 0."""


@inline_jit
def _edge_words(T):  # pragma: no cover - compiled
    """Words of scratch memory for one bit per directed border of any board of T territories."""
    return (T * (T - 1) + EDGE_BITS - 1) // EDGE_BITS


@inline_jit
def _seat_lineup(lineup_bots, lineup_params, g):  # pragma: no cover - compiled
    """The bots and parameters of game g's seats from a rotating line-up: seat s plays entry (s + g) % P
    (self-play, the invariant sweep and the value fit's sampler rotate seats alike)."""
    P = lineup_bots.shape[0]
    bots = np.empty(P, np.int64)
    params = np.empty((P, lineup_params.shape[1]))
    for s in range(P):
        bots[s] = lineup_bots[(s + g) % P]
        params[s] = lineup_params[(s + g) % P]
    return bots, params


@jit
def _new_state(T, C, S, log_rows):  # pragma: no cover - compiled
    """Allocate a blank state (the engine's `_init` fills it)."""
    st = State(np.full(T, -1, np.int64), np.zeros(T, np.int64), np.full(C, DECK, np.int64),
                 np.arange(C).astype(np.int64), np.zeros(S, np.int64), np.zeros(S, np.int64),
                 np.zeros(S, np.int64), np.zeros(I_SIZE, np.int64), np.ones(1, np.uint64),
                 np.zeros((log_rows, N_LOG), np.int64), np.full((S, N_MISSION), -1, np.int64),
                 np.full(S, -1, np.int64), np.zeros(S, np.int64),
                 np.full(_blocks_end(T) + S * N_MISSION + _edge_words(T), -1, np.int64))
    st.scratch[SC_HELD] = 0
    return st


@jit
def _copy_state(src, dst):  # pragma: no cover - compiled
    """Copy a position into ``dst`` (same board and seats), all but the event log (dst's log is kept, and
    counts from src's row count on)."""
    dst.owner[:] = src.owner
    dst.armies[:] = src.armies
    dst.card_owner[:] = src.card_owner
    dst.deck[:] = src.deck
    dst.alive[:] = src.alive
    dst.n_terr[:] = src.n_terr
    dst.to_place[:] = src.to_place
    dst.info[:] = src.info
    dst.rng[:] = src.rng
    dst.mission[:, :] = src.mission
    dst.capital[:] = src.capital
    dst.out[:] = src.out
    dst.scratch[SC_STAMP] = -1
    dst.scratch[SC_HELD] = src.scratch[SC_HELD]


@jit
def _turn_seat(st):  # pragma: no cover - compiled
    """The seat whose turn it is (in phase DEFEND the attacker, not the defending seat to move)."""
    if st.info[I_PHASE] == DEFEND:
        return st.owner[st.info[I_ATK_FROM]]
    return st.info[I_PLAYER]


@inline_jit
def _blocks_end(T):  # pragma: no cover - compiled
    """Where a state's scratch blocks end (the missions as the seat to move sees them start there)."""
    return SC_HEAD + SC_BLOCKS * (T + 1)


@inline_jit
def _scratch_row(scratch, T, block):  # pragma: no cover - compiled
    """Buffer number ``block`` of a state's scratch memory, all T + 1 words of it (a view, not a copy)."""
    start = SC_HEAD + block * (T + 1)
    return scratch[start:start + T + 1]


@inline_jit
def _scratch_rows(scratch, T, block, n):  # pragma: no cover - compiled
    """Buffers ``block`` .. ``block + n - 1`` of a state's scratch memory as one (n, T + 1) view."""
    start = SC_HEAD + block * (T + 1)
    return scratch[start:start + n * (T + 1)].reshape((n, T + 1))


@inline_jit
def _scratch_block(scratch, T, block):  # pragma: no cover - compiled
    """The T-long buffer number ``block`` of a state's scratch memory (a view, not a copy)."""
    start = SC_HEAD + block * (T + 1)
    return scratch[start:start + T]


@inline_jit
def _edge_bits(scratch, T, S):  # pragma: no cover - compiled
    """The edge bits of a state's scratch memory (`SCRATCH`; a view): edge e is bit e % EDGE_BITS of word
    e // EDGE_BITS."""
    start = _blocks_end(T) + S * N_MISSION
    return scratch[start:start + _edge_words(T)]
