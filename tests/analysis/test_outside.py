"""The top tier's outside strength is read from data/outside/, never typed: the sentence follows the data, and the
pages that carry it are up to date."""
import pandas as pd
import pytest

from riskstats.analysis.outside import (
    BLOCK,
    PAGES,
    findings_scope,
    outside_block,
    outside_sentence,
    outside_strength,
    refresh_pages,
)
from riskstats.analysis.paths import data_dir
from riskstats.errors import RiskstatsError


def test_the_committed_match_gives_search_and_says_what_was_not_played():
    from riskstats.runs.tiers import JUDGING, TIER_SETS

    top = TIER_SETS["top"]  # the former top tier, measured in data/outside/
    strength = outside_strength(tiers=top).set_index("tier")
    summary = pd.read_csv(data_dir() / "outside" / "summary.csv").set_index("file")
    assert strength.loc["search", "win_rate"] == summary.loc["search_4p.csv", "win_rate"]
    assert strength.loc["search", "control_rate"] == summary.loc["control_4p.csv", "win_rate"]
    sentence = outside_sentence(tiers=top)
    row = summary.loc["search_4p.csv"]
    assert f"`search` wins {row.win_rate:.1%} (95% {row.low95:.1%}-{row.high95:.1%}, 300 games)" in sentence
    assert not strength.loc["search:value=model", "played"]
    assert "`search:value=model` was not played there." in sentence
    scope = findings_scope()
    assert scope.startswith(f"The findings are judged by the top tier, the tier set `{JUDGING}`: ")
    assert "only where it holds under every one of these populations" in scope and outside_sentence() in scope
    hunter = outside_sentence(tiers=TIER_SETS["top_hunter"])  # both tiers play the hunter: one record, its own folder
    records = pd.read_csv(data_dir() / "outside" / "findings" / "summary.csv").set_index("file")
    record, control = records.loc["hunter_4p.csv"], records.loc["cards_increasing_4p.csv"]  # not the fixed cards'
    assert hunter.count("`hunter` wins") == 1 and f"{record.win_rate:.1%} (95% {record.low95:.1%}" in hunter
    assert f"a hard AI in the same seat wins {control.win_rate:.1%} ({control.games:,} games)" in hunter


def test_the_sentence_follows_the_data(tmp_path):
    """A stronger bot landing in data/outside changes the text, not the code."""
    summary = pd.read_csv(data_dir() / "outside" / "summary.csv")
    summary.loc[summary.file == "search_4p.csv", ["wins", "win_rate", "low95", "high95"]] = [90, 0.30, 0.25, 0.35]
    extra = summary[summary.file == "search_4p.csv"].assign(file="m.csv", remote="search:value=model")
    pd.concat([summary, extra]).to_csv(tmp_path / "summary.csv", index=False)
    from riskstats.runs.tiers import TIER_SETS

    sentence = outside_sentence(tmp_path, TIER_SETS["top"])
    assert "`search` wins 30.0% (95% 25.0%-35.0%" in sentence and "`search:value=model` wins 30.0%" in sentence
    assert "not played" not in sentence
    with pytest.raises(RiskstatsError, match="no outside match summary"):
        outside_sentence(tmp_path / "nowhere", TIER_SETS["top"])


def test_the_pages_carry_the_generated_sentence():
    """README.md and docs/bots.md hold the sentence between the markers, as `refresh_pages` writes it."""
    assert refresh_pages(check=True) == []
    from riskstats.analysis.paths import repository_root

    for page in PAGES:
        text = (repository_root() / page).read_text()
        assert BLOCK[0] in text and outside_sentence() in text
    with pytest.raises(RiskstatsError, match="markers"):
        outside_block("no markers here")
