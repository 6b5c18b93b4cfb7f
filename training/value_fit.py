"""Value towers fitted to the outcomes of many games recorded on the batched engine.

A searching hard opponent scores its leaves with its policy file's value.
The value a PPO or imitation run leaves behind is fitted to a few thousand
games; the batched engine records tens of thousands in a minute, so a
config's ``value_fit`` section fits fresh value towers (the policies' tanh
shape, ``net_arch`` wide) to those games' outcomes and makes them the policy
file's value (their mean, a value ensemble: :mod:`policies.numpy_policy`).

Each tower sees its own recorded games (seed ``seed + k``); a held-out set
of another seed measures every epoch's squared error, kept in the summary.
"""

from __future__ import annotations

import tempfile
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import numpy as np
import torch

from envs.core.checks import as_int, as_number
from policies.numpy_policy import join_value_towers, read_policy_file, split_value_towers, write_policy_file
from training.imitation import Demonstrations, Recording, collect_batched
from training.progress import Progress

DEFAULTS: dict[str, Any] = {
    "teacher": "medium",
    "opponents": {"medium": 1.0},
    "games": 25000,
    "heldout_games": 2000,
    "towers": 1,
    "epochs": 4,
    "batch_size": 1024,
    "learning_rate": 1e-3,
    "boards": 512,
}


def value_fit_settings(section: Any) -> dict[str, Any]:
    """``section`` over :data:`DEFAULTS`, checked: unknown keys and nonsense numbers are refused by name."""
    if not isinstance(section, dict):
        raise ValueError(f"value_fit must be an object of settings, got {section!r}")
    unknown = set(section) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"value_fit: unknown key(s) {sorted(unknown)}; known: {sorted(DEFAULTS)}")
    settings = {**DEFAULTS, **section}
    for key in ("games", "towers", "epochs", "batch_size", "boards", "heldout_games"):
        value = settings[key]
        least = 0 if key == "heldout_games" else 1
        if (plain := as_int(value)) is None or plain < least:
            raise ValueError(f"value_fit {key} must be an int >= {least}, got {value!r}")
    if (rate := as_number(settings["learning_rate"])) is None or not rate > 0:
        raise ValueError(f"value_fit learning_rate must be a number > 0, got {settings['learning_rate']!r}")
    return settings


def value_tower(inputs: int, hidden: list[int], activation: type[torch.nn.Module]) -> torch.nn.Sequential:
    """A policy file's value tower: ``hidden`` layers of ``activation``, then one linear output."""
    layers: list[torch.nn.Module] = []
    for width in hidden:
        layers += [torch.nn.Linear(inputs, width), activation()]
        inputs = width
    return torch.nn.Sequential(*layers, torch.nn.Linear(inputs, 1))


def _named_layers(net: torch.nn.Sequential) -> list[tuple[torch.nn.Linear, str, str]]:
    """Each linear layer of a tower with the policy-file names of its weight and bias: ``vf_w{i}``/``vf_b{i}``
    per hidden layer, ``value_w``/``value_b`` for the output."""
    linear = [m for m in net if isinstance(m, torch.nn.Linear)]
    return [
        (layer, *((f"vf_w{i}", f"vf_b{i}") if i < len(linear) - 1 else ("value_w", "value_b")))
        for i, layer in enumerate(linear)
    ]


def tower_arrays(net: torch.nn.Sequential) -> dict[str, np.ndarray]:
    """The tower as policy-file arrays (names: :func:`_named_layers`)."""
    arrays = {}
    for layer, w, b in _named_layers(net):
        arrays[w] = layer.weight.detach().numpy().T.astype(np.float32)
        arrays[b] = layer.bias.detach().numpy().astype(np.float32)
    return arrays


def set_tower_arrays(net: torch.nn.Sequential, arrays: dict[str, np.ndarray]) -> torch.nn.Sequential:
    """Load a policy file's tower (:func:`tower_arrays`' names) into ``net`` of the same shape, to fit it further."""
    with torch.no_grad():
        for layer, w, b in _named_layers(net):
            if arrays[w].shape != tuple(layer.weight.shape[::-1]):
                raise ValueError(
                    f"tower array {w} has shape {arrays[w].shape}, the net wants {tuple(layer.weight.shape[::-1])}"
                )
            layer.weight.copy_(torch.as_tensor(np.array(arrays[w].T)))
            layer.bias.copy_(torch.as_tensor(np.array(arrays[b])))
    return net


