"""A policy file's network with the engine's tree search (:mod:`envs.core.tree_search`), numpy only.

:func:`evaluator` turns a numpy policy into the search's network call (logits,
and values by seat from the mover's). A policy file whose value head has one
output a seat (``value_outputs``) gives them all; one with the mover's value
alone stands in for the others: in a two-player zero-sum game the other seat's
is its negative, and with more players the others share its negative equally.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from envs.core.batched import BatchedGame
from envs.core.tree_search import Evaluate, TreeSearch
from envs.registry import batched_engine
from policies.network_search import NetworkSearch


def evaluator(policy: object, players: int) -> Evaluate:
    """The search's ``evaluate(observations)`` of a numpy ``policy`` (``forward -> logits, values``)."""
    if players < 2:
        raise ValueError(f"evaluator: a game has at least 2 players, got {players}")
    forward: Callable = policy.forward  # type: ignore[attr-defined]
    by_seat = getattr(policy, "value_outputs", 1) == players

    def evaluate(observations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if by_seat:
            return policy.logits_and_seat_values(observations)  # type: ignore[attr-defined]
        logits, values = forward(observations)
        values = np.asarray(values, dtype=np.float32).reshape(len(observations), -1)
        if values.shape[1] == players:
            return logits, values
        mover = values[:, 0]
        return logits, np.column_stack([mover] + [-mover / (players - 1)] * (players - 1))

    return evaluate


class GumbelPlayer(NetworkSearch):
    """A policy file's network with the engine's tree search: each move a search of ``simulations`` (a counted
    budget: the same position and seed give the same move) from the rules state, without Gumbel noise.

    The policy file's ``search`` meta: ``{"kind": "gumbel", "simulations": 16, "considered": 16}``, and
    optionally ``"candidates"`` and ``"leaf_wins": true`` (:class:`envs.core.tree_search.TreeSearch`).
    """

    def __init__(
        self, policy: Any, name: str, params: dict[str, Any] | None, simulations: int = 16, considered: int = 16,
        candidates: int = 16, leaf_wins: bool = False, seed: int | None = None,
    ) -> None:  # fmt: skip
        self._attach(policy, name, params)
        self.batch = BatchedGame(batched_engine(name, **(params or {})), 1, seed=0)
        self.search = TreeSearch(
            self.batch, evaluator(policy, self.batch.num_players), 1, simulations, considered, candidates,
            leaf_wins=leaf_wins, seed=seed,
        )  # fmt: skip

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.search.rng = np.random.default_rng(seed)

    def searched_move(self, observation: np.ndarray, action_mask: np.ndarray, state: Any) -> int:
        self.batch.set_board(0, state)
        return int(self.search.run(self.batch, np.zeros(1, dtype=np.int64), gumbel=False).action[0])


__all__ = ["GumbelPlayer", "evaluator"]
