"""The full game as an OpenSpiel Python game, ``python_risk``: importing this module registers it.

This module owns the OpenSpiel face of a game (`RiskGame`, `RiskState`, the observer), `BuiltInBot` (a built-in
bot as an OpenSpiel bot) and `RolloutEvaluator`, an MCTS evaluator whose rollouts are played by the compiled
built-in bots (`riskstats.env.evaluators.ValueEvaluator` values leaves by the fitted position value instead).
The game is a `riskstats.game.play.Game`, its actions `riskstats.env.actions.ActionEncoding` ids and its tensors
`riskstats.env.observation.ObservationLayout` arrays; no rule is written here.

Game type: sequential, imperfect information, zero-sum (+1 to the winner, -1 / (P - 1) to each other player,
0 to all when the rules' turn cap ends the game), terminal rewards. Chance is explicit
(``EXPLICIT_STOCHASTIC``), because OpenSpiel's MCTS and ISMCTS sample chance nodes afresh in every simulation,
and because OpenSpiel cannot check or serialise a Python game with sampled chance (its random-simulation
test needs the game's random state, which a Python game cannot give it). There are two kinds of chance node:

* the deal, at the root: one of ``deals`` equally likely outcomes, each a game seed (mixed with the ``seed``
  parameter). The seed fixes what the engine's setup draws: the territories dealt (when dealt), the draw
  pile's order and the missions. Card draws come off that hidden pile, as from a shuffled deck.
* each roll: once the defending seat has chosen its dice (a "defend" action), a chance node offers the
  attacker's possible losses with their exact probabilities (`riskstats.game.play.Game.roll_outcomes`), and
  the engine plays the defence with the chosen outcome as its input (`Game.step(move, outcome=...)`), leaving
  the game's random stream as it was.

With ``actions="macro"`` (`riskstats.env.macro`) a multi-roll macro is a sequence of chance nodes: the player's
macro id plays up to its first roll, each roll is a chance node as above, and after each the macro goes on by
itself (the next roll of an "until decided" attack, or the next decision), its mode pending in the state. With
``defend="auto"`` the defending seat never moves: an attack is followed at once by the chance node of a roll
against the most dice (`riskstats.env.defence`).

Everything is then a function of the history, so OpenSpiel's default serialisation (the action history,
replayed) restores a state exactly. Information states: the observation (`riskstats.env.observation`) with
the number of moves played, given as a key, a 32-digit hash of those bytes (cheap to store and compare, as
ISMCTS does at every node), not as text; the observation string stays readable. It is not perfect recall (the
history of moves is not in it). A perfect-
information algorithm such as MCTS that clones the state sees through the hidden parts (the draw pile,
other hands and missions); ISMCTS samples them afresh with `RiskState.resample_from_infostate`.

Parameters: ``players`` (2-6), every rule option that is one value (`riskstats.game.rules.options.RULE_OPTIONS`,
with its default: ``variant`` "classic", with 2 players the two-player game with a neutral; ``setup`` "" for the
variant's default; ``max_turns``, ``fortify``, ``escalation``, ``cards_per_turn`` ...), ``seed``, ``deals``,
``actions`` ("macro", the default, or "full"), ``defend`` ("auto", the default, or "choose"), ``observation``
("raw" or "log1p") (`riskstats.env.spaces`) and ``max_game_length`` (`MAX_GAME_LENGTH`): a game that has played
that many actions, chance included, ends there as a draw (0 to every player, as at the turn cap), so that the
game's ``max_game_length()`` is a true bound, the one OpenSpiel's algorithms size their buffers by. The defaults
are chosen so that OpenSpiel's checks with no parameters end (`DEFAULTS`).

>>> import pyspiel
>>> import riskstats.env.openspiel  # noqa: F401  (registers python_risk)
>>> game = pyspiel.load_game("python_risk", {"players": 2, "max_turns": 50, "actions": "full", "defend": "choose"})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 1024)
>>> state.apply_action(7)
>>> state.current_player(), state.legal_actions()[:3]
(0, [9, 10, 18])
>>> pyspiel.load_game("python_risk").max_game_length()
10000

Requires the ``rl`` extra (``pip install "riskstats[rl]"``).
"""
from __future__ import annotations

import hashlib

import numpy as np
import pyspiel

from riskstats.env.defence import most_dice
from riskstats.env.macro import P_NONE, P_ONCE, P_UNTIL
from riskstats.env.observation import ObservationLayout
from riskstats.env.pettingzoo import render_text
from riskstats.env.spaces import action_space
from riskstats.errors import RiskstatsError
from riskstats.game.play import Game, Move
from riskstats.game.rules.objectives import _give_mission
from riskstats.game.rules.options import RULE_OPTIONS, GameRules, variant_for
from riskstats.game.rules.state import (
    CAPITAL,
    DECK,
    DEFEND_MOVE,
    I_ATK_FROM,
    I_DECK_N,
    I_MOVES,
    I_PHASE,
    M_CARD,
    MK_DESTROY,
)
from riskstats.game.rules.stream import _seed

