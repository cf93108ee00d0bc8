"""The top-tier bots' strength outside riskstats, read from the committed outside match (``data/outside/``:
one riskstats bot against Domination's hard AIs in Domination's own engine, docs/outside.md).

This module owns `outside_strength` (the top tier's rows of ``data/outside/summary.csv`` beside the control, a hard
AI in the same seat) and the sentences every page that draws a conclusion carries: `outside_sentence` (how strong
the top-tier bots are, or that a bot was not played there) and `findings_scope` (the standard a finding of
notebooks 02-07 is held to, and what it does not show). The figures are read, never typed, so the text follows the
data when a stronger bot or a new match lands. It writes no file.

>>> "Domination" in outside_sentence()
True
"""
from __future__ import annotations

import pandas as pd

OPPONENT = "domination:hard"
"""The outside opponent the sentences quote: Domination's hard AI, three of them in a four-player game."""
PLAYERS = 4
"""The player count the sentences quote (the findings' own format; the two-player seat is not fair there:
docs/outside.md)."""
_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _summary(folder=None) -> pd.DataFrame:
    from pathlib import Path

    from riskstats.analysis.paths import data_dir
    from riskstats.errors import RiskstatsError

    path = (Path(folder) if folder else data_dir() / "outside") / "summary.csv"
    if not path.is_file():
        raise RiskstatsError(f"no outside match summary at {path}")
    return pd.read_csv(path)


def outside_strength(folder=None, tiers=None, opponent: str = OPPONENT, players: int = PLAYERS,
                     data=None) -> pd.DataFrame:
    """Each top-tier bot's record against ``opponent`` in every other seat, with the control beside it.

    Parameters
    ----------
    folder : path, optional
        The outside match's folder (default ``data/outside``), holding ``summary.csv``.
    tiers : dict, optional
        Tier name -> entry with ``bot`` (default `riskstats.stats.robustness.TOP_TIER`); a summary row is the tier's
        where its ``remote`` is the tier's name or its full spec. Without ``folder``, a tier's record is read from
        its entry's ``outside`` folder (under ``data``; default ``outside``).
    opponent, players : str, int
        The opponents and the player count (default `OPPONENT`, `PLAYERS`).
    data : path, optional
        The data folder the tiers' ``outside`` folders lie in (default the repository's ``data/``).

    Returns
    -------
    pandas.DataFrame
        One row per tier: ``tier``, ``bot``, ``played`` (a summary row exists), ``games``, ``wins``, ``win_rate``,
        ``low95``, ``high95``, ``fair_share``, and the control's (``opponent`` in the measured seat) ``control_rate``,
        ``control_low95``, ``control_high95``, ``control_games`` (NaN where absent). Only games of Domination's
        default, increasing card mode count.
    """
    from pathlib import Path

    from riskstats.analysis.paths import data_dir
    from riskstats.stats.robustness import TOP_TIER

    tiers = TOP_TIER if tiers is None else tiers
    rows = []
    for tier, entry in tiers.items():
        summary = _summary(folder or Path(data or data_dir()) / entry.get("outside", "outside"))
        match = summary[(summary.opponents == opponent) & (summary.players == players)]
        if "cards" in match:
            match = match[match.cards.fillna("increasing") == "increasing"]
        control = match[match.remote == opponent]
        mine = match[match.remote.isin([tier, entry["bot"]])]
        row = {"tier": tier, "bot": entry["bot"], "played": len(mine) > 0}
        for column in ("games", "wins", "win_rate", "low95", "high95", "fair_share"):
            row[column] = mine[column].iloc[0] if len(mine) else float("nan")
        for column in ("win_rate", "low95", "high95", "games"):
            row[f"control_{column.replace('win_', '')}"] = control[column].iloc[0] if len(control) else float("nan")
        rows.append(row)
    return pd.DataFrame(rows)


