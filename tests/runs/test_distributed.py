"""The Dask path: a LocalCluster started by the test plays the same games as a local run."""
import pandas as pd
import pytest

pytest.importorskip("distributed")

from riskstats.runs.experiment import run_experiment  # noqa: E402
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


def test_dask_local_option_starts_its_own_cluster():
    config = RunConfig(games=12, players=2, bots=("aggressive", "defensive"), variant="two-player", seed=3,
                       chunk_size=5)
    pd.testing.assert_frame_equal(run_selfplay(config, dask_local=2),
                                  play_games(12, 2, ["aggressive", "defensive"], variant="two-player", seed=3))


@pytest.mark.slow
@pytest.mark.parametrize("workers", [2, 1])
def test_worker_killed_mid_run_has_its_chunks_rerun_once(tmp_path, monkeypatch, workers):
    """A worker process killed partway: Dask re-runs its chunks; the client writes each exactly once.

    With one worker the nanny's restarted process plays the rest: nothing a task needs may live only on
    the lost worker (the configuration is sent with each task, not scattered).
    """
    import os
    import signal

    from distributed import Client, LocalCluster

    from riskstats.runs import results

    config = RunConfig(games=400, players=3, bots=("random", "aggressive", "continent"), seed=5, chunk_size=25)
    written, lost = [], []
    write_part = results.RunStore.write_part
    monkeypatch.setattr(results.RunStore, "write_part",
                        lambda store, start, stop, table: (written.append((start, stop)),
                                                           write_part(store, start, stop, table)))
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
    assert sorted(written) == grid  # every chunk written once: none lost, none doubled
    assert results.RunStore(tmp_path / "run", {}, None).done_ranges() == grid
    pd.testing.assert_frame_equal(table, run_selfplay(config))
    assert table["game"].tolist() == list(range(400))
