"""Breaking a rival's continent: what attacking into a continent another seat holds is worth, by paired rollouts.

This module owns `break_positions` (moments of real games where the seat to move, at its first attack
decision of a turn, could attack from one of its territories into a continent a rival holds whole) and
`break_value` (the mover's and the rival's P(win) from each such position with the break forced first
against the same position played on by the bots, on the same rollout seeds), summarised by `break_summary`.
It follows `riskstats.analysis.cards.capture_value` (captured cards valued by rollouts with and without
them) and does not own the rollouts (`riskstats.game.rollout`).

**The comparison is fair in armies.** The break is never a free conquest: in the *break* arm the mover
attacks from the chosen territory into the rival's continent with the most dice, roll after roll, until
it conquers or has one army left there (all in), the defender answering as its bot does; the dice are
drawn from a seed of each outcome, so the armies the attack costs (and its failures) are in the sample
in their true proportions. After the attack the game's own bots play on (the mover's bot decides how
many armies move in, then the rest of the turn). In the *play-on* arm the same bots play on from the
same position (they may break the continent themselves: the effect is that of forcing the break against
the bots' own choice). Outcome k of the attack and play-on batch k share the rollout seed ``s_k``, so the
rollouts after the attack meet the same dice streams and draw-pile shuffles as those of the other arm
(common random numbers).

>>> from riskstats.runs.selfplay import play_games
>>> games = play_games(2, 4, "continent-tuned", seed=3)
>>> found = break_positions(games, seed=1)
>>> all(f["attackers"] >= 1 for f in found)
True
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from riskstats.errors import RiskstatsError, check_int

BREAK_COLUMNS = ("game", "turn", "round", "mover", "rival", "continent", "bonus", "source", "target", "attackers",
                 "defenders", "p_conquer", "bot_breaks", "outcomes", "rollouts", "p_conquered", "mover_lost",
                 "rival_lost", "win_break", "win_play", "effect", "rival_break", "rival_play", "rival_effect")
"""The columns of `break_value`'s per-position table (see there)."""


def _options(game, board) -> list[tuple]:
    """Every break open to the mover now: (continent, rival, source, target, attackers, defenders)."""
    st = game.state
    owner, armies = st.owner, st.armies
    mover = game.player
    found = []
    for k in range(board.n_continents):
        members = board.continent_territories(k)
        holders = set(owner[members].tolist())
        if len(holders) != 1:
            continue
        rival = holders.pop()
        if rival == mover or rival >= game.players:
            continue
        for dst in members:
            for src in board.neighbours(int(dst)):
                if owner[src] == mover and armies[src] >= 2:
                    found.append((k, int(rival), int(src), int(dst), int(armies[src]) - 1, int(armies[dst])))
    return found


def _p_conquer(attackers: int, defenders: int, rules) -> float:
    from riskstats.odds.battle import battle_odds

    return float(battle_odds(attackers, defenders, rules.dice).p_win)


