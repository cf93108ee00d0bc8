"""The bot catalogue and the name:key=value syntax (riskstats.game.bots.catalog)."""
import inspect
import json
import re
from pathlib import Path

import numpy as np
import pytest

from riskstats.errors import RiskstatsError
from riskstats.game.bots.catalog import (
    BOTS,
    BUILT_IN,
    CATALOG,
    N_PARAMS,
    STYLE,
    TUNED,
    bot_spec,
    catalog_rows,
    check_lineup,
    full_spec,
    lineup_specs,
    parse_bot,
    seat_entries,
)

DATA = Path(__file__).resolve().parents[3] / "data" / "tuned_bots" / "tuned_bots.json"


def test_every_bot_declares_its_parameters():
    ids = [info.id for info in BUILT_IN.values()]
    assert ids == list(range(len(BUILT_IN)))  # one compiled policy each, in order
    for name, info in CATALOG.items():
        assert info.description and len(info.params) <= N_PARAMS, name
        assert len({p.name for p in info.params}) == len(info.params), name
        for p in info.params:
            assert p.low <= p.default <= p.high and p.meaning, (name, p.name)
        assert BOTS[name] == (info.id, info.defaults)


def test_bot_spec_gives_the_id_and_the_vector():
    bot_id, vector = bot_spec("defensive")
    assert bot_id == 3 and vector.tolist() == [0.8, 1.0, 0.97, 5.0] + [0.0] * (N_PARAMS - 4)
    assert bot_spec("aggressive", [0.7])[1][0] == 0.7


def test_spec_sets_parameters_by_name():
    spec = parse_bot(" continent : card_threshold=0.8 : threshold = 0.6 ")
    assert spec.name == "continent" and spec.id == 2
    values = (0.6, 0.8, 2.0, -1.0, 3.0, 0.0, 4.0, 1.0, 0.0, 0.0, 0.0, 0.0)
    assert spec.values == values and spec.given == ("threshold", "card_threshold")
    assert spec.label == "continent:threshold=0.6:card_threshold=0.8"  # declared order, canonical numbers
    np.testing.assert_array_equal(spec.vector(), list(values) + [0.0] * (N_PARAMS - 12))
    assert parse_bot("defensive:max_conquests=3.0").label == "defensive:max_conquests=3"
    assert parse_bot("continent").label == "continent"


def test_overrides_apply_in_order_and_the_spec_last():
    spec = parse_bot("continent:threshold=0.6", [0.1, 0.2, 3.0], {"card_threshold": 0.9, "threshold": 0.3})
    assert spec.values == (0.6, 0.9, 3.0, -1.0, 3.0, 0.0, 4.0, 1.0, 0.0, 0.0, 0.0, 0.0)


@pytest.mark.parametrize("text, message", [
    ("wizard", "unknown bot 'wizard'"),
    ("continent:treshold=0.6", "unknown parameter 'treshold' of bot 'continent'"),
    ("continent:threshold=1.5", r"threshold=1.5 of bot 'continent' is out of range \[0, 1\]"),
    ("continent:threshold=-0.1", "out of range"),
    ("continent:threshold=nan", "out of range"),
    ("continent:threshold=high", "threshold of bot 'continent' must be a number, got 'high'"),
    ("continent:threshold", "must be written key=value"),
    ("continent:=0.5", "must be written key=value"),
    ("continent:threshold=0.5:threshold=0.6", "given twice"),
    ("defensive:max_conquests=1.5", "max_conquests of bot 'defensive' must be a whole number"),
    ("aggressive:p_stop=0.1", "unknown parameter 'p_stop' of bot 'aggressive'; its parameters: threshold"),
    ("aggressive:trade_at=2", r"trade_at=2 of bot 'aggressive' is out of range \[3, 6\]"),
    ("continent:trade_at=4.5", "trade_at of bot 'continent' must be a whole number"),
])
def test_bad_specs_name_the_problem(text, message):
    with pytest.raises(RiskstatsError, match=message) as error:
        parse_bot(text)
    assert "\n" not in str(error.value)


