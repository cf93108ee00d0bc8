"""What a continent is worth: its geography, the exact cost of taking it, and self-play evidence.

The geography and the cost come from the board and the exact chain engine (`riskstats.odds.chain`); the
evidence from replayed self-play games (`riskstats.analysis.trajectories`). Each function answers one
question and returns a DataFrame; ``notebooks/02_continent_value.ipynb`` only calls them.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from riskstats.errors import RiskstatsError
from riskstats.game.rules.board import Board, classic_board
from riskstats.intervals import wilson_interval
from riskstats.odds.chain import attackers_needed, chain_odds


def continent_facts(board: Board | None = None) -> pd.DataFrame:
    """Per continent: bonus, territories, border territories, entry points and the bonus per each.

    ``borders`` are the continent's territories with a neighbour outside it (the ones to defend);
    ``entries`` the territories outside it that border it (where attacks come from).
    """
    board = board or classic_board()
    adjacency = board.arrays.adjacency
    rows = []
    for k, name in enumerate(board.continents):
        inside = board.arrays.continent_of == k
        outside_links = adjacency[inside][:, ~inside]
        borders = int(outside_links.any(axis=1).sum())
        entries = int(adjacency[~inside][:, inside].any(axis=1).sum())
        bonus = int(board.arrays.continent_bonus[k])
        rows.append((name, bonus, int(inside.sum()), borders, entries, bonus / inside.sum(), bonus / borders))
    return pd.DataFrame(rows, columns=["continent", "bonus", "territories", "borders", "entries",
                                       "bonus_per_territory", "bonus_per_border"])


def conquest_path(board: Board, continent: str) -> list[int]:
    """An order to conquer a continent one adjacent territory after another, starting at a border.

    A path through every territory (depth-first search with backtracking; continents are small); if
    none exists, the longest found is completed by the remaining territories in breadth-first order.
    """
    if continent not in board.continents:
        raise RiskstatsError(f"unknown continent {continent!r}; the board has {', '.join(board.continents)}")
    members = board.continent_territories(board.continents.index(continent)).tolist()
    inside = set(members)
    adjacency = board.arrays.adjacency
    outside = ~np.isin(np.arange(board.n_territories), members)
    starts = sorted(members, key=lambda t: -int(adjacency[t][outside].sum()))  # the most exposed first
    best: list[int] = []

    def extend(path: list[int]) -> bool:
        nonlocal best
        if len(path) > len(best):
            best = list(path)
        if len(path) == len(members):
            return True
        return any(extend([*path, t]) for t in board.neighbours(path[-1]) if t in inside and t not in path)

    for start in starts:
        if extend([start]):
            return best
    return best + [t for t in members if t not in best]


def continent_cost(board: Board | None = None, defenders: int = 3, p: float = 0.8,
                   leave: int = 1) -> pd.DataFrame:
    """The exact cost of taking each continent from outside, ``defenders`` armies on every territory.

    One force attacks the continent's territories along `conquest_path`, leaving ``leave`` armies in
    each. Columns: ``continent``, ``bonus``, ``territories``, ``attackers_needed`` (for P(all) >= p),
    ``p_all`` (what that force gets), ``expected_losses`` (armies that force loses on average) and
    ``payback_turns`` (expected losses over the bonus: turns of holding it to earn them back).
    """
    board = board or classic_board()
    rows = []
    for k, name in enumerate(board.continents):
        path = conquest_path(board, name)
        chain = [defenders] * len(path)
        needed = attackers_needed(chain, p, leave=leave)
        losses = chain_odds(needed.attackers, chain, leave=leave).expected_attacker_losses
        bonus = int(board.arrays.continent_bonus[k])
        rows.append((name, bonus, len(path), needed.attackers, needed.p_win, losses, losses / bonus))
    return pd.DataFrame(rows, columns=["continent", "bonus", "territories", "attackers_needed", "p_all",
                                       "expected_losses", "payback_turns"])


def _final(games: pd.DataFrame) -> pd.Series:
    return games.set_index("game").winner


def opening_positions(games: int, players: int = 4, bots="continent,aggressive,defensive,aggressive",
                      seed: int = 0, rules=None, board: Board | None = None) -> pd.DataFrame:
    """The board when setup ends (every starting army placed, before the first turn) in seeded self-play.

    The games are those of `riskstats.runs.selfplay.play_games` with the same arguments: the same seeds
    and the same seat rotation, the bots claiming and placing as in play. One row per game and territory:
    ``game``, ``territory`` (index), ``continent``, ``owner`` (seat) and ``armies``.
    """
    from riskstats.game.bots.catalog import check_lineup, seat_entries
    from riskstats.game.play import Game
    from riskstats.runs.selfplay import game_seeds

    board = board or classic_board()
    lineup = seat_entries(check_lineup(bots), players)
    frames = []
    for g, word in enumerate(game_seeds(seed, games)):
        game = Game(players, rules, board=board, seed=int(word))
        while game.phase in ("claim", "setup_place"):
            game.step(game.bot_move(lineup[(game.player + g) % players]))
        frame = game.territories()
        frames.append(pd.DataFrame({"game": g, "territory": np.arange(board.n_territories),
                                    "continent": frame.continent, "owner": frame.owner, "armies": frame.armies}))
    return pd.concat(frames, ignore_index=True)


def opening_cost(positions: pd.DataFrame, p: float = 0.8, leave: int = 1, board: Board | None = None,
                 rules=None, resamples: int = 2000, seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The exact cost of taking each continent from real opening positions (`opening_positions`).

    For every game, seat and continent, the seat's force attacks the continent's territories that others
    hold, in `conquest_path` order, against the armies really on them; the force is the smallest with
    P(taking them all) >= ``p`` (`riskstats.odds.chain.attackers_needed`), and its expected losses come
    from `riskstats.odds.chain.chain_odds`. A seat that already holds the continent costs nothing.

    The seats of one game share its board, so their views are not independent: the intervals resample
    whole games (a cluster bootstrap: ``resamples`` draws of the games with replacement, seeded by
    ``seed``; 95% percentile intervals). A force is flagged where it exceeds the armies a seat starts with
    (``rules``' starting armies for the positions' players; default `riskstats.game.rules.options.default_rules`):
    no seat can field it from its setup armies alone.

    Returns
    -------
    (summary, views) : pandas.DataFrame, pandas.DataFrame
        ``views``: one row per game, seat and continent (``enemy_territories``, ``defenders`` on them,
        ``attackers_needed``, ``expected_losses``, ``exceeds_start``). ``summary``: per continent, in the
        board's order, ``bonus``, ``views`` (game-seats), ``boards`` (games), mean ``enemy_territories``,
        ``defenders_per_territory`` (mean armies on an enemy territory), mean ``attackers_needed`` with
        its interval (``attackers_low``, ``attackers_high``), ``start_armies``, ``exceeds_start`` (the
        mean force is more than a seat's starting armies), ``share_exceeding`` (views whose force is),
        mean ``expected_losses`` with its interval (``ci_low``, ``ci_high``), and ``payback_turns`` (mean
        expected losses over the bonus, with ``payback_low``/``payback_high``).
    """
    from functools import cache

    from riskstats.game.rules.options import default_rules

    board = board or classic_board()
    if not isinstance(resamples, (int, np.integer)) or resamples < 100:
        raise RiskstatsError(f"resamples must be a whole number >= 100, got {resamples!r}")
    players = int(positions.owner.max()) + 1
    start = (rules or default_rules(players)).starting_armies(players, board)

    @cache
    def cost(defenders: tuple) -> tuple[int, float]:
        if not defenders:
            return 0, 0.0
        needed = attackers_needed(list(defenders), p, leave=leave)
        return needed.attackers, float(chain_odds(needed.attackers, list(defenders), leave=leave)
                                       .expected_attacker_losses)

    paths = {name: conquest_path(board, name) for name in board.continents}
    rows = []
    for g, game in positions.groupby("game", sort=True):
        owner = game.owner.to_numpy()
        armies = game.armies.to_numpy()
        for seat in range(players):
            for name, path in paths.items():
                defenders = tuple(int(armies[t]) for t in path if owner[t] != seat)
                needed, losses = cost(defenders)
                rows.append((g, seat, name, len(defenders), sum(defenders), needed, losses))
    views = pd.DataFrame(rows, columns=["game", "seat", "continent", "enemy_territories", "defenders",
                                        "attackers_needed", "expected_losses"])
    views["exceeds_start"] = views.attackers_needed > start
    games = views.game.unique()
    draws = np.random.default_rng(seed).integers(0, len(games), size=(resamples, len(games)))

    def interval(per_game: pd.Series) -> tuple[float, float]:
        """95% percentile interval of the mean over games resampled whole (each game's mean over its seats)."""
        means = per_game.reindex(games).to_numpy(float)[draws].mean(axis=1)
        low, high = np.quantile(means, [0.025, 0.975])
        return float(low), float(high)

    out = []
    for k, name in enumerate(board.continents):
        v = views[views.continent == name]
        bonus = int(board.arrays.continent_bonus[k])
        by_game = v.groupby("game")
        mean = v.expected_losses.mean()
        low, high = interval(by_game.expected_losses.mean())
        a_low, a_high = interval(by_game.attackers_needed.mean())
        enemy = v.enemy_territories.sum()
        out.append({"continent": name, "bonus": bonus, "views": len(v), "boards": int(v.game.nunique()),
                    "enemy_territories": v.enemy_territories.mean(),
                    "defenders_per_territory": v.defenders.sum() / enemy if enemy else np.nan,
                    "attackers_needed": v.attackers_needed.mean(), "attackers_low": a_low, "attackers_high": a_high,
                    "start_armies": start, "exceeds_start": bool(v.attackers_needed.mean() > start),
                    "share_exceeding": float(v.exceeds_start.mean()),
                    "expected_losses": mean, "ci_low": low, "ci_high": high, "payback_turns": mean / bonus,
                    "payback_low": low / bonus, "payback_high": high / bonus})
    return pd.DataFrame(out), views


