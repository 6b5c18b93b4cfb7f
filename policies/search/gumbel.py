"""A policy file's network with the engine's tree search (:mod:`policies.search.tree`), numpy only.

:func:`evaluator` turns a numpy policy into the search's network call (the
legal moves' logits, and values by seat from the mover's). A policy file whose
value head has one output a seat (``value_outputs``) gives them all; one with
the mover's value alone stands in for the others: in a two-player zero-sum
game the other seat's is its negative, and with more players the others share
its negative equally. :func:`flat_evaluator` is the network that knows nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core.batched import BatchedGame
from envs.registry import batched_engine
from policies.numpy_policy import NumpyPolicy
from policies.search.player import NetworkSearch
from policies.search.tree import Evaluate, TreeSearch, logits_of_moves


def evaluator(policy: NumpyPolicy, players: int, compiled_head: bool = False) -> Evaluate:
    """The search's ``evaluate(observations, moves)`` of a numpy ``policy``.

    By default the network computes every action's logit in one matrix product and the legal moves' are read
    from it, as the play-time players (:class:`GumbelPlayer`) do. ``compiled_head``: in games with thousands of
    actions and a short list of legal moves (Swish, Squeeze, Twirls), only those columns of a plain action head
    are computed, in a compiled loop (:meth:`policies.numpy_policy.NumpyPolicy.move_logits_and_seat_values`):
    more nodes a second (``swgym bench --search``), rounded differently, so a near tie may go the other way.
    Self-play uses it; the shipped hards' figures were measured without it.
    """
    if players < 2:
        raise ValueError(f"evaluator: a game has at least 2 players, got {players}")
    if not isinstance(compiled_head, (bool, np.bool_)):
        raise ValueError(f"evaluator: compiled_head must be True or False, got {compiled_head!r}")

    def evaluate(observations: np.ndarray, moves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if compiled_head:
            logits, values = policy.move_logits_and_seat_values(observations, moves)
        else:
            logits, values = policy.logits_and_seat_values(observations)
            logits = logits_of_moves(logits, moves)
        values = np.asarray(values, dtype=np.float32).reshape(len(observations), -1)
        if values.shape[1] == players:
            return logits, values
        mover = values[:, 0]
        return logits, np.column_stack([mover] + [-mover / (players - 1)] * (players - 1))

    return evaluate


def flat_evaluator(players: int) -> Evaluate:
    """The search's ``evaluate`` of a network that rates every legal move alike and every position a draw: the
    first self-play iteration's, and the one that measures the search and the engine alone."""

    def evaluate(observations: np.ndarray, moves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros(moves.shape, np.float32), np.zeros((len(observations), players), np.float32)

    return evaluate


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


__all__ = ["GumbelPlayer", "evaluator", "flat_evaluator"]
