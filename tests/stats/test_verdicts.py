"""Verdicts of the robustness table's findings under the top tier (issue #29) and the head-to-head tiers (issue #39)."""
import io

import numpy as np
import pandas as pd
import pytest

from riskstats.errors import RiskstatsError
from riskstats.runs.tiers import TIER_SETS
from riskstats.stats.robustness import ROBUSTNESS_COLUMNS, robustness_rows, write_robustness
from riskstats.stats.verdicts import (
    ADJUSTED_COLUMNS,
    VERDICTS,
    adjust,
    finding_verdicts,
    pair_tiers,
    tiers_table,
    write_verdicts,
)

TOP = TIER_SETS["top"]  # the former top tier: these tests judge by it (the judged_by_top fixture)
SEARCH, MODEL = TOP["search"]["population"], TOP["search:value=model"]["population"]
OLD = "value in every seat (strong)"
HEURISTIC = "continent in every seat (heuristic)"
CLEAR, NULL, BELOW = (0.10, 0.05, 0.15), (0.01, -0.04, 0.06), (-0.10, -0.15, -0.05)
"""An estimate and 95% interval clearly above 0, one around 0 and one clearly below 0."""


def _rows(notebook, finding, cells, **options):
    """Robustness rows of one finding "A beats B" (reference 0): cells are (population, interval, n)."""
    est = pd.DataFrame({"population": [c[0] for c in cells], "bots": "b", "n": [c[2] if len(c) > 2 else 1000
                                                                              for c in cells],
                        "estimate": [c[1][0] for c in cells], "ci_low": [c[1][1] for c in cells],
                        "ci_high": [c[1][2] for c in cells]})
    return robustness_rows(notebook, finding, est, est.ci_low > 0, est.ci_high < 0, reference=0.0, **options)


def _table():
    return pd.concat([
        _rows("02", "holds", [(SEARCH, CLEAR, 800), (MODEL, CLEAR, 600), (OLD, CLEAR)]),
        _rows("02", "fails", [(SEARCH, BELOW), (MODEL, BELOW), (OLD, CLEAR), (HEURISTIC, CLEAR)]),
        _rows("03_card_escalation", "tier-dependent", [(SEARCH, CLEAR), (MODEL, BELOW), (OLD, BELOW)]),
        _rows("04", "inconclusive", [(SEARCH, NULL), (SEARCH, NULL, 500), (MODEL, NULL), (OLD, NULL)]),
        _rows("04", "one tier shows it", [(SEARCH, CLEAR), (MODEL, NULL)]),
        _rows("04", "mixed", [(SEARCH, CLEAR), (SEARCH, BELOW), (MODEL, CLEAR)]),
        _rows("07", "no top tier", [(OLD, CLEAR), (HEURISTIC, NULL)]),
    ], ignore_index=True)


def test_each_verdict_class_follows_the_issue_rule(judged_by_top):
    frame = finding_verdicts(_table())
    assert list(frame.columns) == [
        "notebook", "finding", "verdict", "verdict_unadjusted", "verdict search", "verdict search:value=model",
        "tiers", "n_top", "search", "search:value=model",
        "heuristic", "value:rollouts=1:plans=4", "changed", "old_estimate", "new_estimate", "complete", "note",
        "outside", "outside_estimate", "outside_bots"]
    verdicts = frame.set_index("finding")
    assert verdicts.verdict.to_dict() == {"holds": "holds", "fails": "fails", "tier-dependent": "tier-dependent",
                                          "inconclusive": "inconclusive", "mixed": "mixed",
                                          "one tier shows it": "tier-dependent", "no top tier": "no top-tier rows"}
    assert set(verdicts.verdict) <= set(VERDICTS)
    assert verdicts.loc["holds", "tiers"] == "search; search:value=model" and verdicts.loc["holds", "n_top"] == 600
    assert verdicts.loc["holds", "search"] == "0.1 [0.05, 0.15] (800)"
    assert verdicts.loc["inconclusive", "search"] == "0.01 [-0.04, 0.06] (1000); 0.01 [-0.04, 0.06] (500)"
    # issue #39: one tier showing the claim and the other nothing is tier-dependent, and each tier's verdict says so
    assert verdicts.loc["one tier shows it", ["verdict search", "verdict search:value=model"]].tolist() == [
        "holds", "inconclusive"]
    assert verdicts.loc["tier-dependent", ["verdict search", "verdict search:value=model"]].tolist() == [
        "holds", "reversed"]
    assert verdicts.loc["mixed", "verdict search"] == "mixed" and verdicts.loc["no top tier", "verdict search"] == ""
    assert pd.isna(verdicts.loc["no top tier", "n_top"]) and verdicts.loc["no top tier", "tiers"] == ""
    assert verdicts.notebook.tolist() == ["02", "02", "03", "04", "04", "04", "07"]


