"""Policy files: every malformed file is refused by name at load, and a file is only played under its own rules."""

import io
import json
import zipfile

import gymnasium
import numpy as np
import pytest

import envs  # noqa: F401  (registers the gymnasium ids)
import policies
from envs.play import play_series
from policies.numpy_policy import NumpyPolicy, PolicyFileError, read_policy_file

SWAHILI_2 = policies.shipped_path("swahili", num_players=2)
SWAHILI_4 = policies.shipped_path("swahili", num_players=4)


# -- rules: the file's and the env's, both complete, compared at load (item 3) ------------------


def test_four_player_policy_refused_for_two_player_rules_at_load():
    both = r"num_players': 4.*the env's rules are .*num_players': 2.*num_players: 4 in the file, 2 in the env"
    with pytest.raises(PolicyFileError, match=both):
        gymnasium.make("swgym/Swahili-v0", opponent=str(SWAHILI_4))
    with pytest.raises(PolicyFileError, match=both):
        policies.load("swahili", str(SWAHILI_4))
    with pytest.raises(PolicyFileError, match=both):  # the path of `swgym eval`
        play_series("swahili", [str(SWAHILI_4), "random"], games=1)


def test_two_player_policy_refused_for_four_player_rules():
    with pytest.raises(PolicyFileError, match="num_players: 2 in the file, 4 in the env"):
        gymnasium.make("swgym/Swahili-v0", opponent=str(SWAHILI_2), num_players=4)
    with pytest.raises(PolicyFileError, match="num_players: 2 in the file, 4 in the env"):
        policies.load("swahili", str(SWAHILI_2), num_players=4)


def test_rules_compare_after_normalising():
    # numpy values and explicit defaults are the same rules as the file's
    # loaded (not refused), each the file's network
    assert policies.load("swahili", str(SWAHILI_4), num_players=np.int64(4)).meta["params"] == {"num_players": 4}
    assert policies.load("swahili", str(SWAHILI_2), num_players=2, reward="win").meta["params"]["num_players"] == 2
    env = gymnasium.make("swgym/Swahili-v0", opponent=str(SWAHILI_4), num_players=4)
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))


def test_shipped_path_reads_normalised_rules():
    from envs.core.game import RuleError

    assert policies.shipped_path("swahili", num_players=np.int64(4)) == SWAHILI_4
    assert policies.shipped_path("swahili", num_players=2, reward="win") == SWAHILI_2
    with pytest.raises(RuleError, match="board_size must be one of 9, 8, got 8.0"):
        policies.load("twirls", "hard", board_size=8.0)


def test_twirls_policy_refused_for_the_8x8_board_at_load():
    with pytest.raises(PolicyFileError, match="twirls_hard.npz.*board_size: 9 in the file, 8 in the env"):
        policies.load("twirls", str(policies.shipped_path("twirls")), board_size=8)


# -- malformed files (item 9) ---------------------------------------------------------------------


def _shipped():
    meta, arrays = read_policy_file(policies.shipped_path("swival"))
    return meta, {k: np.array(v) for k, v in arrays.items()}


def _npz(path, meta, arrays, meta_json=None):
    text = json.dumps(meta) if meta_json is None else meta_json
    np.savez(path, meta=np.array(text), **arrays)


def _huge_member(path):
    """An archive whose pi_w0 header declares 10^12 float32s over 16 bytes of data."""
    meta, arrays = _shipped()
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        buffer, {"descr": "<f4", "fortran_order": False, "shape": (1_000_000, 1_000_000)}
    )
    buffer.write(b"\0" * 16)
    _npz(path, meta, {k: v for k, v in arrays.items() if k != "pi_w0"})
    with zipfile.ZipFile(path, "a") as z:
        z.writestr("pi_w0.npy", buffer.getvalue())


def _edit(change):
    def build(path):
        meta, arrays = _shipped()
        result = change(meta, arrays)
        if isinstance(result, str):  # a replacement meta text
            _npz(path, meta, arrays, meta_json=result)
        else:
            _npz(path, meta, arrays)

    return build


