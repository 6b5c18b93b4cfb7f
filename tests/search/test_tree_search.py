"""The batched Gumbel tree search (policies/search/tree.py): the halving schedule, the trees against the rules
at every node, seeded repeats, and what the search finds."""

from __future__ import annotations

import numpy as np
import pytest

import envs
from envs.core.batched import BatchedGame
from envs.opponents import make_opponent
from envs.play import play_game
from policies.search.tree import TreeSearch, considered_visits, every_action, observed, winning_moves

# (name, params): games whose moves draw no chance (the rules replay a path exactly)
GAMES = [
    ("swival", {}),
    ("twirls", {}),
    ("twirls", {"board_size": 8}),
    ("swish", {"setup": "random"}),
    ("squeeze", {"setup": "random"}),
    ("squeeze", {"setup": "fixed"}),
    ("swahili", {}),
    ("swahili", {"num_players": 3}),
    ("swahili", {"num_players": 4}),
]


def noisy_network(batch, seed=0):
    """A network of random logits and values (seeded): trees of every shape."""
    rng = np.random.default_rng(seed)

    def network(observations):
        n = len(observations)
        return rng.normal(size=(n, batch.num_actions)).astype(np.float32), rng.uniform(-1, 1, (n, batch.num_players))

    return every_action(network)


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


def rules_wins(game, state, rng):
    """The legal actions with which the player to move at ``state`` ends the game a winner, by the rules."""
    mover, out = game.to_move(state), []
    for action in np.flatnonzero(game.legal_mask(state)):
        child = game.copy_state(state)
        game.apply(child, int(action), rng)
        if game.is_over(child) and mover in game.winners(child):
            out.append(int(action))
    return out


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_leaf_wins_marks_the_nodes_whose_mover_wins_at_once(name, params):
    """With ``leaf_wins`` every stored node whose mover can end the game a winner, by the rules, is marked won,
    valued by that win's rewards, and walks stop there (it has no children); no other node is marked."""
    batch = envs.make_batched(name, 12, seed=1, **params)
    for _ in range(12 if name in ("swival", "twirls") else 4):  # later positions: more wins within reach
        batch.step(batch.random_actions(), autoreset=True)
    game, rng = batch.engine.game, np.random.default_rng(0)
    search = TreeSearch(batch, noisy_network(batch), trees=12, simulations=48, considered=4, leaf_wins=True, seed=3)
    search.run(batch, np.arange(12))
    t, marked, checked = search.trees, 0, 0
    for i in range(12):
        for node in [0, *parents(t, i)]:
            state = search.store.board_state(i * search.nodes + node)
            if game.is_over(state):
                assert not t.won[i, node]
                continue
            wins = rules_wins(game, state, rng)
            assert bool(t.won[i, node]) == bool(wins), (name, i, node, wins)
            if wins:
                child = game.copy_state(state)
                np.testing.assert_allclose(t.raw_value[i, node], game.apply(child, wins[0], rng))
                assert (t.child[i, node] < 0).all()
                marked += 1
            checked += 1
    assert checked > 12 * 10
    if name == "swival":  # within reach in a few plies of random play
        assert marked > 0


class Recording:
    """A player that adds a copy of every position it is asked to move in to ``states`` (shared by the seats)."""

    def __init__(self, player, game, states):
        self.player, self.game, self.states = player, game, states

    def reset(self, seed=None):
        self.player.reset(seed)

    def act(self, observation, action_mask, state):
        self.states.append(self.game.copy_state(state))
        return self.player.act(observation, action_mask, state)