def fit_tower(
    net: torch.nn.Sequential,
    train: tuple[np.ndarray, np.ndarray],
    heldout: tuple[np.ndarray, np.ndarray] | None,
    epochs: int,
    batch_size: int,
    learning_rate: float,
    seed: int,
    label: str = "value",
) -> list[dict[str, float]]:
    """Adam on the squared error to the outcomes; each epoch's training and held-out error."""
    torch.manual_seed(seed)
    generator = np.random.default_rng(seed)
    optimizer = torch.optim.Adam(net.parameters(), lr=learning_rate)
    x, y = train  # x: an array or disk rows (training.imitation.DiskRows), read a minibatch at a time
    history = []
    per_epoch = -(-len(y) // batch_size)
    bar = Progress(label, f"{len(y)} positions", epochs * per_epoch, "minibatches")
    for epoch in range(epochs):
        order = generator.permutation(len(y))
        total, clock = 0.0, time.time()
        for lo in range(0, len(order), batch_size):
            idx = np.sort(order[lo : lo + batch_size])
            loss = torch.mean((net(torch.as_tensor(x[idx])).flatten() - torch.as_tensor(y[idx])) ** 2)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(idx)
            bar.update(epoch * per_epoch + lo // batch_size + 1, f"epoch {epoch + 1}/{epochs}")
        entry = {"epoch": epoch + 1, "train_mse": total / len(y)}
        if heldout is not None and len(heldout[1]):
            with torch.no_grad():
                values = net(torch.as_tensor(heldout[0])).flatten()
                entry["heldout_mse"] = float(torch.mean((values - torch.as_tensor(heldout[1])) ** 2))
        history.append(entry)
        held = f", held-out mse {entry['heldout_mse']:.4f}" if "heldout_mse" in entry else ""
        print(
            f"[{label}] epoch {epoch + 1}/{epochs}: train mse {entry['train_mse']:.4f}{held}, "
            f"{time.time() - clock:.0f} s",
            flush=True,
        )
    return history


def _record(
    name: str, params: dict[str, Any], settings: dict[str, Any], games: int, seed: int, progress: bool,
    folder: str | Path | None = None,
) -> Demonstrations:  # fmt: skip
    recording = Recording(settings["teacher"], settings["opponents"], games, seed=seed)
    return collect_batched(name, params, recording, boards=settings["boards"], progress=progress, folder=folder)


def record_heldout(
    name: str, params: dict[str, Any], settings: dict[str, Any], seed: int = 0, progress: bool = True
) -> Demonstrations | None:
    """The held-out games of :func:`fit_value_towers` (``heldout_games`` at seed ``seed + 1000``; None for 0)."""
    return (
        _record(name, params, settings, settings["heldout_games"], seed + 1000, progress)
        if settings["heldout_games"]
        else None
    )


def fit_value_towers(
    name: str,
    params: dict[str, Any],
    settings: dict[str, Any],
    hidden: list[int],
    activation: type[torch.nn.Module],
    seed: int = 0,
    progress: bool = True,
    folder: str | Path | None = None,
) -> tuple[list[dict[str, np.ndarray]], list[list[dict[str, float]]]]:
    """``settings["towers"]`` value towers, each fitted to its own recorded games; (their arrays, histories).

    Each epoch's error is also measured on ``heldout_games`` recorded here (seed ``seed + 1000``;
    :func:`record_heldout`, kept in memory). ``folder``: where each tower's games wait on disk while it is fitted
    (in a folder of their own, deleted after; None: in memory).
    """
    heldout = record_heldout(name, params, settings, seed, progress)
    towers, histories = [], []
    for k in range(settings["towers"]):
        with tempfile.TemporaryDirectory(prefix=f"value-tower{k}-", dir=folder) if folder else nullcontext() as kept:
            train = _record(name, params, settings, settings["games"], seed + k, progress, folder=kept)
            torch.manual_seed(seed + k)  # the tower's initial weights
            net = value_tower(train.observations.shape[1], hidden, activation)
            histories.append(
                fit_tower(
                    net,
                    (train.observations, train.outcomes),
                    None if heldout is None else (heldout.observations, heldout.outcomes),
                    settings["epochs"],
                    settings["batch_size"],
                    settings["learning_rate"],
                    seed + k,
                    label=f"{name} value tower {k + 1}/{settings['towers']}",
                )
            )
            del train
        towers.append(tower_arrays(net))
    return towers, histories


def replace_value(path: str | Path, towers: list[dict[str, np.ndarray]]) -> Path:
    """Make ``towers`` the policy file's value (their mean), dropping the value it had; the policy is kept."""

    if not towers:
        raise ValueError("replace_value: no value towers given")
    meta, arrays = read_policy_file(path)
    if "layers" in meta:  # the hidden layers the file declares for its (first) value tower
        meta = {**meta, "layers": {**meta["layers"], "vf": sum(1 for name in towers[0] if name.startswith("vf_w"))}}
    return write_policy_file(path, meta, join_value_towers(split_value_towers(arrays)[0], towers))
