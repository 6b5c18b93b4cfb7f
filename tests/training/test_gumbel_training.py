"""Gumbel Expert Iteration (training/gumbel.py) and the player it ships (policies/search/gumbel.py): settings named when
wrong, the exported network equal to the torch one, a tiny run end to end (chunks, resume, the file playing with
its search), and seeded repeats."""

from __future__ import annotations

import hashlib
import importlib.util
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
import torch

import envs
from envs.core.opponents import RandomOpponent
from envs.opponents import make_opponent
from envs.play import play_game
from policies import POLICY_DIR, load
from policies.numpy_policy import NumpyPolicy, PolicyFileError, read_policy_file, write_policy_file
from policies.search.evaluators import policy_network
from policies.search.gumbel import GumbelPlayer
from tests.helpers import ROOT, plies_without_torch
from training.gumbel import (
    Settings,
    board_conv,
    generate,
    generator_parts,
    head_layout,
    learn,
    load_buffer,
    self_play,
    train,
    write_chunk,
)
from training.network import BoardConv, FactoredHead, Network, network_from_file, write_network

TINY = {"boards": 16, "games": 16, "simulations": 8, "cheap_simulations": 2, "full_share": 0.5, "hidden": [16]}


@pytest.mark.parametrize(
    ("section", "named"),
    [
        ({"iterationz": 3}, "unknown setting(s) ['iterationz']"),
        ({"boards": 0}, "boards must be a whole number >= 1, got 0"),
        ({"simulations": 2.5}, "simulations must be a whole number >= 0, got 2.5"),
        ({"full_share": 1.5}, "full_share must be in (0, 1], got 1.5"),
        ({"full_share": True}, "full_share must be a number above 0, got True"),
        ({"hidden": [32, 0]}, "hidden must be a list of layer widths >= 1, got [32, 0]"),
        ({"hidden": [32, True]}, "hidden must be a list of layer widths >= 1, got [32, True]"),
        ({"epochs": False}, "epochs must be a whole number >= 0, got False"),
        ({"activation": "gelu"}, "activation must be one of ['relu', 'tanh'], got 'gelu'"),
        ({"head": "conv"}, "head must be one of ['plain', 'factored'], got 'conv'"),
        ({"rank": 0}, "rank must be a whole number >= 1, got 0"),
        ({"generators": 0}, "generators must be a whole number >= 1, got 0"),
        ({"games": 4, "generators": 5}, "generators (5) must not exceed games (4)"),
        ({"value_weight": -1}, "value_weight must be a number >= 0, got -1"),
        ({"policy_weight": "1"}, "policy_weight must be a number >= 0, got '1'"),
        ({"policy_weight": 0, "value_weight": 0}, "policy_weight and value_weight are both 0"),
        ({"root_value_weight": 1.5}, "root_value_weight must be a number in [0, 1], got 1.5"),
        ({"eval_opponents": "medium"}, "eval_opponents must be a list of opponent names, got 'medium'"),
        ({"root_value_weight": True}, "root_value_weight must be a number in [0, 1], got True"),
        ({"conv_channels": 0}, "conv_channels must be a whole number >= 1, got 0"),
        ({"conv_layers": -1}, "conv_layers must be a whole number >= 0, got -1"),
        ({"eval_opening_plies": -1}, "eval_opening_plies must be a whole number >= 0, got -1"),
    ],
)
def test_bad_settings_are_named(section, named):
    with pytest.raises(ValueError) as err:
        Settings.from_config(section, where="swival config: gumbel")
    assert named in str(err.value) and "swival config: gumbel" in str(err.value)


