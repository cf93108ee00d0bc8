"""Running the CLI in-process for the CLI tests: every argument as text, JSON read from stdout only."""
import json

from typer.testing import CliRunner

from riskstats.cli import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def run_json(*args):
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)
