"""A text environment for language-model agents (issue 55): one seat of a game, played by prompts and replies.

This module owns the text view of a game: the prompt of a decision (`prompt`: the phase, a digest of the board and
the numbered legal moves), the reading of a reply (`parse_reply`), `TextEnv`, which plays one seat by text while
built-in bots play the others, `play_agent`, which plays any callable from a prompt to a reply for many games (the
tidy games table, the agent's `record`, transcripts), and two scripted baselines (`BASELINES`). It owns no rule and
no action space: the moves offered are the legal ids of the macro space (`riskstats.env.macro.MacroEncoding`,
automatic defence), each played by the engine, and the odds written into an attack's line are the exact ones of
`riskstats.odds.battle.battle_odds` (the attacker rolling every army but the one that stays, until the territory
falls or it cannot roll).

A prompt reads, for the seat to move::

    You are seat 0 of 4 (classic), turn 7, phase reinforce. Armies to place: 5. ...
    Your continents: ... Threats: ... Cards: ...
    Legal moves (reply with one number):
    1. place 5 on Alaska
    ...
    12. attack Kamchatka (2 armies) from Alaska (9): until decided, P(conquer) 0.962, ...

A reply may be the move's number (alone or in text: "I choose 3"), the move's text (as printed, case and spacing
aside), or JSON (``{"move": 3}``, ``{"choice": "end the attack phase"}``). A reply that names no legal move gets a
one-line reason (`TextEnv.step`'s ``info["error"]``) and the same prompt again, up to ``retries`` times; then the
stated default move is played (ending the phase where the rules allow it, else the first move), and ``info`` says
so. No string makes `parse_reply` raise.
"""
from __future__ import annotations

import contextlib
import json
import re

import numpy as np

from riskstats.env.defence import most_dice
from riskstats.env.macro import MacroEncoding
from riskstats.errors import RiskstatsError, check_int
from riskstats.game.play import Game, Move
from riskstats.game.rules.options import GameRules

MAX_REPLY = 10_000
"""Replies are read up to this many characters (the rest is ignored)."""
KEYS = ("move", "choice", "action", "answer")
"""The JSON keys a reply's move may be given under."""


def _name(game, t: int) -> str:
    return game.board.territories[int(t)]


def option_text(game, space: MacroEncoding, action: int) -> str:
    """The line of a legal macro id in ``game`` now: what it does, with names and armies, and for an attack the
    exact odds of taking the territory (until decided) or of this roll (once)."""
    move = space.first_move(game, action)
    kind = space.describe(action).split()[0]
    st = game.state
    if kind == "place":
        if game.phase == "capital":
            return f"pick {_name(game, move.a)} as your capital"
        return f"place {move.b} on {_name(game, move.a)}"
    if kind == "trade":
        cards = ", ".join("wild" if game.board.arrays.card_territory[c] < 0 else
                          _name(game, game.board.arrays.card_territory[c]) for c in (move.a, move.b, move.c))
        return f"trade the set {cards}"
    if kind == "end":
        return f"end the {game.phase} phase"
    if kind == "attack":
        src, dst = int(move.a), int(move.b)
        a, d = int(st.armies[src]), int(st.armies[dst])
        until = space.describe(action).endswith("until decided")
        odds = _odds(game, a - 1 if until else int(move.c), d, until)
        how = "until decided" if until else f"one roll of {move.c} dice"
        return (f"attack {_name(game, dst)} ({d}) from {_name(game, src)} ({a}), {how}: P(conquer) "
                f"{odds[0]:.3f}, expected losses {odds[1]:.1f} yours, {odds[2]:.1f} theirs")
    if kind == "occupy":
        return f"move {move.a} more armies into the conquered territory"
    if kind == "fortify":
        return f"fortify: move {move.c} armies from {_name(game, move.a)} to {_name(game, move.b)}"
    return space.describe(action)  # pragma: no cover - every block is named above


def _odds(game, attackers: int, defenders: int, until: bool) -> tuple[float, float, float]:
    """(P(conquer), expected attacker losses, expected defender losses), exact: of the battle until decided
    (`riskstats.odds.battle.battle_odds`), or of one roll of ``attackers`` dice against the most the defender may
    roll (`riskstats.odds.dice.DiceRules.outcome_fractions`)."""
    from riskstats.odds.battle import battle_odds

    if until:
        odds = battle_odds(attackers, defenders, game.rules.dice)
        return float(odds.p_win), float(odds.expected_attacker_losses), float(odds.expected_defender_losses)
    p = [float(f) for f in game.rules.dice.outcome_fractions(attackers, min(defenders,
                                                                           game.rules.dice.defender_dice))]
    k = len(p) - 1  # outcome j: the attacker loses j armies, the defender k - j
    lost = sum(j * pj for j, pj in enumerate(p))
    return (p[0] if k == defenders else 0.0), lost, k - lost


