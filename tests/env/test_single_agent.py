"""SingleAgentEnv: one seat against built-in bots as a Gymnasium environment. The learner moves only when its
seat is to move, its mask is the PettingZoo env's, seats rotate, episodes replay from their seed, the reward is the
game's (plus the shaping potential), and bad options are one-line errors."""
import numpy as np
import pytest

from riskstats.env.single_agent import SingleAgentEnv, check_opponents, play_against
from riskstats.errors import RiskstatsError
from riskstats.game.rules.options import GameRules

SHORT = GameRules(variant="two-player", max_turns=120)


def random_episode(env, seed, rng_seed=0):
    """A uniform-random legal episode: the (obs, mask, reward) sequence and the last step's flags and info."""
    rng = np.random.default_rng(rng_seed)
    obs, info = env.reset(seed=seed)
    trace, done = [], False
    while not done:
        mask = env.action_masks()
        assert env.game.player == env.seat and mask.any()  # the learner is to move whenever it is asked
        assert env.observation_space.contains(obs) and mask.shape == (env.action_space.n,)
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        trace.append((obs.copy(), mask, reward))
        done = terminated or truncated
    return trace, terminated, truncated, info


@pytest.mark.parametrize("opponent", ["random", "uniform"])
def test_an_episode_moves_only_the_learners_seat_and_pays_the_game_reward(opponent):
    env = SingleAgentEnv(opponents=opponent, seat=1, rules=SHORT)
    trace, terminated, truncated, info = random_episode(env, seed=2)
    game = env.game
    assert game.over and terminated == (game.winner >= 0) and truncated == (game.winner < 0)
    rewards = [r for _, _, r in trace]
    assert all(r == 0.0 for r in rewards[:-1])
    assert rewards[-1] == (0.0 if truncated else 1.0 if game.winner == 1 else -1.0)
    assert info["winner"] == game.winner and info["seat"] == 1 and info["opponent"] == opponent
    assert not env.action_masks().any()
    with pytest.raises(RiskstatsError, match="over"):
        env.step(0)


def test_the_mask_is_the_pettingzoo_envs_and_an_illegal_action_raises_if_asked():
    env = SingleAgentEnv(opponents="random", seed=0, illegal="raise")
    obs, info = env.reset()
    mask = env.action_masks()
    assert (mask == env.env.encoding.mask(env.game)).all()
    assert (obs == env.env.layout.observe(env.game, env.seat)).all()
    with pytest.raises(RiskstatsError, match="not legal"):
        env.step(int(np.flatnonzero(~mask)[0]))
    with pytest.raises(RiskstatsError, match="illegal must be one of lose, raise"):
        SingleAgentEnv(illegal="ignore")


@pytest.mark.parametrize("players", [2, 4])
def test_by_default_an_illegal_action_forfeits_the_game(players):
    """Issue 55: an action outside the mask ends the episode as a loss (the reward of a loss, terminated, the
    action in info), and the next step asks for a reset; a legal one plays on."""
    env = SingleAgentEnv(opponents="random", players=players, seed=1)
    env.reset()
    bad = int(np.flatnonzero(~env.action_masks())[0])
    obs, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0 / (players - 1), True, False, bad)
    with pytest.raises(RiskstatsError, match="over"):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    env.reset()
    assert env.step(int(np.flatnonzero(env.action_masks())[0]))[2:4] == (False, False)


@pytest.mark.parametrize("players", [2, 4])
def test_gymnasiums_env_checker_passes_with_the_defaults(players):
    """Gymnasium's own check (it steps actions sampled without the mask) passes with the default options."""
    from gymnasium.utils.env_checker import check_env

    check_env(SingleAgentEnv(players=players), skip_render_check=True)


def test_seats_rotate_and_opponents_are_drawn_from_the_mix():
    env = SingleAgentEnv(opponents=("random", "uniform", "random"), seed=7)
    seats, opponents = [], []
    for _ in range(12):
        obs, info = env.reset()
        seats.append(info["seat"])
        opponents.append(info["opponent"])
        assert obs[env.env.layout.slices["me"]].argmax() == info["seat"]  # the observation is the learner's seat's
    assert seats == [0, 1] * 6
    assert set(opponents) == {"random", "uniform"}
    env.set_opponents("continent")
    assert env.reset()[1]["opponent"] == "continent"


def test_an_episode_replays_from_its_seed():
    a, b = (SingleAgentEnv(opponents="random", rules=SHORT) for _ in range(2))
    first, *_ = random_episode(a, seed=11, rng_seed=3)
    second, *_ = random_episode(b, seed=11, rng_seed=3)
    assert len(first) == len(second)
    assert all((x[0] == y[0]).all() and (x[1] == y[1]).all() and x[2] == y[2] for x, y in zip(first, second))


def test_shaping_adds_the_change_in_the_territory_share():
    plain = SingleAgentEnv(opponents="random", seat=0, rules=SHORT)
    shaped = SingleAgentEnv(opponents="random", seat=0, rules=SHORT, shaping=0.5)
    base, *_ = random_episode(plain, seed=5)
    trace, *_ = random_episode(shaped, seed=5)
    extra = np.array([r for _, _, r in trace]) - np.array([r for _, _, r in base])
    share_end = np.count_nonzero(shaped.game.state.owner == 0) / 42
    fresh = SingleAgentEnv(opponents="random", seat=0, rules=SHORT)
    fresh.reset(seed=5)
    share_start = np.count_nonzero(fresh.game.state.owner == 0) / 42
    assert extra.sum() == pytest.approx(0.5 * (share_end - share_start))
    assert np.abs(extra).max() > 0


def test_play_against_tallies_every_game_and_replays():
    legal = lambda obs, mask: int(np.flatnonzero(mask)[-1])  # noqa: E731
    t = play_against(legal, "random", 4, seed=1, rules=SHORT)
    assert t["games"] == 4 == t["wins"] + t["losses"] + t["truncated"] and t["decisions"] > 0
    assert play_against(legal, "random", 4, seed=1, rules=SHORT) == t
    with pytest.raises(RiskstatsError, match="not legal"):
        play_against(lambda obs, mask: int(np.flatnonzero(~mask)[0]), "random", 1)
    with pytest.raises(RiskstatsError, match="policy must be"):
        play_against("greedy", "random", 1)


@pytest.mark.parametrize("kwargs,message", [
    ({"opponents": "nobody"}, "nobody"),
    ({"opponents": ()}, "at least one"),
    ({"seat": 2}, "seat must be"),
    ({"seat": "left"}, "seat must be"),
    ({"shaping": -1.0}, "shaping must be"),
    ({"observation": "z"}, "observation must be one of"),
])
def test_a_bad_option_is_one_line_naming_it(kwargs, message):
    with pytest.raises(RiskstatsError, match=message) as err:
        SingleAgentEnv(**kwargs)
    assert "\n" not in str(err.value)


def test_check_opponents_takes_one_spec_or_many():
    assert check_opponents("random") == ("random",)
    assert check_opponents(["random", "continent:threshold=0.6"]) == ("random", "continent:threshold=0.6")
