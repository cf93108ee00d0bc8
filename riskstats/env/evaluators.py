"""A riskstats evaluator for OpenSpiel's searches on ``python_risk``: the fitted position value at the leaves,
and a policy prior from a built-in bot for PUCT.

This module owns `ValueEvaluator`, an `open_spiel.python.algorithms.mcts.Evaluator` that a researcher passes to
`mcts.MCTSBot` or `ismcts.ISMCTSBot` in place of random rollouts. It owns no value and no policy: the value is
`riskstats.game.value`'s fitted model (the compiled `_model_probs`, the same that ``position_value`` and the
``value`` bot read), the prior is the move a built-in bot (`riskstats.game.play.Game.bot_move`, by default the
``value`` bot) would play, spread over the actions whose first engine move it is.

The value of a position to seat s, from the model's P(s wins) = p_s, is the expected terminal reward
``p_s - (1 - p_s) / (P - 1)`` (+1 to a winner, -1 / (P - 1) to each other player), so the values sum to 0 as the
game's rewards do. The model reads the whole state: a perfect-information search (MCTS) sees what it clones;
ISMCTS hands the evaluator its own determinisation, so no hidden information leaks there.

>>> import pyspiel
>>> import riskstats.env.openspiel  # noqa: F401  (registers python_risk)
>>> game = pyspiel.load_game("python_risk", {"players": 2, "actions": "macro", "defend": "auto"})
>>> state = game.new_initial_state()
>>> state.apply_action(7)
>>> value = ValueEvaluator().evaluate(state)
>>> bool(abs(value.sum()) < 1e-12 and (abs(value) <= 1).all())
True
"""
from __future__ import annotations

import numpy as np

from riskstats.errors import RiskstatsError
from riskstats.game.bots.catalog import parse_bot
from riskstats.game.rules.stream import _seed
from riskstats.game.value import N_INPUTS, _model_probs, model_index


class ValueEvaluator:
    """An OpenSpiel evaluator: the fitted position value as the leaf value; a prior from a built-in bot.

    ``model``: the fitted model (`riskstats.game.value.MODELS`: "model", "strong" or "boosted"). ``bot``: the
    built-in bot spec whose move the prior favours (default "value"; None: a uniform prior). ``weight``: the
    prior's share on the bot's move (split evenly over the actions whose first engine move it is); the rest is
    spread uniformly over the legal actions, and a move that no action plays (a move pruned from the macro space)
    leaves the prior uniform. ``seed`` seeds the copies the bot plays on (it draws from the game's stream).

    The prior is asked at every new node of a search (a bot move on a copy: some milliseconds for the value
    bot at the start of a turn, when it compares its plans); OpenSpiel's ``MCTSBot`` reads it when it picks a
    child with ``SearchNode.puct_value``, ``ISMCTSBot`` with ``ChildSelectionPolicy.PUCT`` (which first expands
    every action once, so a prior only steers it after that).
    """

    def __init__(self, model: str = "model", bot: str | None = "value", weight: float = 0.75, seed: int = 0):
        self.model = model_index(model)
        if bot is not None:
            parse_bot(bot)  # an unknown bot or parameter: the catalogue's one-line error, now, not mid-search
        if not 0.0 <= weight <= 1.0:
            raise RiskstatsError(f"weight must be from 0 to 1, got {weight!r}")
        self.bot = bot
        self.weight = float(weight)
        self._rng = np.random.default_rng(seed)

    def evaluate(self, state):
        """Each player's expected reward by the model (the returns at a terminal state)."""
        if state.is_terminal() or state.game is None:
            return np.array(state.returns())
        g = state.game
        P = g.players
        probs = np.empty(P)
        X = np.empty((P, N_INPUTS))
        _model_probs(g.state, g.context.B, g.context.R, self.model, X, probs)
        return probs - (1.0 - probs) / (P - 1)

    def prior(self, state):
        """(action, probability) pairs: the chance outcomes at a chance node; else ``weight`` on the actions
        that play the bot's move first, the rest uniform."""
        if state.is_chance_node():
            return state.chance_outcomes()
        actions = state.legal_actions(state.current_player())
        uniform = [(a, 1.0 / len(actions)) for a in actions]
        if self.bot is None or len(actions) == 1:
            return uniform
        hits = self.favoured(state, actions)
        if not hits:
            return uniform
        rest = (1.0 - self.weight) / len(actions)
        return [(a, rest + (self.weight / len(hits) if a in hits else 0.0)) for a in actions]

    def favoured(self, state, actions) -> set:
        """The legal actions whose first engine move is the bot's move now (played on a copy of the state)."""
        copy = state.clone()
        g = copy.game
        _seed(g.state.rng, np.uint64(self._rng.integers(2**63)))
        move = g.bot_move(self.bot)
        encoding = state.get_game().encoding
        if not hasattr(encoding, "first_move"):  # the full encoding: the move's own id
            return {encoding.encode(state.game, move)} & set(actions)
        return {a for a in actions if encoding.first_move(state.game, a) == move}
