"""The outside match's records and their metrics: what a game against Domination's AIs in Domination's own engine
left on file (``data/outside/``, docs/outside.md, "The records"), read back and measured without Java.

The driver (``scripts/outside/outside_domination.py``) speaks Domination's protocol and writes, per match, a CSV of
results (columns `FIELDS`) and beside it a records file (``<stem>.jsonl.gz``, packed to ``.jsonl.xz`` once
finished, one JSON line a game: lists of lists in the field order of `RECORD_FIELDS`). This module owns those two
formats and everything read from them: `read_records`, `append_record`, `records_beside`, `pack_records`; the
measured seat's `METRICS` per game (`record_metrics`, with bootstrap intervals over games, `bootstrap_ratio`),
where a record disagrees with the engine's own statistics (`engine_disagreements`), the win rate moving first and
later (`first_player_effect`), the win rate's interval by blocks of games (`block_interval`), and a folder's
summary (`summary`, `summary_text`: the driver's ``--summary`` writes it as ``summary.csv``, which
`riskstats.analysis.outside` reads for the pages).
"""
from __future__ import annotations

import gzip
import json
import lzma
from pathlib import Path

import numpy as np

from riskstats.intervals import wilson_interval

FIELDS = ("game", "seed", "players", "remote_seat", "remote", "opponents", "winner", "remote_won", "turns",
          "reason", "decisions", "fallbacks", "seconds", "first_player", "seating", "delegate", "cards")
"""The results CSV's columns. The first 13 are a contract (older files have only them); ``first_player``: the seat
that moved first; ``seating``: ``engine`` (the engine plays its AI seats) or ``all-remote`` (every seat's
decisions pass through the driver), ``+balanced`` when the first player was balanced; ``delegate``: the measured
seat's phases a Domination AI played (``attack@hard``), empty if none; ``cards``: Domination's card mode (the
driver's ``CARD_MODES``; a file without the column played ``increasing``)."""

ENGINE_STATS = ("kills", "casualties", "attacks", "retreats", "countries_won", "countries_lost", "attacked",
                "reinforcements")
"""A record's ``engine``: per seat, Domination's own statistics summed over the seat's turns (the bridge's
``over`` message), in this order; absent with a bridge older than the ``stats`` field."""


RECORD_FIELDS = {
    "eliminations": ("seat", "by", "turn", "cards"),
    "trades": ("seat", "value", "hand", "elimination_trade"),
    "attacks": ("seat", "from_armies", "to_armies", "defender", "turn"),
    "rolls": ("seat", "n", "m", "rolled", "attacker_lost", "defender_lost", "defender"),
    "occupations": ("seat", "available", "must", "moved"),
    "starts": ("seat", "turn", "territories", "armies", "cards", "continents",
               ("border_armies", "interior_armies", "largest_stack", "one_army_territories")),
    "engine": ENGINE_STATS,
}
"""The fields of each list in a record (docs/outside.md, "The records"): ``turn`` is Domination's count of turns,
``players + 1`` at the first turn after the setup (round ``1 + (turn - players - 1) // players`` while nobody is
out); ``n``: the attacker's armies able to roll, ``m``: the defender's armies (a roll decision; the attacker's
losses in the throw that ended the game come from the engine's statistics, null without them); ``available``:
the armies that could move in, ``must``: the dice thrown last (the least to move in), ``moved``: the armies moved
in (all three equal when the engine moved them itself, having no choice); ``continents``: the owner of each
continent in the board message's order, -1 if nobody holds it whole; the last list of a start is the mover's."""


SUFFIXES = (".jsonl.xz", ".jsonl.gz", ".jsonl")
"""A records file's names, smallest first: xz (what `pack_records` leaves: the same JSON lines, about half the
gzip size), gzip (what a run appends to) or plain."""


def _open_records(path: Path, mode: str):
    """A records file, xz- or gzip-compressed by its name's ending (appending adds an xz stream or a gzip
    member; both formats read the concatenation back as one file)."""
    if path.suffix == ".xz":
        return lzma.open(path, mode + "t")
    return gzip.open(path, mode + "t") if path.suffix == ".gz" else path.open(mode)


def read_records(path: Path) -> list[dict]:
    """The records in a ``--records`` file (``.jsonl``, ``.jsonl.gz`` or ``.jsonl.xz``)."""
    with _open_records(path, "r") as f:
        return [json.loads(line) for line in f if line.strip()]


def append_record(path: Path, record: dict) -> None:
    with _open_records(path, "a") as f:
        f.write(json.dumps(record, separators=(",", ":")) + "\n")


