"""MaskablePPO with the factored action head: the same masked categorical as the plain head's support, a policy
file that plays with numpy alone and gives the torch logits, saved models that load, refusals that say why."""

import gymnasium
import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env

from envs.registry import GAMES
from policies.numpy_policy import NumpyPolicy, masked_softmax
from training.export import export_policy, to_numpy_policy, torch_probabilities
from training.factored_policy import FactoredMaskablePolicy, ppo_policy

torch.set_num_threads(1)


def positions(name: str, count: int = 24, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of positions met in random play (single-agent env, learner vs random)."""
    env = gymnasium.make(GAMES[name].gym_id, opponent="random")
    rng = np.random.default_rng(seed)
    observations, masks = [], []
    obs, _ = env.reset(seed=seed)
    while len(observations) < count:
        mask = env.unwrapped.action_masks()
        observations.append(obs)
        masks.append(mask)
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            obs, _ = env.reset()
    return np.asarray(observations, dtype=np.float32), np.asarray(masks, dtype=bool)


def factored_model(name: str, rank: int = 4, seed: int = 0) -> MaskablePPO:
    vec = make_vec_env(lambda: gymnasium.make(GAMES[name].gym_id, opponent="random"), n_envs=2, seed=seed)
    policy, kwargs = ppo_policy(name, {}, "factored", rank=rank)
    return MaskablePPO(
        policy, vec, n_steps=32, batch_size=64, n_epochs=1, seed=seed, policy_kwargs={"net_arch": [32], **kwargs}
    )


@pytest.fixture(scope="module", params=["twirls", "swish"])
def trained(request):
    model = factored_model(request.param)
    model.learn(64)  # a few updates, so that no weight is still at its start
    return request.param, model


def test_the_factored_masked_distribution_lives_on_the_legal_actions(trained):
    name, model = trained
    observations, masks = positions(name)
    probs, _ = torch_probabilities(model.policy, observations, masks)
    assert (probs[~masks] == 0).all() and (probs[masks] > 0).all()  # the plain head's support, exactly
    with torch.no_grad():
        obs = torch.as_tensor(observations)
        dist = model.policy.get_distribution(obs, action_masks=masks)
        totals = np.zeros(len(masks))
        for k in range(masks.sum(axis=1).max()):  # the k-th legal action of every row (its last one if fewer)
            actions = torch.as_tensor([np.flatnonzero(m)[min(k, m.sum() - 1)] for m in masks])
            fresh = np.array([k < m.sum() for m in masks])
            totals += np.where(fresh, dist.log_prob(actions).exp().numpy(), 0.0)
        illegal = torch.as_tensor([np.flatnonzero(~m)[0] for m in masks])
        assert torch.isneginf(dist.log_prob(illegal)).all()  # an action outside the mask has no probability
        dense = torch.as_tensor(model.policy.action_net(model.policy.mlp_extractor.forward_actor(obs)))
        entropy = torch.distributions.Categorical(logits=dense.masked_fill(~torch.as_tensor(masks), -1e8)).entropy()
        sampled = np.array([dist.sample().numpy() for _ in range(20)])
    np.testing.assert_allclose(totals, 1.0, rtol=1e-5)  # log-probs over the legal actions sum to one
    np.testing.assert_allclose(dist.entropy().numpy(), entropy.numpy(), rtol=1e-4, atol=1e-6)
    assert masks[np.arange(len(masks)), dist.mode().numpy()].all() and masks[np.arange(len(masks)), sampled].all()
    np.testing.assert_array_equal(dist.mode().numpy(), np.where(masks, probs, -1).argmax(axis=1))


@pytest.mark.parametrize("moves_from_position, move_terms", [(False, False), (True, False), (True, True)])
@pytest.mark.parametrize("name", ["twirls", "swish"])
def test_the_legal_pairs_logits_and_gradients_are_the_dense_heads(name, moves_from_position, move_terms):
    from envs.registry import action_layout
    from training.network import FactoredHead

    layout = action_layout(name)
    torch.manual_seed(0)
    head = FactoredHead(16, layout, 4, moves_from_position, move_terms)
    with torch.no_grad():
        for parameter in head.parameters():
            parameter.normal_()
    generator = torch.Generator().manual_seed(1)
    h = torch.randn(6, 16, generator=generator)
    legal = torch.rand(6, layout.num_actions, generator=generator) < 0.03
    legal[0] = True  # every action: every cell of the row has moves
    legal[1] = False
    legal[1, layout.others] = True  # no (cell, move) pair at all
    legal[2] = False
    legal[2, np.flatnonzero(layout.cell >= 0)[-1]] = True  # a single pair, in the last cell
    rows, actions = legal.nonzero(as_tuple=True)
    weights = torch.randn(len(rows), generator=generator)
    sparse = head.logits_of(h, rows, actions)
    sparse_grads = torch.autograd.grad((sparse * weights).sum(), list(head.parameters()))
    dense = head(h)[rows, actions]
    dense_grads = torch.autograd.grad((dense * weights).sum(), list(head.parameters()))
    np.testing.assert_allclose(sparse.detach().numpy(), dense.detach().numpy(), rtol=1e-5, atol=1e-4)
    for got, want in zip(sparse_grads, dense_grads):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-4)


def test_its_export_plays_with_numpy_and_gives_the_torch_logits(trained, tmp_path):
    name, model = trained
    observations, masks = positions(name, seed=1)
    path = export_policy(model.policy, tmp_path / f"{name}.npz", name, {})
    policy = NumpyPolicy(path, name=name)  # checks the head's layout against the game's own
    assert policy.meta["head"]["kind"] == "factored" and "action_w" not in np.load(path)
    with torch.no_grad():
        obs = torch.as_tensor(observations)
        logits = model.policy.action_net(model.policy.mlp_extractor.forward_actor(obs)).numpy()
    np.testing.assert_allclose(policy.logits(observations), logits, rtol=1e-4, atol=1e-5)
    probs, values = torch_probabilities(model.policy, observations, masks)
    np.testing.assert_allclose(masked_softmax(policy.logits(observations), masks), probs, atol=1e-5)
    np.testing.assert_allclose(policy.values(observations), values, rtol=1e-4, atol=1e-5)
    action = policy.act(observations[0], masks[0])
    assert masks[0][action]
    np.testing.assert_allclose(to_numpy_policy(model.policy, name, {}).logits(observations), logits, atol=1e-5)


def test_a_saved_factored_model_loads_and_plays_the_same(trained, tmp_path):
    name, model = trained
    observations, masks = positions(name, seed=2)
    model.save(tmp_path / "model.zip")
    again = MaskablePPO.load(tmp_path / "model.zip", device="cpu")
    assert isinstance(again.policy, FactoredMaskablePolicy) and again.policy.layout.cells == model.policy.layout.cells
    np.testing.assert_allclose(
        torch_probabilities(again.policy, observations, masks)[0],
        torch_probabilities(model.policy, observations, masks)[0],
    )


def test_the_factored_head_is_smaller_than_the_plain_one():
    plain = MaskablePPO("MlpPolicy", factored_model("twirls").env, n_steps=32, policy_kwargs={"net_arch": [32]})
    factored = factored_model("twirls")
    count = lambda m: sum(p.numel() for p in m.policy.action_net.parameters())  # noqa: E731
    assert count(factored) * 3 < count(plain)  # 21,431 against 85,569 at width 32, rank 4


def test_move_terms_without_the_moves_from_the_position_are_refused():
    from envs.registry import action_layout
    from training.network import FactoredHead

    with pytest.raises(ValueError, match="move terms need its moves from the position"):
        FactoredHead(8, action_layout("twirls"), 2, moves_from_position=False, move_terms=True)
    vec = make_vec_env(lambda: gymnasium.make(GAMES["twirls"].gym_id, opponent="random"), n_envs=1)
    kwargs = {"name": "twirls", "moves_from_position": False}
    with pytest.raises(ValueError, match="twirls: a factored head's move_terms need moves_from_position"):
        MaskablePPO(FactoredMaskablePolicy, vec, policy_kwargs=kwargs | {"move_terms": True})
    model = MaskablePPO(FactoredMaskablePolicy, vec, n_steps=8, policy_kwargs=kwargs)  # None: as the moves
    assert not model.policy.action_net.move_terms


def test_a_game_without_an_action_layout_or_a_bad_head_is_refused():
    with pytest.raises(ValueError, match="swival declares no action layout"):
        ppo_policy("swival", {}, "factored")
    with pytest.raises(ValueError, match="must be one of plain, factored, got 'tiny'"):
        ppo_policy("twirls", {}, "tiny")
    assert ppo_policy("swival", {}, "plain") == ("MlpPolicy", {})


def test_the_ppo_bench_times_both_heads_and_prints_their_curves():
    from scripts.bench import format_ppo_curves, format_ppo_table, ppo_run

    tiny = {"num_envs": 8, "n_steps": 8, "batch_size": 64, "n_epochs": 1, "net_arch": [8], "rank": 2}
    rows = ppo_run("twirls", rounds=1, steps=128, single_envs=1, single_steps=16, single_n_steps=16, **tiny)
    assert [r["head"] for r in rows] == ["plain", "factored", "plain"]
    for row in rows[:2]:
        assert row["env_steps_per_s"] > 0 and row["env_steps_per_cpu_s"] > 0
        assert [p["steps"] for p in row["curve"]] == [64, 128]
    table, curves = format_ppo_table(rows), format_ppo_curves(rows)
    assert "batched vector env, factored" in table and "rank=2" in table
    assert "plain return" in curves and "factored return" in curves and len(curves.splitlines()) == 4


def test_the_ppo_bench_shapes_twirls_by_its_potential_and_refuses_a_potential_of_another_game():
    from scripts.bench import format_ppo_curves, ppo_run, ppo_settings
    from training.shaping import twirls_groups_batch

    tiny = {"num_envs": 8, "n_steps": 8, "batch_size": 64, "n_epochs": 1, "net_arch": [8], "rank": 2}
    rows = ppo_run("twirls", rounds=1, steps=64, single_envs=1, single_steps=16, single_n_steps=16,
                   shaping="twirls_groups", **tiny)  # fmt: skip
    start = twirls_groups_batch(make_vec_observations("twirls", 8), {}).mean()  # every board at its first position
    for row in rows[:2]:
        potential = row["curve"][0]["potential"]
        assert -1.0 < potential <= 0.0 and potential != pytest.approx(start)  # measured over the rollout's steps
    assert "factored potential" in format_ppo_curves(rows) and "shaped by twirls_groups" in rows[1]["settings"]
    with pytest.raises(ValueError, match="shaping potential 'twirls_groups' reads twirls, not swish"):
        ppo_settings("swish", shaping="twirls_groups")
    no_batched = "no batched shaping potential 'hex_store_lead'; the vector env has: twirls_groups"
    with pytest.raises(ValueError, match=no_batched):
        ppo_settings("swish", shaping="hex_store_lead")


def make_vec_observations(name: str, boards: int) -> np.ndarray:
    from training.sb3_vec import make_sb3_vec

    return make_sb3_vec(name, boards, opponent="random", seed=0).reset()


def test_a_run_with_the_factored_head_exports_a_factored_policy_file(tmp_path):
    from tests.training_helpers import tiny_config
    from training.selfplay import train

    config = tiny_config("twirls", env="vector", head="factored", rank=2, params={"board_size": 8},
                         checkpoint={"every": 0})  # fmt: skip
    summary = train(config, tmp_path, progress_bar=False, tensorboard=False)
    policy = NumpyPolicy(summary["policy"], name="twirls", params={"board_size": 8})
    # rank 2 and the term per move: a head of rank 3 in the file (policies.network.Factored.with_move_terms)
    assert policy.meta["head"] == {"kind": "factored", "rank": 3, "cells": 64, "moves": 32, "moves_from_position": True}
    snapshot = NumpyPolicy(next((tmp_path / "snapshots").glob("*.npz")), name="twirls", params={"board_size": 8})
    assert snapshot.meta["head"]["kind"] == "factored"
    assert "[ppo] twirls: 0/256 env steps" in (tmp_path / "train.log").read_text()
