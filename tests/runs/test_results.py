"""Results files: atomic parts with the run's configuration, and clear errors for foreign files."""
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from riskstats.errors import RiskstatsError
from riskstats.runs.results import open_run, read_results, write_files
from riskstats.runs.tournament import RunConfig, run_selfplay


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("results") / "run"
    run_selfplay(RunConfig(6, 3, ("aggressive", "defensive"), seed=2, chunk_size=4), folder)
    return folder


def test_parts_carry_the_full_configuration(run):
    parts = sorted(run.glob("part-*.parquet"))
    assert [p.name for p in parts] == ["part-000000000000-000000000004.parquet",
                                       "part-000000000004-000000000006.parquet"]
    record = read_results(run).attrs["run"]
    assert record["seed"] == 2 and record["bots"] == ["aggressive", "defensive"]
    assert record["rules"]["escalation"] == "progressive" and "riskstats_version" in record
    assert set(record["bot_params"]) == {"aggressive", "defensive"}
    assert b"riskstats" in pq.read_schema(parts[0]).metadata


def test_foreign_and_unreadable_files_are_clear_errors(tmp_path, run):
    foreign = tmp_path / "foreign.parquet"
    pq.write_table(pa.table({"x": [1, 2]}), foreign)
    with pytest.raises(RiskstatsError, match="not a riskstats results file"):
        read_results(foreign)
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(b"not parquet at all")
    with pytest.raises(RiskstatsError, match="cannot read"):
        read_results(broken)
    pd.DataFrame({"x": [1]}).to_csv(tmp_path / "other.csv", index=False)
    with pytest.raises(RiskstatsError, match="missing columns"):
        read_results(tmp_path / "other.csv")
    with pytest.raises(RiskstatsError, match="no results"):
        read_results(tmp_path / "absent")
    with pytest.raises(RiskstatsError, match="_run.json missing"):
        read_results(tmp_path)
    with pytest.raises(RiskstatsError, match="not this run"):
        open_run(foreign, RunConfig(6, 3, ("aggressive",)).record())


def test_a_part_from_another_run_is_rejected(tmp_path, run):
    other = tmp_path / "other"
    run_selfplay(RunConfig(2, 3, ("aggressive",), seed=5), other)
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    for p in run.iterdir():
        (mixed / p.name).write_bytes(p.read_bytes())
    (mixed / "part-000000000006-000000000008.parquet").write_bytes(
        next(other.glob("part-*")).read_bytes())
    with pytest.raises(RiskstatsError, match="not written by the run"):
        read_results(mixed)


def test_a_run_on_an_fsspec_url_is_written_read_and_resumed():
    """Every read and write of a run goes through fsspec: an in-memory filesystem stands in for s3://."""
    import fsspec

    config = RunConfig(7, 3, ("aggressive", "defensive"), seed=2, chunk_size=3)
    reference = run_selfplay(config)
    fs = fsspec.filesystem("memory")
    try:
        with pytest.raises(KeyboardInterrupt):
            run_selfplay(config, "memory://riskstats-test/games.parquet",
                         progress=lambda done, total: (_ for _ in ()).throw(KeyboardInterrupt) if done else None)
        assert fs.ls("/riskstats-test/games.parquet.parts", detail=False) == [
            "/riskstats-test/games.parquet.parts/_run.json",
            "/riskstats-test/games.parquet.parts/part-000000000000-000000000003.parquet"]
        assert run_selfplay(config, "memory://riskstats-test/games.parquet", load=False) is None
        assert not fs.exists("/riskstats-test/games.parquet.parts")
        pd.testing.assert_frame_equal(read_results("memory://riskstats-test/games.parquet"), reference)
    finally:
        fs.rm("/riskstats-test", recursive=True)


def test_writing_a_part_twice_keeps_the_first(tmp_path):
    config = RunConfig(4, 3, ("aggressive",), seed=1)
    store = open_run(tmp_path / "run", config.record())
    table = run_selfplay(config)
    first = store.write_part(0, 4, table)
    assert first["written"] and first["bytes"] == (tmp_path / "run" / first["path"].split("/")[-1]).stat().st_size
    again = store.write_part(0, 4, table.iloc[:0])  # a re-run of the same chunk: not written over
    assert not again["written"] and again["bytes"] == first["bytes"]
    pd.testing.assert_frame_equal(read_results(tmp_path / "run"), table)


def test_a_finished_csv_run_keeps_its_record_beside_it(tmp_path):
    config = RunConfig(5, 3, ("aggressive",), seed=3, chunk_size=2)
    out = tmp_path / "games.csv"
    table = run_selfplay(config, out)
    assert (tmp_path / "games.csv.json").exists() and not (tmp_path / "games.csv.parts").exists()
    assert read_results(out).attrs["run"] == config.record()
    seen = []
    again = run_selfplay(config, out, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(5, 5)]  # complete: nothing played, and the progress callback says so
    assert again["winner"].tolist() == table["winner"].tolist()
    with pytest.raises(RiskstatsError, match="games.csv holds a different run: seed: stored 3, asked 4 "):
        open_run(out, RunConfig(5, 3, ("aggressive",), seed=4).record())
    (tmp_path / "games.csv.json").unlink()  # a CSV with no manifest is not known to be this run
    with pytest.raises(RiskstatsError, match="not this run"):
        open_run(out, config.record())


