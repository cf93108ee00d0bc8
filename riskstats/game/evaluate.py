"""Position evaluation: each player's chance of winning from a position, and the best next moves.

This module owns `evaluate` (the public function behind ``riskstats evaluate``), `position_value` (the
fitted model's answer, `riskstats.game.value`), the candidate moves it
compares (`candidate_moves`), their names (`describe_move`) and the compiled kernel `_move_rollouts` that
plays a candidate move, or the bot's own choice (the position's value), and then the rest of the game, all on
the same seeds. A rollout copies the position, draws fresh dice from its own seed and reshuffles the draw pile,
whose order no player knows, as `riskstats.game.rollout` does; the position format is `riskstats.game.position`'s.

Everything the position holds is used as it stands (other players' hands, missions and capitals): the
evaluation is an onlooker's, who sees the whole position except the draw pile's order. A game that hits the
rules' turn cap counts as a win for nobody, so the players' chances may sum to less than 1.

With ``rollouts=0`` the answer comes from the fitted position value alone (`riskstats.game.value`), at
once: each player's p_win is the model's (its interval is the point itself: a model has no sampling
error), and each candidate move is ranked by the model's value, for the player to move, of the position it
leads to (`_move_values`: a move whose result is chance, an attack's roll or a card drawn, is valued as the
mean over `MODEL_SAMPLES` seeded outcomes, the attack answered with the most defender dice).

>>> from riskstats.game.play import Game
>>> game = Game(3, seed=2).play(["aggressive"], max_moves=400)
>>> result = evaluate(game, rollouts=50, seed=1, top=2)
>>> list(result.players.columns)
['player', 'p_win', 'ci_low', 'ci_high', 'wins', 'rollouts']
>>> len(result.moves) <= 3, int(result.moves.own.sum())  # the best two, and the bot's own move if not among them
(True, 1)
"""
from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np
from numba import prange

from riskstats._numba import jit, parallel_jit
from riskstats.errors import RiskstatsError, check_int
from riskstats.game.bots.catalog import Lineup
from riskstats.game.bots.roster import roster_for
from riskstats.game.drive import _drive
from riskstats.game.loop import NO_HORIZON
from riskstats.game.play import Game, Move
from riskstats.game.rollout import _copy_state
from riskstats.game.rules.engine import _step
from riskstats.game.rules.legal import _defend_dice
from riskstats.game.rules.state import (
    ATTACK_MOVE,
    CAPITAL_PICK,
    DEFEND,
    DEFEND_MOVE,
    END_ATTACK,
    END_TURN,
    FORTIFY_MOVE,
    I_DECK_N,
    I_PHASE,
    I_WINNER,
    OCCUPY_MOVE,
    PASS,
    PLACE,
    TRADE_SET,
    State,
    _new_state,
)
from riskstats.game.rules.stream import _seed, _shuffle
from riskstats.game.value import FEATURES, N_INPUTS, _model_probs, _model_value, model_index
from riskstats.intervals import wilson_interval
from riskstats.pieces import in_pieces

MAX_ROLLOUTS = 10_000_000
MOVE_COLUMNS = ["move", "p_win", "ci_low", "ci_high", "wins", "rollouts", "kind", "a", "b", "c", "d", "own"]
"""The columns of `Evaluation.moves`: the move in words, the mover's P(win) after it with its 95% interval, wins
of rollouts, the move as kind, a, b, c, d, and whether it is the bot's own choice."""
MOVE_MEANING = ("a move's P(win): the move played first, then every seat, the mover's included, plays as {bot} to "
                "the end, on the same seeds as the position's rollouts; own: the move {bot} itself plays here, "
                "which scores the position's own P(win) up to chance (exactly, for a bot that draws no dice to "
                "choose)")