def test_the_old_strong_population_is_context_and_changes_are_flagged(judged_by_top):
    verdicts = finding_verdicts(_table()).set_index("finding")
    assert verdicts.loc["fails", ["value:rollouts=1:plans=4", "heuristic"]].tolist() == ["holds", "holds"]
    assert verdicts.loc["no top tier", "heuristic"] == "inconclusive" and verdicts.loc["holds", "heuristic"] == ""
    assert verdicts.changed.to_dict() == {"holds": False, "fails": True, "tier-dependent": True,
                                          "inconclusive": False, "mixed": False, "one tier shows it": False,
                                          "no top tier": False}
    assert verdicts.loc["fails", "old_estimate"] == "0.1 [0.05, 0.15] (1000)"
    assert verdicts.loc["fails", "new_estimate"].startswith("search: -0.1 [-0.15, -0.05] (1000); search:value=model")
    assert verdicts.loc["holds", "old_estimate"] == "" and verdicts.loc["holds", "new_estimate"] == ""


def test_one_tier_alone_judges_and_says_so(judged_by_top):
    verdicts = finding_verdicts(_rows("06", "x", [(MODEL, CLEAR), (OLD, CLEAR)])).iloc[0]
    assert verdicts.verdict == "holds (search:value=model only)" and verdicts.tiers == "search:value=model"
    assert not verdicts.complete
    assert verdicts.search == ""


def test_the_earlier_small_search_check_counts_as_tier_search(judged_by_top):
    rows = _rows("02", "x", [("search in every seat (strong, small check)", BELOW), (MODEL, BELOW)])
    assert finding_verdicts(rows).iloc[0][["verdict", "tiers"]].tolist() == ["fails", "search; search:value=model"]


def test_holm_over_the_whole_table_can_overturn_a_marginal_row(judged_by_top):
    """A row whose interval barely excludes 0 holds alone but not once 5 other tests share the 5%."""
    marginal = (0.1, 0.001, 0.199)  # p about 0.047
    one = _rows("02", "x", [(SEARCH, marginal), (MODEL, CLEAR)])
    assert finding_verdicts(one).verdict.iloc[0] == "holds"
    others = pd.concat([_rows("04", f"f{i}", [(SEARCH, NULL, 1000 + i)]) for i in range(5)], ignore_index=True)
    table = adjust(pd.concat([one, others], ignore_index=True))
    assert table.p_adjusted.iloc[0] == pytest.approx(6 * table.p_value.iloc[0])  # Holm: the 2nd smallest p * (m - 1)
    assert table.holds.iloc[0] and not table.holds_adjusted.iloc[0] and table.holds_adjusted.iloc[1]
    verdict = finding_verdicts(table).iloc[0]
    # adjusted, search no longer shows it while search:value=model does: the tiers differ (issue #39)
    assert verdict.verdict == "tier-dependent" and verdict.verdict_unadjusted == "holds"
    assert (table.p_adjusted >= table.p_value).all()