def _seat(game, q: int) -> str:
    return "the neutral" if q >= game.players else f"seat {q}"


def digest(game, seat: int) -> str:
    """A plain-text digest of the board for ``seat``: its territories and armies, each continent's holder or how
    near each seat is to it, its border territories under the largest threats, and its cards."""
    st, board = game.state, game.board
    B = board.arrays
    owner, armies = st.owner, st.armies
    mine = owner == seat
    lines = [f"You hold {int(mine.sum())} territories with {int(armies[mine].sum())} armies; "
             + "; ".join(f"{_seat(game, q)}: {int((owner == q).sum())} territories, {int(armies[owner == q].sum())} "
                         "armies" for q in range(st.alive.shape[0]) if q != seat and (owner == q).any()) + "."]
    parts = []
    for k, name in enumerate(board.continents):
        inside = B.continent_of == k
        holders = np.unique(owner[inside])
        held = f"held by {'you' if holders[0] == seat else _seat(game, holders[0])}" if holders.size == 1 else \
            f"you {int((owner[inside] == seat).sum())}/{int(inside.sum())}"
        parts.append(f"{name} (+{int(B.continent_bonus[k])}): {held}")
    lines.append("Continents: " + "; ".join(parts) + ".")
    threats = []
    for t in np.flatnonzero(mine):
        enemy = [int(armies[u]) for u in B.nbr_idx[B.nbr_ptr[t]:B.nbr_ptr[t + 1]] if owner[u] != seat]
        if enemy:
            threats.append((max(enemy) - int(armies[t]), _name(game, t), int(armies[t]), max(enemy)))
    threats.sort(reverse=True)
    if threats:
        lines.append("Most threatened borders: " + "; ".join(f"{n} ({a}) faces {e}" for _, n, a, e in threats[:5])
                     + ".")
    hand = game.hand(seat)
    cards = ", ".join("wild" if B.card_territory[c] < 0 else _name(game, B.card_territory[c]) for c in hand)
    lines.append(f"Your cards ({len(hand)}): {cards or 'none'}; sets traded so far: {game.sets_traded}"
                 + (f", the next is worth {game.rules.set_values(game.sets_traded + 1)[-1]}."
                    if game.rules.escalation == "progressive" else "."))
    return "\n".join(lines)


def prompt(game, seat: int, options: list[str]) -> str:
    """The prompt of ``seat``'s decision in ``game``: who and where it is, the `digest`, and ``options``
    numbered from 1."""
    head = (f"You are seat {seat} of {game.players} ({game.rules.variant}), turn {game.turn}, phase {game.phase}."
            + (f" Armies to place: {game.reserve}." if game.reserve > 0 else ""))
    moves = "\n".join(f"{i}. {text}" for i, text in enumerate(options, 1))
    return f"{head}\n{digest(game, seat)}\nLegal moves (reply with one number):\n{moves}"


def _normal(text: str) -> str:
    return " ".join(text.lower().split())


def parse_reply(reply, options: list[str]) -> tuple[int | None, str]:
    """(index into ``options``, "") of the move a reply names, or (None, a one-line reason). A reply is a
    number (1-based, alone or the first in its text), a move's text, or JSON with one of `KEYS`; anything else,
    of any type, is a reason, never an exception."""
    if not isinstance(reply, str):
        return None, f"a reply is text, got {type(reply).__name__}"
    text = reply[:MAX_REPLY].strip()
    if not text:
        return None, "the reply is empty: give the number of a legal move"
    if text[0] in "{[":
        try:
            value = json.loads(text)
        except ValueError:
            return None, "the reply is not valid JSON: give the number of a legal move"
        if isinstance(value, dict):
            value = next((value[k] for k in KEYS if k in value), None)
        if isinstance(value, list) and len(value) == 1:
            value = value[0]
        if isinstance(value, bool) or not isinstance(value, int | str):
            return None, f"the JSON names no move: give one of the keys {', '.join(KEYS)} a move's number"
        text = str(value)
    wanted = _normal(text)
    for i, option in enumerate(options):
        if _normal(option) == wanted:
            return i, ""
    number = re.search(r"-?\d+", text)
    if number is None:
        return None, "the reply names no move: give the number of a legal move"
    k = int(number.group()) if len(number.group()) < 12 else 0
    if not 1 <= k <= len(options):
        return None, f"{number.group()[:12]} is not the number of a legal move (1 to {len(options)})"
    return k - 1, ""


