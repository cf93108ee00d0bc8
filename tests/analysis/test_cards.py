"""The chance of holding a valid set: exact combinatorics, a brute-force count and a simulation."""
from fractions import Fraction
from itertools import combinations

import numpy as np
import pandas as pd
import pytest

from riskstats.analysis.cards import SYMBOLS, has_set, p_valid_set, set_odds, simulate_set_odds
from riskstats.errors import RiskstatsError

CLASSIC = {"infantry": 14, "cavalry": 14, "artillery": 14, "wild": 2}


def test_set_rules():
    assert has_set(3, 0, 0, 0) and has_set(1, 1, 1, 0) and has_set(2, 0, 0, 1) and has_set(0, 1, 0, 2)
    assert not has_set(2, 1, 0, 0) and not has_set(0, 0, 0, 2) and not has_set(1, 0, 0, 1)


def test_five_cards_always_hold_a_set_and_two_never_do():
    assert p_valid_set(5, CLASSIC) == 1
    assert p_valid_set(2, CLASSIC) == 0
    assert p_valid_set(4, CLASSIC) < 1


def test_small_deck_against_counting_every_hand():
    deck = {"infantry": 3, "cavalry": 2, "artillery": 4, "wild": 1}
    cards = [s for s in range(4) for _ in range(deck[SYMBOLS[s]])]
    for n in range(0, 6):
        hands = list(combinations(range(len(cards)), n))
        good = sum(has_set(*(sum(cards[i] == s for i in hand) for s in range(4))) for hand in hands)
        assert p_valid_set(n, deck) == Fraction(good, len(hands))


@pytest.mark.slow
def test_simulation_agrees_within_four_standard_errors():
    exact = set_odds(CLASSIC)
    simulated = simulate_set_odds(CLASSIC, trials=200_000, seed=7)
    gap = (exact.p_set - simulated.p_set).abs()
    assert (gap <= 4 * simulated.se + 1e-12).all()
    assert simulate_set_odds(CLASSIC, trials=1000, seed=3).equals(simulate_set_odds(CLASSIC, trials=1000, seed=3))


def test_bad_decks():
    with pytest.raises(RiskstatsError, match="wild cards must be at least 0, got -1"):
        p_valid_set(3, {**CLASSIC, "wild": -1})
    with pytest.raises(RiskstatsError, match="cards must be from 0 to 44, got 45"):
        p_valid_set(45, CLASSIC)


@pytest.fixture(scope="module")
def record():
    from riskstats.analysis.trajectories import replay
    from riskstats.runs.selfplay import play_games

    games = play_games(8, 4, "random,aggressive,continent,defensive", seed=11)
    return games, *replay(games)


def test_set_values_escalate_across_players(record):
    from riskstats.analysis.cards import set_values
    from riskstats.game.rules.options import GameRules

    games, turns, events = record
    values = set_values(events, turns)
    for _, trades in values.groupby("game"):
        assert trades.value.tolist() == GameRules().set_values(len(trades))
    assert set(values.bonus_armies) <= {0, 2}


def test_the_classic_deck_and_its_odds_table():
    from riskstats.analysis.cards import board_deck

    assert board_deck() == CLASSIC
    frame = set_odds(CLASSIC, 4)
    assert frame.fraction.tolist() == [0, 0, 0, Fraction(200, 473), Fraction(15844, 19393)]
    with pytest.raises(RiskstatsError, match="max_cards must be from 0 to 44, got 50"):
        set_odds(CLASSIC, 50)


@pytest.fixture(scope="module")
def logged():
    """The games of `record`, played compiled with their event logs."""
    from riskstats.runs.selfplay import play_games

    return play_games(8, 4, "random,aggressive,continent,defensive", seed=11, log=True)


def test_turn_rounds_agree_with_the_engine(record, logged):
    from riskstats.analysis.cards import turn_rounds

    _, turns, _ = record
    rounds = turn_rounds(logged[1]).set_index(["game", "turn"])
    engine = turns[turns.to_move == turns.seat].set_index(["game", "turn"])
    assert rounds.index.equals(engine.index)
    assert (rounds["round"] == engine["round"]).all() and (rounds.player == engine.to_move).all()


