"""riskstats show: a position drawn to an image file, and one-line errors."""
import json

from typer.testing import CliRunner

from riskstats.cli import app
from riskstats.game.rules.board import classic_board

runner = CliRunner()


def write(tmp_path, pos, name="position.json"):
    path = tmp_path / name
    path.write_text(json.dumps(pos))
    return str(path)


def position():
    return {"players": 3, "phase": "attack", "player": 0, "turn": 4, "round": 2,
            "territories": {t: [i % 3, 1 + i % 6] for i, t in enumerate(classic_board().territories)}}


def test_show_writes_the_map(tmp_path):
    out = tmp_path / "map.png"
    result = runner.invoke(app, ["show", write(tmp_path, position()), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 50_000
    assert f"wrote {out}" in result.output
    svg = tmp_path / "map.svg"
    assert runner.invoke(app, ["show", write(tmp_path, position()), "--out", str(svg), "--title", "x"]).exit_code == 0
    assert "Kamchatka" in svg.read_text()


def test_show_errors_are_one_line(tmp_path):
    bad = position()
    bad["territories"].pop("Peru")
    for args, message in ((["show", str(tmp_path / "missing.json"), "--out", str(tmp_path / "m.png")],
                           "cannot read position file"),
                          (["show", write(tmp_path, position()), "--out", str(tmp_path / "m.txt")],
                           "--out must end in .png"),
                          (["show", write(tmp_path, bad, "bad.json"), "--out", str(tmp_path / "m.png")],
                           "territory 'Peru' is missing"),
                          (["show", write(tmp_path, position()), "--out", "/proc/nope/m.png"], "cannot write")):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], result.output


def test_show_prints_and_draws_whose_move_it_is(tmp_path):
    """The turn, the phase, the seat to move, its reserve and every hand's size: printed, in the map's title
    and in its legend."""
    pos = {**position(), "phase": "reinforce", "player": 1, "reserve": 5, "hands": [["Peru", "wild"], [], ["Ural"]]}
    svg = tmp_path / "map.svg"
    result = runner.invoke(app, ["show", write(tmp_path, pos), "--out", str(svg)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1:] == [
        "turn 4 (round 2): seat 1 (blue) to move, phase reinforce, reserve 5",
        "cards in hand: seat 0 (black) 2, seat 1 (blue) 0, seat 2 (green) 1"]
    drawn = svg.read_text()  # matplotlib writes each text as a comment beside its glyphs
    assert "turn 4 (round 2): seat 1 (blue) to move, phase reinforce, reserve 5" in drawn
    assert "seat 1 (blue): 14 territories, 49 armies, 0 cards (to move)" in drawn
    assert "seat 0 (black): 14 territories, 35 armies, 2 cards" in drawn


def test_show_and_evaluate_refuse_a_bad_position_with_the_same_line(tmp_path):
    """One validator (the position reader), one message: naming the territory, the bad value and the range."""
    claim = {**position(), "phase": "claim", "turn": 0, "round": 0, "setup_armies": [20, 20, 20]}
    for pos, words in (
            ({**position(), "territories": {**position()["territories"], "Peru": [7, 3]}},
             "error: invalid position: territory 'Peru': owner must be a seat from 0 to 2, got 7"),
            ({**claim, "territories": {**claim["territories"], "Peru": [-2, 0]}},
             "error: invalid position: territory 'Peru': owner must be a seat from 0 to 2, or -1 while unclaimed, "
             "got -2"),
            ({**position(), "territories": {**position()["territories"], "Peru": [1, -3]}},
             "error: invalid position: territory 'Peru': an owned territory holds at least 1 army, got -3"),
            ({**position(), "phase": None}, "error: invalid position: phase must be one of")):
        path = write(tmp_path, pos, "bad.json")
        shown = runner.invoke(app, ["show", path, "--out", str(tmp_path / "m.png")])
        evaluated = runner.invoke(app, ["evaluate", path, "--rollouts", "10"])
        assert shown.exit_code == evaluated.exit_code == 2, (shown.output, evaluated.output)
        line = shown.output.strip()
        assert "\n" not in line and line.startswith(words), line
        assert [x for x in evaluated.output.splitlines() if x.startswith("error:")] == [line]  # (a compile notice
        # on a cold cache is its own line)
