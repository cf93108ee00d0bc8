"""riskstats compile: progress on stderr, a summary line, one-line errors."""
from typer.testing import CliRunner

from riskstats.cli import app

runner = CliRunner()


def test_compile_shows_each_step_and_a_summary():
    result = runner.invoke(app, ["compile", "--only", "game,selfplay"])
    assert result.exit_code == 0, result.output
    assert "[1/2] game: Game(...).play" in result.stderr and "[2/2] selfplay:" in result.stderr
    assert "of 2 steps in" in result.stdout


def test_compile_refuses_an_unknown_step():
    result = runner.invoke(app, ["compile", "--only", "game,nonsense"])
    assert result.exit_code != 0
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "nonsense" in lines[0], result.output
