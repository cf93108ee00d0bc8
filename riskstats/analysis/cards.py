"""Card analyses: the exact chance of holding a valid set, checked by simulation.

A hand is described by how many cards of each symbol it holds (infantry, cavalry, artillery, wild).
A valid set is three of one symbol, one of each symbol, or any two cards plus a wild. Drawing n cards
from a full deck is a multivariate hypergeometric draw, so the chance of holding a set is an exact
rational sum over hand compositions. Self-play analyses of card escalation live beside this module:
what each round of a game does (`round_activity`, summarised over games
by `per_round` with intervals and the number of games behind every round), rule settings compared on
the same seeds (`compare_rules`, paired effects by `rule_effects`), and the value of the cards captured
by an elimination, measured by rollouts from the same positions with and without them (`capture_value`).
"""
from __future__ import annotations

from fractions import Fraction
from itertools import product
from math import comb

import numpy as np
import pandas as pd

from riskstats.errors import RiskstatsError, check_int

SYMBOLS = ("infantry", "cavalry", "artillery", "wild")


def has_set(infantry: int, cavalry: int, artillery: int, wild: int) -> bool:
    """Whether a hand with these symbol counts holds a valid set."""
    plain = (infantry, cavalry, artillery)
    if max(plain) >= 3 or min(plain) >= 1:
        return True
    return wild >= 1 and sum(plain) + wild >= 3


def _check_deck(deck) -> tuple[int, int, int, int]:
    counts = tuple(check_int(f"{name} cards", deck[name], 0) for name in SYMBOLS)
    if sum(counts) == 0:
        raise RiskstatsError("the deck has no cards")
    return counts


def p_valid_set(cards: int, deck) -> Fraction:
    """Exact P(a hand of ``cards`` cards drawn from ``deck`` holds a valid set).

    ``deck`` maps each of `SYMBOLS` to its number of cards (the classic deck: 14, 14, 14 and 2).

    Examples
    --------
    >>> classic = {"infantry": 14, "cavalry": 14, "artillery": 14, "wild": 2}
    >>> p_valid_set(5, classic)
    Fraction(1, 1)
    >>> p_valid_set(2, classic)
    Fraction(0, 1)
    """
    counts = _check_deck(deck)
    cards = check_int("cards", cards, 0, sum(counts))
    favourable = 0
    for hand in product(*(range(min(c, cards) + 1) for c in counts[:3])):
        wild = cards - sum(hand)
        if 0 <= wild <= counts[3] and has_set(*hand, wild):
            ways = comb(counts[3], wild)
            for held, available in zip(hand, counts[:3]):
                ways *= comb(available, held)
            favourable += ways
    return Fraction(favourable, comb(sum(counts), cards))


def board_deck(board=None) -> dict[str, int]:
    """How many cards of each of `SYMBOLS` a board's deck holds (the classic board by default)."""
    from riskstats.game.rules.board import SYMBOLS as CARD_SYMBOLS
    from riskstats.game.rules.board import classic_board

    symbols = (board or classic_board()).arrays.card_symbol.tolist()
    return {name: symbols.count(CARD_SYMBOLS.index(name)) for name in SYMBOLS}


def set_odds(deck, max_cards: int = 6) -> pd.DataFrame:
    """P(holding a valid set) for 0..max_cards cards, exact: columns ``cards``, ``p_set``, ``fraction``."""
    max_cards = check_int("max_cards", max_cards, 0, sum(_check_deck(deck)))
    fractions = [p_valid_set(n, deck) for n in range(max_cards + 1)]
    return pd.DataFrame({"cards": range(max_cards + 1), "p_set": [float(f) for f in fractions],
                         "fraction": fractions})


def simulate_set_odds(deck, max_cards: int = 6, trials: int = 100_000, seed: int = 0) -> pd.DataFrame:
    """Monte Carlo estimate of `set_odds`: shuffle the deck ``trials`` times and read the first n cards.

    Columns ``cards``, ``p_set`` and ``se`` (its standard error).
    """
    counts = _check_deck(deck)
    trials = check_int("trials", trials, 1)
    deck_symbols = np.repeat(np.arange(4), counts)
    rng = np.random.default_rng(seed)
    hands = rng.permuted(np.broadcast_to(deck_symbols, (trials, deck_symbols.size)), axis=1)[:, :max_cards]
    rows = []
    for n in range(max_cards + 1):
        held = np.stack([(hands[:, :n] == s).sum(axis=1) for s in range(4)], axis=1)
        plain = held[:, :3]
        ok = (plain.max(axis=1) >= 3) | (plain.min(axis=1) >= 1) | ((held[:, 3] >= 1) & (n >= 3))
        p = ok.mean()
        rows.append((n, p, np.sqrt(p * (1 - p) / trials)))
    return pd.DataFrame(rows, columns=["cards", "p_set", "se"])


