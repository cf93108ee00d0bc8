"""A player's guide (notebook 08, issue #29 §3): the questions players ask, each answered in one sentence from
the robustness table's verdict and the top tier's effect with its 95% interval.

This module owns `QUESTIONS` (each question mapped to the robustness finding that answers it), `player_answers`
(the answers, one row per question, finding and top-tier population), `read_guide` (the two tables it reads from
``data/robustness/``) and `continent_territories` (one
continent held, for the board map).
The verdicts themselves (``holds``, ``fails``, ``tier-dependent``, ``inconclusive``, ``no top-tier rows``) are the
robustness table's (`riskstats.stats.robustness`); this module only puts them into words and never goes beyond
the intervals it quotes. A tier-dependent answer says which tier shows what; a question answered by the arms of one
experiment (a fixed first continent) quotes every arm in every tier and ranks none; a ranking is stated only where
its interval separates; and a claim written down after its data were seen is marked as such (`Question.post_hoc`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import pandas as pd

ANSWER_COLUMNS = ("question", "answer", "verdict", "notebook", "finding", "tier", "effect", "interval", "bots", "n",
                  "label", "outside")
"""The columns of `player_answers`: one row per question, finding and top-tier population (``tier``); a finding
with no top-tier row has one row with an empty ``tier``. ``verdict`` is the finding's (of its claim, which may be
the opposite of what the question asks); ``label`` answers the question as asked, in a few words (`answer_label`);
``outside`` is the finding's verdict against Domination's hard AI (``verdicts.csv``'s, issue 52), empty where it was
checked in riskstats' games only."""
OUTSIDE_WORDS = {"holds": "it holds there too", "reversed": "the opposite holds there",
                 "inconclusive": "not shown there either way"}
"""How an answer words a finding's verdict against Domination's hard AI (`riskstats.stats.verdicts.OUTSIDE_COLUMNS`)."""

VERDICTS = ("holds", "fails", "tier-dependent", "inconclusive", "mixed", "no top-tier rows")
"""The verdict classes of issue #29 §1 (`riskstats.stats.verdicts.VERDICTS`; a ``no top-tier rows`` verdict may
carry its reason after it)."""


def _outside(row) -> str:
    """A verdict row's outside verdict, or "" where it has none (a CSV reads the empty cell as NaN)."""
    value = row.get("outside", "")
    return "" if pd.isna(value) else str(value)


def _outside_sentence(rows) -> str:
    """What an answer's findings (verdict rows) showed against Domination's hard AI, in one sentence: each checked
    finding's verdict (`OUTSIDE_WORDS`) and estimate, or that they were checked in riskstats' games only."""
    checked = [r for r in rows if _outside(r)]
    if not checked:
        return "Checked in riskstats' games only, not against an outside AI."
    bots = {r["outside_bots"] for r in checked}
    head = f"Against Domination's hard AI ({checked[0]['outside_bots']}): " if len(bots) == 1 else \
        "Against Domination's hard AI: "
    if len(rows) == 1:
        return f"{head}{OUTSIDE_WORDS[_outside(checked[0])]}, {checked[0]['outside_estimate']}."
    parts = []
    for r in checked:
        who = f" ({r['outside_bots']})" if len(bots) > 1 else ""
        parts.append(f"{r['finding']}{who}: {OUTSIDE_WORDS[_outside(r)]}, {r['outside_estimate']}")
    rest = "; the others in riskstats' games only" if len(checked) < len(rows) else ""
    return head + "; ".join(parts) + rest + "."


@dataclass(frozen=True)
class Question:
    """One player's question and the robustness finding(s) that answer it.

    ``pattern`` is a regular expression searched (case-insensitive) in the findings of notebook ``notebook``;
    every finding it matches answers the question. ``claim`` is the finding in a player's words, ``unit`` how
    its estimate is written (`EFFECT_FORMATS`), ``absent`` why no row answers it when none matches. ``form`` is how
    the answer is put together (`FORMS`); ``arm`` (form ``arms``) a regular expression whose group names a
    finding's arm; ``caveat`` a sentence every answer to it ends with; ``post_hoc`` (a finding pattern) marks the
    findings whose claim was written down after their data were seen; ``notes`` quotes each row's ``note``
    beside its effect. ``yes`` and ``no`` answer the question as asked when the claim holds and when the opposite
    holds: a question may ask the claim's opposite ("worse than ...?" of the claim "better than") or offer two
    options ("stack or spread?"), so the claim's verdict is not the question's answer.
    """

    question: str
    notebook: str
    pattern: str
    claim: str
    unit: str = "points"
    absent: str = "the robustness table has no row for this finding"
    form: str = "claim"
    arm: str = ""
    caveat: str = ""
    post_hoc: str = ""
    notes: bool = False
    yes: str = "yes"
    no: str = "no"


FORMS = ("claim", "arms", "lowest")
"""How a question's answer is put together: ``claim``, one sentence per matched finding from its verdict;
``arms``, one sentence from every matched finding, each an arm of one experiment, grouped by what each tier shows
(no arm is picked out, none ranked); ``lowest``, a ranking row per tier (the lowest item, named in its note, and
whether its interval lies below every other's) followed by any other matched finding's sentence."""


EFFECT_FORMATS = {
    "points": ("{:+.1f}", 100.0, " points"),  # a difference of win rates, in percentage points
    "share": ("{:.1f}", 100.0, "%"),  # a win rate, against its fair share
    "rounds": ("{:+.1f}", 1.0, " rounds"),  # a difference of game lengths
    "value": ("{:.3g}", 1.0, ""),
}
"""How an estimate and its interval's ends are written, by a question's ``unit``: (format, scale, unit name)."""

_FIRST_MOVE = r"^seat 0 \(moves first\) wins more than its fair share 1/{n}, {n} players"
_TWO_PLAYER = " (the two-player game with a neutral: 40 armies each and 40 neutral, territories dealt)"
QUESTIONS = (
    Question("Which continent first: Australia, or my own pick?", "02", r"^Australia first beats the own choice",
             "going for Australia first beats picking your own first target", yes="Australia", no="your own pick"),
    Question("Is a fixed first continent worse than choosing as I go?", "02",
             r"^claiming and going for .+ first beats the own choice",
             "a seat that claims a fixed continent and goes for it until it holds it does better than the bots' "
             "own choice", form="arms", arm=r"^claiming and going for (.+) first beats",
             caveat="The forced seat (the hunter) keeps its own play but reinforces and attacks toward its "
                    "continent until it holds it, so this measures these bots' own first choice against a fixed "
                    "one, not the worth of a continent to a player.", yes="no", no="yes"),
    Question("Which continent first: Australia or South America?", "02",
             r"^Australia first beats South America first", "going for Australia first beats South America first",
             yes="Australia", no="South America"),
    Question("Trade a set as soon as I have one?", "03", r"^trading a set at once raises",
             "trading a set as soon as you hold one raises your win rate"),
    Question("Hold my cards until I am forced to trade?", "03", r"^holding cards until forced lowers",
             "holding your cards until you are forced to trade lowers your win rate", yes="no", no="yes"),
    *(Question(f"How much is moving first worth with {n} players?", "04", _FIRST_MOVE.format(n=n),
               f"the first player wins more than the fair share 1/{n}" + (_TWO_PLAYER if n == 2 else ""), "share",
               yes=f"more than the fair share 1/{n}", no=f"less than the fair share 1/{n}")
      for n in range(2, 7)),
    Question("Stack my reinforcements or spread them?", "07", r"^stacking the reinforcements beats spreading",
             "stacking your reinforcements beats spreading them one at a time over your threatened borders, in "
             "setup and every turn", yes="stack", no="spread"),
    Question("Should I always fortify?", "07", r"beats never fortifying",
             "fortifying at the end of your turn beats never fortifying"),
    Question("Should I break a rival's continent?", "06", r"^forcing a break of a rival's continent raises",
             "forcing an all-in attack to break a rival's continent, instead of what the bot would have played, "
             "raises your own win chance", notes=True),
    Question("House rule, one card per conquest: shorter games?", "03", r"^one card per conquest shortens games",
             "one card per conquest makes games shorter", "rounds"),
    Question("House rule, one card per conquest: does it change the first player's edge?", "03",
             r"^one card per conquest leaves the first player's win share unchanged",
             "one card per conquest leaves the first player's win share unchanged (within 2 points)",
             yes="no (within 2 points)", no="yes"),
    Question("Which Secret Mission is hardest?", "06", r"mission card|^the card with the lowest win rate",
             "the continent-pair mission cards (conquer two named continents) win less often than the fair share "
             "1/4", "share", "no robustness row of notebook 06 names a mission card", form="lowest",
             post_hoc=r"continent-pair"),
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
        values = ([(r.estimate, r.ci_low, r.ci_high, int(r.n), _bots(str(r.bots)), _row_verdict(r),
                    str(r.note) if "note" in mine and pd.notna(r.note) else "") for r in mine.itertuples()]
                  if len(mine) else
                  [(e, lo, hi, n, tier, _tier_verdict(verdict_row, tier), "")
                   for e, lo, hi, n in _parse_intervals(verdict_row.get(tier))])
        for estimate, low, high, n, bots, shown, note in values:
            found.append({"tier": tier, "effect": write(estimate) + unit, "interval": f"[{write(low)}, {write(high)}]",
                          "bots": bots, "n": n, "shown": shown, "note": note})
    return found


def _row_verdict(row) -> str:
    """A robustness row's adjusted verdict (``holds``, ``reversed`` or ``inconclusive``), or its unadjusted one where
    the row has no adjusted columns."""
    holds = getattr(row, "holds_adjusted", getattr(row, "holds", False))
    reversed_ = getattr(row, "reversed_adjusted", getattr(row, "reversed", False))
    return "holds" if _true(holds) else "reversed" if _true(reversed_) else "inconclusive"


def _true(value) -> bool:
    return bool(value) and str(value).strip().lower() not in ("false", "nan", "0", "")


def _tier_verdict(verdict_row, tier: str) -> str:
    """One tier's verdict from the verdict table's ``verdict <tier>`` column; where the table has none, what the
    finding's verdict says of every tier (``holds`` -> holds, ``fails`` -> reversed, else inconclusive)."""
    value = verdict_row.get(f"verdict {tier}")
    if isinstance(value, str) and value:
        return value
    verdict = str(verdict_row.get("verdict", ""))
    return "holds" if verdict.startswith("holds") else "reversed" if verdict.startswith("fails") else "inconclusive"


def _quote(effects: list[dict], notes: bool = False, tier: bool = True) -> str:
    return "; ".join((f"{e['tier']}: " if tier else "") + f"{e['effect']} {e['interval']}, n = {e['n']}"
                     + (f" ({e['note']})" if notes and e.get("note") else "") for e in effects)


_SHOWN = {"holds": "{claim} ({q}; shown after Holm's correction)",
          "reversed": "the opposite holds ({q}; shown after Holm's correction)",
          "inconclusive": "it is not shown either way ({q})",
          "mixed": "its settings disagree ({q})"}
"""What one tier shows, in a tier-dependent answer."""


def _shown(effects: list[dict], tier: str, none: str = "mixed") -> str:
    """What ``tier`` shows over its ``effects``: their ``shown`` (holds, reversed or inconclusive) where they agree,
    ``mixed`` where they do not, ``none`` where the tier has no effect."""
    shown = {e["shown"] for e in effects if e["tier"] == tier}
    return shown.pop() if len(shown) == 1 else "mixed" if shown else none


def _population(tier: str) -> str:
    """A tier's population in words: its label (`riskstats.runs.tiers.TIER_SETS`) without " (top tier)", or the tier
    in every seat.

    >>> _population("search"), _population("hunter against the next best"), _population("x")
    ('search in every seat', 'hunter against the next best', 'x in every seat')
    """
    from riskstats.runs.tiers import every_tier, population_name

    entry = every_tier().get(tier)
    return population_name(entry) if entry else f"{tier} in every seat"


def _sentence(question: Question, verdict: str, effects: list[dict], tiers) -> str:
    """The one-sentence answer to ``question`` from its verdict class and the top tier's effects."""
    quoted = _quote(effects, question.notes)
    if verdict.endswith(" only)"):  # judged on one top tier alone: not the two-tier evidence the verdicts ask for
        return (f"Measured with one top-tier population only ({_population(verdict[verdict.rindex('(') + 1:-6])}), "
                f"so not settled: {question.claim}? ({quoted})")
    who = " and ".join(_population(t) for t in tiers)
    if verdict == "holds":
        return f"{_lead(question.yes, 'Yes')}: {question.claim}, for both top-tier populations ({who}): {quoted}."
    if verdict == "fails":
        return (f"{_lead(question.no, 'No')}: for both top-tier populations ({who}) the effect goes the other way: "
                f"{quoted}.")
    if verdict == "tier-dependent":
        parts = []
        for tier in tiers:
            mine = [e for e in effects if e["tier"] == tier]
            parts.append(f"with {_population(tier)} " + _SHOWN[_shown(mine, tier)].format(
                claim=question.claim, q=_quote(mine, question.notes, tier=False)))
        return "It depends on the bots: " + "; ".join(parts) + "."
    if verdict == "inconclusive":
        return (f"Not shown either way for the top tier ({who}): after Holm's correction over the top tier's rows an "
                f"interval still allows no effect, so the data cannot say whether {question.claim} ({quoted}).")
    if verdict == "mixed":
        return (f"It depends on the setting: within the top tier ({who}) some measurements show that "
                f"{question.claim} and others the opposite ({quoted}).")
    reason = verdict.removeprefix("no top-tier rows").strip(" :;,()") or question.absent
    return f"Not measured with the top-tier bots ({who}): {reason}."


_GROUPS = {"holds": "better than the own choice in both", "reversed": "worse than the own choice in both",
           "inconclusive": "not separated from the own choice in either"}
"""What an arm shows in every tier -> its group in an ``arms`` answer; an arm the tiers disagree on is
``different by bot``."""


def _arms_answer(question: Question, found: list[tuple[str, list[dict]]], tiers) -> tuple[str, str]:
    """One answer from every arm of an experiment, and its label (`answer_label`'s words arm by arm): the arms
    grouped by what each tier shows, each arm's effect in every tier quoted, in the experiment's order (no
    ranking)."""
    groups: dict[str, list[str]] = {}
    arms: dict[str, list[str]] = {}
    for arm, effects in found:
        shown = {_shown(effects, t, none="inconclusive") for t in tiers}
        agreed = len(shown) == 1
        quoted = "; ".join(f"{e['tier']} {e['effect']} {e['interval']}"
                           + ("" if agreed else " shown" if e["shown"] in ("holds", "reversed") else " not shown")
                           for e in effects)
        name = _GROUPS.get(shown.pop()) if agreed else None
        groups.setdefault(name or "different by bot", []).append(f"{arm} ({quoted})")
        arms.setdefault(name or "different by bot", []).append(arm)
    order = [*_GROUPS.values(), "different by bot"]
    settled = {_GROUPS["holds"], _GROUPS["reversed"]}
    lead = ("It depends on the continent and on the bots" if "different by bot" in groups or len(groups) > 1 else
            _lead(question.yes, "Yes") if set(groups) == {_GROUPS["holds"]} else
            _lead(question.no, "No") if set(groups) == {_GROUPS["reversed"]} else
            "Not shown either way")
    n = sorted({e["n"] for _, effects in found for e in effects})
    body = "; ".join(f"{g}: {', '.join(groups[g])}" for g in order if g in groups)
    tail = (" (points against the own choice, shown or not after Holm's correction; "
            f"n = {', '.join(f'{v:,}' for v in n)} games per arm)")
    sentence = f"{lead}, for a seat that claims a fixed continent and goes for it until it holds it: {body}{tail}."
    if not settled & set(groups) and lead == "Not shown either way":
        sentence = sentence.replace(lead, "Not shown either way for any continent", 1)
    words = dict(zip(order, (f"{question.yes}, for", f"{question.no}, for", "not shown for",
                             "depends on the bots for")))
    label = "; ".join(f"{words[g]} {_and(arms[g])}" for g in order if g in arms)
    return sentence + (f" {question.caveat}" if question.caveat else ""), label


def _lead(words: str, otherwise: str) -> str:
    """A sentence's first word answering a yes-or-no question: ``words`` (a question's ``yes`` or ``no``) where it
    is yes or no, else ``otherwise`` (an either-or question's option stays in its label)."""
    first = words.split(" ", 1)[0].strip(",")
    return first.capitalize() if first in ("yes", "no") else otherwise


def answer_label(question: Question, verdict: str, effects: list[dict], tiers) -> str:
    """The answer to ``question`` as asked, in a few words, from its finding's verdict class and each tier's
    effect (``shown``): the question's ``yes`` where the claim holds, ``no`` where the opposite holds.

    >>> q = Question("Hold my cards?", "03", "", "holding lowers your win rate", yes="no", no="yes")
    >>> answer_label(q, "holds", [], ("a", "b")), answer_label(q, "fails", [], ("a", "b"))
    ('no', 'yes')
    >>> answer_label(q, "tier-dependent", [{"tier": "a", "shown": "reversed"}, {"tier": "b", "shown": "inconclusive"}],
    ...              ("a", "b"))
    'depends on the bots: a yes, b not shown'
    """
    if verdict.endswith(" only)"):
        return "not settled (one top-tier population)"
    if verdict == "holds":
        return question.yes
    if verdict == "fails":
        return question.no
    if verdict == "inconclusive":
        return "not shown either way"
    if verdict == "mixed":
        return "depends on the setting"
    if verdict == "tier-dependent":
        words = {"holds": question.yes, "reversed": question.no, "mixed": "settings disagree"}
        return "depends on the bots: " + ", ".join(f"{tier} {words.get(_shown(effects, tier), 'not shown')}"
                                                   for tier in tiers)
    return "not measured"


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


_LOWEST = re.compile(r"the lowest card: (.+?) \(next: (.+?)\)")


def _lowest_answer(question: Question, ranking: list[dict], others: list[tuple[str, str]], tiers) -> tuple[str, str]:
    """A ranking answer and its label: per tier the lowest item (named in its row's note) and whether its interval
    lies below every other's, then the sentences of the question's other findings (``others``: (sentence,
    label) pairs). The label is the item, where both tiers have the same one below every other, else "not
    settled" (with no ranking row: the other findings' labels)."""
    clauses, names, separated = [], set(), True
    for tier in tiers:
        for e in (e for e in ranking if e["tier"] == tier):
            match = _LOWEST.search(e["note"])
            card, after = match.groups() if match else ("the lowest item", "the next")
            names.add(card)
            separated &= e["shown"] == "holds"
            clauses.append(f"{tier}: {card} {e['effect']} {e['interval']}, n = {e['n']}, "
                           + ("below every other card" if e["shown"] == "holds" else
                              f"not separated from the next lowest, {after}"))
    if not clauses:
        return " ".join(o for o, _ in others), "; ".join(dict.fromkeys(label for _, label in others))
    if separated and len(names) == 1:
        label = names.pop()
        head = f"{label}, for both top-tier populations ({'; '.join(clauses)})."
    else:
        label = "not settled"
        why = "the lowest card differs by bot" if len(names) > 1 else "its interval is not separated from the next"
        head = f"Not settled: {why} ({'; '.join(clauses)})."
    return " ".join([head, *(f"Taken together: {o[0].lower()}{o[1:]}" for o, _ in others)]), label


def player_answers(verdicts: pd.DataFrame, rows: pd.DataFrame | None = None,
                   questions=QUESTIONS, tiers=None) -> pd.DataFrame:
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
    tiers : sequence of str, optional
        The top tier's names, the verdict table's tier columns (default `riskstats.runs.tiers.TOP_TIER`'s).

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
    >>> a = player_answers(v, questions=[q for q in QUESTIONS if q.question == "Should I always fortify?"],
    ...                    tiers=("search", "search:value=model"))
    >>> a[["tier", "effect", "interval", "n"]].values.tolist()
    [['search', '+3.0 points', '[+1.0, +5.0]', 8000], ['search:value=model', '+2.0 points', '[+0.5, +4.0]', 8000]]
    >>> print(a.answer[0])  # doctest: +NORMALIZE_WHITESPACE
    Yes: fortifying at the end of your turn beats never fortifying, for both top-tier populations (search in every
    seat and search:value=model in every seat): search: +3.0 points [+1.0, +5.0], n = 8000;
    search:value=model: +2.0 points [+0.5, +4.0], n = 8000. Checked in riskstats' games only, not against an outside
    AI.
    """
    from riskstats.errors import RiskstatsError
    from riskstats.stats.robustness import TOP_TIER, notebook_number

    need = {"notebook", "finding", "verdict"} - set(verdicts.columns)
    if need:
        raise RiskstatsError(f"the verdict table has no {', '.join(sorted(need))} column")
    verdicts = verdicts.assign(notebook=notebook_number(verdicts["notebook"]))
    if rows is not None:
        rows = rows.assign(notebook=notebook_number(rows["notebook"]))
    tiers = tuple(TOP_TIER if tiers is None else tiers)
    out = []
    for q in questions:
        if q.form not in FORMS:
            raise RiskstatsError(f"question {q.question!r}: form {q.form!r} is not one of {', '.join(FORMS)}")
        mine = verdicts[(verdicts["notebook"] == q.notebook)
                        & verdicts["finding"].str.contains(q.pattern, case=False, regex=True)]
        if mine.empty:
            out.append({"question": q.question, "answer": _sentence(q, "no top-tier rows", [], tiers),
                        "verdict": "no top-tier rows", "notebook": q.notebook, "finding": "", "tier": "",
                        "effect": "", "interval": "", "bots": "", "n": pd.NA, "label": "not measured", "outside": ""})
            continue
        found = []
        for _, row in mine.iterrows():
            verdict = str(row["verdict"])
            effects = _effects(q, row["finding"], row, rows, tiers)
            sentence = _sentence(q, verdict, effects, tiers)
            label = answer_label(q, verdict, effects, tiers)
            if q.post_hoc and re.search(q.post_hoc, row["finding"], re.IGNORECASE):
                sentence = (sentence.rstrip(".") + "; but this claim was written down after its data had been "
                            "seen, so it is a hypothesis for new games, not a test.")
            found.append((row, verdict, effects, sentence, label))
        if q.form in ("arms", "lowest"):
            if q.form == "arms":
                arms = [(re.search(q.arm, r["finding"], re.IGNORECASE).group(1), e) for r, _, e, _, _ in found]
                answer, label = _arms_answer(q, arms, tiers)
            else:
                ranking = [e for r, _, effects, _, _ in found if "lowest" in r["finding"] for e in effects]
                others = [(s, lab) for r, _, _, s, lab in found if "lowest" not in r["finding"]]
                answer, label = _lowest_answer(q, ranking, others, tiers)
            outside = _outside_sentence([r for r, *_ in found])
            found = [(r, v, e, f"{answer} {outside}", label) for r, v, e, _, _ in found]
        else:
            found = [(r, v, e, f"{a} {_outside_sentence([r])}", label) for r, v, e, a, label in found]
        for row, verdict, effects, answer, label in found:
            cls = next((c for c in VERDICTS if verdict.startswith(c)), verdict)
            base = {"question": q.question, "answer": answer, "verdict": cls, "notebook": q.notebook,
                    "finding": row["finding"], "label": label, "outside": _outside(row)}
            out += ([{**base, **{k: e[k] for k in ANSWER_COLUMNS if k in e and k not in ("label", "outside")}}
                     for e in effects] or
                    [{**base, "tier": "", "effect": "", "interval": "", "bots": "", "n": pd.NA}])
    frame = pd.DataFrame(out, columns=list(ANSWER_COLUMNS))
    frame["n"] = frame["n"].astype("Int64")
    return frame


def answer_details(answers: pd.DataFrame) -> pd.DataFrame:
    """`player_answers`' rows without repeats: where a later question quotes a measurement an earlier question
    already quoted (the same notebook, top-tier population, line-up, sample size, effect and interval: one
    experiment's arm behind two questions), only the earlier question's row is kept, and its ``also`` names the
    later questions. Rows of one question are never merged (two of its findings may round alike).

    >>> a = pd.DataFrame({"question": ["Q1", "Q2", "Q2", "Q2"], "notebook": "02", "tier": "search", "bots": "b",
    ...                   "n": 10, "effect": ["+1", "+2", "+1", "+2"], "interval": ["[0, 2]", "[1, 3]", "[0, 2]",
    ...                   "[1, 3]"]})
    >>> answer_details(a)[["question", "effect", "also"]].values.tolist()
    [['Q1', '+1', 'Q2'], ['Q2', '+2', ''], ['Q2', '+2', '']]
    """
    key = ["notebook", "tier", "bots", "n", "effect", "interval"]
    first: dict[tuple, int] = {}  # a measurement -> the row of the first question quoting it
    keep, also = [], [""] * len(answers)
    for i, row in enumerate(answers[["question", *key]].itertuples(index=False)):
        k = tuple(str(v) for v in row[1:])
        j = first.setdefault(k, i) if row.effect != "" else i
        if j == i or answers["question"].iloc[j] == row.question:
            keep.append(i)
        elif row.question not in also[j].split(", "):
            also[j] = ", ".join(filter(None, [also[j], row.question]))
    return answers.assign(also=also).iloc[keep].reset_index(drop=True)


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
