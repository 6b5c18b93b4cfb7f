"""Helpers shared by test modules of several folders (``from tests.helpers import ...``): where the repository and
its golden files are, in-memory policy files, and the batched engine played beside the AEC env."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from policies.numpy_policy import FORMAT_VERSION, NumpyPolicy

ROOT = Path(__file__).resolve().parents[1]  # the repository, whichever folder of tests/ a module sits in
GOLDEN = ROOT / "tests" / "golden"  # the golden playthroughs (``swgym golden`` writes them here)


def network_meta(game, params, size, num_actions, activation="tanh", **more):
    """The meta of an in-memory policy file for ``game`` under ``params`` (``more``: extra keys, e.g. a head)."""
    return {
        "format": FORMAT_VERSION,
        "game": game,
        "params": params or {},
        "observation_shape": [size],
        "num_actions": num_actions,
        "activation": activation,
        **more,
    }


def preference_policy(order, game="swival", params=None):
    """A network that ignores the position: ``order[0]`` most probable, then ``order[1]``, ...; value 0."""
    from envs.registry import make_raw

    env = make_raw(game, **(params or {}))
    size = int(np.prod(env.observation_space(env.possible_agents[0])["observation"].shape))
    actions = env.game.num_actions
    meta = network_meta(game, params, size, actions)
    bias = np.full(actions, -10.0, dtype=np.float32)
    for rank, action in enumerate(order):
        bias[action] = 10.0 - rank
    arrays = {
        "pi_w0": np.zeros((size, 4), np.float32),
        "pi_b0": np.zeros(4, np.float32),
        "vf_w0": np.zeros((size, 4), np.float32),
        "vf_b0": np.zeros(4, np.float32),
        "action_w": np.zeros((4, actions), np.float32),
        "action_b": bias,
        "value_w": np.zeros((4, 1), np.float32),
        "value_b": np.zeros(1, np.float32),
    }
    return NumpyPolicy((json.loads(json.dumps(meta)), arrays))


def factored_policy_file(game, params=None, hidden=8, rank=3, seed=0, moves_from_position=False):
    """(meta, arrays) of a random network with one hidden layer and a factored action head over ``game``'s
    action layout (numpy only), as ``training.network.write_network`` writes one; ``moves_from_position``: the
    moves' vectors also from the position, and a bias for every action."""
    from envs.registry import game_module, make_raw

    env = make_raw(game, **(params or {}))
    layout = game_module(game).raw_env.action_layout(env.game)
    size = int(np.prod(env.observation_space(env.possible_agents[0])["observation"].shape))
    rng = np.random.default_rng(seed)

    def random(*shape):
        return rng.normal(0, 0.3, shape).astype(np.float32)

    head = {"kind": "factored", "rank": rank, "cells": layout.cells, "moves": layout.moves}
    meta = network_meta(game, params, size, env.game.num_actions, head=head)
    arrays = {
        "pi_w0": random(size, hidden),
        "pi_b0": random(hidden),
        "vf_w0": random(size, hidden),
        "vf_b0": random(hidden),
        "value_w": random(hidden, 1),
        "value_b": random(1),
        "head_cell": layout.cell.astype(np.int32),
        "head_move": layout.move.astype(np.int32),
        "head_u_w": random(hidden, layout.cells * (rank + 1)),
        "head_u_b": random(layout.cells * (rank + 1)),
        "head_v": random(layout.moves, rank),
        "head_move_b": random(layout.moves),
        "head_other_w": random(hidden, layout.others.size),
        "head_other_b": random(layout.others.size),
    }
    if moves_from_position:
        meta["head"]["moves_from_position"] = True
        moving = layout.moves * rank
        arrays |= {"head_vh_w": random(hidden, moving), "head_vh_b": random(moving),
                   "head_action_b": random(env.game.num_actions)}  # fmt: skip
    return meta, arrays


def plies_without_torch(game, path, params=None):
    """Plies of a game the policy file at ``path`` plays against a random opponent in a fresh process, which
    fails if anything imports torch."""
    params = params or {}
    script = (
        "import sys\n"
        "from envs.core.opponents import RandomOpponent\n"
        "from envs.play import play_game\n"
        "from policies import load\n"
        f"player = load({game!r}, {str(path)!r}, seed=0, **{params!r})\n"
        f"record = play_game({game!r}, [player, RandomOpponent(0)], seed=0, **{params!r})\n"
        "assert 'torch' not in sys.modules, 'torch was imported'\n"
        "print(record.plies)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split()[-1])


def play_both(name, params, num_games, seed):
    """Random games through the batch and through one AEC env per board, compared at every step: masks, every
    seat's observation, rewards and ends. Each AEC game starts from its board's start position (the batch's deal,
    if any); a game whose steps deal chance or remove seats (Swimming) cannot be driven this way."""
    import envs

    batch = envs.make_batched(name, num_games, seed=seed, **params)
    aecs = []
    for i in range(num_games):
        aec = envs.make_raw(name, **params)
        aec.reset(seed=seed + i)
        aec.game_state = batch.board_state(i)  # the batch's chance (if any) into the AEC env
        aec.agent_selection = aec.possible_agents[aec.game.to_move(aec.game_state)]
        aecs.append(aec)
    players = batch.num_players
    steps = 0
    while not batch.over.all():
        live = np.flatnonzero(~batch.over)
        actions = batch.random_actions()
        where = f"step {steps}, boards {live[:8].tolist()}..."
        # one comparison per step over every live board (stacked): per-board asserts cost more than the games
        assert [aecs[i].agent_selection for i in live] == [aecs[i].possible_agents[batch.to_move[i]] for i in live]
        np.testing.assert_array_equal(
            batch.legal_mask()[live], np.stack([aecs[i].legal_mask() for i in live]), err_msg=f"masks, {where}"
        )
        for seat in range(players):
            np.testing.assert_array_equal(
                batch.observe(seat)[live],
                np.stack([aecs[i].observe_state(aecs[i].game, aecs[i].game_state, seat) for i in live]),
                err_msg=f"observations of seat {seat}, {where}",
            )
        rewards, done = batch.step(actions)
        for i in live:
            aecs[i].step(int(actions[i]))
        # the AEC's float rewards in the batch's reward dtype (float32: a 4-player loser's -1/3 rounds)
        expected = np.array([[aecs[i].rewards[a] for a in aecs[i].possible_agents] for i in live], dtype=rewards.dtype)
        np.testing.assert_array_equal(rewards[live], expected, err_msg=f"rewards, {where}")
        np.testing.assert_array_equal(
            done[live], [aecs[i].game.is_over(aecs[i].game_state) for i in live], err_msg=f"ends, {where}"
        )
        steps += 1
    return batch, aecs