def test_the_family_is_the_top_tier_and_a_repeated_test_counts_once(judged_by_top):
    """Issue #39: context rows are adjusted apart from the judging (top-tier) rows, and a row that repeats another
    row's test (the same group, n, estimate, interval and p) enters the family once."""
    marginal = (0.1, 0.001, 0.199)
    judging = _rows("02", "x", [(SEARCH, marginal), (MODEL, CLEAR)])
    context = pd.concat([_rows("04", f"f{i}", [(HEURISTIC, NULL, 1000 + i)]) for i in range(5)], ignore_index=True)
    table = adjust(pd.concat([judging, context], ignore_index=True))
    assert table.family.tolist() == ["top tier"] * 2 + ["context"] * 5
    assert table.p_adjusted.iloc[0] == pytest.approx(table.p_value.iloc[0])  # 2 tests: the larger p stays
    assert finding_verdicts(table).verdict.iloc[0] == "holds"
    repeated = adjust(pd.concat([judging, judging.assign(finding="y")], ignore_index=True))
    assert repeated.p_adjusted.tolist() == pytest.approx(table.p_adjusted.iloc[:2].tolist() * 2)


def test_every_table_carries_the_adjusted_columns_whatever_the_order(tmp_path):
    """Issue #39: each notebook's writer adjusts the whole table, so the last one written leaves no file without
    the adjusted columns, and the files end the same whatever the order."""
    from riskstats.stats.verdicts import judge_table

    table = _table()
    ends = []
    for order in (sorted(table.notebook.unique()), sorted(table.notebook.unique(), reverse=True)):
        folder = tmp_path / "-".join(order)
        for notebook in order:
            write_robustness(table[table.notebook == notebook], folder, notebook)
            for f in folder.glob("[0-9]*.csv"):
                assert set(ADJUSTED_COLUMNS) <= set(pd.read_csv(f).columns), f.name
        ends.append({f.name: f.read_bytes() for f in sorted(folder.glob("[0-9]*.csv"))})
        verdicts = judge_table(folder)
        assert len(verdicts) == table.groupby(["notebook", "finding"]).ngroups
    assert ends[0] == ends[1]


def test_the_committed_verdicts_follow_the_committed_rows():
    """verdicts.csv is what the rules give the committed tables: no notebook rerun has left it stale."""
    from riskstats.analysis.paths import data_dir
    from riskstats.stats.robustness import notebook_files

    folder = data_dir() / "robustness"
    rows = pd.concat([pd.read_csv(f, dtype={"notebook": str}) for f in notebook_files(folder)], ignore_index=True)
    again = finding_verdicts(adjust(rows))
    committed = pd.read_csv(folder / "verdicts.csv", dtype={"notebook": str})
    assert again.verdict.tolist() == committed.verdict.tolist()
    assert again.finding.tolist() == committed.finding.tolist()


def test_rows_without_a_p_value_are_outside_the_family():
    est = pd.DataFrame({"population": [SEARCH], "bots": "b", "n": 10, "estimate": [2.0], "ci_low": [1.8],
                        "ci_high": [2.2]})
    cheapest = robustness_rows("02", "A is the cheapest", est, [True])  # no reference: no p
    table = adjust(pd.concat([cheapest, _rows("02", "y", [(SEARCH, NULL)])], ignore_index=True))
    assert np.isnan(table.p_value.iloc[0]) and np.isnan(table.p_adjusted.iloc[0])
    assert table.holds_adjusted.iloc[0]
    assert table.p_adjusted.iloc[1] == table.p_value.iloc[1]  # a family of one
    with pytest.raises(RiskstatsError, match="cannot adjust"):
        adjust(table, method="nobody")


def test_notes_say_why_a_finding_has_no_top_tier_rows():
    rows = _rows("07", "x", [(OLD, CLEAR)]).assign(note="search is too slow for 10,000 games a treatment")
    verdict = finding_verdicts(rows).iloc[0]
    assert verdict.verdict == "no top-tier rows" and verdict.note == "search is too slow for 10,000 games a treatment"


