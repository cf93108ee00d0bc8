"""scripts/make/top_tier_ladder.py (issue 52 item 1): the candidates come from the one place that names the top
tier, an interrupted ladder resumes into the table a run in one go makes, and the tiers are built from it."""

import pandas as pd
import pytest

from tests.scripts import load_script


@pytest.fixture(scope="module")
def ladder():
    return load_script("make", "top_tier_ladder.py")


def test_the_candidates_are_the_hunter_beside_the_former_top_tier_as_it_is_spelled_out(ladder):
    from riskstats.runs.tiers import TIER_SETS

    assert ladder.CANDIDATES[0] == "hunter"
    assert [e["bot"] for e in TIER_SETS["top"].values()] == list(ladder.CANDIDATES[1:3])
    assert "search:rollouts=8:horizon=0:plans=8:value=model" in ladder.CANDIDATES  # not search:value=model alone


def test_an_interrupted_ladder_resumes_into_the_same_table(ladder, tmp_path, monkeypatch):
    bots = ["random", "aggressive", "continent"]
    whole = ladder.play(bots, "two.csv.gz", 2, False, 4, 7, tmp_path / "whole")
    from riskstats.analysis import strength

    real, calls = strength.lineup_games, []

    def stop_after_one(*args, **kwargs):  # the run is stopped while its second line-up plays
        if calls:
            raise KeyboardInterrupt
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(strength, "lineup_games", stop_after_one)
    with pytest.raises(KeyboardInterrupt):
        ladder.play(bots, "two.csv.gz", 2, False, 4, 7, tmp_path / "cut")
    kept = pd.read_csv(tmp_path / "cut" / "two.csv.gz")
    assert set(kept.lineup) == {0}  # what it finished is kept
    monkeypatch.setattr(strength, "lineup_games", real)
    resumed = ladder.play(bots, "two.csv.gz", 2, False, 4, 7, tmp_path / "cut")
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "cut" / "two.csv.gz"),
                                  pd.read_csv(tmp_path / "whole" / "two.csv.gz"))
    assert len(resumed) == len(whole) == 12


def test_the_tables_rank_by_head_to_head(ladder, tmp_path):
    """A clear hierarchy comes out as tiers: continent-tuned, which no bot beats four-player, in tier 1, random below
    it in both formats, each tier's losses named with their intervals."""
    bots = ["continent-tuned", "aggressive", "random", "defensive", "continent"]
    ladder.play(bots, ladder.FORMATS["four"][0], 4, True, 200, 3, tmp_path)
    ladder.play(bots[:3], ladder.FORMATS["two"][0], 2, False, 400, 3, tmp_path)
    ladder.tables(tmp_path, boot=20, seed=3)
    tiers = pd.read_csv(tmp_path / "tiers.csv").set_index("bot")
    assert tiers.loc["continent-tuned", "tier"] == 1 and tiers.loc["random", "tier"] > 1
    assert tiers.loc["random", "tier_2p"] > 1 and "continent-tuned" in tiers.loc["random", "beaten_by"]
    assert "%" in tiers.loc["random", "beaten_by_2p"]
    assert {"ladder.csv", "ladder_fit.csv", "head_to_head.csv"} <= {p.name for p in tmp_path.iterdir()}