def test_round_activity_accounts_for_every_army(logged):
    """Armies on the board change by exactly the reinforcements placed minus the armies destroyed."""
    from riskstats.analysis.cards import round_activity

    table, events = logged
    activity = round_activity(events)
    assert (activity.reinforcements == activity.territories + activity.continents + activity.cards).all()
    setup = events[events.turn == 0].groupby("game").total_armies.last()
    for game, frame in activity.groupby("game"):
        before = np.r_[setup[game], frame.armies_on_board.to_numpy()[:-1]]
        assert (frame.armies_on_board.to_numpy() - before == frame.reinforcements - frame.armies_destroyed).all()
        assert frame["round"].tolist() == list(range(1, len(frame) + 1))
    assert activity.groupby("game").eliminations.sum().tolist() == [
        int((events[events.game == g].eliminated >= 0).sum()) for g in sorted(events.game.unique())]
    assert activity.groupby("game")["round"].max().tolist() == table.rounds.tolist()
    trades = events[events.move == "trade"]
    assert activity.cards.sum() == trades.value.sum() + 2 * (trades.bonus_territory >= 0).sum()


def test_per_round_keeps_only_rounds_with_enough_games(logged):
    from riskstats.analysis.cards import per_round, round_activity

    activity = round_activity(logged[1])
    reached = activity.groupby("round").size()
    summary = per_round(activity, ["reinforcements", "conquests"], min_games=5)
    assert set(summary["round"]) == set(reached[reached >= 5].index)
    assert (summary.games == reached.reindex(summary["round"]).to_numpy()).all()
    means = activity.groupby("round").reinforcements.mean()
    rows = summary[summary.measure == "reinforcements"]
    assert np.allclose(rows["mean"], means.reindex(rows["round"]))
    assert ((rows.ci_low <= rows["mean"]) & (rows["mean"] <= rows.ci_high)).all()
    grouped = per_round(activity.assign(arm="a"), ["cards"], by="arm", min_games=1)
    assert set(grouped.arm) == {"a"} and len(grouped) == len(reached)
    with pytest.raises(RiskstatsError, match="unknown measure armies"):
        per_round(activity, ["armies"])
    with pytest.raises(RiskstatsError, match="min_games must be"):
        per_round(activity, min_games=0)


def test_compare_rules_pairs_the_arms_game_by_game(monkeypatch):
    from riskstats.analysis import cards
    from riskstats.analysis.cards import compare_rules, rule_effects
    from riskstats.game.rules.options import GameRules

    arms = {"one": GameRules(), "per_conquest": GameRules(cards_per_turn="per_conquest")}
    result = compare_rules(10, 3, "aggressive,continent,defensive", arms, seed=4, log=True)
    games = result["games"]
    assert games.groupby("arm").seed.apply(tuple).nunique() == 1
    one = games[games.arm == "one"]
    assert (one.cards_drawn <= one.turns).all()  # at most one card a turn under docs/rules.md
    assert games[games.arm == "per_conquest"].cards_drawn.sum() > one.cards_drawn.sum()
    effects = result["effects"].set_index("measure")
    assert list(effects.index) == ["turns", "rounds", "first_won", "sets_traded", "top_set_value",
                                   "reinforcements_per_round", "cards_per_round", "destroyed_per_round",
                                   "armies_destroyed", "peak_armies"]
    assert np.allclose(effects.effect, effects.treated_mean - effects.control_mean)
    assert (effects.ci_low <= effects.effect).all() and (effects.effect <= effects.ci_high).all()
    assert (games.rounds_played == games.rounds).all()
    assert set(result["activity"].arm) == set(arms) and set(result["lengths"].arm) == set(arms)
    plain = compare_rules(10, 3, "aggressive,continent,defensive", arms, seed=4)  # the same games, unlogged
    assert plain["games"].turns.tolist() == games.turns.tolist() and "activity" not in plain
    monkeypatch.setattr(cards, "LOG_CHUNK", 3)  # logged in chunks of 3 games: still the same games and measures
    chunked = compare_rules(10, 3, "aggressive,continent,defensive", arms, seed=4, log=True)
    pd.testing.assert_frame_equal(chunked["games"], games)
    pd.testing.assert_frame_equal(chunked["activity"], result["activity"])
    shuffled = pd.concat([g.sample(frac=1, random_state=0) for _, g in games.groupby("arm", sort=False)])
    # pairing goes by seed, not by row order
    pd.testing.assert_frame_equal(rule_effects(shuffled, ["turns"]), rule_effects(games, ["turns"]))
    with pytest.raises(RiskstatsError, match="did not play the control's seeds"):
        rule_effects(games[(games.arm == "one") | (games.game > 0)], ["turns"])


