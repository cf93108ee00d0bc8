"""`VectorEnv`: many games stepped in one compiled call, in the shape of Gymnasium's vector API.

This module owns `VectorEnv` and its kernels `_vec_reset` and `_vec_step` (and their macro twins
`_vec_reset_macro`, `_vec_step_macro`, compiled only when macro actions are used). The games are
`riskstats.game.rules.state.State` arrays stacked along a first axis of ``n_envs``; a step decodes each game's
action (`riskstats.env.actions._decode`), plays it with the engine's own `_apply` (the kernel the game loop
runs), and writes the next observation (`riskstats.env.observation._observe`, for the seat to move) and the
legal-action mask (`riskstats.env.actions._mask`) into preallocated arrays. No rule is written here. With
``actions="macro"`` a step plays a macro id (`riskstats.env.macro._macro_run`: its rolls are the engine's seeded
chance step) and masks with `riskstats.env.macro._macro_mask`; with ``defend="auto"`` the defence an attack
calls for is played in the same step (`riskstats.env.defence`); ``observation="log1p"`` gives the counts as
log1p.

A finished game resets itself in the same step (Gymnasium's "same-step" autoreset): that step's
``rewards``, ``terminations`` and ``truncations`` are the finished game's, the observation and mask already
the next game's. Game k of env i (k = 0 from `reset`) has the seed `game_seed` (run seed, i, k), so
``Game(players, rules, seed=env.game_seed(i, k))`` played with the same actions is the same game.

Shapes: ``obs`` (n_envs, obs_size) float32; ``rewards`` (n_envs, players) float32, each seat's reward (+1 to
the winner, -1 / (P - 1) to the others, 0 for all at the turn cap, as `riskstats.env.pettingzoo`);
``terminations`` and ``truncations`` (n_envs,) bool; ``info["action_mask"]`` (n_envs, n_actions) bool and
``info["seat"]`` (n_envs,) the seat to move, whose observation ``obs`` is. The arrays returned are the
env's own buffers, overwritten by the next step (copy what you keep, and write into none: the mask is
cleared block by block, only where the last step set it).

>>> env = VectorEnv(4, players=3, seed=7)
>>> obs, info = env.reset(seed=7)
>>> obs.shape, info["action_mask"].shape
((4, 331), (4, 5971))
>>> actions = info["action_mask"].argmax(axis=1)
>>> obs, rewards, terminations, truncations, info = env.step(actions)
>>> rewards.shape, bool(terminations.any())
((4, 3), False)
>>> macro = VectorEnv(4, players=4, seed=7, actions="macro", defend="auto", observation="log1p")
>>> obs, info = macro.reset()
>>> info["action_mask"].shape
(4, 629)
"""
from __future__ import annotations

import numpy as np

from riskstats._numba import borrow, inline_jit, jit
from riskstats.env.actions import _decode, _mask
from riskstats.env.macro import P_NONE, _macro_mask, _macro_run
from riskstats.env.observation import ObservationLayout, _log1p_counts, _observe
from riskstats.env.spaces import action_space
from riskstats.errors import RiskstatsError, check_int
from riskstats.game.rules.board import classic_board
from riskstats.game.rules.context import compile_context
from riskstats.game.rules.engine import _apply, _init
from riskstats.game.rules.legal import _defend_dice
from riskstats.game.rules.options import GameRules, variant_for
from riskstats.game.rules.state import DEFEND, DEFEND_MOVE, I_PHASE, I_PLAYER, I_WINNER, OVER, State, _new_state

_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xBF58476D1CE4E5B9)


@jit
def _game_seed(run_seed, env, episode):  # pragma: no cover - compiled
    """The seed of game ``episode`` of env ``env`` in a run seeded ``run_seed`` (all uint64)."""
    return np.uint64(run_seed) + _M1 * np.uint64(env + 1) + _M2 * np.uint64(episode)