def break_positions(table: pd.DataFrame, rules=None, board=None, min_p: float = 0.25, seed: int = 0,
                    params: dict | None = None) -> list[dict]:
    """One moment per game where the seat to move could break a rival's continent, as a position to roll out.

    The games of ``table`` (`riskstats.runs.selfplay.play_games`, played with ``rules``, ``board`` and
    ``params``) are replayed move by move. At the first attack decision of every turn (reinforcements
    placed), each attack the mover could make from a territory of its own (two armies or more) into a
    territory of a continent one rival holds whole is a break; the one with the best exact chance of
    conquering (all in, `riskstats.odds.battle.battle_odds`) is kept, if that chance is at least ``min_p``.
    Of a game's turns with a break, one is drawn (from ``seed`` and the game's index), so each game gives
    at most one position and positions of different games are independent.

    Each entry: ``game``, ``turn``, ``round``, ``mover``, ``rival``, ``continent`` (its name), ``bonus``,
    ``source``, ``target``, ``attackers`` (armies able to roll), ``defenders``, ``p_conquer`` (exact, all
    in), ``bot_breaks`` (the mover's bot would itself open with an attack into that continent), ``bots``
    (the seat bots) and ``position`` (a `riskstats.game.play.Game` at that moment).
    """
    from riskstats.analysis.trajectories import replay_game
    from riskstats.game.play import Game
    from riskstats.game.rules.board import classic_board
    from riskstats.game.rules.options import GameRules
    from riskstats.game.rules.state import ATTACK_MOVE

    if not 0 <= float(min_p) <= 1:
        raise RiskstatsError(f"min_p must be a probability, got {min_p!r}")
    seed = check_int("seed", seed, 0)
    board = board or classic_board()
    names = list(board.continents)
    bonus = board.arrays.continent_bonus
    found = []
    for row in table.itertuples():
        rules_here = rules or GameRules(variant=str(row.variant))
        bots = row.bots.split(",")
        specs = [(b, (params or {}).get(b)) for b in bots]
        seen_turn, moments = -1, []
        for game in replay_game(row, rules_here, board, params):
            if game.phase == "attack" and game.turn != seen_turn:
                seen_turn = game.turn
                options = [(_p_conquer(o[4], o[5], rules_here), o) for o in _options(game, board)]
                if options:
                    p, (k, rival, src, dst, att, dfd) = max(options, key=lambda x: (x[0], bonus[x[1][0]]))
                    if p >= min_p:
                        moments.append({"turn": game.turn, "round": game.round, "mover": game.player, "rival": rival,
                                        "continent": names[k], "bonus": int(bonus[k]), "source": src, "target": dst,
                                        "attackers": att, "defenders": dfd, "p_conquer": p,
                                        "json": game.to_json(indent=None)})
        if not moments:
            continue
        pick = np.random.default_rng([seed, int(row.game)]).integers(len(moments))
        entry = moments[pick]
        position = Game.from_json(entry.pop("json"), board)
        first = Game.from_json(position.to_json(indent=None), board).bot_move(*specs[entry["mover"]])
        member = board.continent_territories(names.index(entry["continent"]))
        entry["bot_breaks"] = bool(first.kind == ATTACK_MOVE and first.b in set(member.tolist()))
        found.append({"game": row.game, **entry, "bots": bots, "position": position})
    return found


def force_break(position, source: int, target: int, seed: int, defender=("random", None)):
    """The position after the mover attacks ``source`` -> ``target`` with the most dice until it conquers
    or has one army left on ``source``, the dice drawn from ``seed`` (a copy; ``position`` is not changed).

    ``defender`` is the defending seat's bot (name, params): it chooses its dice as in play. Returns the
    copy (in the occupy phase after a conquest, else still in the attack phase).
    """
    from riskstats.game.play import Game, Move
    from riskstats.game.rules.stream import _seed

    game = Game.from_json(position.to_json(indent=None), position.board)
    _seed(game.state.rng, np.uint64(seed))
    mover = game.player
    if game.phase != "attack" or game.state.owner[source] != mover or game.state.owner[target] == mover:
        raise RiskstatsError("force_break needs the mover's attack phase, its source and an enemy target")
    while game.phase == "attack" and game.state.armies[source] >= 2:
        game.step(Move.attack(source, target, min(3, int(game.state.armies[source]) - 1)))
        if game.phase == "defend":
            game.step(game.bot_move(*defender))
    return game


