"""The command line: the contract's names and JSON keys, tables, and one-line errors."""
import json
import subprocess
import sys

import pytest
from cli_helpers import run, run_json, runner

from riskstats.cli import app
from riskstats.odds.battle import battle_odds
from riskstats.odds.chain import attackers_needed, chain_odds


def test_round_json():
    out = run_json("round", 3, 2)
    assert [o["fraction"] for o in out["outcomes"]] == ["1445/3888", "2611/7776", "2275/7776"]
    assert [(o["attacker_loses"], o["defender_loses"]) for o in out["outcomes"]] == [(0, 2), (1, 1), (2, 0)]
    assert sum(o["p"] for o in out["outcomes"]) == pytest.approx(1)


def test_odds_json_keys_and_values():
    out = run_json("odds", 10, 5)
    for key in ("attackers", "defenders", "p_win", "p_lose", "expected_attacker_losses",
                "expected_defender_losses", "outcomes"):
        assert key in out
    assert "p_goal" not in out
    assert out["p_win"] == pytest.approx(battle_odds(10, 5).p_win, abs=1e-15)
    assert set(out["outcomes"][0]) == {"attackers_left", "defenders_left", "p"}
    assert sum(o["p"] for o in out["outcomes"]) == pytest.approx(1)


def test_odds_exact_prints_fractions():
    out = run_json("odds", 3, 2, "--exact")
    assert out["p_win"] == "6610505/10077696"
    assert all("/" in o["p"] for o in out["outcomes"])


def test_odds_options_reach_the_engine():
    out = run_json("odds", 10, 6, "--stop-at", 2, "--goal", 1, "--defender-sides", 8, "--ties", "attacker")
    assert out["p_goal"] == pytest.approx(
        battle_odds(10, 6, out_rules(out), stop_at=2, goal=1).p_goal, abs=1e-15)
    assert run_json("odds", 11, 5, "--territory-armies")["attackers"] == 10


def out_rules(out):
    from riskstats.odds.dice import DiceRules

    return DiceRules(**out["rules"])


def test_odds_text_states_the_convention():
    result = run("odds", 10, 5)
    assert result.exit_code == 0
    assert "armies able to roll" in result.stdout
    assert "91.6284%" in result.stdout


@pytest.mark.parametrize("fmt", ["text", "csv", "json"])
def test_table_formats(fmt):
    result = run("table", "--attackers", 4, "--defenders", 3, "--format", fmt)
    assert result.exit_code == 0
    if fmt == "csv":
        lines = result.stdout.strip().splitlines()
        assert lines[0] == "attackers,defenders,p_win" and len(lines) == 13
    elif fmt == "json":
        rows = json.loads(result.stdout)
        assert rows[7] == {"attackers": 3, "defenders": 2, "p_win": pytest.approx(0.6559539998)}
    else:
        assert "0.656" in result.stdout


def test_chain_and_need_json():
    out = run_json("chain", 10, 3, 2)
    expected = chain_odds(10, [3, 2])
    assert out["p_all"] == pytest.approx(expected.p_all)
    assert out["p_at_least"] == pytest.approx(expected.p_at_least)
    assert out["expected_armies_left"] == pytest.approx(expected.expected_armies_left)
    need = run_json("need", 5, "--p", 0.8)
    assert (need["attackers"], need["p_win"]) == (8, pytest.approx(attackers_needed(5, 0.8).p_win))
    assert run_json("need", 3, 2, "--p", 0.5)["attackers"] == attackers_needed([3, 2], 0.5).attackers


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["odds", "0", "5"], "ATTACKERS must be from 1 to 1000000, got 0"),
        (["odds", "x", "5"], "'x' is not a whole number"),
        (["odds", "5", "3", "--defender-sides", "six"], "'six' is not a whole number"),
        (["need", "5", "--p", "high"], "'high' is not a number"),
        (["odds", "5"], "Missing argument 'DEFENDERS'"),
        (["odds", "5", "3", "--attacker-dice", "4"], "--attacker-dice must be from 1 to 3, got 4"),
        (["odds", "5", "3", "--ties", "zombie"], "got 'zombie'"),
        (["odds", "5", "3", "--stop-at", "5"], "--stop-at must be below the attackers (5), got 5"),
        (["odds", "900", "900", "--exact"], "exact answers are limited"),
        (["round", "3", "3"], "defender dice must be from 1 to 2, got 3"),
        (["need", "5", "--p", "1.5"], "got 1.5"),
        (["table", "--attackers", "3", "--defenders", "3", "--format", "xml"], "got 'xml'"),
        (["bogus"], "No such command"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, needle):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0]


