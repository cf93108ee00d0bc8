"""The notebooks find the repository's data/ from any working directory."""
import json
from pathlib import Path

import pytest

from riskstats.analysis.paths import data_dir, repository_root, shown_path
from riskstats.errors import RiskstatsError

ROOT = Path(__file__).resolve().parents[2]


def test_found_from_the_root_a_subfolder_and_elsewhere(tmp_path, monkeypatch):
    assert repository_root(ROOT) == ROOT and repository_root(ROOT / "notebooks") == ROOT
    assert data_dir(ROOT / "riskstats" / "game") == ROOT / "data"
    monkeypatch.chdir(tmp_path)  # outside the repository: found above the package (a source checkout)
    assert data_dir() == ROOT / "data"


def test_a_nested_project_wins_and_no_project_is_an_error(tmp_path, monkeypatch):
    project = tmp_path / "project"
    (project / "deep" / "er").mkdir(parents=True)
    (project / "pyproject.toml").write_text("")
    assert data_dir(project / "deep" / "er") == project / "data"
    import riskstats.analysis.paths as paths

    monkeypatch.setattr(paths, "__file__", str(tmp_path / "x" / "y" / "z.py"))
    with pytest.raises(RiskstatsError, match="no pyproject.toml"):
        repository_root(tmp_path / "x")


def test_notebooks_use_no_relative_data_path():
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        code = "".join("".join(c["source"]) for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code")
        assert "../data" not in code and "'data/" not in code and '"data/' not in code, path.name


def test_paths_are_shown_relative_to_the_repository(tmp_path):
    """Notebooks print the data folder as data/robustness, not as the folder of the machine they ran on
    (issue 42, item 7); a folder outside the repository is shown as given."""
    assert shown_path(ROOT / "data" / "robustness", ROOT) == "data/robustness"
    assert shown_path(tmp_path, ROOT) == str(tmp_path)
