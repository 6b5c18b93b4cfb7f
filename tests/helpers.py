"""Helpers shared by several test modules (tests/ is on the path when pytest runs)."""

import json

import numpy as np

from policies.numpy_policy import FORMAT_VERSION, NumpyPolicy


def preference_policy(order, game="swival", params=None):
    """A network that ignores the position: ``order[0]`` most probable, then ``order[1]``, ...; value 0."""
    from envs.registry import make_raw

    env = make_raw(game, **(params or {}))
    size = int(np.prod(env.observation_space(env.possible_agents[0])["observation"].shape))
    actions = env.game.num_actions
    meta = {
        "format": FORMAT_VERSION,
        "game": game,
        "params": params or {},
        "observation_shape": [size],
        "num_actions": actions,
        "activation": "tanh",
    }
    bias = np.full(actions, -10.0, dtype=np.float32)
    for rank, action in enumerate(order):
        bias[action] = 10.0 - rank
    arrays = {
        "pi_w0": np.zeros((size, 4), np.float32),
        "pi_b0": np.zeros(4, np.float32),
        "vf_w0": np.zeros((size, 4), np.float32),
        "vf_b0": np.zeros(4, np.float32),
        "action_w": np.zeros((4, actions), np.float32),
        "action_b": bias,
        "value_w": np.zeros((4, 1), np.float32),
        "value_b": np.zeros(1, np.float32),
    }
    return NumpyPolicy((json.loads(json.dumps(meta)), arrays))