def test_the_policy_file_plays_as_the_torch_network(tmp_path):
    torch.manual_seed(0)
    net = Network(78, 73, (24, 12), "relu")
    path = write_network(net, tmp_path / "net.npz", "swival", {}, {"kind": "gumbel", "simulations": 4})
    policy = NumpyPolicy(path, name="swival")
    obs = np.random.default_rng(0).random((50, 78), dtype=np.float32)
    logits, values = net(torch.as_tensor(obs))
    mine_logits, mine_values = policy.forward(obs)
    np.testing.assert_allclose(mine_logits, logits.detach().numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(mine_values, values.detach().numpy()[:, 0], rtol=1e-5, atol=1e-5)


def test_a_value_a_seat_plays_as_the_torch_network_and_feeds_the_search(tmp_path):
    """Swahili with 3 players: the file's value head gives each seat's value, the numpy policy's seat_values are
    the torch network's, its values the mover's column, and the search is handed all three."""
    torch.manual_seed(0)
    batch = envs.make_batched("swahili", 8, seed=0, num_players=3)
    net = Network(batch.obs_size, batch.num_actions, (16,), "tanh", value_outputs=3)
    path = write_network(net, tmp_path / "n.npz", "swahili", {"num_players": 3}, {"kind": "gumbel"})
    policy = NumpyPolicy(path, name="swahili", params={"num_players": 3})
    obs = batch.observe(batch.to_move).astype(np.float32)
    values = net(torch.as_tensor(obs))[1].detach().numpy()
    assert policy.value_outputs == 3 and values.shape == (8, 3)
    np.testing.assert_allclose(policy.seat_values(obs), values, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(policy.values(obs), values[:, 0], rtol=1e-5, atol=1e-5)
    moves = np.tile(np.arange(batch.num_actions), (8, 1))
    np.testing.assert_allclose(policy_network(policy, 3)(obs, moves)[1], values, rtol=1e-5, atol=1e-5)
    mover_only = policy_network(NumpyPolicy(write_network(Network(batch.obs_size, batch.num_actions, (16,), "tanh"),
                                                     tmp_path / "m.npz", "swahili", {"num_players": 3}, {}),
                                       name="swahili", params={"num_players": 3}), 3)(obs, moves)[1]  # fmt: skip
    np.testing.assert_allclose(mover_only[:, 1], -mover_only[:, 0] / 2, rtol=1e-5)  # the stand-in


@pytest.mark.parametrize(
    ("meta", "named"),
    [
        ({"value_outputs": "3"}, "value_outputs = '3', expected an int >= 1"),
        ({"value_outputs": 3}, "gives 1 outputs, expected 3"),
    ],
)
def test_a_bad_value_head_is_named(tmp_path, meta, named):
    path = write_network(Network(78, 73, (8,), "tanh"), tmp_path / "n.npz", "swival", {}, {})
    file_meta, arrays = read_policy_file(path)
    write_policy_file(tmp_path / "bad.npz", {**file_meta, **meta}, arrays)
    with pytest.raises(PolicyFileError, match=re.escape(named)):
        NumpyPolicy(tmp_path / "bad.npz", name="swival")


def test_recorded_values_are_by_seat_from_the_mover_and_a_run_learns_them(tmp_path):
    """Swahili with 3 players: each position's results and root values are every seat's, the mover's first, so
    turned back to seat order the results of one game's positions are the same; a run with seat_values learns
    a value a seat and its file plays with its search."""
    settings = Settings.from_config({**TINY, "full_share": 1.0, "seat_values": 1, "iterations": 1})
    generate("swahili", {"num_players": 3}, None, settings, 2, tmp_path / "c.npz")
    data = np.load(tmp_path / "c.npz")
    assert data["value"].shape == data["root_value"].shape == (len(data["seat"]), 3)
    seat = data["seat"].astype(int)
    absolute = np.take_along_axis(data["value"], (np.arange(3)[None] - seat[:, None]) % 3, axis=1)
    for game in np.unique(data["game"]):
        here = absolute[data["game"] == game]
        assert (here == here[0]).all() and here[0].sum() == pytest.approx(0, abs=1e-6)
    assert len(np.unique(seat)) == 3
    train("swahili", {"num_players": 3}, settings, tmp_path / "run", log=lambda line: None)
    player = load("swahili", str(tmp_path / "run" / "network.npz"), seed=0, num_players=3)
    assert isinstance(player, GumbelPlayer) and player.policy.value_outputs == 3
    record = play_game("swahili", [player, RandomOpponent(0), RandomOpponent(1)], seed=0, num_players=3)
    assert record.plies > 3


def assert_plays_as_the_torch_network(net, policy, batch, plies, tolerance):
    """The numpy policy's logits and values are the torch network's on the batch's positions after ``plies``
    random plies and on as many random inputs; (those observations, the torch logits)."""
    for _ in range(plies):
        batch.step(batch.random_actions(), autoreset=True)
    rows = len(batch.to_move)
    obs = np.concatenate([batch.observe(batch.to_move), np.random.default_rng(0).random((rows, batch.obs_size))])
    obs = obs.astype(np.float32)
    logits, values = (t.detach().numpy() for t in net(torch.as_tensor(obs)))
    mine_logits, mine_values = policy.forward(obs)
    np.testing.assert_allclose(mine_logits, logits, rtol=tolerance, atol=tolerance)
    np.testing.assert_allclose(mine_values, values[:, 0], rtol=tolerance, atol=tolerance)
    return obs, logits


@pytest.mark.parametrize(("game", "params"), [("swish", {}), ("twirls", {})])
def test_a_factored_policy_file_plays_as_the_torch_network(tmp_path, game, params):
    """The torch network's logits (every action, and the few asked ones) and values are the numpy policy's, on
    positions of real games and on random inputs."""
    settings = Settings.from_config({"head": "factored", "rank": 5, "hidden": [24, 12], "activation": "relu"})
    batch = envs.make_batched(game, 16, seed=1, **params)
    torch.manual_seed(0)
    net = Network(batch.obs_size, batch.num_actions, settings.hidden, "relu", head_layout(game, batch, settings), 5)
    assert isinstance(net.action_head, FactoredHead)
    with torch.no_grad():
        net.action_head.move_bias.normal_()
    path = write_network(net, tmp_path / "net.npz", game, params, {"kind": "gumbel", "simulations": 4})
    policy = NumpyPolicy(path, name=game, params=params)
    assert policy.meta["head"] == {"kind": "factored", "rank": 5, "cells": net.action_head.layout.cells,
                                   "moves": net.action_head.layout.moves}  # fmt: skip
    obs, logits = assert_plays_as_the_torch_network(net, policy, batch, plies=3, tolerance=1e-5)
    masks = batch.legal_mask()
    for i in range(16):
        legal = np.flatnonzero(masks[i])
        np.testing.assert_allclose(policy.logits_of(obs[i], legal), logits[i, legal], rtol=1e-5, atol=1e-5)


def test_a_factored_head_needs_a_game_with_an_action_layout():
    settings = Settings.from_config({"head": "factored"})
    with pytest.raises(ValueError, match="swival declares no action layout"):
        head_layout("swival", envs.make_batched("swival", 1), settings)


@pytest.mark.parametrize(
    ("game", "params"), [("swish", {"radius": 3, "max_plies": 10}), ("twirls", {"board_size": 8, "max_plies": 10})]
)
def test_a_tiny_factored_run_writes_a_file_that_plays_with_its_search(tmp_path, game, params):
    settings = Settings.from_config({**TINY, "iterations": 2, "head": "factored", "rank": 4})
    summary = train(game, params, settings, tmp_path, log=lambda line: None)
    assert summary["iteration"] == 2 and summary["curve"][1]["positions"] > 0
    player = load(game, str(tmp_path / "network.npz"), seed=0, **params)
    assert isinstance(player, GumbelPlayer) and player.policy.meta["head"]["kind"] == "factored"
    record = play_game(game, [player, RandomOpponent(0)], seed=0, **params)
    assert record.plies > 2


@pytest.mark.parametrize(
    "limit, positions", [(7, list(range(8, 15))), (10, list(range(5, 15))), (100, list(range(15)))]
)
def test_the_replay_buffer_is_the_newest_positions_oldest_first(tmp_path, limit, positions):
    for k in range(3):  # chunks of 5 positions: position i's observation is [i, i]
        at = np.arange(5 * k, 5 * k + 5)
        data = {
            "obs": np.repeat(at[:, None], 2, axis=1).astype(np.float32),
            "actions": at[:, None],
            "probs": np.ones((5, 1), np.float32),
            "value": at.astype(np.float32),
        }
        if k > 0:  # only the newer chunks record the legal moves and the root value
            data |= {"legal": np.full((5, 1), k, np.uint8), "root_value": -at.astype(np.float32)}
        write_chunk(data, games=1, out=tmp_path / f"chunk_{k:05d}.npz")
    buffer = load_buffer(tmp_path, limit)
    assert buffer["obs"][:, 0].tolist() == positions and buffer["value"][:, 0].tolist() == positions
    assert buffer["actions"][:, 0].tolist() == positions
    assert ("legal" in buffer) == (positions[0] >= 5)  # kept only when every chunk read has it
    assert buffer["root_value"][:, 0].tolist() == [-p if p >= 5 else p for p in positions]  # older: the result


def test_a_generator_records_full_searches_only_and_repeats_with_its_seed(tmp_path):
    settings = Settings.from_config(TINY)
    first = generate("swival", {}, None, settings, seed=3, out=tmp_path / "a.npz")
    generate("swival", {}, None, settings, seed=3, out=tmp_path / "b.npz")
    a, b = np.load(tmp_path / "a.npz"), np.load(tmp_path / "b.npz")
    for key in ("obs", "actions", "probs", "value", "seat", "game"):
        np.testing.assert_array_equal(a[key], b[key])
    assert first["games"] >= 16 and first["positions"] == len(a["value"]) > 0
    np.testing.assert_allclose(a["probs"].sum(axis=1), 1.0, rtol=1e-5)
    assert set(np.unique(a["value"]).tolist()) <= {-1.0, 0.0, 1.0}
    assert set(np.unique(a["game"]).tolist()) <= set(range(16))
    every = generate("swival", {}, None, Settings.from_config({**TINY, "full_share": 1.0}), 3, tmp_path / "c.npz")
    assert 0.3 < first["positions"] / every["positions"] < 0.7  # playout caps: about half the moves recorded


def test_a_tiny_run_resumes_and_its_file_plays_with_its_search(tmp_path):
    settings = Settings.from_config(
        {**TINY, "iterations": 2, "eval_every": 2, "eval_games": 2, "eval_opponents": ["random", "easy"]}
    )
    lines = []
    summary = train("swival", {}, settings, tmp_path, log=lines.append)
    assert summary["iteration"] == 2 and len(summary["curve"]) == 2 and len(lines) == 2 + 4 + 1
    evaluation = summary["curve"][1]["eval"]
    assert list(evaluation) == ["random", "easy"]
    for by_label in evaluation.values():
        assert set(by_label) == {"network", "search"} and all(sum(wdl) == 2 for wdl in by_label.values())
    assert lines[2].startswith("[gumbel swival] evaluated: network vs random")
    assert all(f"{who} vs {opponent}" in lines[6] for who in ("network", "search") for opponent in ("random", "easy"))
    assert (tmp_path / "learning_curve.png").stat().st_size > 1000
    assert sorted(p.name for p in (tmp_path / "games").iterdir()) == ["chunk_00000.npz", "chunk_00001.npz"]
    assert summary["curve"][1]["network"] == "networks/iteration_00002.npz"  # the evaluated network, kept
    kept = (tmp_path / "networks" / "iteration_00002.npz").read_bytes()
    assert kept == (tmp_path / "network.npz").read_bytes() and "network" not in summary["curve"][0]
    again = train(
        "swival", {}, Settings.from_config({**TINY, "iterations": 3}), tmp_path, resume=True, log=lines.append
    )
    assert again["iteration"] == 3 and [c["iteration"] for c in again["curve"]] == [1, 2, 3]
    assert lines[7].startswith("[gumbel swival] resumed at iteration 2")
    logged = (tmp_path / "train.log").read_text().splitlines()  # both runs' lines, each after its time
    assert len(logged) == len(lines) == 9
    assert all(
        re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (.*)", entry)[1] == line for entry, line in zip(logged, lines)
    )
    player = load("swival", str(tmp_path / "network.npz"), seed=0)
    assert isinstance(player, GumbelPlayer) and player.search.simulations == 8
    record = play_game("swival", [player, RandomOpponent(0)], seed=0)
    assert record.plies > 5 and sorted(record.returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_leaf_wins_reaches_the_generator_s_searches_and_the_written_file(tmp_path):
    """With ``leaf_wins`` a recorded Swival position whose mover has a line of three (action 72 legal) puts the
    whole target on the win, which the searches without it, of a network that rates every move alike, do not;
    the run's file plays with it."""
    targets = {}
    for wins in (0, 1):
        settings = Settings.from_config({**TINY, "considered": 2, "full_share": 1.0, "leaf_wins": wins})
        data, _ = self_play("swival", {}, None, settings, seed=3)
        can_win = np.flatnonzero(_swival_wins(data))
        assert can_win.size > 0
        targets[wins] = _target_of(data, can_win, 72)
    assert (targets[1] == 1.0).all() and (targets[0] < 0.5).any()
    train("swival", {}, Settings.from_config({**TINY, "iterations": 1, "leaf_wins": 1}), tmp_path, log=lambda _: 0)
    assert read_policy_file(tmp_path / "network.npz")[0]["search"]["leaf_wins"] is True
    assert load("swival", str(tmp_path / "network.npz"), seed=0).search.leaf_wins


def _swival_wins(data):
    """Recorded Swival positions whose action 72 (a line of three) is legal, from their packed legal moves."""
    legal = np.unpackbits(data["legal"], axis=1, count=73).astype(bool)
    return legal[:, 72]


def _target_of(data, rows, action):
    """The recorded improved policy's weight on ``action`` at ``rows`` (0 where it is not among the kept)."""
    kept = data["actions"][rows] == action
    return np.where(kept, data["probs"][rows], 0.0).sum(axis=1)


def test_search_training_evaluates_on_random_openings_in_whole_pairs(tmp_path, monkeypatch):
    from envs.play import play_series

    odd = {**TINY, "iterations": 1, "eval_every": 1, "eval_games": 3, "eval_opening_plies": 2}
    settings = Settings.from_config(odd)
    with pytest.raises(ValueError, match="gumbel: eval_games with eval_opening_plies: .*multiple of 2, got 3"):
        train("swival", {}, settings, tmp_path / "odd", log=lambda line: None)
    asked = []

    def recorded(*args, **kwargs):
        asked.append(kwargs["opening_plies"])
        return play_series(*args, **kwargs)

    monkeypatch.setattr("training.gumbel.play_series", recorded)
    settings = Settings.from_config(
        {**TINY, "iterations": 1, "eval_every": 1, "eval_games": 2, "eval_opening_plies": 2, "eval_opponents": ["easy"]}
    )
    summary = train("swival", {}, settings, tmp_path / "run", log=lambda line: None)
    assert asked == [2, 2] and all(sum(wdl) == 2 for wdl in summary["curve"][0]["eval"]["easy"].values())


def test_network_colon_file_is_the_file_s_network_alone(tmp_path):
    """``network:FILE`` plays a searching file's network alone, greedy, wherever opponents are named."""
    torch.manual_seed(1)
    path = write_network(Network(78, 73, (16,), "tanh"), tmp_path / "n.npz", "swival", {}, {"kind": "gumbel"})
    alone = make_opponent("swival", f"network:{path}", seed=0)
    assert isinstance(load("swival", str(path), seed=0), GumbelPlayer)
    assert isinstance(alone, NumpyPolicy) and not isinstance(alone, GumbelPlayer)
    batch = envs.make_batched("swival", 8, seed=2)
    obs, masks = batch.observe(batch.to_move), batch.legal_mask()
    logits = NumpyPolicy(path, name="swival").logits(obs)
    for i in range(8):
        assert alone.act(obs[i], masks[i]) == int(np.argmax(np.where(masks[i], logits[i], -np.inf)))
    with pytest.raises(ValueError, match="give a policy file"):
        make_opponent("swival", "network:medium")


def test_the_gumbel_player_repeats_its_moves(tmp_path):
    torch.manual_seed(1)
    path = write_network(Network(78, 73, (16,), "tanh"), tmp_path / "n.npz", "swival", {}, {"kind": "gumbel"})
    batch = envs.make_batched("swival", 8, seed=2)
    for _ in range(4):
        batch.step(batch.random_actions(), autoreset=True)
    obs, masks = batch.observe(batch.to_move), batch.legal_mask()
    moves = []
    for _ in range(2):
        player = load("swival", str(path), seed=5)
        moves.append([player.act(obs[i], masks[i], batch.board_state(i)) for i in np.flatnonzero(~batch.over)])
    assert moves[0] == moves[1] and all(masks[i, a] for i, a in zip(np.flatnonzero(~batch.over), moves[0]))


def test_recorded_positions_seen_through_symmetries_keep_their_moves_legal(tmp_path):
    """Swival's positions are recorded through a random rotation or mirror: the target moves turn with the
    board, so every move the target weighs places on a cell the recorded observation shows empty."""
    plain = generate("swival", {}, None, Settings.from_config({**TINY, "symmetries": 0}), 4, tmp_path / "p.npz")
    turned = generate("swival", {}, None, Settings.from_config(TINY), 4, tmp_path / "t.npz")
    a, b = np.load(tmp_path / "p.npz"), np.load(tmp_path / "t.npz")
    assert plain["positions"] == turned["positions"]
    np.testing.assert_array_equal(a["value"], b["value"])  # the same games: only how they are seen differs
    assert (a["obs"] != b["obs"]).any(axis=1).mean() > 0.5
    for data in (a, b):
        weighed = (data["probs"] > 0) & (data["actions"] < 72)
        rows, cols = np.nonzero(weighed)
        cells = data["actions"][rows, cols] // 3
        assert (data["obs"][rows, 48 + cells] == 1).all()


def test_the_recorded_root_value_is_the_search_s_for_the_mover(tmp_path):
    """Each recorded position keeps the search's root value for the side to move: with a network that calls
    every position a draw only the games' ends move it: where the search sees a result coming, its sign is the
    game's result for the mover, seldom the other side's (the other seat's column would turn that round)."""
    settings = {**TINY, "boards": 32, "games": 32, "simulations": 32, "full_share": 1.0}
    generate("swival", {}, None, Settings.from_config(settings), 5, tmp_path / "c.npz")
    data = np.load(tmp_path / "c.npz")
    root, result = data["root_value"][:, 0], data["value"][:, 0]
    assert data["root_value"].shape == data["value"].shape == (len(root), 2) and (np.abs(root) <= 1).all()
    np.testing.assert_array_equal(data["value"][:, 1], -result)
    sure = np.abs(root) > 0.1
    assert sure.sum() >= 20
    assert (np.sign(root[sure]) == result[sure]).mean() > 0.6
    assert (np.sign(root[sure]) == -result[sure]).mean() < 0.1


def _buffer(positions, features, value=0.0, root_value=0.0, obs=None):
    """A replay buffer of ``positions`` whose every target is action 0, with the given results and root values
    (random observations unless ``obs``)."""
    if obs is None:
        obs = np.random.default_rng(0).random((positions, features), dtype=np.float32)
    return {
        "obs": obs,
        "actions": np.zeros((positions, 1), np.int16),
        "probs": np.ones((positions, 1), np.float32),
        "value": np.full((positions, 1), value, np.float32),
        "root_value": np.full((positions, 1), root_value, np.float32),
    }


@pytest.mark.parametrize(("weight", "toward"), [(0.0, 1.0), (1.0, -1.0), (0.5, 0.0)])
def test_the_value_target_mixes_result_and_root_value_by_the_weight(weight, toward):
    """Positions whose games were won (+1) but whose search said lost (-1): the value is fitted to the mix."""
    torch.manual_seed(0)
    net = Network(4, 3, (8,), "tanh")
    data = _buffer(256, 4, value=1.0, root_value=-1.0, obs=np.ones((256, 4), np.float32))
    settings = Settings.from_config({"root_value_weight": weight, "batch_size": 64, "epochs": 30})
    learn(net, torch.optim.Adam(net.parameters(), lr=1e-2), data, settings, seed=0)
    assert net(torch.ones(1, 4))[1].item() == pytest.approx(toward, abs=0.1)


@pytest.mark.parametrize(
    ("weights", "learns"),
    [({"value_weight": 0}, ("policy_net", "action_head")), ({"policy_weight": 0}, ("value_net", "value_head"))],
)
def test_a_loss_weight_of_zero_leaves_its_tower_as_it_starts(weights, learns):
    """value_weight 0 trains the policy alone, policy_weight 0 the value alone (e.g. a start file's policy kept
    while its value is learned again): the other tower and head stay as they started."""
    torch.manual_seed(0)
    net = Network(4, 3, (8,), "tanh")
    before = {k: v.clone() for k, v in net.state_dict().items()}
    data = _buffer(64, 4, value=1.0, root_value=1.0)
    settings = Settings.from_config({**weights, "batch_size": 16})
    learn(net, torch.optim.Adam(net.parameters(), lr=1e-2), data, settings, seed=0)
    after = net.state_dict()
    moved = {k for k in before if not torch.equal(before[k], after[k])}
    assert moved and all(k.startswith(learns) for k in moved)


def test_recorded_legal_moves_turn_with_the_position(tmp_path):
    """Each recorded position keeps its legal moves (a bit each), seen through the same symmetry as its
    observation: every move the target weighs is legal, and every legal placement is on an empty cell."""
    generate("swival", {}, None, Settings.from_config(TINY), 4, tmp_path / "c.npz")
    data = np.load(tmp_path / "c.npz")
    legal = np.unpackbits(data["legal"], axis=1, count=73).astype(bool)
    rows, cols = np.nonzero(data["probs"] > 0)
    assert legal[rows, data["actions"][rows, cols]].all()
    rows, actions = np.nonzero(legal[:, :72])
    assert rows.size and (data["obs"][rows, 48 + actions // 3] == 1).all()


@pytest.mark.parametrize("legal_only", [0, 1])
def test_legal_only_leaves_the_illegal_moves_logits_alone(legal_only):
    torch.manual_seed(0)
    net = Network(4, 6, (8,), "tanh")
    bias = net.action_head.bias.detach().clone()
    legal = np.zeros((64, 6), bool)
    legal[:, :2] = True
    data = {**_buffer(64, 4), "legal": np.packbits(legal, axis=1)}
    settings = Settings.from_config({"legal_only": legal_only, "batch_size": 16, "value_weight": 0})
    learn(net, torch.optim.SGD(net.parameters(), lr=0.1), data, settings, seed=0)
    moved = net.action_head.bias.detach() != bias
    assert moved[:2].all() and moved[2:].any() == (not legal_only)


def _chunks(folder):
    return {p.name: dict(np.load(p)) for p in sorted((folder / "games").glob("chunk_*.npz"))}


def _same_chunks(a, b):
    assert list(a) == list(b)
    for name in a:
        assert a[name].keys() == b[name].keys()
        for key in a[name]:
            np.testing.assert_array_equal(a[name][key], b[name][key], err_msg=f"{name}: {key}")


def test_one_generator_writes_what_generate_writes_and_a_seeded_run_repeats(tmp_path):
    """Without an address the run is the one it always was: each iteration's chunk is generate()'s with the seed
    ``seed * 1_000_003 + k`` and the network of the iteration before; a run stopped and resumed writes the
    same chunks as one straight run."""
    s = Settings.from_config({**TINY, "iterations": 2, "seed": 4})
    train("swival", {}, s, tmp_path / "straight", log=lambda line: None)
    train(
        "swival", {}, Settings.from_config({**TINY, "iterations": 1, "seed": 4}), tmp_path / "b", log=lambda line: None
    )
    shutil.copy(tmp_path / "b" / "network.npz", tmp_path / "first.npz")
    train("swival", {}, s, tmp_path / "b", resume=True, log=lambda line: None)
    straight, resumed = _chunks(tmp_path / "straight"), _chunks(tmp_path / "b")
    assert list(straight) == ["chunk_00000.npz", "chunk_00001.npz"]
    _same_chunks(straight, resumed)
    for k, network in ((0, None), (1, tmp_path / "first.npz")):
        generate("swival", {}, network, s, 4 * 1_000_003 + k, tmp_path / "direct" / "games" / f"chunk_{k:05d}.npz")
    _same_chunks(straight, _chunks(tmp_path / "direct"))


def test_generators_share_the_games_each_with_its_own_seed(tmp_path):
    s = Settings.from_config({**TINY, "games": 17, "generators": 3})
    parts = generator_parts(s, k=2)
    assert [part.games for _, part in parts] == [6, 6, 5]
    assert len({seed for seed, _ in parts} | {seed for seed, _ in generator_parts(s, k=3)}) == 6
    assert generator_parts(Settings.from_config(TINY), k=2) == [(2, Settings.from_config(TINY))]
    lines = []
    summary = train(
        "swival", {}, Settings.from_config({**TINY, "generators": 2, "iterations": 1}), tmp_path, log=lines.append
    )
    chunks = _chunks(tmp_path)
    assert list(chunks) == ["chunk_00000_000.npz", "chunk_00000_001.npz"]
    for (seed, part), chunk in zip(
        generator_parts(Settings.from_config({**TINY, "generators": 2}), 0), chunks.values()
    ):
        data, games = self_play("swival", {}, None, part, seed)
        assert games >= part.games == 8 and set(np.unique(chunk["game"]).tolist()) <= set(range(8))
        for key, value in data.items():
            np.testing.assert_array_equal(chunk[key], value)
    made = summary["curve"][0]
    assert made["positions"] == sum(len(c["value"]) for c in chunks.values()) and len(made["paths"]) == 2
    assert "from 2 generators" in lines[0]


@pytest.mark.parametrize("address", ["nowhere", "10.0.0.5:99999", "ray://x:1", ""])
def test_a_bad_address_is_named_before_any_work(tmp_path, address):
    with pytest.raises(ValueError, match=f"not a Ray address: {address!r}; give auto .*, local .* or HOST:PORT"):
        train("swival", {}, Settings.from_config(TINY), tmp_path / "run", address=address)
    assert not (tmp_path / "run").exists()


@pytest.mark.skipif(importlib.util.find_spec("ray") is not None, reason="Ray is installed here")
def test_an_address_without_ray_says_where_ray_comes_from(tmp_path):
    with pytest.raises(ImportError, match=r"--address needs Ray, which is not installed here; install it with: pip"):
        train("swival", {}, Settings.from_config(TINY), tmp_path / "run", address="auto")
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize(("game", "start"), [("swival", "shipped"), ("swish", "factored")])
def test_a_run_can_start_from_a_policy_file(tmp_path, game, start):
    """The network read from a policy file (the shipped hard's plain head, or a factored one) is the file's
    network: written again it holds the same arrays, and a run started from it self-plays with it first."""
    if start == "shipped":
        path = POLICY_DIR / f"{game}_hard.npz"
    else:
        settings = Settings.from_config({"head": "factored", "rank": 3, "hidden": [12]})
        batch = envs.make_batched(game, 1)
        torch.manual_seed(2)
        net = Network(batch.obs_size, batch.num_actions, (12,), "tanh", head_layout(game, batch, settings), 3)
        path = write_network(net, tmp_path / "start.npz", game, {}, {"kind": "gumbel"})
    net = network_from_file(path, game, {})
    again = write_network(net, tmp_path / "again.npz", game, {}, {"kind": "gumbel"})
    (meta, arrays), (meta_again, arrays_again) = read_policy_file(path), read_policy_file(again)
    assert meta_again.get("head") == meta.get("head")
    for key, array in arrays.items():
        if not key.startswith("m1_"):  # a value ensemble's other members are not the run's
            np.testing.assert_array_equal(arrays_again[key], array, err_msg=key)
    settings = Settings.from_config({**TINY, "iterations": 1, "start": str(path)})
    summary = train(game, {}, settings, tmp_path / "run", log=lambda line: None)
    assert summary["start_sha256"] == hashlib.sha256(Path(path).read_bytes()).hexdigest()
    generate(game, {}, Path(path), settings, seed=0, out=tmp_path / "first.npz")
    first, made = np.load(tmp_path / "first.npz"), np.load(tmp_path / "run" / "games" / "chunk_00000.npz")
    for key in ("obs", "actions", "probs", "value"):
        np.testing.assert_array_equal(made[key], first[key])


def test_a_start_file_for_another_game_is_refused(tmp_path):
    path = write_network(Network(78, 73, (8,), "tanh"), tmp_path / "swival.npz", "swival", {}, {})
    with pytest.raises(PolicyFileError, match="is for 'swival', not 'twirls'"):
        train("twirls", {}, Settings.from_config({**TINY, "start": str(path)}), tmp_path / "run")


def conv_network(game, params, head="plain", layers=2, channels=5, seed=0):
    """A small network with a board convolution (and a plain or factored head) for ``game``, its biases random."""
    settings = Settings.from_config({"head": head, "rank": 3, "conv_layers": layers, "conv_channels": channels})
    batch = envs.make_batched(game, 16, seed=1, **params)
    torch.manual_seed(seed)
    conv = board_conv(game, batch, settings)
    layout = head_layout(game, batch, settings)
    net = Network(batch.obs_size, batch.num_actions, (12,), "relu", layout, 3, conv=conv)
    with torch.no_grad():
        for layer in conv.layers:
            layer.bias.normal_(0, 0.3)
    return net, batch


@pytest.mark.parametrize(
    ("game", "params", "head"),
    [("swival", {}, "plain"), ("swish", {"radius": 3}, "factored"), ("twirls", {"board_size": 8}, "factored")],
)
def test_a_board_convolution_plays_as_the_torch_network(tmp_path, game, params, head):
    """The file's numpy convolution gives the torch network's logits and values, on real positions (whose planes
    the convolution reads) and on random inputs; its multiply-adds are counted from the shapes."""
    net, batch = conv_network(game, params, head)
    path = write_network(net, tmp_path / "conv.npz", game, params, {"kind": "gumbel", "simulations": 4})
    policy = NumpyPolicy(path, name=game, params=params)
    graph = net.conv.graph
    assert policy.meta["conv"] == {"layers": 2, "channels": 5, "cells": graph.cells,
                                   "planes": graph.planes.shape[0], "directions": graph.directions}  # fmt: skip
    obs, _ = assert_plays_as_the_torch_network(net, policy, batch, plies=5, tolerance=1e-4)
    assert np.abs(policy.conv.features(obs)).max() > 0  # the convolution's features are live, not all cut off
    around = graph.cells * (graph.directions + 1)
    expected = around * 5 * graph.planes.shape[0] + around * 5 * 5
    assert policy.multiply_adds()["board conv"] == expected
    inputs = batch.obs_size + graph.cells * 5
    assert policy.multiply_adds()["policy tower"] == inputs * 12


def test_a_board_convolution_reads_each_cell_and_its_neighbours_alone():
    """One layer's feature at a cell moves only with that cell's and its neighbours' plane values."""
    net, batch = conv_network("swival", {}, layers=1)
    graph = net.conv.graph
    x = torch.zeros(1, batch.obs_size)
    base = net.conv(x).detach().numpy().reshape(graph.cells, -1)
    for cell in (0, 8, 23):
        bumped = x.clone()
        bumped[0, graph.planes[0, cell]] = 5.0
        changed = np.abs(net.conv(bumped).detach().numpy().reshape(graph.cells, -1) - base).sum(axis=1) > 0
        assert set(np.flatnonzero(changed)) <= {cell, *graph.neighbours[cell][graph.neighbours[cell] >= 0]}
        assert changed[cell]


def test_a_start_file_grown_a_convolution_plays_as_the_file(tmp_path):
    """A run that adds a board convolution to a file without one starts from the file's play: the
    convolution's features enter the towers through zero weights."""
    path = POLICY_DIR / "swival_hard.npz"
    batch = envs.make_batched("swival", 8, seed=0)
    conv = board_conv("swival", batch, Settings.from_config({"conv_layers": 1}))
    net = network_from_file(path, "swival", {}, conv)
    policy = NumpyPolicy(path, name="swival")
    for _ in range(4):
        batch.step(batch.random_actions(), autoreset=True)
    obs = batch.observe(batch.to_move).astype(np.float32)
    logits, values = (t.detach().numpy() for t in net(torch.as_tensor(obs)))
    expected_logits, expected_values = policy.forward(obs)
    np.testing.assert_allclose(logits, expected_logits, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(values[:, 0], expected_values, rtol=1e-5, atol=1e-5)
    again = NumpyPolicy(write_network(net, tmp_path / "grown.npz", "swival", {}, {}), name="swival")
    assert again.conv is not None and again.conv.layers == 1
    with pytest.raises(ValueError, match="its board convolution is .* the settings ask for"):
        network_from_file(tmp_path / "grown.npz", "swival", {}, BoardConv(conv.graph, 2, 16))


def test_a_board_convolution_needs_a_game_with_a_board_graph():
    with pytest.raises(ValueError, match="swahili declares no board graph"):
        board_conv("swahili", envs.make_batched("swahili", 1), Settings.from_config({"conv_layers": 1}))


def wrong_conv_file(tmp_path, change):
    net, _ = conv_network("swival", {})
    meta, arrays = read_policy_file(write_network(net, tmp_path / "ok.npz", "swival", {}, {}))
    change(meta, arrays)
    return write_policy_file(tmp_path / "bad.npz", meta, arrays)


def _swap_directions(meta, arrays):
    """A well-formed graph, but not the game's: clockwise and anticlockwise swapped."""
    arrays["conv_neighbours"] = arrays["conv_neighbours"].reshape(24, 4)[:, [1, 0, 2, 3]].ravel()


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda m, a: m["conv"].update(channels=0), "conv = "),
        (lambda m, a: m["conv"].pop("directions"), "conv = "),
        (lambda m, a: a.pop("conv_w1"), "lacks the array 'conv_w1'"),
        (lambda m, a: a.update(conv_w1=a["conv_w1"][:-1]), "conv layer 1 has weights (24, 5)"),
        (lambda m, a: a.update(conv_planes=a["conv_planes"][:-1]), "its board graph has 71 plane"),
        (lambda m, a: a.update(conv_neighbours=a["conv_neighbours"] + 30), "neighbours must be cells in [0, 24)"),
        (_swap_directions, "its board graph (3 planes of 24 cells, 4 directions) is not swival's"),
        (lambda m, a: m["conv"].update(layers=1), "its meta says 1 conv layers, it has more"),
    ],
)
def test_a_wrong_convolution_is_refused_by_name(tmp_path, change, named):
    path = wrong_conv_file(tmp_path, change)
    with pytest.raises(PolicyFileError) as err:
        NumpyPolicy(path, name="swival")
    assert named in str(err.value) and str(path) in str(err.value), err.value


def test_a_board_convolution_file_plays_without_torch(tmp_path):
    net, _ = conv_network("twirls", {"board_size": 8}, head="factored")
    path = write_network(net, tmp_path / "conv.npz", "twirls", {"board_size": 8}, {"kind": "gumbel", "simulations": 4})
    assert plies_without_torch("twirls", path, {"board_size": 8}) > 2


def test_a_run_can_start_from_a_past_hard(tmp_path):
    """``start: "hard@REV"`` starts from the game's hard as git revision REV held it, and records its sha256."""
    import subprocess

    settings = Settings.from_config({**TINY, "iterations": 1, "start": "hard@HEAD"})
    summary = train("swival", {}, settings, tmp_path / "run", log=lambda line: None)
    held = subprocess.run(["git", "show", "HEAD:policies/swival_hard.npz"], capture_output=True, check=True,
                          cwd=POLICY_DIR).stdout  # fmt: skip
    assert summary["start_sha256"] == hashlib.sha256(held).hexdigest()
    with pytest.raises(ValueError, match="hard@nosuchrev"):
        train("swival", {}, Settings.from_config({**TINY, "start": "hard@nosuchrev"}), tmp_path / "bad")


def test_ship_writes_the_run_s_network_with_the_config_s_search(tmp_path, monkeypatch):
    """``swgym train GAME --backend gumbel --ship`` writes the run's network to the shipped path with the
    config's ``search``, which must be the engine's Gumbel search."""
    import json as json_module

    import policies
    from scripts.cli import main

    search = {"kind": "gumbel", "simulations": 12, "considered": 4}
    config = json_module.loads((ROOT / "training/configs/swival.json").read_text())
    config |= {"search": search, "gumbel": {**TINY, "iterations": 1}}
    (tmp_path / "config.json").write_text(json_module.dumps(config))
    monkeypatch.setattr(policies, "shipped_path", lambda game, **params: tmp_path / f"{game}_shipped.npz")
    main(["train", "swival", "--backend", "gumbel", "--config", str(tmp_path / "config.json"),
          "--out", str(tmp_path / "run"), "--ship"])  # fmt: skip
    player = load("swival", str(tmp_path / "swival_shipped.npz"), seed=0)
    assert isinstance(player, GumbelPlayer) and player.policy.meta["search"] == search
    _, run_arrays = read_policy_file(tmp_path / "run" / "network.npz")
    _, shipped_arrays = read_policy_file(tmp_path / "swival_shipped.npz")
    for key, array in run_arrays.items():
        np.testing.assert_array_equal(shipped_arrays[key], array)