def test_lineup_labels_and_params_tables():
    assert check_lineup("continent:threshold=0.60, aggressive") == ("continent:threshold=0.6", "aggressive")
    specs = lineup_specs(["continent", "continent:threshold=0.6"],
                         {"continent": {"card_threshold": 0.9}, "continent:threshold=0.6": {"entrance_weight": 1}})
    assert [s.values for s in specs] == [(0.5, 0.9, 2.0, -1.0, 3.0, 0.0, 4.0, 1.0, 0.0, 0.0, 0.0, 0.0),
                                         (0.6, 0.9, 1.0, -1.0, 3.0, 0.0, 4.0, 1.0, 0.0, 0.0, 0.0, 0.0)]
    with pytest.raises(RiskstatsError, match="not playing: defensive"):
        lineup_specs("continent", {"defensive": [0.5, 1, 0.9]})
    older = lineup_specs("continent", {"continent": [0.6, 0.9, 1.0]})[0]  # lists written before later parameters
    assert older.values == (0.6, 0.9, 1.0, -1.0, 3.0, 0.0, 4.0, 1.0, 0.0, 0.0, 0.0, 0.0)
    nine = lineup_specs("continent", {"continent": [0.5, 0.9, 2.0, -1.0, 3.0, 0.0, 4.0, 1.0, 0.0]})[0]
    assert nine.values[9:] == (0.0, 0.0, 0.0)  # a vector from before the placement parameters keeps its meaning
    with pytest.raises(RiskstatsError, match="takes up to 12 parameters, got 13"):
        lineup_specs("continent", {"continent": [0.5, 0.9, 2.0, -1.0, 3.0, 0.0, 4.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]})
    with pytest.raises(RiskstatsError, match="at least one bot"):
        lineup_specs(" , ")


def test_a_line_up_fills_its_seats_and_never_has_more_bots_than_seats():
    """Fewer bots than seats are repeated in order; more is an error naming both counts (issue 32)."""
    assert seat_entries(["continent", "aggressive"], 4) == ["continent", "aggressive", "continent", "aggressive"]
    assert check_lineup("continent,aggressive,defensive", seats=3) == ("continent", "aggressive", "defensive")
    six = "continent,aggressive,defensive,random,value,search"
    with pytest.raises(RiskstatsError, match=r"^6 bots for 4 seats: continent, aggressive, .*search") as error:
        check_lineup(six, seats=4)
    assert "\n" not in str(error.value)
    with pytest.raises(RiskstatsError, match="3 bots for 2 seats"):
        seat_entries([("continent", None), "aggressive", lambda game: None], 2)
    with pytest.raises(RiskstatsError, match="at least one bot"):
        seat_entries([], 3)


def test_full_spec_writes_every_value():
    spec = full_spec("defensive:threshold=0.7", {"max_conquests": 2})
    assert spec.label == ("defensive:threshold=0.7:max_conquests=2:sure_threshold=0.97:trade_at=5:fortify=border:"
                          "reinforce=stack:claim=greedy")
    assert parse_bot(spec.label).values == spec.values


def test_catalog_rows_are_json():
    rows = json.loads(json.dumps(catalog_rows()))
    assert [r["name"] for r in rows] == list(CATALOG)
    continent = rows[list(CATALOG).index("continent")]
    assert continent["params"][2] == {"name": "entrance_weight", "default": 2.0, "low": 0.0, "high": 10.0,
                                      "integer": False, "meaning": continent["params"][2]["meaning"]}


def test_tuned_bots_match_their_record():
    record = json.loads(DATA.read_text())
    assert set(record) == set(TUNED)
    for name, (base, values) in TUNED.items():
        info = CATALOG[name]
        assert info.base == base and info.id == BUILT_IN[base].id
        assert record[name]["base"] == base and record[name]["params"] == values
        assert info.defaults == tuple(values.get(p.name, p.default) for p in BUILT_IN[base].params)
        assert parse_bot(name).label == name


def test_every_trading_bot_times_its_trades_with_its_last_parameter():
    """trade_at was appended last, with each bot's old behaviour as its default (vectors written before it
    keep their meaning): the aggressive kind trades at once (3), the defensive bot only when forced (5). Since
    then the continent bot has had parameters appended after it (attack, value, kill, again), and it, the
    aggressive and the defensive bot the placement parameters (fortify, reinforce, claim; issue 19 §4),
    none of them tunable, each 0 by default (the old play)."""
    after = {"continent": ["attack", "value", "kill", "again", *STYLE], "aggressive": list(STYLE),
             "defensive": list(STYLE)}
    for name, default in (("aggressive", 3), ("continent", 3), ("defensive", 5), ("mission", 3), ("capital", 3)):
        names = [p.name for p in BUILT_IN[name].params]
        at = names.index("trade_at")
        assert names[at + 1:] == after.get(name, []), name
        trade_at = BUILT_IN[name].params[at]
        assert trade_at.default == default and trade_at.integer and trade_at.tunable, name
        assert all(not p.tunable for p in BUILT_IN[name].params[at + 1:]), name
    assert "trade_at" not in {p.name for p in BUILT_IN["random"].params}
    assert CATALOG["continent-tuned"].defaults[4] == 3


