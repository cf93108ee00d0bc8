"""Reports on self-play results: win rates with Wilson intervals, ratings that fit, game lengths, per cell.

This module owns `report` (a `Report` of long-form DataFrames) and the win-rate tables it is built from.
Counting convention: trials are games. A bot's trials are the decided games it played, one per game
however many seats it held; a seat's trials are the decided games (each game has one of each seat). A
game stopped at the turn cap has no winner: it is counted in ``truncated`` beside every rate, and left
out of the trials, so it is never a loss for every seat and never enters a test against the fair share.
The rating is the winner-only Luce model with bootstrap intervals (`riskstats.stats.ratings.luce`) and
its goodness-of-fit test; Plackett-Luce over finishing orders is reported beside it as a survival
measure, with its own fit test; pairwise Bradley-Terry is kept for comparison only (its errors are too
small). Each seat's win rate is tested against the fair share 1/P
(`riskstats.stats.compare.versus_share`, Holm over the seats).

Games are only pooled when they are alike: an experiment's table (a ``cell`` column) is reported cell
by cell, every table led by the cell and its grid values and every plot titled with them; a table that
mixes player counts, variants or rules without cells is refused. Files are written by
`riskstats.runs.results`.

>>> import pandas as pd
>>> games = pd.DataFrame({"players": 2, "bots": ["a,b", "b,a", "a,b", "b,a"], "winner": [0, 1, 1, -1],
...                       "winner_bot": ["a", "a", "b", ""], "turns": [10, 12, 14, 1000],
...                       "truncated": [False, False, False, True]})
>>> win_rates(games, "bot")[["bot", "trials", "wins", "truncated"]].values.tolist()
[['a', 3, 2, 1], ['b', 3, 1, 1]]
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from riskstats.intervals import (
    EVERY_SEAT,
    every_seat_note,
    percent,
    percent_interval,
    seated,
    seats_note,
    wilson_interval,
)
from riskstats.stats.compare import PAIRED_METHOD, treatment_effects, versus_share
from riskstats.stats.ratings import (
    BOOT,
    bradley_terry,
    luce_model,
    pairwise_results,
    pairwise_table,
    plackett_luce_model,
)


def seat_table(table):
    """One row per seat of every game: game, seat, bot, won, decided (the game has a winner)."""
    import pandas as pd

    seats = table["bots"].str.split(",")
    counts = seats.str.len().to_numpy()
    game = np.repeat(np.arange(len(table)), counts)
    seat = np.concatenate([np.arange(k) for k in counts]) if len(counts) else np.zeros(0, int)
    winner = np.repeat(table["winner"].to_numpy(), counts)
    return pd.DataFrame({"game": game, "seat": seat, "bot": np.concatenate(seats.to_list()) if len(counts) else [],
                         "won": winner == seat, "decided": winner >= 0})


def seats_held(table) -> dict:
    """Seats each bot holds in a game (the most over the games): 2 for a bot a line-up shorter than the seats
    repeats ("aggressive,continent,defensive" in 4 seats), 1 for most.

    >>> import pandas as pd
    >>> seats_held(pd.DataFrame({"bots": ["a,b,c,a", "b,c,a,a"], "winner": [0, 1]}))
    {'a': 2, 'b': 1, 'c': 1}
    """
    seats = seat_table(table)
    return {bot: int(k) for bot, k in seats.groupby(["game", "bot"]).size().groupby("bot").max().items()}


def win_rates(table, by="bot"):
    """Trials, wins, win rate and 95% Wilson interval grouped by ``"bot"``, ``"seat"`` or ``["bot", "seat"]``.

    Trials are decided games: a bot in k seats of a game has one trial (won if any of its seats won),
    ``truncated`` counts the games without a winner it (or the seat) was in, and ``games`` both. A group
    with no decided game has a NaN rate and interval.
    """
    keys = [by] if isinstance(by, str) else list(by)
    seats = seat_table(table)
    if "seat" not in keys:  # one row per game and bot: a bot's trial is a game, not a seat
        seats = seats.groupby(["game", *keys], sort=False).agg(won=("won", "any"), decided=("decided", "first"))
        seats = seats.reset_index()
    grouped = seats.groupby(keys, sort=True).agg(games=("won", "size"), decided=("decided", "sum"),
                                                 wins=("won", "sum")).reset_index()
    grouped["trials"] = grouped.pop("decided").astype(int)
    grouped["wins"] = grouped["wins"].astype(int)
    grouped["truncated"] = grouped["games"] - grouped["trials"]
    grouped["win_rate"] = grouped["wins"] / grouped["trials"].where(grouped["trials"] > 0)
    bounds = [wilson_interval(w, n) if n > 0 else (np.nan, np.nan) for w, n in zip(grouped["wins"], grouped["trials"])]
    grouped["ci_low"] = [b[0] for b in bounds]
    grouped["ci_high"] = [b[1] for b in bounds]
    return grouped[[*keys, "trials", "wins", "win_rate", "ci_low", "ci_high", "truncated", "games"]]


def game_lengths(table):
    """Distribution of turns (and rounds, when present) of finished and truncated games: count, mean, quantiles."""
    import pandas as pd

    rows = []
    for column in [c for c in ("turns", "rounds") if c in table.columns]:
        for label, part in (("all", table), ("finished", table[~table["truncated"].astype(bool)])):
            values = part[column].to_numpy(float)
            q = np.quantile(values, [0.05, 0.25, 0.5, 0.75, 0.95]) if len(values) else [np.nan] * 5
            rows.append({"measure": column, "games": label, "count": len(values),
                         "mean": values.mean() if len(values) else np.nan, "p5": q[0], "p25": q[1], "median": q[2],
                         "p75": q[3], "p95": q[4]})
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class Section:
    """One printed table of a report: its title, column names, rows (written out) and caption."""

    title: str
    columns: tuple
    rows: list
    caption: str | None = None


@dataclass
class Report:
    """A self-play report: each statistic's DataFrame by its `Statistic`'s field (``report.bots``,
    ``report.ratings``, ...: see `report`), ``truncated`` a dict.

    For an experiment every table starts with the ``cell`` and its grid values (``cells`` lists them);
    for a single run ``cells`` is None and the tables have no cell columns.
    """

    games: int
    truncated: dict
    frames: dict
    cells: object = None
    effects: object = None
    boot: int = BOOT

    def __getattr__(self, name):
        """A statistic's frame by its field (None where the games gave it none)."""
        if any(s.field == name for s in STATISTICS):
            return self.__dict__["frames"].get(name)
        raise AttributeError(f"'Report' object has no attribute {name!r}")

    def tables(self) -> dict:
        """The report's tables by file name (`Statistic.file`; then ``cells`` and ``treatment_effects``)."""
        tables = {s.file: getattr(self, s.field) for s in STATISTICS if s.file is not None}
        if self.cells is not None and len(self.cells):
            tables["cells"] = self.cells
        if self.effects is not None and len(self.effects):
            tables["treatment_effects"] = self.effects
        return {name: frame for name, frame in tables.items() if frame is not None}

    def figures(self, cells=None) -> dict:
        """The report's plots by file name (matplotlib figures, drawn off-screen): each statistic's
        (`Statistic.figure`), one set per cell (or for the ``cells`` named)."""
        import matplotlib

        matplotlib.use("Agg")
        out = {}
        for view in self._views():
            if cells is None or view.cell in cells:
                for statistic in STATISTICS:
                    if statistic.figure is not None:
                        out.update(statistic.figure(view))
        return out

    def sections(self) -> list[Section]:
        """The report as printed tables (`Section`), cell by cell, each statistic's (`Statistic.section`), then
        the treatment effects."""
        out = [section for view in self._views() for statistic in STATISTICS if statistic.section is not None
               for section in statistic.section(view)]
        if self.effects is not None:
            out.append(_effects_section(self.effects))
        return out

    def _views(self) -> list[CellView]:
        views = []
        for cell, title in cell_titles(self.cells):
            games = self.games if cell is None else int(self.cells.set_index("cell").games[cell])
            views.append(CellView(self, cell, title, games))
        return views

    def to_dict(self) -> dict:
        """JSON-able form (lists of records)."""
        out = {"games": self.games, "truncated": self.truncated}
        for name, frame in self.tables().items():
            out[name] = frame.to_dict("records")
        return out


