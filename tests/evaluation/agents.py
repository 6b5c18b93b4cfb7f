"""Players of known strength for the ratings' known-answer tests, named on the command line as
``tests.evaluation.agents:half_medium`` (an agent of the user's own code): medium mixed with random moves."""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.opponents import make_opponent


class EpsilonMedium:
    """The game's medium bot, except that with probability ``epsilon`` it plays a random legal move instead:
    the larger ``epsilon``, the weaker, from medium (0) to random (1)."""

    def __init__(self, name: str, epsilon: float, seed: int | None = None, **params: Any) -> None:
        self.bot = make_opponent(name, "medium", seed=seed, **params)
        self.epsilon = epsilon
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.bot.reset(seed)
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int:
        if self.rng.random() < self.epsilon:
            return int(self.rng.choice(np.flatnonzero(action_mask)))
        return self.bot.act(observation, action_mask, state)


def half_medium(name: str, seed: int | None = None, **params: Any) -> EpsilonMedium:
    """Medium half the time, random the other half."""
    return EpsilonMedium(name, 0.5, seed=seed, **params)


def mostly_medium(name: str, seed: int | None = None, **params: Any) -> EpsilonMedium:
    """Medium four moves in five."""
    return EpsilonMedium(name, 0.2, seed=seed, **params)


class Fixed:
    """Always the lowest (or the highest) legal action: a player that answers every position the same way."""

    def __init__(self, at: int) -> None:
        self.at = at

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int:
        return int(np.flatnonzero(action_mask)[self.at])


def first_legal(name: str, seed: int | None = None, **params: Any) -> Fixed:
    return Fixed(0)


def last_legal(name: str, seed: int | None = None, **params: Any) -> Fixed:
    return Fixed(-1)