RULE_PARAMETERS = tuple(name for name, option in RULE_OPTIONS.items() if option.scalar)
"""The rule options the game takes as parameters: every one that is a single value (not the dice or set tables)."""
MAX_GAME_LENGTH = 10_000
"""The default ``max_game_length``: the most actions, chance included, a game plays before it ends as a draw.
Uniformly random play in the default macro space with automatic defence (issue 55) took 533 (two players) to 3,105
(six players) actions a game at the median and at most 10,947 in 80 games; a game between built-in bots, a few
hundred."""
DEFAULTS = {"players": 2, **{name: RULE_OPTIONS[name].default for name in RULE_PARAMETERS}, "setup": "", "seed": 0,
            "deals": 1024, "actions": "macro", "defend": "auto", "observation": "raw",
            "max_game_length": MAX_GAME_LENGTH}
"""The game's parameters and their defaults (the module docstring says what each is). The defaults are the ones
under which OpenSpiel's own checks end, as its test suite runs them on every registered game with no parameters:
the macro action space with automatic defence, in which uniformly random play ends games (in the full space with
the defender choosing its dice it does not, and ``random_sim_test(num_sims=5, serialize=True)`` held 19 GB after 16
minutes), and a cap on the game's length that is its true `max_game_length`."""

_GAME_TYPE = pyspiel.GameType(
    short_name="python_risk",
    long_name="Risk (riskstats)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(DEFAULTS))

_MIX = 0x9E3779B97F4A7C15


def rules_from_params(params: dict) -> tuple[int, GameRules]:
    """(players, GameRules) of a parameter dict (missing keys: `DEFAULTS`)."""
    p = {**DEFAULTS, **params}
    players = int(p["players"])
    options = {name: int(p[name]) if RULE_OPTIONS[name].type is int else p[name] for name in RULE_PARAMETERS}
    options["variant"] = variant_for(str(p["variant"]), players)
    options["setup"] = p["setup"] or None
    return players, GameRules.from_dict(options)


class RiskGame(pyspiel.Game):
    """``python_risk``: see the module docstring."""

    def __init__(self, params=None):
        params = {**DEFAULTS, **(params or {})}
        self.players, self.rules = rules_from_params(params)
        self.deals = int(params["deals"])
        if self.deals < 1:
            raise RiskstatsError(f"deals must be at least 1, got {self.deals}")
        self.seed = int(params["seed"]) % 2**64
        probe = Game(self.players, self.rules, seed=0, log=False)
        self.board = probe.board
        self.encoding = action_space(probe.board, self.rules, params["actions"], params["defend"])
        self.macro, self.auto = params["actions"] == "macro", params["defend"] == "auto"
        self.length = int(params["max_game_length"])
        if self.length < 2:
            raise RiskstatsError(f"max_game_length must be at least 2 (the deal and one move), got {self.length}")
        self.layout = ObservationLayout.for_game(probe, params["observation"])
        self.resample_rng = np.random.default_rng(self.seed)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.n,
            max_chance_outcomes=max(self.deals, self.rules.dice.defender_dice + 1),
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.length)
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self):
        return RiskState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return RiskObserver(self, perfect_recall)

    def game_seed(self, deal: int) -> int:
        """The `Game` seed of deal outcome ``deal``."""
        return (self.seed * _MIX + deal + 1) % 2**64


class _Position:
    """A `Game` that clones by copying its state arrays only (board, rules and tables are shared)."""

    def __init__(self, game: Game):
        self.game = game

    def __deepcopy__(self, memo):
        return _Position(Game.from_position(self.game))