def test_captured_cards_are_valued_from_the_same_positions():
    from riskstats.analysis.cards import capture_positions, capture_value
    from riskstats.runs.selfplay import play_games

    table = play_games(6, 4, "aggressive,continent,defensive,aggressive", seed=5)
    positions = capture_positions(table, min_cards=2)
    assert positions and len({p["game"] for p in positions}) == len(positions)
    for p in positions:
        kept, dropped = p["with_cards"], p["without_cards"]
        assert len(p["cards"]) >= 2 and p["eliminated"] != p["eliminator"]
        assert set(p["cards"]) <= set(kept.hand(p["eliminator"])) and len(kept.hand(p["eliminator"])) == p["hand"]
        assert sorted(dropped.hand(p["eliminator"])) == sorted(set(kept.hand(p["eliminator"])) - set(p["cards"]))
        assert np.array_equal(kept.state.owner, dropped.state.owner) and kept.phase == dropped.phase
    per_position, summary = capture_value(positions[:2], 30, seed=1)
    again, _ = capture_value(positions[:2], 30, seed=1)
    pd.testing.assert_frame_equal(per_position, again)
    assert np.allclose(per_position.effect, per_position.win_with - per_position.win_without)
    assert summary.positions[0] == 2 and summary.ci_low[0] <= summary.effect[0] <= summary.ci_high[0]
    with pytest.raises(RiskstatsError, match="no positions"):
        capture_value([], 10)


def test_game_activity_sums_the_rounds(logged):
    from riskstats.analysis.cards import game_activity, round_activity

    table, events = logged
    activity = round_activity(events)
    per_game = game_activity(activity).set_index("game")
    assert per_game.rounds_played.tolist() == table.rounds.tolist()
    assert np.allclose(per_game.armies_destroyed / per_game.rounds_played, per_game.destroyed_per_round)
    attacks = events[events.move == "attack"]
    assert per_game.armies_destroyed.tolist() == (attacks.attacker_loss + attacks.defender_loss).groupby(
        attacks.game).sum().tolist()
    two = game_activity(pd.concat([activity.assign(arm="a"), activity.assign(arm="b")]))
    assert len(two) == 2 * len(per_game) and set(two.arm) == {"a", "b"}


def test_trade_timing_is_a_paired_experiment():
    from riskstats.analysis.cards import trade_timing
    from riskstats.runs.selfplay import play_games

    lineup = "continent,aggressive,defensive"
    result = trade_timing(30, 3, lineup, {"continent holds": ("continent", 5), "defensive at once": ("defensive", 3)},
                          seed=2)
    games, effects = result["games"], result["effects"].set_index("arm")
    assert games.groupby("arm").seed.apply(tuple).nunique() == 1
    held = play_games(30, 3, lineup, seed=2, params={"continent": {"trade_at": 5}})
    assert games[games.arm == "continent holds"].winner.tolist() == held.winner.tolist()
    turns = games.groupby("arm").turns.apply(list)
    assert turns["continent holds"] != turns["control"]  # holding cards changed the games
    assert effects.loc["continent holds", "bot"] == "continent" and effects.loc["defensive at once", "trade_at"] == 3
    assert (effects.p_holm >= effects.p_value).all() and set(result["lengths"].measure) == {"turns", "rounds"}
    with pytest.raises(RiskstatsError, match="trade_at=2 of bot 'continent' is out of range"):
        trade_timing(5, 3, lineup, {"x": ("continent", 2)})
    with pytest.raises(RiskstatsError, match="unknown parameter 'trade_at' of bot 'random'"):
        trade_timing(5, 3, lineup, {"x": ("random", 3)})


def test_group_means_carry_their_intervals():
    from riskstats.analysis.cards import group_means

    frame = pd.DataFrame({"arm": ["b", "b", "b", "a", "a"], "x": [1.0, 2.0, 3.0, 5.0, 5.0]})
    means = group_means(frame, ["x"])
    assert means.arm.tolist() == ["b", "a"] and means.games.tolist() == [3, 2]
    assert means["mean"].tolist() == [2.0, 5.0] and means.ci_low[1] == means.ci_high[1] == 5.0
    assert means.ci_high[0] - 2.0 == pytest.approx(1.959964 * 1.0 / np.sqrt(3), rel=1e-5)
    with pytest.raises(RiskstatsError, match="no column y"):
        group_means(frame, ["y"])


