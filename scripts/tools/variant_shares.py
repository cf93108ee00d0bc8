"""How often do Secret Mission and Capital games end by their own win condition?

``python scripts/tools/variant_shares.py [games]`` plays seeded self-play games of each variant with the
objective-aware bots (4 players, all seats the same bot) and prints, per variant, the share of games won
by the variant's condition ("mission" / "capitals"), the other endings and the mean game length.
"""
import sys

from riskstats.game.rules.options import GameRules
from riskstats.runs.selfplay import play_games

CASES = {
    "mission": ("mission", GameRules(variant="mission"), "mission"),
    "mission-european-24": ("mission", GameRules(variant="mission", mission_deck="european",
                                                 mission_target_lost="24_territories"), "mission"),
    "capital": ("capital", GameRules(variant="capital"), "capitals"),
    "capital-short": ("capital", GameRules(variant="capital", capital_short=True), "capitals"),
}


def shares(games: int = 3000, players: int = 4, seed: int = 2024) -> dict:
    """Case -> (share won by the variant's own condition, win_reason counts, mean turns)."""
    result = {}
    for name, (bot, rules, reason) in CASES.items():
        table = play_games(games, players, [bot], rules=rules, seed=seed)
        result[name] = (float((table.win_reason == reason).mean()),
                        table.win_reason.value_counts().to_dict(), float(table.turns.mean()))
    return result


if __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    for name, (share, counts, turns) in shares(games).items():
        print(f"{name:22s} own condition {100 * share:6.2f}%  mean turns {turns:6.1f}  {counts}")