@dataclass(frozen=True)
class CellView:
    """One cell of a report (the whole report for a single run) as a statistic's section and figure see it."""

    report: Report
    cell: object
    title: str | None
    games: int

    def frame(self, frame):
        """``frame``'s rows of this cell."""
        return frame if self.cell is None else frame[frame["cell"] == self.cell]

    def rows(self, frame) -> list[dict]:
        """``frame``'s rows of this cell, as records."""
        return self.frame(frame).to_dict("records")

    @property
    def where(self) -> str:
        """The suffix of a printed table's title: `` - <the cell's title>``, or nothing for a single run."""
        return "" if self.title is None else f" - {self.title}"

    @property
    def suffix(self) -> str:
        """The suffix of a figure's file name: ``_<cell>``, or nothing for a single run."""
        return "" if self.cell is None else f"_{self.cell}"

    def titled(self, title: str) -> str:
        return _titled(title, self.title)


class Cell:
    """One cell's games (a single run's, or an experiment cell's) as a statistic computes from them: the games
    ``table``, the bootstrap ``boot`` and ``seed``, and the fits several statistics share, each computed once."""

    def __init__(self, table, boot: int, seed: int):
        self.table, self.boot, self.seed = table, boot, seed

    @cached_property
    def pairs(self):
        return pairwise_results(self.table)

    @cached_property
    def bradley_terry(self):
        return bradley_terry(self.pairs)

    @cached_property
    def luce(self):
        """(ratings, differences, fit) of the Luce model; three None if no game has a winner."""
        if (self.table["winner"] >= 0).any():
            return luce_model(self.table, boot=self.boot, seed=self.seed)
        return None, None, None

    @cached_property
    def plackett(self):
        return plackett_luce_model(self.table, boot=self.boot, seed=self.seed)


