"""A plain action head's logits of each position's legal moves alone, compiled (numba).

A search reads the logits of a node's legal moves only: a few dozen of
Swish's and Squeeze's 3114 actions, a few hundred of Twirls' 2593. Computing
those columns of the head one dot product each skips the rest of the matrix
product, which is otherwise most of a forward pass. Its sums run in another
order than numpy's matrix product, so the logits agree with
:meth:`policies.numpy_policy.NumpyPolicy.logits_and_seat_values`' to rounding,
not bit for bit. Importing this module imports numba (a numpy-only player
never does).
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit


@njit(fastmath=True)
def _dot_columns(h, wt, b, moves, out):
    for r in range(moves.shape[0]):
        x = h[r]
        for j in range(moves.shape[1]):
            a = moves[r, j]
            if a < 0:
                continue
            row = wt[a]
            acc = np.float32(0.0)
            for i in range(x.shape[0]):
                acc += x[i] * row[i]
            out[r, j] = acc + b[a]


def plain_move_logits(h: np.ndarray, wt: np.ndarray, b: np.ndarray, moves: np.ndarray) -> np.ndarray:
    """(k, L) float32: ``h[r] @ wt[moves[r, j]] + b[moves[r, j]]``, -inf where ``moves`` is -1 (padding).
    ``h`` (k, H): the head's inputs; ``wt`` (A, H): the head's weights, one row an action; ``b`` (A,)."""
    moves = np.ascontiguousarray(moves, dtype=np.int64)
    out = np.full(moves.shape, -np.inf, dtype=np.float32)
    _dot_columns(np.ascontiguousarray(h, dtype=np.float32), wt, b, moves, out)
    return out


__all__ = ["plain_move_logits"]