def first_choices(games: int, players: int = 4, bots="continent,aggressive,defensive,aggressive",
                  bot: str = "continent", seed: int = 0, rules=None, board: Board | None = None) -> pd.DataFrame:
    """The continent a continent bot chooses as its first target, in seeded self-play games.

    The games are those of `riskstats.runs.selfplay.play_games` with the same arguments (seeds, seat
    rotation, the bots' setup), played move by move to the first reinforcement of each seat of ``bot`` (a
    ``continent`` bot or one tuned from it, as its label stands in ``bots``); there its target continent
    is read as the bot computes it (its own choice: ``first`` is not consulted). One row per game and such
    seat: ``game``, ``seat``, ``target`` (the continent's name; "none" for a seat knocked out before its
    first turn, or one that holds every continent).
    """
    from riskstats.game.bots.catalog import CATALOG, lineup_specs, seat_entries
    from riskstats.game.bots.continent import _target_continent
    from riskstats.game.play import Game
    from riskstats.runs.selfplay import game_seeds

    board = board or classic_board()
    specs = lineup_specs(bots)
    if bot not in [s.label for s in specs]:
        raise RiskstatsError(f"bot {bot!r} does not play in {bots!r}")
    spec = next(s for s in specs if s.label == bot)
    if (CATALOG[spec.name].base or spec.name) != "continent":
        raise RiskstatsError(f"first_choices reads a continent bot's target; {bot!r} is not one")
    weight = spec.values[[q.name for q in CATALOG["continent"].params].index("entrance_weight")]
    labels = [spec.label for spec in seat_entries(specs, players)]
    rows = []
    for g, word in enumerate(game_seeds(seed, games)):
        game = Game(players, rules, board=board, seed=int(word))
        seats = {s for s in range(players) if labels[(s + g) % players] == bot}
        left = set(seats)
        while left and not game.over:
            if game.phase == "reinforce" and game.player in left:
                k = _target_continent(game.state, game.context.B, game.context.R, game.player, weight, -1.0)
                rows.append((g, game.player, board.continents[k] if k >= 0 else "none"))
                left.discard(game.player)
                if not left:
                    break
            game.step(game.bot_move(labels[(game.player + g) % players]))
        rows += [(g, s, "none") for s in sorted(left)]
    return pd.DataFrame(rows, columns=["game", "seat", "target"]).sort_values(["game", "seat"], ignore_index=True)