"""What a candidate move's value means, as `riskstats evaluate` and its JSON (``moves_mean``) say it."""
MODEL_SAMPLES = 64
"""Seeded outcomes over which ``rollouts=0`` values a candidate move whose result is chance."""
DEFAULT_BOT = "aggressive"
"""The default policy of the rollouts (``--bot`` chooses another): ``aggressive``, the fastest built-in bot
that plays a game to its end reliably, so that hundreds of rollouts per candidate move take seconds.
The answer is each player's chance *if every seat plays like the rollout bot*, not under best play, and
it depends on that bot: in one position player 0's P(win) was 36.7% with ``aggressive``, 64.0% with
``continent`` and 34.0% with ``search``. For a stronger estimate pass ``continent-tuned`` (about as fast)
or ``search`` (far slower); docs/positions.md says more."""


class Evaluation(NamedTuple):
    """`evaluate`'s answer: ``players`` (player, p_win, ci_low, ci_high, wins, rollouts), ``moves``
    (`MOVE_COLUMNS`: the best first, then the bot's own move if it is not among them), the number of
    ``rollouts`` per estimate, the ``seed``, the ``player`` to move (whose moves these are) and the ``bot``
    playing the rollouts."""

    players: object
    moves: object
    rollouts: int
    seed: int
    player: int
    bot: str = DEFAULT_BOT

    def as_dict(self) -> dict:
        """The JSON answer of ``riskstats evaluate --json`` (keys players, moves, rollouts, seed, moves_mean);
        each move with its interval, wins, rollouts, ``tied_with_best`` (`tied_with_best`) and ``own`` (the bot's
        own choice)."""
        tied = tied_with_best(self.moves)
        return {"players": [{k: (int(r[k]) if k == "player" else float(r[k])) for k in
                             ("player", "p_win", "ci_low", "ci_high")} for _, r in self.players.iterrows()],
                "moves": [{"move": r["move"], "p_win": float(r["p_win"]), "ci_low": float(r["ci_low"]),
                           "ci_high": float(r["ci_high"]), "wins": int(r["wins"]), "rollouts": int(r["rollouts"]),
                           "tied_with_best": bool(t), "own": bool(r["own"])}
                          for (_, r), t in zip(self.moves.iterrows(), tied)],
                "rollouts": self.rollouts, "seed": self.seed, "moves_mean": MOVE_MEANING.format(bot=self.bot)}


def tied_with_best(moves) -> list[bool]:
    """For each move of an `Evaluation`'s ``moves`` (best first): whether its 95% interval overlaps the best
    move's, so that the rollouts do not separate it from the best (the best is tied with itself). A
    conservative reading: the moves share their rollouts' seeds, which a paired test would exploit.

    >>> import pandas as pd
    >>> tied_with_best(pd.DataFrame({"ci_low": [0.5, 0.45, 0.2], "ci_high": [0.7, 0.55, 0.4]}))
    [True, True, False]
    """
    if len(moves) == 0:
        return []
    low = float(moves["ci_low"].iloc[0])
    return [bool(high >= low) for high in moves["ci_high"].to_numpy(float)]


OWN = -1
"""The kind of `_move_rollouts`' move row that forces nothing: the bot to move chooses, in each rollout, as in
a game (the position's own value)."""


