"""Reading an SB3 MaskablePPO ``.zip`` as a numpy policy without running any code from the file.

SB3 saves a ``.zip`` holding ``data`` (JSON; values JSON cannot hold are
base64 cloudpickle marked ``":serialized:"``) and ``policy.pth`` (the
torch state dict, itself a zip whose tensors are rebuilt by a pickle).
``MaskablePPO.load`` unpickles both, so a crafted file runs code at load.
Here ``data`` is read as plain JSON, its serialized values never decoded,
and ``policy.pth`` with ``torch.load(weights_only=True)``, which only
rebuilds tensors. The MLP actor-critic (``mlp_extractor.policy_net`` /
``value_net``, ``action_net``, ``value_net``) is mapped to the layers of a
numpy policy file (as ``training.export`` writes them). So is the factored
one (``training.factored_policy.FactoredMaskablePolicy``, named by the repr
of ``policy_class``): its ``action_net`` (``cell_net``, ``move_vectors``,
``move_bias``, ``other_head``; ``move_net`` and ``move_term`` where it has
them) becomes the file's factored head, over the
action layout the game declares (``envs.core.action_layout``) for the game
and rules its ``policy_kwargs`` name as plain JSON, which must be the ones
asked for. Anything else is refused; ``policies.load(..., trusted=True)``
uses SB3's own loader instead, for files whose author you trust.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from envs.core.action_layout import ActionLayout
from policies.network import Factored as FactoredSpec
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
# the policy_kwargs of the factored policy (training.factored_policy), each read as plain JSON
FACTORED_KWARGS = {"name", "params", "rank", "moves_from_position", "move_terms"}
FACTORED_MODULE = "training.factored_policy"
# the factored head's state-dict keys and the policy file arrays they become (training.network.FactoredHead)
FACTORED_PARTS = {
    "action_net.cell_net.weight": "head_u_w",
    "action_net.cell_net.bias": "head_u_b",
    "action_net.move_vectors": "head_v",
    "action_net.move_bias": "head_move_b",
    "action_net.other_head.weight": "head_other_w",
    "action_net.other_head.bias": "head_other_b",
}
# and those of a head whose move vectors also come from the position (Factored.moves_from_position)
POSITION_PARTS = {
    "action_net.move_net.weight": "head_vh_w",
    "action_net.move_net.bias": "head_vh_b",
    "action_net.action_bias": "head_action_b",
}
# and those of its term per move from the position (folded into a head of one rank more: Factored.with_move_terms)
TERM_PARTS = {"action_net.move_term.weight": "head_vt_w", "action_net.move_term.bias": "head_vt_b"}
EVERY_FACTORED_PART = FACTORED_PARTS | POSITION_PARTS | TERM_PARTS
# what a factored policy's zip says of its head: the rank (None: not in policy_kwargs, read from the weights)
# and the action layout of the game and rules it was trained for
Factored = tuple[int | None, ActionLayout]
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

    game ``name`` and ``params`` are written into the meta (the zip of a plain
    MLP does not record its game and rules; a factored one's policy_kwargs do,
    and they must be these); the observation and action sizes are checked
    against the env when the policy is built.
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
    data, policy_bytes = _read_archive(path)
    factored = _is_factored(path, data)
    activation = _activation(path, data, factored)
    head = _factored(path, data.get("policy_kwargs") or {}, name, params) if factored else None
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
    arrays = _layers(path, {k: v.detach().cpu().numpy() for k, v in state.items()}, head is not None)
    first = next(key for key in ("pi_w0", "action_w", "head_u_w") if key in arrays)  # the towers' input
    meta = {
        "format": FORMAT_VERSION,
        "game": name,
        "params": dict(params),
        "observation_shape": [int(arrays[first].shape[0])],
        "num_actions": int(arrays["action_w"].shape[1]) if head is None else int(head[1].num_actions),
        "activation": activation,
        "layers": {tower: sum(key.startswith(f"{tower}_w") for key in arrays) for tower in ("pi", "vf")},
    }
    if head is not None:
        spec = _factored_head(path, arrays, *head)
        if "head_vt_w" in arrays:
            spec, arrays = spec.with_move_terms(arrays)
        meta["head"] = spec.meta()
    return meta, arrays


def _read_archive(path: Path) -> tuple[dict[str, Any], bytes]:
    """The zip's ``data`` as plain JSON and the bytes of its ``policy.pth``, neither unpickled."""
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
    return data, policy_bytes