def _without(*names):
    return _edit(lambda meta, arrays: [arrays.pop(n) for n in names] and None)


def _set(name, value):
    return _edit(lambda meta, arrays: arrays.__setitem__(name, value))


def _poke(name, value):
    def change(meta, arrays):
        arrays[name].flat[0] = value

    return _edit(change)


def _meta(key, value):
    return _edit(lambda meta, arrays: meta.__setitem__(key, value))


def _npy_named_npz(path):
    with open(path, "wb") as f:
        np.save(f, np.zeros(3, dtype=np.float32))


def _bytes(data):
    def build(path):
        path.write_bytes(data)

    return build


def _truncated(path):
    whole = policies.shipped_path("swival").read_bytes()
    path.write_bytes(whole[: len(whole) // 2])


def _object_array(path):
    meta, arrays = _shipped()
    arrays["pi_w0"] = np.array([{"x": 1}, None], dtype=object)
    np.savez(path, meta=np.array(json.dumps(meta)), allow_pickle=True, **arrays)


def _smaller_observation(meta, arrays):
    """Self-consistent network for 77 observation values: swival has 78."""
    meta["observation_shape"] = [77]
    arrays["pi_w0"], arrays["vf_w0"] = arrays["pi_w0"][:-1], arrays["vf_w0"][:-1]


def _fewer_actions(meta, arrays):
    meta["num_actions"] = 72
    arrays["action_w"], arrays["action_b"] = arrays["action_w"][:, :-1], arrays["action_b"][:-1]


def _last_hidden_layer_removed(meta, arrays):
    """pi_w0 (78, 256) then the head (256, 73): the shapes still chain; only the meta's layer count shows it."""
    meta["layers"] = {"pi": 2, "vf": 2}
    del arrays["pi_w1"], arrays["pi_b1"]


BAD_FILES = [  # (case, builder, fragment of the error)
    ("bias missing", _without("pi_b0"), "has the weights pi_w0 but not the bias pi_b0"),
    ("null meta", _edit(lambda m, a: "null"), "its meta is NoneType None, expected a JSON object"),
    ("list meta", _edit(lambda m, a: "[1, 2]"), "its meta is list [1, 2], expected a JSON object"),
    ("number meta", _edit(lambda m, a: "3.5"), "its meta is float 3.5, expected a JSON object"),
    (
        "meta not a string",
        lambda path: np.savez(path, meta=np.zeros(2), **_shipped()[1]),
        "its meta is a float64 array of shape (2,), expected one JSON string",
    ),
    ("search is a list", _meta("search", [3, 2]), "its meta has search = [3, 2], expected an object"),
    ("params is a list", _meta("params", [1]), "its meta has params = [1], expected an object"),
    ("num_actions text", _meta("num_actions", "73"), "its meta has num_actions = '73', expected a positive int"),
    ("shape is a number", _meta("observation_shape", 78), "observation_shape = 78, expected a list"),
    ("unknown activation", _meta("activation", "gelu"), "activation = 'gelu', expected one of tanh, relu"),
    (".npy named .npz", _npy_named_npz, "is a single .npy array, not a policy file"),
    ("huge declared shape", _huge_member, r"array 'pi_w0' declares shape (1000000, 1000000)"),
    ("string weights", _set("pi_w0", np.full((78, 256), "0.1")), "array 'pi_w0' has dtype <U3, expected floating"),
    ("integer weights", _set("action_b", np.zeros(73, dtype=np.int64)), "'action_b' has dtype int64, expected float"),
    ("object weights", _object_array, "array 'pi_w0' holds Python objects"),
    ("first layer removed", _without("pi_w0", "pi_b0"), "pi tower has 0 hidden layers, its meta says 2"),
    ("layer cut short", _set("pi_w1", np.zeros((255, 256), np.float32)), "policy layer 1 has weights (255, 256)"),
    ("action head removed", _without("action_w"), "lacks the array 'action_w'"),
    ("equal-width layer removed", _edit(_last_hidden_layer_removed), "pi tower has 1 hidden layers, its meta says 2"),
    ("layer counts not ints", _meta("layers", {"pi": "2"}), "its meta has layers = {'pi': '2'}"),
    ("NaN weight", _poke("pi_w1", np.nan), "array 'pi_w1' holds NaN or infinite numbers"),
    ("infinite bias", _poke("value_b", np.inf), "array 'value_b' holds NaN or infinite numbers"),
    (
        "observation size",
        _edit(_smaller_observation),
        "takes 77 observation values and gives 73 actions; swival with rules {} has 78 and 73",
    ),
    ("action count", _edit(_fewer_actions), "takes 78 observation values and gives 72 actions; swival"),
    (
        "random bytes",
        _bytes(bytes(np.random.default_rng(0).integers(0, 256, 300, dtype=np.uint8))),
        "is not a policy file",
    ),
    ("empty file", _bytes(b""), "is empty: not a policy file"),
    ("truncated zip", _truncated, "is truncated or corrupt"),
]


@pytest.mark.parametrize("case,build,fragment", BAD_FILES, ids=[c[0] for c in BAD_FILES])
def test_malformed_policy_file_is_refused_by_name(tmp_path, case, build, fragment):
    path = tmp_path / "bad.npz"
    build(path)
    with pytest.raises(PolicyFileError) as caught:
        policies.load("swival", str(path))
    message = str(caught.value)
    assert str(path) in message and fragment in message, message
    assert "allow_pickle" not in message


def test_huge_declared_shape_allocates_nothing(tmp_path):
    import tracemalloc

    path = tmp_path / "huge.npz"
    _huge_member(path)
    tracemalloc.start()
    with pytest.raises(PolicyFileError, match="declares shape"):
        read_policy_file(path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 50_000_000


def test_a_good_file_still_loads_and_plays(tmp_path):
    path = tmp_path / "good.npz"
    _edit(lambda m, a: None)(path)
    policy = policies.load("swival", str(path))
    env = envs.make_raw("swival")
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    assert obs["action_mask"][policy.act(obs["observation"], obs["action_mask"])]


def test_in_memory_policy_is_checked_too():
    meta, arrays = _shipped()
    arrays["pi_w0"][0, 0] = np.nan
    with pytest.raises(PolicyFileError, match="<in memory>: array 'pi_w0' holds NaN"):
        NumpyPolicy((meta, arrays))


# -- SB3 .zip opponents: read as data, never unpickled unless trusted (item 10) ---------------------


class _Payload:
    """Unpickling this runs a shell command that creates ``marker``."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        import os

        return (os.system, (f"touch {self.marker}",))


def _payload_b64(marker):
    import base64
    import pickle

    return base64.b64encode(pickle.dumps(_Payload(marker))).decode()


@pytest.fixture(scope="module")
def sb3_models(tmp_path_factory):
    """Two tiny MaskablePPO models of Swival (tanh [16, 16], relu [16]) trained for 64 steps, saved by SB3."""
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    from envs.single_agent import SingleAgentEnv

    folder = tmp_path_factory.mktemp("sb3")
    models = {}
    variants = (("tanh", {"net_arch": [16, 16]}), ("relu", {"net_arch": [16], "activation_fn": torch.nn.ReLU}))
    for name, kwargs in variants:
        model = MaskablePPO(
            "MlpPolicy",
            SingleAgentEnv("swival"),
            n_steps=64,
            batch_size=32,
            n_epochs=1,
            seed=0,
            policy_kwargs=kwargs,
            device="cpu",
        )
        model.learn(64)
        model.save(folder / f"{name}.zip")
        models[name] = (model, folder / f"{name}.zip")
    return models


def _positions(count=12, name="swival"):
    env = envs.make_raw(name)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    out = []
    while len(out) < count and env.agents:
        obs = env.observe(env.agent_selection)
        out.append((obs["observation"], obs["action_mask"]))
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if not env.agents or env.terminations[env.agent_selection]:
            env.reset(seed=len(out))
    return out


@pytest.mark.parametrize("kind", ["tanh", "relu"])
def test_sb3_zip_plays_like_sb3_without_unpickling(sb3_models, kind):
    model, path = sb3_models[kind]
    opponent = policies.load("swival", str(path))
    assert isinstance(opponent, NumpyPolicy) and opponent.meta["activation"] == kind
    for obs, mask in _positions():
        expected, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        assert opponent.act(obs, mask) == int(expected)


def test_sb3_zip_for_another_game_is_refused_at_load(sb3_models):
    _, path = sb3_models["tanh"]
    with pytest.raises(PolicyFileError, match="tanh.zip: its network takes 78 observation values .* swahili"):
        policies.load("swahili", str(path))


def _tampered(source, target, edit_data=None, policy_bytes=None):
    with zipfile.ZipFile(source) as z_in, zipfile.ZipFile(target, "w") as z_out:
        for item in z_in.infolist():
            content = z_in.read(item.filename)
            if item.filename == "data" and edit_data:
                data = json.loads(content)
                edit_data(data)
                content = json.dumps(data).encode()
            if item.filename == "policy.pth" and policy_bytes is not None:
                content = policy_bytes
            z_out.writestr(item, content)


def test_code_hidden_in_a_zip_data_is_not_run(sb3_models, tmp_path):
    _, path = sb3_models["tanh"]
    marker = tmp_path / "ran"

    def plant(data):
        for key in ("policy_kwargs", "lr_schedule", "clip_range", "observation_space", "action_space"):
            entry = data[key] if isinstance(data[key], dict) else {":type:": "<class 'dict'>"}
            data[key] = {**entry, ":serialized:": _payload_b64(marker)}
        data["policy_kwargs"].update(net_arch=[16, 16])

    crafted = tmp_path / "crafted.zip"
    _tampered(path, crafted, edit_data=plant)
    from envs.opponents import make_opponent

    opponent = make_opponent("swival", str(crafted))
    obs, mask = _positions(1)[0]
    assert mask[opponent.act(obs, mask)]
    assert not marker.exists()


def test_code_hidden_in_a_zip_weights_is_not_run(sb3_models, tmp_path):
    import pickle

    _, path = sb3_models["tanh"]
    marker = tmp_path / "ran"
    crafted = tmp_path / "crafted.zip"
    _tampered(path, crafted, policy_bytes=pickle.dumps(_Payload(marker)))
    with pytest.raises(PolicyFileError, match="crafted.zip: its policy.pth is not a plain tensor state dict.*trusted"):
        policies.load("swival", str(crafted))
    assert not marker.exists()


def test_unmappable_zip_says_to_trust_it(sb3_models, tmp_path):
    _, path = sb3_models["tanh"]

    def custom(data):
        data["policy_kwargs"] = {":type:": "<class 'dict'>", ":serialized:": "", "features_extractor_class": "X"}

    odd = tmp_path / "odd.zip"
    _tampered(path, odd, edit_data=custom)
    with pytest.raises(PolicyFileError, match="odd.zip: its policy_kwargs features_extractor_class .*trusted=True"):
        policies.load("swival", str(odd))


def test_trusted_zip_uses_sb3s_loader(sb3_models):
    from policies.sb3_opponent import SB3Opponent

    _, path = sb3_models["tanh"]
    assert isinstance(policies.load("swival", str(path), trusted=True), SB3Opponent)


def test_zip_without_torch_names_the_extra(sb3_models, monkeypatch):
    _, path = sb3_models["tanh"]
    monkeypatch.setitem(__import__("sys").modules, "torch", None)
    with pytest.raises(ImportError, match=r"pip install -e '\.\[train\]'"):
        policies.load("swival", str(path))


def test_export_reads_only_the_weights_unless_trusted(sb3_models, tmp_path):
    """`swgym export` of a crafted zip runs nothing and writes a policy that plays as SB3 does; --trust uses SB3."""
    from scripts.cli import main

    model, path = sb3_models["tanh"]
    marker = tmp_path / "ran"

    def plant(data):
        data["lr_schedule"] = {":type:": "<class 'function'>", ":serialized:": _payload_b64(marker)}

    crafted = tmp_path / "crafted.zip"
    _tampered(path, crafted, edit_data=plant)
    main(["export", "swival", str(crafted), "--out", str(tmp_path / "safe.npz")])
    assert not marker.exists()
    exported = policies.load("swival", str(tmp_path / "safe.npz"))
    for obs, mask in _positions():
        expected, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        assert exported.act(obs, mask) == int(expected)
    main(["export", "swival", str(crafted), "--out", str(tmp_path / "trusted.npz"), "--trust"])
    assert marker.exists()  # the trusted path is SB3's own loader, which unpickles


# -- SB3 .zip of the factored policy: its head read as data too ------------------------------------


@pytest.fixture(scope="module")
def factored_zip(tmp_path_factory):
    """A tiny MaskablePPO of Twirls with the factored head (rank 2, [16]) after one rollout, saved by SB3."""
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    from training.factored_policy import FactoredMaskablePolicy
    from training.sb3_vec import make_sb3_vec

    torch.set_num_threads(1)
    kwargs = {"name": "twirls", "params": {}, "rank": 2, "net_arch": [16]}
    model = MaskablePPO(
        FactoredMaskablePolicy,
        make_sb3_vec("twirls", 8, opponent="random", seed=0),
        n_steps=8,
        batch_size=64,
        n_epochs=1,
        seed=0,
        policy_kwargs=kwargs,
        device="cpu",
    )
    model.learn(64)  # one rollout and one update: no weight at its start
    path = tmp_path_factory.mktemp("factored") / "twirls.zip"
    model.save(path)
    return model, path


def test_factored_zip_reads_as_its_export_does(factored_zip):
    """The weights-only reader gives the arrays and meta ``training.export`` writes for the same policy."""
    from policies.sb3_zip import read_sb3_zip
    from training.export import policy_arrays

    model, path = factored_zip
    meta, arrays = read_sb3_zip(path, "twirls", {})
    expected = policy_arrays(model.policy, "twirls", {})
    assert json.loads(json.dumps(meta)) == json.loads(str(expected.pop("meta")))
    # rank 2 and the term per move: a head of rank 3 in the file (policies.network.Factored.with_move_terms)
    assert meta["head"] == {"kind": "factored", "rank": 3, "cells": 81, "moves": 32, "moves_from_position": True}
    assert sorted(arrays) == sorted(expected)
    for key, value in expected.items():
        assert arrays[key].dtype == value.dtype and np.array_equal(arrays[key], value), key


def test_factored_zip_plays_like_the_torch_policy(factored_zip):
    from policies.numpy_policy import masked_softmax
    from training.export import torch_probabilities

    model, path = factored_zip
    policy = policies.load("twirls", str(path))
    assert isinstance(policy, NumpyPolicy) and policy.meta["head"]["kind"] == "factored"
    observations, masks = (np.asarray(column) for column in zip(*_positions(8, "twirls")))
    probs, values = torch_probabilities(model.policy, observations.astype(np.float32), masks.astype(bool))
    np.testing.assert_allclose(masked_softmax(policy.logits(observations), masks.astype(bool)), probs, atol=1e-5)
    np.testing.assert_allclose(policy.values(observations), values, rtol=1e-4, atol=1e-5)


def test_factored_zip_exports_without_trust(factored_zip, tmp_path, monkeypatch):
    """`swgym export` of a factored model reads its weights only (SB3's loader is never called) and the file plays."""
    from sb3_contrib import MaskablePPO

    from scripts.cli import main
    from training.export import torch_probabilities

    def never(*args, **kwargs):
        raise AssertionError("SB3's loader was called")

    monkeypatch.setattr(MaskablePPO, "load", never)
    model, path = factored_zip
    out = tmp_path / "twirls.npz"
    main(["export", "twirls", str(path), "--out", str(out)])
    policy = NumpyPolicy(out, name="twirls")
    assert policy.meta["head"]["kind"] == "factored"
    positions = _positions(8, "twirls")
    observations, masks = (np.asarray(column) for column in zip(*positions))
    best = torch_probabilities(model.policy, observations.astype(np.float32), masks.astype(bool))[0].argmax(axis=1)
    assert [policy.act(obs, mask) for obs, mask in positions] == best.tolist()


def test_factored_zip_for_another_game_is_refused_naming_both(factored_zip, tmp_path):
    from scripts.cli import main

    _, path = factored_zip
    with pytest.raises(SystemExit, match="twirls.zip is a factored policy of 'twirls', not of 'swish'"):
        main(["export", "swish", str(path), "--out", str(tmp_path / "swish.npz")])
    with pytest.raises(PolicyFileError, match="twirls.zip is a factored policy of 'twirls', not of 'squeeze'"):
        policies.load("squeeze", str(path))
    assert not (tmp_path / "swish.npz").exists()


def test_factored_zip_for_other_rules_is_refused(factored_zip):
    _, path = factored_zip
    with pytest.raises(PolicyFileError, match="factored policy of twirls with rules .*'max_plies': 400.*, not .*100"):
        policies.load("twirls", str(path), max_plies=100)


@pytest.mark.parametrize("key", ["name", "params", "rank"])
def test_factored_zip_with_a_pickled_setting_is_refused(factored_zip, tmp_path, key):
    """The factored policy's settings are read as plain JSON only: a pickled one is refused, never decoded."""
    _, path = factored_zip
    marker = tmp_path / "ran"

    def plant(data):
        data["policy_kwargs"][key] = {":type:": "<class 'dict'>", ":serialized:": _payload_b64(marker)}

    crafted = tmp_path / "crafted.zip"
    _tampered(path, crafted, edit_data=plant)
    with pytest.raises(PolicyFileError, match=f"crafted.zip: its factored policy_kwargs {key} is a pickled value"):
        policies.load("twirls", str(crafted))
    assert not marker.exists()


@pytest.mark.parametrize(
    "edit, fragment",
    [
        (
            lambda d: d["policy_kwargs"].update(rank=3),
            r"its factored head does not fit .* at rank 3: action_net.cell_net.weight \(243, 16\)",
        ),
        (lambda d: d["policy_kwargs"].update(layers=2), "its policy_kwargs layers cannot be read"),
        (lambda d: d["policy_class"].update(__module__="elsewhere"), "it is not a MaskablePPO actor-critic"),
    ],
    ids=["rank", "unknown-kwarg", "class"],
)
def test_factored_zip_that_does_not_fit_is_refused(factored_zip, tmp_path, edit, fragment):
    _, path = factored_zip
    odd = tmp_path / "odd.zip"
    _tampered(path, odd, edit_data=edit)
    with pytest.raises(PolicyFileError, match=f"odd.zip: {fragment}.*trusted=True"):
        policies.load("twirls", str(odd))


def test_factored_zip_with_move_terms_but_no_moves_from_the_position_is_refused(factored_zip, tmp_path):
    import torch

    _, path = factored_zip
    with zipfile.ZipFile(path) as z:
        state = torch.load(io.BytesIO(z.read("policy.pth")), weights_only=True)
    state = {k: v for k, v in state.items() if not k.startswith(("action_net.move_net", "action_net.action_bias"))}
    buffer = io.BytesIO()
    torch.save(state, buffer)
    odd = tmp_path / "odd.zip"
    _tampered(path, odd, policy_bytes=buffer.getvalue())
    with pytest.raises(PolicyFileError, match="odd.zip: its factored head has move terms but not the moves from"):
        policies.load("twirls", str(odd))


@pytest.mark.parametrize("path", sorted(policies.POLICY_DIR.glob("*.npz")), ids=lambda p: p.name)
def test_a_shipped_file_that_lost_a_layer_is_refused(path, tmp_path):
    """Every shipped file declares its hidden layers, so losing one between equal widths is caught at load."""
    from policies.numpy_policy import read_policy_file, write_policy_file

    meta, arrays = read_policy_file(path)
    last = meta["layers"]["pi"] - 1
    assert arrays[f"pi_w{last}"].shape[0] == arrays[f"pi_w{last}"].shape[1]  # the chain still lines up without it
    del arrays[f"pi_w{last}"], arrays[f"pi_b{last}"]
    broken = write_policy_file(tmp_path / path.name, meta, arrays)
    with pytest.raises(PolicyFileError, match="hidden layers"):
        NumpyPolicy(broken)
