"""Board graphs (envs/core/board_graph.py): each game's planes point at its observation's values of one cell, its
neighbours are the board's, the graph is the same seen through every declared symmetry, and a bad graph is named.
The convolution that reads them is pinned between torch and numpy in tests/training/test_gumbel_training.py."""

from __future__ import annotations

import numpy as np
import pytest

import envs
from envs.core.board_graph import board_graph_problem, grid_neighbours, make_board_graph
from envs.registry import game_module

# (name, params, cells, planes, directions, {cell: its neighbours on the board})
GRAPHS = [
    ("swival", {}, 24, 3, 4, {0: {1, 7, 8}, 8: {9, 15, 0, 16}, 16: {17, 23, 8}}),
    ("twirls", {}, 81, 3, 8, {0: {1, 9, 10}, 40: {30, 31, 32, 39, 41, 48, 49, 50}}),
    ("twirls", {"board_size": 8}, 64, 3, 8, {63: {62, 54, 55}}),
    ("swish", {}, 61, 5, 6, {}),
    ("squeeze", {"radius": 3}, 37, 5, 6, {}),
]


def graph_of(name, params):
    game = envs.make_raw(name, **params).game
    return game, game_module(name).raw_env.board_graph(game)


@pytest.mark.parametrize(("name", "params", "cells", "planes", "directions", "known"), GRAPHS)
def test_each_board_game_declares_its_graph(name, params, cells, planes, directions, known):
    game, graph = graph_of(name, params)
    assert (graph.planes.shape, graph.neighbours.shape) == ((planes, cells), (cells, directions))
    for cell, expected in known.items():
        assert set(graph.neighbours[cell]) - {-1} == expected
    on_board = graph.neighbours >= 0
    for cell, other in zip(*np.nonzero(on_board)):  # next to each other both ways
        assert cell in graph.neighbours[graph.neighbours[cell, other]]
    if name in ("swish", "squeeze"):  # a hexagon: the centre has six neighbours, a corner three
        degrees = on_board.sum(axis=1)
        assert degrees[game.hex.cell((0, 0))] == 6 and degrees.min() == 3 and (degrees == 3).sum() == 6


def test_games_without_a_board_of_cells_declare_no_graph():
    for name in ("swimming", "swahili"):
        assert game_module(name).raw_env.board_graph(envs.make_raw(name).game) is None


@pytest.mark.parametrize(("name", "params"), [(g[0], g[1]) for g in GRAPHS])
def test_the_planes_are_the_observation_s_cells(name, params):
    """In positions of random games every cell is own, the opponent's or empty in exactly one plane (Swish and
    Squeeze: or a bead), and the planes' values are the observation's at those indices."""
    env = envs.make_raw(name, **params)
    game, graph = graph_of(name, params)
    rng = np.random.default_rng(0)
    occupancy = graph.planes[:4] if name in ("swish", "squeeze") else graph.planes
    for _ in range(10):
        state = game.new_state(rng)
        for _ in range(int(rng.integers(0, 30))):
            if game.is_over(state):
                break
            game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))), rng)
        obs = env.observe_state(game, state, 0)
        np.testing.assert_array_equal(obs[occupancy].sum(axis=0), np.ones(graph.cells))


@pytest.mark.parametrize(("name", "params"), [(g[0], g[1]) for g in GRAPHS])
def test_the_graph_is_the_same_through_every_symmetry(name, params):
    """A symmetry moves every plane's cell to the same plane's cell (one permutation of cells for all planes) and
    takes neighbours to neighbours, so a convolution sees a turned position as a turned board."""
    game, graph = graph_of(name, params)
    where = {int(index): cell for cell, index in enumerate(graph.planes[0])}
    for sym in game_module(name).raw_env.symmetries(game):
        image = np.array([where[int(i)] for i in sym.observation[graph.planes[0]]])
        assert sorted(image) == list(range(graph.cells))
        np.testing.assert_array_equal(sym.observation[graph.planes], graph.planes[:, image])
        for cell in range(graph.cells):
            mapped = {int(image[n]) for n in graph.neighbours[cell] if n >= 0}
            assert mapped == set(graph.neighbours[image[cell]]) - {-1}


@pytest.mark.parametrize(
    ("planes", "neighbours", "named"),
    [
        ([0, 1], [[1], [0]], "non-empty 2-d arrays"),
        ([[0.0, 1.0]], [[1], [0]], "whole numbers"),
        ([[0, 1]], [[1], [0], [1]], "2 cells in the planes but 3 rows of neighbours"),
        ([[0, 9]], [[1], [0]], "plane indices must be in [0, 4)"),
        ([[0, 0]], [[1], [0]], "two plane cells share an observation index"),
        ([[0, 1]], [[2], [0]], "neighbours must be cells in [0, 2) or -1"),
        ([[0, 1]], [[0], [-1]], "a cell is its own neighbour"),
    ],
)
def test_a_bad_graph_is_named(planes, neighbours, named):
    assert named in board_graph_problem(np.array(planes), np.array(neighbours), 4)
    with pytest.raises(ValueError, match=f"board graph: .*{named[:20]}"):
        make_board_graph(np.array(planes), np.array(neighbours), 4)


def test_grid_neighbours_step_in_the_given_order():
    coords = [(0, 0), (1, 0), (0, 1)]
    np.testing.assert_array_equal(grid_neighbours(coords, [(1, 0), (0, 1)]), [[1, 2], [-1, -1], [-1, -1]])
