"""The self-play opponent pool: one member drawn per game, weighted."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from envs.core.opponents import make_opponent


class PoolOpponent:
    """Plays each game as one member of ``members`` (specs: names or policy paths), drawn by ``weights``."""

    def __init__(self, game: str, members: Sequence[Any], weights: Sequence[float], params: dict[str, Any],
                 seed: int | None = None) -> None:
        if len(members) != len(weights) or not members:
            raise ValueError("PoolOpponent needs one weight per member and at least one member")
        w = np.asarray(weights, dtype=float)
        if (w < 0).any() or w.sum() <= 0:
            raise ValueError(f"pool weights must be >= 0 and not all 0, got {list(weights)}")
        self.game, self.params = game, params
        self.members = list(members)
        self.weights = w / w.sum()
        self.rng = np.random.default_rng(seed)
        self._built: dict[int, Any] = {}
        self.current = None

    def _member(self, i: int):
        if i not in self._built:
            self._built[i] = make_opponent(self.game, self.members[i], **self.params)
        return self._built[i]

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        i = int(self.rng.choice(len(self.members), p=self.weights))
        self.current = self._member(i)
        self.current.reset(seed=int(self.rng.integers(2**31)))

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int:
        if self.current is None:
            self.reset()
        return self.current.act(observation, action_mask, state)