class TextEnv:
    """One seat of a game played by text, the other seats by built-in bots.

    Parameters
    ----------
    players : int
        Players at the table.
    opponents : str
        The bot spec of every other seat (``"hunter"``, ``"continent-tuned"``, ...).
    seat : int
        The seat played by text.
    variant : str, optional
        ``classic``, ``two-player``, ``mission`` or ``capital`` (default: ``two-player`` for two players, else
        ``classic``).
    seed : int
        The game's seed (`reset` may give another).
    retries : int
        Bad replies allowed at one decision before the default move is played.
    max_turns : int
        The turn cap (a game reaching it ends as a draw).

    `reset` returns the first prompt; `step` takes a reply and returns (prompt, reward, done, info): the next prompt
    (the same one again after a bad reply; "" once the game is over), +1 for a win, -1 / (players - 1) for a loss,
    0 otherwise, whether the game is over, and ``info`` with ``move`` (the move played, if one was), ``error`` (a bad
    reply's reason), ``default`` (True when the default move was played) and ``winner``.

    >>> env = TextEnv(players=2, opponents="continent-tuned", seed=1)
    >>> text = env.reset()
    >>> text.splitlines()[0]
    'You are seat 0 of 2 (two-player), turn 0, phase setup_place.'
    >>> _, reward, done, info = env.step("1")
    >>> info["move"].startswith("place "), done
    (True, False)
    """

    def __init__(self, players: int = 4, *, opponents: str = "hunter", seat: int = 0, variant: str | None = None,
                 seed: int = 0, retries: int = 2, max_turns: int = 1000):
        from riskstats.game.bots.catalog import parse_bot

        self.players = check_int("players", players, 2, 6)
        self.seat = check_int("seat", seat, 0, self.players - 1)
        self.retries = check_int("retries", retries, 0, 100)
        parse_bot(opponents)  # a bad spec stops here
        self.opponents = opponents
        variant = variant or ("two-player" if self.players == 2 else "classic")
        self.rules = GameRules(variant=variant, max_turns=check_int("max_turns", max_turns, 1, 100_000))
        self.seed = seed
        self.game = None
        self._bad = 0
        self._legal, self._texts = np.zeros(0, np.int64), []

    def reset(self, seed: int | None = None) -> str:
        """Start a game (on ``seed``, default the environment's) and return the seat's first prompt."""
        self.game = Game(self.players, self.rules, seed=self.seed if seed is None else seed, log=False)
        self.space = MacroEncoding.for_game(self.game, defend="auto")
        self.pend = MacroEncoding.new_pending()
        self._bad = 0
        self._play_others()
        return self.prompt

    @property
    def options(self) -> list[str]:
        """The numbered moves of the current prompt (empty once the game is over)."""
        return list(self._texts)

    @property
    def prompt(self) -> str:
        """The current prompt ("" once the game is over)."""
        if self.game is None or self.game.over:
            return ""
        return prompt(self.game, self.seat, self._texts)

    def step(self, reply) -> tuple[str, float, bool, dict]:
        if self.game is None:
            raise RiskstatsError("step needs a running game: call reset first")
        if self.game.over:
            raise RiskstatsError("the game is over: call reset")
        legal, options = self._legal, self._texts
        index, error = parse_reply(reply, options)
        info = {"move": None, "error": error, "default": False}
        if index is None:
            self._bad += 1
            if self._bad <= self.retries:
                return prompt(self.game, self.seat, options), 0.0, False, {**info, "winner": None}
            index = next((i for i, o in enumerate(options) if o.startswith("end the ")), 0)
            info["default"] = True
        self._bad = 0
        info["move"] = options[index]
        self.space.play(self.game, int(legal[index]), self.pend)
        self._play_others()
        return self.prompt, self._reward(), bool(self.game.over), {**info, "winner": self._winner()}

    def _play_others(self) -> None:
        """The other seats' moves (and every automatic defence) until the seat is to move or the game is over; then
        the seat's legal ids and their lines, worked out once a decision (an attack's line costs its exact odds)."""
        game = self.game
        while not game.over and (game.player != self.seat or game.phase == "defend"):
            if game.phase == "defend":
                game.step(Move.defend(most_dice(game)))
            else:
                game.step(game.bot_move(self.opponents))
        self._legal = np.flatnonzero(self.space.mask(game)) if not game.over else np.zeros(0, np.int64)
        self._texts = [option_text(game, self.space, int(a)) for a in self._legal]

    def _winner(self):
        return int(self.game.winner) if self.game.over else None

    def _reward(self) -> float:
        if not self.game.over or self.game.winner < 0:
            return 0.0
        return 1.0 if self.game.winner == self.seat else -1.0 / (self.players - 1)


