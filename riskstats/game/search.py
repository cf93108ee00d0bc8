"""The search bot: at the start of each of its turns it tries a few plans in the compiled engine itself.

This module owns the ``search`` bot (catalogue entry `riskstats.game.bots.catalog.BUILT_IN`, id `SEARCH_ID`)
and the ``value`` bot (id `VALUE_ID`: the same plan search over the rest of the turn only, scored by the
fitted position value, `riskstats.game.value`):
its candidate plans (`PLANS`), its rollout policy (`POLICY`), its position value (`_value`), the
resampling of what it cannot see (`_resample`), the plan search (`_search_plan`) and the game loop that
lets search seats decide (`_play_search`). It does not own the rules (`riskstats.game.rules.engine`), the bots
the plans are made of (`riskstats.game.bots`) or the plain loop (`riskstats.game.loop._play`).

**Turn-level plan search** (determinised Monte Carlo over macro-actions). At its first decision of each
of its turns, the search seat compares ``plans`` candidate plans (the first entries of `PLANS`: a
built-in heuristic with a parameter vector each). For each plan it plays ``rollouts`` rollouts: the
position is copied, what the seat cannot see is resampled (`_resample`), the rest of the turn is played
with the plan as the seat's policy, then every seat (itself included) plays `POLICY` for ``horizon``
more rounds (``horizon`` x players turns); the end position is scored for the seat by `_value` (1 or 0
if the game ended, else its share of a strength measure), or with ``value=model`` by the fitted model's
P(win) (`riskstats.game.value._model_value`; ``value=strong``: the model refitted with search self-play
added; ``value=boosted``: boosted trees, `riskstats.game.value.MODELS`). Every plan meets the same rollout seeds
(common random numbers: the comparison is paired). The seat then plays the whole turn with the best
plan: which continent to go for, how far to attack, whether to trade (each plan's own rule), where to
place and fortify are all the chosen plan's, so the search decides the turn's course and delegates the
single moves. Setup (claims, placements, capital picks) is played by `POLICY`, and defence rolls the
most dice, as every built-in bot does.

**Plans of the hunter** (``base=hunter``, issue 54). The search bot's plans may be the hunter's instead
(`HUNTER_PLANS`: its own choice, hunting, taking a named continent this turn, a card only, no attack), and the
hunter then plays everything the plans do not: the seat's setup, its turns after the searched one in a rollout and,
with ``opponents=policy``, every other seat (`BASES`). The look-ahead is the same: the same rollouts, common random
numbers, leaf values and redrawing of what the seat cannot see.

**What the bot cannot see stays unseen.** Rollouts never read the draw pile's order, other seats'
cards, other seats' missions or the game's random stream: each rollout pools the unseen cards (the draw
pile and the other hands) in card order, shuffles them with its own seed and deals the other hands'
(public) counts back, the rest forming the draw pile; other seats' missions are redealt from the mission
cards it has not seen (its own excluded); the dice come from the rollout's seed. (It does not track
which traded cards went back into a reshuffled pile, so it knows a little less than a card-counting
player could; it never knows more.) Capital picks are
revealed before the first turn, so nothing about them is hidden when the bot searches. Rollout seeds are
a hash of the position as the seat sees it (`_visible_seed`), never of the game's random stream, which
the search never advances: a game with a search seat is a pure function of its seed, and the bot's
choices depend only on what it may see.

**No recursion.** `riskstats.game.loop._play` plays the search seat's turn with its chosen plan's id;
`_play_search` stops that loop at the start of every turn and runs the search for a search seat, which
itself calls `_play` in a working state. The search id never reaches `riskstats.game.bots.dispatch._bot_move`.
Games without a search seat never come here (`riskstats.game.play.Game` and
`riskstats.runs.selfplay` call `_play` for them, as before).

**The value bot** is this search with ``horizon=0`` by default (each plan plays the rest of the turn and no more),
the fitted model as the leaf value, and a small budget (``rollouts`` x ``plans`` turn rollouts a turn):
the model stands in for the long rollouts. Its ``order`` lists the plans it compares (digits of `PLAN_LIST`,
which adds `EXTRA_PLANS` to `PLANS`; the search bot takes an ``order`` too), and ``closer`` adds the
aggressive plan on the turns where the model gives it at least that P(win) (read on a redrawn copy, so
hidden information stays hidden). A plan that would play the turn exactly as an earlier one (going first
for a continent the seat already holds) is not played again but takes that plan's score (`_same_play`):
the same choice at less cost.
Its ``trade_at`` (0 by default: each plan keeps its own card timing) imposes one timing on
every plan, in the rollouts and in play (`_plan_params`); so do its placement parameters ``fortify``,
``reinforce`` and ``claim`` (`riskstats.game.bots.catalog.STYLE`; 0, the default, is what every plan does
anyway), on its plans and on its setup (`_plan_bot`). Its ``first`` forces `FORCED_PLAN` (no search) until
it first holds that continent, and with ``draft`` its setup goes for that continent too (`_treatment`). The
search and value bots read these the same way (issue 29: a treatment is one definition in every population).

**Opponent modelling** (``opponents``, issue #30). By default (``policy``) a rollout plays every other seat
as `POLICY`. With ``opponents=actual`` it plays each other seat as the bot it is in the line-up, with its
parameters (`_opponent`): the line-up is public in our setting, as it is at a table where everyone knows
who sits where; a seat that looks ahead itself (search, value) cannot search inside a rollout (no recursion)
and plays `POLICY`. ``opponents=proxy`` plays such a seat as the plan it chose at its last turn (read from
``memory``; before its first turn, its setup policy): this reads a choice the seat made but never announced,
which its last turn's play displays only in part, so it is an assumption of what a watching player could
infer, and the docs say so. Only the line-up and the plans are read: the other seats' cards and missions
in a rollout are still the redrawn ones, so a mission bot plays for a redrawn mission. Callers that do not
know the line-up (`riskstats.game.play.Game.bot_move` outside `Game.play`) give id -1: `POLICY`.

**Memory.** A seat's chosen plan is kept in ``memory[seat] = (turn, plan)``, an array passed beside the
state (`Game` keeps one per game; self-play one per game played); a plan is valid only during the turn
it was chosen in, so memory from an earlier turn means: search again.

Design choices, written down: plans are whole-turn policies rather than single moves because a
rollout per candidate attack would cost more than the budget allows (1 to 2 ms a turn for a
two-player game in 50 ms), and the heuristics already order attacks well; what they lack is the
choice of goal and of how much to risk, which the plans cover. The default leaf value is still the
documented formula (``value=formula``); the fitted model (``value=model``) is validated in
docs/position_value.md.
"""
from __future__ import annotations

