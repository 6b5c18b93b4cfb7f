"""A trained actor-critic network run with numpy only (no torch, no pickle).

Policy files are ``.npz`` archives written by ``training.export``:

* ``meta``: a JSON string: format version, game, rule params, observation
  shape, number of actions, activation, and optional play-time search settings;
* ``pi_w{i}``, ``pi_b{i}`` / ``vf_w{i}``, ``vf_b{i}``: hidden layers of the
  policy and value towers (weights stored as (in, out));
* ``action_w``, ``action_b``, ``value_w``, ``value_b``: the two heads;
* optionally more value networks trained apart (a value ensemble), member
  ``k`` = 1, 2, ... as ``m{k}_vf_w{i}``, ``m{k}_vf_b{i}``, ``m{k}_value_w``,
  ``m{k}_value_b``: the value is then the mean of every member's.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

FORMAT_VERSION = 1
ACTIVATIONS = {"tanh": np.tanh, "relu": lambda x: np.maximum(x, 0.0)}


class PolicyFileError(ValueError):
    """A policy file that is missing, corrupt, or made for another game or shape."""


def _tower(arrays: dict[str, np.ndarray], prefix: str) -> list[tuple[np.ndarray, np.ndarray]]:
    layers = []
    while f"{prefix}_w{len(layers)}" in arrays:
        i = len(layers)
        layers.append((arrays[f"{prefix}_w{i}"], arrays[f"{prefix}_b{i}"]))
    return layers


def read_policy_file(path: str | Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """(meta, arrays) of a policy file, with clear errors for every way it can be wrong."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"policy file {path} does not exist")
    try:
        with np.load(path, allow_pickle=False) as archive:
            arrays = {k: archive[k] for k in archive.files}
    except (zipfile.BadZipFile, ValueError, OSError, EOFError) as err:
        raise PolicyFileError(f"policy file {path} is not a readable .npz archive ({err})") from None
    if "meta" not in arrays:
        raise PolicyFileError(f"policy file {path} has no 'meta' entry: not a swgym policy")
    try:
        meta = json.loads(str(arrays.pop("meta")))
    except json.JSONDecodeError as err:
        raise PolicyFileError(f"policy file {path}: its meta is not valid JSON ({err})") from None
    if meta.get("format") != FORMAT_VERSION:
        raise PolicyFileError(f"policy file {path}: format {meta.get('format')!r}, expected {FORMAT_VERSION}")
    for key in ("action_w", "action_b", "value_w", "value_b"):
        if key not in arrays:
            raise PolicyFileError(f"policy file {path} lacks the array {key!r}")
    return meta, arrays