def records_beside(csv_path: Path) -> Path | None:
    """The records file that goes with a result CSV: the same name with one of `SUFFIXES`, None if none."""
    for suffix in SUFFIXES:
        path = csv_path.with_suffix(suffix)
        if path.exists():
            return path
    return None


def pack_records(path: Path) -> Path:
    """Rewrite a ``.jsonl.gz`` or ``.jsonl`` records file as ``.jsonl.xz`` (one xz stream at the strongest preset:
    the same lines, about half gzip's size), check that it reads back to the same records, remove the original
    and return the new path. A finished match's records are packed; a run appends to whichever file
    `records_beside` finds."""
    path = Path(path)
    if path.suffix == ".xz":
        return path
    records = read_records(path)
    packed = path.with_name(path.name.removesuffix(".gz").removesuffix(".jsonl") + ".jsonl.xz")
    text = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
    with lzma.open(packed, "wt", preset=9 | lzma.PRESET_EXTREME) as f:
        f.write(text)
    if read_records(packed) != records:  # pragma: no cover - a failed write
        packed.unlink()
        raise OSError(f"{packed} did not read back as {path}: left {path} as it was")
    path.unlink()
    return packed


def bootstrap_ratio(num, den, resamples: int = 1000, seed: int = 0) -> tuple[float, float, float]:
    """sum(num) / sum(den) over games, with its 95% percentile interval from ``resamples`` resamples of the
    games (nan where a resample has no denominator)."""
    num, den = np.asarray(num, float), np.asarray(den, float)
    if len(num) == 0 or den.sum() == 0:
        return float("nan"), float("nan"), float("nan")
    idx = np.random.default_rng(seed).integers(0, len(num), (resamples, len(num)))
    with np.errstate(invalid="ignore", divide="ignore"):
        ratios = num[idx].sum(1) / den[idx].sum(1)
    ratios[~np.isfinite(ratios)] = np.nan  # a resample without a denominator
    low, high = np.nanpercentile(ratios, [2.5, 97.5])
    return float(num.sum() / den.sum()), float(low), float(high)


BLOCK = 50
"""Games per block in `block_interval`: consecutive game numbers, long enough for a block's mean to be near normal."""


def block_interval(won, block: int = BLOCK) -> tuple[float, float, int]:
    """The 95% interval of a win rate by blocks of games (issue 54: the instrument's check): ``won`` (0/1 per game,
    in game-number order) cut into consecutive blocks of ``block`` games (a last block of fewer is left out), and a
    t-interval on the blocks' means. Games that are not independent (neighbouring seeds that draw alike, a drift
    within a run) widen it beyond the Wilson interval; independent games give about the same width. (nan, nan, k)
    with fewer than 2 blocks."""
    from scipy.stats import t

    won = np.asarray(won, float)
    k = len(won) // block
    if k < 2:
        return float("nan"), float("nan"), k
    means = won[:k * block].reshape(k, block).mean(axis=1)
    half = t.ppf(0.975, k - 1) * means.std(ddof=1) / np.sqrt(k)
    return float(means.mean() - half), float(means.mean() + half), k


METRICS = {
    "conversion": "eliminations of an opponent with <= 2 territories and >= 1 card at the measured seat's turn "
                  "start, in that turn, per such opportunity",
    "eliminations_per_game": "opponents the measured seat eliminated, per game",
    "casualties_per_conquest": "armies the measured seat lost, attacking and defending, per territory it "
                               "conquered (Domination's casualties statistic; all-remote records only)",
    "attack_losses_per_conquest": "armies the measured seat lost in its own attacks, per territory it conquered",
    "continent_share": "share of the measured seat's turn starts at which it holds a continent",
    "largest_stack_first_turn": "the measured seat's largest stack at its first turn start",
    "optional_moved_share": "share of the optional armies (available - must) moved in after a conquest",
    "rolls_on_short": "share of roll decisions with n <= 2 and n < m at which it rolled on",
    "rolls_on_equal": "share of roll decisions with n = m at which it rolled on",
    "targeted_share": "share of the opponents' declared attacks aimed at the measured seat in rounds 5-8, while "
                      "every seat is alive (fair: 1 / (players - 1); all-remote records only)",
}
"""The records' metrics of the measured seat (`record_metrics`): n = armies able to roll, m = defending armies."""