def first_move(prompt: str) -> str:
    """A scripted text agent (a baseline): always the first legal move."""
    return "1"


_ATTACK = re.compile(r"^(\d+)\. attack .*, until decided: P\(conquer\) ([0-9.]+)", re.MULTILINE)


def best_odds(prompt: str, at_least: float = 0.5) -> str:
    """A scripted text agent (a baseline): of the attacks offered until decided, the one with the best exact
    P(conquer), if it is at least ``at_least``; otherwise the move that ends the phase, where there is one, else the
    first move."""
    attacks = [(float(p), int(k)) for k, p in _ATTACK.findall(prompt)]
    if attacks and max(attacks)[0] >= at_least:
        return str(max(attacks, key=lambda pk: (pk[0], -pk[1]))[1])
    end = re.search(r"^(\d+)\. end the ", prompt, re.MULTILINE)
    return end.group(1) if end else "1"


BASELINES = {"first_move": first_move, "best_odds": best_odds}
"""The scripted text agents issue 55 measures, by name."""


def play_agent(agent, opponents: str = "hunter", games: int = 10, seed: int = 0, *, players: int = 2,
               transcripts=None, **env_options):
    """Play ``games`` games of ``agent`` (any callable from a prompt to a reply: a language model behind the
    user's own client, a script) in a `TextEnv` against ``opponents``, its seat rotating (game k: seat k % players)
    and game k dealt from the k-th seed of ``seed`` (the same call, the same games).

    Returns the tidy games table, one row per game: game, seed, seat, opponents, players, winner, won (1/0),
    truncated, turns, decisions, bad (replies that named no move) and defaults (default moves played); its
    ``attrs["summary"]`` is the agent's record (`record`). ``transcripts``: a path to append every decision to as a
    JSON line (game, seat, turn, phase, prompt, reply, move, error, default).
    """
    import pandas as pd

    from riskstats.game.rules.stream import splitmix64

    if not callable(agent):
        raise RiskstatsError(f"agent must be a callable from a prompt to a reply, got {agent!r}")
    games = check_int("games", games, 1)
    rows = []
    with open(transcripts, "a") if transcripts is not None else contextlib.nullcontext() as out:
        for k in range(games):
            game_seed = splitmix64(check_int("seed", seed, 0) * 1_000_003 + k) % 2**63
            env = TextEnv(players, opponents=opponents, seat=k % players, seed=game_seed, **env_options)
            text, done, decisions, bad, defaults = env.reset(), env.game.over, 0, 0, 0
            while not done:
                reply = agent(text)
                turn, phase = env.game.turn, env.game.phase
                nxt, _, done, info = env.step(reply)
                decisions += 1
                bad += bool(info["error"])
                defaults += info["default"]
                if out is not None:
                    out.write(json.dumps({"game": k, "seat": env.seat, "turn": turn, "phase": phase, "prompt": text,
                                          "reply": str(reply)[:MAX_REPLY], **{x: info[x] for x in
                                                                                ("move", "error", "default")}})
                              + "\n")
                text = nxt
            winner = int(env.game.winner)
            rows.append({"game": k, "seed": game_seed, "seat": env.seat, "opponents": opponents, "players": players,
                         "winner": winner, "won": int(winner == env.seat), "truncated": int(winner < 0),
                         "turns": int(env.game.turn), "decisions": decisions, "bad": bad, "defaults": defaults})
    table = pd.DataFrame(rows)
    table.attrs["summary"] = record(table)
    return table


def record(table) -> dict:
    """An agent's record over a `play_agent` table: games, wins, win rate with its 95% Wilson interval, the fair
    share, truncated games, replies that named no move."""
    from riskstats.intervals import wilson_interval

    games, wins = len(table), int(table["won"].sum())
    low, high = wilson_interval(wins, games)
    return {"games": games, "wins": wins, "win_rate": wins / games, "low95": low, "high95": high,
            "fair_share": 1 / int(table["players"].iloc[0]), "truncated": int(table["truncated"].sum()),
            "bad_replies": int(table["bad"].sum())}
