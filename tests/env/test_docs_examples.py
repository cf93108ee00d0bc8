"""Every python example of docs/environments.md runs, and prints what the page shows under it.

An example is run as written, or shortened (`Example.short`: each replacement must still find its text, so a change
to the page that the test did not follow fails here); one followed by a ``text`` block must print that block,
exactly, when it runs as written. An example the table does not know, or a table entry the page has lost, fails.
"""
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "environments.md"


@dataclass(frozen=True)
class Example:
    short: tuple[tuple[str, str], ...] = ()  # (text on the page, what the test runs instead)
    needs: str = ""  # a module the example imports that an extra installs (the test skips without it)


# each example by a piece of its text found in no other
EXAMPLES = {
    "enc = ActionEncoding.for_game(game)": Example(),
    'VectorEnv(1024, players=4, actions="macro"': Example(),
    'e = env(players=4, actions="macro", defend="auto")': Example(),
    'e = env(players=4, variant="classic")': Example(),
    'env = SingleAgentEnv(opponents=("random",), seed=0)': Example(),
    "search = ismcts.ISMCTSBot(": Example(),
    '{"players": 2, "max_turns": 100, "actions": "full"': Example(),
    "env = VectorEnv(256, players=4": Example(),
    'env = TextEnv(players=2, opponents="hunter", seed=2)': Example(),
    'env = VectorEnv(1024, players=4, variant="classic"': Example(),
    "model = MaskablePPO(": Example(short=(("model.learn(10_000)", "model.learn(256)"), ("games=100", "games=2")),
                                    needs="sb3_contrib"),
}
SLOW = {'e = env(players=4, variant="classic")', "search = ismcts.ISMCTSBot("}  # 10-15 CPU s each


def page_examples() -> list[tuple[str, str | None]]:
    """(code, the text block right under it or None) of every python block of the page, in order."""
    found = re.findall(r"```python\n(.*?)\n```(\n\n```text\n(.*?)\n```)?", PAGE.read_text(), flags=re.S)
    return [(code, shown if block else None) for code, block, shown in found]


def test_the_table_knows_every_example_of_the_page():
    keys = [[key for key in EXAMPLES if key in code] for code, _ in page_examples()]
    assert all(len(k) == 1 for k in keys), keys
    assert sorted(k[0] for k in keys) == sorted(EXAMPLES)


@pytest.mark.parametrize("key", [pytest.param(key, marks=pytest.mark.slow) if key in SLOW else key
                                 for key in EXAMPLES])
def test_example_runs_and_prints_what_the_page_shows(key, capsys):
    example = EXAMPLES[key]
    if example.needs:
        pytest.importorskip(example.needs)
    code, shown = next((code, shown) for code, shown in page_examples() if key in code)
    for text, instead in example.short:
        assert text in code, f"{text!r} is no longer in the example: update EXAMPLES"
        code = code.replace(text, instead)
    exec(compile(code, str(PAGE), "exec"), {"__name__": "docs_example"})
    printed = capsys.readouterr().out
    if shown is not None and not example.short:
        assert printed.rstrip("\n") == shown
