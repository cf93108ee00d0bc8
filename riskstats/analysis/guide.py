"""A player's guide (notebook 08, issue #29 §3): the questions players ask, each answered in one sentence from
the robustness table's verdict and the top tier's effect with its 95% interval.

This module owns `QUESTIONS` (each question mapped to the robustness finding that answers it), `player_answers`
(the answers, one row per question, finding and top-tier population), `read_guide` (the two tables it reads from
``data/robustness/``) and `continent_territories` (one
continent held, for the board map).
The verdicts themselves (``holds``, ``fails``, ``tier-dependent``, ``inconclusive``, ``no top-tier rows``) are the
robustness table's (`riskstats.stats.robustness`); this module only puts them into words and never goes beyond
the intervals it quotes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import pandas as pd

ANSWER_COLUMNS = ("question", "answer", "verdict", "notebook", "finding", "tier", "effect", "interval", "bots", "n")
"""The columns of `player_answers`: one row per question, finding and top-tier population (``tier``); a finding
with no top-tier row has one row with an empty ``tier``."""
VERDICTS = ("holds", "fails", "tier-dependent", "inconclusive", "mixed", "no top-tier rows")
"""The verdict classes of issue #29 §1 (`riskstats.stats.verdicts.VERDICTS`; a ``no top-tier rows`` verdict may
carry its reason after it)."""


@dataclass(frozen=True)
class Question:
    """One player's question and the robustness finding(s) that answer it.

    ``pattern`` is a regular expression searched (case-insensitive) in the findings of notebook ``notebook``;
    every finding it matches answers the question. ``claim`` is the finding in a player's words, ``unit`` how
    its estimate is written (`EFFECT_FORMATS`), ``absent`` why no row answers it when none matches.
    """

    question: str
    notebook: str
    pattern: str
    claim: str
    unit: str = "points"
    absent: str = "the robustness table has no row for this finding"


EFFECT_FORMATS = {
    "points": ("{:+.1f}", 100.0, " points"),  # a difference of win rates, in percentage points
    "share": ("{:.1f}", 100.0, "%"),  # a win rate, against its fair share
    "rounds": ("{:+.1f}", 1.0, " rounds"),  # a difference of game lengths
    "value": ("{:.3g}", 1.0, ""),
}
"""How an estimate and its interval's ends are written, by a question's ``unit``: (format, scale, unit name)."""

_FIRST_MOVE = r"^seat 0 \(moves first\) wins more than its fair share 1/{n}, {n} players"
QUESTIONS = (
    Question("Which continent first: Australia, or my own pick?", "02", r"^Australia first beats the own choice",
             "going for Australia first beats picking your own first target"),
    Question("Is a fixed first continent worse than choosing as I go?", "02",
             r"^every forced first target loses to the own choice",
             "every fixed first target (claimed and gone for until held) does worse than the bots' own choice; "
             "the estimate is the best fixed target's effect, and its continent is in the robustness row's note"),
    Question("Which continent first: Australia or South America?", "02",
             r"^Australia first beats South America first", "going for Australia first beats South America first"),
    Question("Trade a set as soon as I have one?", "03", r"^trading a set at once raises",
             "trading a set as soon as you hold one raises your win rate"),
    Question("Hold my cards until I am forced to trade?", "03", r"^holding cards until forced lowers",
             "holding your cards until you are forced to trade lowers your win rate"),
    *(Question(f"How much is moving first worth with {n} players?", "04", _FIRST_MOVE.format(n=n),
               f"the first player wins more than the fair share 1/{n}", "share") for n in range(2, 7)),
    Question("Stack my reinforcements or spread them?", "07", r"^stacking the reinforcements beats spreading",
             "stacking your reinforcements beats spreading them one at a time over your threatened borders"),
    Question("Should I always fortify?", "07", r"beats never fortifying",
             "fortifying at the end of your turn beats never fortifying"),
    Question("Should I break a rival's continent?", "06", r"^forcing a break of a rival's continent raises",
             "an all-in attack to break a rival's continent raises your own win chance"),
    Question("House rule, one card per conquest: shorter games?", "03", r"^one card per conquest shortens games",
             "one card per conquest makes games shorter", "rounds"),
    Question("House rule, one card per conquest: does it change the first player's edge?", "03",
             r"^one card per conquest leaves the first player's win share unchanged",
             "one card per conquest leaves the first player's win share unchanged (within 2 points)"),
    Question("Which Secret Mission is hardest?", "06", r"mission",
             "the continent-pair mission cards (conquer two named continents) win less often than the fair share "
             "1/4", "share", "no robustness row of notebook 06 names a mission card"),
)
"""The player's questions, in the order the guide asks them, each with the finding that answers it."""


