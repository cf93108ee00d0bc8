"""The Dask path: a LocalCluster started by the test plays the same games as a local run, and its
workers write their chunks themselves."""
import pickle

import pandas as pd
import pytest

pytest.importorskip("distributed")

from riskstats.runs.experiment import run_experiment  # noqa: E402
from riskstats.runs.results import read_results  # noqa: E402
from riskstats.runs.selfplay import play_games  # noqa: E402
from riskstats.runs.tournament import RunConfig, run_selfplay  # noqa: E402


@pytest.mark.slow
def test_local_cluster_matches_local_run_and_resumes(tmp_path):
    from distributed import Client, LocalCluster

    bots = ("random", "aggressive", "continent")
    config = RunConfig(games=90, players=3, bots=bots, seed=21, chunk_size=20)
    reference = play_games(90, 3, list(bots), seed=21)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        pd.testing.assert_frame_equal(run_selfplay(config, client=client), reference)
        short = RunConfig(games=30, players=3, bots=bots, seed=21, chunk_size=20)
        pd.testing.assert_frame_equal(run_selfplay(short, scheduler=cluster.scheduler_address), reference[:30])
        # half a run locally, the rest on the cluster
        with pytest.raises(KeyboardInterrupt):
            run_selfplay(config, tmp_path / "run", workers=1,
                         progress=lambda done, total: (_ for _ in ()).throw(KeyboardInterrupt) if done >= 40 else None)
        pd.testing.assert_frame_equal(run_selfplay(config, tmp_path / "run", client=client), reference)
        spec = {"games": 10, "seed": 2, "chunk_size": 4, "grid": {"players": [3], "bots": ["aggressive,defensive"]}}
        table = run_experiment(spec, tmp_path / "exp", client=client)
    assert len(table) == 10


@pytest.fixture
def received(monkeypatch):
    """Everything the client takes from the cluster's futures, as it arrives."""
    from distributed import Future

    seen = []
    result = Future.result

    def recording(future, *args, **kwargs):
        value = result(future, *args, **kwargs)
        seen.append(value)
        return value

    monkeypatch.setattr(Future, "result", recording)
    return seen


METADATA = {"start", "stop", "path", "bytes", "written"}


@pytest.mark.slow
def test_workers_write_their_chunks_and_the_client_holds_only_metadata(tmp_path, received):
    from distributed import Client, LocalCluster

    bots = ("random", "aggressive", "continent")
    config = RunConfig(games=90, players=3, bots=bots, seed=21, chunk_size=20)
    reference = play_games(90, 3, list(bots), seed=21)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        for out in (tmp_path / "run", f"file://{tmp_path}/games.parquet"):  # a shared directory, a URL
            received.clear()
            assert run_selfplay(config, out, client=client, load=False) is None
            assert sorted((r["start"], r["stop"]) for r in received) == [(0, 20), (20, 40), (40, 60), (60, 80),
                                                                          (80, 90)]
            assert all(set(r) == METADATA and r["written"] and len(pickle.dumps(r)) < 300 for r in received)
            pd.testing.assert_frame_equal(read_results(out), reference)
        received.clear()
        pd.testing.assert_frame_equal(run_selfplay(config, client=client), reference)  # no storage: tables
        assert all(isinstance(r, pd.DataFrame) for r in received) and len(received) == 5


def test_dask_local_option_starts_its_own_cluster():
    config = RunConfig(games=12, players=2, bots=("aggressive", "defensive"), variant="two-player", seed=3,
                       chunk_size=5)
    pd.testing.assert_frame_equal(run_selfplay(config, dask_local=2),
                                  play_games(12, 2, ["aggressive", "defensive"], variant="two-player", seed=3))


@pytest.mark.slow
@pytest.mark.parametrize("workers", [2, 1])
def test_worker_killed_mid_run_has_its_chunks_rerun_once(tmp_path, received, workers):
    """A worker process killed partway: Dask re-runs its chunks; each is written exactly once.

    With one worker the nanny's restarted process plays the rest: nothing a task needs may live only on
    the lost worker (the configuration is sent with each task, not scattered).
    """
    import os
    import signal

    from distributed import Client, LocalCluster

    from riskstats.runs import results

    config = RunConfig(games=400, players=3, bots=("random", "aggressive", "continent"), seed=5, chunk_size=25)
    lost = []
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        pids = client.run(os.getpid)

        def kill_after_first_chunk(done, total):
            if done and not lost:  # one chunk written, the others in flight on both workers
                processing = client.processing()
                victim = max(pids, key=lambda address: len(processing.get(address, ())))
                lost.extend(processing.get(victim, ()))
                os.kill(pids[victim], signal.SIGKILL)

        table = run_selfplay(config, tmp_path / "run", client=client, progress=kill_after_first_chunk)
        assert lost, "the killed worker held no chunk"
        runs = client.run_on_scheduler(lambda dask_scheduler: [
            sum(step[2] == "processing" for step in dask_scheduler.story(key)) for key in lost])
    assert min(runs) >= 2  # each chunk the killed worker held was scheduled again
    grid = [(start, min(start + 25, 400)) for start in range(0, 400, 25)]
    assert sorted((r["start"], r["stop"]) for r in received) == grid  # every chunk reported once
    assert all(set(r) == METADATA for r in received)
    assert results.RunStore(tmp_path / "run", {}, None).done_ranges() == grid  # none lost, none doubled
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == ["_run.json"] + [
        f"part-{a:012d}-{b:012d}.parquet" for a, b in grid]  # no temporary file of the killed worker left
    pd.testing.assert_frame_equal(table, run_selfplay(config))
    assert table["game"].tolist() == list(range(400))