def _movers(turns: pd.DataFrame) -> pd.DataFrame:
    return turns[turns.to_move == turns.seat]


def set_values(events: pd.DataFrame, turns: pd.DataFrame) -> pd.DataFrame:
    """Every set traded: ``game``, ``turn``, ``round``, ``player``, ``phase`` (trade, or elim_trade after
    an elimination), ``value`` and ``bonus_armies`` (the +2 territory bonus, 0 or 2)."""
    rounds = _movers(turns).set_index(["game", "turn"])["round"]
    trades = events[events.move == "trade"]
    return pd.DataFrame({
        "game": trades.game, "turn": trades.turn,
        "round": rounds.reindex(pd.MultiIndex.from_arrays([trades.game, trades.turn])).to_numpy(),
        "player": trades.player, "phase": trades.phase, "value": trades.value,
        "bonus_armies": 2 * (trades.bonus_territory >= 0),
    }).reset_index(drop=True)


def turn_rounds(events: pd.DataFrame) -> pd.DataFrame:
    """Every turn of logged games with its mover and round: ``game``, ``turn``, ``player``, ``round``.

    ``events`` are event logs with a ``game`` column (`riskstats.runs.selfplay.play_games` with
    ``log=True``). Each turn opens with a reinforce row for its mover; as in the engine, a round begins
    when play passes to a seat numbered no higher than the last mover (the first round is 1).
    """
    opens = events[(events.move == "reinforce") & (events.turn > 0) & (events.phase != "elim_trade")]
    opens = opens.drop_duplicates(["game", "turn"])[["game", "turn", "player"]].sort_values(["game", "turn"])
    previous = opens.groupby("game").player.shift()
    wraps = (opens.player <= previous).astype(int)
    return opens.assign(round=1 + wraps.groupby(opens.game).cumsum()).reset_index(drop=True)


ACTIVITY = ("territories", "continents", "cards", "reinforcements", "armies_destroyed", "conquests",
            "eliminations", "armies_on_board")
"""The measures of `round_activity`, in armies except conquests and eliminations (counts)."""


def round_activity(events: pd.DataFrame) -> pd.DataFrame:
    """What each round of each logged game did: one row per ``game`` and ``round`` with ``players``
    (seats that took a turn in it) and the `ACTIVITY` measures.

    Reinforcements are split by source: ``territories`` (max(3, territories // 3) per turn),
    ``continents`` (bonuses) and ``cards`` (sets traded, at a turn's start or after an elimination, plus
    the +2 bonus on a traded card's territory); ``reinforcements`` is their sum. ``armies_destroyed``
    counts both sides' losses in every roll, ``conquests`` the territories taken, ``eliminations`` the
    seats knocked out, and ``armies_on_board`` the armies on the board when the round ends.

    Examples
    --------
    >>> from riskstats.runs.selfplay import play_games
    >>> _, events = play_games(2, 4, "aggressive", seed=1, log=True)
    >>> frame = round_activity(events)
    >>> bool((frame.reinforcements == frame.territories + frame.continents + frame.cards).all())
    True
    """
    rounds = turn_rounds(events)
    key = ["game", "turn"]
    events = events[events.turn > 0].merge(rounds[[*key, "round"]], on=key, how="inner")
    grants = events[events.move == "reinforce"]
    trades = events[events.move == "trade"]
    attacks = events[events.move == "attack"]
    by = ["game", "round"]
    frame = pd.concat({
        "players": rounds.groupby(by).player.nunique(),
        "territories": grants.groupby(by).from_territories.sum(),
        "continents": grants.groupby(by).from_continents.sum(),
        "cards": grants.groupby(by).from_cards.sum().add(
            (2 * (trades.bonus_territory >= 0)).groupby([trades.game, trades["round"]]).sum(), fill_value=0),
        "armies_destroyed": (attacks.attacker_loss + attacks.defender_loss).groupby(
            [attacks.game, attacks["round"]]).sum(),
        "conquests": attacks.groupby(by).conquered.sum(),
        "eliminations": (attacks.eliminated >= 0).groupby([attacks.game, attacks["round"]]).sum(),
        "armies_on_board": events.groupby(by).total_armies.last(),
    }, axis=1).fillna(0)
    frame = frame.astype({c: int for c in frame.columns})
    frame.insert(4, "reinforcements", frame.territories + frame.continents + frame.cards)
    return frame.reset_index()[["game", "round", "players", *ACTIVITY]]


