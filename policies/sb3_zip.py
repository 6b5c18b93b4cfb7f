"""Reading an SB3 MaskablePPO ``.zip`` as a numpy policy without running any code from the file.

SB3 saves a ``.zip`` holding ``data`` (JSON; values JSON cannot hold are
base64 cloudpickle marked ``":serialized:"``) and ``policy.pth`` (the
torch state dict, itself a zip whose tensors are rebuilt by a pickle).
``MaskablePPO.load`` unpickles both, so a crafted file runs code at load.
Here ``data`` is read as plain JSON, its serialized values never decoded,
and ``policy.pth`` with ``torch.load(weights_only=True)``, which only
rebuilds tensors. The MLP actor-critic (``mlp_extractor.policy_net`` /
``value_net``, ``action_net``, ``value_net``) is mapped to the layers of a
numpy policy file (as ``training.export`` writes them). Anything else is
refused; ``policies.load(..., trusted=True)`` uses SB3's own loader instead,
for files whose author you trust.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from policies.numpy_policy import FORMAT_VERSION, PolicyFileError

# the activations SB3 writes into data's policy_kwargs as a class repr
ACTIVATION_REPRS = {
    "<class 'torch.nn.modules.activation.Tanh'>": "tanh",
    "<class 'torch.nn.modules.activation.ReLU'>": "relu",
}
# policy_kwargs that do not change what the saved network computes on a flat Box observation
HARMLESS_KWARGS = {
    "net_arch",
    "activation_fn",
    "ortho_init",
    "share_features_extractor",
    "optimizer_class",
    "optimizer_kwargs",
    "normalize_images",
}
_LAYER = re.compile(r"mlp_extractor\.(policy|value)_net\.(\d+)\.(weight|bias)")
TRUST_HINT = (
    "if you trust this file, load it with trusted=True (policies.load(game, path, trusted=True) or "
    "make_opponent(game, path, trusted=True), or export it once with `swgym export --trust`), "
    "which runs SB3's own loader and may run code in the file"
)


def _refuse(path: Path, problem: str) -> PolicyFileError:
    return PolicyFileError(f"SB3 model {path}: {problem}; {TRUST_HINT}")


def read_sb3_zip(path: str | Path, name: str, params: dict[str, Any]) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """(meta, arrays) of a numpy policy for the MaskablePPO model in ``path``, nothing unpickled.

    game ``name`` and ``params`` are written into the meta (the zip does not
    record its rules; the observation and action sizes are checked against
    the env when the policy is built).
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"model file {path} does not exist")
    try:
        import torch
    except ImportError:
        raise ImportError(
            f"{path}: reading an SB3 .zip model needs torch; install the training extras "
            "(from a clone: pip install -e '.[train]')"
        ) from None
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            if not {"data", "policy.pth"} <= names:
                raise PolicyFileError(
                    f"{path} is not an SB3 model: it lacks {', '.join(sorted({'data', 'policy.pth'} - names))}"
                )
            data = json.loads(archive.read("data"))
            policy_bytes = archive.read("policy.pth")
    except PolicyFileError:
        raise
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, UnicodeDecodeError) as err:
        raise PolicyFileError(f"{path} is not a readable SB3 model ({type(err).__name__}: {err})") from None
    if not isinstance(data, dict):
        raise PolicyFileError(f"{path} is not an SB3 model: its data is not a JSON object")
    activation = _activation(path, data)
    try:
        state = torch.load(io.BytesIO(policy_bytes), map_location="cpu", weights_only=True)
    except Exception as err:  # torch raises many kinds; weights_only refuses anything but tensors
        raise _refuse(
            path,
            "its policy.pth is not a plain tensor state dict (torch's weights-only reader "
            f"refused it: {type(err).__name__})",
        ) from None
    if not isinstance(state, dict) or not all(isinstance(v, torch.Tensor) for v in state.values()):
        raise _refuse(path, "its policy.pth is not a state dict of tensors")
    arrays = _layers(path, {k: v.detach().cpu().numpy() for k, v in state.items()})
    meta = {
        "format": FORMAT_VERSION,
        "game": name,
        "params": dict(params),
        "observation_shape": [int(arrays["pi_w0" if "pi_w0" in arrays else "action_w"].shape[0])],
        "num_actions": int(arrays["action_w"].shape[1]),
        "activation": activation,
    }
    return meta, arrays


def _activation(path: Path, data: dict[str, Any]) -> str:
    """The hidden layers' activation, read from the repr SB3 writes beside the pickled policy_kwargs."""
    policy_class = data.get("policy_class")
    if not (isinstance(policy_class, dict) and "MaskableActorCriticPolicy" in str(policy_class.get("__init__"))):
        raise _refuse(path, "it is not a MaskablePPO actor-critic policy (MaskableActorCriticPolicy)")
    space = data.get("observation_space")
    if not (isinstance(space, dict) and "gymnasium.spaces.box.Box" in str(space.get(":type:"))):
        raise _refuse(path, "its observation space is not a flat Box")
    kwargs = data.get("policy_kwargs") or {}
    if not isinstance(kwargs, dict):
        raise _refuse(path, f"its policy_kwargs are {kwargs!r:.60}")
    unknown = sorted(set(kwargs) - HARMLESS_KWARGS - {":type:", ":serialized:"})
    if unknown:
        raise _refuse(path, f"its policy_kwargs {', '.join(unknown)} cannot be read without unpickling")
    if "activation_fn" not in kwargs:
        return "tanh"  # SB3's default for the MLP policy
    activation = ACTIVATION_REPRS.get(str(kwargs["activation_fn"]))
    if activation is None:
        raise _refuse(
            path,
            f"its activation {kwargs['activation_fn']} is not one the numpy policy has "
            f"({', '.join(ACTIVATION_REPRS.values())})",
        )
    return activation


def _layers(path: Path, state: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The numpy policy arrays (weights as (in, out)) of a MaskableActorCriticPolicy state dict."""
    arrays: dict[str, np.ndarray] = {}
    towers: dict[str, dict[int, dict[str, np.ndarray]]] = {"policy": {}, "value": {}}
    for key, value in state.items():
        m = _LAYER.fullmatch(key)
        if m:
            towers[m[1]].setdefault(int(m[2]), {})[m[3]] = value
        elif key in ("action_net.weight", "action_net.bias", "value_net.weight", "value_net.bias"):
            name, part = key.split(".")
            arrays[f"{name[:-4]}_{'w' if part == 'weight' else 'b'}"] = value.T if part == "weight" else value
        else:
            raise _refuse(
                path,
                f"its network has a part {key!r} that the numpy policy does not map (not a plain MLP actor-critic)",
            )
    for tower, prefix in (("policy", "pi"), ("value", "vf")):
        for i, index in enumerate(sorted(towers[tower])):
            layer = towers[tower][index]
            if set(layer) != {"weight", "bias"}:
                raise _refuse(path, f"its {tower} layer {index} lacks a weight or a bias")
            arrays[f"{prefix}_w{i}"], arrays[f"{prefix}_b{i}"] = layer["weight"].T, layer["bias"]
    for key in ("action_w", "action_b", "value_w", "value_b"):
        if key not in arrays:
            raise _refuse(path, f"its network lacks {key.replace('_w', '_net.weight').replace('_b', '_net.bias')}")
    return {k: np.ascontiguousarray(v, dtype=np.float32) if v.dtype.kind == "f" else v for k, v in arrays.items()}