def _game_metrics(rec: dict) -> dict:
    """Each metric's (numerator, denominator) in one game's record."""
    s = rec["measured"]
    elims = {(q, turn) for q, by, turn, _ in rec["eliminations"] if by == s}
    starts = [st for st in rec["starts"] if st[0] == s]
    chances = [(q, st[1]) for st in starts for q, (terr, cards) in enumerate(zip(st[2], st[4]))
               if q != s and 0 < terr <= 2 and cards >= 1]
    rolls = [r for r in rec["rolls"] if r[0] == s]
    occupations = [o for o in rec["occupations"] if o[0] == s]
    short = [r[3] for r in rolls if r[1] <= 2 and r[1] < r[2]]
    equal = [r[3] for r in rolls if r[1] == r[2]]
    players, everyone = rec["players"], rec.get("seating", "").startswith("all-remote")
    own_losses = sum(r[4] for r in rolls if r[4] is not None)
    defence_losses = sum(r[5] for r in rec["rolls"] if r[0] != s and r[6] == s and r[5] is not None)
    first_out = min((turn for _, _, turn, _ in rec["eliminations"]), default=None)
    rounds = [a for a in rec["attacks"] if a[0] != s and 5 <= 1 + (a[4] - players - 1) // players <= 8
              and (first_out is None or a[4] < first_out)]
    unseen = (0, 0)  # the engine played the AI seats: their decisions are not in the record
    return {"conversion": (sum(c in elims for c in chances), len(chances)),
            "eliminations_per_game": (sum(by == s for _, by, _, _ in rec["eliminations"]), 1),
            "casualties_per_conquest": (own_losses + defence_losses, len(occupations)) if everyone else unseen,
            "attack_losses_per_conquest": (own_losses, len(occupations)),
            "continent_share": (sum(s in st[5] for st in starts), len(starts)),
            "largest_stack_first_turn": (starts[0][6][2], 1) if starts else (0, 0),
            "optional_moved_share": (sum(o[3] - o[2] for o in occupations), sum(o[1] - o[2] for o in occupations)),
            "rolls_on_short": (sum(short), len(short)), "rolls_on_equal": (sum(equal), len(equal)),
            "targeted_share": (sum(a[3] == s for a in rounds), len(rounds)) if everyone else unseen}


def engine_disagreements(rec: dict) -> list[str]:
    """Where an all-remote record disagrees with the engine's own statistics (``engine``; none without them):
    per seat, the kills and casualties summed from the rolls, the declared attacks, the retreats (a retreat
    decision, or a throw that left one army: the engine counts both) and the conquests (the occupations; the
    conquest that ends the game has none). Empty when the record holds what the engine counted."""
    if "engine" not in rec or not rec.get("seating", "").startswith("all-remote"):
        return []
    out = []
    for s, stats in enumerate(rec["engine"]):
        engine = dict(zip(ENGINE_STATS, stats))
        own = [r for r in rec["rolls"] if r[0] == s]
        against = [r for r in rec["rolls"] if r[0] != s and r[6] == s]
        ours = {"kills": sum(r[5] for r in own) + sum(r[4] or 0 for r in against),
                "casualties": sum(r[4] or 0 for r in own) + sum(r[5] for r in against),
                "attacks": sum(a[0] == s for a in rec["attacks"]),
                "retreats": sum(r[3] == 0 or (r[4] == r[1] and r[5] < r[2]) for r in own),
                "countries_won": sum(o[0] == s for o in rec["occupations"]) + (s == rec["winner"])}
        out += [f"seat {s} {k}: {v} in the record, {engine[k]} in the engine" for k, v in ours.items()
                if v != engine[k]]
    return out


def record_metrics(records: list[dict], resamples: int = 1000, seed: int = 0) -> dict:
    """The measured seat's `METRICS` over games' records: per metric its value, 95% bootstrap interval (games
    resampled) and n (the denominator: opportunities, conquests, turn starts, decisions; games for the
    per-game ones)."""
    per_game = [_game_metrics(r) for r in records]
    checked = [r for r in records if "engine" in r and r.get("seating", "").startswith("all-remote")]
    out = {"record_games": len(records), "records_checked": len(checked),
           "records_off_engine": sum(bool(engine_disagreements(r)) for r in checked)}
    for name in METRICS:
        num = [g[name][0] for g in per_game]
        den = [g[name][1] for g in per_game]
        value, low, high = bootstrap_ratio(num, den, resamples, seed)
        out.update({name: value, f"{name}_low95": low, f"{name}_high95": high, f"{name}_n": int(sum(den))})
    return out