@dataclass(frozen=True)
class Statistic:
    """One statistic of a report: the one entry a new statistic adds to `STATISTICS`.

    ``field``: the `Report` attribute that holds it; ``file``: the name its table is written under
    (`Report.tables`, a contract; None: not written); ``compute``: its table from one cell's games (`Cell`; None
    where it has none); ``section``: its printed tables of one cell (`CellView`; None: not printed); ``figure``:
    its plots of one cell by file name (None: not drawn).
    """

    field: str
    file: str | None
    compute: Callable
    section: Callable | None = None
    figure: Callable | None = None


def fit_words(row) -> str:
    """One line on a rating model's fit test (a `riskstats.stats.ratings.luce_fit` row). The chi-square p is left
    out where the smallest expected count is below `riskstats.stats.ratings.MIN_EXPECTED` (then the parametric
    bootstrap's p alone judges the fit).

    >>> row = {"df": 5929, "g2": 5771.4, "p_value": 0.927, "p_boot": 0.008, "boot": 500, "min_expected": 0.04}
    >>> print(fit_words(row))  # doctest: +NORMALIZE_WHITESPACE
    fit: G2 = 5771.4 on 5929 df (no chi-square p: expected counts as small as 0.04, below 5), p = 0.008
    (parametric bootstrap, 500); the model does not fit
    """
    from riskstats.stats.ratings import MIN_EXPECTED

    if row["df"] <= 0:
        return f"fit: saturated (df 0), nothing to test; {row['observations']:,} observations"
    small = row.get("min_expected", np.inf) < MIN_EXPECTED
    ps = [row["p_boot"]] if small else [row["p_value"], row["p_boot"]]
    chi = (f" (no chi-square p: expected counts as small as {row['min_expected']:.2g}, below {MIN_EXPECTED:g}), p = "
           if small else f", p = {row['p_value']:.3g} (chi-square), ")
    return (f"fit: G2 = {row['g2']:.1f} on {row['df']} df{chi}{row['p_boot']:.3g} (parametric bootstrap, "
            f"{row['boot']}); " + ("consistent with the model" if min(ps) >= 0.05 else "the model does not fit"))


def _fit_note(fit, model):
    rows = [] if fit is None else fit[fit["model"].str.startswith(model)].to_dict("records")
    return "\n" + fit_words(rows[0]) if rows else ""


def _titled(title, cell_title):
    return title if cell_title is None else f"{title}\n{cell_title}"


def cell_titles(cells):
    """(cell, its title) for each cell of a report; one (None, None) for a single run."""
    if cells is None or len(cells) == 0:
        return [(None, None)]
    lineups = "lineup" in cells.columns and cells["lineup"].nunique() > 1
    return [(r["cell"], cell_label(r, lineups)) for r in cells.to_dict("records")]