class NumpyPolicy:
    """The opponent behind a policy file: most probable legal action, or sampled with a temperature.

    Args:
        path: the ``.npz`` policy file (or the ``(meta, arrays)`` pair read from one).
        game: if given, the file must be for this game (and ``params``).
        temperature: 0 picks the most probable legal action; > 0 samples from
            the masked softmax of ``logits / temperature``.
        seed: seed of the sampling generator.
    """

    def __init__(self, path: str | Path | tuple[dict, dict], game: str | None = None, temperature: float = 0.0,
                 seed: int | None = None, params: dict[str, Any] | None = None) -> None:
        if isinstance(path, tuple):
            self.path = Path("<in memory>")
            self.meta, arrays = path
        else:
            self.path = Path(path)
            self.meta, arrays = read_policy_file(self.path)
        if game is not None and self.meta.get("game") != game:
            raise PolicyFileError(f"policy file {self.path} is for {self.meta.get('game')!r}, not {game!r}")
        if params is not None and game is not None:
            expected = {**self.meta.get("params", {})}
            if any(expected.get(k, v) != v for k, v in params.items()):
                raise PolicyFileError(f"policy file {self.path} was trained with rule parameters "
                                      f"{expected}, not {params}")
        if temperature < 0:
            raise ValueError(f"temperature must be >= 0, got {temperature}")
        activation = self.meta.get("activation", "tanh")
        if activation not in ACTIVATIONS:
            raise PolicyFileError(f"policy file {self.path}: unknown activation {activation!r}")
        self.activation = ACTIVATIONS[activation]
        self.pi_layers = _tower(arrays, "pi")
        self.action_head = (arrays["action_w"], arrays["action_b"])
        self.value_members = [(_tower(arrays, "vf"), (arrays["value_w"], arrays["value_b"]))]
        while f"m{len(self.value_members)}_value_w" in arrays:
            k = len(self.value_members)
            self.value_members.append((_tower(arrays, f"m{k}_vf"), (arrays[f"m{k}_value_w"], arrays[f"m{k}_value_b"])))
        self.obs_size = int(np.prod(self.meta["observation_shape"]))
        self.num_actions = int(self.meta["num_actions"])
        self._check_shapes()
        self.temperature = temperature
        self.rng = np.random.default_rng(seed)

    def _check_shapes(self) -> None:
        towers = [("policy", self.pi_layers, self.action_head)]
        towers += [("value" if k == 0 else f"value member {k}", layers, head)
                   for k, (layers, head) in enumerate(self.value_members)]
        for name, layers, head in towers:
            width = self.obs_size
            for i, (w, b) in enumerate(layers + [head]):
                if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
                    raise PolicyFileError(
                        f"policy file {self.path}: {name} layer {i} has weights {w.shape} and bias {b.shape}, "
                        f"expected ({width}, n) and (n,)")
                width = w.shape[1]
        for k, (_, (head_w, _)) in enumerate(self.value_members):
            if head_w.shape[1] != 1:
                raise PolicyFileError(f"policy file {self.path}: value member {k} gives {head_w.shape[1]} outputs, "
                                      "expected 1")
        if self.action_head[0].shape[1] != self.num_actions:
            raise PolicyFileError(f"policy file {self.path}: {self.action_head[0].shape[1]} action logits "
                                  f"for a game with {self.num_actions} actions")

    # -- the network ---------------------------------------------------------
    def forward(self, observations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(logits, values) for a batch of observations (any leading shape is flattened per row)."""
        x = np.asarray(observations, dtype=np.float32).reshape(-1, self.obs_size)
        return self.logits(x), self._values(x)

    def logits(self, observations: np.ndarray) -> np.ndarray:
        """The policy head alone for a batch of observations (play-outs need no value)."""
        h = np.asarray(observations, dtype=np.float32).reshape(-1, self.obs_size)
        for w, b in self.pi_layers:
            h = self.activation(h @ w + b)
        return h @ self.action_head[0] + self.action_head[1]

    def values(self, observations: np.ndarray) -> np.ndarray:
        """The value head alone for a batch of observations (a search's leaves need no policy)."""
        return self._values(np.asarray(observations, dtype=np.float32).reshape(-1, self.obs_size))

    def _values(self, x: np.ndarray) -> np.ndarray:
        total = np.zeros(x.shape[0], dtype=np.float32)
        for layers, (head_w, head_b) in self.value_members:
            v = x
            for w, b in layers:
                v = self.activation(v @ w + b)
            total += (v @ head_w + head_b)[:, 0]
        return total / len(self.value_members)

    def probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """Masked softmax over the legal actions (temperature 1)."""
        logits, _ = self.forward(observation)
        return masked_softmax(logits[0], np.asarray(action_mask).astype(bool))

    # -- the opponent protocol -------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int:
        mask = np.asarray(action_mask).astype(bool)
        if not mask.any():
            raise ValueError("the action mask has no legal action")
        logits, _ = self.forward(observation)
        if self.temperature == 0:
            return int(np.flatnonzero(mask)[np.argmax(logits[0][mask])])
        probs = masked_softmax(logits[0] / self.temperature, mask)
        return int(self.rng.choice(self.num_actions, p=probs))

    def explain(self, observation: np.ndarray, action_mask: np.ndarray, top: int = 5) -> dict[str, Any]:
        """What the network weighs: the ``top`` legal moves with probabilities, and its value."""
        logits, values = self.forward(observation)
        probs = masked_softmax(logits[0], np.asarray(action_mask).astype(bool))
        order = np.argsort(-probs)[:top]
        return {"moves": [(int(a), float(probs[a])) for a in order if probs[a] > 0],
                "value": float(values[0])}


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Softmax over ``mask`` along the last axis (each row of a batch apart); zero elsewhere."""
    z = np.where(mask, logits, -np.inf)
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def masked_log_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Log of :func:`masked_softmax`, computed without underflow (-inf off ``mask``)."""
    z = np.where(mask, logits, -np.inf)
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
