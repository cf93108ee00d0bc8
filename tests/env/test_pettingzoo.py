"""The PettingZoo AEC environment passes PettingZoo's own api_test and seed_test (with either action space and
defence); rewards and ends."""
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from riskstats.env.pettingzoo import env, raw_env
from riskstats.errors import RiskstatsError
from riskstats.game.rules.options import GameRules

DICT_OBSERVATION = [
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be gymnasium.spaces.box:UserWarning",
]
"""The two warnings api_test gives every environment whose observation is a Dict with an ``action_mask`` unless it
is one of PettingZoo's own (its allow-lists ``env_obs_dicts`` and ``env_obs_space`` hold their names): the layout
of PettingZoo's classic games, which `test_the_observation_is_a_dict_of_boxes_with_the_action_mask` checks
instead. Any other warning api_test gives still shows (issue 42, item 8)."""


def test_the_observation_is_a_dict_of_boxes_with_the_action_mask():
    """The observation PettingZoo's classic games give and api_test reads: a Dict of an ``observation`` Box and
    an ``action_mask`` Box of 0/1, each observed as a NumPy array in its space."""
    from gymnasium import spaces

    e = env(players=3)
    e.reset(seed=1)
    space = e.observation_space("player_0")
    assert isinstance(space, spaces.Dict) and set(space.spaces) == {"observation", "action_mask"}
    assert all(isinstance(box, spaces.Box) for box in space.spaces.values())
    observation = e.observe("player_0")
    assert all(isinstance(observation[k], np.ndarray) for k in space.spaces) and space.contains(observation)
    assert set(np.unique(observation["action_mask"])) <= {0, 1} and observation["action_mask"].any()


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.filterwarnings(*DICT_OBSERVATION)
def test_pettingzoo_api_test(players):
    api_test(env(players=players), num_cycles=300)


@pytest.mark.filterwarnings(*DICT_OBSERVATION)
def test_pettingzoo_api_test_with_the_defaults():
    """Issue 55: PettingZoo's own check with no option given, as its test suite runs it (1.5 s, 179 MB measured)."""
    api_test(env(), num_cycles=1000)


@pytest.mark.parametrize("players,defend", [(2, "auto"), (4, "choose")])
@pytest.mark.filterwarnings(*DICT_OBSERVATION)
def test_pettingzoo_api_test_with_macro_actions(players, defend):
    e = env(players=players, actions="macro", defend=defend, observation="log1p")
    assert e.action_space("player_0").n == (629 if defend == "auto" else 631)
    api_test(e, num_cycles=300)


def test_pettingzoo_seed_test_with_macro_actions():
    seed_test(lambda: env(players=3, actions="macro", defend="auto"), num_cycles=200)


def test_a_random_macro_game_ends_and_auto_defence_asks_no_defender():
    for actions in ("macro", "full"):
        e = env(players=2, actions=actions, defend="auto")
        e.reset(seed=4)
        rng = np.random.default_rng(4)
        steps = 0
        for _agent in e.agent_iter(200_000):
            obs, reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            assert e.unwrapped.game.phase != "defend"
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
            if actions == "full" and steps > 3000:
                break
        if actions == "macro":
            assert e.agents == [] and info["reason"] == "opponent_eliminated"


@pytest.mark.parametrize("variant", ["classic", "mission"])
def test_pettingzoo_seed_test(variant):
    seed_test(lambda: env(players=4, variant=variant), num_cycles=200)


def test_turn_cap_truncates_with_no_reward():
    e = env(players=3, rules=GameRules(max_turns=4))
    seen = {}
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    for agent in e.agent_iter(50_000):
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            seen[agent] = (reward, terminated, truncated, info["reason"])
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert seen == {f"player_{i}": (0.0, False, True, "turn_cap") for i in range(3)}
    assert e.agents == []


def test_a_won_game_pays_the_winner_and_sums_to_zero():
    e = env(players=4, variant="mission")
    e.reset(seed=1)  # a random game won by a mission after some 1,650 moves
    rng = np.random.default_rng(1)
    final = {}
    for agent in e.agent_iter(200_000):
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            final[agent] = reward
            assert terminated and not truncated and info["reason"] == "mission"
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert len(final) == 4
    assert sorted(final.values()) == pytest.approx([-1 / 3] * 3 + [1.0])
    assert sum(final.values()) == pytest.approx(0.0)


def test_only_the_agent_to_move_has_a_mask_and_illegal_actions_raise():
    e = raw_env(players=4)
    e.reset(seed=0)
    others = [a for a in e.agents if a != e.agent_selection]
    assert all(e.observe(a)["action_mask"].sum() == 0 for a in others)
    illegal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(RiskstatsError, match="not legal"):
        e.step(illegal)


def test_render_ansi_and_bad_render_mode():
    e = raw_env(players=2, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert text.startswith("turn 0") and "North America" in text
    with pytest.raises(RiskstatsError, match="render_mode"):
        raw_env(render_mode="rgb")


def test_a_bad_option_is_one_line_naming_it():
    with pytest.raises(RiskstatsError, match="^actions must be one of full, macro, got 'micro'$"):
        raw_env(actions="micro")
    with pytest.raises(RiskstatsError, match="^observation must be one of raw, log1p, got 'norm'$"):
        raw_env(observation="norm")


def test_play_move_plays_a_bot_move_that_is_no_macro_and_the_auto_defence():
    """A built-in bot's own engine move goes through play_move in a macro game: the game, the agent to move, the
    mask and, at the end, the rewards follow as after step; with defend="auto" no defender is asked."""
    e = raw_env(players=2, actions="macro", defend="auto", rules=GameRules(variant="two-player", max_turns=200))
    e.reset(seed=3)
    no_macro = moves = 0
    while not e.game.over:
        move = e.game.bot_move("random")
        macro_ids = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        no_macro += all(e.encoding.first_move(e.game, int(i)) != move for i in macro_ids)
        e.play_move(move)
        moves += 1
        assert e.game.phase != "defend"
        assert e.agent_selection == f"player_{e.game.player}" or e.game.over
        assert (e.observe(e.agent_selection)["action_mask"] == e.encoding.mask(e.game)).all() or e.game.over
    assert no_macro > 0 and moves > 100
    winner = e.game.winner
    assert winner >= 0
    expected = {a: 0.0 for a in e.agents} if winner < 0 else \
        {a: 1.0 if a == f"player_{winner}" else -1.0 for a in e.agents}
    assert e.rewards == expected and all(e.terminations[a] == (winner >= 0) for a in e.agents)
    with pytest.raises(RiskstatsError, match="running game"):
        e.play_move(e.game.bot_move("random"))


def test_play_move_refuses_an_illegal_move_and_changes_nothing():
    e = raw_env(players=2, actions="macro", defend="auto")
    e.reset(seed=5)
    before = e.game.state.armies.copy()
    from riskstats.game.play import Move

    with pytest.raises(RiskstatsError, match="illegal move"):
        e.play_move(Move.end_turn())
    assert (e.game.state.armies == before).all() and e.agent_selection == "player_0"
