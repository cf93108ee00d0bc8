"""One seat of a game as a Gymnasium environment, the other seats played by built-in bots: `SingleAgentEnv`.

This module owns the single-agent view that single-agent learners (Stable-Baselines3, sb3-contrib's
``MaskablePPO``) train on: an episode is one game of the PettingZoo environment (`riskstats.env.pettingzoo.raw_env`)
in which the learner moves for one seat and every other seat is played, move by move, by a built-in bot of
`riskstats.game.bots` (its own engine moves, `riskstats.game.play.Game.bot_move`, played with
`riskstats.env.pettingzoo.raw_env.play_move`). It owns no rule, no action space and no observation: those are the
PettingZoo environment's (macro actions, automatic defence and log1p counts by default).

The learner's seat is fixed or rotates (episode k plays seat k mod P, counted from the last `reset` given a seed:
the same seed, the same seats, opponents and games), and the opponent of each episode is drawn from the
``opponents`` specs with the episode's seeded stream (a list with repeats weights the mix). `step` takes
an action of the seat, then plays the bots until the seat is to move again or the game ends. The reward is the
PettingZoo environment's, for the seat: +1 for a win, -1 / (P - 1) for a loss, 0 for a game stopped at the turn
cap (a truncation); with ``shaping`` > 0, each step also pays ``shaping`` times the change in the seat's share of
the territories (a potential: it sums to the share at the end minus the share at the start). `action_masks` is
the legal mask, the method sb3-contrib's ``MaskablePPO`` reads. An illegal action forfeits the game by default
(``illegal="lose"``: the episode terminates with the loss's reward and ``info["illegal_action"]``), as PettingZoo's
illegal-action wrapper does, so that Gymnasium's ``check_env``, which steps actions sampled without the mask, passes
with the defaults; ``illegal="raise"`` raises `RiskstatsError` instead.

>>> import numpy as np
>>> env = SingleAgentEnv(opponents="uniform", seed=0)
>>> obs, info = env.reset(seed=0)
>>> obs.shape, int(env.action_space.n), info["seat"], info["opponent"]
((328,), 629, 0, 'uniform')
>>> obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
>>> reward, terminated
(0.0, False)

Requires the ``rl`` extra (``pip install "riskstats[rl]"``); ``learn`` adds the learners.
"""
from __future__ import annotations

import gymnasium
import numpy as np

from riskstats.env.pettingzoo import raw_env
from riskstats.env.spaces import OBSERVATIONS, check_choice
from riskstats.errors import RiskstatsError, check_int
from riskstats.game.bots.catalog import parse_bot
from riskstats.game.rules.options import GameRules

ROTATE = "rotate"
"""``seat=ROTATE``: episode k plays seat k mod P."""
ILLEGAL = ("lose", "raise")
"""What an illegal action does (``illegal``): forfeit the game (the default), or raise `RiskstatsError`."""


def check_opponents(opponents) -> tuple[str, ...]:
    """The opponents as a tuple of bot specs, each checked (`riskstats.game.bots.catalog.parse_bot`); a one-line
    `RiskstatsError` for anything else."""
    specs = (opponents,) if isinstance(opponents, str) else tuple(opponents)
    if not specs:
        raise RiskstatsError("opponents must name at least one built-in bot")
    for spec in specs:
        parse_bot(spec)
    return specs


