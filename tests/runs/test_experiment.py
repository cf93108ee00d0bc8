"""Experiment grids: the TOML format, validation before any game, resumable cells, combined table."""
import pathlib

import pandas as pd
import pytest

from riskstats.errors import RiskstatsError
from riskstats.runs.experiment import experiment_cells, load_experiment, read_experiment, run_experiment
from riskstats.runs.selfplay import play_games
from riskstats.stats.report import cell_win_rates

EXAMPLE = pathlib.Path(__file__).parents[2] / "scripts" / "experiments" / "example.toml"


def test_example_file_is_valid():
    cells = experiment_cells(load_experiment(EXAMPLE))
    assert len(cells) == 4
    # 3 and 4 players, each line-up one bot a seat: no bot seated twice (issue 42, item 5)
    assert [c["config"].players for c in cells] == [3, 3, 4, 4]
    assert all(len(set(c["config"].bots)) == c["config"].players for c in cells)
    # the file's vector, then the defaults
    assert cells[0]["config"].params == {"aggressive": [0.6, 3.0, 0.0, 0.0, 0.0]}


@pytest.mark.parametrize("spec, message", [
    ({"games": 5, "grid": {"players": [4, 7], "bots": ["aggressive"]}}, r"cell 1 .*players=7.*from 3 to 6"),
    ({"games": 5, "grid": {"players": [4], "bots": ["aggressive"], "variant": ["two-player"]}}, "needs 2 players"),
    ({"games": 5, "grid": {"players": [4], "bots": ["aggresive"]}}, "unknown bot"),
    ({"games": 5, "grid": {"players": [4], "bots": ["random"], "rules": {"colour": ["red"]}}}, "unknown rule option"),
    ({"games": 5, "grid": {"players": [4], "bots": ["random"]}, "params": {"wizard": [1]}}, "unknown bot wizard"),
    ({"games": 5, "grid": {"players": [4], "bots": ["continent"]}, "params": {"continent": {"treshold": 0.6}}},
     "unknown parameter 'treshold' of bot 'continent'"),
    ({"games": 5, "grid": {"players": [4], "bots": ["continent:threshold=2"]}}, "out of range"),
    ({"games": 5, "gird": {}}, "unknown experiment key gird"),
    ({"grid": {"players": [4], "bots": ["random"]}}, "needs games"),
    ({"games": 5, "grid": {"players": 4, "bots": ["random"]}}, "non-empty list"),
    ({"games": 5, "grid": {"players": [4, 3], "bots": ["random,aggressive,continent,defensive"]}},
     r"cell 1 \(.*players=3.*\): 4 bots for 3 seats"),
])
def test_bad_experiments_fail_before_any_game(spec, message, tmp_path):
    with pytest.raises(RiskstatsError, match=message):
        run_experiment(spec, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_bad_toml_is_a_clear_error(tmp_path):
    (tmp_path / "bad.toml").write_text("games = = 3")
    with pytest.raises(RiskstatsError, match="not valid TOML"):
        load_experiment(tmp_path / "bad.toml")
    with pytest.raises(RiskstatsError, match="cannot read"):
        load_experiment(tmp_path / "missing.toml")


def test_cells_run_resume_and_combine(tmp_path):
    spec = {"games": 12, "seed": 4, "chunk_size": 5,
            "grid": {"players": [3, 4], "bots": ["aggressive,defensive"], "rules": {"escalation": ["fixed"]},
                     "params": {"aggressive": [[0.5], [0.7]]}}}
    table = run_experiment(spec, tmp_path / "exp")
    assert len(table) == 48 and table.cell.nunique() == 4
    assert {"rules.escalation", "params.aggressive", "lineup"} <= set(table.columns)
    cell = table[table.cell == "cell-000"].drop(columns=["cell", "rules.escalation", "params.aggressive", "lineup"])
    from riskstats.game.rules.options import GameRules

    expected = play_games(12, 3, ["aggressive", "defensive"], seed=4, rules=GameRules(escalation="fixed"),
                          params={"aggressive": [0.5]})
    pd.testing.assert_frame_equal(cell.reset_index(drop=True).astype({"rules": "category"}), expected)
    # lose one part of one cell and resume: same combined table
    next((tmp_path / "exp" / "cell-002").glob("part-*")).unlink()
    pd.testing.assert_frame_equal(run_experiment(spec, tmp_path / "exp"), table)
    pd.testing.assert_frame_equal(read_experiment(tmp_path / "exp"), table)
    with pytest.raises(RiskstatsError, match="different experiment"):
        run_experiment(spec | {"seed": 5}, tmp_path / "exp")
    with pytest.raises(RiskstatsError, match="different experiment"):
        run_experiment(spec | {"games": 10}, tmp_path / "exp")  # an experiment never shrinks
    # asked for more games, every cell grows into the experiment of that size: its first games kept
    grown = run_experiment(spec | {"games": 15}, tmp_path / "exp")
    pd.testing.assert_frame_equal(grown, run_experiment(spec | {"games": 15}, tmp_path / "fresh"))
    assert grown.attrs["games_present"] == 48
    rates = cell_win_rates(table)
    assert list(rates.cell.unique()) == ["cell-000", "cell-001", "cell-002", "cell-003"]
    first = rates[rates.cell == "cell-000"].set_index("bot")
    assert first.loc["aggressive", "wins"] == (expected.winner_bot == "aggressive").sum()
    # trials are games: each of the two bots has one per game (however many of the 3 seats it holds)
    assert (first.trials + first.truncated).sum() == 12 * 2
    assert (rates.groupby("cell").players.first() == [3, 3, 4, 4]).all()
    assert rates["params.aggressive"].nunique() == 2


def test_bot_parameters_in_line_ups_and_tables(tmp_path):
    spec = {"games": 6, "seed": 2,
            "grid": {"players": [3], "bots": ["continent:threshold=0.6,aggressive"],
                     "params": {"continent": [{"card_threshold": 0.9}, {"card_threshold": 0.7}]}}}
    cells = experiment_cells(spec)
    tail = [-1.0, 3.0, 0.0, 4.0, 1.0, 0.0, 0.0, 0.0, 0.0]
    assert [c["config"].params for c in cells] == [{"continent": [0.5, 0.9, 2.0, *tail]},
                                                   {"continent": [0.5, 0.7, 2.0, *tail]}]
    assert cells[0]["config"].bots == ("continent:threshold=0.6", "aggressive")
    table = run_experiment(spec, tmp_path / "exp")
    expected = play_games(6, 3, "continent:threshold=0.6:card_threshold=0.9,aggressive", seed=2)
    first = table[table.cell == "cell-000"]
    assert (first.winner.to_numpy() == expected.winner.to_numpy()).all()
    assert set(first["params.continent"]) == {"card_threshold=0.9"}
    assert set(table["params.continent"]) == {"card_threshold=0.9", "card_threshold=0.7"}


def test_an_experiment_recorded_without_seed_schemes_resumes_as_scheme_one(tmp_path, monkeypatch):
    from riskstats.runs import results
    from riskstats.runs.tournament import RunConfig

    spec = {"games": 6, "seed": 3, "chunk_size": 4, "grid": {"players": [3], "bots": ["aggressive", "defensive"]}}
    record = RunConfig.record
    with monkeypatch.context() as old_version:
        old_version.setattr(RunConfig, "record", lambda self: {k: v for k, v in record(self).items()
                                                               if k != "seed_scheme"})
        first = run_experiment(spec, tmp_path / "exp")
    assert "seed_scheme" not in results.read_json(tmp_path / "exp" / "experiment.json")["cells"][0]["run"]
    pd.testing.assert_frame_equal(run_experiment(spec, tmp_path / "exp"), first)  # recognised, not replayed
    (tmp_path / "exp" / "cell-001" / "part-000000000004-000000000006.parquet").unlink()
    pd.testing.assert_frame_equal(run_experiment(spec, tmp_path / "exp"), first)  # resumed with scheme 1
    assert read_experiment(tmp_path / "exp")["game"].tolist() == [0, 1, 2, 3, 4, 5] * 2


def test_runs_recorded_before_newer_options_and_parameters_still_resume(tmp_path, monkeypatch):
    """A record written before ``cards_per_turn`` and ``trade_at`` existed (no such rule option, shorter
    bot parameter vectors) describes the same games: it resumes instead of being refused."""
    from riskstats.runs import results
    from riskstats.runs.tournament import RunConfig

    spec = {"games": 6, "seed": 3, "chunk_size": 4, "grid": {"players": [3], "bots": ["aggressive,defensive"]},
            "rules": {"cards_per_turn": "one"}, "params": {"aggressive": [0.6]}}
    record = RunConfig.record

    def older(self):
        old = record(self)
        old["rules"] = {k: v for k, v in old["rules"].items() if k != "cards_per_turn"}
        old["bot_params"] = {k: v[:-4] for k, v in old["bot_params"].items()}  # no trade_at, no placement
        return old

    with monkeypatch.context() as old_version:
        old_version.setattr(RunConfig, "record", older)
        first = run_experiment(spec, tmp_path / "exp")
    stored = results.read_json(tmp_path / "exp" / "experiment.json")["cells"][0]["run"]
    assert "cards_per_turn" not in stored["rules"] and stored["bot_params"]["aggressive"] == [0.6]
    (tmp_path / "exp" / "cell-000" / "part-000000000004-000000000006.parquet").unlink()
    pd.testing.assert_frame_equal(run_experiment(spec, tmp_path / "exp"), first)  # resumed, same games
    changed = spec | {"rules": {"cards_per_turn": "per_conquest"}}
    with pytest.raises(RiskstatsError, match="different experiment"):
        run_experiment(changed, tmp_path / "exp")


def test_the_cards_per_turn_rule_travels_in_experiment_files():
    cells = experiment_cells({"games": 4, "grid": {"players": [4], "bots": ["aggressive"],
                                                   "rules": {"cards_per_turn": ["one", "per_conquest"]}}})
    assert [c["config"].game_rules().cards_per_turn for c in cells] == ["one", "per_conquest"]
    with pytest.raises(RiskstatsError, match="cards_per_turn must be one of one, per_conquest, got 'two'"):
        experiment_cells({"games": 4, "grid": {"players": [4], "bots": ["aggressive"]},
                          "rules": {"cards_per_turn": "two"}})


def test_swept_parameters_are_named_in_tables_however_the_file_wrote_them(tmp_path):
    """A vector ``[0.5, 0.75, 2.0, 5]`` and ``{first = "Australia"}`` are the same cell: tables read
    ``first=Australia`` (and -1, the bot's own choice, ``first=own``); rewriting an experiment's file by name
    resumes it instead of refusing it."""
    vectors = {"games": 4, "seed": 2, "grid": {"players": [3], "bots": ["continent,aggressive"],
                                               "params": {"continent": [[0.5, 0.75, 2.0, -1], [0.5, 0.75, 2.0, 5]]}}}
    table = run_experiment(vectors, tmp_path / "exp")
    assert list(table.groupby("cell")["params.continent"].first()) == ["first=own", "first=Australia"]
    named = vectors | {"grid": vectors["grid"] | {"params": {"continent": [{"first": -1}, {"first": "Australia"}]}}}
    again = run_experiment(named, tmp_path / "exp")  # the same games: recognised, not refused
    pd.testing.assert_frame_equal(again, table)
    from riskstats.runs import results

    labels = [c["label"]["params.continent"] for c in results.read_json(tmp_path / "exp" / "experiment.json")["cells"]]
    assert labels == [{"first": -1}, {"first": "Australia"}]
    rates = cell_win_rates(again)
    assert set(rates["params.continent"]) == {"first=own", "first=Australia"}
    with pytest.raises(RiskstatsError, match="different experiment"):
        run_experiment(vectors | {"grid": vectors["grid"] | {"params": {"continent": [{"first": 1}, {"first": 5}]}}},
                       tmp_path / "exp")


TOP_FILES = {"continent_first_top": {"top": "continent_first/top", "top_hunter": "continent_first/top_hunter"},
             "first_player_top": {"top": "first_player/top", "top_hunter": "first_player/top_hunter"},
             "seat_advantage_top": {"top": "seat_advantage/top", "top_hunter": "seat_advantage/top_hunter"},
             "seat_advantage_top_more": {"top": "seat_advantage/top_more"},
             "two_player_top": {"top": "two_player/top", "top_hunter": "two_player/top_hunter"}}
"""The experiment files of the top tier's populations and the data folders their committed runs made, by tier set."""


@pytest.mark.parametrize("name", TOP_FILES)
def test_the_top_tier_experiments_read_the_tier_from_one_place_and_make_the_committed_cells(name):
    """Issue 52 item 2: each top-tier experiment file names its populations by the placeholders alone, expanded from
    a tier set (`riskstats.runs.tiers.TIER_SETS`; by default the judging one, `TOP_TIER`), and each set gives exactly
    the cells of its committed run."""
    import json

    from riskstats.analysis.paths import data_dir
    from riskstats.runs.tiers import JUDGING, TIER_SETS, TOP_TIER

    path = pathlib.Path(__file__).parents[2] / "scripts" / "experiments" / f"{name}.toml"
    spec = load_experiment(path)
    assert all("{top}" in lineup and "search" not in lineup for lineup in spec["grid"]["bots"])
    for tier_set, folder in TOP_FILES[name].items():
        committed = json.loads((data_dir() / folder / "experiment.json").read_text())["cells"]
        assert [c["label"] for c in experiment_cells(spec, TIER_SETS[tier_set])] == [c["label"] for c in committed]
    assert experiment_cells(spec) == experiment_cells(spec, TOP_TIER) == experiment_cells(spec, TIER_SETS[JUDGING])
    lineups = [c["label"]["bots"] for c in experiment_cells(spec, TIER_SETS["top_hunter"])]
    against = [",search" in b for b in lineups]  # the second tier's cells, one for each of the first's
    assert all(b.startswith("hunter") for b in lineups) and sum(against) * 2 == len(lineups)


def test_a_top_tier_template_cannot_be_mixed_with_plain_line_ups():
    with pytest.raises(RiskstatsError, match="names no {top}"):
        experiment_cells({"games": 10, "grid": {"players": [4], "bots": ["{top}", "aggressive"]}})
