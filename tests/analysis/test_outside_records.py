"""The outside match's records read back and measured without Java (riskstats.analysis.outside_records): the
measured seat's metrics on synthetic games, the bootstrap ratio, the first-player split and a folder's summary."""
import csv

import numpy as np
import pandas as pd

import riskstats.analysis.outside_records as R


def _synthetic_records():
    """Two all-remote games of the measured seat 0 (four players: round r is turns 4r+1 .. 4r+4). Game 1: at its
    turn 10 start seat 2 holds 1 territory and 2 cards and seat 0 eliminates it that turn (a conversion); seat 3
    holds 2 territories but no card (no chance). Game 2: at its turn starts 20 and 24 seat 1 holds 2 territories
    and 1 card and survives (two missed chances)."""
    start = [0, 10, [20, 10, 1, 2], [60, 20, 1, 3], [2, 1, 2, 0], [0, -1, -1, -1, -1, -1], [40, 20, 12, 5]]
    game1 = {"game": 1, "players": 4, "measured": 0, "seating": "all-remote", "first": 0, "winner": 0,
             "eliminations": [[2, 0, 10, 2], [1, 0, 40, 0], [3, 0, 40, 1]], "trades": [[0, 4, 3, 0]],
             "attacks": [[0, 5, 1, 2, 10], [1, 5, 1, 0, 9], [3, 5, 1, 1, 9], [1, 5, 1, 0, 30]],
             "rolls": [[0, 4, 1, 1, 0, 1, 2], [0, 2, 3, 0, 0, 0, 1], [0, 2, 2, 1, 1, 1, 1], [1, 2, 3, 1, 1, 0, 0]],
             "occupations": [[0, 4, 3, 4], [0, 9, 3, 3]], "starts": [start, [1, 11, *start[2:]]]}
    start2 = [0, 20, [20, 2, 10, 10], [60, 2, 10, 10], [2, 1, 2, 0], [-1] * 6, [30, 30, 8, 7]]
    game2 = {"game": 2, "players": 4, "measured": 0, "seating": "all-remote", "first": 1, "winner": 3,
             "eliminations": [[0, 3, 50, 3]], "trades": [], "attacks": [[2, 3, 3, 0, 21], [2, 3, 3, 1, 22]],
             "rolls": [[0, 2, 2, 1, 2, 0, 1], [0, 1, 2, 1, None, 2, 1], [3, 3, 3, 1, 0, 2, 0]],
             "occupations": [], "starts": [start2, [0, 24, *start2[2:]]]}
    return [game1, game2]


def test_the_records_metrics_on_two_synthetic_games():
    m = R.record_metrics(_synthetic_records(), resamples=200)
    assert (m["conversion"], m["conversion_n"]) == (1 / 3, 3)
    assert (m["eliminations_per_game"], m["eliminations_per_game_n"]) == (1.5, 2)
    assert (m["attack_losses_per_conquest"], m["attack_losses_per_conquest_n"]) == (1.5, 2)  # 0 + 1 + 2 over 2
    assert m["casualties_per_conquest"] == 2.5  # and 2 lost defending against seat 3 in game 2
    assert (m["continent_share"], m["continent_share_n"]) == (1 / 3, 3)
    assert m["largest_stack_first_turn"] == 10.0
    assert (m["optional_moved_share"], m["optional_moved_share_n"]) == (1 / 7, 7)
    assert (m["rolls_on_short"], m["rolls_on_short_n"]) == (0.5, 2)  # (2, 3) retreated, (1, 2) rolled
    assert (m["rolls_on_equal"], m["rolls_on_equal_n"]) == (1.0, 2)
    # rounds 5-8 are turns 21-36: game 1's attacks are in rounds 2 and 7 (after seat 2 was out at turn 10),
    # game 2's two in round 5, one aimed at seat 0
    assert (m["targeted_share"], m["targeted_share_n"]) == (0.5, 2)
    assert (m["record_games"], m["records_checked"], m["records_off_engine"]) == (2, 0, 0)  # no engine stats
    for name in R.METRICS:
        assert m[f"{name}_low95"] <= m[name] <= m[f"{name}_high95"]
    engine = [{**r, "seating": "engine"} for r in _synthetic_records()]
    m = R.record_metrics(engine, resamples=10)
    assert m["casualties_per_conquest_n"] == 0 and m["casualties_per_conquest"] != m["casualties_per_conquest"]
    assert m["attack_losses_per_conquest"] == 1.5


