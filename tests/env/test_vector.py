"""VectorEnv plays the same games as the step API given the same actions (full or macro, the defender choosing
or defending automatically, raw or log1p observations), resets itself, and refuses illegal actions."""
import numpy as np
import pytest

from riskstats.env import VectorEnv
from riskstats.env.actions import ActionEncoding
from riskstats.env.macro import MacroEncoding
from riskstats.env.observation import ObservationLayout
from riskstats.errors import RiskstatsError
from riskstats.game.play import Game, Move
from riskstats.game.rules.options import GameRules

FIELDS = ("owner", "armies", "card_owner", "deck", "alive", "n_terr", "to_place", "info", "rng", "mission",
          "capital", "out")


@pytest.mark.parametrize("players,rules", [(4, GameRules(max_turns=6)), (2, GameRules(variant="two-player",
                                                                                      max_turns=5)),
                                           (4, GameRules(variant="mission", max_turns=8))])
def test_same_games_as_the_step_api(players, rules):
    n = 3
    venv = VectorEnv(n, players=players, rules=rules, seed=99)
    obs, info = venv.reset(seed=123)
    games = [Game(players, rules, seed=venv.game_seed(i, 0), log=False) for i in range(n)]
    enc = ActionEncoding.for_game(games[0])
    layout = ObservationLayout.for_game(games[0])
    rng = np.random.default_rng(0)
    episodes = np.zeros(n, int)
    for _ in range(1500):
        for i, g in enumerate(games):
            np.testing.assert_array_equal(info["action_mask"][i], enc.mask(g))
            assert info["seat"][i] == g.player
            np.testing.assert_array_equal(obs[i], layout.observe(g, g.player))
            state = venv.state(i)
            for f in FIELDS:
                np.testing.assert_array_equal(getattr(state, f), getattr(g.state, f), err_msg=f)
        actions = np.array([rng.choice(np.flatnonzero(info["action_mask"][i])) for i in range(n)])
        for i, g in enumerate(games):
            g.step(enc.decode(g, actions[i]))
        obs, rewards, terminations, truncations, info = venv.step(actions)
        for i, g in enumerate(games):
            assert terminations[i] == (g.over and g.winner >= 0)
            assert truncations[i] == (g.over and g.winner < 0)
            if g.over:
                if g.winner >= 0:
                    assert rewards[i, g.winner] == 1.0 and rewards[i].sum() == pytest.approx(0.0)
                else:
                    assert (rewards[i] == 0).all()
                episodes[i] += 1
                games[i] = Game(players, rules, seed=venv.game_seed(i, episodes[i]), log=False)
            else:
                assert (rewards[i] == 0).all()
    np.testing.assert_array_equal(info["episode"], episodes)
    assert episodes.sum() >= 1  # the test went through an autoreset


def test_illegal_actions_are_refused_and_nothing_moves():
    venv = VectorEnv(2, players=3, seed=1)
    obs, info = venv.reset()
    before = venv.states.info.copy()
    actions = info["action_mask"].argmax(axis=1)
    actions[1] = int(np.flatnonzero(~info["action_mask"][1])[0])
    with pytest.raises(RiskstatsError, match="env 1"):
        venv.step(actions)
    np.testing.assert_array_equal(venv.states.info, before)
    with pytest.raises(RiskstatsError, match="actions must be"):
        venv.step(np.zeros(3, int))
    with pytest.raises(RiskstatsError, match="reset"):
        VectorEnv(1).step(np.zeros(1, int))


def test_reset_with_the_same_seed_replays():
    venv = VectorEnv(4, players=4, seed=5)
    runs = []
    for _ in range(2):
        obs, info = venv.reset(seed=8)
        for _ in range(50):
            obs, *_, info = venv.step(info["action_mask"].argmax(axis=1))
        runs.append(obs.copy())
    np.testing.assert_array_equal(runs[0], runs[1])


def auto_step(game, enc, action):
    """The full encoding's step with automatic defence: the action, then the most dice if it was an attack."""
    game.step(enc.decode(game, action))
    if game.phase == "defend":
        game.step(Move.defend(game.legal_mask()["defend"][1]))


@pytest.mark.parametrize("players,rules,actions,defend", [
    (4, GameRules(max_turns=8), "macro", "auto"),
    (2, GameRules(variant="two-player", max_turns=6), "macro", "choose"),
    (3, GameRules(variant="capital", setup="deal", max_turns=6), "macro", "auto"),
    (4, GameRules(max_turns=5), "full", "auto")])
def test_same_games_as_the_python_face_with_macros_and_automatic_defence(players, rules, actions, defend):
    n = 3
    venv = VectorEnv(n, players=players, rules=rules, seed=9, actions=actions, defend=defend, observation="log1p")
    obs, info = venv.reset(seed=5)
    new_game = lambda i, k: Game(players, rules, seed=venv.game_seed(i, k), log=False)  # noqa: E731
    games = [new_game(i, 0) for i in range(n)]
    macro = actions == "macro"
    enc = MacroEncoding.for_game(games[0], defend) if macro else ActionEncoding.for_game(games[0])
    layout = ObservationLayout.for_game(games[0], "log1p")
    pends = [np.zeros(1, np.int64) for _ in range(n)]
    rng = np.random.default_rng(1)
    episodes = np.zeros(n, int)
    for _ in range(1200 if macro else 1500):
        for i, g in enumerate(games):
            np.testing.assert_array_equal(info["action_mask"][i], enc.mask(g))
            assert info["seat"][i] == g.player and g.phase != ("defend" if defend == "auto" else "")
            np.testing.assert_allclose(obs[i], layout.observe(g, g.player), rtol=1e-6)
            state = venv.state(i)
            for f in FIELDS:
                np.testing.assert_array_equal(getattr(state, f), getattr(g.state, f), err_msg=f)
            assert venv.pending[i] == pends[i][0]
        actions_now = np.array([rng.choice(np.flatnonzero(info["action_mask"][i])) for i in range(n)])
        for i, g in enumerate(games):
            if macro:
                enc.play(g, actions_now[i], pends[i])
            elif defend == "auto":
                auto_step(g, enc, actions_now[i])
        obs, rewards, terminations, truncations, info = venv.step(actions_now)
        for i, g in enumerate(games):
            assert terminations[i] == (g.over and g.winner >= 0) and truncations[i] == (g.over and g.winner < 0)
            if g.over:
                episodes[i] += 1
                games[i] = new_game(i, episodes[i])
                pends[i][0] = 0
    np.testing.assert_array_equal(info["episode"], episodes)
    assert episodes.sum() >= 1
