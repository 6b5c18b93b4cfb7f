"""The batched core (envs/core/batched.py) and the learner's vector env built on it: positions copied between
boards, seeded streams, the compiled random opponents, bad input, and the vector env's bookkeeping.

Every game with a batched engine (``batched=`` in its registry entry) and every variant the registry lists is
picked up here. The engine played against the AEC env move by move is in the conformance suite
(tests/conformance/test_every_variant.py).
"""

import itertools
import subprocess
import sys

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import envs
from envs.registry import GAMES
from envs.vector import batch_opponent

BATCHED = [
    pytest.param(name, params, id=f"{name}-{params}") for name, e in GAMES.items() if e.batched for params in e.variants
]


@pytest.mark.parametrize(("name", "params"), BATCHED)
def test_conversions_round_trip_on_mid_game_positions(name, params):
    batch = envs.make_batched(name, 64, seed=3, **params)
    rng = np.random.default_rng(0)
    plies = rng.integers(0, 30, size=64)
    for ply in range(30):
        batch.step(np.where(plies > ply, batch.random_actions(), -1))
    copy = envs.make_batched(name, 64, seed=99, **params)
    for i in range(64):
        state = batch.board_state(i)
        copy.set_board(63 - i, state)
        assert copy.board_state(63 - i) == state
    flipped = np.arange(63, -1, -1)
    np.testing.assert_array_equal(copy.legal_mask()[flipped], batch.legal_mask())
    for seat in range(batch.num_players):
        np.testing.assert_array_equal(copy.observe(seat)[flipped], batch.observe(seat))


@pytest.mark.parametrize(("name", "params"), BATCHED)
def test_same_seed_same_games_and_streams_differ_by_board(name, params):
    def trace(seed):  # rewards and the positions reached: games with only final rewards last over 40 plies
        batch = envs.make_batched(name, 16, seed=seed, **params)
        return [
            np.hstack([batch.step(batch.random_actions(), autoreset=True)[0], batch.observe(batch.to_move)])
            for _ in range(40)
        ], batch

    (a, batch_a), (b, _), (c, _) = trace(5), trace(5), trace(6)
    assert all((x == y).all() for x, y in zip(a, b))
    assert not all((x == y).all() for x, y in zip(a, c))
    assert len({int(s) for s in batch_a.rng}) == 16


def random_others_in_python(batch, seats):
    """play_random_others written as the Python loop it replaces: random picks for the waiting boards, a step."""
    received = np.zeros(batch.num_envs, dtype=np.float32)
    while True:
        waiting = batch.in_game(seats) & (batch.to_move != seats)
        if not waiting.any():
            return received
        rewards, _ = batch.step(batch.random_actions(waiting))
        received += rewards[np.arange(batch.num_envs), seats]


@pytest.mark.parametrize(("name", "params"), BATCHED)
def test_compiled_random_others_play_as_the_python_loop(name, params):
    """The compiled loop draws the same moves from the same streams and pays the learner's seat the same."""
    compiled_batch, python_batch = (envs.make_batched(name, 64, seed=3, **params) for _ in range(2))
    seats = (np.arange(64) % compiled_batch.num_players).astype(np.int8)
    ended = 0
    for _ in range(220):  # a Twirls game reaches its 400-ply limit by about the 200th: every game ends at least once
        got = compiled_batch.play_random_others(seats)
        np.testing.assert_array_equal(got, random_others_in_python(python_batch, seats))
        np.testing.assert_array_equal(compiled_batch.legal_mask(), python_batch.legal_mask())
        for mine, theirs in zip(compiled_batch.state, python_batch.state):
            np.testing.assert_array_equal(mine, theirs)
        ended += compiled_batch.over.sum()
        learner = compiled_batch.random_actions(compiled_batch.in_game(seats))
        python_batch.random_actions(python_batch.in_game(seats))  # the same draw from the same streams
        compiled_batch.step(learner)
        python_batch.step(learner)
        compiled_batch.reset_done()
        python_batch.reset_done()
    assert ended > 0  # games ended on the opponents' moves: their final rewards were compared


def test_import_envs_does_not_import_numba():
    code = "import sys, envs; envs.make('swival'); print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_bad_input_is_named():
    batch = envs.make_batched("swival", 4, seed=0)
    with pytest.raises(ValueError, match=r"illegal action.*board 2: 72"):
        batch.step(np.array([0, 0, 72, 0]))
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        batch.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="seats must be in"):
        batch.observe(np.array([0, 1, 2, 0]))
    with pytest.raises(ValueError, match="num_envs"):
        envs.make_batched("swival", 0)
    with pytest.raises(TypeError, match="unknown keyword"):
        envs.make_batched("swival", 4, board_size=8)
    without = [name for name, e in GAMES.items() if not e.batched]
    for name in without:
        with pytest.raises(NotImplementedError, match=name):
            envs.make_vec(name, 4)