def break_value(positions: list[dict], outcomes: int = 8, rollouts: int = 5, seed: int = 0,
                params: dict | None = None) -> pd.DataFrame:
    """The mover's and the rival's win rates from each position (`break_positions`) with the break forced
    first (*break*) and without (*play-on*: the bots play on), by paired rollouts to the end of the game.

    For each position, ``outcomes`` seeds s_k are drawn (from ``seed`` and the position's game, so a run valued in
    chunks of games gives the rows of one run); the break is attacked with the dice of s_k
    (`force_break`: to conquest or to the last army) and ``rollouts`` rollouts are played from the result
    with seed s_k, and ``rollouts`` rollouts from the untouched position with the same s_k; the game's own
    bots sit in every seat. So each arm has ``outcomes`` x ``rollouts`` rollouts per position.

    Returns one row per position, `BREAK_COLUMNS`: the entry's fields, ``p_conquered`` (share of the
    attack's outcomes that conquered), ``mover_lost`` and ``rival_lost`` (mean armies lost in the attack),
    ``win_break``, ``win_play`` and ``effect`` (the mover's win rates and their difference), and
    ``rival_break``, ``rival_play``, ``rival_effect`` (the rival's).
    """
    from riskstats.game.rollout import rollouts as roll

    outcomes = check_int("outcomes", outcomes, 1)
    rollouts = check_int("rollouts", rollouts, 1)
    if not positions:
        raise RiskstatsError("no positions to roll out")
    rows = []
    for entry in positions:
        seeds = np.random.SeedSequence([seed, int(entry["game"])]).generate_state(outcomes, np.uint64)
        root, mover, rival = entry["position"], entry["mover"], entry["rival"]
        src, dst = entry["source"], entry["target"]
        bots = [(b, (params or {}).get(b)) for b in entry["bots"]]
        wins = np.zeros((2, 2))
        conquered = lost = rival_lost = 0
        before = root.state.armies.copy()
        for s in seeds:
            after = force_break(root, src, dst, int(s), bots[rival])
            taken = bool(after.state.owner[dst] == mover)
            moved_in = int(after.state.armies[dst]) if taken else 0
            conquered += taken
            lost += int(before[src] - after.state.armies[src]) - moved_in
            rival_lost += int(before[dst]) - (0 if taken else int(after.state.armies[dst]))
            for arm, game in enumerate((after, root)):
                winner = roll(game, rollouts, bots=bots, seed=int(s % np.uint64(2**63))).winner.to_numpy()
                wins[arm] += ((winner == mover).sum(), (winner == rival).sum())
        n = outcomes * rollouts
        rates = wins / n
        fields = {k: entry[k] for k in BREAK_COLUMNS[:13]}
        rows.append({**fields, "outcomes": outcomes, "rollouts": n, "p_conquered": conquered / outcomes,
                     "mover_lost": lost / outcomes, "rival_lost": rival_lost / outcomes,
                     "win_break": rates[0, 0], "win_play": rates[1, 0], "effect": rates[0, 0] - rates[1, 0],
                     "rival_break": rates[0, 1], "rival_play": rates[1, 1], "rival_effect": rates[0, 1] - rates[1, 1]})
    return pd.DataFrame(rows, columns=list(BREAK_COLUMNS))


def break_summary(values: pd.DataFrame, by: str | list | None = None, level: float = 0.95) -> pd.DataFrame:
    """Mean effects of `break_value`'s table (or several stacked, with the column(s) ``by``) with normal
    intervals over positions (one per game, so independent).

    One row per group: ``positions``, ``p_conquered``, ``mover_lost``, ``rival_lost``, then for ``effect`` (the mover's
    P(win) change) and ``rival_effect`` (the rival's) the mean and ``*_low``, ``*_high``, and the mean
    win rates of both arms.

    >>> t = pd.DataFrame({"effect": [0.1, 0.3], "rival_effect": [-0.2, 0.0], "p_conquered": [1, 0.5],
    ...                   "mover_lost": [2, 3], "win_break": [0.5, 0.6], "win_play": [0.4, 0.3],
    ...                   "rival_break": [0.1, 0.2], "rival_play": [0.3, 0.2]})
    >>> s = break_summary(t)
    >>> round(float(s.effect.iloc[0]), 3), bool(s.effect_low.iloc[0] < 0.2 < s.effect_high.iloc[0])
    (0.2, True)
    """
    from riskstats.analysis.cards import _interval

    keys = [] if by is None else [by] if isinstance(by, str) else list(by)
    groups = values.groupby(keys, sort=True) if keys else [((), values)]
    rows = []
    for key, part in groups:
        row = dict(zip(keys, key if isinstance(key, tuple) else (key,)))
        row.update(positions=len(part), p_conquered=part.p_conquered.mean(), mover_lost=part.mover_lost.mean(),
                   rival_lost=part.rival_lost.mean() if "rival_lost" in part else np.nan)
        for name in ("effect", "rival_effect"):
            mean, low, high = _interval(part[name].to_numpy(float), level)
            row.update({name: mean, f"{name}_low": low, f"{name}_high": high})
        row.update({c: part[c].mean() for c in ("win_break", "win_play", "rival_break", "rival_play")})
        rows.append(row)
    return pd.DataFrame(rows)