def test_python_dash_m_runs_the_cli():
    done = subprocess.run([sys.executable, "-m", "riskstats", "odds", "3", "2", "--json"],
                          capture_output=True, text=True, check=True)
    assert json.loads(done.stdout)["p_win"] == pytest.approx(0.6559539998)


def test_continents_and_cards_tables():
    from riskstats.analysis.continents import continent_cost

    out = run_json("continents", "--defenders", 2, "--p", 0.9)
    rows = {r["continent"]: r for r in out["continents"]}
    assert set(rows) == {"North America", "South America", "Europe", "Africa", "Asia", "Australia"}
    expected = continent_cost(defenders=2, p=0.9).set_index("continent")
    assert rows["Asia"]["attackers_needed"] == expected.loc["Asia", "attackers_needed"]
    assert rows["Australia"]["bonus_per_border"] == 2
    odds = run_json("cards", "--max-cards", 5)["odds"]
    assert [o["fraction"] for o in odds] == ["0/1", "0/1", "0/1", "200/473", "15844/19393", "1/1"]
    bad = runner.invoke(app, ["continents", "--p", "1.5"])
    assert bad.exit_code == 2 and bad.stderr.strip() == "error: --p must lie in (0, 1), got 1.5"


# ------------------------------------------------------------ the command line as parts
def test_every_command_of_every_part_is_registered_once():
    """Each part's public functions are its commands: all of them in `COMMANDS` (or the position group), once."""
    import inspect

    from riskstats import cli

    listed = [command for _, command, _ in cli.COMMANDS] + [command for _, command in cli.POSITION_COMMANDS]
    assert len(listed) == len(set(listed))
    defined = {f for part in (cli.odds, cli.game, cli.runs, cli.stats, cli.analysis)
               for name, f in inspect.getmembers(part, inspect.isfunction)
               if f.__module__ == part.__name__ and not name.startswith("_")}
    assert {getattr(f, "__wrapped__", f) for f in listed} == {getattr(f, "__wrapped__", f) for f in defined}
    names = [name for name, _, _ in cli.COMMANDS]
    assert names[:3] == ["round", "odds", "table"] and len(names) == len(set(names)) == 17


def test_start_up_loads_neither_numba_nor_pandas():
    """``import riskstats.cli`` and every command's ``--help`` stay quick: no numba, no pandas, no library part
    beyond the dice rule, the bot catalogue (the bots' names) and the foundations (errors, and how a rate and its
    interval are written)."""
    code = """if True:
        import sys
        from typer.testing import CliRunner
        from riskstats.cli import COMMANDS, app
        names = [[name] for name, _, _ in COMMANDS] + [["position", "new"], ["position", "names"], []]
        codes = {CliRunner().invoke(app, [*name, "--help"]).exit_code for name in names}
        heavy = [m for m in sys.modules if m.split(".")[0] in ("numba", "pandas", "matplotlib")]
        parts = [m for m in sys.modules if m.startswith("riskstats.") and not m.startswith("riskstats.cli")]
        print(codes, sorted(heavy), sorted(parts))"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["{0}", "[]", "['riskstats.errors',", "'riskstats.game',", "'riskstats.game.bots',",
                                   "'riskstats.game.bots.catalog',", "'riskstats.game.bots.solved_attack',",
                                   "'riskstats.intervals',", "'riskstats.odds',", "'riskstats.odds.dice']"]