def _duels(shares, deals=200, seed=0):
    """A two-player per-game table: each pair of ``shares`` ({(a, b): a's chance to win}) plays ``deals`` deals in
    both seatings, outcomes drawn independently."""
    rng = np.random.default_rng(seed)
    rows = []
    for (a, b), share in shares.items():
        for deal in range(deals):
            for first, second in ((a, b), (b, a)):
                won = rng.random() < share
                winner = (0 if first == a else 1) if won else (1 if first == a else 0)
                rows.append({"players": 2, "bots": f"{first},{second}", "seed": f"{a}{b}{deal}", "winner": winner,
                             "places": "1,2" if winner == 0 else "2,1"})
    return pd.DataFrame(rows)


def test_pair_tiers_separate_a_dominant_bot_and_not_two_equal_ones():
    from riskstats.stats.head_to_head import pair_rates

    games = _duels({("top", "x"): 0.75, ("top", "y"): 0.75, ("x", "y"): 0.5, ("top", "z"): 0.9, ("x", "z"): 0.8,
                    ("y", "z"): 0.8})
    tiers = pair_tiers(pair_rates(games)).set_index("bot")
    assert tiers.tier.to_dict() == {"top": 1, "x": 2, "y": 2, "z": 3}
    assert tiers.loc["x", "beaten_by"].startswith("top 7") and tiers.loc["top", "beaten"] == 0
    assert tiers.loc["z", "beaten"] == 3 and tiers.loc["top", "beats"] == 3
    # two equal bots (each wins one seating of every deal), and two 53:47 apart over 400 games: not separated
    for share in (0.5, 0.53):
        wins = round(share * 400)
        games = pd.DataFrame({"players": 2, "bots": ["a,b", "b,a"] * 200, "seed": np.repeat(np.arange(200), 2),
                              "winner": [0 if k < wins else 1 for k in range(400)]})
        games["winner"] = np.where(games.bots == "a,b", games.winner, 1 - games.winner)  # a wins the first `wins`
        games["places"] = np.where(games.winner == 0, "1,2", "2,1")
        rates = pair_rates(games).set_index("bot")
        assert rates.loc["a", "wins"] == wins
        assert pair_tiers(rates.reset_index()).tier.tolist() == [1, 1]


def test_pair_tiers_put_a_cycle_with_nothing_above_it_in_one_tier():
    # a beats b, b beats c, c beats a, and all three beat d: no bot is unbeaten, so the cycle is tier 1
    games = _duels({("a", "b"): 0.8, ("b", "c"): 0.8, ("c", "a"): 0.8, ("a", "d"): 0.9, ("b", "d"): 0.9,
                    ("c", "d"): 0.9})
    from riskstats.stats.head_to_head import pair_rates

    tiers = pair_tiers(pair_rates(games)).set_index("bot").tier.to_dict()
    assert tiers == {"a": 1, "b": 1, "c": 1, "d": 2}


def test_tiers_table_reports_the_chi_square_p_only_where_expected_counts_allow():
    games = _duels({("a", "b"): 0.8})
    ladder = pd.DataFrame({"bot": ["a", "b"], "elo": [10.0, 0.0], "ci_low": [5.0, -5.0], "ci_high": [15.0, 5.0]})
    fit = pd.DataFrame({"p_value": [0.927], "pearson_p": [5.5e-6], "p_boot": [0.008], "min_expected": [0.04]})
    tiers, matrix = tiers_table(games, games, ladder, fit)
    assert tiers.tier.tolist() == [1, 2] and tiers.tier_2p.tolist() == [1, 2] and tiers.elo.tolist() == [10.0, 0.0]
    assert tiers.fit_p_g2.isna().all() and tiers.fit_p_pearson.isna().all() and tiers.fit_rejected.all()
    assert tiers_table(games, fit=fit.assign(min_expected=5.0))[0].fit_p_g2.eq(0.927).all()
    assert not tiers_table(games, fit=fit.assign(p_boot=0.5))[0].fit_rejected.any()
    assert matrix.players.tolist() == [2, 2, 2, 2] and matrix.beats.tolist() == [True, False] * 2
    assert matrix.design.tolist() == ["own deals"] * 2 + ["round robin"] * 2