import numpy as np

from riskstats._numba import jit
from riskstats.game.bots.catalog import (
    CATALOG,
    N_PARAMS,
    OPPONENTS,
    SEARCH_BASE,
    SEARCH_BASES,
    SEARCH_DRAFT,
    SEARCH_FIRST,
    SEARCH_HORIZON,
    SEARCH_ID,
    SEARCH_OPPONENTS,
    SEARCH_ORDER,
    SEARCH_PLANS,
    SEARCH_ROLLOUTS,
    SEARCH_STYLE,
    SEARCH_TRADE_AT,
    SEARCH_VALUE,
    STYLE,
    VALUE_DRAFT,
    VALUE_FIRST,
    VALUE_HORIZON,
    VALUE_ID,
    VALUE_OPPONENTS,
    VALUE_PLANS,
    VALUE_ROLLOUTS,
    VALUE_STYLE,
    VALUE_TRADE_AT,
    Lineup,
    bot_info,
    slot,
)
from riskstats.game.bots.common import _forced_first
from riskstats.game.bots.dispatch import _bot_move
from riskstats.game.bots.roster import FULL  # the plans may play any heuristic bot
from riskstats.game.loop import NO_HORIZON, _play
from riskstats.game.rules.objectives import _give_mission, _in_mission_deck, _lose_target
from riskstats.game.rules.options import (
    OBJ_MISSION,
    R_OBJECTIVE,
    R_PLAYERS,
)
from riskstats.game.rules.state import (
    ASIDE,
    CAPITAL,
    CLAIM,
    DECK,
    DEFEND,
    DISCARD,
    I_ATK_FROM,
    I_CONQUERED,
    I_DECK_N,
    I_OCC_FROM,
    I_PHASE,
    I_PLAYER,
    I_RESERVE,
    I_ROUND,
    I_SETS_TRADED,
    I_TRADED_TURN,
    I_TURN,
    I_WINNER,
    M_CARD,
    M_KIND,
    M_TARGET,
    MK_DESTROY,
    OVER,
    SETUP_PLACE,
    _copy_state,
    _new_state,
    _turn_seat,
)
from riskstats.game.rules.stream import _seed, _shuffle
from riskstats.game.value import _model_value

LOOKAHEAD_IDS = (SEARCH_ID, VALUE_ID)
"""The ids of the bots that decide outside the plain loop (`_play_search`) and are never handed to
`riskstats.game.bots.dispatch._bot_move`: the search bot, and the value bot (the plan search over the rest of
the turn only, scored by the fitted model, `riskstats.game.value`)."""
LEAVES = next(p.choices for p in CATALOG["search"].params if p.name == "value")
"""The search's leaf values (its ``value`` parameter, as the catalogue names them): the strength formula
(`_value`) or a fitted model, leaf - 1 being its index in `riskstats.game.value.MODELS` (``model``, ``strong``,
``boosted``)."""
LEAF_FORMULA, LEAF_MODEL, LEAF_STRONG, LEAF_BOOSTED = range(len(LEAVES))
OPP_POLICY, OPP_ACTUAL, OPP_PROXY = range(len(OPPONENTS))
"""How the rollouts play the other seats (a look-ahead bot's ``opponents``,
`riskstats.game.bots.catalog.OPPONENTS`): all as `POLICY`; each as its bot in the line-up (a look-ahead seat
as `POLICY`); or as actual with a look-ahead seat playing the plan it chose at its last turn (`_opponent`)."""

POLICY = "continent-tuned"
"""The fast default policy of the rollouts (every seat, every turn after the searched one) and of the
search seat's setup."""

PLANS = (
    "continent-tuned",
    "continent-tuned:first=5:again=1",
    "continent-tuned:first=1:again=1",
    "aggressive",
    "defensive",
    "continent-tuned:first=3:again=1",
    "continent-tuned:first=0:again=1",
    "continent-tuned:first=2:again=1",
)
"""The candidate plans, in order: ``plans=K`` compares the first K. On the Classic board ``first=5`` is
Australia, 1 South America, 3 Africa, 0 North America, 2 Europe (`continent`'s ``first`` with ``again=1``:
a target it goes for whenever it does not hold it, with no memory from earlier turns); a board without
that continent plays such a plan as plain continent-tuned."""
_VALUE_ORDER, _VALUE_CLOSER, _VALUE_MODEL = (slot("value", name) for name in ("order", "closer", "model"))

