"""A PettingZoo AEC environment of a full game: `env` and `raw_env`.

This module owns the PettingZoo face of a game; the game itself is a `riskstats.game.play.Game`, its
actions are `riskstats.env.actions.ActionEncoding` ids and its observations
`riskstats.env.observation.ObservationLayout` arrays. Agents are ``"player_0"`` .. ``"player_{P-1}"``
(seat order; a two-player game's neutral is no agent). The agent to move is the seat to move: the player
whose turn it is, or in the "defend" phase the defending seat, which picks its dice.

Observations are dicts: ``"observation"`` (float32, the layout's size) and ``"action_mask"`` (int8, 1 for
the legal ids; all 0 for an agent not to move). Options: ``actions="macro"`` (macro actions,
`riskstats.env.macro`: an id plays a whole decision, its rolls drawn by the engine's seeded chance step),
``defend="auto"`` (the defending seat always rolls the most dice and is never asked, `riskstats.env.defence`),
``observation="log1p"`` (count fields as log1p). Rewards come at the end only: +1 to the winner and
-1 / (P - 1) to every other player (they sum to 0); a game stopped at the rules' turn cap (``max_turns``)
gives 0 to all and is a truncation, a won game a termination, for every agent at once. A player
eliminated before the end stays among the agents, never to move, until the game ends.

>>> from riskstats.env.pettingzoo import env
>>> e = env(players=3, seed=1)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> e.agent_selection, int(obs["action_mask"].sum()), reward, terminated
('player_0', 42, 0.0, False)
>>> e.step(int(obs["action_mask"].argmax()))
>>> e.agent_selection
'player_1'

Requires the ``rl`` extra (``pip install "riskstats[rl]"``).
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from riskstats.env.defence import most_dice
from riskstats.env.observation import ObservationLayout
from riskstats.env.spaces import action_space
from riskstats.errors import RiskstatsError, check_int
from riskstats.game.play import Game, Move
from riskstats.game.rules.options import GameRules, variant_for

RENDER_MODES = ("human", "ansi")


def game_rules(players: int, variant: str, rules: GameRules | None) -> GameRules:
    """The rules of an environment: ``rules`` if given (its variant wins), else ``variant``'s defaults
    (``"classic"`` with 2 players is the two-player game with a neutral)."""
    if rules is not None:
        if not isinstance(rules, GameRules):
            raise RiskstatsError(f"rules must be a GameRules, got {rules!r}")
        return rules
    return GameRules(variant=variant_for(variant, players))


def random_seed() -> int:
    """A fresh uint64 game seed from the operating system's entropy (for ``reset()`` with no seed)."""
    return int(np.random.SeedSequence().generate_state(1, np.uint64)[0])