def test_tiers_table_keeps_a_shared_deals_ladder_as_context():
    """A ladder whose line-ups share their deals gives ``tier_shared_deals`` and its bots' median design effect
    (``deff_shared_deals``), and its matrix rows in head_to_head (``design`` "shared deals"); ``tier`` is the
    first table's."""
    own, shared = _duels({("a", "b"): 0.8, ("a", "c"): 0.8}), _duels({("a", "b"): 0.5, ("a", "c"): 0.5})
    tiers, matrix = tiers_table(own, shared=shared)
    assert tiers.set_index("bot").tier.to_dict() == {"a": 1, "b": 2, "c": 2}
    assert tiers.set_index("bot").tier_shared_deals.to_dict() == {"a": 1, "b": 1, "c": 1}
    assert tiers.deff_shared_deals.notna().all() and "tier_2p" not in tiers
    assert matrix.design.value_counts().to_dict() == {"own deals": 4, "shared deals": 4}


def _committed_tiers(tables=None):
    from riskstats.analysis.paths import data_dir
    from riskstats.stats.verdicts import LADDER_GAMES, TIER_TABLES

    path = {name: data_dir() / where for name, where in (tables or TIER_TABLES).items()}
    ladder = path["ladder"]
    return tiers_table(pd.read_csv(ladder.with_name(LADDER_GAMES)), pd.read_csv(path["two_player"]),
                       pd.read_csv(ladder), pd.read_csv(ladder.with_name("ladder_fit.csv")),
                       shared=pd.read_csv(path["shared_deals"]) if "shared_deals" in path else None)


def test_the_committed_tiers_reproduce_from_the_committed_per_game_tables():
    """Issue #39 item 5: data/robustness/tiers.csv and head_to_head.csv are `tiers_table` of the judging set's
    committed per-game tables (`TIER_TABLES`, the data/robustness/README.md command): four-player on the ladder with
    its own deals, two-player on the round robin (and, for a set that has one, the ladder whose line-ups share their
    deals, as context)."""
    from riskstats.analysis.paths import data_dir

    tiers, matrix = _committed_tiers()
    for computed, name in ((tiers, "tiers.csv"), (matrix, "head_to_head.csv")):  # as written, read back
        pd.testing.assert_frame_equal(pd.read_csv(io.StringIO(computed.to_csv(index=False))),
                                      pd.read_csv(data_dir() / "robustness" / name), check_exact=False)


def test_the_former_ladders_shared_deals_cluster_and_its_fit_has_no_chi_square_p():
    """Issue #39's ladder (the ``top`` set's, `riskstats.runs.tiers.LADDERS`): the line-ups that share 12 deals are
    clustered by deal, the others not, and expected counts of 0.13 leave no chi-square p."""
    from riskstats.runs.tiers import LADDERS

    tiers, matrix = _committed_tiers(LADDERS["top"])
    assert tiers.fit_p_g2.isna().all() and (tiers.fit_p_boot < 0.05).all()
    deff = matrix.groupby("design").deff.median()
    assert deff["own deals"] < 1.1 and deff["round robin"] < 1.1 and deff["shared deals"] > 3


def test_the_top_tier_is_the_head_to_head_tier_one_of_each_format():
    """The judging populations (`TOP_TIER`) are each format's tier 1 by direct head to head in the committed
    data/robustness/tiers.csv (`tier_one`: the four-player ladder on its own deals and the two-player round robin);
    when the tiers change, this fails until TOP_TIER (and the findings' runs) follow."""
    from riskstats.analysis.paths import data_dir
    from riskstats.stats.verdicts import tier_one, top_tier_matches

    committed = pd.read_csv(data_dir() / "robustness" / "tiers.csv")
    assert set(tier_one(committed)) == {"tier", "tier_2p"}
    assert top_tier_matches(committed)
    assert not top_tier_matches(committed.assign(tier=range(1, len(committed) + 1),
                                                 tier_2p=range(len(committed), 0, -1)))  # two bots, not the tier


