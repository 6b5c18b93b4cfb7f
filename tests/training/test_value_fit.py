"""Value towers fitted to batched-engine games (training/value_fit.py) and the config path that uses them."""

import json

import numpy as np
import pytest
import torch

from tests.training_helpers import game_against_random, tiny_config
from training.selfplay import load_config, train
from training.value_fit import (
    DEFAULTS,
    fit_tower,
    fit_value_towers,
    replace_value,
    set_tower_arrays,
    tower_arrays,
    value_fit_settings,
    value_tower,
)

torch.set_num_threads(1)


@pytest.mark.parametrize(
    "section, message",
    [
        ({"gmaes": 3}, r"unknown key\(s\) \['gmaes'\]"),
        ({"games": 0}, "games must be an int >= 1, got 0"),
        ({"towers": 1.5}, "towers must be an int >= 1, got 1.5"),
        ({"epochs": True}, "epochs must be an int >= 1, got True"),
        ({"heldout_games": -1}, "heldout_games must be an int >= 0, got -1"),
        ({"learning_rate": 0}, "learning_rate must be a number > 0, got 0"),
        ({"learning_rate": True}, "learning_rate must be a number > 0, got True"),
        ([1], "value_fit must be an object of settings"),
    ],
)
def test_value_fit_settings_refuse_nonsense_by_name(section, message):
    with pytest.raises(ValueError, match=message):
        value_fit_settings(section)


def test_a_config_with_a_bad_value_fit_names_the_file(tmp_path):
    path = tmp_path / "cfg.json"
    path.write_text(json.dumps({"game": "squeeze", "value_fit": {"towers": 0}}))
    with pytest.raises(ValueError, match=r"cfg.json: value_fit towers must be an int >= 1"):
        load_config(str(path))


def test_fitting_lowers_the_error_on_a_learnable_target():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2000, 6)).astype(np.float32)
    y = np.tanh(2 * x[:, 0] - x[:, 1]).astype(np.float32)
    net = value_tower(6, [16, 16], torch.nn.Tanh)
    history = fit_tower(net, (x[:1500], y[:1500]), (x[1500:], y[1500:]), 8, 64, 1e-2, seed=0)
    assert history[-1]["heldout_mse"] < 0.05 < np.mean(y**2)
    assert history[-1]["train_mse"] < history[0]["train_mse"]


def test_replaced_value_is_the_mean_of_the_towers_in_numpy_as_in_torch(tmp_path):
    from policies.numpy_policy import NumpyPolicy

    config = tiny_config("squeeze", params={"setup": "fixed"}, total_timesteps=0)
    summary = train(config, tmp_path, progress_bar=False, tensorboard=False)
    before = NumpyPolicy(summary["policy"])
    torch.manual_seed(3)
    towers = [value_tower(before.obs_size, [16, 8], torch.nn.Tanh) for _ in range(3)]
    replace_value(summary["policy"], [tower_arrays(t) for t in towers])
    after = NumpyPolicy(summary["policy"])
    assert len(after.value_members) == 3
    observations = np.random.default_rng(1).random((7, after.obs_size), dtype=np.float32)
    with torch.no_grad():
        expected = np.mean([t(torch.as_tensor(observations)).numpy()[:, 0] for t in towers], axis=0)
    np.testing.assert_allclose(after.values(observations), expected, rtol=1e-5, atol=1e-6)
    mask = np.ones(after.num_actions, dtype=bool)
    np.testing.assert_array_equal(  # the policy is kept as it was
        after.probabilities(observations[0], mask), before.probabilities(observations[0], mask)
    )


def test_towers_see_their_own_games_and_the_same_seed_gives_the_same_towers(tmp_path):
    """The second fit reads its games from disk: the same towers as from memory."""
    settings = {**DEFAULTS, "opponents": {"random": 1.0}, "games": 6, "heldout_games": 2, "towers": 2, "epochs": 1}
    settings["boards"] = 4
    first, histories = fit_value_towers("squeeze", {"setup": "fixed"}, settings, [8], torch.nn.Tanh, seed=5)
    again, _ = fit_value_towers("squeeze", {"setup": "fixed"}, settings, [8], torch.nn.Tanh, seed=5, folder=tmp_path)
    assert not list(tmp_path.iterdir()), "each tower's games waited on disk, deleted after its fit"
    assert len(first) == len(histories) == 2 and all("heldout_mse" in h[0] for h in histories)
    for a, b in zip(first, again, strict=True):
        assert a.keys() == b.keys() == {"vf_w0", "vf_b0", "value_w", "value_b"}
        for name in a:
            np.testing.assert_array_equal(a[name], b[name])
    assert not np.array_equal(first[0]["vf_w0"], first[1]["vf_w0"])


