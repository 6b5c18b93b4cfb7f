"""MaskablePPO (sb3-contrib) trains on every game's single-agent env, masks crossing VecEnvs."""

import gymnasium
import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import SubprocVecEnv

from envs.registry import GAMES

torch.set_num_threads(1)


@pytest.mark.parametrize("name", list(GAMES))
def test_maskable_ppo_smoke(name):
    vec = make_vec_env(lambda: gymnasium.make(GAMES[name].gym_id, opponent="random"), n_envs=2, seed=0)
    model = MaskablePPO(
        "MlpPolicy", vec, n_steps=64, batch_size=64, n_epochs=1, seed=0, policy_kwargs={"net_arch": [32]}
    )
    model.learn(256)
    obs = vec.reset()
    masks = get_action_masks(vec)
    actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert all(masks[i][a] for i, a in enumerate(actions))


def test_masks_cross_a_subprocess_vec_env():
    vec = make_vec_env(
        lambda: gymnasium.make("swgym/Swival-v0", opponent="easy"),
        n_envs=2,
        seed=0,
        vec_env_cls=SubprocVecEnv,
        vec_env_kwargs={"start_method": "fork"},
    )
    try:
        model = MaskablePPO("MlpPolicy", vec, n_steps=32, batch_size=64, n_epochs=1, seed=0)
        model.learn(64)
        masks = np.stack(get_action_masks(vec))
        assert masks.shape == (2, 73) and masks.any(axis=1).all()
    finally:
        vec.close()


@pytest.mark.parametrize("policy", ["MlpPolicy", "factored"])
def test_masks_kept_a_byte_an_action_train_exactly_as_floats(policy):
    """The rollout buffer with bool masks (a quarter of the bytes) gives the same update as sb3-contrib's own."""

    from training.buffers import BoolMaskBuffer, buffer_kwargs
    from training.factored_policy import ppo_policy
    from training.sb3_vec import make_sb3_vec

    cls, extra = ppo_policy("swish", {}, "plain" if policy == "MlpPolicy" else "factored")
    weights = []
    for compact in (False, True):
        vec = make_sb3_vec("swish", 8, opponent="random", seed=3)
        more = buffer_kwargs(vec) if compact else {}
        model = MaskablePPO(cls, vec, n_steps=8, batch_size=32, n_epochs=1, seed=3, policy_kwargs={
            "net_arch": [16], **extra}, **more)  # fmt: skip
        model.learn(64)
        if compact:
            assert isinstance(model.rollout_buffer, BoolMaskBuffer)
            assert model.rollout_buffer.action_masks.dtype == bool
        weights.append([p.detach().clone() for p in model.policy.parameters()])
        vec.close()
    for a, b in zip(*weights, strict=True):
        assert torch.equal(a, b)