def cell_label(cell: dict, lineup: bool = False) -> str:
    """A cell's one-line title: its name, players, variant, line-up (if asked: when cells differ in it)
    and swept values (``rules.x``, ``params.y``).

    >>> cell_label({"cell": "cell-001", "players": 4, "variant": "classic", "rules.escalation": "fixed", "games": 9})
    'cell-001: 4 players, classic, escalation=fixed'
    >>> cell_label({"cell": "cell-002", "players": 4, "variant": "classic", "params.continent": "first=Australia"})
    'cell-002: 4 players, classic, continent:first=Australia'
    """
    parts = [f"{cell['players']} players", str(cell["variant"])] + ([f"bots={cell['lineup']}"] if lineup else [])
    parts += [f"{k.split('.', 1)[1]}{'=' if k.startswith('rules.') else ':'}{v}" for k, v in cell.items()
              if k.startswith(("rules.", "params."))]  # a bot's parameters as in a spec: continent:first=Australia
    return f"{cell['cell']}: " + ", ".join(parts)


INCOMPATIBLE = ("players", "variant", "rules")
"""Columns that must be equal across the games of one table for it to be reported as one."""


def _cells(table):
    """(cells table or None, [(cell or None, games)]): an experiment by cell, a run whole (refused if mixed)."""
    from riskstats.errors import RiskstatsError

    if "cell" not in table.columns:
        for column in INCOMPATIBLE:
            if column in table.columns and table[column].astype(str).nunique() > 1:
                values = ", ".join(sorted(map(str, table[column].astype(str).unique())))[:200]
                raise RiskstatsError(f"the games mix {column} ({values}); report each run on its own, or play "
                                     f"them as cells of one experiment")
        return None, [(None, table)]
    rows, parts = [], []
    for cell, games in table.groupby("cell", sort=True):
        first = games.iloc[0]
        rows.append({"cell": cell, "players": int(first["players"]), "variant": first["variant"],
                     **{k: first[k] for k in games.columns if k == "lineup" or k.startswith(("rules.", "params."))},
                     "games": len(games)})
        parts.append((cell, games))
    return pd.DataFrame(rows), parts


def _bots(cell: Cell):
    table = cell.table
    bots = win_rates(table, "bot")
    lineups = [set(b.split(",")) for b in table["bots"]]
    bots["every_seat"] = [all(lineup == {name} for lineup in lineups) for name in bots["bot"]]  # fixed share
    bots["seats"] = bots["bot"].map(seats_held(table)).astype(int)  # a bot seated twice: its game counts once
    return bots


def _seats(cell: Cell):
    players = int(cell.table["bots"].iloc[0].count(",") + 1)
    seat_rates = win_rates(cell.table, "seat")
    return versus_share(seat_rates, 1 / players) if (seat_rates["trials"] > 0).all() else seat_rates


def _rating_fit(cell: Cell):
    return pd.concat([f for f in (cell.luce[2], cell.plackett[2]) if f is not None], ignore_index=True)


def _bots_section(view: CellView) -> list[Section]:
    report = view.report
    seats, bots = view.rows(report.seats), view.rows(report.bots)
    fixed = [bool(r["every_seat"]) for r in bots]
    held = {r["bot"]: 1 if f else int(r.get("seats", 1)) for r, f in zip(bots, fixed)}
    return [Section(
        f"Win rate by bot ({view.games} games){view.where}",
        ("bot", "decided games", "wins", "win rate", "95% CI", "truncated"),
        [(seated(r["bot"], held[r["bot"]]), r["trials"], r["wins"], percent(r["win_rate"]),
          EVERY_SEAT if f else percent_interval(r["ci_low"], r["ci_high"]), r["truncated"])
         for r, f in zip(bots, fixed)],
        "; ".join(note for note in (
            "trials are games: a bot in two seats of a game counts once; games stopped at the turn cap "
            "are left out (no winner) and counted apart", seats_note(held),
            every_seat_note(fixed, len(seats))) if note))]


def _seats_section(view: CellView) -> list[Section]:
    seats = view.rows(view.report.seats)
    return [Section(
        f"Win rate by seat (seat 0 moves first){view.where}",
        ("seat", "games", "wins", "win rate", "95% CI", "vs fair share"),
        [(r["seat"], r["trials"], r["wins"], percent(r["win_rate"]), percent_interval(r["ci_low"], r["ci_high"]),
          ("above" if r["win_rate"] > r["share"] else "below") if r["significant"] else "not separated")
         for r in seats],
        f"fair share 1/{len(seats)} of the decided games: exact binomial test per seat, Holm-corrected over "
        "seats")]


def _bot_seats_section(view: CellView) -> list[Section]:
    return [Section(
        f"Win rate by bot and seat{view.where}", ("bot", "seat", "games", "wins", "win rate", "95% CI"),
        [(r["bot"], r["seat"], r["trials"], r["wins"], percent(r["win_rate"]),
          percent_interval(r["ci_low"], r["ci_high"])) for r in view.rows(view.report.bot_seats)])]