def _interval(values: np.ndarray, level: float) -> tuple[float, float, float]:
    """Mean and its normal-approximation interval (infinite with fewer than two values)."""
    from scipy.stats import norm

    mean = float(values.mean())
    if len(values) < 2:
        return mean, -np.inf, np.inf
    half = norm.ppf((1 + level) / 2) * values.std(ddof=1) / np.sqrt(len(values))
    return mean, mean - half, mean + half


def per_round(activity: pd.DataFrame, measures=ACTIVITY, by: str | None = None, min_games: int = 30,
              level: float = 0.95) -> pd.DataFrame:
    """Mean of each measure by round over the games still running in it, with its interval and count.

    ``activity`` comes from `round_activity` (with a ``by`` column to keep groups apart, e.g. the
    escalation scheme). Rounds reached by fewer than ``min_games`` games of a group are left out: a mean
    over the few long games is neither precise nor typical. Long form: [by], ``round``, ``measure``,
    ``games``, ``mean``, ``ci_low``, ``ci_high`` (normal interval of the mean over games).
    """
    min_games = check_int("min_games", min_games, 1)
    missing = set(measures) - set(activity.columns)
    if missing:
        raise RiskstatsError(f"unknown measure {', '.join(sorted(missing))}; measures: {', '.join(ACTIVITY)}")
    keys = [by, "round"] if by else ["round"]
    rows = []
    for values, group in activity.groupby(keys, sort=True):
        values = values if isinstance(values, tuple) else (values,)
        if len(group) < min_games:
            continue
        for measure in measures:
            mean, low, high = _interval(group[measure].to_numpy(float), level)
            rows.append((*values, measure, len(group), mean, low, high))
    return pd.DataFrame(rows, columns=[*keys, "measure", "games", "mean", "ci_low", "ci_high"])


def game_activity(activity: pd.DataFrame) -> pd.DataFrame:
    """Per game of a `round_activity` table (and per ``arm``, when it has one): ``rounds_played``,
    ``reinforcements_per_round``, ``cards_per_round``, ``destroyed_per_round`` (means over its rounds),
    ``armies_destroyed`` (in the whole game), ``peak_armies`` (most armies on the board at a round's end)
    and ``eliminations``.

    The rounds a game lasts are its armies destroyed over those destroyed per round, so the two explain
    a difference in length: more armies to destroy, or fewer destroyed each round.
    """
    keys = ["arm", "game"] if "arm" in activity.columns else ["game"]
    grouped = activity.groupby(keys, sort=False)
    return pd.DataFrame({
        "rounds_played": grouped["round"].max(),
        "reinforcements_per_round": grouped.reinforcements.mean(),
        "cards_per_round": grouped.cards.mean(),
        "destroyed_per_round": grouped.armies_destroyed.mean(),
        "armies_destroyed": grouped.armies_destroyed.sum(),
        "peak_armies": grouped.armies_on_board.max(),
        "eliminations": grouped.eliminations.sum(),
    }).reset_index()


def group_means(frame: pd.DataFrame, measures, by: str = "arm", level: float = 0.95) -> pd.DataFrame:
    """Mean of each measure per value of ``by`` with its normal interval: long form ``by``, ``measure``,
    ``games`` (rows averaged), ``mean``, ``ci_low``, ``ci_high``; groups in order of appearance."""
    missing = {by, *measures} - set(frame.columns)
    if missing:
        raise RiskstatsError(f"no column {', '.join(sorted(missing))} to average")
    rows = []
    for value, group in frame.groupby(by, sort=False):
        for measure in measures:
            mean, low, high = _interval(group[measure].to_numpy(float), level)
            rows.append((value, measure, len(group), mean, low, high))
    return pd.DataFrame(rows, columns=[by, "measure", "games", "mean", "ci_low", "ci_high"])


