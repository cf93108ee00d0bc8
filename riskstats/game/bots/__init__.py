"""The built-in bots: a new bot is its module here and one line in each of five library files (below).

Each bot is a compiled policy chosen by an integer id and a float parameter vector: it looks at the state and
returns one legal move ``(kind, a, b, c, d)`` for the player to move (see `riskstats.game.rules.state`). Its
randomness comes from the game's own stream.

- `catalog`: what a bot is from the outside (name, id, description, declared parameters with their ranges,
  tuned bots, the ``name:key=value`` specs, `BotSpec`, line-ups and the parameter slots kernels read through,
  never by a bare position). It imports no numba, so the command line can read it quickly.
- one module per policy, each naming the catalogue entries it plays (``PLAYS``): `random_bot`, `uniform`, `aggressive`,
  `continent`, `defensive`, `objective` (mission and capital), and one folder, `hunter` (its rooms: chain odds and
  routes, continents, kills, setup, the move); `common` holds the kernels they share (among them the one best
  single attack, `common._best_attack_where`), and `solved_attack` the solved attack rule
  (`riskstats.odds.policy`'s frontier) that ``attack=solved`` reads.
- `dispatch`: the one dispatch from id to kernel (`_bot_move`), the defence every built-in bot plays
  (`_defend_bot`: the most dice it may, without drawing from the stream; ``uniform`` draws its own) and the
  seat's view (`_seat_view`: no bot can read another seat's mission or an unrevealed capital pick). Bots that
  don't know about capitals pick the safest own territory as capital and otherwise play as in Classic.

Adding a fast bot: write its module here with ``@inline_jit def _mybot(st, B, R, V, params)`` returning a legal move
(it is inlined into the game loop like the others; helpers that allocate nothing are `riskstats._numba.lean_jit`,
and per-move buffers come from the state's scratch memory, `riskstats.game.rules.state.SCRATCH`: the blocks from
``SC_OWN`` on are the moving bot's own), declare it with the next id, a description and its parameters in
`catalog.BUILT_IN`, read its parameters through `catalog.slot`, add one branch to `dispatch._bot_move` and a slot at
the end of the roster (`roster.SLOTS`: a line-up compiles only the bots it seats), and append its flag
(``with_<name>``, `roster.FLAGS`) to the flags that `dispatch._bot_move`, `riskstats.game.loop._play` and
`riskstats.game.drive._look_ahead` take and pass (numba prunes a bot's branch only on a kernel's own arguments, so
the flags cannot travel as one tuple; a test holds every kernel and call to `FLAGS`' order). That is the bot's
module and five library files (`catalog`, `dispatch`, `roster`, `game/loop.py`, `game/drive.py`), proven by a test
that adds a toy bot to a copy of the package (`tests/game/bots/test_roster.py`). The command line reads the names
from the catalogue. The conformance test plays every bot in every variant. The look-ahead bots (``search``,
``value``) live in `riskstats.game.search`. A bot written in Python plugs into `riskstats.game.play.Game.play`
instead (slow path).

May import: `riskstats.game.rules`, `riskstats.odds` and the foundations.
"""