@jit
def _env_state(S, i):  # pragma: no cover - compiled
    """Env i's State: views of row i of the stacked arrays."""
    return State(S.owner[i], S.armies[i], S.card_owner[i], S.deck[i], S.alive[i], S.n_terr[i], S.to_place[i],
                 S.info[i], S.rng[i], S.log[i], S.mission[i], S.capital[i], S.out[i], S.scratch[i])


@inline_jit
def _view(st, P, OO, seat, out, log1p):  # pragma: no cover - compiled
    """Write what ``seat`` observes of ``st`` into out (with log1p counts if ``log1p``)."""
    _observe(st, P, OO, seat, out)
    if log1p:
        _log1p_counts(OO, out)


@inline_jit
def _settle(st, B, R, P, run_seed, i, episode, rewards, terminations, truncations):  # pragma: no cover - compiled
    """Write env i's rewards and ends after its step; a finished game restarts at once (same-step autoreset).
    Whether it did.

    Parameters
    ----------
    st : State
        Env i's state (a view of the stacked states).
    B, R
        The context's board arrays and rule vector.
    P : int
        Players (the seats that get rewards).
    run_seed : uint64
        The run's seed; env i's game e is seeded `_game_seed(run_seed, i, e)`.
    i : int
        The env.
    episode : int64[N]
        Each env's game number, counted up when its game ends.
    rewards : float32[N, P]
        Written: +1 to the winner and -1/(P-1) to the others in an env whose game ended, else 0.
    terminations, truncations : bool[N]
        Written: the env's game was won, or ended without a winner.
    """
    rewards[i, :] = 0.0
    terminations[i] = False
    truncations[i] = False
    if st.info[I_PHASE] != OVER:
        return False
    w = st.info[I_WINNER]
    if w >= 0:
        rewards[i, :] = -1.0 / (P - 1)
        rewards[i, w] = 1.0
        terminations[i] = True
    else:
        truncations[i] = True
    episode[i] += 1
    _init(st, B, R, _game_seed(run_seed, i, episode[i]))
    return True


@jit
def _vec_reset(S, B, R, AO, OO, P, run_seed, episode, obs, mask, dirty, seats, log1p):  # pragma: no cover - compiled
    """Start every env's first game (game 0 of env i seeded `_game_seed(run_seed, i, 0)`) and write what the seat
    to move observes and may do.

    Parameters
    ----------
    S, B, R, AO, OO, P, run_seed, log1p
        As in `_vec_step`.
    episode : int64[N]
        Written: 0, each env's game number.
    obs : float32[N, obs_size]
        Written: what the seat to move observes.
    mask : bool[N, n]
        Written: the legal action ids.
    dirty : int64[N, 2]
        Written: each env's range of mask ids `_mask` wrote.
    seats : int64[N]
        Written: the seat to move in each env.
    """
    S, B, R, AO, OO, obs, mask, dirty = borrow((S, B, R, AO, OO, obs, mask, dirty))
    for i in range(S.owner.shape[0]):
        st = _env_state(S, i)
        episode[i] = 0
        _init(st, B, R, _game_seed(run_seed, i, 0))
        seats[i] = st.info[I_PLAYER]
        _view(st, P, OO, seats[i], obs[i], log1p)
        _mask(st, B, R, AO, mask[i], dirty[i])


@jit
def _first_illegal(actions, mask):  # pragma: no cover - compiled
    """The first env whose action is out of range or not in its row of ``mask``, or -1: a step checks them all
    before it plays any."""
    for i in range(actions.shape[0]):
        if actions[i] < 0 or actions[i] >= mask.shape[1] or not mask[i, actions[i]]:
            return i
    return -1