class RiskState(pyspiel.State):
    """A position of ``python_risk``: before the deal, the game (`game`), and a roll awaiting its outcome."""

    def __init__(self, game: RiskGame):
        super().__init__(game)
        self._pos = None
        self._roll = 0  # the defender's dice of a roll awaiting its chance outcome (0: none)
        self._pend = np.zeros(1, np.int64)  # the macro pending (riskstats.env.macro.PENDING; macro actions only)
        self._played = 0  # actions applied, chance included: the game ends as a draw at max_game_length

    @property
    def game(self) -> Game | None:
        """The riskstats `Game` (None before the deal)."""
        return None if self._pos is None else self._pos.game

    def current_player(self):
        g = self.game
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if g is None or self._roll:
            return pyspiel.PlayerId.CHANCE
        return g.player

    def _legal_actions(self, player):
        return np.flatnonzero(self.get_game().encoding.mask(self.game)).tolist()

    def chance_outcomes(self):
        spec = self.get_game()
        if self.game is None:
            return [(i, 1.0 / spec.deals) for i in range(spec.deals)]
        return [(i, float(p)) for i, p in enumerate(self.game.roll_outcomes(self._roll)) if p > 0]

    def _apply_action(self, action):
        spec = self.get_game()
        self._played += 1
        if self.game is None:
            self._pos = _Position(Game(spec.players, spec.rules, seed=spec.game_seed(int(action)), log=False))
            return
        g = self.game
        if self._roll:
            g.step(Move.defend(self._roll), outcome=int(action))
            self._roll = spec.encoding.resume(g, self._pend) if spec.macro else 0
            return
        if spec.macro:
            self._roll = spec.encoding.decide(g, action, self._pend)
            return
        move = spec.encoding.decode(g, action)
        if move.kind == DEFEND_MOVE:
            self._roll = move.a
        else:
            g.step(move)
            if spec.auto and g.phase == "defend":
                self._roll = most_dice(g)

    def play_move(self, move) -> None:
        """Play an engine `Move` for the player to move directly, as an action of the full encoding would be
        played (with ``defend="auto"`` the roll's chance node follows): a built-in bot's own move (`BuiltInBot`),
        which in a macro game may be no action of the space (a placement off the front, a fortification over
        several borders, an attack with fewer dice). It is not an action, so it is not in the history: a state
        after one clones but does not serialise."""
        spec = self.get_game()
        g = self.game
        if g is None or self._roll or g.over or move.kind == DEFEND_MOVE:
            raise RiskstatsError("play_move plays a move of a player to move, not a deal, a roll or a defence")
        g.step(move)
        if spec.auto and g.phase == "defend":
            self._roll = most_dice(g)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}" if self.game is None else f"roll: attacker loses {action}"
        return self.get_game().encoding.describe(action)

    def is_terminal(self):
        return self.game is not None and (self.game.over and not self._roll
                                          or self._played >= self.get_game().length)

    def returns(self):
        spec = self.get_game()
        g = self.game
        if g is None or not g.over or g.winner < 0:  # a draw: the turn cap, or max_game_length
            return [0.0] * spec.players
        return [1.0 if p == g.winner else -1.0 / (spec.players - 1) for p in range(spec.players)]

    def __str__(self):
        if self.game is None:
            return "before the deal"
        return render_text(self.game) + (f"\nrolling: defender's {self._roll} dice" if self._roll else "")

    def resample_from_infostate(self, player_id, probability_sampler=None):
        """A state ``player_id`` cannot tell from this one: the other players' cards, the draw pile's order,
        the other missions (redealt as dealt; a target-lost change to one is not kept), unrevealed capital
        picks and the random stream sampled afresh. For ISMCTS; its history is this state's."""
        spec = self.get_game()
        c = self.clone()
        g = c.game
        if g is None:
            return c
        rng = spec.resample_rng
        st = g.state
        P = spec.players
        others = [q for q in range(P) if q != player_id]
        owner = st.card_owner
        pool = np.flatnonzero(np.isin(owner, others) | (owner == DECK))
        pool = pool[rng.permutation(len(pool))]
        k = 0
        for q in others:
            n = int((owner == q).sum())
            owner[pool[k:k + n]] = q
            k += n
        rest = pool[k:]
        owner[rest] = DECK
        st.deck[:len(rest)] = rest
        st.info[I_DECK_N] = len(rest)
        if spec.rules.objective == "mission":
            rows = g.board.arrays.missions
            eligible = [m for m in range(rows.shape[0])
                        if (rows[m, 7] == 0 or spec.rules.mission_deck == "european")
                        and (rows[m, 0] != MK_DESTROY or rows[m, 6] < P) and m != st.mission[player_id, M_CARD]]
            for q, m in zip(others, rng.permutation(eligible)):
                if st.alive[q]:
                    _give_mission(st, g.board.arrays, q, int(m))
        if st.info[I_PHASE] == CAPITAL:
            for q in others:
                if st.capital[q] >= 0:
                    st.capital[q] = int(rng.choice(np.flatnonzero(st.owner == q)))
        if c._pend[0] != P_NONE and st.owner[st.info[I_ATK_FROM]] != player_id:
            c._pend[0] = rng.choice([P_ONCE, P_UNTIL])  # the attacker's intent: its own
        _seed(st.rng, np.uint64(rng.integers(2**63)))
        return c