VALUE_INCOME = 2.0
"""Weight of a player's income (max(3, territories // 3) plus continent bonuses) in its strength, in armies."""
VALUE_CARD = 1.0
"""Weight of each card in hand, in armies."""
VALUE_POWER = 2.0
"""A player's value is strength ** VALUE_POWER over the sum of every player's (a share sharpened toward
the strongest: two players at 60:40 strength score 0.69:0.31)."""

EXTRA_PLANS = ("continent-tuned:threshold=0.35",)
"""Candidate plans after `PLANS`, reachable only through a plan order (the value bot's ``order``): plan 9 is
continent-tuned attacking into its target only at P(conquer) >= 0.35 (tuned: 0.13)."""
HUNTER_PLANS = (
    "hunter",
    "hunter:kill=0.05:kill_plain=0.1",
    "hunter:first=5:again=1",
    "hunter:first=1:again=1",
    "hunter:threshold=1:break_threshold=1:expand=1:kill=1:kill_plain=1",
    "hunter:first=3:again=1",
    "hunter:first=0:again=1",
    "hunter:first=2:again=1",
    "hunter:threshold=1:break_threshold=1:card_threshold=1:expand=1:kill=1:kill_plain=1",
)
"""The search bot's candidate plans with ``base=hunter`` (issue 54), in order (``plans=K`` compares the first K, an
``order``'s digits number them from 1): the hunter's own choice; hunting (it prices and plays a kill from P(kill this
turn) 0.05, 0.1 of a seat without cards, where it waits for 0.2 and 0.4); taking a continent this turn (``first``
with ``again``: on the Classic board 5 Australia, 1 South America, 3 Africa, 0 North America, 2 Europe; a continent
it holds plays as its own choice would, but for that plan's name); attacking for a card only (no continent, break,
kill or cheap conquest passes its threshold of 1); and no attack at all."""
PLAN_LIST = PLANS + EXTRA_PLANS + HUNTER_PLANS
"""Every candidate plan, numbered from 1 in a plan order (the value bot's ``order``, one digit a plan:
``value:order=1452`` compares continent-tuned, aggressive, defensive and going for Australia); with ``base=hunter``
a search bot's plans are `HUNTER_PLANS` (from `HUNTER_FROM` on) and its order numbers those."""
HUNTER_FROM = len(PLANS) + len(EXTRA_PLANS)
"""Where `HUNTER_PLANS` start in `PLAN_LIST`."""
BASES = SEARCH_BASES
"""What a look-ahead seat's plans are made of (the search bot's ``base``): by base, the policy that plays its
setup, its turns after the searched one in a rollout, and (``opponents=policy``) every other seat in its rollouts."""
BASE_CONTINENT, BASE_HUNTER = range(len(BASES))
FORCED_PLAN = len(PLAN_LIST)
"""The plan of a look-ahead seat with ``first=k`` until it first holds continent k: `POLICY` going for k
(continent's ``first=k``, which remembers when k was first held; `riskstats.game.bots.common._forced_first`)."""
MAX_PLANS = 8
"""The most plans one search compares (the registry's ``plans`` range)."""

_SALT = 0x5EA2C4
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)

def _slot_of(spec: str, name: str) -> int:
    """Where the bot of ``spec`` holds its parameter ``name`` (-1: it has none)."""
    names = [p.name for p in bot_info(spec.split(":")[0]).params]
    return names.index(name) if name in names else -1


_PLAN_IDS, _PLAN_PARAMS = Lineup.of(PLAN_LIST).arrays(len(PLAN_LIST))
_AGGRESSIVE = PLAN_LIST.index("aggressive")
"""The aggressive plan's index in `PLAN_LIST` (the value bot's ``closer``)."""
_PLAN_TRADE, _PLAN_FIRST = (np.array([_slot_of(spec, name) for spec in PLAN_LIST], np.int64)
                            for name in ("trade_at", "first"))
"""Where each plan's parameter vector holds its ``trade_at`` (the look-ahead bot's ``trade_at`` overrides it) and
its ``first`` (-1: it has none)."""
_PLAN_STYLE = np.array([[_slot_of(spec, name) for name in STYLE] for spec in PLAN_LIST], np.int64)
"""Where each plan's parameter vector holds ``fortify``, ``reinforce`` and ``claim`` (the look-ahead bot's override
them)."""
_BASE_IDS, _BASE_PARAMS = Lineup.of(BASES).arrays(len(BASES))
"""Each base policy's bot id and parameter vector (`BASES`)."""
_BASE_TRADE, _BASE_FIRST, _BASE_DRAFT = (np.array([_slot_of(b, name) for b in BASES], np.int64)
                                         for name in ("trade_at", "first", "draft"))
"""Where each base policy's vector holds ``trade_at``, ``first`` and ``draft`` (-1: it has none)."""
_BASE_STYLE = np.array([[_slot_of(b, name) for name in STYLE] for b in BASES], np.int64)
"""Where each base policy's vector holds ``fortify``, ``reinforce`` and ``claim``."""


@jit
def _mix(h, x):  # pragma: no cover - compiled
    """Hash the integer x (>= -16) into h (splitmix64's finaliser)."""
    z = h + np.uint64(x + 16) * _GOLDEN + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@jit
def _visible_seed(st, p):  # pragma: no cover - compiled
    """A hash of the position as seat p sees it: the board, the turn's scalars, p's own cards and mission,
    the cards traded or set aside, and how many cards each seat holds; never the draw pile's order, other
    seats' cards or missions, or the random stream."""
    info = st.info
    h = _mix(np.uint64(_SALT), p)
    for i in (I_TURN, I_PHASE, I_RESERVE, I_SETS_TRADED, I_TRADED_TURN, I_CONQUERED, I_DECK_N, I_OCC_FROM,
              I_ATK_FROM):
        h = _mix(h, info[i])
    for t in range(st.owner.shape[0]):
        h = _mix(h, st.owner[t])
        h = _mix(h, st.armies[t])
    S = st.alive.shape[0]
    held = np.zeros(S, np.int64)
    for c in range(st.card_owner.shape[0]):
        q = st.card_owner[c]
        h = _mix(h, q if q == p or q == DISCARD or q == ASIDE else DECK)
        if q >= 0:
            held[q] += 1
    for s in range(S):
        h = _mix(h, held[s])
        h = _mix(h, st.capital[s])
    return _mix(h, st.mission[p, M_CARD])


