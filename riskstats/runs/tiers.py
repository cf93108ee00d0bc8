"""The top tiers the findings are measured in, in one place (issue 52): the tier sets, the one the findings are judged
by, and how an experiment file's line-ups name them.

This module owns `TIER_SETS`, `JUDGING` and `TOP_TIER` (which `riskstats.stats.robustness` judges the findings by and
every notebook reads), and `top_tier_lineups`, which writes out an experiment file's ``{top}`` and ``{rest}`` line-ups
for a set's tiers (`riskstats.runs.experiment.experiment_cells`; ``scripts/make/findings.py`` plays a whole set).
"""
from __future__ import annotations

from riskstats.errors import RiskstatsError

TIER_SETS = {
    "top": {
        "search": {"bot": "search:rollouts=8:horizon=1:plans=6:value=formula",
                   "population": "search in every seat (top tier)", "folder": "search"},
        "search:value=model": {"bot": "search:rollouts=8:horizon=0:plans=8:value=model",
                               "population": "search:value=model in every seat (top tier)", "folder": "search_model"},
    },
    "top_hunter": {
        "hunter": {"bot": "hunter", "population": "hunter in every seat (top tier)", "folder": "top_hunter/hunter",
                   "outside": "outside/findings"},
        "hunter against the next best": {
            "bot": "hunter", "others": {2: "search:rollouts=8:horizon=0:plans=8:value=model",
                                        4: "search:rollouts=8:horizon=1:plans=6:value=formula"},
            "population": "hunter against the next best (top tier)", "folder": "top_hunter/next_best",
            "outside": "outside/findings"},
    },
}
"""The top tiers the findings have been or are being measured in, by the name of their runs' folder
(``data/<finding>/<name>/``, `scripts/make/findings.py`). ``top`` (issue #29): the tier-1 bot of each format by direct
head to head on the ladder of issue #39 (`riskstats.stats.verdicts.pair_tiers`, ``data/robustness/tiers.csv``),
``search`` four-player and ``search:value=model`` two-player, each in every seat. ``top_hunter`` (issue 52): the
hunter, tier 1 alone of both formats on the candidates' ladder (``data/top_tier/``), in every seat, and against the
next best bot of the format in the other seats (``others``: ``search:value=model`` two-player, ``search`` four-player
and, for want of a ladder of their own, with 3, 5 and 6 players). Tier name -> the full spec of the bot of the
treated seat (the treated seat may add options, ``:fortify=1``), the bot of the other seats (``others``, default the
same; a dict by player count, a count it lacks taking its largest key's), the population label its robustness
rows carry, and the folder (or files' prefix) of its runs within a finding's data folder that the ``scripts/make``
programs write one tier at a time (``data/breaking/<folder>/``; the ``top`` set's predate the set folders), and the
folder under ``data/`` of its bot's outside record (``outside``, default ``outside``: `riskstats.analysis.outside`;
the hunter's, the control arm of ``data/outside/findings/``, games 300,000 on, with a hard AI in its seat on the same
game numbers in ``cards_increasing_4p``)."""
LADDERS = {
    "top": {"ladder": "value_bot/issue30/ladder_own_seeds/ladder.csv",
            "two_player": "value_bot/issue30/ladder/round_robin_games.csv.gz",
            "shared_deals": "value_bot/issue30/ladder/ladder_games.csv.gz"},
    "top_hunter": {"ladder": "top_tier/ladder/ladder.csv", "two_player": "top_tier/ladder/round_robin_games.csv.gz"},
}
"""The committed ladders (under ``data/``) each set's tier 1 was chosen on, by direct head to head
(`riskstats.stats.verdicts.tiers_table`): the four-player ladder (its per-game table and fit beside it), the two-player
round robin, and for ``top`` the ladder whose line-ups share their deals (context). The judging set's are the verdicts'
(`riskstats.stats.verdicts.TIER_TABLES`)."""
JUDGING = "top_hunter"
"""The tier set the findings are judged by (`TOP_TIER`): one changed line moves the verdicts to another set, once its
runs are made (`scripts/make/findings.py`); the other sets' rows stay as context."""
TOP_TIER = TIER_SETS[JUDGING]
"""The tiers the findings are judged by (`JUDGING`; kept as code: the robustness rows carry these population labels).
A test ties it to the data: its bots are the union of the two formats' tier 1 in ``tiers.csv``
(`riskstats.stats.verdicts.tier_one`), so a change of tiers fails it until this and the findings' runs follow."""
TOP = "{top}"
"""In an experiment file's line-up, the top tier's bot (`top_tier_lineups`): the seat a treatment is given to."""
REST = "{rest}"
"""... and the bot of the tier's other seats: its own bot, or a tier's ``others`` (a tier that plays its bot against
another)."""


