"""The tier sets (riskstats.runs.tiers): the judging set is the tiers' one place, a line-up template is written out
tier by tier, the other seats' bot may go by player count, and a template is never mixed with plain line-ups."""
import pytest

from riskstats.errors import RiskstatsError
from riskstats.runs.tiers import JUDGING, TIER_SETS, TOP_TIER, top_tier_lineups
from riskstats.stats import robustness


def test_the_judging_set_is_the_top_tier_everywhere():
    assert TOP_TIER is TIER_SETS[JUDGING] and robustness.TOP_TIER is TOP_TIER
    assert all({"bot", "population"} <= set(entry) for tiers in TIER_SETS.values() for entry in tiers.values())


def test_the_other_seats_go_by_player_count():
    tiers = TIER_SETS["top_hunter"]
    two, four, six = (top_tier_lineups(["{top}:first=Asia:draft=1,{rest}"], tiers, players=n) for n in (2, 4, 6))
    assert two[0] == four[0] == six[0] == "hunter:first=Asia:draft=1,hunter"
    assert two[1].endswith("value=model") and four[1].endswith("value=formula") and six[1] == four[1]
    assert top_tier_lineups(["{top}"], tiers, players=4) == ["hunter", four[1].replace(":first=Asia:draft=1", "")]


def test_plain_line_ups_pass_and_mixed_ones_are_refused():
    assert top_tier_lineups(["aggressive,continent"]) == ["aggressive,continent"]
    with pytest.raises(RiskstatsError, match="names no {top}"):
        top_tier_lineups(["{top}", "aggressive"])


def test_a_tiers_seats_alternate_its_bot_with_the_others_and_each_tier_has_a_folder_of_its_own():
    from riskstats.runs.tiers import tier_seats, tier_set

    hunter, against = tier_set("top_hunter").values()
    assert tier_seats(hunter, 4) == ["hunter"] * 4
    two, five = tier_seats(against, 2), tier_seats(against, 5)
    assert two[1].endswith("value=model") and five[::2] == ["hunter"] * 3 and five[1] == five[3] != two[1]
    assert tier_seats(against, 4) == top_tier_lineups(["{top}"], {"t": against}, 4)[0].split(",") * 2  # as played
    folders = [entry["folder"] for tiers in TIER_SETS.values() for entry in tiers.values()]
    assert len(set(folders)) == len(folders)
    with pytest.raises(RiskstatsError, match="unknown tier set 'nope'; choose from top, top_hunter"):
        tier_set("nope")
