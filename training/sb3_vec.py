"""stable-baselines3 ``VecEnv`` over a batched vector env, so that MaskablePPO trains on N boards at once.

>>> from sb3_contrib import MaskablePPO
>>> from training.sb3_vec import make_sb3_vec
>>> vec = make_sb3_vec("swival", 256, opponent="random", seed=0)
>>> MaskablePPO("MlpPolicy", vec, n_steps=16).learn(20_000)

SB3 resets finished envs in the same step and hands the last observation
over in ``info["terminal_observation"]``, so the vector env runs with
``AutoresetMode.SAME_STEP``. A finished episode's return and length come in
its ``info["episode"]`` as SB3's ``Monitor`` writes them, so MaskablePPO logs
``ep_rew_mean`` / ``ep_len_mean`` without a ``VecMonitor``. ``env_method("action_masks")`` (what
sb3-contrib's ``get_action_masks`` calls) returns every board's mask from one
kernel call; other methods and attributes go to the vector env once, not per
board (``env_method("set_opponents", spec)`` swaps every board's opponents).

Batch opponents (the self-play pool, :class:`training.pool.BatchPool`) hear
which boards start a game (``new_games``), so that they draw a member per
board and episode.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env import VecEnv

from envs.vector import BatchedVectorEnv


def make_sb3_vec(
    name: str, num_envs: int, opponent: Any = "random", seed: int | None = None, **kwargs: Any
) -> SB3BatchedVecEnv:
    """The SB3 VecEnv of ``num_envs`` boards of game ``name`` (keywords as :func:`envs.make_vec`)."""
    return SB3BatchedVecEnv(
        BatchedVectorEnv(name, num_envs, opponent=opponent, seed=seed, autoreset_mode=AutoresetMode.SAME_STEP, **kwargs)
    )


class SB3BatchedVecEnv(VecEnv):
    """SB3's VecEnv protocol on a :class:`~envs.vector.BatchedVectorEnv` in ``SAME_STEP`` autoreset mode."""

    def __init__(self, venv: BatchedVectorEnv) -> None:
        if venv.autoreset_mode is not AutoresetMode.SAME_STEP:
            raise ValueError(
                "SB3BatchedVecEnv needs a vector env with autoreset_mode=SAME_STEP "
                f"(SB3 resets finished envs in the same step), got {venv.autoreset_mode}"
            )
        self.venv = venv
        super().__init__(venv.num_envs, venv.single_observation_space, venv.single_action_space)
        self._actions: np.ndarray | None = None
        self._returns = np.zeros(venv.num_envs, dtype=np.float64)  # of each board's episode so far
        self._lengths = np.zeros(venv.num_envs, dtype=np.int64)
        self._started = time.time()

    def reset(self) -> np.ndarray:
        seed = self._seeds[0]  # VecEnv.seed(s) gives envs s, s+1, ...: the batch is seeded by the first
        obs, infos = self.venv.reset(seed=seed)
        self.reset_infos = [{"seat": int(s)} for s in infos["seat"]]
        self._returns[:] = 0.0
        self._lengths[:] = 0
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).astype(np.int64, copy=False).reshape(self.num_envs)

    def step_wait(self):
        obs, rewards, terminated, truncated, infos = self.venv.step(self._actions)
        dones = terminated | truncated
        self._returns += rewards
        self._lengths += 1
        out: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if "final_obs" in infos:
            elapsed = round(time.time() - self._started, 6)
            for i in np.flatnonzero(infos["_final_obs"]):
                out[i]["terminal_observation"] = infos["final_obs"][i]
                out[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
                out[i]["episode"] = {"r": float(self._returns[i]), "l": int(self._lengths[i]), "t": elapsed}
            self._returns[dones] = 0.0
            self._lengths[dones] = 0
        return obs, rewards, dones, out

    def action_masks(self) -> np.ndarray:
        """(N, A) bool: every board's legal actions for the learner."""
        return self.venv.action_masks()

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        value = getattr(self.venv, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices: Any = None, **method_kwargs) -> list[Any]:
        chosen = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.venv.action_masks()
            return [masks[i] for i in chosen]
        result = getattr(self.venv, method_name)(*method_args, **method_kwargs)
        return [result for _ in chosen]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> Sequence[bool]:
        return [False for _ in self._get_indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None for _ in range(self.num_envs)]


__all__ = ["SB3BatchedVecEnv", "make_sb3_vec"]
