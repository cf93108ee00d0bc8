"""scripts/outside/tune_outside.py without Java: Domination's games replaced by a stub whose win depends on the
candidate's parameter and the game number; every trial plays the same games, the study resumes, and fresh games are
refused where they overlap the tuning games."""
import csv
import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("optuna")

ROOT = Path(__file__).resolve().parents[2]


def _script():
    sys.path.insert(0, str(ROOT / "scripts" / "outside"))
    try:
        spec = importlib.util.spec_from_file_location("tune_outside", ROOT / "scripts" / "outside" / "tune_outside.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "scripts" / "outside"))
    return module


T = _script()


@pytest.fixture
def played(monkeypatch):
    """A stub of `outside_domination.run`: game g is won when (g % 10) / 10 < the candidate's expand, and every
    (candidate, game) it plays is logged; games already in the file are not played again (as the driver resumes)."""
    log = []

    def run(domination, label, players, games, out, first, **options):
        expand = float(label.split("expand=")[1].split(":")[0]) if "expand=" in label else 0.75
        done = set()
        if out.exists():
            with out.open() as f:
                done = {int(r["game"]) for r in csv.DictReader(f)}
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("a", newline="") as f:
            writer = csv.DictWriter(f, ["game", "remote_won"])
            if not done:
                writer.writeheader()
            for g in range(first, first + games):
                if g not in done:
                    log.append((label, g))
                    writer.writerow({"game": g, "remote_won": int((g % 10) / 10 < expand)})
        assert options["balance_first"] and options["records"] == out.with_suffix(".jsonl.gz")

    monkeypatch.setattr(T, "run", run)
    return log


def test_every_trial_plays_the_same_games_and_the_study_resumes(tmp_path, played):
    args = dict(domination=tmp_path, bot="hunter", tune=["expand"], players=4, games=20, first=3000,
                storage=f"sqlite:///{tmp_path / 'study.db'}", out=tmp_path / "trials")
    table = T.study(trials=3, **args)
    assert list(table.state) == ["complete"] * 3
    assert table.expand.iloc[0] == 0.75 and ":expand=0.75:" in played[0][0]  # the first trial: the defaults
    games = {label: sorted(g for lab, g in played if lab == label) for label, _ in played}
    assert all(g == list(range(3000, 3020)) for g in games.values())
    for _, row in table.iterrows():  # the win rate is the stub's, read back from the trial's file
        assert row.win_rate == pytest.approx(sum((g % 10) / 10 < row.expand for g in range(3000, 3020)) / 20)
        assert row.games == 20 and row.ci_low < row.win_rate < row.ci_high
    before = len(played)
    table = T.study(trials=5, **args)  # continued, not restarted: two more trials
    assert len(table) == 5 and len(played) - before <= 40
    assert (tmp_path / "trials" / "trials.csv").exists()


def test_bad_requests_name_the_value(tmp_path, played, capsys):
    with pytest.raises(Exception, match="no parameter 'expnd'"):
        T.study(tmp_path, "hunter", ["expnd"], 4, 10, 0, 1, f"sqlite:///{tmp_path / 's.db'}", tmp_path / "o")
    assert T.main(["--domination", str(tmp_path), "--tune", "expand", "--first", "3000", "--games", "300",
                   "--check", "100", "--check-first", "3200"]) == 2
    assert "overlap the tuning games" in capsys.readouterr().err
    assert not played