def test_a_continent_parameter_is_given_and_shown_by_name():
    """``continent:first=Australia`` is ``first=5`` (the classic board's order, aliases too); reports name it."""
    from riskstats.game.bots.catalog import params_text

    assert parse_bot("continent:first=Australia") == parse_bot("continent:first=5")
    assert parse_bot("continent", {"first": "Oceania"}).values[3] == 5.0
    assert parse_bot("continent-tuned:first=South America").values[3] == 1.0
    with pytest.raises(RiskstatsError, match="unknown continent 'Australa'.*did you mean 'Australia'"):
        parse_bot("continent:first=Australa")
    with pytest.raises(RiskstatsError, match="threshold of bot 'continent' must be a number"):
        parse_bot("continent:threshold=Australia")
    assert params_text("continent", [0.5, 0.75, 2.0, 5]) == "first=Australia"
    # -1 is the bot's own choice: written first=own, as the user would say it (issue 42, item 5), and read back
    assert params_text("continent", [0.5, 0.75, 2.0, -1], keys=["first"]) == "first=own"
    assert parse_bot("continent:first=own") == parse_bot("continent:first=-1")
    assert parse_bot("value", {"first": "own"}).values == parse_bot("value").values
    assert params_text("continent", [0.6, 0.75, 2.0, 1, 4]) == "threshold=0.6:first=South America:trade_at=4"
    assert params_text("aggressive", [0.5]) == "defaults"


def test_kernels_read_parameters_by_name_not_position():
    """A kernel reads ``params[CONTINENT_FIRST]``, never ``params[3]``: inserting or reordering a declared
    parameter then cannot silently change what a bot plays (the slots follow the declarations)."""
    import re

    from riskstats.game.bots import catalog as registry

    for path in sorted(Path(registry.__file__).parent.rglob("*.py")):
        assert not re.findall(r"(?<![.\w])params\[\d", path.read_text()), path.name
    assert registry.slot("continent", "first") == 3 == registry.CONTINENT_FIRST
    with pytest.raises(ValueError):
        registry.slot("continent", "nonesuch")


def test_the_catalogue_is_built_from_the_folder():
    """A bot touches only `riskstats.game.bots`: every policy module there names the catalogue entries it plays,
    each heuristic entry of the catalogue is played by exactly one of them, through the one dispatch, and reads
    only the parameters it declares."""
    import importlib
    import pkgutil

    from riskstats.game import bots
    from riskstats.game.bots import dispatch
    from riskstats.game.search import LOOKAHEAD_IDS

    played = {}
    for module in pkgutil.iter_modules(bots.__path__):
        policy = importlib.import_module(f"riskstats.game.bots.{module.name}")
        for name in getattr(policy, "PLAYS", ()):
            assert name not in played, name
            played[name] = policy
    heuristic = {name for name, info in BUILT_IN.items() if info.id not in LOOKAHEAD_IDS}
    assert set(played) == heuristic
    branches = inspect.getsource(dispatch._bot_move.py_func)
    for name, policy in played.items():
        kernel = f"_{name}_bot"
        assert hasattr(policy, kernel), kernel
        assert kernel in branches, name
        declared = {p.name for p in BUILT_IN[name].params}
        for slot_name in re.findall(rf'slot\("{name}", "(\w+)"\)', inspect.getsource(bots.catalog)):
            assert slot_name in declared, (name, slot_name)


# ---------------------------------------------------------------- the line-up
def test_a_lineup_turns_into_the_kernels_arrays_seat_by_seat():
    from riskstats.game.bots.catalog import Lineup

    lineup = Lineup.parse("continent:threshold=0.6,aggressive", {"aggressive": {"threshold": 0.7}})
    assert lineup.labels == ("continent:threshold=0.6", "aggressive")
    for rotate in range(4):
        ids, params = lineup.arrays(3, rotate)
        seated = lineup.seated(3, rotate)
        assert ids.tolist() == [s.id for s in seated]
        assert np.array_equal(params, np.array([s.vector() for s in seated]))
        assert [s.label for s in seated] == [lineup.labels[(k + rotate) % 3 % 2] for k in range(3)]
    ids, params = Lineup.of(["random", None, ("continent", {"threshold": 0.5})]).arrays(3, rows=4)
    assert ids.tolist() == [CATALOG["random"].id, -1, CATALOG["continent"].id, -1]
    assert params.shape == (4, N_PARAMS) and not params[[1, 3]].any() and params[2, 0] == 0.5
    assert Lineup(()).arrays(0, rows=3)[0].tolist() == [-1, -1, -1]
    with pytest.raises(RiskstatsError, match="3 bots for 2 seats"):
        Lineup.parse("random,random,random").arrays(2)


def test_the_lineup_is_turned_into_arrays_in_the_catalogue_alone():
    """No caller builds (ids, params) from specs itself: `Lineup.arrays` does (a single bot's `bot_spec` aside)."""
    package = Path(__file__).resolve().parents[3] / "riskstats"
    found = [f"{p.relative_to(package)}:{m.group(0)}" for p in package.rglob("*.py") if p.name != "catalog.py"
             for m in re.finditer(r"\.vector\(\) for|_bot_arrays|\bbot_spec\(entry|\[s\], \w+\[s\] = bot_spec",
                                  p.read_text())]
    assert not found
