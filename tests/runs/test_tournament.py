"""Chunked, resumable self-play runs: same games whatever the chunks, workers or interruptions."""
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

from riskstats.errors import RiskstatsError
from riskstats.runs.results import read_results
from riskstats.runs.selfplay import play_games
from riskstats.runs.tournament import RunConfig, chunk_ranges, run_selfplay

BOTS = ("random", "aggressive", "continent", "defensive")


def config(**kwargs):
    return RunConfig(**({"games": 60, "players": 4, "bots": BOTS, "seed": 9, "chunk_size": 16} | kwargs))


@pytest.fixture(scope="module")
def reference():
    return play_games(60, 4, list(BOTS), seed=9)


def test_chunk_ranges_fill_the_gaps_on_the_grid():
    c = config(games=50, chunk_size=20)
    assert chunk_ranges(c) == [(0, 20), (20, 40), (40, 50)]
    assert chunk_ranges(c, [(20, 40)]) == [(0, 20), (40, 50)]
    assert chunk_ranges(c, [(0, 5), (10, 20), (45, 50)]) == [(5, 10), (20, 40), (40, 45)]
    assert chunk_ranges(c, [(5, 45)]) == [(0, 5), (45, 50)]  # a part spanning chunks (another chunk size)
    assert chunk_ranges(c, [(0, 50)]) == []
    with pytest.raises(RiskstatsError, match="games 5-9 twice"):
        chunk_ranges(c, [(0, 10), (5, 15)])
    with pytest.raises(RiskstatsError, match="games 10-19 twice"):
        chunk_ranges(c, [(0, 30), (10, 20)])


def test_chunks_in_memory_and_on_disk_equal_one_call(reference, tmp_path):
    pd.testing.assert_frame_equal(run_selfplay(config()), reference)
    on_disk = run_selfplay(config(), tmp_path / "run")
    pd.testing.assert_frame_equal(on_disk, reference)
    pd.testing.assert_frame_equal(read_results(tmp_path / "run"), reference)
    assert read_results(tmp_path / "run").attrs["run"]["bot_params"]["aggressive"][0] == 0.5


def test_resume_after_interruption_gives_the_uninterrupted_rows(reference, tmp_path):
    seen = []

    def stop_after_two(done, total):
        seen.append(done)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_selfplay(config(), tmp_path / "run", progress=stop_after_two)
    assert len(list((tmp_path / "run").glob("part-*"))) == 2
    (tmp_path / "run" / ".part-x.parquet.tmp-1").write_bytes(b"half a file")  # a killed writer's leftovers
    calls = []
    resumed = run_selfplay(config(chunk_size=7), tmp_path / "run", workers=1, progress=lambda d, t: calls.append(d))
    assert calls[0] == 32  # the two finished chunks were kept, not replayed
    pd.testing.assert_frame_equal(resumed, reference)
    assert not list((tmp_path / "run").glob(".*tmp*"))


def test_single_file_output_resumes_and_combines(reference, tmp_path):
    target = tmp_path / "games.parquet"
    with pytest.raises(KeyboardInterrupt):
        run_selfplay(config(), target, progress=lambda d, t: (_ for _ in ()).throw(KeyboardInterrupt) if d else None)
    assert not target.exists() and (tmp_path / "games.parquet.parts").is_dir()
    pd.testing.assert_frame_equal(run_selfplay(config(), target), reference)
    assert target.exists() and not (tmp_path / "games.parquet.parts").exists()
    pd.testing.assert_frame_equal(run_selfplay(config(), target), reference)  # finished: read back
    with pytest.raises(RiskstatsError, match="games.parquet holds a different run: seed: stored 9, asked 1 "):
        run_selfplay(config(seed=1), target)


@pytest.mark.parametrize("name", ["run", "games.parquet", "games.csv"])
def test_unloaded_run_writes_the_same_results(reference, tmp_path, name):
    assert run_selfplay(config(), tmp_path / name, load=False) is None
    written = read_results(tmp_path / name)
    if name.endswith(".csv"):  # combined part by part: the same text as the whole table at once
        assert (tmp_path / name).read_text() == reference.to_csv(index=False)
    else:
        pd.testing.assert_frame_equal(written, reference)
        assert written.attrs["run"] == config().record()
        assert run_selfplay(config(), tmp_path / name, load=False) is None  # finished: nothing to do
    with pytest.raises(RiskstatsError, match="must be loaded"):
        run_selfplay(config(), load=False)


