"""The repository's scripts as modules, for the tests of what they compute (they are not in the package)."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_script(*parts: str):
    """The script at ``scripts/<parts...>`` imported as a module of its own file's name."""
    path = ROOT.joinpath("scripts", *parts)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