@jit
def _vec_step(S, B, R, CUT, AO, OO, P, run_seed, episode, actions, obs, mask, dirty, seats, rewards, terminations,
              truncations, auto, log1p):  # pragma: no cover - compiled
    """Play each env's action (and, with ``auto``, the defence it calls for) and write what follows: -1; or,
    stepping none, the first env whose action is not legal.

    Parameters
    ----------
    S : State
        The N envs' states stacked: each field of `riskstats.game.rules.state.State` with a leading env axis.
    B, R, CUT : the context's board arrays, rule vector (int64[R_SIZE]) and one-roll table (`compile_context`).
    AO : int64[len(BLOCKS) + 1]
        The action encoding's block offsets (`riskstats.env.actions.action_offsets`), its last entry the number
        of actions n.
    OO : int64[fields + 1]
        The observation's field offsets (`riskstats.env.observation.ObservationLayout.offsets`).
    P : int
        Players (the seats that get rewards; a neutral's seat does not).
    run_seed : uint64
        The run's seed; env i's game e is seeded `_game_seed(run_seed, i, e)`.
    episode : int64[N]
        Each env's game number, counted up when a game ends and the env restarts.
    actions : int64[N]
        Each env's action id.
    obs : float32[N, obs_size]
        Written: what the seat to move observes after the step.
    mask : bool[N, n]
        Read (the legal ids before the step), then written (after it).
    dirty : int64[N, 2]
        Each env's range of mask ids its last `_mask` wrote (cleared before the next).
    seats : int64[N]
        Written: the seat to move in each env.
    rewards : float32[N, P]
        Written: +1 to the winner and -1/(P-1) to the others in an env whose game ended, else 0.
    terminations, truncations : bool[N]
        Written: the env's game was won, or ended without a winner (the turn or move cap).
    auto : bool
        Automatic defence (`riskstats.env.defence`): a defence the step calls for is played at once.
    log1p : bool
        Observation counts as log1p (the layout's ``"log1p"`` scale).
    """
    # borrowed views (the caller holds every array throughout): each env's State is views of S's rows, passed
    # to a few kernels per step, and without borrowing every call would count references to all its arrays
    S, B, R, CUT, AO, OO, obs, mask, dirty = borrow((S, B, R, CUT, AO, OO, obs, mask, dirty))
    bad = _first_illegal(actions, mask)
    if bad >= 0:
        return bad
    for i in range(S.owner.shape[0]):
        st = _env_state(S, i)
        kind, a, b, c, d = _decode(st, B, R, AO, actions[i])
        while kind >= 0:
            _apply(st, B, R, CUT, kind, a, b, c, d)
            kind = -1
            if auto and st.info[I_PHASE] == DEFEND:  # automatic defence: the most dice (riskstats.env.defence)
                kind, a = DEFEND_MOVE, _defend_dice(st, R)
        _settle(st, B, R, P, run_seed, i, episode, rewards, terminations, truncations)
        seats[i] = st.info[I_PLAYER]
        _view(st, P, OO, seats[i], obs[i], log1p)
        _mask(st, B, R, AO, mask[i], dirty[i])
    return -1


@jit
def _vec_reset_macro(S, B, R, MO, OO, P, run_seed, episode, obs, mask, pend, seats, log1p):  # pragma: no cover
    """`_vec_reset` with macro actions: every env's first game started, no macro pending.

    Parameters
    ----------
    S, B, R, OO, P, run_seed, episode, obs, seats, log1p
        As in `_vec_reset`.
    MO : int64[len(MACRO_BLOCKS) + 1]
        The macro encoding's block offsets (`riskstats.env.macro.macro_offsets`), its last entry the number of
        macro ids n.
    mask : bool[N, n]
        Written: the legal macro ids.
    pend : int64[N]
        Written: each env's pending macro, none.
    """
    S, B, R, MO, OO, obs, mask = borrow((S, B, R, MO, OO, obs, mask))
    for i in range(S.owner.shape[0]):
        st = _env_state(S, i)
        episode[i] = 0
        pend[i] = P_NONE
        _init(st, B, R, _game_seed(run_seed, i, 0))
        seats[i] = st.info[I_PLAYER]
        _view(st, P, OO, seats[i], obs[i], log1p)
        _macro_mask(st, B, R, MO, mask[i])