def game_cards(events: pd.DataFrame) -> pd.DataFrame:
    """Per logged game: ``sets_traded``, ``top_set_value`` (the most a set was worth in it, 0 if none was
    traded) and ``cards_drawn``."""
    games = pd.Index(sorted(events.game.unique()), name="game")
    trades = events[events.move == "trade"]
    return pd.DataFrame({
        "sets_traded": trades.groupby("game").size().reindex(games, fill_value=0),
        "top_set_value": trades.groupby("game").value.max().reindex(games, fill_value=0),
        "cards_drawn": events[events.move == "draw"].groupby("game").size().reindex(games, fill_value=0),
    }).reset_index()


LOG_CHUNK = 250
"""Games played at a time by a logged rule comparison."""
GAME_MEASURES = ("turns", "rounds", "first_won")
"""The per-game measures every rule comparison reports."""
LOGGED_MEASURES = ("sets_traded", "top_set_value", "reinforcements_per_round", "cards_per_round",
                   "destroyed_per_round", "armies_destroyed", "peak_armies")
"""The per-game measures a logged rule comparison adds (`game_cards`, `game_activity`)."""
TIER_RUNS = {"search": "search", "search_model": "search:value=model"}
"""The runs of ``data/card_escalation`` (``scripts/make/card_escalation.py``) played by the ladder's top tiers
(`riskstats.stats.robustness.TOP_TIER`): the run's population name, its files' prefix -> the tier whose bot plays
every seat (the first seat written as the tier's spec, the treated seat of the timing experiment)."""


def compare_rules(games: int, players: int, bots, arms, seed: int = 0, *, log: bool = False,
                  params: dict | None = None) -> dict[str, pd.DataFrame]:
    """Play the same seeded games under each rule setting (an arm) and compare them.

    ``arms`` maps an arm's name to its `riskstats.game.rules.options.GameRules`; the first arm is the control of
    `rule_effects`. Every arm plays the same seeds, line-up and seat rotation (common random numbers).

    Returns DataFrames by name, each with an ``arm`` column: ``games`` (the games tables, stacked, with
    ``first_won``: the first seat won), ``lengths`` (`riskstats.analysis.tournaments.length_summary`),
    ``seats`` and ``bots`` (win rates with 95% Wilson intervals, `riskstats.stats.report.win_rates`),
    and, with two arms or more, ``effects`` (`rule_effects` on `GAME_MEASURES`). With ``log=True`` (games
    played one at a time, keeping their event logs) the games also get the `LOGGED_MEASURES` columns
    (whose effects are then included), and ``activity`` holds every arm's `round_activity`.
    """
    from riskstats.analysis.tournaments import length_summary
    from riskstats.runs.selfplay import play_games
    from riskstats.stats.report import win_rates

    arms = dict(arms)
    if not arms:
        raise RiskstatsError("give at least one arm (name -> GameRules)")
    tables, activities = {}, []
    for name, rules in arms.items():
        if not log:
            table = play_games(games, players, bots, seed=seed, rules=rules, params=params)
        else:  # logs in chunks, each boiled down to its measures at once (a game's log is some 2,000 rows)
            parts = []
            for first in range(0, games, LOG_CHUNK):
                table, events = play_games(min(LOG_CHUNK, games - first), players, bots, seed=seed, rules=rules,
                                           params=params, first=first, log=True)
                activity = round_activity(events).assign(arm=name)
                per_game = game_activity(activity).drop(columns="arm")
                parts.append(table.merge(game_cards(events), on="game", how="left").merge(per_game, on="game"))
                activities.append(activity)
            table = pd.concat(parts, ignore_index=True)
        tables[name] = table.assign(arm=name, first_won=(table.winner == 0).astype(int))
    stacked = {key: pd.concat([win_rates(t, key).assign(arm=name) for name, t in tables.items()],
                              ignore_index=True) for key in ("seat", "bot")}
    table = pd.concat(tables.values(), ignore_index=True)
    result = {"games": table, "lengths": length_summary(table, by="arm"), "seats": stacked["seat"],
              "bots": stacked["bot"]}
    if len(arms) > 1:
        result["effects"] = rule_effects(table, GAME_MEASURES + (LOGGED_MEASURES if log else ()))
    if log:
        result["activity"] = pd.concat(activities, ignore_index=True)
    return result


