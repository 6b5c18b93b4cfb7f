"""Declared symmetries play as the rules do: the transformed position's observation, legal moves and every
move's outcome are the original's, permuted as the symmetry says."""

from __future__ import annotations

import numpy as np
import pytest

import envs
from envs.registry import GAMES, game_module

DECLARED = [
    pytest.param(name, params, id=f"{name}-{params}")
    for name, entry in GAMES.items()
    for params in entry.variants
    if game_module(name).raw_env.symmetries(envs.make_raw(name, **params).game)
]


def positions(name, count, seed=0, **params):
    """Rules states of random play, some way into their games."""
    env = envs.make_raw(name, **params)
    game, rng = env.game, np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = game.new_state(rng)
        for _ in range(int(rng.integers(0, 20))):
            if game.is_over(state):
                break
            game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))), rng)
        out.append(state)
    return game, env.observe_state, out


def test_swival_declares_its_sixteen_symmetries():
    game = envs.make_raw("swival").game
    symmetries = game_module("swival").raw_env.symmetries(game)
    assert len({s.action.tobytes() for s in symmetries}) == 16
    assert (symmetries[0].action == np.arange(73)).all()  # the first is the identity


@pytest.mark.parametrize(("name", "size"), [("twirls", 9), ("twirls", 8)])
def test_twirls_declares_the_eight_symmetries_of_its_square(name, size):
    game = envs.make_raw(name, board_size=size).game
    symmetries = game_module(name).raw_env.symmetries(game)
    assert len({s.action.tobytes() for s in symmetries}) == 8
    assert (symmetries[0].action == np.arange(game.num_actions)).all()
    assert all(sorted(s.action) == list(range(game.num_actions)) for s in symmetries)  # each a permutation


@pytest.mark.parametrize(("name", "radius"), [("swish", 4), ("squeeze", 4), ("swish", 3)])
def test_hex_rook_games_declare_the_twelve_symmetries_of_the_hexagon(name, radius):
    game = envs.make_raw(name, radius=radius).game
    symmetries = game_module(name).raw_env.symmetries(game)
    assert len({s.action.tobytes() for s in symmetries}) == 12
    assert (symmetries[0].action == np.arange(game.num_actions)).all()
    assert all(sorted(s.action) == list(range(game.num_actions)) for s in symmetries)
    centre = game.hex.cell((0, 0))
    assert all(s.observation[centre] == centre for s in symmetries)  # every turn and mirror keeps the centre
    east = game.move_action(centre, 0, 1)  # the centre's rook one step east, turned once: one step south-east
    assert symmetries[1].action[game.move_action(centre, 5, 1)] == east


def test_games_without_declared_symmetries():
    """Swahili's actions are rows counted from the mover and its turn order tells every opponent apart;
    Swimming's actions name cards by their order in the hand, which a change of suits reorders."""
    for name in ("swahili", "swimming"):
        assert game_module(name).raw_env.symmetries(envs.make_raw(name).game) == []


@pytest.mark.parametrize(("name", "params"), DECLARED)
def test_a_transformed_position_plays_as_the_original(name, params):
    game, observe, states = positions(name, 30, **params)
    rng = np.random.default_rng(1)
    for state in states:
        mask = game.legal_mask(state)
        for sym in game_module(name).raw_env.symmetries(game):
            image = sym.state(state)
            for seat in range(game.num_players):
                np.testing.assert_array_equal(observe(game, image, seat), observe(game, state, seat)[sym.observation])
            np.testing.assert_array_equal(game.legal_mask(image), mask[sym.action])
            assert game.is_over(image) == game.is_over(state)
            for b in np.flatnonzero(game.legal_mask(image))[:6]:
                after_image, after = game.copy_state(image), game.copy_state(state)
                game.apply(after_image, int(b), rng)
                game.apply(after, int(sym.action[b]), rng)
                np.testing.assert_array_equal(observe(game, after_image, 0), observe(game, sym.state(after), 0))
                assert game.winners(after_image) == game.winners(after)