_RANKS = "equal ranks are ties: a rank is claimed only where the bootstrap interval of the difference excludes 0"


def _fits(view: CellView) -> dict:
    fit = view.report.rating_fit
    return {r["model"].split(" ")[0]: r for r in view.rows(fit)} if fit is not None else {}


def _ratings_section(view: CellView) -> list[Section]:
    """The Luce model of who wins, with its fit test in the caption."""
    report, fits = view.report, _fits(view)
    if report.ratings is None:
        return []
    return [Section(
        f"Luce ratings (who wins; Elo scale, mean 0){view.where}",
        ("rank", "bot", "rating", "95% CI", "wins", "decided games"),
        [(r["rank"], r["bot"], f"{r['elo']:+.0f}", f"{r['ci_low']:+.0f} to {r['ci_high']:+.0f}", r["wins"],
          r["games"]) for r in view.rows(report.ratings)],
        f"95% intervals from {report.boot} bootstrap resamples of the games; {_RANKS}; "
        + (fit_words(fits["luce"]) if "luce" in fits else "no fit test"))]


def _survival_section(view: CellView) -> list[Section]:
    """The Plackett-Luce survival measure, with its fit test in the caption."""
    fits = _fits(view)
    return [Section(
        f"Plackett-Luce survival measure (finishing order; Elo scale, mean 0){view.where}",
        ("rank", "bot", "rating", "95% CI", "games"),
        [(r["rank"], r["bot"], f"{r['elo']:+.0f}", f"{r['ci_low']:+.0f} to {r['ci_high']:+.0f}", r["games"])
         for r in view.rows(view.report.survival)],
        "rewards surviving as well as winning: not the rating; "
        + (fit_words(fits["plackett-luce"]) if "plackett-luce" in fits else "no fit test"))]


def _bradley_terry_section(view: CellView) -> list[Section]:
    return [Section(
        f"Bradley-Terry ratings (winner beats each loser; Elo scale, mean 0){view.where}",
        ("bot", "rating", "std. error", "comparisons", "wins"),
        [(r["bot"], f"{r['elo']:+.0f}", f"{r['elo_se']:.0f}", int(r["comparisons"]), int(r["wins"]))
         for r in view.rows(view.report.bradley_terry)],
        None if len(view.rows(view.report.seats)) == 2 else "for comparison only: its errors are too small, each "
                                                             "win counted as P-1 pairs")]


def _lengths_section(view: CellView) -> list[Section]:
    return [Section(
        f"Game length (turns){view.where}", ("games", "count", "mean", "median", "5%", "95%"),
        [(r["games"], r["count"], f"{r['mean']:.1f}", f"{r['median']:.0f}", f"{r['p5']:.0f}",
          f"{r['p95']:.0f}") for r in view.rows(view.report.lengths) if r["measure"] == "turns"])]


def _effects_section(effects) -> Section:
    return Section(
        "Treatment effects on the bot's win rate (points; arms paired by seed)",
        ("cell", "treatment", "games", "effect", "95% CI", "unpaired CI", "corr.", "sig."),
        [(r["cell"], f"{r['bot']} {r['treatment']} vs {r['control']}", r["games"],
          f"{100 * r['effect']:+.1f}", f"{100 * r['ci_low']:+.1f}..{100 * r['ci_high']:+.1f}",
          f"{100 * r['unpaired_ci_low']:+.1f}..{100 * r['unpaired_ci_high']:+.1f}",
          "-" if np.isnan(r["correlation"]) else f"{r['correlation']:+.2f}",
          "yes" if r["significant"] else "no") for r in effects.to_dict("records")],
        "common random numbers: both arms play the same seeds, so games are paired; 95% CI: the paired "
        f"interval ({PAIRED_METHOD}), which excludes 0 exactly when McNemar's exact test rejects; "
        "unpaired CI: Newcombe's, as if the arms had played different games; corr.: of the two arms' "
        "wins over the games: the paired interval is the narrower where it is positive, about as wide "
        "near 0 and wider where it is negative; sig.: McNemar's exact test, Holm-corrected over the "
        "treatments")


