"""The legal moves' logits alone (NumpyPolicy.move_logits_and_seat_values, the compiled plain head of
policies/move_logits.py): the same logits as every action's, read at the moves, and the same searches."""

from __future__ import annotations

import numpy as np
import pytest

import envs
from policies import shipped_path
from policies.numpy_policy import NumpyPolicy
from policies.search.evaluators import evaluator, flat_evaluator
from policies.search.tree import TreeSearch, logits_of_moves
from tests.helpers import factored_policy_file


def positions(name, params, boards=48, plies=6, seed=0):
    """A batch a few random plies into its games, the movers' observations and each board's legal moves (k, L),
    legal first, -1 padding to the most legal moves of a board."""
    batch = envs.make_batched(name, boards, seed=seed, **params)
    for _ in range(plies):
        batch.step(batch.random_actions(), autoreset=True)
    mask = batch.legal_mask()
    order = np.argsort(~mask, axis=1, kind="stable")
    width = int(mask.sum(axis=1).max())
    moves = np.where(np.take_along_axis(mask, order, axis=1)[:, :width], order[:, :width], -1)
    return batch, batch.observe(batch.to_move).astype(np.float32), moves


def read_at(logits, moves):
    return np.where(moves >= 0, np.take_along_axis(logits, np.maximum(moves, 0), axis=1), -np.inf)


@pytest.mark.parametrize(("name", "params"), [("swish", {}), ("squeeze", {}), ("twirls", {})])
def test_a_plain_heads_move_logits_are_its_logits_at_the_moves(name, params):
    """The shipped files' plain heads (3114, 3114 and 2593 actions, a few dozen legal): each legal move's logit
    to rounding, -inf on the padding, the values bit for bit."""
    policy = NumpyPolicy(shipped_path(name, **params), name=name, params=params)
    _, obs, moves = positions(name, params)
    assert moves.shape[1] <= policy.head.LOOP_SHARE * policy.num_actions  # the compiled loop's case
    logits, values = policy.move_logits_and_seat_values(obs, moves)
    full, full_values = policy.logits_and_seat_values(obs)
    assert logits.shape == moves.shape and logits.dtype == np.float32
    np.testing.assert_allclose(logits, read_at(full, moves), rtol=1e-5, atol=1e-5)
    assert np.isneginf(logits[moves < 0]).all() and np.isfinite(logits[moves >= 0]).all()
    np.testing.assert_array_equal(values, full_values)


@pytest.mark.parametrize(("name", "params"), [("swival", {}), ("swahili", {"num_players": 4})])
def test_where_most_actions_are_legal_the_move_logits_are_the_products(name, params):
    """Swival's 73 actions, Swahili's 12: the matrix product read at the moves, bit for bit (the compiled loop
    would be slower there), so a search with ``compiled_head`` plays as without it."""
    policy = NumpyPolicy(shipped_path(name, **params), name=name, params=params)
    batch, obs, moves = positions(name, params)
    assert moves.shape[1] > policy.head.LOOP_SHARE * policy.num_actions
    np.testing.assert_array_equal(policy.move_logits_and_seat_values(obs, moves)[0], read_at(policy.logits(obs), moves))
    live = np.flatnonzero(~batch.over)
    runs = [
        TreeSearch(batch, evaluator(policy, batch.num_players, compiled_head=c), 48, 8, seed=1).run(batch, live)
        for c in (False, True)
    ]
    np.testing.assert_array_equal(runs[0].policy, runs[1].policy)


def test_a_plain_heads_move_logits_are_exact_where_the_sums_are():
    """Weights and inputs of small powers of two sum exactly in float32 in any order: the compiled loop gives
    the matrix product's logits bit for bit, so a wrong column or bias would show."""
    meta, arrays = factored_policy_file("swish")
    del meta["head"]
    for key in [k for k in arrays if k.startswith("head_")]:
        del arrays[key]
    rng = np.random.default_rng(3)
    width = arrays["pi_w0"].shape[1]
    arrays["action_w"] = rng.integers(-4, 5, (width, 3114)).astype(np.float32) / 8
    arrays["action_b"] = rng.integers(-4, 5, 3114).astype(np.float32) / 4
    head = NumpyPolicy((meta, arrays), name="swish", params={}).head
    _, obs, moves = positions("swish", {})
    h = rng.integers(-8, 9, (len(obs), width)).astype(np.float32) / 4
    np.testing.assert_array_equal(head.move_logits(h, moves), read_at(head.logits(h), moves))


@pytest.mark.parametrize(("name", "params"), [("swish", {}), ("twirls", {"board_size": 8})])
def test_a_factored_heads_move_logits_are_its_logits_at_the_moves(name, params):
    policy = NumpyPolicy(factored_policy_file(name, params), name=name, params=params)
    _, obs, moves = positions(name, params)
    logits, values = policy.move_logits_and_seat_values(obs, moves)
    np.testing.assert_array_equal(logits, read_at(policy.logits(obs), moves).astype(np.float32))
    np.testing.assert_array_equal(values, policy.seat_values(obs))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_logits_of_moves_reads_each_rows_logits_at_its_moves(dtype):
    rng = np.random.default_rng(2)
    logits = rng.normal(size=(9, 30)).astype(dtype)
    moves = np.where(rng.random((9, 12)) < 0.7, rng.integers(0, 30, (9, 12)), -1)
    read = logits_of_moves(logits, moves)
    assert read.dtype == np.float32 and read.shape == moves.shape
    np.testing.assert_array_equal(read, read_at(logits.astype(np.float32), moves))


def test_moves_for_other_positions_are_refused():
    policy = NumpyPolicy(shipped_path("swival"), name="swival", params={})
    _, obs, moves = positions("swival", {})
    with pytest.raises(ValueError, match="48 observations but legal moves for 47 positions"):
        policy.move_logits_and_seat_values(obs, moves[:47])


@pytest.mark.parametrize(("name", "params"), [("swish", {}), ("twirls", {})])
def test_the_compiled_head_searches_as_every_actions_logits(name, params):
    """The search with the legal moves' logits alone plays the same moves on these positions as with every
    action's, its improved policies within rounding."""
    policy = NumpyPolicy(shipped_path(name, **params), name=name, params=params)
    batch, _, _ = positions(name, params, boards=32)
    live = np.flatnonzero(~batch.over)
    results = [
        TreeSearch(batch, evaluator(policy, 2, compiled_head=compiled), trees=32, simulations=16, seed=4).run(
            batch, live
        )
        for compiled in (False, True)
    ]
    np.testing.assert_array_equal(results[0].action, results[1].action)
    np.testing.assert_allclose(results[0].policy, results[1].policy, atol=1e-5)
    np.testing.assert_allclose(results[0].value, results[1].value, atol=1e-5)


def test_the_flat_evaluator_rates_every_legal_move_alike_and_every_position_a_draw():
    _, obs, moves = positions("swahili", {"num_players": 3})
    logits, values = flat_evaluator(3)(None, np.arange(len(obs)), moves)
    assert logits.shape == moves.shape and values.shape == (len(obs), 3)
    assert not logits.any() and not values.any()


def test_a_bad_compiled_head_flag_is_named():
    policy = NumpyPolicy(shipped_path("swival"), name="swival", params={})
    with pytest.raises(ValueError, match="compiled_head must be True or False, got 'yes'"):
        evaluator(policy, 2, compiled_head="yes")
