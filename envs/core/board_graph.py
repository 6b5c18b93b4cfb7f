"""A game's board as a graph over its observation, for networks that convolve over the board.

A game whose observation holds planes of one value per cell (own pieces,
the opponent's, empty cells...) declares a :class:`BoardGraph`: per plane and
cell, the index of that value in the observation, and per cell its neighbours
in a fixed order of directions (``-1`` off the board). A board convolution
(:class:`policies.numpy_policy.BoardConv`) then gives every cell, layer after
layer, a linear map of its own features and its neighbours', the same weights
at every cell, so a pattern learned in one place is seen everywhere. The games
own their graphs (``TurnBasedEnv.board_graph``, tested against their
symmetries); this module holds the shape and its checks.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from envs.core.observation import Observation


class BoardGraph(NamedTuple):
    """``planes[p, c]``: the observation index of plane ``p`` at cell ``c``; ``neighbours[c, k]``: the cell next
    to ``c`` in direction ``k``, or -1 where that is off the board."""

    planes: np.ndarray  # (planes, cells) int
    neighbours: np.ndarray  # (cells, directions) int

    @property
    def cells(self) -> int:
        return self.planes.shape[1]

    @property
    def directions(self) -> int:
        return self.neighbours.shape[1]

    @property
    def around(self) -> np.ndarray:
        """(cells, directions + 1): each cell, then its neighbours, with ``cells`` off the board: the gather a
        convolution makes from its features with one row of zeros appended."""
        off = np.where(self.neighbours < 0, self.cells, self.neighbours)
        return np.column_stack([np.arange(self.cells), off])


def board_graph_problem(planes: np.ndarray, neighbours: np.ndarray, observations: int) -> str | None:
    """What is wrong with these arrays for an observation of ``observations`` values (a sentence), or None when
    they make a :class:`BoardGraph`."""
    planes, neighbours = np.asarray(planes), np.asarray(neighbours)
    if planes.ndim != 2 or neighbours.ndim != 2 or 0 in planes.shape or 0 in neighbours.shape:
        return f"planes and neighbours must be non-empty 2-d arrays, got shapes {planes.shape} and {neighbours.shape}"
    if planes.dtype.kind not in "iu" or neighbours.dtype.kind not in "iu":
        return f"planes and neighbours must hold whole numbers, got {planes.dtype} and {neighbours.dtype}"
    cells = planes.shape[1]
    if neighbours.shape[0] != cells:
        return f"{cells} cells in the planes but {neighbours.shape[0]} rows of neighbours"
    if ((planes < 0) | (planes >= observations)).any():
        return f"plane indices must be in [0, {observations}), the observation's"
    if np.unique(planes).size != planes.size:
        return "two plane cells share an observation index"
    if ((neighbours < -1) | (neighbours >= cells)).any():
        return f"neighbours must be cells in [0, {cells}) or -1 (off the board)"
    if (neighbours == np.arange(cells)[:, None]).any():
        return "a cell is its own neighbour"
    return None


def make_board_graph(planes: np.ndarray, neighbours: np.ndarray, observations: int) -> BoardGraph:
    """A :class:`BoardGraph`, checked (ValueError naming the problem)."""
    problem = board_graph_problem(planes, neighbours, observations)
    if problem:
        raise ValueError(f"board graph: {problem}")
    return BoardGraph(np.asarray(planes, np.int64), np.asarray(neighbours, np.int64))


def observation_planes(observation: Observation, names: tuple[str, ...]) -> np.ndarray:
    """(len(names), cells): the observation indices of the named pieces of one value per cell, as the planes of a
    :class:`BoardGraph`."""
    index = np.arange(observation.size)
    return np.stack([index[observation[name]] for name in names])


def grid_neighbours(coords: list[tuple[int, int]], steps: list[tuple[int, int]]) -> np.ndarray:
    """(cells, len(steps)): for each cell at ``coords[c]``, the cell at ``coords[c] + step`` in each step's
    order, or -1 where no cell is there (a square or hexagonal grid in its own coordinates)."""
    index = {xy: c for c, xy in enumerate(coords)}
    return np.array([[index.get((x + dx, y + dy), -1) for dx, dy in steps] for x, y in coords], dtype=np.int64)


__all__ = ["BoardGraph", "board_graph_problem", "grid_neighbours", "make_board_graph", "observation_planes"]
