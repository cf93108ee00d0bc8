"""The solved attack policy inside the continent bot's attack decisions, measured in real games (issue #19 §3).

``python scripts/make/solved_policy_in_play.py --games 4000 --out data/solved_policy`` plays, for 2, 3 and 4
players and two opponent populations (`riskstats.analysis.solved_play.POPULATIONS`), one seat with the
continent bot's usual rule (control) and with the solved stop rule for kill values 0, 0.5 and 1 (conquest
worth 4 armies), every arm on the same seeded games with seats rotated; it writes ``effects.csv`` (one
row per treatment: win rates with Wilson intervals, the paired effect with its McNemar-matched interval,
Holm over all rows, truncations) and ``best_kill.csv`` (per population and player count, the kill value
that wins most) and prints both.
"""
import argparse
import sys
import time
from pathlib import Path

from riskstats.analysis.solved_play import best_kill, solved_policy_effects


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000, help="games per arm")
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--kills", default="0,0.5,1")
    parser.add_argument("--value", type=float, default=4.0)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--out", default="data/solved_policy")
    args = parser.parse_args(argv)
    start = time.process_time()
    effects = solved_policy_effects(args.games, [int(p) for p in args.players.split(",")],
                                    [float(k) for k in args.kills.split(",")], args.value, seed=args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    effects.to_csv(out / "effects.csv", index=False, float_format="%.6g")
    best = best_kill(effects)
    best.to_csv(out / "best_kill.csv", index=False, float_format="%.6g")
    command = "python scripts/make/solved_policy_in_play.py " + " ".join(argv if argv is not None else sys.argv[1:])
    (out / "README.md").write_text(
        "# The solved attack policy in play\n\n"
        f"Made by `{command}` ({time.process_time() - start:.0f} CPU s). See the script's docstring and "
        "`riskstats.analysis.solved_play` for the design; read by `notebooks/05_attack_decisions.ipynb`.\n\n"
        "- `effects.csv`: one row per population, player count and kill value: the treated seat's win rate "
        "with the usual rule (control) and with the solved stop rule (treated), 95% Wilson intervals, the "
        "paired effect and its 95% interval (agrees with exact McNemar), p_value, p_holm (Holm over all rows), "
        "discordant games, truncated games per arm (no winner), mean turns.\n"
        "- `best_kill.csv`: per population and player count, the kill value with the highest treated win rate "
        "and whether it beats the usual rule (Holm p < 0.05 over all rows) or the other kill values (Wilson "
        "intervals separated).\n")
    print(effects.round(4).to_string())
    print(best.round(4).to_string())


if __name__ == "__main__":
    main()