@jit
def _deal_mission(st, B, R, q, m):  # pragma: no cover - compiled
    """Give seat q mission card m, as the engine deals it (a seat's own colour: the fallback), and as it
    stands after its target went out to another player (R's target-lost rule)."""
    _give_mission(st, B, q, m)
    if st.mission[q, M_KIND] == MK_DESTROY and st.alive[st.mission[q, M_TARGET]] == 0:
        _lose_target(st, R, q)


@jit
def _resample(st, B, R, p, seed):  # pragma: no cover - compiled
    """Redraw, in the working state ``st``, what seat p cannot see, from ``seed`` alone: a fresh random
    stream; the unseen cards (draw pile and other hands, in card order) shuffled and dealt back in the
    public counts (other hands by seat, the rest the draw pile); other seats' missions redealt from the
    cards p has not seen."""
    _seed(st.rng, seed)
    C = st.card_owner.shape[0]
    S = st.alive.shape[0]
    pool = np.empty(C, np.int64)
    held = np.zeros(S, np.int64)
    n = 0
    for c in range(C):
        q = st.card_owner[c]
        if q == DECK or (q >= 0 and q != p):
            pool[n] = c
            n += 1
            if q >= 0:
                held[q] += 1
    _shuffle(st.rng, pool, n)
    i = 0
    for q in range(S):
        for _ in range(held[q]):
            st.card_owner[pool[i]] = q
            i += 1
    for j in range(n - i):
        st.card_owner[pool[i + j]] = DECK
        st.deck[j] = pool[i + j]
    if R[R_OBJECTIVE] == OBJ_MISSION:
        P = R[R_PLAYERS]
        M = B.missions.shape[0]
        cards = np.empty(M, np.int64)
        k = 0
        for m in range(M):
            if _in_mission_deck(B, R, m) and m != st.mission[p, M_CARD]:
                cards[k] = m
                k += 1
        _shuffle(st.rng, cards, k)
        k = 0
        for q in range(P):
            if q != p:
                _deal_mission(st, B, R, q, cards[k])
                k += 1


