"""scripts/outside/target_model.py on synthetic records whose AIs pick their target by a known logit: the fit
recovers the coefficients within their clustered intervals, finds no bot effect where there is none, and finds
one where the bot's seat is attacked more than its position says."""
import gzip
import importlib.util
import json
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("target_model", ROOT / "scripts" / "outside" / "target_model.py")
T = importlib.util.module_from_spec(spec)
spec.loader.exec_module(T)

TRUE = {"territories": 1.4, "armies": -0.8, "cards": 0.0, "continents": 0.3}


def _records(path: Path, bot: str, games: int, seed: int, bot_effect: float = 0.0) -> Path:
    """Four-player records, seat 0 measured: every AI turn of rounds 1-9 starts with random territories (summing
    to 42), armies, cards and continents, and attacks one seat drawn from the logit `TRUE` (plus ``bot_effect``
    on seat 0 when it is a riskstats bot)."""
    rng = np.random.default_rng(seed)
    with gzip.open(path, "wt") as f:
        for g in range(games):
            starts, attacks = [], []
            for r in range(1, 10):
                for a in (1, 2, 3):
                    turn = r * 4 + 1 + a
                    terr = rng.multinomial(42 - 4, [0.25] * 4) + 1
                    armies = terr + rng.integers(0, 15, 4)
                    cards = rng.integers(0, 5, 4)
                    continents = [int(rng.integers(-1, 4)) for _ in range(6)]
                    starts.append([a, turn, terr.tolist(), armies.tolist(), cards.tolist(), continents, [0, 0, 0, 0]])
                    alts = [j for j in range(4) if j != a]
                    u = np.array([TRUE["territories"] * terr[j] * 4 / 42 + TRUE["armies"] * armies[j] * 4 / armies.sum()
                                  + TRUE["cards"] * cards[j] + TRUE["continents"] * continents.count(j)
                                  + (bot_effect if j == 0 and bot != "domination:hard" else 0.0) for j in alts])
                    p = np.exp(u) / np.exp(u).sum()
                    attacks.append([a, 5, 1, alts[rng.choice(3, p=p)], turn])
            f.write(json.dumps({"game": g, "players": 4, "measured": 0, "bot": bot, "starts": starts,
                                "attacks": attacks}) + "\n")
    return path


def _fit(paths):
    df = T.choices(paths, (2, 8))
    features = [f for f in T.FEATURES if df[f].nunique() > 1]
    res = T.fit(df, features)
    se = np.sqrt(np.diag(T.clustered_cov(df, features, res)))
    return dict(zip(features, np.asarray(res.params))), dict(zip(features, se)), df


def test_recovers_the_logit_and_no_bot_effect(tmp_path):
    coef, se, df = _fit([_records(tmp_path / "bot.jsonl.gz", "hunter", 150, 1),
                         _records(tmp_path / "control.jsonl.gz", "domination:hard", 150, 2)])
    assert df["choice"].nunique() == 300 * 7 * 3  # one choice per AI turn of rounds 2-8
    for name, value in TRUE.items():
        assert abs(coef[name] - value) < 3 * se[name], (name, coef[name], se[name])
    assert abs(coef["bot"]) < 3 * se["bot"]
    assert 0.02 < se["territories"] < 0.5


def test_finds_a_bot_effect(tmp_path):
    coef, se, _ = _fit([_records(tmp_path / "bot.jsonl.gz", "hunter", 150, 3, bot_effect=0.6),
                        _records(tmp_path / "control.jsonl.gz", "domination:hard", 150, 4)])
    assert coef["bot"] - 3 * se["bot"] > 0.2


def test_main_writes_the_tables(tmp_path, capsys):
    a = _records(tmp_path / "bot.jsonl.gz", "hunter", 40, 5)
    b = _records(tmp_path / "control.jsonl.gz", "domination:hard", 40, 6)
    T.main([str(a), str(b), "--out", str(tmp_path / "out")])
    import pandas as pd

    cal = pd.read_csv(tmp_path / "out" / "calibration.csv")
    assert (abs(cal["fitted"] - cal["observed"]) < 0.1).all()
    meas = pd.read_csv(tmp_path / "out" / "measured.csv")
    assert set(meas["file"]) == {"bot.jsonl.gz", "control.jsonl.gz"}
    assert "pseudo-R²" in capsys.readouterr().out


def test_bad_rounds_are_a_one_line_error(tmp_path, capsys):
    import pytest

    a = _records(tmp_path / "bot.jsonl.gz", "hunter", 2, 7)
    for bad in ("2", "8-2", "two-eight"):
        with pytest.raises(SystemExit) as stop:
            T.main([str(a), "--rounds", bad])
        assert stop.value.code == 2 and f"got {bad!r}" in capsys.readouterr().err
