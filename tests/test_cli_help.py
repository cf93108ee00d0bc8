"""Every command's ``--help`` reads well in an 80-column terminal (issue 42, item 3): no line past the width, no
text cut with an ellipsis, no reStructuredText markup, no sentence broken before the line is full."""
import pytest
import typer.main
from typer.testing import CliRunner

from riskstats.cli import app

WIDTH = 80


def _paths(command, path=()):
    """The argument paths of every command and group, the app itself (``()``) first."""
    yield path
    for name, sub in getattr(command, "commands", {}).items():
        yield from _paths(sub, (*path, name))


PATHS = list(_paths(typer.main.get_command(app)))


def _help(path: tuple[str, ...], width: int = WIDTH) -> list[str]:
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": str(width), "TERMINAL_WIDTH": str(width)},
                                terminal_width=width)
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def _early_breaks(lines: list[str]) -> list[str]:
    """Lines broken before they were full: the next line's first word would have fitted on them, so the text
    holds a line break of its own (a docstring's) where the terminal wraps. A row's first cell (a command or an
    option, near the left edge) and typer's ``[default: ...]`` notes start lines of their own by design."""
    found = []
    for line, after in zip(lines, lines[1:]):
        boxed = line.startswith("│") and line.endswith("│") and after.startswith("│") and after.endswith("│")
        if boxed:
            line, after = line[1:-1], after[1:-1]
        elif line.startswith(("│", "╭", "╰")) or after.startswith(("│", "╭", "╰")):
            continue
        words = after.split()
        if not words or not line.strip() or words[0].startswith("["):
            continue
        if boxed and len(after) - len(after.lstrip()) < 8:  # a new row, not a continuation
            continue
        free = len(line) - len(line.rstrip()) - 1  # one column of padding on the right
        if len(words[0]) + 1 <= free:
            found.append(f"{line.rstrip()} / {words[0]}")
    return found


@pytest.mark.parametrize("path", PATHS, ids=lambda path: " ".join(path) or "riskstats")
def test_help_fits_80_columns(path):
    lines = _help(path)
    assert not [line for line in lines if len(line) > WIDTH], "\n".join(lines)
    assert not [line for line in lines if "…" in line], "\n".join(lines)  # rich's ellipsis: a cut word
    assert not [line for line in lines if "``" in line], "\n".join(lines)
    assert not _early_breaks(lines), _early_breaks(lines)


def test_the_early_break_check_finds_a_docstring_line_break():
    """The check itself: a line that stops with room left for the next line's first word is found."""
    assert _early_breaks(["│ report  Win rates, Luce ratings,                  │",
                          "│         the Plackett-Luce survival measure.        │"])
    assert not _early_breaks(["│ report  Win rates, Luce ratings, their fit    │",
                              "│         intervals and the survival measure.   │"])