def test_one_worker_and_many_give_identical_tables(reference):
    one = run_selfplay(config(chunk_size=60), workers=1)
    many = run_selfplay(config(chunk_size=13), workers=os.cpu_count())
    pd.testing.assert_frame_equal(one, many)
    pd.testing.assert_frame_equal(one, reference)


def test_resuming_another_run_is_an_error(tmp_path):
    run_selfplay(config(games=4), tmp_path / "run")
    with pytest.raises(RiskstatsError, match="different run.*seed"):
        run_selfplay(config(games=4, seed=10), tmp_path / "run")
    with pytest.raises(RiskstatsError, match="different run.*rules"):
        run_selfplay(config(games=4, rules={"escalation": "fixed"}), tmp_path / "run")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(RiskstatsError, match="no riskstats run"):
        run_selfplay(config(games=4), tmp_path / "other")


@pytest.mark.parametrize("kwargs, message", [
    ({"players": 7}, "players must be from 3 to 6"),
    ({"variant": "two-player", "players": 4}, "two-player variant needs 2 players"),
    ({"bots": ("aggressive", "wizard")}, "unknown bot"),
    ({"rules": {"escalatoin": "fixed"}}, "unknown rule option escalatoin"),
    ({"rules": {"dice": {"sides": 8}}}, "unknown dice option sides"),
    ({"params": {"random": (1, 2, 3, 4, 5, 6)}}, "parameters"),
    ({"bots": ("aggressive",), "params": {"defensive": (0.5, 1.0, 0.97)}}, "not playing"),
    ({"variant": "risk2210"}, "variant"),
    ({"games": 0}, "games"),
])
def test_impossible_runs_fail_before_any_game(kwargs, message):
    with pytest.raises(RiskstatsError, match=message):
        config(**kwargs)


@pytest.mark.parametrize("kwargs", [
    {"players": 7}, {"bots": ("aggressive", "wizard")}, {"games": 0}, {"seed": -1},
    {"params": {"random": (1, 2, 3)}}, {"variant": "two-player", "players": 4}, {"games": 10**9},
])
def test_run_config_and_play_games_share_one_check(kwargs):
    """The same bad input gets the same message from a RunConfig and from play_games: one check."""
    args = {"games": 4, "players": 4, "bots": BOTS, "seed": 9} | kwargs
    with pytest.raises(RiskstatsError) as from_config:
        RunConfig(**args)
    with pytest.raises(RiskstatsError) as from_play:
        play_games(**(args | {"bots": list(args["bots"])}))
    assert str(from_config.value) == str(from_play.value)


def test_a_checked_run_is_not_checked_again(reference, monkeypatch):
    """Chunks are played from the RunConfig's checked batch: the check runs when the config is built only."""
    import pickle

    from riskstats.runs import selfplay

    c = config(chunk_size=25)
    calls = []
    monkeypatch.setattr(selfplay, "check_games", lambda *a, **k: calls.append(a))
    assert run_selfplay(c).equals(reference)
    shipped = pickle.dumps(c)  # what a Dask task carries: the fields, not the board
    assert calls == [] and len(shipped) < 1000
    assert run_selfplay(pickle.loads(shipped)).equals(reference)


def test_record_round_trips():
    c = config(rules={"escalation": "fixed", "dice": {"defender_modifier": 1}}, params={"aggressive": [0.7]})
    again = RunConfig.from_record(c.record(), chunk_size=16)
    assert again.record() == c.record() and again.game_rules() == c.game_rules()
    assert c.record()["bot_params"] == {"random": [0.0, 0.5], "aggressive": [0.7, 3.0, 0.0, 0.0, 0.0],
                                        "continent": [0.5, 0.75, 2.0, -1.0, 3.0, 0.0, 4.0, 1.0, 0.0, 0.0, 0.0, 0.0],
                                        "defensive": [0.8, 1.0, 0.97, 5.0, 0.0, 0.0, 0.0]}