@parallel_jit
def _move_rollouts(root, B, R, CUT, V, bots, params, moves, seeds, chunk, roster, out):  # pragma: no cover
    """out[m, r] = the winner (-1: none) of rollout r after candidate move m (a row kind, a, b, c, d): the
    position copied, fresh dice from seeds[r] and the draw pile reshuffled, the move played (a row of kind
    `OWN`: none, the bot to move chooses), then the bots play to the end. Every move meets the same seeds
    (common random numbers), and after it the same play. The threads share out the pairs of a move and a block
    of ``chunk`` rollouts (which share a working state).

    Parameters
    ----------
    root : State
        The position the moves are played from (read only).
    B, R, CUT, V
        The context (`riskstats.game.rules.context.compile_context`): the board arrays (`BoardArrays`), the rule
        vector (int64[R_SIZE]), the one-roll table and the P(conquer) table.
    bots : int64[seats]
        Each seat's bot id.
    params : float64[seats, N_PARAMS]
        Each seat's parameter vector.
    moves : int64[M, 5]
        The candidate moves (kind, a, b, c, d; kind `OWN`: the bot's own choice in each rollout).
    seeds : uint64[N]
        Each rollout's seed, the same for every move.
    chunk : int
        Rollouts per working state.
    roster : tuple
        The line-up's roster (`riskstats.game.bots.roster.roster_for`): the bots compiled in.
    out : int64[M, N]
        Written: the winner of each rollout after each move.
    """
    M = moves.shape[0]
    N = seeds.shape[0]
    T = root.owner.shape[0]
    C = root.card_owner.shape[0]
    S = root.alive.shape[0]
    blocks = (N + chunk - 1) // chunk
    for pair in prange(M * blocks):
        job = pair // blocks
        first = (pair % blocks) * chunk
        work = _new_state(T, C, S, 0)
        for r in range(first, min(N, first + chunk)):
            _copy_state(root, work)
            _seed(work.rng, seeds[r])
            _shuffle(work.rng, work.deck, work.info[I_DECK_N])
            if moves[job, 0] != OWN:
                _step(work, B, R, CUT, moves[job, 0], moves[job, 1], moves[job, 2], moves[job, 3], moves[job, 4])
            _drive(work, B, R, CUT, V, bots, params, False, NO_HORIZON, NO_HORIZON, roster, None)
            out[job, r] = work.info[I_WINNER]


@jit
def _move_values(root, B, R, CUT, moves, seeds, p, model, out):  # pragma: no cover - compiled
    """out[m] = fitted model ``model``'s mean value for seat p of the position candidate move m leads to, over
    the seeds (fresh dice and draw pile each); an attack is answered at once with the most defender dice."""
    T = root.owner.shape[0]
    work = _new_state(T, root.card_owner.shape[0], root.alive.shape[0], 0)
    for m in range(moves.shape[0]):
        total = 0.0
        for r in range(seeds.shape[0]):
            _copy_state(root, work)
            _seed(work.rng, seeds[r])
            _shuffle(work.rng, work.deck, work.info[I_DECK_N])
            _step(work, B, R, CUT, moves[m, 0], moves[m, 1], moves[m, 2], moves[m, 3], moves[m, 4])
            if work.info[I_PHASE] == DEFEND:
                _step(work, B, R, CUT, DEFEND_MOVE, _defend_dice(work, R), 0, 0, 0)
            total += _model_value(work, B, R, p, model)
        out[m] = total / seeds.shape[0]


def describe_move(move, board) -> str:
    """A move in words, with territory and card names.

    >>> from riskstats.game.rules.board import classic_board
    >>> describe_move(Move.attack(0, 29, 3), classic_board())
    'attack Alaska -> Kamchatka (3 dice)'
    """
    from riskstats.game.position import card_label

    kind, a, b, c, _ = Move(*move)
    names = board.territories
    if kind == PLACE:
        return f"place {b} on {names[a]}"
    if kind == TRADE_SET:
        return "trade " + ", ".join(card_label(board, x) for x in (a, b, c))
    if kind == PASS:
        return "stop trading"
    if kind == ATTACK_MOVE:
        return f"attack {names[a]} -> {names[b]} ({c} dice)"
    if kind == DEFEND_MOVE:
        return f"defend with {a} dice"
    if kind == OCCUPY_MOVE:
        return f"move {a} more in"
    if kind == END_ATTACK:
        return "stop attacking"
    if kind == FORTIFY_MOVE:
        return f"fortify {names[a]} -> {names[b]} ({c})"
    if kind == END_TURN:
        return "end turn without fortifying"
    if kind == CAPITAL_PICK:
        return f"capital {names[a]}"
    return str(Move(*move))