def test_finished_boards_stay_finished_until_reset():
    batch = envs.make_batched("swival", 8, seed=1)
    while not batch.over.any():
        batch.step(batch.random_actions())
    over = batch.over.copy()
    assert not batch.legal_mask()[over].any()
    rewards, done = batch.step(batch.random_actions())
    assert (rewards[over] == 0).all() and done[over].all()
    assert (batch.reset_done() == batch.over | over).any()
    assert not batch.over[over].any()


# -- the learner's vector env ------------------------------------------------------------
def run_vec(vec, steps, rng):
    """Random legal learner moves; returns every step's (rewards, terminated, seats)."""
    out = []
    for _ in range(steps):
        masks = vec.action_masks()
        assert masks.shape == (vec.num_envs, vec.single_action_space.n) and masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _, rewards, terminated, _, infos = vec.step(actions)
        out.append((rewards.copy(), terminated.copy(), infos["seat"].copy()))
    return out


def test_vector_env_spaces_seats_and_results():
    vec = envs.make_vec("swival", 64, opponent="random", seed=0)
    assert vec.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert vec.single_observation_space.shape == (78,) and vec.single_action_space.n == 73
    obs, infos = vec.reset()
    assert obs.shape == (64, 78) and obs.dtype == np.float32 and vec.observation_space.contains(obs)
    assert set(infos["seat"].tolist()) == {0, 1}  # drawn per episode, both seats taken
    trace = run_vec(vec, 80, np.random.default_rng(0))
    rewards = np.concatenate([r[t] for r, t, _ in trace])
    assert set(rewards.tolist()) <= {-1.0, 0.0, 1.0} and (rewards == 1).any() and (rewards == -1).any()
    # NEXT_STEP: the step after an end starts a new game on that board, with no reward
    for (_, ended, _), (r, t, _) in itertools.pairwise(trace):
        assert (r[ended] == 0).all() and not t[ended].any()
    again = envs.make_vec("swival", 64, opponent="random", seed=0)
    again.reset()
    assert all((a[0] == b[0]).all() for a, b in zip(trace, run_vec(again, 80, np.random.default_rng(0))))


def test_vector_env_same_step_hands_over_the_final_observation():
    vec = envs.make_vec("swival", 16, opponent="random", seed=2, autoreset_mode="SameStep")
    vec.reset()
    rng = np.random.default_rng(1)
    for _ in range(40):
        masks = vec.action_masks()
        obs, _, terminated, _, infos = vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        if terminated.any():
            assert (infos["_final_obs"] == terminated).all()
            assert (obs[terminated, 48:72] == 1).sum(axis=1).min() >= 23  # fresh games: (nearly) empty boards
            return
    pytest.fail("no game ended in 40 steps")


def test_vector_env_opponents_batched_callable_and_per_board(tmp_path):
    import json

    from policies import shipped_path
    from policies.numpy_policy import NumpyPolicy, read_policy_file

    calls = []

    def first_legal(observations, masks):
        calls.append(len(masks))
        return masks.argmax(axis=1)

    vec = envs.make_vec("swival", 32, opponent=first_legal, seed=0, seat=1)
    obs, _ = vec.reset()
    assert calls == [32] and (obs[:, 24 + 0] == 1).all()  # the opponent (seat 0) placed on cell 0 everywhere

    policy = NumpyPolicy(shipped_path("swival"))
    batch = envs.make_batched("swival", 64, seed=4)
    for _ in range(7):
        batch.step(batch.random_actions())
    boards = np.flatnonzero(~batch.over)
    obs, masks = batch.observe(batch.to_move), batch.legal_mask()
    expected = [policy.act(obs[b], masks[b]) for b in boards]  # one board at a time
    np.testing.assert_array_equal(batch_opponent("swival", policy).actions(batch, boards), expected)
    meta, arrays = read_policy_file(shipped_path("swival"))
    meta.pop("search", None)  # the network alone: batched (a file with a search plays per board)
    np.savez(tmp_path / "net.npz", meta=json.dumps(meta), **arrays)
    vec = envs.make_vec("swival", 32, opponent=str(tmp_path / "net.npz"), seed=0)
    assert type(vec.opponents[0]).__name__ == "PolicyBatch"
    vec.reset()
    assert run_vec(vec, 12, np.random.default_rng(0))

    vec = envs.make_vec("swival", 4, opponent="easy", seed=0)
    vec.reset()
    trace = run_vec(vec, 30, np.random.default_rng(0))
    assert any(t.any() for _, t, _ in trace)


def test_gymnasium_make_vec_finds_the_batched_env():
    vec = gymnasium.make_vec("swgym/Swival-v0", num_envs=8, vectorization_mode="vector_entry_point")
    obs, _ = vec.reset(seed=0)
    assert obs.shape == (8, 78) and vec.action_masks().shape == (8, 73)
    with pytest.raises(ValueError, match="illegal learner action"):
        masks = vec.action_masks()
        vec.step(np.array([np.flatnonzero(~m)[0] if (~m).any() else 80 for m in masks]))


