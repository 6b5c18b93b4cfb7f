"""A policy file's network with the engine's tree search (:mod:`envs.core.tree_search`), numpy only.

:func:`evaluator` turns a numpy policy into the search's network call (logits,
and values by seat from the mover's). The policy files of today have one value,
the mover's; in a two-player zero-sum game the other seat's is its negative,
and with more players the others share its negative equally (a stand-in until
networks carry a value per seat).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from envs.core.tree_search import Evaluate


def evaluator(policy: object, players: int) -> Evaluate:
    """The search's ``evaluate(observations)`` of a numpy ``policy`` (``forward -> logits, values``)."""
    if players < 2:
        raise ValueError(f"evaluator: a game has at least 2 players, got {players}")
    forward: Callable = policy.forward  # type: ignore[attr-defined]

    def evaluate(observations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logits, values = forward(observations)
        values = np.asarray(values, dtype=np.float32).reshape(len(observations), -1)
        if values.shape[1] == players:
            return logits, values
        mover = values[:, 0]
        return logits, np.column_stack([mover] + [-mover / (players - 1)] * (players - 1))

    return evaluate


__all__ = ["evaluator"]