def test_length_decomposition_parts_add_up_exactly(logged):
    from riskstats.analysis.cards import game_activity, length_decomposition, round_activity

    table, events = logged
    per_game = table.merge(game_activity(round_activity(events)), on="game")
    rng = np.random.default_rng(5)
    treated = per_game.assign(rounds=per_game.rounds * rng.integers(1, 4, len(per_game)),
                              armies_destroyed=per_game.armies_destroyed * rng.integers(1, 9, len(per_game)))
    games = pd.concat([per_game.assign(arm="control"), treated.assign(arm="treated")], ignore_index=True)
    parts = length_decomposition(games).set_index("part")
    c = parts.contribution
    assert c["rounds"] == pytest.approx(c["armies_destroyed"] + c["destroyed_per_round"], abs=1e-12)
    assert parts.share[["armies_destroyed", "destroyed_per_round"]].sum() == pytest.approx(1.0, abs=1e-12)
    ratio = treated.rounds / per_game.rounds  # the rounds' geometric-mean ratio, by hand
    assert parts.ratio["rounds"] == pytest.approx(float(np.exp(np.log(ratio).mean())), rel=1e-12)
    assert (parts.ci_low <= parts.log_effect).all() and (parts.log_effect <= parts.ci_high).all()
    assert (parts.contribution_low <= parts.contribution_high).all()
    assert (parts.share_low <= parts.share).all() and (parts.share <= parts.share_high).all()
    with pytest.raises(RiskstatsError, match="no column armies_destroyed"):
        length_decomposition(games.drop(columns="armies_destroyed"))
    with pytest.raises(RiskstatsError, match="no armies destroyed"):
        length_decomposition(games.assign(armies_destroyed=0))


def test_bot_ranking_ranks_only_where_win_rates_separate():
    from riskstats.analysis.cards import bot_ranking

    winners = [0] * 60 + [1] * 30 + [2] * 28 + [3] * 2
    rotated = pd.DataFrame({"bots": ["a,b,c,d"] * 120, "winner": winners, "seed": range(120)})
    games = pd.concat([rotated.assign(arm="x"), rotated.assign(arm="y", winner=[3 - w for w in winners])])
    ranks = bot_ranking(games, boot=50, seed=1).set_index(["arm", "bot"])
    assert ranks.loc[("x", "a"), "rank"] == 1 and ranks.loc[("x", "b"), "rank"] == ranks.loc[("x", "c"), "rank"]
    assert ranks.loc[("x", "d"), "rank"] == 4 and ranks.loc[("y", "d"), "rank"] == 1
    assert ranks.loc[("x", "b"), "rank"] > 1 and (ranks.trials == 120).all()
    assert ranks.loc[("x", "a"), "elo"] > ranks.loc[("x", "d"), "elo"]


