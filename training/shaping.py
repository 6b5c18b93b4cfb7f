"""Potential-based reward shaping, for training only: ``F = gamma * phi(s') - phi(s)``.

Shaping of this form leaves the optimal policy unchanged (Ng, Harada and
Russell, 1999) while giving a learner a signal in games where random play
almost never ends (Twirls: random play is a draw about 99% of the time) or
mostly reaches the ply limit (Squeeze). Opt in with a config's
``"shaping": {"potential": NAME, "scale": s}`` (off by default). The envs'
own rewards, and so the games' results, are untouched: the shaped reward is
the learner's training signal only, its episode log (``info["episode"]``)
keeps the game's return, and the potential is 0 at the end of a game, so that
an episode's shaped return is its result minus the first position's potential
(gamma 1).

:class:`ShapedReward` shapes a single-agent env from the rules' state;
:class:`ShapedVecEnv` shapes the batched SB3 VecEnv from the learner's
observations, for the potentials in :data:`BATCH_POTENTIALS`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from stable_baselines3.common.vec_env import VecEnvWrapper


def twirls_groups(game, state, seat: int) -> float:
    """Minus the learner's extra groups (0 when all its stones are connected), per stone."""
    stones = state.stones[game.colour_of(state, seat)]
    return -(game.tables.groups(stones) - 1) / max(1, stones.bit_count())


def hex_store_lead(game, state, seat: int) -> float:
    """The learner's lead in captured beads, as a share of the beads needed to win."""
    return (state.stores[seat] - state.stores[1 - seat]) / game.params["beads_to_win"]


POTENTIALS: dict[str, Callable[[Any, Any, int], float]] = {
    "twirls_groups": twirls_groups,
    "hex_store_lead": hex_store_lead,
}
GAMES_OF = {"twirls_groups": ("twirls",), "hex_store_lead": ("swish", "squeeze")}  # the games each potential reads


def check_potential(name: str | None, potential: str, batched: bool = False) -> None:
    """A ValueError unless ``potential`` is a shaping potential of game ``name`` (None: of any game); ``batched``:
    and one the vector env computes from observations (:data:`BATCH_POTENTIALS`)."""
    if potential not in POTENTIALS:
        raise ValueError(f"unknown shaping potential {potential!r}; known: {', '.join(POTENTIALS)}")
    if name is not None and name not in GAMES_OF[potential]:
        raise ValueError(f"shaping potential {potential!r} reads {' and '.join(GAMES_OF[potential])}, not {name}")
    if batched and potential not in BATCH_POTENTIALS:
        batch = ", ".join(BATCH_POTENTIALS)
        raise ValueError(f"no batched shaping potential {potential!r}; the vector env has: {batch}")


class ShapedReward(gymnasium.Wrapper):
    """Adds ``scale * (gamma * phi(s') - phi(s))`` to the learner's reward (phi = 0 once done)."""

    def __init__(self, env, potential: str, gamma: float, scale: float = 1.0) -> None:
        super().__init__(env)
        check_potential(None, potential)
        self.potential = POTENTIALS[potential]
        self.gamma, self.scale = gamma, scale
        self.phi = 0.0

    def _phi(self) -> float:
        single = self.env.unwrapped
        return self.potential(single.aec.game, single.aec.game_state, single.seat)

    def reset(self, **kwargs):
        obs, info = self.env.reset(**kwargs)
        self.phi = self._phi()
        return obs, info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        phi = 0.0 if terminated or truncated else self._phi()
        reward += self.scale * (self.gamma * phi - self.phi)
        self.phi = phi
        return obs, reward, terminated, truncated, info


def groups_of(own: np.ndarray, size: int) -> np.ndarray:
    """(k,) the number of 8-connected groups of the True cells of each of ``k`` boards ``size`` x ``size``
    (``own``: (k, size * size), cell = rank * size + file): labels spread to the largest neighbour's until
    they settle, and each group keeps the label of its highest cell."""
    grid = own.reshape(len(own), size, size).astype(bool)
    index = np.arange(1, size * size + 1).reshape(size, size)
    labels = np.where(grid, index, 0)
    while True:
        padded = np.pad(labels, ((0, 0), (1, 1), (1, 1)))
        spread = labels.copy()
        for dr in (0, 1, 2):
            for dc in (0, 1, 2):
                np.maximum(spread, padded[:, dr : dr + size, dc : dc + size], out=spread)
        spread = np.where(grid, spread, 0)
        if (spread == labels).all():
            return (grid & (labels == index)).sum(axis=(1, 2))
        labels = spread


def twirls_groups_batch(observations: np.ndarray, params: dict[str, Any]) -> np.ndarray:
    """:func:`twirls_groups` from Twirls observations (their first piece: the observer's own stones by cell)."""
    size = int(params.get("board_size", 9))
    own = observations[:, : size * size] > 0.5
    return -(groups_of(own, size) - 1) / np.maximum(1, own.sum(axis=1))


BATCH_POTENTIALS: dict[str, Callable[[np.ndarray, dict[str, Any]], np.ndarray]] = {
    "twirls_groups": twirls_groups_batch,
}


class ShapedVecEnv(VecEnvWrapper):
    """Adds ``scale * (gamma * phi(s') - phi(s))`` to every board's reward (phi = 0 once its episode is done), phi
    computed from the learner's observations (:data:`BATCH_POTENTIALS`); the episodes' logged returns stay the
    games' own."""

    def __init__(self, venv: Any, potential: str, gamma: float, scale: float = 1.0, params: dict | None = None):
        super().__init__(venv)
        check_potential(None, potential, batched=True)
        self.potential = BATCH_POTENTIALS[potential]
        self.gamma, self.scale, self.params = gamma, scale, dict(params or {})
        self.phi = np.zeros(venv.num_envs)

    def reset(self) -> np.ndarray:
        obs = self.venv.reset()
        self.phi = self.potential(obs, self.params)
        return obs

    def step_wait(self):
        obs, rewards, dones, infos = self.venv.step_wait()
        phi = self.potential(obs, self.params)  # where a board is done, its new game's first position
        shaped = rewards + self.scale * (self.gamma * np.where(dones, 0.0, phi) - self.phi)
        self.phi = phi
        return obs, shaped.astype(np.float32), dones, infos
