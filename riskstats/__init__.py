"""riskstats: exact odds, fast simulation and full-game self-play for the board game Risk.

The public API is imported lazily, so that ``import riskstats`` (and the CLI) starts quickly and
numba is loaded only by the functions that compile kernels.

>>> import riskstats
>>> riskstats.battle_odds(3, 2, exact=True).p_win
Fraction(6610505, 10077696)
"""
from importlib import import_module

_PUBLIC = {
    "DiceRules": "riskstats.dice",
    "round_outcomes": "riskstats.dice",
    "RiskstatsError": "riskstats.errors",
    "battle_odds": "riskstats.battle",
    "BattleOdds": "riskstats.battle",
    "win_table": "riskstats.battle",
    "win_values": "riskstats.battle",
    "chain_odds": "riskstats.chain",
    "ChainOdds": "riskstats.chain",
    "attackers_needed": "riskstats.chain",
    "simulate_battles": "riskstats.simulate",
    "simulate_chain": "riskstats.simulate",
    "resolve_battles": "riskstats.simulate",
    "roll_dice": "riskstats.simulate",
    "BattleSample": "riskstats.simulate",
    "ChainSample": "riskstats.simulate",
    "wilson_interval": "riskstats.intervals",
    "Board": "riskstats.board",
    "load_board": "riskstats.board",
    "classic_board": "riskstats.board",
    "GameRules": "riskstats.game_rules",
    "Game": "riskstats.game",
    "Move": "riskstats.game",
    "GameView": "riskstats.game",
    "play_game": "riskstats.game",
    "BOTS": "riskstats.bots",
    "play_games": "riskstats.selfplay",
    "RunConfig": "riskstats.tournament",
    "run_selfplay": "riskstats.tournament",
    "run_experiment": "riskstats.experiment",
    "read_experiment": "riskstats.experiment",
    "read_results": "riskstats.results",
    "bradley_terry": "riskstats.ratings",
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
