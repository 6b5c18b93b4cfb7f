"""Potential-based reward shaping, for training only: ``F = gamma * phi(s') - phi(s)``.

Shaping of this form leaves the optimal policy unchanged (Ng, Harada and
Russell, 1999) while giving a learner a signal in games where random play
almost never ends (Twirls) or mostly reaches the ply limit (Squeeze). The
envs' own rewards are untouched; the potential is 0 at the end of a game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium


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


class ShapedReward(gymnasium.Wrapper):
    """Adds ``scale * (gamma * phi(s') - phi(s))`` to the learner's reward (phi = 0 once done)."""

    def __init__(self, env, potential: str, gamma: float, scale: float = 1.0) -> None:
        super().__init__(env)
        if potential not in POTENTIALS:
            raise ValueError(f"unknown shaping potential {potential!r}; known: {', '.join(POTENTIALS)}")
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