def _is_factored(path: Path, data: dict[str, Any]) -> bool:
    """Whether ``policy_class`` (the repr SB3 writes beside the pickled class) names the factored policy or
    the plain MLP one; refused if neither."""
    policy_class = data.get("policy_class")
    init = str(policy_class.get("__init__")) if isinstance(policy_class, dict) else ""
    if "FactoredMaskablePolicy.__init__" in init and policy_class.get("__module__") == FACTORED_MODULE:
        return True
    if "MaskableActorCriticPolicy" not in init:
        raise _refuse(
            path,
            "it is not a MaskablePPO actor-critic policy (MaskableActorCriticPolicy, or FactoredMaskablePolicy "
            f"of {FACTORED_MODULE})",
        )
    return False


def _activation(path: Path, data: dict[str, Any], factored: bool) -> str:
    """The hidden layers' activation, read from the repr SB3 writes beside the pickled policy_kwargs."""
    space = data.get("observation_space")
    if not (isinstance(space, dict) and "gymnasium.spaces.box.Box" in str(space.get(":type:"))):
        raise _refuse(path, "its observation space is not a flat Box")
    kwargs = data.get("policy_kwargs") or {}
    if not isinstance(kwargs, dict):
        raise _refuse(path, f"its policy_kwargs are {kwargs!r:.60}")
    known = HARMLESS_KWARGS | (FACTORED_KWARGS if factored else set())
    unknown = sorted(set(kwargs) - known - {":type:", ":serialized:"})
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


def _plain(value: Any) -> bool:
    """Whether a JSON value of ``data`` holds no ``":serialized:"`` (pickled) value anywhere in it."""
    if isinstance(value, dict):
        return ":serialized:" not in value and all(_plain(v) for v in value.values())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return True


def _factored(path: Path, kwargs: dict[str, Any], name: str, params: dict[str, Any]) -> Factored:
    """The rank and the action layout of a factored policy, from the game, rules and rank its policy_kwargs
    give as plain JSON (the layout as ``training.factored_policy.game_layout`` builds it); refused unless
    that game is ``name`` and those rules are ``params`` (both normalised)."""
    from envs.registry import action_layout, game_module  # on use, as numpy_policy's checks do

    for key in sorted(FACTORED_KWARGS & set(kwargs)):
        if not _plain(kwargs[key]):
            raise _refuse(path, f"its factored policy_kwargs {key} is a pickled value, not plain JSON")
    game, rules, rank = kwargs.get("name"), kwargs.get("params"), kwargs.get("rank")
    rules = {} if rules is None else rules  # the policy's default
    if not isinstance(game, str):
        raise _refuse(path, f"its factored policy_kwargs name the game as {game!r:.60}, not as text")
    if game != name:
        raise PolicyFileError(f"SB3 model {path} is a factored policy of {game!r}, not of {name!r}")
    if not isinstance(rules, dict) or not (rank is None or (type(rank) is int and rank >= 1)):
        raise _refuse(path, f"its factored policy_kwargs params {rules!r:.60} or rank {rank!r:.20} are not valid")
    game_cls = game_module(name).raw_env.game_cls
    try:
        trained = game_cls.normalise_params(dict(rules))
    except (ValueError, TypeError) as err:
        raise _refuse(path, f"its factored policy's rules {rules} are not valid {name} rules ({err})") from None
    asked = game_cls.normalise_params(dict(params))
    if trained != asked:
        raise PolicyFileError(f"SB3 model {path} is a factored policy of {name} with rules {trained}, not {asked}")
    layout = action_layout(name, **trained)
    if layout is None:
        raise PolicyFileError(f"SB3 model {path} has a factored action head, but {name} declares no action layout")
    return rank, layout


