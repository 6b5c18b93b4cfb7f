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

    def explain(
        self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None, top: int = 5
    ) -> dict[str, Any]:
        """What the bot weighs: its ``top`` moves with their scores (no value estimate).

        Bots that score moves through :meth:`pick_best` show those scores; others
        show their legal moves with equal weight. The bot's generator is left as it was.
        """
        mask = np.asarray(action_mask).astype(bool)
        saved = self.rng.bit_generator.state
        self.last_scores = {}
        chosen = self.choose(state, mask) if state is not None else None
        self.rng.bit_generator.state = saved
        scores = self.last_scores or {int(a): 1.0 / mask.sum() for a in np.flatnonzero(mask)}
        ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0] != chosen))[:top]
        return {
            "moves": [(int(a), float(s)) for a, s in ranked],
            "value": None,
            "choice": chosen,
            "kind": "scores" if self.last_scores else "uniform",
        }

    def pick_best(self, actions: list[int], scores: list[float]) -> int:
        """One of the highest-scoring actions, drawn with the bot's generator (scores kept for explain)."""
        self.last_scores = dict(zip(actions, scores))
        best = max(scores)
        top = [a for a, s in zip(actions, scores) if s == best]
        return top[int(self.rng.integers(len(top)))]

    def pick_random(self, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[self.rng.integers(legal.size)])
