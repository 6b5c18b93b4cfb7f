"""One network spec (policies/network.py): the torch module training builds from it, the policy file it writes and
the numpy forward that plays the file give the same network, for every kind of head, tower and ensemble."""

import numpy as np
import pytest
import torch

from envs.registry import make_batched, make_raw
from policies.network import Conv, Factored, NetworkSpec
from policies.numpy_policy import NumpyPolicy, read_policy_file
from training.network import Network, write_network


def game_parts(name, params):
    """Observations of a few positions of game ``name``, its action layout and its board graph."""
    batch = make_batched(name, 6, seed=1, **params)
    for _ in range(3):
        batch.step(batch.random_actions(), autoreset=True)
    raw = make_raw(name, **params)
    return batch, type(raw).action_layout(raw.game), type(raw).board_graph(raw.game)


def spec_of(kind, batch, layout, graph):
    obs, actions = batch.obs_size, batch.num_actions
    if kind == "plain, towers of other widths":
        return NetworkSpec(obs, actions, (24, 12), (16,), "tanh")
    if kind == "relu, a value ensemble":
        return NetworkSpec(obs, actions, (16,), (16,), "relu", member_widths=((8,), (12, 6)))
    if kind == "a value a seat":
        return NetworkSpec(obs, actions, (16, 8), (16, 8), "tanh", value_outputs=batch.num_players)
    if kind == "factored":
        return NetworkSpec(
            obs, actions, (20,), (20,), "relu", Factored(3, layout.cells, layout.moves, len(layout.others))
        )
    planes, cells, directions = graph.planes.shape[0], graph.cells, graph.directions
    return NetworkSpec(obs, actions, (12,), (12,), "tanh", conv=Conv(2, 4, cells, planes, directions))


CASES = [
    ("swival", {}, "plain, towers of other widths"),
    ("swival", {}, "relu, a value ensemble"),
    ("swahili", {"num_players": 3}, "a value a seat"),
    ("twirls", {"board_size": 8}, "factored"),
    ("swish", {}, "factored"),
    ("swival", {}, "a board convolution"),
    ("twirls", {"board_size": 8}, "a board convolution"),
]


@pytest.mark.parametrize("name,params,kind", CASES)
def test_the_torch_module_its_file_and_the_numpy_forward_are_one_network(tmp_path, name, params, kind):
    batch, layout, graph = game_parts(name, params)
    spec = spec_of(kind, batch, layout, graph)
    torch.manual_seed(0)
    net = Network.of_spec(spec, layout, graph)
    assert net.spec == spec
    path = write_network(net, tmp_path / "n.npz", name, params, {})
    meta, arrays = read_policy_file(path)
    floats = {key: a.shape for key, a in arrays.items() if a.dtype.kind == "f"}
    assert floats == spec.shapes()  # the file holds exactly the spec's arrays
    policy = NumpyPolicy(path, name=name, params=params)
    assert policy.spec == spec
    obs = batch.observe(batch.to_move).astype(np.float32)
    with torch.no_grad():
        logits, values = (t.numpy() for t in net(torch.as_tensor(obs)))
    numpy_logits, numpy_values = policy.logits_and_seat_values(obs)
    np.testing.assert_allclose(numpy_logits, logits, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(numpy_values, values, rtol=1e-4, atol=1e-5)


def test_a_spec_names_what_it_needs_and_refuses_nonsense():
    with pytest.raises(ValueError, match="activation must be one of tanh, relu, got 'gelu'"):
        NetworkSpec(4, 3, (8,), (8,), "gelu")
    with pytest.raises(ValueError, match="needs the game's action layout"):
        Network.of_spec(NetworkSpec(4, 3, (8,), (8,), factored=Factored(2, 1, 3, 0)))
    with pytest.raises(ValueError, match="needs the game's board graph"):
        Network.of_spec(NetworkSpec(4, 3, (8,), (8,), conv=Conv(1, 2, 4, 1, 2)))


def test_maskable_ppo_built_from_a_spec_exports_a_file_of_that_spec(tmp_path):
    import gymnasium
    from sb3_contrib import MaskablePPO

    from training.export import export_policy, torch_probabilities
    from training.network import sb3_policy_kwargs

    env = gymnasium.make("swgym/Swival-v0", opponent="random")
    spec = NetworkSpec(78, 73, (32, 16), (24,), "relu")
    model = MaskablePPO("MlpPolicy", env, seed=0, policy_kwargs=sb3_policy_kwargs(spec))
    path = export_policy(model.policy, tmp_path / "ppo.npz", "swival", {})
    policy = NumpyPolicy(path, name="swival", params={})
    assert policy.spec == spec
    batch, _, _ = game_parts("swival", {})
    obs, masks = batch.observe(batch.to_move).astype(np.float32), batch.legal_mask()
    probs, values = torch_probabilities(model.policy, obs, masks)
    logits, numpy_values = policy.forward(obs)
    np.testing.assert_allclose(np.stack([policy.probabilities(o, m) for o, m in zip(obs, masks)]), probs, atol=1e-5)
    np.testing.assert_allclose(numpy_values, values, rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="cannot hold a factored head, a value a seat"):
        sb3_policy_kwargs(NetworkSpec(78, 73, (8,), (8,), factored=Factored(2, 1, 73, 0), value_outputs=2))
