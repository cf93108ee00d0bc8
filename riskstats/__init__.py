"""riskstats: exact odds, fast simulation and full-game self-play for the board game Risk.

The package is built in layers, each importing only the layers before it (``tests/test_layout.py``
holds it to that)::

    errors, _numba, intervals,  the foundations: the error type, numba options, confidence intervals,
    pieces                      compiled work as short calls (so that Ctrl-C stops it at once)
    odds/                       dice rule, exact battle and chain odds, the compiled simulator
    game/                       board, rules, state, engine, bots, playing a game
    runs/                       self-play in bulk, resumable runs and their files, Dask, experiments
    env/                        research environments: action encoding, PettingZoo, OpenSpiel, VectorEnv
    stats/, plots               ratings, reports, plots (``riskstats.plots``: every plot, the board map)
    analysis/                   the notebooks' questions, one module per topic
    cli                         the ``riskstats`` command

The public API is imported lazily, so that ``import riskstats`` (and the CLI) starts quickly and
numba is loaded only by the functions that compile kernels.

>>> import riskstats
>>> riskstats.battle_odds(3, 2, exact=True).p_win
Fraction(6610505, 10077696)
"""
from importlib import import_module

_PUBLIC = {
    "DiceRules": "riskstats.odds.dice",
    "round_outcomes": "riskstats.odds.dice",
    "BalanceRules": "riskstats.odds.balance",
    "balanced_win_chance": "riskstats.odds.balance",
    "with_augments": "riskstats.odds.augments",
    "RiskstatsError": "riskstats.errors",
    "battle_odds": "riskstats.odds.battle",
    "BattleOdds": "riskstats.odds.battle",
    "win_table": "riskstats.odds.battle",
    "win_values": "riskstats.odds.battle",
    "chain_odds": "riskstats.odds.chain",
    "ChainOdds": "riskstats.odds.chain",
    "attackers_needed": "riskstats.odds.chain",
    "policy": "riskstats.odds.policy",
    "chain_policy": "riskstats.odds.policy",
    "AttackPolicy": "riskstats.odds.policy",
    "simulate_policy": "riskstats.odds.policy_simulate",
    "PolicySample": "riskstats.odds.policy_simulate",
    "simulate_battles": "riskstats.odds.simulate",
    "simulate_chain": "riskstats.odds.simulate",
    "resolve_battles": "riskstats.odds.simulate",
    "roll_dice": "riskstats.odds.simulate",
    "BattleSample": "riskstats.odds.simulate",
    "ChainSample": "riskstats.odds.simulate",
    "wilson_interval": "riskstats.intervals",
    "Board": "riskstats.game.rules.board",
    "load_board": "riskstats.game.rules.board",
    "classic_board": "riskstats.game.rules.board",
    "GameRules": "riskstats.game.rules.options",
    "Game": "riskstats.game.play",
    "Move": "riskstats.game.play",
    "GameView": "riskstats.game.play",
    "play_game": "riskstats.game.play",
    "replay_events": "riskstats.game.replay",
    "check_invariants": "riskstats.game.invariants",
    "MOVES": "riskstats.game.rules.state",
    "EVENTS": "riskstats.game.rules.state",
    "LOG_COLS": "riskstats.game.rules.state",
    "BOTS": "riskstats.game.bots.catalog",
    "CATALOG": "riskstats.game.bots.catalog",
    "parse_bot": "riskstats.game.bots.catalog",
    "rollouts": "riskstats.game.rollout",
    "evaluate": "riskstats.game.evaluate",
    "search_plans": "riskstats.game.search",
    "position_value": "riskstats.game.evaluate",
    "Evaluation": "riskstats.game.evaluate",
    "play_games": "riskstats.runs.selfplay",
    "game_seeds": "riskstats.runs.selfplay",
    "check_games": "riskstats.runs.selfplay",
    "RunConfig": "riskstats.runs.tournament",
    "run_selfplay": "riskstats.runs.tournament",
    "run_experiment": "riskstats.runs.experiment",
    "tune": "riskstats.runs.tune",
    "measure_bot": "riskstats.runs.tune",
    "read_experiment": "riskstats.runs.experiment",
    "read_results": "riskstats.runs.results",
    "bradley_terry": "riskstats.stats.ratings",
    "data_dir": "riskstats.analysis.paths",
    "plackett_luce": "riskstats.stats.ratings",
    "plackett_luce_fit": "riskstats.stats.ratings",
    "luce": "riskstats.stats.ratings",
    "luce_fit": "riskstats.stats.ratings",
    "rating_differences": "riskstats.stats.ratings",
    "report": "riskstats.stats.report",
    "compare_rates": "riskstats.stats.compare",
    "rank_rates": "riskstats.stats.compare",
    "versus_share": "riskstats.stats.compare",
    "treatment_effect": "riskstats.stats.compare",
    "treatment_effects": "riskstats.stats.compare",
    "paired_difference_interval": "riskstats.stats.compare",
}
__all__ = sorted(_PUBLIC)


def __getattr__(name: str):
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("riskstats")
        except PackageNotFoundError:  # a source tree that was not installed
            return "0+unknown"
    if name in _PUBLIC:
        return getattr(import_module(_PUBLIC[name]), name)
    raise AttributeError(f"module 'riskstats' has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *_PUBLIC])
