"""The games' action layouts (envs/core/action_layout.py, each env's ``action_layout``): every action is the
(cell, move) pair the rules' own decoding and names give it, or an action of its own; the pairs are a bijection
onto cells x moves; the played moves leave from their cell."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.action_layout import layout_problem, make_layout
from envs.hexrook.board import CHOICE_NAMES, KIND_NAMES, PHASE_PLAY, HexRookGame
from envs.registry import game_module, make_raw
from envs.twirls.rules import DIRECTION_NAMES, TURN_NAMES, TwirlsState

HEXROOK = [("swish", {}), ("squeeze", {}), ("swish", {"radius": 3}), ("squeeze", {"radius": 6})]
TWIRLS = [("twirls", {}), ("twirls", {"board_size": 8})]


def layout_of(name, params):
    raw = make_raw(name, **params)
    return raw.game, game_module(name).raw_env.action_layout(raw.game)


@pytest.mark.parametrize(("name", "params"), HEXROOK)
def test_every_hexrook_action_is_the_pair_the_rules_decode_and_name(name, params):
    game, layout = layout_of(name, params)
    assert isinstance(game, HexRookGame) and layout.num_actions == game.num_actions
    assert (layout.cells, layout.moves) == (game.hex.n, 6 * game.span + 3)
    empty, names = game.empty_state(), game.hex.names
    for action in range(game.num_actions):
        cell, move = int(layout.cell[action]), int(layout.move[action])
        name_of = game.action_name(empty, action)
        if action < game.num_moves:  # a rook move: origin cell, direction * span + distance - 1
            direction, distance = divmod(move, game.span)
            assert game.decode_move(action) == (cell, direction, distance + 1)
            assert game.move_action(cell, direction, distance + 1) == action
            ray = game.hex.rays[cell][direction]
            landing = names[ray[distance]] if distance < len(ray) else "off-board"
            assert name_of == f"{names[cell]}-{landing}"
        elif action < game.choice_base:  # a placement: its cell, 6 * span + kind
            assert move >= 6 * game.span and name_of == f"{KIND_NAMES[move - 6 * game.span]}@{names[cell]}"
        else:
            assert (cell, move) == (-1, -1) and name_of == CHOICE_NAMES[action - game.choice_base]


@pytest.mark.parametrize(("name", "params"), TWIRLS)
def test_every_twirl_is_the_pair_the_rules_name(name, params):
    """On an empty board no twirl has a pivot, so the rules name each by its origin, direction and turn."""
    game, layout = layout_of(name, params)
    assert (layout.cells, layout.moves, layout.num_actions) == (game.size**2, 32, game.num_actions)
    empty, names = TwirlsState([0, 0]), game.tables.names
    for action in range(game.num_actions):
        cell, move = int(layout.cell[action]), int(layout.move[action])
        if action == game.swap_action:
            assert (cell, move) == (-1, -1) and game.action_name(empty, action) == "swap"
        else:
            direction, turn = divmod(move, 4)
            expected = f"{names[cell]}>{DIRECTION_NAMES[direction]}{TURN_NAMES[turn]}"
            assert game.action_name(empty, action) == expected


@pytest.mark.parametrize(("name", "params"), HEXROOK + TWIRLS)
def test_the_layout_is_a_bijection_onto_the_pairs_and_the_other_actions(name, params):
    game, layout = layout_of(name, params)
    pairs = layout.cell >= 0
    keys = np.sort(layout.cell[pairs] * layout.moves + layout.move[pairs])
    np.testing.assert_array_equal(keys, np.arange(layout.cells * layout.moves))
    others = layout.others.tolist()
    if name == "twirls":
        assert others == [game.swap_action]
    else:
        assert others == list(range(game.choice_base, game.choice_base + 3))
    source = layout.source
    np.testing.assert_array_equal(np.sort(source), np.arange(game.num_actions))  # one gather lays every action out


@pytest.mark.parametrize(("name", "params"), [("swish", {"setup": "marquisian"}), ("squeeze", {}), ("twirls", {})])
def test_played_actions_act_from_their_cell(name, params):
    """Random games by the rules: a played pair action moves the piece on its cell (or places on it)."""
    game, layout = layout_of(name, params)
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(3):
        state = game.new_state(rng)
        for _ in range(60):
            if game.is_over(state):
                break
            action = int(rng.choice(np.flatnonzero(game.legal_mask(state))))
            cell, move = int(layout.cell[action]), int(layout.move[action])
            before = game.copy_state(state)
            game.apply(state, action, rng)
            if cell < 0:
                continue
            checked += 1
            if name == "twirls":
                assert state.last[0] == cell and before.stones[before.colour_to_move] >> cell & 1
            elif move < 6 * game.span:
                assert before.phase == PHASE_PLAY and state.last_path[0] == cell
                direction, distance = divmod(move, game.span)
                assert state.last_path[-1] == game.hex.rays[cell][direction][distance]
            else:
                assert before.board[cell] == 0 != state.board[cell]
    assert checked > 100


@pytest.mark.parametrize("name", ["swival", "swimming", "swahili"])
def test_small_games_keep_the_plain_head(name):
    raw = make_raw(name)
    assert game_module(name).raw_env.action_layout(raw.game) is None


@pytest.mark.parametrize(
    ("cell", "move", "named"),
    [
        ([0, 1, -1], [0, 0], "equally long"),
        ([0, 5], [0, 0], "cells must be in [-1, 2)"),
        ([0, -1], [0, 1], "action 1 has cell -1 and move 1"),
        ([0, 0], [1, 1], "share a (cell, move) pair"),
        ([0.0, 1.0], [0, 0], "whole numbers"),
    ],
)
def test_a_wrong_layout_is_named(cell, move, named):
    assert named in layout_problem(np.array(cell), np.array(move), 2, 2)
    with pytest.raises(ValueError, match="action layout"):
        make_layout(np.array(cell), np.array(move), 2, 2)
