"""The network spec: the shape of a policy file's network, declared once.

A policy file's network (:mod:`policies.numpy_policy` gives the file format)
is a policy tower and a value tower of one activation over the observation
(and, with a board convolution, its features after it), an action head that
is plain (every action's logit from the last hidden layer) or factored over
the game's action layout, a value head of one output or one a seat, and
optionally more value towers trained apart (an ensemble, whose mean is the
value). :class:`NetworkSpec` is that shape. From it come:

* the arrays a file holds and their shapes (:meth:`NetworkSpec.shapes`) and
  the meta keys that declare it (:meth:`NetworkSpec.meta`); a file's spec is
  read back with :meth:`NetworkSpec.of_file`;
* the numpy forward (:class:`policies.numpy_policy.NumpyPolicy`), the compiled
  forward the alpha-beta reads (:mod:`policies.compiled_network`) and the torch
  module training builds (``training.network.Network.of_spec``), each checked
  against the others by the tests;
* :data:`ACTIVATIONS`, the one table of activations (training names the same
  ones' torch modules).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

#: The activation functions a network may name, by the name a policy file gives (training maps the same names to
#: torch modules: training.network.TORCH_ACTIVATIONS).
ACTIVATIONS = {"tanh": np.tanh, "relu": lambda x: np.maximum(x, 0.0)}


@dataclass(frozen=True)
class Factored:
    """A factored action head: ``rank``, the layout's ``cells`` and ``moves``, and ``others`` actions of their own.
    ``moves_from_position``: each move's vector also from the position (a linear map of the tower's last layer
    added to the learned one) and a bias for every action, as the plain head has: for PPO, where it learns about as
    much per step as a plain head (``results/2026-12-factored-head.md``)."""

    rank: int
    cells: int
    moves: int
    others: int
    moves_from_position: bool = False

    def shapes(self, width: int, actions: int) -> dict[str, tuple[int, ...]]:
        """The shape of each of the head's arrays on ``width`` inputs (a game of ``actions`` actions), by its name
        in a policy file."""
        per_cell = self.cells * (self.rank + 1)
        shapes = {
            "head_u_w": (width, per_cell), "head_u_b": (per_cell,),
            "head_v": (self.moves, self.rank), "head_move_b": (self.moves,),
            "head_other_w": (width, self.others), "head_other_b": (self.others,),
        }  # fmt: skip
        if self.moves_from_position:
            moving = self.moves * self.rank
            shapes |= {"head_vh_w": (width, moving), "head_vh_b": (moving,), "head_action_b": (actions,)}
        return shapes

    def meta(self) -> dict[str, Any]:
        """The policy file's ``meta["head"]`` of this head."""
        head = {"kind": "factored", "rank": self.rank, "cells": self.cells, "moves": self.moves}
        return head | ({"moves_from_position": True} if self.moves_from_position else {})

    def with_move_terms(self, arrays: dict[str, np.ndarray]) -> tuple[Factored, dict[str, np.ndarray]]:
        """This head plus a term per move linear in the position, ``t[move] = h @ head_vt_w[:, move] +
        head_vt_b[move]`` added to every pair of that move (PPO's head, ``training.network.FactoredHead``), as a
        policy file holds it: a head of one rank more whose new cell component is 1 (weights 0, bias 1) and whose
        new move component is the term (``head_v`` 0, ``head_vh_w`` / ``head_vh_b`` the term's). Returns that
        head's spec and its arrays (``arrays`` without ``head_vt_*``). Needs ``moves_from_position``."""
        if not self.moves_from_position:
            raise ValueError("a factored head's move terms need its moves from the position")
        out = dict(arrays)
        term_w, term_b = out.pop("head_vt_w"), out.pop("head_vt_b")
        width, rank, cells, moves = term_w.shape[0], self.rank, self.cells, self.moves
        u_w = np.insert(out["head_u_w"].reshape(width, cells, rank + 1), rank, 0.0, axis=2)
        out["head_u_w"] = u_w.reshape(width, cells * (rank + 2))
        out["head_u_b"] = np.insert(out["head_u_b"].reshape(cells, rank + 1), rank, 1.0, axis=1).ravel()
        out["head_v"] = np.insert(out["head_v"], rank, 0.0, axis=1)
        vh_w = np.concatenate([out["head_vh_w"].reshape(width, moves, rank), term_w[:, :, None]], axis=2)
        out["head_vh_w"] = vh_w.reshape(width, moves * (rank + 1))
        out["head_vh_b"] = np.concatenate([out["head_vh_b"].reshape(moves, rank), term_b[:, None]], axis=1).ravel()
        return replace(self, rank=rank + 1), out


@dataclass(frozen=True)
class Conv:
    """A board convolution: ``layers`` of ``channels`` over a graph of ``cells``, ``planes`` and ``directions``."""

    layers: int
    channels: int
    cells: int
    planes: int
    directions: int

    @property
    def out_size(self) -> int:
        return self.cells * self.channels