def test_the_committed_ladder_fits_report_no_chi_square_p_with_small_expected_counts():
    """`riskstats.stats.ratings.reported_fit`, as scripts/bench/bench_strength.py writes ladder_fit.csv: the G2 and
    Pearson chi-square p-values are blank where the smallest expected count is below MIN_EXPECTED."""
    from riskstats.analysis.paths import data_dir
    from riskstats.stats.ratings import MIN_EXPECTED

    for folder in ("ladder", "ladder_own_seeds"):
        fit = pd.read_csv(data_dir() / "value_bot" / "issue30" / folder / "ladder_fit.csv")
        small = fit.min_expected < MIN_EXPECTED
        assert small.all() and fit.p_value[small].isna().all() and fit.pearson_p[small].isna().all()
        assert fit.g2.notna().all() and fit.p_boot.notna().all()


def test_the_round_robin_replays_its_first_deals():
    """The committed two-player round robin is `ladder_games` with ``every_seat`` on seed 2026: a pair's first deals,
    played again, give the same rows (cheap: two deals of two pairs)."""
    from riskstats.analysis.paths import data_dir
    from riskstats.analysis.strength import ladder_games

    games = pd.read_csv(data_dir() / "value_bot" / "issue30" / "ladder" / "round_robin_games.csv.gz")
    assert len(games) == 66 * 2000 and games.groupby("lineup").size().eq(2000).all()
    assert games.groupby("lineup").seed.nunique().eq(1000).all() and games.seed.nunique() == 1000
    for pair in (["random", "aggressive"], ["search", TOP["search:value=model"]["bot"]]):
        first = games[games.bots.isin([",".join(pair), ",".join(pair[::-1])])].head(4).reset_index(drop=True)
        again = ladder_games(pair, 2, 4, seed=2026, every_seat=True)
        columns = ["seed", "bots", "winner", "turns", "places"]
        pd.testing.assert_frame_equal(again[columns], first[columns], check_dtype=False)


def test_the_ladder_on_its_own_deals_replays_and_has_no_deal_clusters():
    """ladder_own_seeds/: every line-up on its own deals (`ladder_games` with ``every_seat`` and ``own_seeds``);
    its first line-up's first deal replays, and a pair's games no longer cluster by deal."""
    from riskstats.analysis.paths import data_dir
    from riskstats.analysis.strength import ladder_games
    from riskstats.stats.head_to_head import pair_rates

    games = pd.read_csv(data_dir() / "value_bot" / "issue30" / "ladder_own_seeds" / "ladder_games.csv.gz")
    assert len(games) == 495 * 24 and games.seed.nunique() == 495 * 6
    pool = games.bots.iloc[0].split(",")
    again = ladder_games(pool, 4, 4, seed=2026, every_seat=True, own_seeds=True)
    columns = ["seed", "bots", "winner", "turns", "places"]
    pd.testing.assert_frame_equal(again[columns], games[columns].head(4), check_dtype=False)
    top = ["search", TOP["search:value=model"]["bot"], "value-wide"]
    assert pair_rates(games, top).deff.max() < 1.1


def test_the_ladder_is_reproducible_from_its_committed_games():
    """Issue #39 item 5: the per-game table beside ladder.csv holds every ladder game; its wins and games per bot are
    the ladder's, and the head-to-head rates read from it need no model."""
    from riskstats.analysis.paths import data_dir
    from riskstats.analysis.strength import ladder_pairs

    folder = data_dir() / "value_bot" / "issue30" / "ladder"
    games = pd.read_csv(folder / "ladder_games.csv.gz")
    ladder = pd.read_csv(folder / "ladder.csv").set_index("bot")
    seats = games[games.winner >= 0].bots.str.split(",").explode()  # a stalled game rates no one
    assert seats.value_counts().sort_index().to_dict() == ladder.games.sort_index().to_dict()
    assert games.winner_bot.value_counts().sort_index().to_dict() == ladder.wins.sort_index().to_dict()
    assert games.groupby("lineup").size().eq(12).all() and games.lineup.nunique() == 495
    pairs = ladder_pairs(games, ["search", TOP["search:value=model"]["bot"]])
    assert pairs.wins.sum() == pairs.decided.iloc[0] and (pairs.ci_low < pairs.share).all()


