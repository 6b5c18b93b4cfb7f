"""How a game's actions factor into (cell, move) pairs, for networks whose action head is factored.

A game with thousands of actions, most of them "this piece, that way", declares
an :class:`ActionLayout`: per action, the cell it acts from and the kind of move
it makes there (``-1`` / ``-1`` for an action of its own, e.g. a choice or a
swap). A factored head (:mod:`policies.numpy_policy`) then scores a pair as
``<U[cell], V[move]> + s[cell] + b[move]`` from a per-cell output of the network,
and every other action with a weight of its own. The games own their layouts
(``TurnBasedEnv.action_layout``, computed from the rules' decoding and tested
against it); this module only holds the shape and its checks, and imports
nothing but numpy.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class ActionLayout(NamedTuple):
    """``cell[a]``, ``move[a]``: action ``a`` as the pair (cell, move), or -1, -1 for an action of its own.

    Pairs are in ``[0, cells) x [0, moves)``; no two actions share a pair.
    """

    cell: np.ndarray  # (num_actions,) int
    move: np.ndarray  # (num_actions,) int
    cells: int
    moves: int

    @property
    def num_actions(self) -> int:
        return len(self.cell)

    @property
    def others(self) -> np.ndarray:
        """The actions of their own (not pairs), in ascending order."""
        return np.flatnonzero(self.cell < 0)

    @property
    def source(self) -> np.ndarray:
        """Per action, its column in ``[pair logits (cells*moves, cell-major) | other logits (in order)]``: the one
        gather that lays a factored head's outputs out as the game's actions."""
        out = self.cell.astype(np.int64) * self.moves + self.move
        others = self.others
        out[others] = self.cells * self.moves + np.arange(others.size)
        return out


def layout_problem(cell: np.ndarray, move: np.ndarray, cells: int, moves: int) -> str | None:
    """What is wrong with these layout arrays (a sentence), or None when they make an :class:`ActionLayout`."""
    cell, move = np.asarray(cell), np.asarray(move)
    if cell.ndim != 1 or move.shape != cell.shape or cell.size == 0:
        return f"cell and move must be two equally long 1-d arrays, got shapes {cell.shape} and {move.shape}"
    if cell.dtype.kind not in "iu" or move.dtype.kind not in "iu":
        return f"cell and move must hold whole numbers, got {cell.dtype} and {move.dtype}"
    if cells < 1 or moves < 1:
        return f"a layout has at least one cell and one move, got {cells} cells and {moves} moves"
    other = cell < 0
    if ((cell < -1) | (cell >= cells)).any() or ((move < -1) | (move >= moves)).any():
        return f"cells must be in [-1, {cells}) and moves in [-1, {moves})"
    if (other != (move < 0)).any():
        a = int(np.flatnonzero(other != (move < 0))[0])
        return f"action {a} has cell {int(cell[a])} and move {int(move[a])}: both or neither must be -1"
    pairs = cell[~other].astype(np.int64) * moves + move[~other]
    if np.unique(pairs).size != pairs.size:
        return "two actions share a (cell, move) pair"
    return None


def make_layout(cell: np.ndarray, move: np.ndarray, cells: int, moves: int) -> ActionLayout:
    """An :class:`ActionLayout`, checked (ValueError naming the problem)."""
    problem = layout_problem(cell, move, cells, moves)
    if problem:
        raise ValueError(f"action layout: {problem}")
    return ActionLayout(np.asarray(cell, np.int64), np.asarray(move, np.int64), int(cells), int(moves))


__all__ = ["ActionLayout", "layout_problem", "make_layout"]