@jit
def _vec_step_macro(S, B, R, CUT, MO, OO, P, run_seed, episode, actions, obs, mask, pend, trace, traced, seats,
                    rewards, terminations, truncations, auto, log1p):  # pragma: no cover
    """`_vec_step` with macro actions (`riskstats.env.macro`): each env's macro id is played up to the next
    decision, its rolls drawn by the engine's seeded chance step; ``pend[i]`` is env i's pending macro.

    Parameters
    ----------
    S, B, R, CUT, OO, P, run_seed, episode, actions, obs, seats, rewards, terminations, truncations, auto, log1p
        As in `_vec_step`.
    MO : int64[len(MACRO_BLOCKS) + 1]
        The macro encoding's block offsets (`riskstats.env.macro.macro_offsets`), its last entry the number of
        macro ids n.
    mask : bool[N, n]
        Read (the legal macro ids before the step), then written (after it).
    pend : int64[N]
        Each env's pending macro (`riskstats.env.macro.PENDING`): read and written.
    trace : int64[rows, 5]
        The engine moves played, (kind, a, b, c, d) a row, while it has room (0 rows: no trace).
    traced : int64[1]
        The number of engine moves played (counted past the trace's rows).
    """
    S, B, R, CUT, MO, OO, obs, mask, trace, traced = borrow((S, B, R, CUT, MO, OO, obs, mask, trace, traced))
    bad = _first_illegal(actions, mask)
    if bad >= 0:
        return bad
    for i in range(S.owner.shape[0]):
        st = _env_state(S, i)
        _macro_run(st, B, R, CUT, MO, actions[i], pend[i:i + 1], auto, False, trace, traced)
        if _settle(st, B, R, P, run_seed, i, episode, rewards, terminations, truncations):
            pend[i] = P_NONE
        seats[i] = st.info[I_PLAYER]
        _view(st, P, OO, seats[i], obs[i], log1p)
        _macro_mask(st, B, R, MO, mask[i])
    return -1