def candidate_moves(game: Game) -> list[Move]:
    """The moves `evaluate` compares: every legal move, with placements of the whole reserve (or setup
    quota) on a territory facing an enemy, attacks with the most dice, fortifications of every army that
    may move, and moving in none, half or all of the armies that may follow a conquest."""
    phase = game.phase
    moves = game.legal_moves()
    st, board = game.state, game.board
    if phase in ("reinforce", "setup_place"):
        most = max(m.b for m in moves)
        front = [m for m in moves if m.b == most and any(st.owner[n] != game.player for n in board.neighbours(m.a))]
        return front or [m for m in moves if m.b == most]
    if phase == "attack":
        best = {}
        for m in moves:
            if m.kind == ATTACK_MOVE:
                best[(m.a, m.b)] = max(best.get((m.a, m.b), m), m, key=lambda x: x.c)
        return list(best.values()) + [Move.end_attack()]
    if phase == "occupy":
        most = moves[-1].a
        return [Move.occupy(n) for n in sorted({0, most // 2, most})]
    if phase == "fortify":
        return [m for m in moves if m.kind == END_TURN or m.c == int(st.armies[m.a]) - 1]
    return moves


def evaluate(position, bot=DEFAULT_BOT, rollouts: int = 1000, seed: int = 0, *, top: int = 5,
             candidates: int = 30, board=None, model: str = "model", progress=None) -> Evaluation:
    """Each player's probability of winning from a position, and the best few next moves of the player to move.

    Every estimate plays the rest of the game ``rollouts`` times with ``bot`` in every seat, each time
    with fresh dice and a reshuffled draw pile (`riskstats.game.rollout`); wins are counted with a 95%
    Wilson interval. ``rollouts=0`` answers from the fitted position value instead, at once (see the module
    docstring). Each candidate move (`candidate_moves`, and the bot's own choice; at most ``candidates`` of them:
    the stop move and the bot's own choice always, the rest drawn at random from ``seed`` when there are more) is
    played first and then the rest of the game, on the same seeds as every other candidate and as the position's
    own rollouts, in which the bot to move chooses its first move as in a game; after the first move the play is
    the same. So the bot's own move scores the position's P(win) up to chance, exactly where the bot draws no
    dice to choose, and a move that scores above it is one the bot would gain by playing. Rollout r draws from
    seed word r (`riskstats.game.rollout`), and the rollouts run in short calls of the kernels
    (`riskstats.pieces.in_pieces`), so that Ctrl-C stops them within a second and the answer does not depend
    on how they were cut.

    Parameters
    ----------
    position : Game, dict or str
        A `Game` (not changed), or a position in the format of docs/positions.md (a dict or JSON text).
    bot : str or (str, params)
        The built-in bot playing every seat in the rollouts (default ``"aggressive"``: fast; the answer
        is the chance under that bot's play, see `DEFAULT_BOT`).
    rollouts : int
        Rollouts per estimate (each player's chance, and each candidate move's); 0: the fitted model alone
        (wins and rollouts are then 0, and each interval is the point).
    seed : int
        Same seed, same answer (on any number of threads).
    top : int
        How many of the best moves to return (0: none).
    candidates : int
        The most candidate moves to compare.
    board : Board, optional
        The board, when the position names one other than "classic".
    model : str
        With ``rollouts=0``: the fitted model answering (`riskstats.game.value.MODELS`: ``model``,
        ``strong``, refitted with search self-play added, or ``boosted``, gradient-boosted trees).
    progress : callable, optional
        ``progress(done, total)`` a few times a second: rollouts played of all ``total`` (``rollouts`` for
        the players' chances, and as many again for each candidate move compared).

    Returns
    -------
    Evaluation
        ``players``: one row per player (player, p_win, ci_low, ci_high, wins, rollouts); ``moves``: the
        best ``top`` candidates for the player to move (`MOVE_COLUMNS`: move in words, p_win of that player with
        its interval, wins, rollouts, the move as kind, a, b, c, d, and ``own``), best first, then the bot's own
        move where it is not among them.
    """
    import pandas as pd

    model_index(model)  # an unknown model is named before the position is read
    game = position if isinstance(position, Game) else Game.from_json(position, board)
    rollouts = check_int("rollouts", rollouts, 0, MAX_ROLLOUTS)
    seed = check_int("seed", seed, 0, 2**64 - 1)
    top = check_int("top", top, 0, 1000)
    candidates = check_int("candidates", candidates, 1, 10_000)
    if game.over:
        raise RiskstatsError("the game is over: nothing to evaluate")
    spec = (bot, None) if isinstance(bot, str) else tuple(bot)
    ids, values = Lineup.of([spec]).arrays(game.players)  # raises on an unknown bot or wrong parameters
    if rollouts == 0:
        return _model_evaluation(game, spec, top, candidates, seed, model)

    moves, own = _choose(game, spec, candidates, seed) if top else ([], None)
    wins = _wins(game, ids, values, moves, rollouts, seed, progress)  # row 0: the position, then each move
    rows = []
    for p in range(game.players):
        low, high = wilson_interval(int(wins[0, p]), rollouts)
        rows.append((p, wins[0, p] / rollouts, low, high, int(wins[0, p]), rollouts))
    players = pd.DataFrame(rows, columns=["player", "p_win", "ci_low", "ci_high", "wins", "rollouts"])
    if top == 0:
        return Evaluation(players, pd.DataFrame(columns=MOVE_COLUMNS), rollouts, seed, game.player, spec[0])
    mover = game.player
    rows = []
    for m, move in enumerate(moves):
        w = int(wins[1 + m, mover])
        low, high = wilson_interval(w, rollouts)
        rows.append((describe_move(move, game.board), w / rollouts, low, high, w, rollouts, *move, move == own))
    return Evaluation(players, _best(pd.DataFrame(rows, columns=MOVE_COLUMNS), top), rollouts, seed, mover,
                      spec[0])


def _best(frame, top: int):
    """The ``top`` best moves of ``frame`` (by p_win, ties in candidate order), and the bot's own move after them
    where it is not among them."""
    import pandas as pd

    frame = frame.sort_values("p_win", ascending=False, kind="stable")
    best = frame.head(top)
    if not best["own"].any():
        best = pd.concat([best, frame[frame["own"]]])
    return best.reset_index(drop=True)


def _wins(game: Game, ids, values, moves: list, rollouts: int, seed: int, progress) -> np.ndarray:
    """wins[0, s]: how many of ``rollouts`` rollouts of the position seat s wins, the bot to move choosing its
    move in each (as in a game); wins[1 + m, s]: the same after candidate move m. One call of `_move_rollouts`
    plays them all, on the same seeds and with the same play after the first move, on every thread, a few
    rollouts at a time (`riskstats.pieces.in_pieces`: only the counts are kept)."""
    st = game.state
    root = State(*(a.copy() for a in st[:-1]), st.scratch.copy())
    seeds = np.random.SeedSequence(seed).generate_state(rollouts, np.uint64)
    kinds = np.array([(OWN, 0, 0, 0, 0), *moves], np.int64)
    M, S = len(kinds), st.alive.shape[0]
    wins = np.zeros((M, S), np.int64)
    threads = numba.get_num_threads()
    roster = roster_for(_move_rollouts, ids)

    def run(start, stop):
        out = np.zeros((M, stop - start), np.int64)
        block = max(1, min(64, M * (stop - start) // (4 * threads)))
        _move_rollouts(root, *game.context, ids, values, kinds, seeds[start:stop], block, roster, out)
        for m in range(M):
            wins[m] += np.bincount(out[m] + 1, minlength=S + 1)[1:]

    def played(done, n):
        if progress is not None:
            progress(done * M, n * M)

    in_pieces(rollouts, run, progress=played, first=max(1, threads // M))
    return wins


def position_value(position, *, board=None, features: bool = True, model: str = "model"):
    """Each player's chance of winning from a position, by the fitted model alone (no rollouts): instant.

    Parameters
    ----------
    position : Game, dict or str
        A `riskstats.game.play.Game` (not changed), or a position in the format of docs/positions.md (a
        dict or JSON text).
    board : Board, optional
        The board, when the position names one other than "classic".
    features : bool
        Also return each player's `FEATURES` (the model's inputs).
    model : str
        The fitted model (`riskstats.game.value.MODELS`): ``model`` (fitted on heuristic play),
        ``strong`` (refitted with search self-play added; better calibrated on strong play) or ``boosted``
        (gradient-boosted trees on more inputs, fitted on every phase of heuristic, search and value-bot play;
        data/position_value/validation.csv).

    Returns
    -------
    pandas.DataFrame
        One row per player: player, p_win (the compiled model's value exactly: 1 / 0 once the game is won),
        then the features if asked. The players' p_win sum to 1.
    """
    import pandas as pd

    m = model_index(model)
    game = position if isinstance(position, Game) else Game.from_json(position, board)
    P = game.players
    X = np.zeros((P, N_INPUTS))
    probs = np.zeros(P)
    _model_probs(game.state, game.context.B, game.context.R, m, X, probs)
    table = pd.DataFrame({"player": np.arange(P), "p_win": probs})
    if features:
        for f, name in enumerate(FEATURES):
            table[name] = X[:, f]
    return table


def _model_evaluation(game: Game, spec, top: int, candidates: int, seed: int, model: str) -> Evaluation:
    """`evaluate` with ``rollouts=0``: a fitted model's values of the position and of each candidate move."""
    import pandas as pd

    value = position_value(game, features=False, model=model)
    players = pd.DataFrame({"player": value["player"], "p_win": value["p_win"], "ci_low": value["p_win"],
                            "ci_high": value["p_win"], "wins": 0, "rollouts": 0})
    if top == 0:
        return Evaluation(players, pd.DataFrame(columns=MOVE_COLUMNS), 0, seed, game.player, spec[0])
    moves, own = _choose(game, spec, candidates, seed)
    st = game.state
    root = State(*(a.copy() for a in st[:-1]), st.scratch.copy())
    seeds = np.random.SeedSequence(seed).generate_state(MODEL_SAMPLES, np.uint64)
    out = np.zeros(len(moves))
    mover = game.player
    _move_values(root, game.context.B, game.context.R, game.context.CUT, np.array(moves, np.int64), seeds, mover,
                 model_index(model), out)
    rows = [(describe_move(m, game.board), float(v), float(v), float(v), 0, 0, *m, m == own)
            for m, v in zip(moves, out)]
    return Evaluation(players, _best(pd.DataFrame(rows, columns=MOVE_COLUMNS), top), 0, seed, mover, spec[0])


def own_move(game: Game, spec) -> Move:
    """The move the bot ``spec`` ((name, params)) plays in ``game``'s position, chosen on a copy (the game's
    random stream is not drawn)."""
    copy = Game.from_json(game.to_json(indent=None), game.board)
    return copy.bot_move(*spec)


def _choose(game: Game, spec, most: int, seed: int) -> tuple[list[Move], Move]:
    """The candidates and the bot's own move: every `candidate_moves` one, or where there are more than
    ``most``, the stop moves and the bot's own move first, then a seeded sample. The bot's own move is always
    a candidate, added where `candidate_moves` leaves it out (a placement of part of the reserve)."""
    moves = candidate_moves(game)
    own = own_move(game, spec)
    if own not in moves:
        moves = [own, *moves]
    if len(moves) <= most:
        return moves, own
    keep = [m for m in moves if m.kind in (END_ATTACK, END_TURN, PASS) or m == own]
    rest = [m for m in moves if m not in keep]
    rng = np.random.default_rng(seed)
    picked = rng.choice(len(rest), size=max(0, most - len(keep)), replace=False)
    return keep + [rest[i] for i in sorted(picked)], own
