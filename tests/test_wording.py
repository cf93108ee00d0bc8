"""Issue #39 item 4: no page that draws a conclusion claims more than its bots show.

The pages are README.md, every docs/*.md and every notebook's markdown cells and printed text. On them:

- "describes Risk" and "what a Risk player should do" never appear (case-insensitive): the findings are about
  riskstats' bots playing each other;
- every sentence that calls something **strong** (the word itself, any case; "stronger" and "strongest" are other
  words) names a bot of the catalogue (`riskstats.game.bots.catalog.CATALOG`, as a whole word or the head of a spec
  such as ``search:rollouts=8``) and gives a number (a digit). The word inside a code span (`` `strong` ``: the fitted
  model or a data folder of that name) or inside double quotes (a name quoted, such as once called "strong") is a
  name, not a claim, and is not checked.

A sentence is a run of text ending in ".", "!" or "?" followed by white space, cut also at blank lines, list items,
table rows and headings.
"""
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BANNED = ("describes risk", "what a risk player should do")
STRONG = re.compile(r"\bstrong\b", re.IGNORECASE)
NAME = re.compile(r"`[^`\n]*`|\"[^\"\n]*\"|“[^”\n]*”")


def _pages() -> dict[str, str]:
    pages = {"README.md": (ROOT / "README.md").read_text()}
    pages.update({f"docs/{p.name}": p.read_text() for p in sorted((ROOT / "docs").glob("*.md"))})
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text())["cells"]
        text = ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]
        text += ["".join(o.get("text", "")) for c in cells if c["cell_type"] == "code" for o in c.get("outputs", [])
                 if o.get("output_type") == "stream"]
        pages[f"notebooks/{path.name}"] = "\n\n".join(text)
    return pages


def _sentences(text: str) -> list[str]:
    units = re.split(r"\n\s*\n|\n(?=\s*(?:[-*+] |\d+\. |\||#))", text)
    return [s.strip() for u in units for s in re.split(r"(?<=[.!?])\s+", " ".join(u.split())) if s.strip()]


def _bots() -> set[str]:
    from riskstats.game.bots.catalog import CATALOG

    return set(CATALOG)


def offending(text: str, bots) -> list[str]:
    """The sentences of ``text`` that break the rule of the module docstring."""
    found = []
    for sentence in _sentences(text):
        if any(b in sentence.lower() for b in BANNED):
            found.append(sentence)
            continue
        if not STRONG.search(NAME.sub(" ", sentence)):
            continue
        named = any(re.search(rf"(?<![\w-]){re.escape(b)}(?![\w-])", sentence) for b in bots)
        if not (named and re.search(r"\d", sentence)):
            found.append(sentence)
    return found


def test_the_rule_catches_what_it_should():
    bots = {"search", "value"}
    assert offending("This notebook describes Risk.", bots)
    assert offending("# 08 · What a Risk player should do", bots)
    assert offending("The strong bots lose.", bots)
    assert offending("`search` is strong.", bots)  # a bot, but no number
    assert not offending("`search` is strong: 8.0% of four-player games against three hard AIs.", bots)
    assert not offending("the model `strong` and the population once called \"strong\"; the strongest bot.", bots)


@pytest.mark.parametrize("page", sorted(_pages()))
def test_no_page_claims_more_than_its_bots_show(page):
    assert offending(_pages()[page], _bots()) == []
