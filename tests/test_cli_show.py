"""riskstats show: a position drawn to an image file, and one-line errors."""
import json

from typer.testing import CliRunner

from riskstats.cli import app
from riskstats.game.board import classic_board

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