def test_the_card_escalation_script_writes_resumable_runs_the_notebook_reads(tmp_path):
    import importlib.util
    from pathlib import Path

    from riskstats.analysis.cards import length_decomposition, timing_effects

    path = Path(__file__).resolve().parents[2] / "scripts" / "make" / "card_escalation.py"
    spec = importlib.util.spec_from_file_location("card_escalation", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    argv = ["--population", "strong", "--timing-games", "12", "--rule-games", "10", "--ranking-games", "8",
            "--out", str(tmp_path)]
    script.main(argv)
    names = {"strong_timing", "strong_rules", "strong_escalation", "strong_rounds", "strong_ranking", "runs"}
    assert {f.name.split(".")[0] for f in tmp_path.glob("*.csv*")} == names
    timing = pd.read_csv(tmp_path / "strong_timing.csv.gz")
    assert timing.groupby("arm").seed.apply(tuple).nunique() == 1 and len(timing) == 36
    effects = timing_effects(timing, {"trade at once": (script.FOCAL["strong"], 3),
                                      "hold until forced": (script.FOCAL["strong"], 5)})
    assert effects.bot.eq("value:rollouts=1:plans=4").all() and effects.games.eq(12).all()
    parts = length_decomposition(pd.read_csv(tmp_path / "strong_escalation.csv.gz"))
    assert set(parts.arm) == {"fixed", "none"}
    script.main(argv)  # resumable: every step is done already
    assert len(pd.read_csv(tmp_path / "runs.csv")) == 4


def _script():
    from tests.scripts import load_script

    return load_script("make", "card_escalation.py")


def test_the_top_tier_line_ups_treat_the_first_seat_and_play_the_tiers_bot_everywhere():
    from riskstats.analysis.cards import TIER_RUNS
    from riskstats.game.bots.catalog import parse_bot
    from riskstats.runs.tiers import TIER_SETS

    script = _script()
    for population, tier in TIER_RUNS.items():
        seats = script.POPULATIONS[population].split(",")
        assert seats[0] == script.FOCAL[population] == TIER_SETS["top"][tier]["bot"] and len(seats) == 4
        first, other = parse_bot(seats[0]), parse_bot(seats[1])
        assert first.label != other.label and tuple(first.values) == tuple(other.values)  # the same play
        assert script.RANKING[population].split(",")[0] == TIER_SETS["top"][tier]["bot"]
    hunter, against = (script.tier_lineup(e).split(",") for e in TIER_SETS["top_hunter"].values())
    assert hunter == ["hunter"] + ["hunter:trade_at=3"] * 3  # the hunter trades at once by default
    assert against == ["hunter"] + [TIER_SETS["top"]["search"]["bot"]] * 3  # the next best four-player bot, as it is


def test_a_tier_set_runs_each_tier_into_its_own_files(tmp_path):
    script = _script()
    script.main(["--set", "top_hunter", "--timing-games", "4", "--rule-games", "0", "--out", str(tmp_path)])
    for folder in ("top_hunter/hunter", "top_hunter/next_best"):
        timing = pd.read_csv(tmp_path / f"{folder}_timing.csv.gz")
        seats = timing.bots.str.split(",")  # rotated game by game: one treated seat, the tier's bot by its name
        assert len(timing) == 12 and seats.map(lambda b: b.count("hunter")).eq(1).all()
    assert timing.bots.str.count("search").eq(3).all()  # the hunter against three of the next best
    runs = pd.read_csv(tmp_path / "runs.csv")
    assert runs.file.tolist() == ["hunter_timing.csv.gz", "next_best_timing.csv.gz"]


def test_the_capture_step_writes_one_row_per_position(tmp_path):
    script = _script()
    script.main(["--population", "heuristic", "--timing-games", "0", "--rule-games", "0", "--capture-games", "6",
                 "--capture-rollouts", "2", "--out", str(tmp_path)])
    per_position = pd.read_csv(tmp_path / "heuristic_capture.csv.gz")
    assert {"game", "cards_captured", "win_with", "win_without", "effect"} <= set(per_position.columns)
    assert (per_position.rollouts == 2).all() and (per_position.cards_captured >= 1).all()
    assert pd.read_csv(tmp_path / "runs.csv").file.tolist() == ["heuristic_capture.csv.gz"]


def test_the_ranking_step_resumes_from_its_chunks_and_plays_the_games_compare_rules_plays(tmp_path, monkeypatch):
    from riskstats.analysis import cards
    from riskstats.runs import selfplay

    script = _script()
    monkeypatch.setattr(cards, "LOG_CHUNK", 3)
    play, calls = selfplay.play_games, []

    def interrupted(*args, **kwargs):  # the third chunk never ends
        calls.append(kwargs["first"])
        if len(calls) == 3:
            raise KeyboardInterrupt
        return play(*args, **kwargs)

    argv = ["--population", "strong", "--steps", "ranking", "--ranking-games", "5", "--out", str(tmp_path)]
    monkeypatch.setattr(selfplay, "play_games", interrupted)
    with pytest.raises(KeyboardInterrupt):
        script.main(argv)
    assert len(list((tmp_path / "strong_ranking.parts").glob("*.csv.gz"))) == 2
    monkeypatch.setattr(selfplay, "play_games", play)
    script.main(argv)
    assert not (tmp_path / "strong_ranking.parts").exists()
    ranking = pd.read_csv(tmp_path / "strong_ranking.csv.gz")
    whole = cards.compare_rules(5, 4, script.RANKING_LINEUP, script.RANKING_ARMS, seed=7)["games"]
    pd.testing.assert_frame_equal(ranking, script._keep(whole), check_dtype=False)
    assert pd.read_csv(tmp_path / "runs.csv").games.tolist() == [20]  # one step, logged once
