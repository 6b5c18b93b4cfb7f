"""One network spec (policies/network.py): the torch module training builds from it, the policy file it writes and
the numpy forward that plays the file give the same network, for every kind of head, tower and ensemble."""

from dataclasses import replace

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
    if kind == "an ensemble of one depth":
        return NetworkSpec(obs, actions, (16, 16), (16,), "relu", member_widths=((8,), (12,)))
    if kind == "a value a seat":
        return NetworkSpec(obs, actions, (16, 8), (16, 8), "tanh", value_outputs=batch.num_players)
    if kind.startswith("factored"):
        position = kind.startswith("factored, moves from the position")
        head = Factored(3, layout.cells, layout.moves, len(layout.others), position)
        return NetworkSpec(obs, actions, (20,), (20,), "relu", head)
    planes, cells, directions = graph.planes.shape[0], graph.cells, graph.directions
    return NetworkSpec(obs, actions, (12,), (12,), "tanh", conv=Conv(2, 4, cells, planes, directions))


CASES = [
    ("swival", {}, "plain, towers of other widths"),
    ("swival", {}, "relu, a value ensemble"),
    ("swish", {}, "an ensemble of one depth"),
    ("swahili", {"num_players": 3}, "a value a seat"),
    ("twirls", {"board_size": 8}, "factored"),
    ("swish", {}, "factored"),
    ("swish", {}, "factored, moves from the position"),
    ("twirls", {"board_size": 8}, "factored, moves from the position and a term per move"),
    ("swival", {}, "a board convolution"),
    ("twirls", {"board_size": 8}, "a board convolution"),
]


@pytest.mark.parametrize("name,params,kind", CASES)
def test_the_torch_module_its_file_and_the_numpy_forward_are_one_network(tmp_path, name, params, kind):
    batch, layout, graph = game_parts(name, params)
    spec = spec_of(kind, batch, layout, graph)
    torch.manual_seed(0)
    terms = kind.endswith("a term per move")  # PPO's head: its file holds a head of one rank more
    net = Network.of_spec(spec, layout, graph, move_terms=terms)
    if terms:
        spec = replace(spec, factored=replace(spec.factored, rank=spec.factored.rank + 1))
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


#: what the compiled forward refuses, by the spec's kind (the others it computes)
COMPILED_REFUSES = {
    "relu, a value ensemble": "value towers of one depth",
    "a value a seat": "a value head of one output",
    "factored": "a plain action head",
    "factored, moves from the position": "a plain action head",
    "factored, moves from the position and a term per move": "a plain action head",
    "a board convolution": "board convolution",
}


def compiled_forward(policy, obs, masks):
    """The compiled forward's values of ``obs`` and its probabilities of each row's legal moves (zero elsewhere)."""
    from policies.compiled_network import layer_widths, policy_keys, policy_tower, tower_values, value_towers

    towers, tower = value_towers(policy), policy_tower(policy)
    k = len(obs)
    widest = max(*layer_widths(towers), *layer_widths(tower)[:-1])  # not the head's: it writes into keys
    first = np.zeros((towers.members, k, widest), np.float32)
    values = np.zeros(k, np.float32)
    tower_values(obs, np.arange(k), k, towers, np.zeros((1, k, widest), np.float32), first, values)
    probs = np.zeros(masks.shape, np.float32)
    for r in range(k):
        legal = np.flatnonzero(masks[r]).astype(np.int32)
        keys = np.zeros(legal.size, np.float32)
        hidden = np.zeros((2, widest), np.float32)
        policy_keys(obs, np.array([r], np.int64), legal, legal.size, tower, hidden, keys)
        probs[r, legal] = keys
    return values, probs


@pytest.mark.parametrize("name,params,kind", CASES)
def test_the_compiled_forward_is_the_numpy_forward_or_refuses_by_name(tmp_path, name, params, kind):
    from policies.numpy_policy import masked_softmax

    batch, layout, graph = game_parts(name, params)
    torch.manual_seed(1)
    path = write_network(Network.of_spec(spec_of(kind, batch, layout, graph), layout, graph), tmp_path / "n.npz",
                         name, params, {})  # fmt: skip
    policy = NumpyPolicy(path, name=name, params=params)
    obs, masks = batch.observe(batch.to_move).astype(np.float32), batch.legal_mask()
    if kind in COMPILED_REFUSES:
        with pytest.raises(ValueError, match=COMPILED_REFUSES[kind]):
            compiled_forward(policy, obs, masks)
        return
    values, probs = compiled_forward(policy, obs, masks)
    np.testing.assert_allclose(values, policy.values(obs), atol=2e-6)
    logits = policy.logits_and_seat_values(obs)[0]
    np.testing.assert_allclose(probs, masked_softmax(logits, masks.astype(bool)), atol=2e-6)


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


def test_a_run_does_not_start_from_a_head_with_the_moves_from_the_position(tmp_path):
    """PPO's factored head (moves from the position) is not one a search network's run can take up: refused by
    name, while the same head without them starts a run."""
    from training.network import network_from_file

    batch, layout, graph = game_parts("swish", {})
    for position, refused in ((True, True), (False, False)):
        spec = NetworkSpec(batch.obs_size, batch.num_actions, (8,), (8,), "tanh",
                           Factored(2, layout.cells, layout.moves, len(layout.others), position))  # fmt: skip
        path = write_network(Network.of_spec(spec, layout, graph), tmp_path / f"{position}.npz", "swish", {}, {})
        if refused:
            with pytest.raises(ValueError, match="takes the moves from the position"):
                network_from_file(path, "swish", {})
        else:
            assert network_from_file(path, "swish", {}).spec == spec