def test_bot_specs_round_trip_and_play_as_given():
    c = config(games=8, bots=("continent:threshold=0.60", "continent", "aggressive"),
               params={"continent": {"card_threshold": 0.9}})
    assert c.bots == ("continent:threshold=0.6", "continent", "aggressive")
    tail = [-1.0, 3.0, 0.0, 4.0, 1.0, 0.0, 0.0, 0.0, 0.0]
    assert c.record()["bot_params"] == {"continent:threshold=0.6": [0.6, 0.9, 2.0, *tail],
                                        "continent": [0.5, 0.9, 2.0, *tail],
                                        "aggressive": [0.5, 3.0, 0.0, 0.0, 0.0]}
    again = RunConfig.from_record(c.record(), chunk_size=16)
    assert again.record() == c.record()
    pd.testing.assert_frame_equal(run_selfplay(again), run_selfplay(c))
    direct = play_games(8, 4, ["continent:threshold=0.6:card_threshold=0.9", "continent:card_threshold=0.9",
                               "aggressive"], seed=9)
    assert run_selfplay(c).winner.tolist() == direct.winner.tolist()

@pytest.mark.slow
def test_killed_process_resumes_without_losing_or_doubling_games(tmp_path):
    out = tmp_path / "run"
    args = [sys.executable, "-m", "riskstats", "selfplay", "--games", "2400", "--players", "4", "--bots",
            ",".join(BOTS), "--seed", "5", "--chunk-size", "200", "--workers", "1", "--out", str(out)]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 120
    while time.time() < deadline and len(list(out.glob("part-*"))) < 2 and process.poll() is None:
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    kept = len(list(out.glob("part-*")))
    assert 2 <= kept < 12, process.stderr.read().decode()
    resumed = run_selfplay(RunConfig(2400, 4, BOTS, seed=5, chunk_size=200), out)
    pd.testing.assert_frame_equal(resumed, play_games(2400, 4, list(BOTS), seed=5))


@pytest.fixture
def small_seed_blocks(monkeypatch):
    """Seed blocks of 16 games, so that 60-game runs cross several (the real ones hold 65,536)."""
    from riskstats.runs import selfplay

    monkeypatch.setattr(selfplay, "SEED_BLOCK", 16)
    monkeypatch.setattr(selfplay, "_BLOCKS", {})


def test_scheme_two_runs_give_the_same_games_whatever_the_chunks_and_threads(small_seed_blocks, tmp_path):
    expected = play_games(60, 4, list(BOTS), seed=9)
    assert (expected["seed"][16:] != play_games(60, 4, list(BOTS), seed=9, seed_scheme=1)["seed"][16:]).all()
    pd.testing.assert_frame_equal(run_selfplay(config(chunk_size=7), workers=1), expected)
    pd.testing.assert_frame_equal(run_selfplay(config(chunk_size=60), workers=os.cpu_count()), expected)
    pd.testing.assert_frame_equal(run_selfplay(config(chunk_size=13), tmp_path / "run"), expected)
    assert read_results(tmp_path / "run").attrs["run"]["seed_scheme"] == 2


def test_a_run_recorded_without_a_scheme_resumes_with_scheme_one(small_seed_blocks, tmp_path, monkeypatch):
    """Runs written before seed schemes were versioned record none: they are scheme 1 and stay so."""
    record = RunConfig.record
    with monkeypatch.context() as old_version:
        old_version.setattr(RunConfig, "record", lambda self: {k: v for k, v in record(self).items()
                                                               if k != "seed_scheme"})
        with pytest.raises(KeyboardInterrupt):
            run_selfplay(config(seed_scheme=1), tmp_path / "run",
                         progress=lambda done, total: (_ for _ in ()).throw(KeyboardInterrupt) if done > 20 else None)
    assert "seed_scheme" not in read_results(tmp_path / "run").attrs["run"]
    with pytest.raises(RiskstatsError, match="seed_scheme: stored 1, asked 2"):
        run_selfplay(config(seed_scheme=2), tmp_path / "run")
    resumed = run_selfplay(config(chunk_size=10), tmp_path / "run")  # the CLI's configuration: no scheme
    pd.testing.assert_frame_equal(resumed, play_games(60, 4, list(BOTS), seed=9, seed_scheme=1))
    assert RunConfig.from_record({k: v for k, v in config().record().items() if k != "seed_scheme"}).seed_scheme == 1
    with pytest.raises(RiskstatsError, match="unknown seed scheme 7"):
        config(seed_scheme=7)