def _others(entry: dict, players: int | None) -> str:
    """The bot of a tier's other seats (`TIER_SETS`) with ``players`` players."""
    others = entry.get("others", entry["bot"])
    if isinstance(others, dict):
        return others.get(players) or others[max(others)]
    return others


def tier_seats(entry: dict, players: int, treated: bool = False) -> list[str]:
    """The bots of a tier's population seat by seat with ``players`` players: its bot, alternating with the others'
    (`TIER_SETS`) if it has any, as a line-up template of `TOP` alone plays (`top_tier_lineups`). ``treated``: the
    tier's bot in the first seat, the seat a treatment is given to, and the others' in the rest, as the experiment
    files' ``{top}:...,{rest},{rest},{rest}`` write it (the bot's game against the next best's).

    >>> against = TIER_SETS["top_hunter"]["hunter against the next best"]
    >>> [[b.split(":")[0] for b in tier_seats(against, 4, treated)] for treated in (False, True)]
    [['hunter', 'search', 'hunter', 'search'], ['hunter', 'search', 'search', 'search']]
    """
    others = _others(entry, players)
    return [entry["bot"] if seat == 0 or (seat % 2 == 0 and not treated) else others for seat in range(players)]


def every_tier() -> dict[str, dict]:
    """Every tier of every set (`TIER_SETS`), those of the judging set (`JUDGING`) first: tier -> its entry, with the
    name of its set under ``set``."""
    order = [JUDGING, *(name for name in TIER_SETS if name != JUDGING)]
    return {tier: {**entry, "set": name} for name in order for tier, entry in TIER_SETS[name].items()}


def tier_of(lineup: str) -> str | None:
    """The tier whose population a line-up (comma-joined bot specs, seated in any order) is, or None.

    >>> tier_of("hunter,search:rollouts=8:horizon=1:plans=6:value=formula,hunter"), tier_of("hunter,aggressive")
    ('hunter against the next best', None)
    """
    names = sorted(b.strip() for b in lineup.split(",") if b.strip())
    found = [tier for tier, entry in every_tier().items() if names == sorted(tier_seats(entry, len(names)))]
    return found[0] if found else None


def population_name(entry: dict) -> str:
    """A tier's population in words: its label (`TIER_SETS`) without " (top tier)".

    >>> population_name(TIER_SETS["top"]["search"])
    'search in every seat'
    """
    return entry["population"].removesuffix(" (top tier)")


def set_populations(name: str, players: int = 4) -> dict[str, tuple[str, str]]:
    """The populations of the tier set ``name`` (`tier_set`), as the ``scripts/make`` programs play them: tier ->
    (its population's seats comma-joined, `tier_seats`; its runs' ``folder``).

    >>> set_populations("top_hunter")["hunter"]
    ('hunter,hunter,hunter,hunter', 'top_hunter/hunter')
    """
    return {tier: (",".join(tier_seats(entry, players)), entry["folder"]) for tier, entry in tier_set(name).items()}


def tier_set(name: str) -> dict:
    """The tiers of the set ``name`` (`TIER_SETS`), or a one-line error naming the sets."""
    if name not in TIER_SETS:
        raise RiskstatsError(f"unknown tier set {name!r}; choose from {', '.join(TIER_SETS)}")
    return TIER_SETS[name]


def top_tier_lineups(lineups, tiers=None, players: int | None = None) -> list[str]:
    """The line-ups of an experiment's top-tier populations: every line-up template (`TOP`, `REST` placeholders)
    written out for each tier of ``tiers`` (default `TOP_TIER`), tier by tier, the templates in their order within
    each. So every experiment file that plays the top tier reads it from `TOP_TIER` alone: one changed entry there
    changes every such experiment. A template of `TOP` alone is the tier's population: its bot in every seat, or,
    for a tier with ``others`` (with ``players`` players), its bot and the others alternating. Line-ups without a
    placeholder are returned as they are (none may be mixed in).

    >>> top_tier_lineups(["{top}:first=Australia:draft=1,{rest}", "{top}"], {"a": {"bot": "hunter"},
    ...                  "b": {"bot": "hunter", "others": {2: "value", 4: "search"}}}, players=4)
    ['hunter:first=Australia:draft=1,hunter', 'hunter', 'hunter:first=Australia:draft=1,search', 'hunter,search']
    """
    lineups = list(lineups)
    templated = [(TOP in b or REST in b) for b in lineups]
    if not any(templated):
        return lineups
    if not all(templated):
        plain = lineups[templated.index(False)]
        raise RiskstatsError(f"line-up {plain!r} names no {TOP} among line-ups that do: give the top tier's "
                             "line-ups in an experiment of their own")
    tiers = TOP_TIER if tiers is None else tiers
    out = []
    for entry in tiers.values():
        others = _others(entry, players)
        for template in lineups:
            lineup = template.replace(TOP, entry["bot"]).replace(REST, others)
            out.append(lineup if REST in template or "," in template or entry["bot"] == others
                       else f"{lineup},{others}")
    return out