@pytest.mark.parametrize("width", [73, 80, 3120])  # a byte at a time; whole 8-byte words (one group, many groups)
@pytest.mark.parametrize(
    ("legal", "expected"),
    [
        ([5, 40, 72], {5, 40, 72}),  # few legal
        (list(range(0, 73, 2)), set(range(0, 73, 2))),  # many legal
        ([0, 7, 8, 63, 64, 72], {0, 7, 8, 63, 64, 72}),  # the first and last byte of words
        ([], {-1}),  # none legal: -1
    ],
)
def test_random_legal_actions_are_uniform_over_the_legal_ones(legal, expected, width):
    from envs.core.batched import random_legal_actions, seed_streams

    n = 20_000
    mask = np.zeros((n, width), dtype=bool)
    mask[:, legal] = True
    if width > 128:  # legal ones in later groups of 16 words too
        mask[:, [1000, 2047, 3119]] = True
        expected = expected - {-1} | {1000, 2047, 3119}
    out = np.empty(n, dtype=np.int64)
    random_legal_actions(mask, seed_streams(0, n), np.ones(n, dtype=bool), out)
    values, counts = np.unique(out, return_counts=True)
    assert set(values.tolist()) == expected
    assert counts.min() > 0.8 * n / len(expected)


@pytest.mark.parametrize("name", ["twirls", "swish", "squeeze"])
def test_listed_legal_actions_are_the_mask(name):
    """Games whose legal kernel lists the legal actions for the random pick: each True entry once, nothing else;
    the random pick draws only from them."""
    batch = envs.make_batched(name, 64, seed=3)
    moves, num_moves = (batch.arrays[k] for k in batch.engine.legal_list)
    for _ in range(60):
        mask = batch.legal_mask()
        for i in range(batch.num_envs):
            listed = moves[i, : num_moves[i]]
            assert len(set(listed.tolist())) == len(listed)
            assert sorted(listed.tolist()) == np.flatnonzero(mask[i]).tolist()
        actions = batch.random_actions()
        assert all(mask[i, a] if a >= 0 else not mask[i].any() for i, a in enumerate(actions))
        batch.step(actions, autoreset=True)


def toy_engine():
    """A 3-ply game in plain numpy whose first move (seat 0's) scores +1 / -1: the vector env's bookkeeping."""
    from envs.core.batched import Engine, board_state

    def reset(where, s, c):
        s.to_move[where], s.over[where], s.plies[where] = 0, False, 0

    def legal(out, s, c):
        out[:] = ~s.over[:, None]

    def step(actions, rewards, s, c):
        moving = actions >= 0
        rewards[moving & (s.plies == 0)] = (1.0, -1.0)
        s.plies[moving] += 1
        s.to_move[moving] = 1 - s.to_move[moving]
        s.over[moving & (s.plies >= 3)] = True

    def observe(seats, out, s, c):
        out[:, 0] = s.plies / 3

    return Engine(
        name="toy",
        num_players=2,
        num_actions=2,
        obs_size=1,
        arrays={"plies": ((), np.int8)},
        reset=reset,
        legal=legal,
        step=step,
        observe=observe,
        to_rules=None,
        from_rules=None,
        state=board_state(__name__, ("plies",)),
    )


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        # the learner (seat 1) moves once per game; the opponent's first move (-1 for the learner) comes before
        # it and is carried into the learner's first step; NEXT_STEP's reset step has reward 0
        ("NextStep", [(-1.0, True), (0.0, False), (-1.0, True)]),
        ("SameStep", [(-1.0, True), (-1.0, True), (-1.0, True)]),
    ],
)
def test_what_the_learner_gets_before_its_first_move_comes_with_that_move(monkeypatch, mode, expected):
    from envs import vector
    from envs.core.batched import BatchedGame

    monkeypatch.setattr(vector, "make_batched", lambda game, n, seed=None, **rules: BatchedGame(toy_engine(), n, seed))
    vec = vector.BatchedVectorEnv(
        "toy", 3, opponent=lambda obs, masks: np.zeros(len(masks), dtype=np.int64), seat=1, autoreset_mode=mode
    )
    obs, _ = vec.reset()
    assert (obs[:, 0] == 1 / 3).all()  # the opponent moved first
    for reward, terminated in expected:
        _, rewards, done, _, _ = vec.step(np.zeros(3, dtype=np.int64))
        assert (rewards == reward).all() and (done == terminated).all()


def test_an_engine_listing_arrays_it_does_not_have_is_named():
    from dataclasses import replace

    from envs.core.batched import BatchedGame

    with pytest.raises(ValueError, match=r"toy: legal_list names \('moves', 'nmoves'\)"):
        BatchedGame(replace(toy_engine(), legal_list=("moves", "nmoves")), 4, seed=0)