def test_a_different_run_names_what_differs_first_and_briefly(tmp_path):
    """Resuming into a folder recorded with other settings: the differences a user acts on, in a short line,
    not the records' parameter vectors (issue 32)."""
    six = ("continent", "aggressive", "defensive", "random", "value", "search")
    open_run(tmp_path / "mix", RunConfig(2000, 4, six[:4], seed=3).record())
    with pytest.raises(RiskstatsError) as error:
        open_run(tmp_path / "mix", RunConfig(2000, 3, six[:3], seed=0).record())
    message = str(error.value)
    assert message.startswith(f"{tmp_path / 'mix'} holds a different run: players: stored 4, asked 3; "
                              "seed: stored 3, asked 0; bots: stored continent,aggressive,defensive,random, "
                              "asked continent,aggressive,defensive (")
    assert "[" not in message and "\n" not in message and len(message) < 250 + len(str(tmp_path))
    asked = RunConfig(2000, 4, six[:4], seed=3, rules={"escalation": "fixed", "max_turns": 500},
                      params={"continent": {"threshold": 0.6, "entrance_weight": 3}, "random": {"p_stop": 0.1}})
    with pytest.raises(RiskstatsError) as error:
        open_run(tmp_path / "mix", asked.record())
    message = str(error.value)  # rule options and bot parameters by name; past four, counted
    assert message.startswith(f"{tmp_path / 'mix'} holds a different run: rules.escalation: stored progressive, "
                              "asked fixed; rules.max_turns: stored 1000, asked 500; params.continent.threshold: "
                              "stored 0.5, asked 0.6; params.continent.entrance_weight: stored 2, asked 3; "
                              "and 1 more (")
    long = tuple(f"continent:threshold=0.{k}" for k in range(1, 5))
    with pytest.raises(RiskstatsError, match=r"bots: stored continent,aggressive,defensive,random, asked "
                                             r"continent:threshold=0\.1,continent:thres… \("):
        open_run(tmp_path / "mix", RunConfig(2000, 4, long, seed=3).record())


def test_unwritable_outputs_are_clear_errors(tmp_path, run):
    with pytest.raises(RiskstatsError, match="cannot write the run to /proc/nope"):
        open_run("/proc/nope", RunConfig(2, 3, ("aggressive",)).record())
    tables = {"t": pd.DataFrame({"x": [1]})}
    with pytest.raises(RiskstatsError, match="holds a run's results"):
        write_files(run, tables, {})
    afile = tmp_path / "afile"
    afile.write_text("")
    with pytest.raises(RiskstatsError, match="not a directory"):
        write_files(afile, tables, {})
    with pytest.raises(RiskstatsError, match="cannot write to /proc/nope"):
        write_files("/proc/nope/report", tables, {})
    assert [p.name for p in write_files(tmp_path / "rep", tables, {})] == ["t.csv"]


def test_iter_results_reads_a_run_piece_by_piece_in_game_order(tmp_path, monkeypatch):
    from riskstats.runs import results
    from riskstats.runs.results import iter_results, read_results
    from riskstats.runs.tournament import RunConfig, run_selfplay

    monkeypatch.setattr(results, "ROW_GROUP", 3)
    config = RunConfig(games=10, players=3, bots=("aggressive", "random"), seed=3, chunk_size=3)
    for name in ("run", "games.parquet", "games.csv"):
        out = tmp_path / name
        run_selfplay(config, out, load=False)
        pieces = list(iter_results(out, ["game", "bots", "winner"]))
        assert len(pieces) == 4 and [len(p) for p in pieces] == [3, 3, 3, 1]
        whole = read_results(out)
        joined = pd.concat(pieces, ignore_index=True)
        assert list(joined.columns) == ["game", "bots", "winner"]
        assert joined.equals(whole[["game", "bots", "winner"]].astype(joined.dtypes.to_dict()))


def test_iter_results_refuses_what_read_results_refuses(tmp_path):
    from riskstats.errors import RiskstatsError
    from riskstats.runs.results import iter_results

    (tmp_path / "foreign.csv").write_text("a,b\n1,2\n")
    for path in (tmp_path / "nothing", tmp_path / "foreign.csv"):
        with pytest.raises(RiskstatsError):
            list(iter_results(path, ["bots", "winner"]))


@pytest.mark.parametrize("scheme", [1, 2])
def test_a_run_asked_for_more_games_grows_into_the_run_of_that_size(tmp_path, scheme):
    def config(games, seed=4):
        return RunConfig(games, 3, ("aggressive", "defensive"), seed=seed, chunk_size=2, seed_scheme=scheme)

    run_selfplay(config(5), tmp_path / "run")
    first = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "run").glob("part-*")}
    grown = run_selfplay(config(8), tmp_path / "run")
    parts = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "run").glob("part-*")}
    assert parts.items() > first.items()  # the parts so far kept as they were, the new games added
    pd.testing.assert_frame_equal(grown, run_selfplay(config(8), tmp_path / "fresh"))
    assert read_results(tmp_path / "run").attrs["run"]["games"] == 8
    with pytest.raises(RiskstatsError, match="games: stored 8, asked 6"):  # a run never shrinks
        open_run(tmp_path / "run", config(6).record())
    with pytest.raises(RiskstatsError, match="seed: stored 4, asked 5"):  # nor grows into another run
        open_run(tmp_path / "run", config(10, seed=5).record())