def test_tiny_run_with_value_fit_end_to_end(tmp_path):
    from policies.numpy_policy import NumpyPolicy

    config = tiny_config(
        "squeeze",
        params={"setup": "fixed"},
        value_fit=value_fit_settings({"games": 4, "heldout_games": 2, "towers": 2, "epochs": 1, "boards": 4}),
    )
    summary = train(config, tmp_path, ship_to=tmp_path / "shipped.npz", progress_bar=False, tensorboard=False)
    assert [len(h) for h in summary["value_fit"]["towers"]] == [1, 1]
    policy = NumpyPolicy(tmp_path / "shipped.npz")
    assert len(policy.value_members) == 2
    assert all(len(layers) == 1 and layers[0][0].shape[1] == 16 for layers, _ in policy.value_members)
    record, legal = game_against_random("squeeze", tmp_path / "shipped.npz", setup="fixed")
    assert all(ok for _, ok in legal) and len(legal) == record.plies >= 2


def test_value_towers_split_and_join_back_to_the_same_arrays():
    from policies.numpy_policy import join_value_towers, split_value_towers

    arrays = {
        "pi_w0": np.zeros(1),
        "action_w": np.ones(1),
        "vf_w0": np.full(1, 2.0),
        "value_w": np.full(1, 3.0),
        "m1_vf_w0": np.full(1, 4.0),
        "m1_value_w": np.full(1, 5.0),
        "m2_vf_w0": np.full(1, 6.0),
        "m2_value_w": np.full(1, 7.0),
    }
    rest, towers = split_value_towers(arrays)
    assert set(rest) == {"pi_w0", "action_w"}
    assert [{k: float(v[0]) for k, v in t.items()} for t in towers] == [
        {"vf_w0": 2.0, "value_w": 3.0},
        {"vf_w0": 4.0, "value_w": 5.0},
        {"vf_w0": 6.0, "value_w": 7.0},
    ]
    assert join_value_towers(rest, towers) == arrays


def test_a_value_member_with_several_towers_joins_with_all_of_them(tmp_path):
    import shutil

    from policies.numpy_policy import NumpyPolicy
    from training.export import add_value_members

    summary = train(
        tiny_config("squeeze", params={"setup": "fixed"}, total_timesteps=0),
        tmp_path,
        progress_bar=False,
        tensorboard=False,
    )
    member, ensemble = tmp_path / "member.npz", tmp_path / "ensemble.npz"
    shutil.copyfile(summary["policy"], member)
    shutil.copyfile(summary["policy"], ensemble)
    torch.manual_seed(4)
    replace_value(member, [tower_arrays(value_tower(NumpyPolicy(member).obs_size, [16], torch.nn.Tanh)) for _ in "ab"])
    add_value_members(ensemble, [member])
    base, two, three = NumpyPolicy(summary["policy"]), NumpyPolicy(member), NumpyPolicy(ensemble)
    assert len(three.value_members) == 3
    observations = np.random.default_rng(2).random((5, base.obs_size), dtype=np.float32)
    expected = base.member_values(observations) + two.member_values(observations)
    for got, want in zip(three.member_values(observations), expected, strict=True):
        np.testing.assert_array_equal(got, want)
    np.testing.assert_allclose(three.values(observations), np.mean(expected, axis=0), rtol=1e-5, atol=1e-6)


def test_a_files_tower_loads_into_a_net_that_computes_what_the_file_does():
    from policies.numpy_policy import NumpyPolicy, read_policy_file, split_value_towers

    path = "policies/squeeze_hard.npz"
    policy = NumpyPolicy(path)
    first = split_value_towers(read_policy_file(path)[1])[1][0]
    net = set_tower_arrays(value_tower(policy.obs_size, [256, 256], torch.nn.Tanh), first)
    for name, array in tower_arrays(net).items():
        np.testing.assert_array_equal(array, first[name])
    observations = np.random.default_rng(2).random((5, policy.obs_size), dtype=np.float32)
    with torch.no_grad():
        values = net(torch.as_tensor(observations)).numpy()[:, 0]
    np.testing.assert_allclose(values, policy.member_values(observations)[0], rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match=r"vf_w0 has shape \(318, 256\), the net wants \(318, 64\)"):
        set_tower_arrays(value_tower(policy.obs_size, [64, 64], torch.nn.Tanh), first)