def rule_effects(games: pd.DataFrame, measures=("turns", "rounds", "first_won"), arm: str = "arm",
                 level: float = 0.95) -> pd.DataFrame:
    """Each arm's effect on per-game measures against the first arm, paired by seed.

    ``games`` holds the arms' games stacked (`compare_rules`), every arm with the same seeds. For each
    treatment arm and measure: ``games``, ``control_mean``, ``treated_mean``, ``effect`` (the mean
    per-game difference) and its normal interval ``ci_low``..``ci_high``.
    """
    names = list(dict.fromkeys(games[arm]))
    if len(names) < 2:
        raise RiskstatsError(f"need at least two arms in column {arm!r}")
    control = games[games[arm] == names[0]].set_index("seed").sort_index()
    rows = []
    for name in names[1:]:
        treated = games[games[arm] == name].set_index("seed").sort_index()
        if not treated.index.equals(control.index):
            raise RiskstatsError(f"arm {name!r} did not play the control's seeds")
        for measure in measures:
            d = treated[measure].to_numpy(float) - control[measure].to_numpy(float)
            effect, low, high = _interval(d, level)
            rows.append((name, measure, len(d), float(control[measure].mean()), float(treated[measure].mean()),
                         effect, low, high))
    return pd.DataFrame(rows, columns=[arm, "measure", "games", "control_mean", "treated_mean", "effect",
                                       "ci_low", "ci_high"])


def trade_timing(games: int, players: int, bots, treatments, seed: int = 0,
                 level: float = 0.95) -> dict[str, pd.DataFrame]:
    """A controlled experiment on when to trade cards: each treatment changes one bot's ``trade_at``.

    ``treatments`` maps an arm's name to ``(bot, trade_at)``: that bot (every seat it plays) trades a set
    once it holds ``trade_at`` cards (3: at once; with the default rules 5: only when forced). The
    control arm (``"control"``) plays the bots' defaults; every arm plays the same seeds, line-up and seat
    rotation, so each effect on the treated bot's win rate is paired game by game
    (`riskstats.stats.compare.treatment_effect`) and Holm-corrected over the treatments.

    Returns ``games`` (all arms stacked, with ``arm``), ``effects`` (one row per treatment: arm, bot,
    trade_at, then `treatment_effect`'s columns, p_holm, significant) and ``lengths`` (`rule_effects`
    on turns and rounds).
    """
    from riskstats.game.bots.catalog import parse_bot
    from riskstats.runs.selfplay import play_games

    treatments = dict(treatments)
    if not treatments:
        raise RiskstatsError("give at least one treatment (name -> (bot, trade_at))")
    for bot, trade_at in treatments.values():
        parse_bot(f"{bot}:trade_at={trade_at}")  # a bot that takes trade_at, and a valid value
    tables = [play_games(games, players, bots, seed=seed).assign(arm="control")]
    for name, (bot, trade_at) in treatments.items():
        treated = play_games(games, players, bots, seed=seed, params={bot: {"trade_at": trade_at}})
        tables.append(treated.assign(arm=name))
    stacked = pd.concat(tables, ignore_index=True)
    return {"games": stacked, "effects": timing_effects(stacked, treatments, level),
            "lengths": rule_effects(stacked, ["turns", "rounds"], level=level)}


def timing_effects(games: pd.DataFrame, treatments, level: float = 0.95) -> pd.DataFrame:
    """The effects of a trade-timing experiment's games (`trade_timing`'s ``games``, or the same tables
    read back from a file): for each treatment arm (``treatments``: name -> (bot, trade_at)), the change
    in that bot's win rate against the ``"control"`` arm, paired game by game
    (`riskstats.stats.compare.treatment_effect`), with ``p_holm`` (Holm over the treatments) and
    ``significant``."""
    from statsmodels.stats.multitest import multipletests

    from riskstats.stats.compare import treatment_effect

    treatments = dict(treatments)
    arms = set(games["arm"])
    missing = ({"control"} | set(treatments)) - arms
    if missing:
        raise RiskstatsError(f"no arm {', '.join(sorted(missing))} in the games")
    control = games[games["arm"] == "control"]
    rows = []
    for name, (bot, trade_at) in treatments.items():
        effect = treatment_effect(games[games["arm"] == name], control, bot, level).iloc[0].to_dict()
        rows.append({"arm": name, "trade_at": int(trade_at), **effect})
    effects = pd.DataFrame(rows)
    effects["p_holm"] = multipletests(effects.p_value, method="holm")[1]
    effects["significant"] = effects.p_holm < 1 - level
    return effects