class VectorEnv:
    """``n_envs`` games of one board and rule set, stepped together in compiled code (module docstring).

    Parameters
    ----------
    n_envs : int
    players : int
        2-6 (2: the two-player game with a neutral unless ``rules`` says otherwise).
    variant : {"classic", "two-player", "mission", "capital"}
        Used when ``rules`` is None.
    rules : GameRules, optional
    board : Board, optional
    seed : int
        The run seed used by `reset` when it is given none.
    actions : {"full", "macro"}
        The action space: the full encoding (`riskstats.env.actions`) or macro actions (`riskstats.env.macro`).
    defend : {"choose", "auto"}
        Whether the defending seat chooses its dice or always rolls the most (`riskstats.env.defence`).
    observation : {"raw", "log1p"}
        The observation's count fields as they are, or as log1p (`riskstats.env.observation`).
    """

    def __init__(self, n_envs: int, players: int = 4, variant: str = "classic", rules: GameRules | None = None, *,
                 board=None, seed: int = 0, actions: str = "full", defend: str = "choose", observation: str = "raw"):
        self.n_envs = check_int("n_envs", n_envs, 1, 1 << 24)
        if rules is None:
            rules = GameRules(variant=variant_for(variant, players))
        if not isinstance(rules, GameRules):
            raise RiskstatsError(f"rules must be a GameRules, got {rules!r}")
        self.rules = rules
        self.board = board or classic_board()
        self.players = rules.check_players(players, self.board)
        self.seed = check_int("seed", seed, 0, 2**64 - 1)
        self.encoding = action_space(self.board, rules, actions, defend)
        self.actions, self.defend = actions, defend
        self.layout = ObservationLayout.for_board(self.board, rules, self.players, observation)
        self.n_actions, self.obs_size = self.encoding.n, self.layout.size
        self.context = compile_context(rules, self.board, self.players)
        self._macro = actions == "macro"
        self._auto = defend == "auto"
        T = self.board.n_territories
        seats = rules.seats(self.players)
        one = _new_state(T, self.board.n_cards, seats, 0)
        self.states = State(*(np.repeat(x[None], self.n_envs, axis=0) for x in one))
        self.obs = np.zeros((self.n_envs, self.obs_size), np.float32)
        self.mask = np.zeros((self.n_envs, self.n_actions), np.bool_)
        self._dirty = np.tile(np.array([0, self.n_actions - 1], np.int64), (self.n_envs, 1))  # see _mask
        self.pending = np.zeros(self.n_envs, np.int64)  # each env's pending macro (riskstats.env.macro.PENDING)
        self._trace = (np.zeros((0, 5), np.int64), np.zeros(1, np.int64))  # no trace of the engine moves
        self.seats = np.zeros(self.n_envs, np.int64)
        self.rewards = np.zeros((self.n_envs, self.players), np.float32)
        self.terminations = np.zeros(self.n_envs, np.bool_)
        self.truncations = np.zeros(self.n_envs, np.bool_)
        self.episode = np.zeros(self.n_envs, np.int64)
        self._run_seed = self.seed
        self._ready = False

    def game_seed(self, env: int, episode: int = 0) -> int:
        """The seed of game ``episode`` (0: the one `reset` starts) of env ``env`` in this run."""
        return int(_game_seed(np.uint64(self._run_seed), env, episode))

    def _info(self) -> dict:
        return {"action_mask": self.mask, "seat": self.seats, "episode": self.episode}

    def reset(self, seed: int | None = None, options: dict | None = None):
        """Start a game in every env (run seed ``seed``, else the constructor's); returns ``obs, info``."""
        if seed is not None:
            self._run_seed = check_int("seed", seed, 0, 2**64 - 1)
        B, R = self.context.B, self.context.R
        seed = np.uint64(self._run_seed)
        if self._macro:
            _vec_reset_macro(self.states, B, R, self.encoding.offsets, self.layout.offsets, self.players, seed,
                             self.episode, self.obs, self.mask, self.pending, self.seats, self.layout.log1p)
        else:
            _vec_reset(self.states, B, R, self.encoding.offsets, self.layout.offsets, self.players, seed,
                       self.episode, self.obs, self.mask, self._dirty, self.seats, self.layout.log1p)
        self._ready = True
        return self.obs, self._info()

    def step(self, actions):
        """Play one action in every env; returns ``obs, rewards, terminations, truncations, info``."""
        if not self._ready:
            raise RiskstatsError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.n_envs,) or actions.dtype.kind not in "iu":
            raise RiskstatsError(f"actions must be {self.n_envs} integers, got shape {actions.shape} "
                                 f"of {actions.dtype}")
        B, R, CUT = self.context.B, self.context.R, self.context.CUT
        seed = np.uint64(self._run_seed)
        actions = actions.astype(np.int64, copy=False)
        if self._macro:
            bad = _vec_step_macro(self.states, B, R, CUT, self.encoding.offsets, self.layout.offsets, self.players,
                                  seed, self.episode, actions, self.obs, self.mask, self.pending, *self._trace,
                                  self.seats, self.rewards, self.terminations, self.truncations, self._auto,
                                  self.layout.log1p)
        else:
            bad = _vec_step(self.states, B, R, CUT, self.encoding.offsets, self.layout.offsets, self.players, seed,
                            self.episode, actions, self.obs, self.mask, self._dirty, self.seats,
                            self.rewards, self.terminations, self.truncations, self._auto, self.layout.log1p)
        if bad >= 0:
            raise RiskstatsError(f"action {int(actions[bad])} of env {bad} is not legal (no env was stepped)")
        return self.obs, self.rewards, self.terminations, self.truncations, self._info()

    def state(self, env: int) -> State:
        """Env ``env``'s game state (views of the stacked arrays: read, don't write)."""
        env = check_int("env", env, 0, self.n_envs - 1)
        return State(*(x[env] for x in self.states))