_INTERVAL = re.compile(r"([-+]?[\d.]+(?:e[-+]?\d+)?) \[([-+]?[\d.]+(?:e[-+]?\d+)?), ([-+]?[\d.]+(?:e[-+]?\d+)?)\]"
                       r"(?: \((\d+)\))?")


def _parse_intervals(text) -> list[tuple[float, float, float, int | None]]:
    """Every "estimate [low, high] (n)" in a verdict table's cell, as numbers."""
    if not isinstance(text, str):
        return []
    return [(float(e), float(lo), float(hi), int(n) if n else None) for e, lo, hi, n in _INTERVAL.findall(text)]


def _bots(text: str) -> str:
    """A line-up written short: ``x,x,x`` as ``x in every seat``."""
    seats = text.split(",")
    return f"{seats[0]} in every seat" if len(set(seats)) == 1 and len(seats) > 1 else text


def _effects(question: Question, finding: str, verdict_row, rows: pd.DataFrame | None, tiers) -> list[dict]:
    """One dict per top-tier row of ``finding``: from the robustness rows where they exist, else parsed from the
    verdict table's tier column."""
    from riskstats.stats import robustness

    number, scale, unit = EFFECT_FORMATS[question.unit]

    def write(v):
        return number.format(scale * v)
    found = []
    for tier in tiers:
        mine = pd.DataFrame()
        if rows is not None and len(rows):
            mine = rows[(rows["notebook"] == question.notebook) & (rows["finding"] == finding)]
            mine = mine[[robustness.population_group(p) == tier for p in mine["population"]]]
        values = ([(r.estimate, r.ci_low, r.ci_high, int(r.n), _bots(str(r.bots))) for r in mine.itertuples()]
                  if len(mine) else
                  [(e, lo, hi, n, tier) for e, lo, hi, n in _parse_intervals(verdict_row.get(tier))])
        for estimate, low, high, n, bots in values:
            found.append({"tier": tier, "effect": write(estimate) + unit, "interval": f"[{write(low)}, {write(high)}]",
                          "bots": bots, "n": n})
    return found


def _sentence(question: Question, verdict: str, effects: list[dict], tiers) -> str:
    """The one-sentence answer to ``question`` from its verdict class and the top tier's effects."""
    if verdict.endswith(" only)"):  # judged on one top tier alone: not the two-tier evidence the verdicts ask for
        return (f"Measured with one top-tier population only ({verdict[verdict.rindex('(') + 1:-6]} in every seat), "
                f"so not settled: {question.claim}? ({'; '.join(e['effect'] + ' ' + e['interval'] for e in effects)})")
    who = " and ".join(tiers) + " in every seat"
    quoted = "; ".join(f"{e['tier']}: {e['effect']} {e['interval']}, n = {e['n']}" for e in effects)
    if verdict == "holds":
        return f"Yes: {question.claim}, for both top-tier populations ({who}): {quoted}."
    if verdict == "fails":
        return f"No: for both top-tier populations ({who}) the effect goes the other way: {quoted}."
    if verdict == "tier-dependent":
        return f"It depends on the bots: the two top-tier populations disagree whether {question.claim} ({quoted})."
    if verdict == "inconclusive":
        return (f"Not shown either way for the top tier ({who}): after Holm's correction over the whole table an "
                f"interval still allows no effect, so the data cannot say whether {question.claim} ({quoted}).")
    if verdict == "mixed":
        return (f"It depends on the setting: within the top tier ({who}) some measurements show that "
                f"{question.claim} and others the opposite ({quoted}).")
    reason = verdict.removeprefix("no top-tier rows").strip(" :;,()") or question.absent
    return f"Not measured with the top-tier bots ({who}): {reason}."


