"""The Dask path: a LocalCluster started by the test plays the same games as a local run."""
import pandas as pd
import pytest

pytest.importorskip("distributed")

from riskstats.experiment import run_experiment  # noqa: E402
from riskstats.selfplay import play_games  # noqa: E402
from riskstats.tournament import RunConfig, run_selfplay  # noqa: E402


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