def choice_shares(choices: pd.DataFrame, board: Board | None = None) -> pd.DataFrame:
    """How often each continent is the first target in `first_choices`' table: per continent (the board's
    order, then "none" if it occurs) ``seats``, ``chosen``, ``share`` with its 95% Wilson interval
    (``ci_low``, ``ci_high``). Each game adds one trial per seat of the bot (one seat in the experiment's
    line-ups, so the trials are independent games)."""
    board = board or classic_board()
    n = len(choices)
    if n == 0:
        raise RiskstatsError("no first choices to count")
    names = list(board.continents) + (["none"] if (choices.target == "none").any() else [])
    rows = []
    for name in names:
        k = int((choices.target == name).sum())
        low, high = wilson_interval(k, n)
        rows.append({"target": name, "seats": n, "chosen": k, "share": k / n, "ci_low": low, "ci_high": high})
    return pd.DataFrame(rows)


FORCED = "forced"
"""How `forced_arm` names the forced seat's bot (its wins and its entries in ``bots``)."""


def _arm_targets(table: pd.DataFrame, bot: str, board: Board) -> tuple[dict, dict]:
    """Each cell's first target ("own choice" or a continent) and the label of its forced seat's bot."""
    from riskstats.game.bots.catalog import parse_bot

    def name(k: float) -> str:
        k = int(k)
        return board.continents[k] if 0 <= k < len(board.continents) else "own choice"

    column = f"params.{bot}"
    first = table.groupby("cell", sort=True).first()
    targets, labels = {}, {}
    for cell, row in first.iterrows():
        if column in first.columns:  # "first=Australia" (read_experiment's names), or an old "[0.5, 0.75, 2.0, 5]"
            text = str(row[column])
            if "[" in text:
                targets[cell] = name(float(text.strip("[]").split(",")[3]))
            else:
                value = text.partition("first=")[2].split(":")[0]
                targets[cell] = value if value in board.continents else "own choice"
            labels[cell] = bot
        else:  # the line-up's first entry carries the treatment: "value:first=Australia,value,value,value"
            label = str(row["lineup"]).split(",")[0].strip()
            spec = parse_bot(label)
            if spec.name != bot and not spec.name.startswith(bot):
                raise RiskstatsError(f"the first entry of cell {cell}'s line-up is {label!r}, not a {bot!r} bot")
            keys = [q.name for q in _bot_params(spec.name)]
            if "first" not in keys:
                raise RiskstatsError(f"bot {spec.name!r} has no first target to force")
            targets[cell] = name(spec.values[keys.index("first")])
            labels[cell] = spec.label
    return targets, labels