def capture_positions(table: pd.DataFrame, rules=None, board=None, min_cards: int = 1,
                      params: dict | None = None) -> list[dict]:
    """Each game's first elimination that captured at least ``min_cards`` cards, as positions to roll out.

    The games of ``table`` (`riskstats.runs.selfplay.play_games`, played with ``rules``, ``board`` and
    ``params``) are replayed move by move up to that elimination. Each entry: ``game``, ``round``,
    ``eliminator``, ``eliminated``, ``cards`` (the captured cards' indices), ``hand`` (the eliminator's
    cards after the capture), ``bots`` (the game's seat bots), and two `riskstats.game.play.Game`
    positions right after the conquest that eliminated: ``with_cards`` as played, and ``without_cards``
    the same but for the captured cards, put on the discard pile instead (as if they had been traded
    before). Games with no such elimination give no entry.
    """
    import json

    from riskstats.analysis.trajectories import replay_game
    from riskstats.game.play import Game
    from riskstats.game.position import card_label
    from riskstats.game.rules.board import classic_board

    min_cards = check_int("min_cards", min_cards, 1)
    board = board or classic_board()
    found = []
    for row in table.itertuples():
        bots = row.bots.split(",")
        last = None  # the seats alive and the cards' owners before the move just played
        for game in replay_game(row, rules, board, params):
            before, last = last, (game.state.alive.copy(), game.state.card_owner.copy())
            if before is None or game.over:
                continue
            alive, owner = before
            out = np.flatnonzero((alive == 1) & (game.state.alive == 0))
            if len(out) == 0:
                continue
            taken = np.flatnonzero((owner == out[0]) & (game.state.card_owner != out[0]))
            if len(taken) < min_cards:
                continue
            winner = int(game.state.card_owner[taken[0]])
            position = json.loads(game.to_json())
            labels = [card_label(board, int(c)) for c in taken]
            position["hands"][winner] = [c for c in position["hands"][winner] if c not in labels]
            position["discard"] = position["discard"] + labels
            found.append({"game": row.game, "round": game.round, "eliminator": winner, "eliminated": int(out[0]),
                          "cards": taken.tolist(), "hand": int((game.state.card_owner == winner).sum()),
                          "bots": bots, "with_cards": Game.from_json(game.to_json()),
                          "without_cards": Game.from_json(position)})
            break
    return found


def capture_value(positions: list[dict], rollouts: int, seed: int = 0, params: dict | None = None,
                  level: float = 0.95) -> tuple[pd.DataFrame, pd.DataFrame]:
    """What the captured cards are worth to the eliminator: its win rate from the same positions with
    and without them (`capture_positions`), by rollouts to the end of the game.

    Both versions of a position are rolled out ``rollouts`` times with the same seeds (common random
    numbers: the same dice streams and draw-pile shuffles), with the game's own bots in their seats.

    Returns
    -------
    per_position : DataFrame
        ``game``, ``round``, ``cards_captured``, ``hand``, ``rollouts``, ``win_with``, ``win_without``
        (the eliminator's win rates) and ``effect`` (their difference).
    summary : DataFrame
        One row: ``positions``, ``rollouts`` (per position), ``win_with``, ``win_without``, ``effect``
        (mean over positions) and ``ci_low``, ``ci_high`` (normal interval over positions, each game
        contributing one position).
    """
    from riskstats.game.rollout import rollouts as roll

    rollouts = check_int("rollouts", rollouts, 1)
    if not positions:
        raise RiskstatsError("no positions to roll out")
    seeds = np.random.SeedSequence(seed).generate_state(len(positions), np.uint32)
    rows = []
    for entry, s in zip(positions, seeds):
        rates = [float((roll(entry[arm], rollouts, bots=entry["bots"], seed=int(s), params=params).winner
                        == entry["eliminator"]).mean()) for arm in ("with_cards", "without_cards")]
        rows.append((entry["game"], entry["round"], len(entry["cards"]), entry["hand"], rollouts, *rates,
                     rates[0] - rates[1]))
    per_position = pd.DataFrame(rows, columns=["game", "round", "cards_captured", "hand", "rollouts", "win_with",
                                               "win_without", "effect"])
    return per_position, capture_summary(per_position, level)