def _bots_figure(view: CellView) -> dict:
    from riskstats.stats import plots

    seats, bots = view.frame(view.report.seats), view.frame(view.report.bots)
    return {f"win_rate_by_bot{view.suffix}": plots.win_rates(
        bots, baseline=1 / len(seats), fixed=bots["every_seat"].to_numpy(bool),
        title=view.titled("Win rate by bot")).figure}


def _seats_figure(view: CellView) -> dict:
    from riskstats.stats import plots

    seats = view.frame(view.report.seats)
    return {f"win_rate_by_seat{view.suffix}": plots.win_rates(
        seats, baseline=float(seats["share"].iloc[0]) if "share" in seats else None,
        title=view.titled("Win rate by seat (seat 0 moves first)")).figure}


def _ratings_figure(view: CellView) -> dict:
    from riskstats.stats import plots

    report = view.report
    if report.ratings is None or not len(view.frame(report.ratings)):
        return {}
    fit = None if report.rating_fit is None else view.frame(report.rating_fit)
    return {f"ratings{view.suffix}": plots.ratings(view.frame(report.ratings), title=view.titled(
        "Luce ratings (who wins; Elo scale, mean 0)" + _fit_note(fit, "luce"))).figure}


def _survival_figure(view: CellView) -> dict:
    from riskstats.stats import plots

    report = view.report
    if report.survival is None:
        return {}
    fit = None if report.rating_fit is None else view.frame(report.rating_fit)
    return {f"survival_ratings{view.suffix}": plots.ratings(view.frame(report.survival), title=view.titled(
        "Plackett-Luce survival measure (finishing order; Elo scale, mean 0)" + _fit_note(fit, "plackett"))).figure}


def _turns_figure(view: CellView) -> dict:
    from riskstats.stats import plots

    return {f"game_lengths{view.suffix}": plots.game_length_histogram(view.frame(view.report.turns),
                                                                       title=view.titled("Game length")).figure}


STATISTICS = (
    Statistic("bots", "win_rate_by_bot", _bots, _bots_section, _bots_figure),
    Statistic("seats", "win_rate_by_seat", _seats, _seats_section, _seats_figure),
    Statistic("bot_seats", "win_rate_by_bot_seat", lambda cell: win_rates(cell.table, ["bot", "seat"]),
              _bot_seats_section),
    Statistic("ratings", "ratings", lambda cell: cell.luce[0], _ratings_section, _ratings_figure),
    Statistic("differences", "rating_differences", lambda cell: cell.luce[1]),
    Statistic("rating_fit", "rating_fit", _rating_fit),
    Statistic("survival", "survival_ratings", lambda cell: cell.plackett[0], _survival_section, _survival_figure),
    Statistic("survival_differences", "survival_differences", lambda cell: cell.plackett[1]),
    Statistic("bradley_terry", "bradley_terry", lambda cell: cell.bradley_terry, _bradley_terry_section),
    Statistic("pairwise", "pairwise", lambda cell: pairwise_table(cell.pairs, cell.bradley_terry)),
    Statistic("lengths", "game_lengths", lambda cell: game_lengths(cell.table), _lengths_section),
    Statistic("turns", None, lambda cell: cell.table[["turns", "truncated"]].reset_index(drop=True),
              figure=_turns_figure),
)
"""The report's statistics, in the order of its tables, printed sections and figures: adding one is adding an
entry here (its compute, section and figure beside it)."""