def outside_sentence(folder=None, tiers=None, data=None) -> str:
    """How strong the top-tier bots are outside riskstats, in one sentence read from `outside_strength`.

    >>> outside_sentence().startswith("How these bots fare outside riskstats: against Domination's hard AI")
    True
    """
    strength = outside_strength(folder, tiers, data=data).drop_duplicates("bot")  # tiers of one bot: one record
    played = strength[strength.played]
    parts = [f"`{r.tier}` wins {r.win_rate:.1%} (95% {r.low95:.1%}-{r.high95:.1%}, {int(r.games):,} games) of "
             f"{_WORDS[PLAYERS]}-player games against {_WORDS[PLAYERS - 1]} hard AIs, where {r.fair_share:.0%} is fair"
             + (f" and a hard AI in the same seat wins {r.control_rate:.1%} ({int(r.control_games):,} games)"
                if pd.notna(r.control_rate) else "")
             for r in played.itertuples()]
    missing = [f"`{t}`" for t in strength.tier[~strength.played]]
    text = "How these bots fare outside riskstats: "
    if parts:
        text += "against Domination's hard AI in Domination's own engine (docs/outside.md), " + "; ".join(parts)
    if missing:
        text += ("; " if parts else "") + " and ".join(missing) + (" was" if len(missing) == 1 else " were") + \
            " not played there"
    return text + "."


def findings_scope(folder=None, tiers=None) -> str:
    """The standard a finding of notebooks 02-07 is held to: the tier set that judges it (`riskstats.runs.tiers`:
    ``JUDGING``, its populations), where it must hold under every one of them, with their outside strength
    (`outside_sentence`), beyond which no finding is shown."""
    from riskstats.runs.tiers import JUDGING, TIER_SETS, population_name

    shown = TIER_SETS[JUDGING] if tiers is None else tiers
    populations = "; ".join(f"{population_name(entry)} (`{entry['bot']}`"
                            + (f" against `{entry['others']}`" if isinstance(entry.get("others"), str) else
                               " against the format's next best" if "others" in entry else "") + ")"
                            for entry in shown.values())
    judged = f"the tier set `{JUDGING}`: " if tiers is None else ""
    return (f"The findings are judged by the top tier, {judged}{populations}. A finding holds for riskstats' bots only "
            "where it holds under every one of these populations; the other tier sets' rows are context. "
            + outside_sentence(folder, tiers)
            + " So no finding here is shown for play stronger than that, human or machine.")


BLOCK = ("<!-- outside strength: generated by riskstats.analysis.outside.refresh_pages from data/outside/ -->",
         "<!-- end of outside strength -->")
"""The markers around the generated outside-strength sentence in a markdown page (`refresh_pages`)."""
PAGES = ("README.md", "docs/bots.md")
"""The markdown pages that carry the generated sentence."""


def outside_block(text: str, folder=None, tiers=None, data=None) -> str:
    """``text`` with the part between the `BLOCK` markers replaced by `outside_sentence`.

    >>> page = f"before\\n{BLOCK[0]}\\nold\\n{BLOCK[1]}\\nafter"
    >>> outside_block(page).splitlines()[2].startswith("How these bots fare outside riskstats")
    True
    """
    from riskstats.errors import RiskstatsError

    start, end = text.find(BLOCK[0]), text.find(BLOCK[1])
    if start < 0 or end < start:
        raise RiskstatsError("the page has no outside-strength markers")
    return text[:start + len(BLOCK[0])] + "\n" + outside_sentence(folder, tiers, data) + "\n" + text[end:]


def refresh_pages(root=None, check: bool = False) -> list:
    """Rewrite the outside-strength block of every page in `PAGES` under ``root`` (the repository by default) from
    ``data/outside/``; return the pages that changed (with ``check``, only report them, writing nothing).

    ``python -c "from riskstats.analysis.outside import refresh_pages; refresh_pages()"`` after a new outside match.
    """
    from pathlib import Path

    from riskstats.analysis.paths import repository_root

    root = Path(root) if root else repository_root()
    changed = []
    for page in PAGES:
        path = root / page
        text = path.read_text()
        new = outside_block(text, data=root / "data")
        if new != text:
            changed.append(page)
            if not check:
                path.write_text(new)
    return changed