def capture_summary(per_position: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """The summary row of `capture_value` from its per-position table (as written to a file): ``positions``,
    ``rollouts`` (per position), ``win_with``, ``win_without``, ``effect`` (means over positions) and ``ci_low``,
    ``ci_high`` (normal interval over positions).

    >>> per = pd.DataFrame({"rollouts": [10] * 4, "win_with": [0.5, 0.6, 0.4, 0.5],
    ...                     "win_without": [0.4, 0.5, 0.4, 0.3], "effect": [0.1, 0.1, 0.0, 0.2]})
    >>> capture_summary(per)[["positions", "effect"]].round(3).values.tolist()
    [[4.0, 0.1]]
    """
    missing = {"rollouts", "win_with", "win_without", "effect"} - set(per_position.columns)
    if missing or len(per_position) == 0:
        raise RiskstatsError("not a capture_value per-position table" + (f": no {', '.join(sorted(missing))}"
                                                                         if missing else ": no positions"))
    effect, low, high = _interval(per_position.effect.to_numpy(float), level)
    return pd.DataFrame([{"positions": len(per_position), "rollouts": int(per_position.rollouts.iloc[0]),
                          "win_with": per_position.win_with.mean(), "win_without": per_position.win_without.mean(),
                          "effect": effect, "ci_low": low, "ci_high": high}])


LENGTH_PARTS = ("rounds", "armies_destroyed", "destroyed_per_round")
"""The parts of `length_decomposition`: a game's rounds = its armies destroyed / armies destroyed per round."""


def length_decomposition(games: pd.DataFrame, arm: str = "arm", level: float = 0.95, boot: int = 1000,
                         seed: int = 0) -> pd.DataFrame:
    """Why one arm's games are longer than another's, in parts that add up exactly.

    A game lasts ``rounds`` = ``armies_destroyed`` / ``destroyed_per_round`` (armies destroyed in it over
    armies destroyed per round), so log(rounds) = log(armies_destroyed) - log(destroyed_per_round) game by
    game, and the mean paired difference of the logs (each arm against the first, by seed) splits the
    same way: the change in log rounds is the change in log armies destroyed minus the change in log
    destroyed per round, to rounding. (Means of per-game ratios, or ratios of means, do not add up.)

    ``games`` holds the arms stacked (`compare_rules` with ``log=True``: columns ``arm``, ``seed``,
    ``rounds``, ``armies_destroyed``), every arm with the same seeds. One row per treatment arm and part:
    ``games``, ``log_effect`` (mean paired difference of the part's log) with its normal interval
    ``ci_low``..``ci_high``, ``ratio`` = exp(log_effect) (the geometric-mean ratio, treated over control)
    with ``ratio_low``..``ratio_high``, and ``contribution`` (the part's term in the change of log rounds:
    +log_effect for armies destroyed, -log_effect for the pace, the whole for rounds) with
    ``contribution_low``..``contribution_high`` and ``share`` (contribution / change of log rounds; the two
    parts' shares sum to 1).

    Examples
    --------
    >>> games = pd.DataFrame({"arm": ["a", "a", "b", "b"], "seed": [1, 2, 1, 2], "rounds": [10, 20, 5, 20],
    ...                       "armies_destroyed": [100, 400, 25, 200]})
    >>> parts = length_decomposition(games).set_index("part")
    >>> parts.contribution.round(4).to_dict()
    {'rounds': -0.3466, 'armies_destroyed': -1.0397, 'destroyed_per_round': 0.6931}
    """
    missing = {arm, "seed", "rounds", "armies_destroyed"} - set(games.columns)
    if missing:
        raise RiskstatsError(f"no column {', '.join(sorted(missing))} to decompose (log the games)")
    if (games.rounds <= 0).any() or (games.armies_destroyed <= 0).any():
        raise RiskstatsError("a game with no rounds or no armies destroyed has no log length to decompose")
    logs = games.assign(rounds=np.log(games.rounds.astype(float)),
                        armies_destroyed=np.log(games.armies_destroyed.astype(float)))
    logs["destroyed_per_round"] = logs.armies_destroyed - logs.rounds
    effects = rule_effects(logs, LENGTH_PARTS, arm=arm, level=level).rename(columns={"measure": "part"})
    effects = effects.rename(columns={"effect": "log_effect"}).drop(columns=["control_mean", "treated_mean"])
    sign = effects.part.map({"rounds": 1.0, "armies_destroyed": 1.0, "destroyed_per_round": -1.0})
    for column in ("ratio", "ratio_low", "ratio_high"):
        effects[column] = np.exp(effects[{"ratio": "log_effect", "ratio_low": "ci_low",
                                          "ratio_high": "ci_high"}[column]])
    effects["contribution"] = sign * effects.log_effect
    bounds = np.sort(np.stack([sign * effects.ci_low, sign * effects.ci_high]), axis=0)
    effects["contribution_low"], effects["contribution_high"] = bounds
    total = effects[effects.part == "rounds"].set_index(arm).log_effect
    effects["share"] = effects.contribution / effects[arm].map(total)
    low, high = {}, {}
    rng = np.random.default_rng(seed)
    names = list(dict.fromkeys(logs[arm]))
    control = logs[logs[arm] == names[0]].set_index("seed").sort_index()
    for name in names[1:]:  # the shares' percentile interval: games resampled, the pairs kept together
        d = logs[logs[arm] == name].set_index("seed").sort_index()[list(LENGTH_PARTS)] - control[list(LENGTH_PARTS)]
        picks = rng.integers(0, len(d), (boot, len(d)))
        means = d.to_numpy()[picks].mean(axis=1)
        alpha = (1 - level) / 2
        with np.errstate(divide="ignore", invalid="ignore"):
            shares = means[:, 1] / means[:, 0]
            for part, draws in zip(LENGTH_PARTS, (np.ones(boot), shares, 1 - shares)):
                low[(name, part)], high[(name, part)] = np.nanquantile(draws, [alpha, 1 - alpha])
    keys = list(zip(effects[arm], effects.part))
    effects["share_low"], effects["share_high"] = [low[k] for k in keys], [high[k] for k in keys]
    return effects


def bot_ranking(games: pd.DataFrame, arm: str = "arm", boot: int = 200, seed: int = 0,
                level: float = 0.95) -> pd.DataFrame:
    """How the bots rank in each arm (a rule setting): win rates and the Luce (who wins) ratings.

    ``games`` holds the arms' self-play tables stacked (`compare_rules`). Per arm and bot: ``trials``
    (decided games it played), ``wins``, ``win_rate`` with its 95% Wilson interval ``ci_low``..``ci_high``,
    ``rank`` (1 + the bots whose win rate is significantly higher, Holm over the arm's pairs:
    `riskstats.stats.compare.rank_rates`; bots not separated share a rank), ``elo`` with its bootstrap
    interval ``elo_low``..``elo_high`` and ``rating_rank`` (`riskstats.stats.ratings.luce`, ``boot``
    resamples), and ``fit_p`` (the Luce model's goodness-of-fit p-value in that arm, `luce_model`).
    """
    from riskstats.stats.compare import rank_rates
    from riskstats.stats.ratings import luce_model
    from riskstats.stats.report import win_rates

    if arm not in games.columns:
        raise RiskstatsError(f"no column {arm!r} naming the arms")
    frames = []
    for name, table in games.groupby(arm, sort=False):
        rates = rank_rates(win_rates(table, "bot"), "bot", level)
        ratings, _, fit = luce_model(table, boot=boot, seed=seed, level=level)
        ratings = ratings.rename(columns={"ci_low": "elo_low", "ci_high": "elo_high", "rank": "rating_rank"})
        merged = rates.merge(ratings[["bot", "elo", "elo_low", "elo_high", "rating_rank"]], on="bot")
        frames.append(merged.assign(**{arm: name}, fit_p=float(fit.p_value.iloc[0])))
    columns = [arm, "bot", "trials", "wins", "win_rate", "ci_low", "ci_high", "rank", "elo", "elo_low",
               "elo_high", "rating_rank", "fit_p"]
    return pd.concat(frames, ignore_index=True)[columns]