def player_answers(verdicts: pd.DataFrame, rows: pd.DataFrame | None = None,
                   questions=QUESTIONS) -> pd.DataFrame:
    """Each player's question answered in one sentence from the robustness table.

    Parameters
    ----------
    verdicts : pandas.DataFrame
        ``data/robustness/verdicts.csv``: one row per notebook and finding, with ``verdict`` (issue #29 §1) and
        one column per top-tier population holding its "estimate [low, high] (n)".
    rows : pandas.DataFrame, optional
        The robustness rows (``data/robustness/<notebook>.csv``); where they hold a finding's top-tier rows, the
        effects, line-ups and sample sizes are theirs, else they are read from ``verdicts``.
    questions : sequence of Question
        The questions (`QUESTIONS`).

    Returns
    -------
    pandas.DataFrame
        `ANSWER_COLUMNS`: one row per question, finding and top-tier population. A question no finding answers
        gets one row with the verdict ``no top-tier rows`` and the reason, instead of an error.

    Examples
    --------
    >>> v = pd.DataFrame({"notebook": ["07"], "finding": ["fortifying to the border beats never fortifying"],
    ...                   "verdict": ["holds"], "search": ["0.03 [0.01, 0.05] (8000)"],
    ...                   "search:value=model": ["0.02 [0.005, 0.04] (8000)"]})
    >>> a = player_answers(v, questions=[q for q in QUESTIONS if q.question == "Should I always fortify?"])
    >>> a[["tier", "effect", "interval", "n"]].values.tolist()
    [['search', '+3.0 points', '[+1.0, +5.0]', 8000], ['search:value=model', '+2.0 points', '[+0.5, +4.0]', 8000]]
    >>> print(a.answer[0])  # doctest: +NORMALIZE_WHITESPACE
    Yes: fortifying at the end of your turn beats never fortifying, for both top-tier populations (search and
    search:value=model in every seat): search: +3.0 points [+1.0, +5.0], n = 8000;
    search:value=model: +2.0 points [+0.5, +4.0], n = 8000.
    """
    from riskstats.errors import RiskstatsError
    from riskstats.stats.robustness import TOP_TIER, notebook_number

    need = {"notebook", "finding", "verdict"} - set(verdicts.columns)
    if need:
        raise RiskstatsError(f"the verdict table has no {', '.join(sorted(need))} column")
    verdicts = verdicts.assign(notebook=notebook_number(verdicts["notebook"]))
    if rows is not None:
        rows = rows.assign(notebook=notebook_number(rows["notebook"]))
    tiers = tuple(TOP_TIER)
    out = []
    for q in questions:
        mine = verdicts[(verdicts["notebook"] == q.notebook)
                        & verdicts["finding"].str.contains(q.pattern, case=False, regex=True)]
        if mine.empty:
            out.append({"question": q.question, "answer": _sentence(q, "no top-tier rows", [], tiers),
                        "verdict": "no top-tier rows", "notebook": q.notebook, "finding": "", "tier": "",
                        "effect": "", "interval": "", "bots": "", "n": pd.NA})
            continue
        for _, row in mine.iterrows():
            verdict = str(row["verdict"])
            effects = _effects(q, row["finding"], row, rows, tiers)
            answer = _sentence(q, verdict, effects, tiers)
            cls = next((c for c in VERDICTS if verdict.startswith(c)), verdict)
            base = {"question": q.question, "answer": answer, "verdict": cls, "notebook": q.notebook,
                    "finding": row["finding"]}
            out += ([{**base, **e} for e in effects] or
                    [{**base, "tier": "", "effect": "", "interval": "", "bots": "", "n": pd.NA}])
    frame = pd.DataFrame(out, columns=list(ANSWER_COLUMNS))
    frame["n"] = frame["n"].astype("Int64")
    return frame


def read_guide(folder) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The verdict table (``verdicts.csv``) and the robustness rows (``<notebook>.csv``) of ``folder``
    (``data/robustness``), for `player_answers`."""
    from pathlib import Path

    from riskstats.errors import RiskstatsError
    from riskstats.stats.robustness import notebook_files

    folder = Path(folder)
    if not (folder / "verdicts.csv").is_file():
        raise RiskstatsError(f"no verdict table (verdicts.csv) in {folder}")
    verdicts = pd.read_csv(folder / "verdicts.csv", dtype={"notebook": str})
    files = notebook_files(folder)
    rows = pd.concat([pd.read_csv(f, dtype={"notebook": str}) for f in files], ignore_index=True) if files else None
    return verdicts, rows


def continent_territories(continent: str, board=None) -> pd.DataFrame:
    """A territories frame in which seat 0 holds ``continent`` (one army a territory) and every other territory
    is unclaimed, to show that continent and its bonus on the board map (`riskstats.plots.board_map`).

    >>> t = continent_territories("Australia")
    >>> t[t.owner == 0].territory.tolist()
    ['Indonesia', 'New Guinea', 'Western Australia', 'Eastern Australia']
    """
    from riskstats.errors import RiskstatsError
    from riskstats.game.rules.board import classic_board

    board = board or classic_board()
    if continent not in board.continents:
        raise RiskstatsError(f"no continent {continent!r} on the {board.name} board: {', '.join(board.continents)}")
    held = [board.continents[k] == continent for k in board.arrays.continent_of]
    return pd.DataFrame({"territory": list(board.territories), "owner": [0 if h else -1 for h in held],
                         "armies": [1 if h else 0 for h in held]})
