"""The batched Gumbel tree search (envs/core/tree_search.py): the halving schedule, the trees against the rules
at every node, seeded repeats, and what the search finds."""

from __future__ import annotations

import numpy as np
import pytest

import envs
from envs.core.tree_search import TreeSearch, considered_visits

# (name, params): games whose moves draw no chance (the rules replay a path exactly)
GAMES = [
    ("swival", {}),
    ("twirls", {"board_size": 8}),
    ("swish", {"setup": "random"}),
    ("squeeze", {"setup": "fixed"}),
    ("swahili", {"num_players": 3}),
]


def noisy_network(batch, seed=0):
    """A network of random logits and values (seeded): trees of every shape."""
    rng = np.random.default_rng(seed)

    def evaluate(observations):
        n = len(observations)
        return rng.normal(size=(n, batch.num_actions)).astype(np.float32), rng.uniform(-1, 1, (n, batch.num_players))

    return evaluate


@pytest.mark.parametrize(
    ("considered", "simulations", "expected"),
    [
        (1, 5, [0, 1, 2, 3, 4]),
        (2, 4, [0, 0, 1, 1]),
        (4, 8, [0, 0, 0, 0, 1, 1, 2, 2]),
        (3, 7, [0, 0, 0, 1, 1, 2, 2]),
        (16, 20, [0] * 16 + [1] * 4),
    ],
)
def test_sequential_halving_visits(considered, simulations, expected):
    """The visits the root's next action must have, simulation by simulation (mctx's sequence)."""
    assert considered_visits(considered, simulations).tolist() == expected


def parents(trees, i):
    """{node: (parent, action)} of tree ``i``."""
    out = {}
    for n, k in zip(*np.nonzero(trees.child[i] >= 0)):
        out[int(trees.child[i, n, k])] = (int(n), int(trees.action[i, n, k]))
    return out


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_every_node_is_the_rules_position_of_its_path(name, params):
    """Each stored node is its parent's position after its action, as the rules play it: the same observation
    for every seat, the same legal moves, game end and rewards; candidates are legal moves."""
    batch = envs.make_batched(name, 12, seed=1, **params)
    for _ in range(4):
        batch.step(batch.random_actions(), autoreset=True)
    game = batch.engine.game
    observe = envs.make_raw(name, **params).observe_state
    search = TreeSearch(batch, noisy_network(batch), trees=12, simulations=24, considered=4, seed=3)
    search.run(batch, np.arange(12))
    t, rng = search.trees, np.random.default_rng(0)
    checked = 0
    for i in range(12):
        states = {0: batch.board_state(i)}
        for node, (parent, action) in sorted(parents(t, i).items()):
            state = game.copy_state(states[parent])
            rewards = game.apply(state, action, rng)
            states[node] = state
            stored = search.store.board_state(i * search.nodes + node)
            assert game.is_over(stored) == game.is_over(state) == bool(t.terminal[i, node])
            np.testing.assert_allclose(t.reward[i, node], rewards)
            np.testing.assert_array_equal(game.legal_mask(stored), game.legal_mask(state))
            for seat in range(game.num_players):
                np.testing.assert_array_equal(observe(game, stored, seat), observe(game, state, seat))
            if not game.is_over(state):
                assert t.mover[i, node] == game.to_move(state)
                listed = t.action[i, node][t.action[i, node] >= 0]
                assert listed.size and game.legal_mask(state)[listed].all()
            checked += 1
    assert checked > 12 * 10


