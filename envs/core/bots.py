"""Base class of the games' built-in easy and medium bots."""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core.game import Game


class Bot:
    """A seeded opponent that may read the rules state (see :mod:`envs.core.opponents`).

    Subclasses implement :meth:`choose`; ties are broken with ``self.rng`` so
    the same seed gives the same moves.
    """

    def __init__(self, game: Game, seed: int | None = None) -> None:
        self.game = game
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int:
        if state is None:
            raise ValueError(f"{type(self).__name__} needs the game state: call act(obs, mask, state)")
        return int(self.choose(state, np.asarray(action_mask).astype(bool)))

    def choose(self, state: Any, mask: np.ndarray) -> int:
        raise NotImplementedError

    def pick_best(self, actions: list[int], scores: list[float]) -> int:
        """One of the highest-scoring actions, drawn with the bot's generator."""
        best = max(scores)
        top = [a for a, s in zip(actions, scores) if s == best]
        return top[int(self.rng.integers(len(top)))]

    def pick_random(self, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[self.rng.integers(legal.size)])