def report(table, *, boot: int = BOOT, seed: int = 0) -> Report:
    """Win rates per bot, seat and bot x seat, ratings, head-to-head shares and game lengths.

    Parameters
    ----------
    table : pandas.DataFrame
        A self-play table (`riskstats.runs.selfplay.play_games`, `riskstats.runs.results.read_results`),
        or an experiment's (`riskstats.runs.experiment.read_experiment`), reported cell by cell.
    boot, seed : int
        Bootstrap resamples and seed of the ratings' intervals and fit tests (`riskstats.stats.ratings`).

    Returns
    -------
    Report
        ``bots`` (with ``every_seat``: the bot sat in every seat of every game, so it wins every decided
        game by construction and its interval says nothing), ``seats`` (with the fair share, p_value,
        p_holm and significant: the seat against 1/P, over decided games), ``bot_seats``: win rates with
        95% Wilson intervals and counts (trials are decided games; ``truncated`` counts the others);
        ``ratings``: the Luce model of who wins,
        with bootstrap intervals and ranks that are ties unless the intervals of the differences separate
        them; ``differences``: every pair's rating difference; ``rating_fit``: the goodness-of-fit test of
        the Luce model (first row) and of Plackett-Luce (second); ``survival``,
        ``survival_differences``: Plackett-Luce over finishing orders, a survival measure;
        ``bradley_terry`` and ``pairwise``: the winner-beats-each-loser model and head-to-head shares, for
        comparison; ``lengths``, ``turns``:
        game lengths; ``truncated``: games stopped at the turn or move cap (all cells together); ``cells``;
        ``effects``: for an experiment that sweeps a bot's parameters (``params.<bot>``), each treatment
        arm's effect on that bot's win rate against the first arm, paired by seed
        (`riskstats.stats.compare.treatment_effects`).
    """
    from riskstats.errors import RiskstatsError

    if len(table) == 0:
        raise RiskstatsError("no games to report on")
    cells, parts = _cells(table)
    tables = {}
    for cell, games in parts:
        computed = Cell(games, boot, seed)
        one = {s.field: frame for s in STATISTICS if (frame := s.compute(computed)) is not None}
        if cell is not None:
            label = cells[cells["cell"] == cell].iloc[0].drop("games").to_dict()
            one = {name: pd.concat([pd.DataFrame([label] * len(frame)), frame.reset_index(drop=True)], axis=1)
                   for name, frame in one.items()}
        for name, frame in one.items():
            tables.setdefault(name, []).append(frame)
    tables = {name: pd.concat(frames, ignore_index=True) for name, frames in tables.items()}
    effects = None
    if cells is not None:
        swept = [c for c in cells.columns if c.startswith("params.") and cells[c].astype(str).nunique() > 1]
        effects = pd.concat([treatment_effects(table, c[len("params."):], c) for c in swept],
                            ignore_index=True) if swept else None
    truncated = int(table["truncated"].astype(bool).sum())
    low, high = wilson_interval(truncated, len(table))
    return Report(games=len(table), frames=tables, cells=cells, effects=effects, boot=boot,
                  truncated={"games": truncated, "share": truncated / len(table), "ci_low": low, "ci_high": high})


def write_report(report: Report, folder) -> list:
    """Write a `Report`'s tables (CSV) and plots (PNG) into ``folder``; return the paths."""
    from riskstats.runs.results import write_files

    written = write_files(folder, report.tables(), {})
    for cell, _ in cell_titles(report.cells):  # one cell's figures at a time: each is closed once saved
        written += write_files(folder, {}, report.figures([cell]))
    return written


def load_games(path):
    """The games table of a run directory or file, or of an experiment directory (all its cells)."""
    from pathlib import Path

    from riskstats.runs.experiment import MANIFEST, read_experiment
    from riskstats.runs.results import read_results

    if (Path(path) / MANIFEST).exists():
        return read_experiment(path)
    return read_results(path)


def summary(table) -> dict:
    """Win rates per bot and per seat (each with a 95% Wilson interval) and game lengths: the JSON form
    of `riskstats.stats.report.win_rates`, bots in the order they first sit.

    Trials are decided games (`win_rates`): per bot, ``games`` counts the games it played, ``decided``
    those with a winner (its trials: ``win_rate`` is wins / decided, one per game whatever its seats),
    ``truncated`` the others and ``seats`` the seats it held; per seat, ``games`` counts the decided
    games and ``truncated`` the others.
    """
    def rates(by):
        return {r[by]: {"games": int(r["trials"]), "wins": int(r["wins"]), "win_rate": float(r["win_rate"]),
                        "ci95": (float(r["ci_low"]), float(r["ci_high"])), "truncated": int(r["truncated"])}
                for r in win_rates(table, by).to_dict("records")}

    by_bot = rates("bot")
    order = pd.unique(table["bots"].str.split(",", expand=True).to_numpy().ravel())
    order = [name for name in order if name is not None]
    seats = pd.Series([b for row in table["bots"].str.split(",") for b in row]).value_counts()
    return {"games": len(table),
            "bots": {name: {**by_bot[name], "games": by_bot[name]["games"] + by_bot[name]["truncated"],
                            "decided": by_bot[name]["games"], "seats": int(seats[name])} for name in order},
            "seats": {int(s): row for s, row in rates("seat").items()},
            "mean_turns": float(table["turns"].mean()), "mean_rounds": float(table["rounds"].mean()),
            "truncated": int(table["truncated"].sum())}


SUMMARY_COLUMNS = ("bots", "winner", "turns", "rounds", "truncated", "win_reason")
"""The columns `SummaryTally` reads of a results table."""