def test_bootstrap_ratio_is_the_ratio_of_sums_inside_its_interval():
    value, low, high = R.bootstrap_ratio([1, 0, 2, 1], [2, 1, 2, 3], resamples=500)
    assert value == 0.5 and low < 0.5 < high
    assert all(x != x for x in R.bootstrap_ratio([], []))


def test_the_first_player_effect_splits_the_games():
    df = pd.DataFrame({"remote_seat": [0, 1, 0, 1, 0, 1], "first_player": [0, 0, 1, 1, 0, 0],
                       "remote_won": [1, 0, 0, 1, 1, 1]})
    out = R.first_player_effect(df)
    assert (out["first_games"], out["first_win_rate"]) == (3, 1.0)
    assert (out["later_games"], out["later_win_rate"]) == (3, 1 / 3)
    assert out["later_win_rate_low95"] < 1 / 3 < out["later_win_rate_high95"]
    assert R.first_player_effect(df.drop(columns="first_player")) == {}


def test_the_summary_reads_the_records_beside_a_csv_and_older_csvs_without_the_new_columns(tmp_path):
    rows = [{**dict.fromkeys(R.FIELDS, 0), "game": g, "players": 4, "remote": "x", "opponents": "domination:hard",
             "remote_seat": 0, "first_player": 0 if g == 1 else 1, "winner": 0 if g == 1 else 3,
             "remote_won": int(g == 1), "seating": "all-remote", "delegate": "attack@hard"} for g in (1, 2)]
    with (tmp_path / "new_4p.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, R.FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    for record in _synthetic_records():
        R.append_record(tmp_path / "new_4p.jsonl.gz", record)
    with (tmp_path / "old_4p.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, R.FIELDS[:13], extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    table = R.summary(tmp_path).set_index("file")
    new, old = table.loc["new_4p.csv"], table.loc["old_4p.csv"]
    assert (new["record_games"], new["conversion"], new["delegate"]) == (2, 1 / 3, "attack@hard")
    assert (new["first_games"], new["first_win_rate"], new["later_win_rate"]) == (1, 1.0, 0.0)
    assert old["games"] == 2 and old["first_games"] != old["first_games"]  # nan: no first_player column
    text = R.summary_text(table.reset_index())
    assert "moving first: 1.000" in text and "conversion: 0.333" in text


def test_the_summary_gives_wilson_intervals_and_the_fair_share(tmp_path):
    rows = [{**dict.fromkeys(R.FIELDS, 0), "game": g, "players": 4, "remote": "x", "opponents": "domination:hard",
             "winner": g % 4, "remote_won": int(g % 4 == 0)} for g in range(40)]
    with (tmp_path / "x_4p.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, R.FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    table = R.summary(tmp_path)
    row = table.iloc[0]
    assert (row["games"], row["wins"], row["fair_share"]) == (40, 10, 0.25)
    assert row["low95"] < 0.25 < row["high95"]


def test_packing_keeps_every_record_and_a_run_appends_to_the_packed_file(tmp_path):
    """Issue 53 (data weight): a records file packed to xz reads back to the same records, the original goes,
    `records_beside` finds the packed file, and appending to it (a resumed run) adds a record readable with the
    rest."""
    gz = tmp_path / "x_4p.jsonl.gz"
    records = _synthetic_records()
    for record in records:
        R.append_record(gz, record)
    packed = R.pack_records(gz)
    assert packed == tmp_path / "x_4p.jsonl.xz" and not gz.exists()
    assert R.read_records(packed) == records
    assert R.records_beside(tmp_path / "x_4p.csv") == packed
    R.append_record(packed, {"game": 3})
    assert R.read_records(packed) == records + [{"game": 3}]
    assert R.pack_records(packed) == packed


def test_the_interval_by_blocks_agrees_with_wilson_on_independent_games_and_widens_on_dependent_ones():
    """Issue 54's check of the instrument: 600 independent games at a 30% win rate give a block interval about as
    wide as Wilson's; the same games with neighbours alike (runs of 25 equal outcomes) give one far wider."""
    from riskstats.intervals import wilson_interval

    rng = np.random.default_rng(54)
    independent = (rng.random(600) < 0.3).astype(int)
    low, high, blocks = R.block_interval(independent)
    wl, wh = wilson_interval(int(independent.sum()), 600)
    assert blocks == 12 and low < independent.mean() < high
    assert 0.7 < (high - low) / (wh - wl) < 1.4
    alike = np.repeat((rng.random(24) < 0.3).astype(int), 25)
    low, high, _ = R.block_interval(alike)
    wl, wh = wilson_interval(int(alike.sum()), 600)
    assert (high - low) > 3 * (wh - wl)
    assert np.isnan(R.block_interval(independent[:60])[0])  # one block: no interval
