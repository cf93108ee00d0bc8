"""Self-play: the table contract, seat rotation, thread independence, summaries."""
import os

import numba
import pandas as pd
import pytest

from riskstats.errors import RiskstatsError
from riskstats.game.play import play_game
from riskstats.game.rules.options import GameRules
from riskstats.intervals import wilson_interval
from riskstats.runs.selfplay import play_games
from riskstats.stats.report import summary

COLUMNS = ["game", "seed", "variant", "players", "bots", "winner", "winner_bot", "turns", "rounds",
           "truncated", "win_reason"]


def test_table_contract_and_rotation():
    table = play_games(8, 4, "random,aggressive", seed=5)
    assert list(table.columns[:11]) == COLUMNS
    assert table["bots"][0] == "random,aggressive,random,aggressive"
    assert table["bots"][1] == "aggressive,random,aggressive,random"
    won = table[~table.truncated]
    assert all(row.bots.split(",")[row.winner] == row.winner_bot for row in won.itertuples())
    assert (table.truncated == (table.winner == -1)).all()
    assert table.attrs["rules"]["rules"]["variant"] == "classic"


def test_rows_replay_as_single_games():
    table = play_games(3, 3, ["aggressive", "continent", "defensive"], seed=2)
    for row in table.itertuples():
        game = play_game(3, row.bots.split(","), seed=int(row.seed), log=False)
        assert (game.winner, game.turn, game.round) == (row.winner, row.turns, row.rounds)


def test_same_table_whatever_the_thread_count():
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = play_games(40, 4, ["random", "aggressive", "continent", "defensive"], seed=3)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = play_games(40, 4, ["random", "aggressive", "continent", "defensive"], seed=3)
    finally:
        numba.set_num_threads(threads)
    pd.testing.assert_frame_equal(one, many)


def test_same_table_whatever_the_calls_it_is_played_in(monkeypatch):
    """Played in short calls (`riskstats.pieces`) for Ctrl-C's sake: one game a call (each call rotating the
    line-up from its first game) gives the same table as calls growing freely."""
    from riskstats import pieces

    lineup = ["random", "aggressive", "continent"]
    free = play_games(14, 4, lineup, seed=6, first=5)
    monkeypatch.setattr(pieces, "PIECE_SECONDS", 0.0)
    pd.testing.assert_frame_equal(play_games(14, 4, lineup, seed=6, first=5), free)


def test_two_player_variant():
    table = play_games(10, 2, ["aggressive", "defensive"], variant="two-player", seed=1)
    assert set(table.win_reason) <= {"opponent_eliminated", "turn_cap"}


@pytest.mark.parametrize("kwargs, message", [
    ({"bots": "aggressive,wizard"}, "unknown bot"),
    ({"variant": "risk2210"}, "variant"),
    ({"games": 0}, "games"),
    ({"players": 9}, "players"),
    ({"params": {"random": (1, 2, 3)}}, "parameters"),
    ({"bots": "continent,aggressive,defensive,random,value,search"}, "^6 bots for 4 seats: continent, "),
    ({"bots": "random,aggressive,continent", "players": 2}, "^3 bots for 2 seats"),
])
def test_bad_options(kwargs, message):
    args = {"games": 2, "players": 4, "bots": "random"} | kwargs
    with pytest.raises(RiskstatsError, match=message):
        play_games(**args)


def test_summary_and_wilson_interval():
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    result = summary(play_games(12, 3, "aggressive,defensive,continent", seed=0))
    assert sum(b["wins"] for b in result["bots"].values()) + result["truncated"] == 12


@pytest.mark.parametrize("variant, players, bots", [("classic", 4, ["aggressive", "continent", "defensive"]),
                                                    ("mission", 4, ["mission"]),
                                                    ("two-player", 2, ["aggressive", "continent"])])
def test_places_are_the_finishing_order(variant, players, bots):
    table = play_games(30, players, bots, variant=variant, seed=4)
    for row in table.itertuples():
        places = [int(p) for p in row.places.split(",")]
        game = play_game(players, row.bots.split(","), GameRules(variant=variant), seed=int(row.seed))
        log = game.events()
        out = [s for s in log[log.eliminated >= 0].eliminated if s < players]  # players knocked out, in order
        assert [places[s] for s in out] == list(range(players, players - len(out), -1))
        if row.winner >= 0:
            assert places[row.winner] == 1 and places.count(1) == 1
        survivors = [s for s in range(players) if s not in out]
        assert all(places[s] == (1 if s == row.winner or row.winner < 0 else 2) for s in survivors)
    if variant == "mission":
        assert all(len(m.split(",")) == players for m in table.missions)


