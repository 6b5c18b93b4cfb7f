"""Twirls' opt-in shaped reward on the batched vector env: the rules' potential read from observations, a shaping
that telescopes to the game's result, logged returns that stay the game's own, and off unless a config asks."""

import numpy as np
import pytest

from envs.single_agent import SingleAgentEnv
from tests.training_helpers import tiny_config
from training.config import load_config
from training.sb3_vec import make_sb3_vec
from training.selfplay import make_vec_env, uses_vector_env
from training.shaping import ShapedVecEnv, groups_of, twirls_groups, twirls_groups_batch


def test_groups_of_counts_eight_connected_groups():
    board = np.zeros((2, 16), dtype=bool)
    board[0, [0, 5, 10, 15]] = True  # one diagonal: one group
    board[1, [0, 2, 8, 10, 15]] = True  # 0 | 2 | 8 | 10-15: four groups (a gap between each but the last two)
    assert groups_of(board, 4).tolist() == [1, 4]
    assert groups_of(np.zeros((1, 16), dtype=bool), 4).tolist() == [0]


@pytest.mark.parametrize("params", [{}, {"board_size": 8}])
def test_the_batched_potential_is_the_rules_potential(params):
    env = SingleAgentEnv("twirls", opponent="random", **params)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    for _ in range(60):
        game, state, seat = env.aec.game, env.aec.game_state, env.seat
        assert twirls_groups_batch(obs[None], params)[0] == pytest.approx(twirls_groups(game, state, seat))
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if terminated or truncated:
            obs, _ = env.reset()


def test_shaping_telescopes_and_leaves_the_games_returns_alone():
    params = {"board_size": 8, "max_plies": 40}  # short games, so that episodes end within the test
    raw = make_sb3_vec("twirls", 8, opponent="random", seed=4, **params)
    shaped = ShapedVecEnv(make_sb3_vec("twirls", 8, opponent="random", seed=4, **params), "twirls_groups", 1.0,
                          params=params)  # fmt: skip
    raw.reset()
    phi0 = -twirls_groups_batch(shaped.reset(), params)
    rng = np.random.default_rng(0)
    extra, checked = np.zeros(8), 0
    for _ in range(60):
        masks = raw.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        raw.step_async(actions), shaped.step_async(actions)
        _, r, dones, infos = raw.step_wait()
        obs, rs, dones_s, infos_s = shaped.step_wait()
        np.testing.assert_array_equal(dones, dones_s)
        extra += rs - r
        for i in np.flatnonzero(dones):
            assert infos_s[i]["episode"]["r"] == infos[i]["episode"]["r"]  # the logged return: the game's
            assert extra[i] == pytest.approx(phi0[i], abs=1e-5)  # sum of gamma=1 shaping: -phi(first position)
            extra[i], phi0[i], checked = 0.0, -twirls_groups_batch(obs[i : i + 1], params)[0], checked + 1
    assert checked >= 4


def test_shaping_is_off_unless_the_config_asks_and_goes_on_the_vector_env():
    assert "shaping" not in load_config("twirls")
    config = tiny_config("twirls", env="vector", params={"board_size": 8})
    assert not isinstance(make_vec_env(config), ShapedVecEnv)
    config["shaping"] = {"potential": "twirls_groups", "scale": 0.5}
    vec = make_vec_env(config)
    assert isinstance(vec, ShapedVecEnv) and vec.scale == 0.5 and vec.action_masks().shape == (8, 2049)
    with pytest.raises(ValueError, match="no batched shaping potential 'hex_store_lead'"):
        ShapedVecEnv(vec.venv, "hex_store_lead", 1.0)
    config["game"], config["shaping"] = "swish", {"potential": "twirls_groups"}
    with pytest.raises(ValueError, match="shaping potential 'twirls_groups' reads twirls, not swish"):
        uses_vector_env(config)
    config["shaping"] = "twirls_groups"
    with pytest.raises(ValueError, match="config shaping must be"):
        uses_vector_env(config)
    config["shaping"] = {"potential": "connections"}
    with pytest.raises(ValueError, match="unknown shaping potential 'connections'; known: twirls_groups"):
        uses_vector_env(config)
