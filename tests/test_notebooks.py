"""Every notebook runs top to bottom in a fresh kernel, with small parameters, and shows no error."""
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SMALL = {  # parameter overrides that keep each run to seconds; the committed runs use the defaults
    "01_attack_odds.ipynb": {"MAX_ARMIES": 10, "BIG": 25, "NEEDED_UP_TO": 12, "SIM_TRIALS": 20_000},
    "02_continent_value.ipynb": {"OPENINGS": 4, "CHOICES": 12, "RESAMPLES": 200},  # reads the committed experiments
    "03_card_escalation.ipynb": {"TIMING_GAMES": 120, "RULE_GAMES": 40, "MIN_GAMES": 10, "CAPTURE_GAMES": 16,
                                 "ROLLOUTS": 8, "SIM_TRIALS": 20_000, "BOOT": 50},
    "04_selfplay_statistics.ipynb": {"TOURNAMENT_GAMES": 200, "BOOT": 50, "VARIANT_GAMES": 20,
                                     "LOG_GAMES": 12},  # reads the committed experiments in data/
    "05_attack_decisions.ipynb": {"A": 8, "D": 6, "VALUES": [1, 4], "STARTS": [(5, 3), (8, 6)], "SIM_TRIALS": 20_000},
    "06_strong_play.ipynb": {"MISSION_GAMES": 200, "MISSION_TOP_GAMES": 4, "CAPITAL_GAMES": 200, "LUCK_GAMES": 100,
                             "PYRISK_GAMES": 60, "BREAK_GAMES": 6, "BREAK_OUTCOMES": 2, "BREAK_ROLLOUTS": 2,
                             "BREAK_TOP_OUTCOMES": 2, "BREAK_TOP_ROLLOUTS": 1, "CALIBRATION_GAMES": 4,
                             "CAL_ROLLOUTS": 20, "CAL_OWN": 2, "CAL_BOOT": 50},  # computes small samples
    "07_placement.ipynb": {"DEMO_TURNS": 8, "LIVE_GAMES": 40},  # reads the committed experiment in data/
    "08_player_guide.ipynb": {},  # computes nothing: reads data/robustness/ at full size
}


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, tmp_path):
    nbformat = pytest.importorskip("nbformat")
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    parameters = [c for c in notebook.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(parameters) == 1, "a notebook has exactly one cell tagged 'parameters'"
    overrides = dict(SMALL.get(path.name, {}))
    if "DATA_DIR" in parameters[0].source:
        overrides["DATA_DIR"] = str(tmp_path)
    parameters[0].source += "".join(f"\n{name} = {value!r}" for name, value in overrides.items())
    # run from the notebook's own folder, as Jupyter does: notebooks find data/ from the working directory
    # (the package may be installed elsewhere); the one that writes data writes it to the test's folder
    NotebookClient(notebook, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    errors = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors


ROBUSTNESS = Path(__file__).resolve().parents[1] / "data" / "robustness"
OWN_COLUMNS = ["notebook", "finding", "population", "bots", "n", "estimate", "ci_low", "ci_high", "holds", "reversed",
               "reference", "p_value"]
"""A robustness row's own columns; the adjusted ones depend on every file in the folder, so they are compared in
06's run, where the folder is whole."""


@pytest.mark.slow
def test_the_committed_robustness_tables_are_what_the_notebooks_make(tmp_path):
    """Issue 56: the committed data/robustness/ tables were not regenerated after the paired interval changed (75
    lines). Each notebook that writes them (scripts/make/robustness.py's WRITERS, in its order) runs here at its
    committed size (its defaults: every experiment read from the committed per-game files, the rest played on fixed
    seeds), into a folder of the test's, and every row must equal the committed one; then 06, on a copy of the
    committed tables with its own rows, must rebuild verdicts.csv and every adjusted column exactly (about 4
    minutes)."""
    import importlib.util

    import pandas as pd

    pytest.importorskip("nbformat")
    spec = importlib.util.spec_from_file_location("robustness", ROOT / "scripts" / "make" / "robustness.py")
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    for number in make.WRITERS:
        make.executed(make.notebook_path(number), {"DATA_DIR": str(tmp_path)}, timeout=1200)
        written = pd.read_csv(tmp_path / "robustness" / f"{number}.csv", dtype={"notebook": str})
        committed = pd.read_csv(ROBUSTNESS / f"{number}.csv", dtype={"notebook": str})
        columns = list(committed.columns) if number == "06" else [c for c in OWN_COLUMNS if c in committed]
        pd.testing.assert_frame_equal(written[columns], committed[columns], check_exact=False, rtol=1e-9,
                                      obj=f"robustness/{number}.csv")
    for name in ("verdicts.csv", "tiers.csv", "head_to_head.csv", "verdict_changes.csv"):
        pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "robustness" / name, dtype={"notebook": str}),
                                      pd.read_csv(ROBUSTNESS / name, dtype={"notebook": str}), check_exact=False,
                                      rtol=1e-9, obj=name)


def test_committed_notebooks_are_executed():
    nbformat = pytest.importorskip("nbformat")
    for path in NOTEBOOKS:
        notebook = nbformat.read(path, as_version=4)
        code = [c for c in notebook.cells if c.cell_type == "code"]
        assert all(c.execution_count for c in code), f"{path.name} is committed unexecuted"
        assert any("image/png" in o.get("data", {}) for c in code for o in c.outputs), f"{path.name} has no figure"


def test_committed_outputs_name_no_folder_of_the_machine_they_ran_on():
    """A committed output names the repository's folders relative to it (``data/robustness``), not by the
    absolute path of the checkout it ran in (issue 42, item 7: notebook 08 printed /work/main/data/...)."""
    import json
    import re

    absolute = re.compile(r"(?<![\w.~])/[^\s'\"]*/(?:data|notebooks|riskstats)/")
    for path in NOTEBOOKS:
        cells = json.loads(path.read_text())["cells"]
        for k, cell in enumerate(cells):
            for output in cell.get("outputs", []):
                text = "".join(output.get("text", "")) + "".join(output.get("data", {}).get("text/plain", ""))
                assert not absolute.search(text), f"{path.name} cell {k}: {absolute.search(text).group()}"