def env(**kwargs):
    """The environment wrapped in PettingZoo's order-enforcing and illegal-action wrappers (kwargs:
    `raw_env`'s)."""
    e = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's name)
    """A full game as a PettingZoo AEC environment (see the module docstring).

    Parameters
    ----------
    players : int
        2-6.
    variant : {"classic", "two-player", "mission", "capital"}
        Used when ``rules`` is None.
    rules : GameRules, optional
    render_mode : {None, "human", "ansi"}
        "ansi": `render` returns the text; "human": it prints it (and each step renders).
    board : Board, optional
    seed : int, optional
        The first game's seed if `reset` is called without one.
    actions : {"full", "macro"}
        The action space (`riskstats.env.spaces`).
    defend : {"choose", "auto"}
        Whether the defending seat chooses its dice or always rolls the most.
    observation : {"raw", "log1p"}
        The observation's count fields as they are, or as log1p.
    """

    metadata = {"render_modes": list(RENDER_MODES), "name": "riskstats_v0", "is_parallelizable": False}

    def __init__(self, players: int = 4, variant: str = "classic", rules: GameRules | None = None,
                 render_mode: str | None = None, board=None, seed: int | None = None, actions: str = "full",
                 defend: str = "choose", observation: str = "raw"):
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise RiskstatsError(f"render_mode must be None or one of {', '.join(RENDER_MODES)}, got {render_mode!r}")
        players = check_int("players", players, 2, 6)
        self.rules = game_rules(players, variant, rules)
        self.render_mode = render_mode
        self._board = board
        self._seed = seed
        probe = Game(players, self.rules, board=board, seed=0, log=False)
        self.players = probe.players
        self.board = probe.board
        self.encoding = action_space(probe.board, self.rules, actions, defend)
        self.macro, self.auto = actions == "macro", defend == "auto"
        self.layout = ObservationLayout.for_game(probe, observation)
        self.possible_agents = [f"player_{i}" for i in range(self.players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        n, size = self.encoding.n, self.layout.size
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, np.inf, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (n,), np.int8)})
        self._action_space = spaces.Discrete(n)
        self.observation_spaces = {a: self._observation_space for a in self.possible_agents}
        self.action_spaces = {a: self._action_space for a in self.possible_agents}
        self.game = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is None:
            seed, self._seed = (self._seed, None) if self._seed is not None else (random_seed(), None)
        self.game = Game(self.players, self.rules, board=self._board, seed=int(seed) % 2**64, log=False)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.player]
        self.pending = np.zeros(1, np.int64)  # the macro pending (riskstats.env.macro.PENDING)
        self._mask = self.encoding.mask(self.game)

    def observe(self, agent):
        seat = self._seat[agent]
        mask = np.zeros(self.encoding.n, np.int8)
        if agent == self.agent_selection and not self.game.over:
            mask[self._mask] = 1
        return {"observation": self.layout.observe(self.game, seat), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if not self.legal(action):
            raise RiskstatsError(f"action {action} is not legal for {agent} in phase {self.game.phase!r}")
        action = int(action)
        self._cumulative_rewards[agent] = 0.0
        if self.macro:
            self.encoding.play(self.game, action, self.pending)
        else:
            self.game.step(self.encoding.decode(self.game, action))
            if self.auto and self.game.phase == "defend":
                self.game.step(Move.defend(most_dice(self.game)))
        self._settle()

    def legal(self, action) -> bool:
        """Whether ``action`` is an id of the space that the agent to move may play now (what `step` checks);
        anything that is no whole number is not."""
        try:
            action = int(action)
        except (TypeError, ValueError):
            return False
        return 0 <= action < self.encoding.n and bool(self._mask[action])

    def play_move(self, move) -> None:
        """Play an engine `Move` for the agent to move, as an action of the full encoding is played (with
        ``defend="auto"`` the defence an attack calls for follows): a built-in bot's own move
        (`riskstats.game.play.Game.bot_move`), which in the macro space may be no action (a placement off the front,
        a fortification over several borders, an attack with fewer dice). Rewards, terminations and the agent to
        move follow as after `step`; an illegal move raises `RiskstatsError` and changes nothing."""
        agent = self.agent_selection
        if self.game is None or self.game.over:
            raise RiskstatsError("play_move needs a running game: call reset first")
        if self.pending[0] != 0:
            raise RiskstatsError(f"a macro of {agent} waits for its roll: answer it with step, not play_move")
        self.game.step(move)
        self._cumulative_rewards[agent] = 0.0
        if self.auto and self.game.phase == "defend":
            self.game.step(Move.defend(most_dice(self.game)))
        self._settle()

    def _settle(self) -> None:
        """After a move: the rewards, terminations and infos of a game that ended, else the next agent; the mask."""
        self.rewards = {a: 0.0 for a in self.agents}
        if self.game.over:
            winner = self.game.winner
            for a in self.agents:
                if winner >= 0:
                    self.rewards[a] = 1.0 if self._seat[a] == winner else -1.0 / (self.players - 1)
                self.terminations[a] = winner >= 0
                self.truncations[a] = winner < 0
                self.infos[a] = {"winner": winner, "reason": self.game.reason}
        else:
            self.agent_selection = self.possible_agents[self.game.player]
        self._mask = self.encoding.mask(self.game)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode (\"human\" or \"ansi\")")
            return None
        text = render_text(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass


def render_text(game) -> str:
    """The game as text: turn, phase and seat to move, then one line per continent (owner:armies)."""
    board = game.board
    lines = [f"turn {game.turn}  phase {game.phase}  to move: player_{game.player}"
             + (f"  winner: player_{game.winner}" if game.winner >= 0 else "")]
    owner, armies = game.state.owner, game.state.armies
    for k, name in enumerate(board.continents):
        cells = [f"{board.territories[t][:10]}={'-' if owner[t] < 0 else owner[t]}:{armies[t]}"
                 for t in board.continent_territories(k)]
        lines.append(f"{name}: " + " ".join(cells))
    return "\n".join(lines)
