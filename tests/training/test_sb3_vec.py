"""MaskablePPO trains directly on the batched Swival vector env through the SB3 VecEnv."""

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

from training.sb3_vec import make_sb3_vec

torch.set_num_threads(1)


def test_maskable_ppo_trains_on_the_batched_vec_env_and_honours_masks():
    vec = make_sb3_vec("swival", 16, opponent="random", seed=0)
    assert is_masking_supported(vec)
    played = []
    step = vec.venv.step

    def checked_step(actions):  # every learner move is checked against the mask it was chosen with
        masks = vec.venv.action_masks()
        played.append(masks[np.arange(len(actions)), actions].all())
        return step(actions)

    vec.venv.step = checked_step
    model = MaskablePPO(
        "MlpPolicy", vec, n_steps=32, batch_size=128, n_epochs=1, seed=0, policy_kwargs={"net_arch": [32]}
    )
    model.learn(512)
    assert len(played) >= 32 and all(played)
    obs = vec.reset()
    masks = get_action_masks(vec)
    assert masks.shape == (16, 73)
    actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert masks[np.arange(16), actions].all()


def test_finished_boards_hand_over_their_last_observation():
    vec = make_sb3_vec("swival", 8, opponent="random", seed=1)
    vec.reset()
    rng = np.random.default_rng(0)
    for _ in range(40):
        masks = vec.action_masks()
        vec.step_async(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        _, rewards, dones, infos = vec.step_wait()
        if dones.any():
            i = int(np.flatnonzero(dones)[0])
            assert infos[i]["terminal_observation"].shape == (78,) and rewards[i] in (-1.0, 0.0, 1.0)
            assert not infos[i]["TimeLimit.truncated"]
            return
    raise AssertionError("no game ended in 40 steps")