@dataclass(frozen=True)
class NetworkSpec:
    """The shape of one network (see the module docstring).

    ``observations`` values in, ``actions`` logits out; the policy and value towers' hidden widths; the
    activation; a ``factored`` head (None: plain); a ``conv`` (None: none); ``value_members`` towers (the first
    one's widths are ``value_widths``, the others' ``member_widths``) of ``value_outputs`` each.
    """

    observations: int
    actions: int
    policy_widths: tuple[int, ...]
    value_widths: tuple[int, ...]
    activation: str = "tanh"
    factored: Factored | None = None
    conv: Conv | None = None
    value_outputs: int = 1
    member_widths: tuple[tuple[int, ...], ...] = ()

    def __post_init__(self) -> None:
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"network: activation must be one of {', '.join(ACTIVATIONS)}, got {self.activation!r}")
        object.__setattr__(self, "policy_widths", tuple(self.policy_widths))
        object.__setattr__(self, "value_widths", tuple(self.value_widths))
        object.__setattr__(self, "member_widths", tuple(tuple(w) for w in self.member_widths))

    @property
    def inputs(self) -> int:
        """What the towers take: the observation, then the board convolution's features."""
        return self.observations + (self.conv.out_size if self.conv else 0)

    @property
    def value_members(self) -> int:
        return 1 + len(self.member_widths)

    def shapes(self) -> dict[str, tuple[int, ...]]:
        """Every floating-point array of the network by its name in a policy file, with its shape (weights
        stored (in, out))."""
        shapes = _tower("pi", self.inputs, self.policy_widths)
        last = self.policy_widths[-1] if self.policy_widths else self.inputs
        if self.factored is None:
            shapes |= {"action_w": (last, self.actions), "action_b": (self.actions,)}
        else:
            shapes |= self.factored.shapes(last, self.actions)
        for k, widths in enumerate((self.value_widths, *self.member_widths)):
            prefix = "" if k == 0 else f"m{k}_"
            shapes |= _tower(f"{prefix}vf", self.inputs, widths)
            top = widths[-1] if widths else self.inputs
            shapes |= {f"{prefix}value_w": (top, self.value_outputs), f"{prefix}value_b": (self.value_outputs,)}
        if self.conv is not None:
            c = self.conv
            for i in range(c.layers):
                width = c.planes if i == 0 else c.channels
                shapes |= {f"conv_w{i}": ((c.directions + 1) * width, c.channels), f"conv_b{i}": (c.channels,)}
        return shapes

    def meta(self) -> dict[str, Any]:
        """The policy file's meta keys that declare this network."""
        meta: dict[str, Any] = {
            "observation_shape": [self.observations],
            "num_actions": self.actions,
            "activation": self.activation,
            "layers": {"pi": len(self.policy_widths), "vf": len(self.value_widths)},
            "value_outputs": self.value_outputs,
        }
        if self.factored is not None:
            meta["head"] = self.factored.meta()
        if self.conv is not None:
            c = self.conv
            meta["conv"] = {
                "layers": c.layers, "channels": c.channels, "cells": c.cells, "planes": c.planes,
                "directions": c.directions,
            }  # fmt: skip
        return meta

    @classmethod
    def of_file(cls, meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> NetworkSpec:
        """The spec of a policy file's network (its meta, its arrays' widths); the file is checked elsewhere."""
        head, conv = meta.get("head") or {"kind": "plain"}, meta.get("conv")
        factored = None
        if head["kind"] == "factored":
            others = int(np.asarray(arrays["head_other_b"]).shape[0])
            factored = Factored(
                head["rank"], head["cells"], head["moves"], others, bool(head.get("moves_from_position", False))
            )
        members = []
        while f"m{len(members) + 1}_value_w" in arrays:
            members.append(_widths(arrays, f"m{len(members) + 1}_vf"))
        return cls(
            observations=int(np.prod(meta["observation_shape"])),
            actions=int(meta["num_actions"]),
            policy_widths=_widths(arrays, "pi"),
            value_widths=_widths(arrays, "vf"),
            activation=meta.get("activation", "tanh"),
            factored=factored,
            conv=Conv(**conv) if conv else None,
            value_outputs=int(meta.get("value_outputs", 1)),
            member_widths=tuple(members),
        )


def _tower(prefix: str, inputs: int, widths: tuple[int, ...]) -> dict[str, tuple[int, ...]]:
    shapes, width = {}, inputs
    for i, out in enumerate(widths):
        shapes |= {f"{prefix}_w{i}": (width, out), f"{prefix}_b{i}": (out,)}
        width = out
    return shapes


def _widths(arrays: dict[str, np.ndarray], prefix: str) -> tuple[int, ...]:
    widths = []
    while f"{prefix}_w{len(widths)}" in arrays:
        widths.append(int(np.asarray(arrays[f"{prefix}_w{len(widths)}"]).shape[1]))
    return tuple(widths)


__all__ = ["ACTIVATIONS", "Conv", "Factored", "NetworkSpec"]