@jit
def _value(st, B, R, p):  # pragma: no cover - compiled
    """Seat p's value of a position: 1 if p won, 0 if another seat won; else p's share of strength **
    `VALUE_POWER` among the players in play, strength = armies + `VALUE_INCOME` x income + `VALUE_CARD` x
    cards (a turn-capped game is scored like an unfinished one)."""
    info = st.info
    if info[I_PHASE] == OVER and info[I_WINNER] >= 0:
        return 1.0 if info[I_WINNER] == p else 0.0
    S = st.alive.shape[0]
    K = B.continent_bonus.shape[0]
    strength = np.zeros(S)
    holder = np.full(K, -2, np.int64)
    for t in range(st.owner.shape[0]):
        q = st.owner[t]
        strength[q] += st.armies[t]
        k = B.continent_of[t]
        if holder[k] == -2:
            holder[k] = q
        elif holder[k] != q:
            holder[k] = -1
    for k in range(K):
        if holder[k] >= 0:
            strength[holder[k]] += VALUE_INCOME * B.continent_bonus[k]
    for c in range(st.card_owner.shape[0]):
        if st.card_owner[c] >= 0:
            strength[st.card_owner[c]] += VALUE_CARD
    total = 0.0
    mine = 0.0
    for s in range(R[R_PLAYERS]):
        if st.alive[s] == 0:
            continue
        x = (strength[s] + VALUE_INCOME * max(3, st.n_terr[s] // 3)) ** VALUE_POWER
        total += x
        if s == p:
            mine = x
    return mine / total if total > 0 else 0.0


@jit
def _effective_first(st, B, p, k):  # pragma: no cover - compiled
    """The continent plan k goes for first during p's turn: its ``first``, or -1 (none) if it has none, the
    board lacks that continent, or p holds it already (p loses no territory during its own turn, so a
    continent it holds now it holds until the turn ends and the plan plays as its bot's own choice)."""
    if _PLAN_FIRST[k] < 0:
        return -1
    first = int(_PLAN_PARAMS[k, _PLAN_FIRST[k]])
    if first < 0 or first >= B.continent_size.shape[0]:
        return -1
    for t in range(st.owner.shape[0]):
        if B.continent_of[t] == first and st.owner[t] != p:
            return first
    return -1


@jit
def _same_play(st, B, p, a, b):  # pragma: no cover - compiled
    """Whether plans a and b play p's turn from here move for move alike: the same bot and parameters, but
    for a ``first`` that neither plays (`_effective_first`). Such plans meet the same rollout seeds, so
    they reach the same positions and the same scores: one of them need not be played."""
    if _PLAN_IDS[a] != _PLAN_IDS[b]:
        return False
    for i in range(_PLAN_PARAMS.shape[1]):
        if i == _PLAN_FIRST[a]:
            continue
        if _PLAN_PARAMS[a, i] != _PLAN_PARAMS[b, i]:
            return False
    return _effective_first(st, B, p, a) == _effective_first(st, B, p, b)


@jit
def _plan_order(order, plans, out, base):  # pragma: no cover - compiled
    """Write the plan indices (into `PLAN_LIST`) a search compares into out and return how many: the first
    ``plans`` of `PLANS` (with ``base`` `BASE_HUNTER`, of `HUNTER_PLANS`) if ``order`` is 0, else the first
    ``plans`` digits of ``order`` (each a plan's 1-based number in `PLAN_LIST`, or in `HUNTER_PLANS`, most
    significant first)."""
    offset = HUNTER_FROM if base == BASE_HUNTER else 0
    if order <= 0:
        for k in range(plans):
            out[k] = offset + k
        return plans
    digits = np.empty(20, np.int64)
    n = 0
    while order > 0:
        digits[n] = order % 10 - 1
        order //= 10
        n += 1
    m = min(plans, n)
    for k in range(m):
        out[k] = offset + digits[n - 1 - k]
    return m


@jit
def _search_plan(st, B, R, CUT, V, p, rollouts, horizon, plans, work, scores, leaf, order, closer,
                 trade_at, style, opponents, bots, params, memory, base):  # pragma: no cover
    """The plan (an index into `PLAN_LIST`) with the best mean leaf value for seat p, whose turn it is, over
    ``rollouts`` rollouts each (the same seeds for every plan); ties go to the earlier plan. The plans
    compared are the first ``plans`` of `PLANS`, or of the plan order ``order`` (`_plan_order`).
    ``work`` is a working state (same board and seats); scores[k] gets the k-th plan compared's summed value.
    ``leaf``: `LEAF_FORMULA` (`_value`), `LEAF_MODEL`, `LEAF_STRONG` or `LEAF_BOOSTED` (`_model_value`
    of model leaf - 1; the closer's P(win) reads that model too, the committed default for a formula leaf).
    A plan that plays as an earlier one this turn (`_same_play`) is not played again: it gets that plan's
    score, which it would reach move for move, so the choice is the same as playing it out.
    ``closer`` > 0: the aggressive plan is compared too (last, if the plans lack it) when the model gives p
    at least this P(win) now, read from a position with what p cannot see redrawn (`_resample`).
    ``trade_at``, ``style``: the plans' card timing and placement parameters (`_plan_params`; 0 keeps each
    plan's own). ``opponents``: how the other seats play in the rollouts (`_opponent`, from the line-up ``bots``
    / ``params`` and the plan ``memory``).

    Parameters
    ----------
    st : State
        The position (not changed); seat ``p``'s turn is under way.
    B, R, CUT, V : the context's board arrays, rule vector, one-roll table and P(conquer) table.
    p : int
        The searching seat.
    rollouts, horizon : int
        Rollouts per plan, and the turns each plays on before its leaf is valued (`riskstats.game.loop._play`).
    plans : int
        How many plans are compared (at most `MAX_PLANS`).
    work : State
        A working state of the same board and seats, overwritten by every rollout.
    scores : float64[len(PLAN_LIST)]
        Written: scores[k], the summed leaf value of the k-th plan compared (nan for one not compared).
    leaf : int
        The leaf value: `LEAF_FORMULA`, `LEAF_MODEL`, `LEAF_STRONG` or `LEAF_BOOSTED`.
    order : int
        The plan order (`_plan_order`).
    closer : float
        P(win) from which the aggressive plan is compared too (0: never).
    trade_at : float
        The plans' card timing (0: each plan's own).
    style : tuple of 3 floats
        The plans' placement parameters, `riskstats.game.bots.catalog.STYLE` (fortify, reinforce, claim; 0: each
        plan's own).
    opponents : int
        How the other seats play: `OPP_POLICY`, `OPP_ACTUAL` or `OPP_PROXY`.
    bots : int64[S]
        The line-up's bot ids by seat (-1: unknown), as `riskstats.game.bots.catalog.Lineup.arrays` writes them.
    params : float64[S, N_PARAMS]
        The line-up's parameter vectors by seat.
    memory : int64[S, 2]
        Each look-ahead seat's last (turn, plan), read and written.
    base : int
        What the plans are made of (`BASES`): `BASE_CONTINENT` or `BASE_HUNTER`, whose policy plays the seat's
        turns after the searched one and, with ``opponents`` policy, the other seats.
    """
    S = st.alive.shape[0]
    ids = np.empty(S, np.int64)
    prm = np.empty((S, N_PARAMS))
    model_ids = np.empty(S, np.int64)
    model_prm = np.empty((S, N_PARAMS))
    for s in range(S):
        model_ids[s] = _opponent(s, opponents, bots, params, memory, model_prm[s], base)
    cand = np.empty(_PLAN_IDS.shape[0], np.int64)
    n = _plan_order(order, plans, cand, base)
    visible = _visible_seed(st, p)
    if closer > 0:
        missing = True
        for k in range(n):
            if cand[k] == _AGGRESSIVE:
                missing = False
        if missing:
            _copy_state(st, work)
            _resample(work, B, R, p, _mix(visible, -1))
            if _model_value(work, B, R, p, max(leaf - 1, 0)) >= closer:
                cand[n] = _AGGRESSIVE
                n += 1
    twin = np.empty(n, np.int64)
    for k in range(n):
        twin[k] = k
        for j in range(k):
            if twin[j] == j and _same_play(st, B, p, cand[j], cand[k]):
                twin[k] = j
                break
    turn = st.info[I_TURN]
    last = turn + horizon * R[R_PLAYERS]
    for k in range(n):
        scores[k] = 0.0
    for r in range(rollouts):
        seed = _mix(visible, r)
        for k in range(n):
            if twin[k] != k:
                continue
            _copy_state(st, work)
            _resample(work, B, R, p, seed)
            for s in range(S):
                ids[s] = model_ids[s]
                prm[s] = model_prm[s]
            ids[p] = _PLAN_IDS[cand[k]]
            _plan_params(cand[k], trade_at, style, prm[p])
            _play(work, B, R, CUT, V, ids, prm, False, turn, NO_HORIZON, *FULL)
            if work.info[I_PHASE] != OVER and horizon > 0:
                ids[p] = _BASE_IDS[base]
                prm[p] = _BASE_PARAMS[base]
                _play(work, B, R, CUT, V, ids, prm, False, last, NO_HORIZON, *FULL)
            scores[k] += _value(work, B, R, p) if leaf == LEAF_FORMULA else _model_value(work, B, R, p, leaf - 1)
    for k in range(n):
        scores[k] = scores[twin[k]]
    best = 0
    for k in range(1, n):
        if scores[k] > scores[best]:
            best = k
    return cand[best]


@jit
def _opponent(s, opponents, bots, params, memory, out, base):  # pragma: no cover - compiled
    """The bot id seat s plays in a rollout of another seat's search (``opponents``: `OPP_POLICY`, `OPP_ACTUAL`,
    `OPP_PROXY`), its parameters written into ``out``: the searching seat's ``base`` policy (`BASES`: `POLICY` or
    the hunter) for policy, for a seat the line-up ``bots`` lacks
    (id < 0 or past its end: unknown) and, but for proxy, for a look-ahead seat; else a plain bot as itself, and
    with proxy a look-ahead seat as the plan it chose at its last turn (``memory[s, 1]``; none yet: its setup
    policy), with its card timing and placement overrides (`_plan_bot`). Only the line-up and plans are read:
    the seat's cards and mission stay the rollout's redrawn ones."""
    if opponents == OPP_POLICY or s >= bots.shape[0] or bots[s] < 0:
        out[:] = _BASE_PARAMS[base]
        return _BASE_IDS[base]
    bot = bots[s]
    if bot not in LOOKAHEAD_IDS:
        out[:] = params[s]
        return bot
    if opponents == OPP_PROXY:
        return _plan_bot(memory[s, 1] if memory[s, 0] >= 0 else -1, bot, params[s], out)
    out[:] = _BASE_PARAMS[base]
    return _BASE_IDS[base]


@jit
def _budget(bot, params):  # pragma: no cover - compiled
    """(rollouts, horizon, plans, leaf, order, closer) of a look-ahead seat: the search bot's five parameters
    (closer 0), or the value bot's (rollouts, plans, order, closer) with no rounds after the turn and the
    fitted model's leaf values."""
    if bot == VALUE_ID:
        return (int(params[VALUE_ROLLOUTS]), int(params[VALUE_HORIZON]), min(int(params[VALUE_PLANS]), MAX_PLANS),
                LEAF_MODEL + int(params[_VALUE_MODEL]), int(params[_VALUE_ORDER]), params[_VALUE_CLOSER])
    return (int(params[SEARCH_ROLLOUTS]), int(params[SEARCH_HORIZON]), min(int(params[SEARCH_PLANS]), MAX_PLANS),
            int(params[SEARCH_VALUE]), int(params[SEARCH_ORDER]), 0.0)


@jit
def _base(bot, params):  # pragma: no cover - compiled
    """What a look-ahead seat's plans are made of (`BASES`): the search bot's ``base``; the value bot's
    continent-tuned."""
    if bot == VALUE_ID:
        return BASE_CONTINENT
    return int(params[SEARCH_BASE])


@jit
def _opponents(bot, params):  # pragma: no cover - compiled
    """How a look-ahead seat's rollouts play the other seats: its ``opponents`` (`OPP_POLICY`, ...)."""
    if bot == VALUE_ID:
        return int(params[VALUE_OPPONENTS])
    return int(params[SEARCH_OPPONENTS])


@jit
def _trade_override(bot, params):  # pragma: no cover - compiled
    """The card timing a look-ahead seat (search or value) imposes on its plans: its ``trade_at`` (0: none)."""
    return params[VALUE_TRADE_AT] if bot == VALUE_ID else params[SEARCH_TRADE_AT]


@jit
def _style_override(bot, params):  # pragma: no cover - compiled
    """The placement parameters (fortify, reinforce, claim) a look-ahead seat imposes on its plans and its
    setup (0: none)."""
    at = VALUE_STYLE if bot == VALUE_ID else SEARCH_STYLE
    return params[at], params[at + 1], params[at + 2]


@jit
def _treatment(bot, params):  # pragma: no cover - compiled
    """A look-ahead seat's forced first target (``first``; -1: none) and whether its setup drafts toward it
    (``draft``)."""
    if bot == VALUE_ID:
        return params[VALUE_FIRST], params[VALUE_DRAFT]
    return params[SEARCH_FIRST], params[SEARCH_DRAFT]


@jit
def _set_style(style, at, out):  # pragma: no cover - compiled
    """Write each of ``style``'s placement parameters that is > 0 into ``out`` at its place ``at[j]``."""
    for j in range(at.shape[0]):
        if style[j] > 0:
            out[at[j]] = style[j]


@jit
def _plan_params(k, trade_at, style, out):  # pragma: no cover - compiled
    """Write plan k's parameter vector into ``out``, its ``trade_at`` replaced by ``trade_at`` if that is > 0,
    and its placement parameters by those of ``style`` that are > 0 (`_style_override`)."""
    out[:] = _PLAN_PARAMS[k]
    if trade_at > 0:
        out[_PLAN_TRADE[k]] = trade_at
    _set_style(style, _PLAN_STYLE[k], out)


@jit
def _plan(st, B, R, CUT, V, p, bots, params, memory, work, scores):  # pragma: no cover - compiled
    """The plan look-ahead seat p (bot id ``bots[p]`` with parameters ``params[p]``; ``bots`` / ``params``: the
    line-up, id -1 for a seat it does not know) plays now: -1 (`POLICY`) in
    setup, else this turn's plan from ``memory``, searched for first if memory holds an earlier turn's
    (`FORCED_PLAN`, no search, for a seat whose ``first`` continent is still forced on it).

    Parameters
    ----------
    st : State
        The game (read; the seat's view of it).
    B, R, CUT, V
        The context (`riskstats.game.rules.context.compile_context`): the board arrays (`BoardArrays`), the rule
        vector (int64[R_SIZE]), the one-roll table and the P(conquer) table.
    p : int
        The look-ahead seat.
    bots : int64[seats]
        The line-up's bot ids as this seat knows them (-1: unknown).
    params : float64[seats, N_PARAMS]
        Their parameter vectors.
    memory : int64[seats, 2]
        Each seat's (turn, plan) of its last search (-1: none); updated for p.
    work : State
        A working state for the rollouts (`_search_plan`).
    scores : float64[len(PLAN_LIST)]
        Scratch for the plans' scores.
    """
    bot = bots[p]
    lineup = params
    params = lineup[p]
    phase = st.info[I_PHASE]
    if phase == CLAIM or phase == SETUP_PLACE or phase == CAPITAL or phase == OVER:
        return -1
    turn = st.info[I_TURN]
    if memory[p, 0] != turn:
        if _forced_first(st, B, p, _treatment(bot, params)[0]) >= 0:
            memory[p, 1] = FORCED_PLAN
        else:
            rollouts, horizon, plans, leaf, order, closer = _budget(bot, params)
            memory[p, 1] = _search_plan(st, B, R, CUT, V, p, rollouts, horizon, plans, work, scores, leaf, order,
                                        closer, _trade_override(bot, params), _style_override(bot, params),
                                        _opponents(bot, params), bots, lineup, memory, _base(bot, params))
        memory[p, 0] = turn
    return memory[p, 1]


@jit
def _plan_bot(k, bot, params, out):  # pragma: no cover - compiled
    """The bot id of plan k for look-ahead seat ``bot`` with ``params`` (-1: `POLICY`; `FORCED_PLAN`: POLICY
    going for the seat's ``first``), its parameters written into ``out``; a plan's ``trade_at`` replaced by the
    seat's if that is > 0, and its placement parameters by the seat's that are > 0 (`_plan_params`; `POLICY`
    in setup takes the placement parameters too, not ``trade_at``, as before, and with ``draft`` goes for
    ``first``)."""
    trade_at = _trade_override(bot, params)
    style = _style_override(bot, params)
    first, draft = _treatment(bot, params)
    base = _base(bot, params)
    if k < 0:
        out[:] = _BASE_PARAMS[base]
        _set_style(style, _BASE_STYLE[base], out)
        if draft > 0:
            out[_BASE_FIRST[base]] = first
            if _BASE_DRAFT[base] >= 0:  # the hunter drafts only when told (the continent bot always does)
                out[_BASE_DRAFT[base]] = 1.0
        return _BASE_IDS[base]
    if k == FORCED_PLAN:
        out[:] = _BASE_PARAMS[base]
        out[_BASE_FIRST[base]] = first
        if trade_at > 0:
            out[_BASE_TRADE[base]] = trade_at
        _set_style(style, _BASE_STYLE[base], out)
        return _BASE_IDS[base]
    _plan_params(k, trade_at, style, out)
    return _PLAN_IDS[k]


@jit
def _play_search(st, B, R, CUT, V, bots, params, check, last_turn, last_round, memory):  # pragma: no cover
    """`riskstats.game.loop._play` for a line-up with search seats (bots[s] == `SEARCH_ID`, params[s] its
    rollouts, horizon and plans): the same result codes and horizons. At every turn's start the seat whose
    turn it is searches if it is a search seat (`_plan`), then the plain loop plays that turn with the
    chosen plan in its place (`POLICY` for search seats not on turn, and in setup). ``memory[seat] =
    (turn, plan)`` (int64, one row per seat; -1 when new) carries a turn's plan over calls.

    Parameters
    ----------
    st : State
        The game, played on in place.
    B, R, CUT, V
        The context (`riskstats.game.rules.context.compile_context`): the board arrays (`BoardArrays`), the rule
        vector (int64[R_SIZE]), the one-roll table and the P(conquer) table.
    bots : int64[seats]
        Each seat's bot id.
    params : float64[seats, N_PARAMS]
        Each seat's parameter vector.
    check : bool
        Check every move with the rules' `_check` before it is played.
    last_turn, last_round : int
        The horizon (`NO_HORIZON`: none).
    memory : int64[seats, 2]
        Each seat's (turn, plan), as above.
    """
    T = st.owner.shape[0]
    S = st.alive.shape[0]
    work = _new_state(T, st.card_owner.shape[0], S, 0)
    scores = np.zeros(_PLAN_IDS.shape[0])
    eff_ids = bots.copy()
    eff_params = params.copy()
    info = st.info
    while info[I_PHASE] != OVER:
        if info[I_TURN] > last_turn or info[I_ROUND] > last_round:
            break
        p = _turn_seat(st)
        for s in range(bots.shape[0]):
            if bots[s] == SEARCH_ID or bots[s] == VALUE_ID:
                k = _plan(st, B, R, CUT, V, s, bots, params, memory, work, scores) if s == p else -1
                eff_ids[s] = _plan_bot(k, bots[s], params[s], eff_params[s])
        error = _play(st, B, R, CUT, V, eff_ids, eff_params, check, min(info[I_TURN], last_turn), last_round, *FULL)
        if error != 0:
            return error
    return 0


@jit
def _search_move(st, B, R, CUT, V, bot, params, memory, lineup, lineup_params):  # pragma: no cover - compiled
    """The move of the look-ahead seat to move (bot id ``bot``; `riskstats.game.play.Game.bot_move`): its
    defence, or the move of its plan for this turn (searched for first if ``memory`` holds none). ``lineup`` /
    ``lineup_params``: the other seats' bots as the game knows them (id -1: unknown).

    Parameters
    ----------
    st : State
        The game (read).
    B, R, CUT, V
        The context (`riskstats.game.rules.context.compile_context`): the board arrays (`BoardArrays`), the rule
        vector (int64[R_SIZE]), the one-roll table and the P(conquer) table.
    bot : int
        The seat's bot id (`SEARCH_ID` or `VALUE_ID`).
    params : float64[N_PARAMS]
        Its parameter vector.
    memory : int64[seats, 2]
        Each seat's (turn, plan) of its last search (-1: none); updated for the seat to move.
    lineup : int64[seats]
        The seats' bot ids as the game knows them (-1: unknown).
    lineup_params : float64[seats, N_PARAMS]
        Their parameter vectors.
    """
    p = st.info[I_PLAYER]
    k = -1
    if st.info[I_PHASE] != DEFEND:
        work = _new_state(st.owner.shape[0], st.card_owner.shape[0], st.alive.shape[0], 0)
        ids = lineup.copy()
        prm = lineup_params.copy()
        ids[p] = bot
        prm[p] = params
        k = _plan(st, B, R, CUT, V, p, ids, prm, memory, work, np.zeros(_PLAN_IDS.shape[0]))
    prm = np.empty(N_PARAMS)
    plan_bot = _plan_bot(k, bot, params, prm)
    return _bot_move(st, B, R, CUT, V, plan_bot, prm, True, True, True, True, True, True, True, True)


def search_plans(game, bot: str = "search", lineup=None):
    """What the search bot weighs now: each candidate plan's mean value over its rollouts, for the player
    whose turn it is, as `_search_plan` works it out when that player's turn begins.

    Parameters
    ----------
    game : riskstats.game.play.Game
        The position (not changed); a turn must be under way (not setup, not over).
    bot : str
        A search bot spec, e.g. ``"search:rollouts=64:horizon=2"`` or ``"search:value=model"``, or a value
        bot spec (``"value:rollouts=4"``).
    lineup : list of str, optional
        The bot spec of every seat (seated as `riskstats.game.bots.catalog.seat_entries` seats a line-up), which
        a bot with ``opponents=actual`` or ``proxy`` plays the other seats as; by default the game's own when it
        is being played by `riskstats.game.play.Game.play`, else unknown (every other seat as `POLICY`). A
        look-ahead seat's last plan is read from the game's plan memory.

    Returns
    -------
    pandas.DataFrame
        One row per plan compared: plan (its bot spec), value (mean over the rollouts, in [0, 1]),
        rollouts, chosen (the plan the bot plays: the best, ties to the earlier).

    >>> from riskstats.game.play import Game
    >>> game = Game(2, seed=4).play(["continent-tuned"], max_moves=300)
    >>> table = search_plans(game, "search:rollouts=4:plans=3")
    >>> list(table.columns), int(table["chosen"].sum())
    (['plan', 'value', 'rollouts', 'chosen'], 1)
    """
    import pandas as pd

    from riskstats.errors import RiskstatsError
    from riskstats.game.bots.catalog import parse_bot

    spec = parse_bot(bot)
    if spec.id not in LOOKAHEAD_IDS:
        raise RiskstatsError(f"search_plans needs a search bot spec (search or value), got {bot!r}")
    if not all(hasattr(game, a) for a in ("state", "board", "context")):
        raise RiskstatsError(f"search_plans needs a Game, got {type(game).__name__}")
    phase = int(game.state.info[I_PHASE])
    if phase in (CLAIM, SETUP_PLACE, CAPITAL, OVER):
        raise RiskstatsError("search_plans needs a turn under way (not setup, not a finished game)")
    vector = spec.vector()
    rollouts, horizon, plans, leaf, order, closer = _budget(spec.id, vector)
    st = game.state
    S = st.alive.shape[0]
    if lineup is None:
        ids, prm = game._lineup_arrays()
    else:
        ids, prm = Lineup.of(list(lineup)).arrays(game.players, rows=S)
    p = _turn_seat(st)
    ids[p], prm[p] = spec.id, vector
    work = _new_state(st.owner.shape[0], st.card_owner.shape[0], st.alive.shape[0], 0)
    scores = np.full(len(PLAN_LIST), np.nan)
    cand = np.empty(len(PLAN_LIST), np.int64)
    base = _base(spec.id, vector)
    n = _plan_order(order, plans, cand, base)
    best = _search_plan(st, *game.context, p, rollouts, horizon,
                        plans, work, scores, leaf, order, closer,
                        _trade_override(spec.id, vector), _style_override(spec.id, vector),
                        _opponents(spec.id, vector), ids, prm, game._search_memory(), base)
    if n < len(PLAN_LIST) and not np.isnan(scores[n]):  # the aggressive plan was added (closer)
        cand[n] = PLAN_LIST.index("aggressive")
        n += 1
    return pd.DataFrame({"plan": [PLAN_LIST[k] for k in cand[:n]], "value": scores[:n] / rollouts,
                         "rollouts": rollouts, "chosen": cand[:n] == best})