class SummaryTally:
    """`summary` counted piece by piece: add a run's tables in game order (`add`), then `result` is
    ``summary`` of them all together, and `reasons` their ``win_reason`` counts, without holding more
    than one piece (what ``riskstats selfplay --out`` prints for a run of any size).

    >>> import pandas as pd
    >>> games = pd.DataFrame({"bots": ["a,b", "b,a", "a,b"], "winner": [0, 1, -1], "turns": [10, 12, 1000],
    ...                       "rounds": [5, 6, 500], "truncated": [False, False, True],
    ...                       "win_reason": ["opponent_eliminated", "opponent_eliminated", "turn_cap"]})
    >>> tally = SummaryTally().add(games.iloc[:2]).add(games.iloc[2:])
    >>> tally.result() == summary(games), tally.reasons()
    (True, {'opponent_eliminated': 2, 'turn_cap': 1})
    """

    def __init__(self):
        self.games = 0
        self.counts: dict[str, dict] = {"bot": {}, "seat": {}}  # value -> [trials, wins, truncated]
        self.seats: dict[str, int] = {}  # bot -> seats held, in order of first appearance
        self.turns = self.rounds = self.truncated = 0
        self.win_reasons: dict[str, int] = {}

    def add(self, table) -> SummaryTally:
        """Count one piece of the run (the next games, in order): `win_rates`' counts add up over pieces."""
        if not len(table):
            return self
        self.games += len(table)
        for name in (b for row in table["bots"].str.split(",") for b in row):
            self.seats[name] = self.seats.get(name, 0) + 1
        for by, counts in self.counts.items():
            for r in win_rates(table, by).to_dict("records"):
                was = counts.setdefault(int(r[by]) if by == "seat" else r[by], [0, 0, 0])
                was[0] += int(r["trials"])
                was[1] += int(r["wins"])
                was[2] += int(r["truncated"])
        self.turns += int(table["turns"].sum())
        self.rounds += int(table["rounds"].sum())
        self.truncated += int(table["truncated"].sum())
        for reason, n in table["win_reason"].value_counts().items():
            self.win_reasons[reason] = self.win_reasons.get(reason, 0) + int(n)
        return self

    @staticmethod
    def _rate(trials: int, wins: int, truncated: int) -> dict:
        low, high = wilson_interval(wins, trials) if trials > 0 else (np.nan, np.nan)
        return {"games": trials, "wins": wins, "win_rate": float(wins / trials) if trials > 0 else float("nan"),
                "ci95": (float(low), float(high)), "truncated": truncated}

    def result(self) -> dict:
        """What `summary` returns for all the games added."""
        if not self.games:
            raise ValueError("no games were added")
        bots = {}
        for name, seats in self.seats.items():
            rate = self._rate(*self.counts["bot"][name])
            bots[name] = {**rate, "games": rate["games"] + rate["truncated"], "decided": rate["games"], "seats": seats}
        return {"games": self.games, "bots": bots,
                "seats": {s: self._rate(*self.counts["seat"][s]) for s in sorted(self.counts["seat"])},
                "mean_turns": self.turns / self.games, "mean_rounds": self.rounds / self.games,
                "truncated": self.truncated}

    def reasons(self) -> dict:
        """Games per ``win_reason``, most frequent first."""
        return dict(sorted(self.win_reasons.items(), key=lambda item: -item[1]))


def cell_win_rates(table):
    """One row per cell and bot (the table of `read_experiment`): the cell's players, variant and swept
    ``rules.*``/``params.*`` values, then the bot, the seats it holds in a game (`seats_held`), its decided
    games (``trials``), wins, win rate, 95% Wilson interval (`riskstats.stats.report.win_rates`: trials are
    decided games), truncated and the cell's mean turns."""
    rows = []
    for cell, games in table.groupby("cell", sort=True):
        swept = {k: games[k].iloc[0] for k in games.columns if k.startswith(("rules.", "params."))}
        held = seats_held(games)
        for r in win_rates(games, "bot").to_dict("records"):
            rows.append({"cell": cell, "players": int(games["players"].iloc[0]), "variant": games["variant"].iloc[0],
                         **swept, "bot": r["bot"], "seats": held[r["bot"]], "trials": r["trials"], "wins": r["wins"],
                         "win_rate": r["win_rate"], "ci_low": r["ci_low"], "ci_high": r["ci_high"],
                         "truncated": r["truncated"], "mean_turns": float(games["turns"].mean())})
    return pd.DataFrame(rows)