@pytest.mark.parametrize(("name", "params"), [*GAMES, ("swimming", {"num_players": 4})])
def test_a_seeded_search_repeats_and_picks_legal_moves(name, params):
    batch = envs.make_batched(name, 16, seed=2, **params)
    for _ in range(3):
        batch.step(batch.random_actions(), autoreset=True)
    results = []
    for _ in range(2):
        search = TreeSearch(batch, noisy_network(batch, seed=5), trees=16, simulations=12, seed=7)
        results.append(search.run(batch, np.arange(16)))
    a, b = results
    np.testing.assert_array_equal(a.action, b.action)
    np.testing.assert_array_equal(a.policy, b.policy)
    np.testing.assert_array_equal(a.visits, b.visits)
    masks = batch.legal_mask()
    live = ~batch.over
    assert masks[np.flatnonzero(live), a.action[live]].all() and (a.action[~live] == -1).all()
    np.testing.assert_allclose(a.policy[live].sum(axis=1), 1.0, rtol=1e-5)
    assert (a.policy[live][~masks[live]] == 0).all()  # the target puts nothing on illegal moves
    assert a.visits.sum(axis=1)[live].max() == 12


def test_the_search_finds_a_win_the_network_does_not_see():
    """Swival boards where the mover has a line of three: the winning counter (72) ends the game at once. A
    network that rates every move alike and every position a draw leaves it to the search, which finds it
    on every board once every move is considered."""
    batch = envs.make_batched("swival", 64, seed=4)
    wins = []
    for _ in range(200):
        mask = batch.legal_mask()
        wins = np.flatnonzero(mask[:, 72] & ~batch.over)
        if wins.size >= 8:
            break
        batch.step(batch.random_actions(), autoreset=True)
    assert wins.size >= 8

    def flat(observations):
        return np.zeros((len(observations), 73), np.float32), np.zeros((len(observations), 2), np.float32)

    search = TreeSearch(batch, flat, trees=wins.size, simulations=160, considered=73, seed=0)
    result = search.run(batch, wins, gumbel=False)
    assert (result.action == 72).all()
    assert (result.policy[:, 72] > 0.5).all()  # the improved policy puts its weight on the win
    movers = batch.to_move[wins]
    assert (result.value[np.arange(wins.size), movers] > 0).all()


def test_values_are_by_seat_in_a_three_player_game():
    """The network's values come in seat order from the mover's; the search keeps them by absolute seat. After
    one simulation a root's value is its one child's: +1 for the child's mover, 0 for the next seat, -1 for
    the one after."""
    batch = envs.make_batched("swahili", 32, seed=0, num_players=3)
    for _ in range(6):
        batch.step(batch.random_actions(), autoreset=True)

    def mover_wins(observations):
        n = len(observations)
        return np.zeros((n, 12), np.float32), np.tile(np.float32([1.0, 0.0, -1.0]), (n, 1))

    live = np.flatnonzero(~batch.over)
    search = TreeSearch(batch, mover_wins, trees=live.size, simulations=1, seed=0)
    result = search.run(batch, live)
    t, checked = search.trees, 0
    for i in range(live.size):
        child = int(t.child[i, 0][t.child[i, 0] >= 0][0])
        if t.terminal[i, child] or t.reward[i, child].any():
            continue
        mover = int(t.mover[i, child])
        expected = np.zeros(3)
        expected[[mover, (mover + 1) % 3, (mover + 2) % 3]] = [1.0, 0.0, -1.0]
        np.testing.assert_allclose(result.value[i], expected)
        checked += 1
    assert checked > live.size // 2 and len(set(t.mover[:, 1].tolist())) == 3  # every seat seen as a mover


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"trees": 0}, "trees must be an int >= 1, got 0"),
        ({"trees": 4, "simulations": 0}, "simulations must be an int >= 1, got 0"),
        ({"trees": 4, "considered": 2.5}, "considered must be an int >= 1, got 2.5"),
        ({"trees": 4, "candidates": True}, "candidates must be an int >= 1, got True"),
    ],
)
def test_bad_settings_are_named(kwargs, named):
    batch = envs.make_batched("swival", 4, seed=0)
    with pytest.raises(ValueError) as err:
        TreeSearch(batch, noisy_network(batch), **kwargs)
    assert named in str(err.value)
