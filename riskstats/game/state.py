"""The state of one full game: a bag of arrays, with its layout, phases and move encoding.

This module owns the `State` layout (what every array holds), the phase and move-kind numbers, the
event-log columns and the allocator `_new_state`. It does not own the rules that change a state
(`riskstats.game.engine`) or who chooses moves (`riskstats.game.bots`).

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
ATTACK      ATTACK                              a from, b to, c attacker dice, d defender dice (0: most)
OCCUPY      OCCUPY                              a extra armies moved in after a conquest (0 or more)
END_ATTACK  ATTACK                              draw a card if a territory was conquered this turn
FORTIFY     FORTIFY                             a from, b to, c armies; ends the turn
END_TURN    FORTIFY                             end the turn without fortifying
CAPITAL     CAPITAL                             a: the territory picked as capital (Capital Risk)
=========== =================================== ======================================================

On a conquest the armies of the dice in the last roll move in at once (the minimum), so no territory is
ever empty; OCCUPY then moves any extra armies.

Secret Mission: ``mission[s]`` is seat s's card, decoded into a row (`MISSION_COLS`). It is secret: a
bot reads only its own seat's row (`riskstats.game.play.Game.view` masks the others for Python bots).
Colours: seat s plays colour s of the board's colour list (`riskstats.game.board.Board.colours`, the order of
the "destroy" cards), so with P players the colours P.. are not in play.

Capital Risk: after setup, phase CAPITAL asks each player in seat order for a capital (one own territory).
Picks are simultaneous in effect: ``capital[s]`` is written as s picks, but a bot must not read another
seat's entry before the phase ends (the compiled bots don't; the Python view masks them). Then the
capitals' territory cards are set aside (card_owner ASIDE) and the first turn begins.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from riskstats._numba import jit

State = namedtuple("State", "owner armies card_owner deck alive n_terr to_place info rng log mission capital out")
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
"""

DECK, DISCARD, ASIDE = -1, -2, -3

PHASES = ("claim", "setup_place", "trade", "reinforce", "attack", "occupy", "elim_trade", "fortify", "over",
          "capital")
CLAIM, SETUP_PLACE, TRADE, REINFORCE, ATTACK, OCCUPY, ELIM_TRADE, FORTIFY, OVER, CAPITAL = range(len(PHASES))

MOVES = ("place", "trade", "pass", "attack", "occupy", "end_attack", "fortify", "end_turn", "begin_turn",
         "capital")
"""Move kinds; ``begin_turn`` only appears in the event log (its value is the turn's base reinforcement)."""
PLACE, TRADE_SET, PASS, ATTACK_MOVE, OCCUPY_MOVE, END_ATTACK, FORTIFY_MOVE, END_TURN, BEGIN_TURN, CAPITAL_PICK = \
    range(len(MOVES))

INFO = ("phase", "player", "turn", "round", "reserve", "sets_traded", "traded_this_turn", "start_hand",
        "bonus_given", "conquered", "occ_from", "occ_to", "elim_pending", "after_place", "place_for",
        "quota", "deck_n", "winner", "reason", "log_n", "moves")
(I_PHASE, I_PLAYER, I_TURN, I_ROUND, I_RESERVE, I_SETS_TRADED, I_TRADED_TURN, I_START_HAND,
 I_BONUS_GIVEN, I_CONQUERED, I_OCC_FROM, I_OCC_TO, I_ELIM_PENDING, I_AFTER_PLACE, I_PLACE_FOR,
 I_QUOTA, I_DECK_N, I_WINNER, I_REASON, I_LOG_N, I_MOVES) = range(len(INFO))
I_SIZE = len(INFO)
"""info[...]: phase; player to move; turns begun; rounds begun; armies left to place this turn; sets
traded by all players; sets traded this turn; hand size at the turn's start; territory bonus given
this turn; conquests this turn; the last conquest's from/to; an elimination trade is due; phase after
the reserve is placed; seat whose setup armies are being placed; setup armies left in this placement;
cards in the draw pile; winner seat (-1); win reason (REASONS); event-log rows written; moves applied."""

REASONS = ("", "all_territories", "opponent_eliminated", "turn_cap", "mission", "capitals")
"""info[I_REASON]: why the game ended ("" while running). A turn-capped game has winner -1."""
WIN_ALL, WIN_ELIMINATED, WIN_CAP, WIN_MISSION, WIN_CAPITALS = range(1, len(REASONS))

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

LOG_COLS = ("turn", "player", "phase", "move", "src", "dst", "armies", "attacker_dice", "defender_dice",
            "attacker_loss", "defender_loss", "card1", "card2", "card3", "value", "bonus_territory",
            "eliminated", "total_armies")
"""Event-log columns: armies = armies placed or moved; value = a traded set's value, or the base
reinforcement on begin_turn; bonus_territory gets +2 from a traded card (-1 none); eliminated = seat
knocked out by this attack (-1); total_armies = armies on the board after the event. card1 on
end_attack is the card drawn (-1 none)."""
N_LOG = len(LOG_COLS)


@jit
def _new_state(T, C, S, log_rows):  # pragma: no cover - compiled
    """Allocate a blank state (the engine's `_init` fills it)."""
    return State(np.full(T, -1, np.int64), np.zeros(T, np.int64), np.full(C, DECK, np.int64),
                 np.arange(C).astype(np.int64), np.zeros(S, np.int64), np.zeros(S, np.int64),
                 np.zeros(S, np.int64), np.zeros(I_SIZE, np.int64), np.ones(1, np.uint64),
                 np.zeros((log_rows, N_LOG), np.int64), np.full((S, N_MISSION), -1, np.int64),
                 np.full(S, -1, np.int64), np.zeros(S, np.int64))