def test_scheme_two_seeds_are_worked_out_per_chunk():
    import tracemalloc

    import numpy as np

    from riskstats.runs.selfplay import SEED_BLOCK, game_seeds

    run = game_seeds(5, 2 * SEED_BLOCK + 10)
    for start, stop in [(0, 7), (SEED_BLOCK - 3, SEED_BLOCK + 4), (SEED_BLOCK, 2 * SEED_BLOCK),
                        (2 * SEED_BLOCK - 1, 2 * SEED_BLOCK + 10), (9, 9)]:
        assert (game_seeds(5, stop, start) == run[start:stop]).all()
    assert len(np.unique(run)) == len(run)
    # block 0 is scheme 1's: runs of up to SEED_BLOCK games keep their games; later blocks are children
    assert (run[:SEED_BLOCK] == game_seeds(5, SEED_BLOCK, scheme=1)).all()
    assert (run[SEED_BLOCK:2 * SEED_BLOCK] == np.random.SeedSequence(5, spawn_key=(1,)).generate_state(
        SEED_BLOCK, np.uint64)).all()
    assert not (run[SEED_BLOCK:] == game_seeds(5, len(run), scheme=1)[SEED_BLOCK:]).any()
    # the last games of a 10^8-game run, without a run-sized array (scheme 1 would hold 800 MB)
    tracemalloc.start()
    last = game_seeds(5, 10**8, 10**8 - 3)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert len(last) == 3 and peak < 4 * 2**20  # one block at most (512 KB, and its 32-bit words)
    with pytest.raises(RiskstatsError, match="unknown seed scheme 3"):
        game_seeds(5, 10, scheme=3)
    with pytest.raises(RiskstatsError, match="unknown seed scheme 0"):
        play_games(2, 3, "random", seed_scheme=0)


def test_chunks_across_a_seed_block_play_the_games_of_their_seeds():
    from riskstats.runs.selfplay import SEED_BLOCK, game_seeds

    table = play_games(4, 3, ["aggressive", "continent", "defensive"], seed=4, first=SEED_BLOCK - 2)
    assert table["game"].tolist() == list(range(SEED_BLOCK - 2, SEED_BLOCK + 2))
    assert (table["seed"].to_numpy() == game_seeds(4, SEED_BLOCK + 2, SEED_BLOCK - 2)).all()
    assert table["bots"][0] == ["aggressive,continent,defensive", "continent,defensive,aggressive",
                                "defensive,aggressive,continent"][(SEED_BLOCK - 2) % 3]
    old = play_games(4, 3, ["aggressive", "continent", "defensive"], seed=4, first=SEED_BLOCK - 2, seed_scheme=1)
    assert (old["seed"][:2] == table["seed"][:2]).all() and (old["seed"][2:] != table["seed"][2:]).all()
    for row in table[1:3].itertuples():
        game = play_game(3, row.bots.split(","), seed=int(row.seed), log=False)
        assert (game.winner, game.turn, game.round) == (row.winner, row.turns, row.rounds)


def test_logged_games_are_the_same_games():
    plain = play_games(6, 4, "random,aggressive,continent,defensive", seed=5)
    logged, events = play_games(6, 4, "random,aggressive,continent,defensive", seed=5, log=True)
    pd.testing.assert_frame_equal(plain.drop(columns="rules"), logged.drop(columns="rules"))
    assert sorted(events.game.unique()) == plain.game.tolist()


def compiled_code(kernel, arg: int) -> list[bytes]:
    """The object code of each of ``kernel``'s compiled versions whose roster (argument ``arg``) seats no
    look-ahead bot. A worker may hold several (other tests' line-ups compiled their own rosters earlier in the same
    process): every one of them is read. Versions loaded from numba's cache keep no object code; if no version has
    any, the test is skipped."""
    from numba.core import types

    from riskstats.game.bots.roster import ROSTER_SEARCH

    codes, versions = [], [c for sig, c in kernel.overloads.items()
                            if isinstance(sig[arg].types[ROSTER_SEARCH], types.NoneType)]
    assert versions, f"{kernel.__name__} holds no version without a look-ahead seat: the test did not call it"
    for cres in versions:
        try:
            codes.append(cres.library._get_compiled_object())
        except RuntimeError:  # loaded from numba's cache (another test process compiled it)
            pass
    if not codes:
        if os.environ.get("RISKSTATS_COLD_CACHE"):  # .ci/run's fresh-cache step: the check must run, not skip
            pytest.fail("RISKSTATS_COLD_CACHE is set, yet the kernel was loaded from a cache")
        pytest.skip("every such kernel was loaded from the cache, which keeps no object code to read")
    return codes


@pytest.mark.compile_events
def test_selfplay_without_a_search_seat_compiles_no_search_code():
    """The search branch is pruned for a line-up with no search seat: nothing of the search bot is in any
    compiled self-play without a look-ahead seat (compiling it would take a minute more on a first run), however
    many such versions the worker holds."""
    from riskstats.game.bots.roster import full_rosters
    from riskstats.runs.selfplay import _selfplay

    with full_rosters(False):
        play_games(2, 3, ["random", "aggressive"], seed=1)
    for code in compiled_code(_selfplay, 8):
        assert b"riskstats" in code and b"_play_search" not in code and b"_search_plan" not in code


def test_a_checked_batch_carries_its_specs_and_is_played_without_parsing_again(monkeypatch):
    """The line-up is parsed once, by `check_games`: the batch carries the checked `BotSpec` s to the kernel, so
    playing its chunks parses no spec again (a parser that fails would show it)."""
    from riskstats.game.bots import catalog as registry
    from riskstats.runs.selfplay import check_games, play_batch

    batch = check_games(4, 3, "continent:threshold=0.6,aggressive", seed=2)
    assert [s.label for s in batch.specs] == list(batch.bots) == ["continent:threshold=0.6", "aggressive"]

    def no_parsing(*args, **kwargs):
        raise AssertionError("a spec was parsed again")

    monkeypatch.setattr(registry, "parse_bot", no_parsing)
    table = play_batch(batch, first=1, games=2)
    assert table["bots"].tolist() == ["aggressive,continent:threshold=0.6,continent:threshold=0.6",
                                      "continent:threshold=0.6,continent:threshold=0.6,aggressive"]