def _layers(path: Path, state: dict[str, np.ndarray], factored: bool) -> dict[str, np.ndarray]:
    """The numpy policy arrays (weights as (in, out)) of a MaskableActorCriticPolicy state dict, its factored
    head's arrays (``head_*``, the layout not yet added) in place of ``action_w``, ``action_b`` if ``factored``."""
    arrays: dict[str, np.ndarray] = {}
    towers: dict[str, dict[int, dict[str, np.ndarray]]] = {"policy": {}, "value": {}}
    heads = ["value_net"] + ([] if factored else ["action_net"])
    for key, value in state.items():
        m = _LAYER.fullmatch(key)
        if m:
            towers[m[1]].setdefault(int(m[2]), {})[m[3]] = value
        elif factored and key in EVERY_FACTORED_PART:
            arrays[EVERY_FACTORED_PART[key]] = value.T if key.endswith(".weight") else value
        elif key in {f"{head}.{part}" for head in heads for part in ("weight", "bias")}:
            name, part = key.split(".")
            arrays[f"{name[:-4]}_{'w' if part == 'weight' else 'b'}"] = value.T if part == "weight" else value
        else:
            kind = "factored" if factored else "plain MLP"
            raise _refuse(
                path,
                f"its network has a part {key!r} that the numpy policy does not map (not a {kind} actor-critic)",
            )
    for tower, prefix in (("policy", "pi"), ("value", "vf")):
        for i, index in enumerate(sorted(towers[tower])):
            layer = towers[tower][index]
            if set(layer) != {"weight", "bias"}:
                raise _refuse(path, f"its {tower} layer {index} lacks a weight or a bias")
            arrays[f"{prefix}_w{i}"], arrays[f"{prefix}_b{i}"] = layer["weight"].T, layer["bias"]
    wanted = {f"{head[:-4]}_{part[0]}": f"{head}.{part}" for head in heads for part in ("weight", "bias")}
    wanted |= {v: k for k, v in FACTORED_PARTS.items()} if factored else {}
    for optional in (POSITION_PARTS, TERM_PARTS):
        if factored and any(key in arrays for key in optional.values()):
            wanted |= {v: k for k, v in optional.items()}
    for key, part in wanted.items():
        if key not in arrays:
            raise _refuse(path, f"its network lacks {part}")
    return {k: np.ascontiguousarray(v, dtype=np.float32) if v.dtype.kind == "f" else v for k, v in arrays.items()}


def _factored_head(path: Path, arrays: dict[str, np.ndarray], rank: int | None, layout: ActionLayout) -> FactoredSpec:
    """Check the factored head's arrays fit ``layout`` at ``rank`` (None: ``move_vectors``' width) and add the
    layout (``head_cell``, ``head_move``) as ``FactoredHead.arrays()`` writes it; returns the head's shape."""
    if rank is None:
        rank = int(arrays["head_v"].shape[-1]) if arrays["head_v"].ndim == 2 else 0
    width, others = (arrays["head_u_w"].shape or (0,))[0], int(layout.others.size)
    spec = FactoredSpec(rank, layout.cells, layout.moves, others, "head_vh_w" in arrays)
    expected = spec.shapes(width, layout.num_actions)
    if "head_vt_w" in arrays:
        if not spec.moves_from_position:
            raise _refuse(path, "its factored head has move terms but not the moves from the position they go with")
        expected |= {"head_vt_w": (width, layout.moves), "head_vt_b": (layout.moves,)}
    parts = {v: k for k, v in EVERY_FACTORED_PART.items()}  # named as SB3 stores them: weights (out, in)
    wrong = [
        f"{parts[k]} {arrays[k].shape[::-1] if parts[k].endswith('.weight') else arrays[k].shape}"
        for k, shape in expected.items()
        if arrays[k].shape != shape
    ]
    if wrong or rank < 1:
        raise _refuse(
            path,
            f"its factored head does not fit the game's action layout ({layout.cells} cells x {layout.moves} "
            f"moves, {others} actions of their own) at rank {rank}: {', '.join(wrong) or 'no move vectors'}",
        )
    arrays["head_cell"], arrays["head_move"] = layout.cell.astype(np.int32), layout.move.astype(np.int32)
    return spec