def _ladder(folder):
    pd.DataFrame({"bot": ["search", "m"], "elo": [1.0, 0.0], "ci_low": [0.0, -1.0], "ci_high": [2.0, 1.0]}).to_csv(
        folder / "ladder.csv", index=False)
    _duels({("search", "m"): 0.5}, deals=20).to_csv(folder / "ladder_games.csv.gz", index=False)
    pd.DataFrame({"p_value": [0.9], "pearson_p": [0.01], "p_boot": [0.02]}).to_csv(folder / "ladder_fit.csv",
                                                                                  index=False)
    return folder / "ladder.csv"


def test_write_verdicts_reads_the_committed_tables_under_the_data_folder_by_default(tmp_path):
    """Without a ladder, `write_verdicts` reads `TIER_TABLES` under the folder above the robustness folder (or
    ``data``): the four-player tier from the own-deals ladder, tier_2p from the round robin, the shared-deals
    context."""
    from riskstats.stats.verdicts import TIER_TABLES

    robustness = tmp_path / "robustness"
    for notebook, rows in _table().groupby("notebook"):
        write_robustness(rows, robustness, notebook)
    ladder = tmp_path / TIER_TABLES["ladder"]
    ladder.parent.mkdir(parents=True)
    _ladder(ladder.parent)
    for name, shares in (("two_player", {("search", "m"): 0.8}), ("shared_deals", {("search", "m"): 0.5})):
        if name in TIER_TABLES:  # the judging set's tables (a set may have no shared-deals ladder)
            (tmp_path / TIER_TABLES[name]).parent.mkdir(parents=True, exist_ok=True)
            _duels(shares).to_csv(tmp_path / TIER_TABLES[name], index=False)
    write_verdicts(robustness)
    tiers = pd.read_csv(robustness / "tiers.csv").set_index("bot")
    assert tiers.tier.to_dict() == {"search": 1, "m": 1} and tiers.tier_2p.to_dict() == {"search": 1, "m": 2}
    designs = {"own deals": 2, "round robin": 2}
    if "shared_deals" in TIER_TABLES:
        assert tiers.tier_shared_deals.to_dict() == {"search": 1, "m": 1}
        designs["shared deals"] = 2
    assert pd.read_csv(robustness / "head_to_head.csv").design.value_counts().to_dict() == designs
    with pytest.raises(RiskstatsError, match="no ladder"):
        write_verdicts(robustness, data=tmp_path / "elsewhere")