def _bot_params(name: str):
    from riskstats.game.bots.catalog import CATALOG

    return CATALOG[name].params


def forced_arm(table: pd.DataFrame, cell: str, label: str) -> pd.DataFrame:
    """One arm's games with its forced seat's bot ``label`` renamed `FORCED` (in ``winner_bot`` and in each
    game's ``bots``), so that arms whose forced seats are written differently pair game by game
    (`riskstats.stats.compare.treatment_effect` with bot `FORCED`)."""
    arm = table[table["cell"] == cell]
    if arm.empty:
        raise RiskstatsError(f"no games in cell {cell!r}")

    def rename(bots: str) -> str:
        return ",".join(FORCED if b == label else b for b in bots.split(","))

    return arm.assign(winner_bot=np.where(arm.winner_bot == label, FORCED, arm.winner_bot),
                      bots=arm.bots.map(rename))


def first_target_arms(table: pd.DataFrame, bot: str = "continent", board: Board | None = None
                      ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The arms of a first-target experiment (``scripts/experiments/continent_first_*.toml``) by continent.

    ``table`` is `riskstats.runs.experiment.read_experiment`'s, in one of two forms: cells that differ only
    in the bot's ``first`` parameter (column ``params.<bot>``: ``first=Australia``; -1, the bot's own
    choice, is the control), or, where the same bot sits in every seat, cells that differ in the line-up's
    first entry, that bot with its ``first`` set (``value:first=Australia,value,...``; ``first=-1`` the
    control): that seat is the forced one. The control arm is the own-choice cell.

    Returns
    -------
    (arms, effects) : pandas.DataFrame, pandas.DataFrame
        ``arms``: per arm, ``target`` ("own choice" or the continent), ``cell``, ``bot`` (the forced seat's
        label), ``games``, ``wins`` (games the forced seat won), win_rate, ci_low, ci_high (95% Wilson) and
        ``mean_turns``. ``effects``: each forced target against the own choice, paired by seed
        (`riskstats.stats.compare.treatment_effect`: effect, its interval, McNemar's p), with ``target``,
        ``control_cell``, ``cell``, and p_holm (Holm over the arms) and ``significant``.
    """
    from statsmodels.stats.multitest import multipletests

    from riskstats.stats.compare import treatment_effect

    board = board or classic_board()
    if "cell" not in table.columns:
        raise RiskstatsError("need an experiment table (read_experiment) with a cell column")
    if f"params.{bot}" not in table.columns and ("lineup" not in table.columns or table.lineup.nunique() < 2):
        raise RiskstatsError(f"the table sweeps no parameters of {bot!r} (params.{bot} missing) and no line-ups")
    targets, labels = _arm_targets(table, bot, board)
    controls = [c for c, t in targets.items() if t == "own choice"]
    if len(controls) != 1:
        raise RiskstatsError(f"need exactly one own-choice (first=-1) arm, found {len(controls)}")
    rows = []
    for cell, games in table.groupby("cell", sort=True):
        wins = int((games.winner_bot == labels[cell]).sum())
        low, high = wilson_interval(wins, len(games))
        rows.append({"target": targets[cell], "cell": cell, "bot": labels[cell], "games": len(games), "wins": wins,
                     "win_rate": wins / len(games), "ci_low": low, "ci_high": high,
                     "mean_turns": float(games.turns.mean())})
    arms = pd.DataFrame(rows)
    arms = pd.concat([arms[arms.target == "own choice"], arms[arms.target != "own choice"]], ignore_index=True)
    control = forced_arm(table, controls[0], labels[controls[0]])
    effects = []
    for cell in arms.cell[1:]:
        effect = treatment_effect(forced_arm(table, cell, labels[cell]), control, FORCED).iloc[0].to_dict()
        effects.append({"target": targets[cell], "control_cell": controls[0], "cell": cell,
                        **{k: v for k, v in effect.items() if k != "bot"}})
    effects = pd.DataFrame(effects)
    effects["p_holm"] = multipletests(effects.p_value.to_numpy(), method="holm")[1]
    effects["significant"] = effects.p_holm < 0.05
    return arms, effects


def target_versus(table: pd.DataFrame, first: str, second: str, bot: str = "continent",
                  board: Board | None = None) -> pd.DataFrame:
    """Two forced arms of a first-target experiment against each other (``first`` treated, ``second`` the
    control), paired game by game: `riskstats.stats.compare.treatment_effect`'s row, with both targets."""
    from riskstats.stats.compare import treatment_effect

    board = board or classic_board()
    targets, labels = _arm_targets(table, bot, board)
    cells = {t: c for c, t in targets.items()}
    for name in (first, second):
        if name not in cells:
            raise RiskstatsError(f"no arm forces {name!r}; arms: {', '.join(cells)}")
    a, b = cells[first], cells[second]
    effect = treatment_effect(forced_arm(table, a, labels[a]), forced_arm(table, b, labels[b]), FORCED)
    return effect.drop(columns="bot").assign(first=first, second=second)


def rank_targets(table: pd.DataFrame, bot: str = "continent", board: Board | None = None,
                 level: float = 0.95) -> pd.DataFrame:
    """The arms of a first-target experiment ranked by paired tests only: every pair of arms (the own choice
    among them) paired game by game (`riskstats.stats.compare.rank_paired`, Holm over the pairs).

    Returns
    -------
    pandas.DataFrame
        One row per arm, sorted by rank: ``target``, games, wins, win_rate, ``rank`` (1 + the arms credibly
        above it in the paired tests), ``higher`` and ``lower`` (those arms credibly above and below it).
    """
    from riskstats.stats.compare import rank_paired

    board = board or classic_board()
    targets, labels = _arm_targets(table, bot, board)
    order = sorted(targets, key=lambda c: (targets[c] != "own choice", c))
    arms = {targets[c]: forced_arm(table, c, labels[c]) for c in order}
    return rank_paired(arms, FORCED, level).rename(columns={"label": "target"})


ARM_FINDING = "claiming and going for {target} first beats the own choice"
"""The finding of one forced arm of the continent-first experiment (`robustness_rows`), by its target."""


def robustness_rows(effects: pd.DataFrame, versus: pd.DataFrame, cost: pd.DataFrame | None, population: str,
                    bots: str, notebook: str = "02") -> pd.DataFrame:
    """Notebook 02's findings in one population, as rows of the robustness table
    (`riskstats.stats.robustness.ROBUSTNESS_COLUMNS`, with a ``note``).

    ``effects`` and ``versus`` are `first_target_arms`' effects and `target_versus`' row (Australia against
    South America) of the population's experiment; ``cost`` `opening_cost`'s summary of its openings (or
    None). Each finding holds only where its 95% interval says so, and is reversed where the interval says
    the opposite:

    - "Australia first beats the own choice": Australia's effect, interval above 0 (reversed: below 0);
    - "every forced first target loses to the own choice": the best forced arm's effect (named in ``note``),
      interval below 0 (then every arm's is; reversed: above 0, a forced arm beats the own choice);
    - "Australia first beats South America first": the paired difference, interval above 0 (reversed: below);
    - "Australia is the cheapest continent to pay back": its payback turns, interval below every other
      continent's (n: boards; reversed: above some other continent's; no reference, so outside the adjusted
      family);
    - "claiming and going for X first beats the own choice", one per forced arm X (`ARM_FINDING`): every arm's
      effect, so that an answer can rest on all of them and not on the arm that came out best (issue #39).

    The effects' ``reference`` is 0, and ``p_value`` the paired test's own (McNemar's, `first_target_arms`).
    """
    from riskstats.stats.robustness import complete_rows

    E = effects.set_index("target")
    if "Australia" not in E.index:
        raise RiskstatsError("the effects have no Australia arm")
    aus = E.loc["Australia"]
    best = effects.loc[effects.effect.idxmax()]
    v = versus.iloc[0]
    rows = [
        ("Australia first beats the own choice", aus.games, aus.effect, aus.ci_low, aus.ci_high, aus.ci_low > 0,
         aus.ci_high < 0, 0.0, aus.p_value, ""),
        ("every forced first target loses to the own choice", best.games, best.effect, best.ci_low, best.ci_high,
         bool((effects.ci_high < 0).all()), best.ci_low > 0, 0.0, best.p_value,
         f"the best forced arm: {best.target}"),
        ("Australia first beats South America first", v.games, v.effect, v.ci_low, v.ci_high, v.ci_low > 0,
         v.ci_high < 0, 0.0, v.p_value, ""),
    ]
    if cost is not None:
        c = cost.set_index("continent")
        others = c.drop(index="Australia")
        rows.append(("Australia is the cheapest continent to pay back (turns of bonus)", c.loc["Australia", "boards"],
                     c.loc["Australia", "payback_turns"], c.loc["Australia", "payback_low"],
                     c.loc["Australia", "payback_high"],
                     bool(c.loc["Australia", "payback_high"] < others.payback_low.min()),
                     bool(c.loc["Australia", "payback_low"] > others.payback_high.min()), np.nan, np.nan,
                     "a ranking of the openings' costs, with no reference: outside the adjusted family"))
    rows += [(ARM_FINDING.format(target=r.target), r.games, r.effect, r.ci_low, r.ci_high, r.ci_low > 0, r.ci_high < 0,
              0.0, r.p_value, "") for r in effects.itertuples()]
    frame = pd.DataFrame(rows, columns=["finding", "n", "estimate", "ci_low", "ci_high", "holds", "reversed",
                                        "reference", "p_value", "note"])
    frame.insert(0, "notebook", notebook)
    frame.insert(2, "population", population)
    frame.insert(3, "bots", bots)
    frame["n"] = frame.n.astype(int)
    frame["holds"] = frame.holds.astype(bool)
    frame["reversed"] = frame.reversed.astype(bool)
    return complete_rows(frame)