def late_positions(name, params, games=3, last=8):
    """The last ``last`` positions of ``games`` games of medium against easy (where wins are within reach)."""
    game = envs.make_raw(name, **params).game
    out = []
    for seed in range(games):
        states = []
        bots = [
            make_opponent(name, "medium" if seat == 0 else "easy", seed=seed, **params)
            for seat in range(game.num_players)
        ]
        play_game(name, [Recording(player, game, states) for player in bots], seed=seed, **params)
        out.extend(states[-last:])
    return out


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_winning_moves_agree_with_the_rules(name, params):
    """On the last positions of medium's games against easy, and random plies on from them, the probe's first
    winning action of each board is the rules' first, with that move's rewards; none where the rules see none.
    The probe batch is smaller than the pairs it plays: several rounds."""
    states = late_positions(name, params)
    batch = envs.make_batched(name, len(states), seed=6, **params)
    game, rng, found = batch.engine.game, np.random.default_rng(0), 0
    probe = BatchedGame(batch.engine, 7, seed=0)
    for ply in range(6):
        if ply == 0:
            for i, state in enumerate(states):
                batch.set_board(i, state)
        else:
            batch.step(batch.random_actions(), autoreset=True)
        live = np.flatnonzero(~batch.over)
        masks = batch.legal_mask(live)
        moves = np.where(masks, np.arange(masks.shape[1]), -1)
        win, rewards = winning_moves(batch, live, moves, batch.to_move[live].astype(np.int64), probe)
        for r, board in enumerate(live):
            state = batch.board_state(int(board))
            wins = rules_wins(game, state, rng)
            assert win[r] == (wins[0] if wins else -1)
            if wins:
                np.testing.assert_allclose(rewards[r], game.apply(game.copy_state(state), wins[0], rng))
                found += 1
            else:
                assert not rewards[r].any()
    assert found >= 3  # a game's last mover wins at once (medium takes a win it has)


def test_leaf_wins_plays_a_win_the_network_does_not_see_at_once():
    """The Swival boards of the test below, with two simulations and two considered moves: without
    ``leaf_wins`` the search misses the line of three it never tries; with it every root plays the win, its
    whole policy on it, valued a win for the mover."""
    batch = envs.make_batched("swival", 64, seed=4)
    wins = swival_boards_with_a_win(batch)

    def flat(observations):
        return np.zeros((len(observations), 73), np.float32), np.zeros((len(observations), 2), np.float32)

    def search(leaf_wins):
        found = TreeSearch(
            batch, every_action(flat), trees=wins.size, simulations=2, considered=2, leaf_wins=leaf_wins, seed=0
        )
        return found.run(batch, wins, gumbel=False)

    assert (search(False).action != 72).any()
    result = search(True)
    assert (result.action == 72).all()
    np.testing.assert_array_equal(result.policy[:, 72], 1.0)
    np.testing.assert_array_equal(result.value[np.arange(wins.size), batch.to_move[wins]], 1.0)


def swival_boards_with_a_win(batch):
    """Boards of ``batch`` (random play) where the mover's counter 72 completes a line of three."""
    for _ in range(200):
        wins = np.flatnonzero(batch.legal_mask()[:, 72] & ~batch.over)
        if wins.size >= 8:
            return wins
        batch.step(batch.random_actions(), autoreset=True)
    raise AssertionError("no 8 Swival boards with a win in 200 plies of random play")


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
    wins = swival_boards_with_a_win(batch)

    def flat(observations):
        return np.zeros((len(observations), 73), np.float32), np.zeros((len(observations), 2), np.float32)

    search = TreeSearch(batch, every_action(flat), trees=wins.size, simulations=160, considered=73, seed=0)
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
    search = TreeSearch(batch, every_action(mover_wins), trees=live.size, simulations=1, seed=0)
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
        ({"trees": 4, "leaf_wins": "yes"}, "leaf_wins must be True or False, got 'yes'"),
    ],
)
def test_bad_settings_are_named(kwargs, named):
    batch = envs.make_batched("swival", 4, seed=0)
    with pytest.raises(ValueError) as err:
        TreeSearch(batch, noisy_network(batch), **kwargs)
    assert named in str(err.value)


def test_a_network_that_gives_every_actions_logits_is_named():
    """Swish keeps a list of legal moves: a network over its 3114 actions, not wrapped in every_action, is
    refused by name instead of read at the wrong columns."""
    batch = envs.make_batched("swish", 4, seed=0)

    def network(observations):
        return np.zeros((len(observations), batch.num_actions), np.float32), np.zeros((len(observations), 2))

    search = TreeSearch(batch, observed(lambda observations, moves: network(observations)), trees=4, simulations=2)
    named = r"logits of shape \(4, 3114\) for legal moves of shape \(4, \d+\).*every_action"
    with pytest.raises(ValueError, match=named):
        search.run(batch, np.arange(4))
    assert (TreeSearch(batch, every_action(network), trees=4, simulations=2).run(batch, np.arange(4)).action >= 0).all()