class RiskObserver:
    """OpenSpiel's observer: `riskstats.env.observation` arrays; strings of their nonzero entries by field."""

    def __init__(self, game: RiskGame, perfect_recall: bool):
        self.layout = game.layout
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(self.layout.size, np.float32)
        self.dict = {name: self.tensor[s] for name, s in self.layout.slices.items()}

    def set_from(self, state: RiskState, player: int):
        if state.game is None:
            self.tensor.fill(0.0)
        else:
            self.layout.observe(state.game, player, out=self.tensor)

    def string_from(self, state: RiskState, player: int) -> str:
        """The observation as text of its nonzero entries by field; for the information state (perfect recall
        asked), a key: the hash of the observation's bytes, the moves played and the roll awaited."""
        if state.game is None:
            return "before the deal"
        obs = self.layout.observe(state.game, player)
        if self.perfect_recall:
            key = hashlib.blake2b(obs.tobytes(), digest_size=16)
            key.update(np.array([state.game.state.info[I_MOVES], state._roll], np.int64).tobytes())
            return key.hexdigest()
        parts = []
        for name, s in self.layout.slices.items():
            values = obs[s]
            nz = np.flatnonzero(values)
            parts.append(f"{name}=" + ",".join(f"{i}:{values[i]:g}" for i in nz))
        if state._roll:
            parts.append(f"rolling={state._roll}")
        return " ".join(parts)


class BuiltInBot(pyspiel.Bot):
    """A built-in bot (`riskstats.game.bots.catalog`, a spec such as ``"continent"``) as an OpenSpiel bot for
    ``python_risk``: `move` is the engine move it plays (`riskstats.game.play.Game.bot_move`, drawing from the
    game's stream) and `step` its action id in the full encoding. The macro space cannot hold every such move
    (a built-in bot places off the front, fortifies over several borders); there, play the bot's own move with
    ``state.play_move(bot.move(state))`` rather than forcing it onto a macro id.

    ``uniform`` over the macro space needs no bot of its own: OpenSpiel's ``pyspiel.make_uniform_random_bot``
    on the macro game is uniform over the legal macro actions."""

    def __init__(self, game: RiskGame, player: int, bot: str = "random"):
        pyspiel.Bot.__init__(self)
        self.spec, self.player, self.bot = game, player, bot

    def move(self, state: RiskState) -> Move:
        return state.game.bot_move(self.bot)

    def step(self, state: RiskState) -> int:
        if self.spec.macro:
            raise RiskstatsError(f"bot {self.bot!r} plays engine moves, not macro ids: in a macro game play "
                                 "state.play_move(bot.move(state))")
        return self.spec.encoding.encode(state.game, self.move(state))

    def restart_at(self, state) -> None:
        pass


class RolloutEvaluator:
    """An `open_spiel.python.algorithms.mcts.Evaluator` for ``python_risk``: the value of a state is the mean
    result of ``n_rollouts`` games played on from it to the end by compiled built-in bots (``bots``, one per
    seat, repeated; the rollout kernel of `riskstats.game.rollout`: fresh dice and draw pile each); the prior
    is uniform. With ``bots=("random",)`` it is MCTS with random rollouts, at compiled speed."""

    def __init__(self, n_rollouts: int = 1, bots=("random",), seed: int = 0):
        self.n_rollouts = n_rollouts
        self.bots = tuple(bots)
        self._rng = np.random.default_rng(seed)
        self._work = None

    def evaluate(self, state: RiskState):
        from riskstats.game.bots.catalog import Lineup
        from riskstats.game.bots.roster import roster_for
        from riskstats.game.loop import NO_HORIZON
        from riskstats.game.rollout import _rollout
        from riskstats.game.rules.state import _new_state

        if state.is_chance_node() and state.game is not None:
            state = state.clone()
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(self._rng.choice(outcomes, p=probs)))
        if state.is_terminal() or state.game is None:
            return np.array(state.returns())
        g = state.game
        players = g.players
        if self._work is None:
            ids, params = Lineup.of(self.bots).arrays(players)
            st = g.state
            self._work = (_new_state(st.owner.shape[0], st.card_owner.shape[0], st.alive.shape[0], 0), ids, params)
        work, ids, params = self._work
        value = np.zeros(players)
        for seed in self._rng.integers(0, 2**63, self.n_rollouts):
            w = _rollout(g.state, work, *g.context, ids, params, np.uint64(seed),
                         NO_HORIZON, NO_HORIZON, roster_for(_rollout, ids))
            if w >= 0:
                value -= 1.0 / (players - 1)
                value[w] += 1.0 + 1.0 / (players - 1)
        return value / self.n_rollouts

    def prior(self, state: RiskState):
        if state.is_chance_node():
            return state.chance_outcomes()
        actions = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(actions)) for a in actions]


pyspiel.register_game(_GAME_TYPE, RiskGame)
