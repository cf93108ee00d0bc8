"""Research environments over the full game: one action encoding and observation, a PettingZoo AEC env,
an OpenSpiel game and a compiled vectorised env.

Owns the action encoding (`actions`: ids, legal-action mask, round trips with `riskstats.game.play.Move`), macro
actions (`macro`: a small space of whole decisions, played through the engine), automatic defence (`defence`), the
environments' option names (`spaces`: ``actions``, ``defend``, ``observation``), the per-seat observation
(`observation`, raw or log1p), the PettingZoo environment (`pettingzoo`), the OpenSpiel game ``python_risk``
(`openspiel`, registered on import), the riskstats evaluator an OpenSpiel search can take (`evaluators`: the fitted
position value as leaf value, the value bot's move as prior), `VectorEnv` (`vector`, many games per compiled step)
and one seat against built-in bots as a Gymnasium environment for single-agent learners (`single_agent`:
`SingleAgentEnv`, `play_against`), and one seat played by text for language-model agents (`text`: `TextEnv`,
prompts with the exact odds of each attack and a reply parser no string breaks). Every rule is `riskstats.game`'s:
the environments call the engine's legal masks, checks and apply, never a copy. `pettingzoo`, `openspiel`,
`evaluators` and `single_agent` need the ``rl`` extra (``pip install "riskstats[rl]"``; ``learn`` adds sb3-contrib
and torch for scripts/make/train_ppo.py); nothing here is imported by ``import riskstats`` or the CLI.
docs/environments.md is the guide.
May import: `riskstats.game`, `riskstats.odds` and the foundations.

>>> from riskstats.env import VectorEnv
>>> VectorEnv(2, players=4).n_actions
5971
"""
from importlib import import_module

_PUBLIC = {
    "VectorEnv": "riskstats.env.vector",
    "ActionEncoding": "riskstats.env.actions",
    "MacroEncoding": "riskstats.env.macro",
    "ObservationLayout": "riskstats.env.observation",
    "TextEnv": "riskstats.env.text",
}
__all__ = sorted(_PUBLIC)


def __getattr__(name: str):
    if name in _PUBLIC:
        return getattr(import_module(_PUBLIC[name]), name)
    raise AttributeError(f"module 'riskstats.env' has no attribute {name!r}")