class SingleAgentEnv(gymnasium.Env):
    """One seat of a game against built-in bots, as a Gymnasium environment (see the module docstring).

    Parameters
    ----------
    opponents : str or sequence of str
        Built-in bot specs (``"random"``, ``"uniform"``, ``"continent:threshold=0.6"``); each episode draws one,
        uniformly, which plays every other seat.
    seat : int or "rotate"
        The learner's seat (0 .. players - 1), or ``"rotate"``: episode k plays seat k mod players.
    players : int
        2-6 (2 with ``variant="classic"`` is the two-player game with a neutral).
    variant : str
        Used when ``rules`` is None.
    rules : GameRules, optional
        ``GameRules(variant="two-player", max_turns=300)`` for a shorter turn cap, for instance.
    actions, defend, observation : str
        The PettingZoo environment's options (`riskstats.env.spaces`); macro actions, automatic defence and log1p
        counts by default.
    shaping : float
        The weight of the territory-share potential added to the reward (0: the game's reward alone).
    seed : int, optional
        Seeds the episodes' stream if the first `reset` has none.
    render_mode : str, optional
        ``"ansi"``: `render` returns the board as text.
    illegal : {"lose", "raise"}
        An action outside the mask forfeits the game (the episode terminates with the reward of a loss, -1 / (P - 1),
        and ``info["illegal_action"]``), or raises `RiskstatsError`.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, opponents=("uniform",), seat=ROTATE, players: int = 2, variant: str = "classic",
                 rules: GameRules | None = None, actions: str = "macro", defend: str = "auto",
                 observation: str = "log1p", shaping: float = 0.0, seed: int | None = None,
                 render_mode: str | None = None, illegal: str = "lose"):
        check_choice("observation", observation, OBSERVATIONS)
        self.illegal = check_choice("illegal", illegal, ILLEGAL)
        self.env = raw_env(players=players, variant=variant, rules=rules, actions=actions, defend=defend,
                           observation=observation, render_mode=render_mode)
        self.players = self.env.players
        self.opponents = check_opponents(opponents)
        if seat != ROTATE:
            seat = check_int("seat", seat, 0, self.players - 1)
        self.seat_rule = seat
        if not (isinstance(shaping, int | float) and 0.0 <= shaping < np.inf):
            raise RiskstatsError(f"shaping must be a number >= 0, got {shaping!r}")
        self.shaping = float(shaping)
        self.render_mode = render_mode
        self.observation_space = self.env.observation_space("player_0")["observation"]
        self.action_space = self.env.action_space("player_0")
        self._first_seed = seed
        self._episodes = 0
        self.seat, self.opponent, self._share = 0, self.opponents[0], 0.0
        self._forfeited = False

    def set_opponents(self, opponents) -> None:
        """Draw the next episodes' opponents from these specs (a curriculum: ``VecEnv.env_method`` calls it)."""
        self.opponents = check_opponents(opponents)

    @property
    def agent(self) -> str:
        """The learner's PettingZoo agent name (``"player_<seat>"``)."""
        return self.env.possible_agents[self.seat]

    @property
    def game(self):
        """The `riskstats.game.play.Game` being played."""
        return self.env.game

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is None and self._episodes == 0:
            seed = self._first_seed
        elif seed is not None:
            self._episodes = 0  # a seed restarts the run: the same seed, the same seats, opponents and games
        super().reset(seed=seed)
        rng = self.np_random
        self.seat = self._episodes % self.players if self.seat_rule == ROTATE else self.seat_rule
        self.opponent = self.opponents[int(rng.integers(len(self.opponents)))]
        self._episodes += 1
        self._forfeited = False
        self.env.reset(seed=int(rng.integers(0, 2**63)))
        self._play_bots()
        self._share = self._territory_share()
        return self._observe(), self._info()

    def step(self, action):
        if self.game is None:
            raise RiskstatsError("step needs a running game: call reset first")
        if self.game.over or self._forfeited:
            raise RiskstatsError("the game is over: call reset")
        if self.env.agent_selection != self.agent:
            raise RiskstatsError(f"it is not {self.agent}'s move")  # pragma: no cover - _play_bots keeps it so
        if self.illegal == "lose" and not self.env.legal(action):
            self._forfeited = True
            return (self._observe(), -1.0 / (self.players - 1), True, False,
                    {**self._info(), "illegal_action": int(action)})
        self.env.step(action)
        self._play_bots()
        reward = self.env.rewards[self.agent] if self.game.over else 0.0
        if self.shaping:
            share = self._territory_share()
            reward += self.shaping * (share - self._share)
            self._share = share
        terminated = bool(self.game.over and self.game.winner >= 0)
        truncated = bool(self.game.over and self.game.winner < 0)
        return self._observe(), float(reward), terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner's seat now (bool; all False once the game is over)."""
        return self.env.observe(self.agent)["action_mask"].astype(np.bool_)

    def render(self):
        return self.env.render() if self.render_mode == "ansi" else None

    # ------------------------------------------------------------ internals
    def _play_bots(self) -> None:
        """The bots' moves until the learner's seat is to move or the game is over."""
        game, env = self.env.game, self.env
        while not game.over and env.agent_selection != self.agent:
            env.play_move(game.bot_move(self.opponent))

    def _territory_share(self) -> float:
        owner = self.game.state.owner
        return float(np.count_nonzero(owner == self.seat)) / owner.shape[0]

    def _observe(self) -> np.ndarray:
        return self.env.observe(self.agent)["observation"]

    def _info(self) -> dict:
        game = self.game
        return {"seat": self.seat, "opponent": self.opponent, "turn": game.turn,
                "winner": game.winner if game.over else None}


def play_against(policy, opponent: str, games: int, seed: int = 0, **env_options) -> dict:
    """Play ``games`` games of ``policy`` against the bot ``opponent`` (seats rotating, game k on the k-th seed of
    ``seed``'s stream, so a call with the same arguments plays the same games); the tally.

    ``policy(obs, mask) -> action`` is called at each of the learner's decisions (an illegal action raises
    `RiskstatsError`); ``env_options`` go to `SingleAgentEnv` (``rules=``, ``players=``, ...). Returns a dict:
    ``games``, ``wins``, ``losses``, ``truncated`` (games stopped at the turn cap), ``decisions`` (the policy's)
    and ``turns`` (all games' turns together).

    >>> legal = lambda obs, mask: int(np.flatnonzero(mask)[0])
    >>> play_against(legal, "uniform", 0)
    Traceback (most recent call last):
    riskstats.errors.RiskstatsError: games must be at least 1, got 0
    """
    games = check_int("games", games, 1)
    if not callable(policy):
        raise RiskstatsError(f"policy must be a callable policy(obs, mask) -> action, got {policy!r}")
    env = SingleAgentEnv(opponents=opponent, seed=check_int("seed", seed, 0), **{"illegal": "raise", **env_options})
    tally = {"games": games, "wins": 0, "losses": 0, "truncated": 0, "decisions": 0, "turns": 0}
    for _ in range(games):
        obs, info = env.reset()
        done = env.game.over
        while not done:
            obs, reward, terminated, truncated, info = env.step(policy(obs, env.action_masks()))
            tally["decisions"] += 1
            done = terminated or truncated
        winner = env.game.winner
        tally["wins" if winner == env.seat else "truncated" if winner < 0 else "losses"] += 1
        tally["turns"] += env.game.turn
    return tally
