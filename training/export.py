"""Export a MaskablePPO actor-critic to a numpy policy file (no pickle), and check it matches."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from policies.numpy_policy import (
    FORMAT_VERSION,
    NumpyPolicy,
    join_value_towers,
    read_policy_file,
    split_value_towers,
    write_policy_file,
)
from training.network import ACTIVATION_NAMES, FactoredHead


def _linears(module: nn.Module) -> list[nn.Linear]:
    return [m for m in module.modules() if isinstance(m, nn.Linear)]


def policy_arrays(
    policy, name: str, params: dict[str, Any], extra_meta: dict[str, Any] | None = None
) -> dict[str, np.ndarray]:
    """The arrays of a policy file for an SB3 ``MaskableActorCriticPolicy`` playing game ``name`` (a plain
    action head, or the factored one of :class:`training.factored_policy.FactoredMaskablePolicy`)."""
    extractor = policy.mlp_extractor
    acts = {type(m) for m in extractor.modules() if type(m) in ACTIVATION_NAMES}
    if len(acts) > 1:
        raise ValueError(f"mixed activations {acts} cannot be exported")
    activation = ACTIVATION_NAMES[acts.pop()] if acts else "tanh"
    meta = {
        "format": FORMAT_VERSION,
        "game": name,
        "params": params,
        "observation_shape": list(policy.observation_space.shape),
        "num_actions": int(policy.action_space.n),
        "activation": activation,
        # hidden layers per tower: a file missing one whose neighbours have equal widths is refused at load
        "layers": {"pi": len(_linears(extractor.policy_net)), "vf": len(_linears(extractor.value_net))},
        **(extra_meta or {}),
    }
    head = policy.action_net
    if isinstance(head, FactoredHead):
        meta["head"] = head.spec.meta()
    out: dict[str, np.ndarray] = {"meta": np.array(json.dumps(meta, sort_keys=True))}
    for prefix, tower in (("pi", extractor.policy_net), ("vf", extractor.value_net)):
        for i, layer in enumerate(_linears(tower)):
            out[f"{prefix}_w{i}"] = layer.weight.detach().cpu().numpy().T.astype(np.float32)
            out[f"{prefix}_b{i}"] = layer.bias.detach().cpu().numpy().astype(np.float32)
    heads = [("value", policy.value_net)]
    if isinstance(head, FactoredHead):
        out |= head.arrays()
    else:
        heads.append(("action", head))
    for key, layer in heads:
        out[f"{key}_w"] = layer.weight.detach().cpu().numpy().T.astype(np.float32)
        out[f"{key}_b"] = layer.bias.detach().cpu().numpy().astype(np.float32)
    return out


def export_policy(
    policy, path: str | Path, name: str, params: dict[str, Any], extra_meta: dict[str, Any] | None = None
) -> Path:
    """Write the policy file; returns its path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **policy_arrays(policy, name, params, extra_meta))
    return path


def add_value_members(path: str | Path, member_paths: list[str | Path]) -> Path:
    """Add the value networks of ``member_paths`` (every value tower each holds) to the policy file
    ``path`` (a value ensemble).

    The members must be policy files of the same game, rules, observation
    shape and activation; their policy heads are not used.
    """

    path = Path(path)
    meta, arrays = read_policy_file(path)
    rest, towers = split_value_towers(arrays)
    for member_path in member_paths:
        member_meta, member = read_policy_file(member_path)
        for key in ("game", "params", "observation_shape", "activation"):
            if member_meta.get(key) != meta.get(key):
                raise ValueError(
                    f"value member {member_path} has {key} {member_meta.get(key)!r}, but {path} has {meta.get(key)!r}"
                )
        towers += split_value_towers(member)[1]
    return write_policy_file(path, meta, join_value_towers(rest, towers))


def torch_probabilities(policy, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Masked action probabilities and values of the torch policy (for checking the export)."""
    with torch.no_grad():
        obs = torch.as_tensor(observations, dtype=torch.float32)
        dist = policy.get_distribution(obs, action_masks=masks)
        probs = dist.distribution.probs.cpu().numpy()
        values = policy.predict_values(obs).cpu().numpy()[:, 0]
    return probs, values


def to_numpy_policy(policy, name: str, params: dict[str, Any]):
    """The numpy opponent of an SB3 policy, without writing a file (for evaluations during training)."""

    arrays = policy_arrays(policy, name, params)
    meta = json.loads(str(arrays.pop("meta")))
    return NumpyPolicy((meta, arrays))