def test_write_verdicts_writes_the_adjusted_columns_back_and_is_idempotent(judged_by_top, tmp_path):
    table = _table()
    robustness = tmp_path / "robustness"
    for notebook, rows in table.groupby("notebook"):
        write_robustness(rows, robustness, notebook)
    old = pd.DataFrame({"notebook": ["06"], "finding": ["old"], "population": [SEARCH], "bots": ["s"], "n": [50],
                        "estimate": [0.3], "ci_low": [0.2], "ci_high": [0.4], "holds": [True]})
    old.to_csv(robustness / "06.csv", index=False)  # written before reversed, reference and p_value existed
    ladder = _ladder(tmp_path)
    verdicts = write_verdicts(robustness, ladder)
    files = sorted(p.name for p in robustness.iterdir())
    assert files == ["02.csv", "03_card_escalation.csv", "04.csv", "06.csv", "07.csv", "head_to_head.csv", "tiers.csv",
                     "verdicts.csv"]
    first = {name: (robustness / name).read_bytes() for name in files}
    assert write_verdicts(robustness, ladder).equals(verdicts)
    assert {name: (robustness / name).read_bytes() for name in files} == first
    back = pd.read_csv(robustness / "04.csv", dtype={"notebook": str})
    assert tuple(back.columns) == (*ROBUSTNESS_COLUMNS, *ADJUSTED_COLUMNS)
    assert back.p_adjusted.notna().all() and (back.p_adjusted >= back.p_value).all()
    on_disk = pd.read_csv(robustness / "verdicts.csv", dtype={"notebook": str}, keep_default_na=False)
    assert on_disk.finding.tolist() == [*verdicts.finding] and "old" in on_disk.finding.tolist()
    assert on_disk.set_index("finding").loc["old", "verdict"] == "holds (search only)"  # no p: outside the family
    assert pd.read_csv(robustness / "tiers.csv").tier.tolist() == [1, 1]
    with pytest.raises(RiskstatsError, match="no robustness rows"):
        write_verdicts(tmp_path / "empty", ladder)
    with pytest.raises(RiskstatsError, match="no ladder"):
        write_verdicts(robustness, tmp_path / "nowhere.csv")
    (tmp_path / "ladder_games.csv.gz").unlink()
    with pytest.raises(RiskstatsError, match="no per-game ladder table"):
        write_verdicts(robustness, ladder)


def test_the_outside_verdicts_join_their_findings_and_a_stray_one_is_an_error():
    outside = pd.DataFrame({"notebook": ["04"], "finding": ["mixed"], "outside": ["reversed"],
                            "outside_estimate": ["-3.0 points [-5.0, -1.0] (n = 600)"], "outside_bots": ["b"]})
    frame = finding_verdicts(_table(), outside).set_index("finding")
    assert frame.loc["mixed", "outside"] == "reversed" and frame.loc["holds", "outside"] == ""
    assert frame.loc["mixed", "outside_estimate"].endswith("(n = 600)")
    with pytest.raises(RiskstatsError, match="lack: notebook 07, 'fortify first'"):
        finding_verdicts(_table(), outside.assign(notebook="07", finding="fortify first"))


def test_verdict_changes_judge_each_finding_by_each_sets_tiers_and_say_why():
    """Issue 52: the answers that changed when the top tier moved, each set's tiers judging its own rows (Holm over
    that set's rows alone) and the other set's kept as context."""
    from riskstats.runs.tiers import TIER_SETS
    from riskstats.stats.verdicts import verdict_changes

    label = {t: e["population"] for tiers in TIER_SETS.values() for t, e in tiers.items()}
    rows = pd.DataFrame({"notebook": "02", "finding": ["f"] * 4 + ["g"] * 2, "population": [
        label["search"], label["search:value=model"], label["hunter"], label["hunter against the next best"],
        label["search"], label["hunter"]], "bots": "b", "n": 3000,
        "estimate": [0.05, 0.04, -0.05, -0.04, 0.0, 0.0], "ci_low": [0.03, 0.02, -0.07, -0.06, -0.02, -0.02],
        "ci_high": [0.07, 0.06, -0.03, -0.02, 0.02, 0.02], "holds": [True, True, False, False, False, False],
        "reversed": [False, False, True, True, False, False], "reference": 0.0,
        "p_value": [1e-5, 1e-4, 1e-5, 1e-4, 0.9, 0.9]})
    changes = verdict_changes(rows, "top", "top_hunter").set_index("finding")
    assert changes.loc["f", ["before", "after", "changed"]].tolist() == ["holds", "fails", True]
    assert changes.loc["f", "after_tiers"] == "hunter: reversed; hunter against the next best: reversed"
    assert "hunter: reversed" in changes.loc["f", "why"] and "search: holds" in changes.loc["f", "why"]
    assert changes.loc["g", "before"] == "inconclusive (search only)" and not changes.loc["g", "changed"]
    with pytest.raises(RiskstatsError, match="unknown tier set 'x'"):
        verdict_changes(rows, "x")
