"""A policy file's network with the engine's tree search (:mod:`policies.search.tree`), numpy only: the
search kind ``"gumbel"`` of the Twirls and Swahili hards."""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core.batched import BatchedGame
from envs.registry import batched_engine
from policies.search.evaluators import evaluator
from policies.search.player import NetworkSearch
from policies.search.tree import TreeSearch


class GumbelPlayer(NetworkSearch):
    """A policy file's network with the engine's tree search: each move a search of ``simulations`` (a counted
    budget: the same position and seed give the same move) from the rules state, without Gumbel noise.

    The policy file's ``search`` meta: ``{"kind": "gumbel", "simulations": 16, "considered": 16}``, and
    optionally ``"candidates"`` and ``"leaf_wins": true`` (:class:`policies.search.tree.TreeSearch`).
    """

    def __init__(
        self, policy: Any, name: str, params: dict[str, Any] | None, simulations: int = 16, considered: int = 16,
        candidates: int = 16, leaf_wins: bool = False, seed: int | None = None,
    ) -> None:  # fmt: skip
        self._attach(policy, name, params)
        self.batch = BatchedGame(batched_engine(name, **(params or {})), 1, seed=0)
        self.search = TreeSearch(
            self.batch, evaluator(policy, self.batch.num_players), 1, simulations, considered, candidates=candidates,
            leaf_wins=leaf_wins, seed=seed,
        )  # fmt: skip

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.search.rng = np.random.default_rng(seed)

    def searched_move(self, observation: np.ndarray, action_mask: np.ndarray, state: Any) -> int:
        self.batch.set_board(0, state)
        return int(self.search.run(self.batch, np.zeros(1, dtype=np.int64), gumbel=False).action[0])


__all__ = ["GumbelPlayer"]