def first_player_effect(df) -> dict:
    """The measured seat's win rate when it moved first and when it did not, with 95% Wilson intervals (rows
    with a ``first_player``)."""
    out = {}
    if "first_player" not in df or df["first_player"].isna().all():
        return out
    known = df[df["first_player"].notna()]
    moved_first = known["first_player"].astype(int) == known["remote_seat"].astype(int)
    for label, part in (("first", known[moved_first]), ("later", known[~moved_first])):
        wins, n = int(part["remote_won"].sum()), len(part)
        low, high = wilson_interval(wins, n) if n else (float("nan"), float("nan"))
        out.update({f"{label}_games": n, f"{label}_win_rate": wins / n if n else float("nan"),
                    f"{label}_win_rate_low95": low, f"{label}_win_rate_high95": high})
    return out


def summary(folder: Path):
    """Each CSV's win rate of the remote seat with its 95% Wilson interval and the fair share, and its interval by
    blocks of games (`block_interval`); its win rate when moving first and later (`first_player_effect`); and where
    a records file beside it (`records_beside`) holds its records, their metrics (`record_metrics`)."""
    import pandas as pd

    rows = []
    for path in sorted(folder.glob("*.csv")):
        if path.name == "summary.csv":
            continue
        df = pd.read_csv(path)
        if df.empty:
            continue
        wins, n = int(df["remote_won"].sum()), len(df)
        low, high = wilson_interval(wins, n)
        delegate = str(df["delegate"].iloc[0]) if "delegate" in df and df["delegate"].notna().iloc[0] else ""
        row = {"file": path.name, "remote": df["remote"].iloc[0], "opponents": df["opponents"].iloc[0],
               "players": int(df["players"].iloc[0]), "games": n, "wins": wins, "win_rate": wins / n,
               "low95": low, "high95": high, "fair_share": 1 / int(df["players"].iloc[0]),
               "draws": int((df["winner"] < 0).sum()), "fallbacks": int(df["fallbacks"].sum()),
               "mean_turns": float(df["turns"].mean()), "seconds_per_game": float(df["seconds"].mean()),
               "delegate": delegate, "cards": str(df["cards"].iloc[0]) if "cards" in df else "increasing",
               **first_player_effect(df)}
        row["block_low95"], row["block_high95"], row["blocks"] = block_interval(df.sort_values("game").remote_won)
        records = records_beside(path)
        if records is not None:
            games = set(df["game"].astype(int))
            row.update(record_metrics([r for r in read_records(records) if r["game"] in games]))
        rows.append(row)
    return pd.DataFrame(rows)


def summary_text(table) -> str:
    """The summary as text: the win rates (overall, moving first, later), then the records' metrics."""
    if table.empty:
        return "no results"

    def present(x) -> bool:
        return x is not None and x == x  # not missing, not nan

    def interval(row, key):
        value, low, high = row.get(key), row.get(f"{key}_low95"), row.get(f"{key}_high95")
        return f"{value:.3f} [{low:.3f}, {high:.3f}]" if present(value) else "-"

    lines = []
    for _, row in table.iterrows():
        row = row.to_dict()
        lines.append(f"{row['file']}: {row['remote']} vs {row['opponents']}, {row['players']} players"
                     + (f", delegate {row['delegate']}" if row.get("delegate") else "")
                     + f": {row['wins']}/{row['games']} = {row['win_rate']:.3f} [{row['low95']:.3f}, "
                     f"{row['high95']:.3f}] (fair {row['fair_share']:.3f}); draws {row['draws']}, fallbacks "
                     f"{row['fallbacks']}, {row['mean_turns']:.1f} turns, {row['seconds_per_game']:.2f} s/game")
        if present(row.get("block_low95")):
            lines.append(f"    by blocks of {BLOCK} games: [{row['block_low95']:.3f}, {row['block_high95']:.3f}] "
                         f"({int(row['blocks'])} blocks)")
        if present(row.get("first_games")):
            lines.append(f"    moving first: {interval(row, 'first_win_rate')} (n={int(row['first_games'])}); "
                         f"later: {interval(row, 'later_win_rate')} (n={int(row['later_games'])})")
        if present(row.get("record_games")):
            checked = int(row["records_checked"])
            check = (f"{int(row['records_off_engine'])} of {checked} checked disagree with the engine's statistics"
                     if checked else "none checked against the engine's statistics: not all-remote")
            lines.append(f"    records of {int(row['record_games'])} games ({check}):")
            for name in METRICS:
                lines.append(f"      {name}: {interval(row, name)} (n={int(row[f'{name}_n'])})")
    return "\n".join(lines)
