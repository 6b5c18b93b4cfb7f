"""The torch modules training builds from a network spec (:class:`policies.network.NetworkSpec`), and policy files.

:class:`Network` is the spec's torch module (towers, a plain or factored head,
a board convolution, value ensembles); :func:`write_network` writes it as a
policy file, which :class:`policies.numpy_policy.NumpyPolicy` plays with
numpy; :func:`network_from_file` reads one back to train further.
:data:`TORCH_ACTIVATIONS` names the torch module of each activation in
:data:`policies.network.ACTIVATIONS`, the one table.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from envs.core.action_layout import ActionLayout
from envs.core.board_graph import BoardGraph
from policies.network import ACTIVATIONS, Conv, Factored, NetworkSpec
from policies.numpy_policy import FORMAT_VERSION, NumpyPolicy, PlainHead, write_policy_file

_TORCH_MODULES = {"tanh": nn.Tanh, "relu": nn.ReLU}
#: The torch module of each activation a network may name: the names of policies' numpy table, so a torch
#: network and its numpy policy apply the same function (every training path builds from this).
TORCH_ACTIVATIONS = {name: _TORCH_MODULES[name] for name in ACTIVATIONS}
ACTIVATION_NAMES = {module: name for name, module in TORCH_ACTIVATIONS.items()}


class BoardConv(nn.Module):
    """A convolution over the game's board ``graph`` as :class:`policies.numpy_policy.BoardConv` plays it: each of
    ``layers`` gives every cell a ReLU of one linear map of its own and its neighbours' features (zeros off the
    board), residual after the first; the output is every cell's ``channels`` features, cell after cell."""

    def __init__(self, graph: BoardGraph, layers: int, channels: int) -> None:
        super().__init__()
        self.graph, self.channels = graph, channels
        width = graph.planes.shape[0]
        self.register_buffer("planes", torch.as_tensor(graph.planes.T.copy()), persistent=False)
        self.register_buffer("around", torch.as_tensor(graph.around), persistent=False)
        self.layers = nn.ModuleList(
            nn.Linear((graph.directions + 1) * (width if i == 0 else channels), channels) for i in range(layers)
        )
        self.out_size = graph.cells * channels

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = x[:, self.planes]  # (rows, cells, planes)
        for i, linear in enumerate(self.layers):
            padded = torch.cat([h, h.new_zeros(len(h), 1, h.shape[2])], dim=1)
            y = torch.relu(linear(padded[:, self.around].flatten(2)))
            h = h + y if i else y
        return h.flatten(1)

    def meta(self) -> dict[str, int]:
        """The policy file's ``conv`` meta."""
        graph = self.graph
        return {
            "layers": len(self.layers), "channels": self.channels, "cells": graph.cells,
            "planes": graph.planes.shape[0], "directions": graph.directions,
        }  # fmt: skip

    def arrays(self) -> dict[str, np.ndarray]:
        """The policy file's arrays of this convolution (see :mod:`policies.numpy_policy`)."""
        out = {
            "conv_planes": self.graph.planes.ravel().astype(np.int32),
            "conv_neighbours": self.graph.neighbours.ravel().astype(np.int32),
        }
        for i, layer in enumerate(self.layers):
            out[f"conv_w{i}"] = layer.weight.detach().numpy().T.astype(np.float32)
            out[f"conv_b{i}"] = layer.bias.detach().numpy().astype(np.float32)
        return out


class FactoredHead(nn.Module):
    """Every action's logit from a (cell, move) factorisation of the game's ``layout``, as
    :class:`policies.numpy_policy.FactoredHead` plays it: ``<U[cell], V[move]> + s[cell] + b[move]`` for a pair,
    ``U`` and ``s`` from the last hidden layer (``rank + 1`` values a cell), ``V`` and ``b`` learned; a direct
    logit for each action of its own. ``moves_from_position``: ``V`` plus a linear map of the last hidden layer,
    and a bias for every action (:class:`policies.network.Factored`). ``move_terms`` (with it): a term per move
    linear in the last hidden layer, added to every pair of that move (the plain head's kind of term: with it PPO's
    factored head learns at least as much per env step as the plain head, ``results/2026-12-factored-head.md``);
    its policy file holds a head of rank ``rank + 1`` (:meth:`policies.network.Factored.with_move_terms`)."""

    def __init__(
        self, width: int, layout: ActionLayout, rank: int, moves_from_position: bool = False, move_terms: bool = False
    ) -> None:
        super().__init__()
        if move_terms and not moves_from_position:
            raise ValueError("a factored head's move terms need its moves from the position")
        self.layout, self.rank, self.out_features = layout, rank, layout.num_actions
        self.moves_from_position, self.move_terms = bool(moves_from_position), bool(move_terms)
        self.cell_net = nn.Linear(width, layout.cells * (rank + 1))
        self.move_vectors = nn.Parameter(torch.randn(layout.moves, rank) / rank**0.5)
        self.move_bias = nn.Parameter(torch.zeros(layout.moves))
        self.other_head = nn.Linear(width, layout.others.size)
        if self.moves_from_position:
            self.move_net = nn.Linear(width, layout.moves * rank)
            self.action_bias = nn.Parameter(torch.zeros(layout.num_actions))
        self.register_buffer("source", torch.as_tensor(layout.source), persistent=False)
        other = np.full(layout.num_actions, -1, dtype=np.int64)
        other[layout.others] = np.arange(layout.others.size)
        for name, values in (("cell_of", layout.cell), ("move_of", layout.move), ("other_of", other)):
            self.register_buffer(name, torch.as_tensor(values, dtype=torch.int64), persistent=False)
        if self.move_terms:  # last: the parameters before it start as a head without the terms does
            self.move_term = nn.Linear(width, layout.moves)

    def forward(self, h: torch.Tensor) -> torch.Tensor:
        u = self.cell_net(h).view(len(h), self.layout.cells, self.rank + 1)
        v = self.move_vectors
        if self.moves_from_position:
            v = v + self.move_net(h).view(len(h), self.layout.moves, self.rank)
        pairs = u[..., : self.rank] @ v.transpose(-1, -2) + u[..., self.rank :] + self.move_bias
        if self.move_terms:
            pairs = pairs + self.move_term(h)[:, None, :]
        logits = torch.cat([pairs.flatten(1), self.other_head(h)], dim=1)[:, self.source]
        return logits + self.action_bias if self.moves_from_position else logits

    def logits_of(self, h: torch.Tensor, rows: torch.Tensor, actions: torch.Tensor) -> torch.Tensor:
        """(P,): the logit of action ``actions[p]`` in row ``rows[p]`` of ``h``, the others not computed: a legal
        move's costs ``rank`` multiply-adds, not a row of every action (:class:`training.factored_policy`)."""
        cells, width = self.layout.cells, self.rank + 1  # flat index_select: its backward is one index_add
        at = rows * cells + self.cell_of[actions].clamp(min=0)
        u = torch.index_select(self.cell_net(h).view(len(h) * cells, width), 0, at)
        move = self.move_of[actions].clamp(min=0)
        v = torch.index_select(self.move_vectors, 0, move)
        if self.moves_from_position:
            moves = self.layout.moves
            v = v + torch.index_select(self.move_net(h).view(len(h) * moves, self.rank), 0, rows * moves + move)
        pairs = (u[:, : self.rank] * v).sum(dim=1) + u[:, self.rank] + torch.index_select(self.move_bias, 0, move)
        if self.layout.others.size:
            others = self.other_head(h).flatten()
            others = torch.index_select(others, 0, rows * self.layout.others.size + self.other_of[actions].clamp(min=0))
            pairs = torch.where(self.cell_of[actions] >= 0, pairs, others)
        if not self.moves_from_position:
            return pairs
        pairs = pairs + torch.index_select(self.action_bias, 0, actions)
        if self.move_terms:
            terms = torch.index_select(self.move_term(h).flatten(), 0, rows * self.layout.moves + move)
            pairs = pairs + torch.where(self.cell_of[actions] >= 0, terms, torch.zeros_like(terms))
        return pairs

    @property
    def spec(self) -> Factored:
        """The shape of this head as its policy file holds it (with move terms: one rank more)."""
        layout = self.layout
        spec = Factored(self.rank, layout.cells, layout.moves, layout.others.size, self.moves_from_position)
        return replace(spec, rank=self.rank + 1) if self.move_terms else spec

    def arrays(self) -> dict[str, np.ndarray]:
        """The policy file's arrays of this head (see :mod:`policies.numpy_policy`)."""
        out = {"head_cell": self.layout.cell.astype(np.int32), "head_move": self.layout.move.astype(np.int32)}
        for key, tensor in (
            ("u_w", self.cell_net.weight.T),
            ("u_b", self.cell_net.bias),
            ("v", self.move_vectors),
            ("move_b", self.move_bias),
            ("other_w", self.other_head.weight.T),
            ("other_b", self.other_head.bias),
            *(
                (("vh_w", self.move_net.weight.T), ("vh_b", self.move_net.bias), ("action_b", self.action_bias))
                if self.moves_from_position
                else ()
            ),
            *((("vt_w", self.move_term.weight.T), ("vt_b", self.move_term.bias)) if self.move_terms else ()),
        ):
            out[f"head_{key}"] = np.ascontiguousarray(tensor.detach().numpy(), dtype=np.float32)
        if self.move_terms:  # folded into a head of one rank more
            out = replace(self.spec, rank=self.rank).with_move_terms(out)[1]
        return out


class Network(nn.Module):
    """The torch module of a :class:`policies.network.NetworkSpec`: a policy tower with a head of every action's
    logit (plain, or factored over the game's action ``layout`` at ``rank``), and a value tower with the mover's
    value, or with ``value_outputs`` above 1 every seat's in seat order from the mover's (linear, as
    :class:`policies.numpy_policy.NumpyPolicy` plays it); more value towers (``members``) make an ensemble whose
    mean is the value. With ``conv`` both towers take the board convolution's features after the observation.
    ``hidden``: both towers' widths (:meth:`of_spec` builds towers of other widths)."""

    def __init__(
        self, observations: int, actions: int, hidden: tuple[int, ...], activation: str,
        layout: ActionLayout | None = None, rank: int = 8, value_outputs: int = 1, conv: BoardConv | None = None,
    ) -> None:  # fmt: skip
        super().__init__()
        factored = None if layout is None else Factored(rank, layout.cells, layout.moves, layout.others.size)
        spec = NetworkSpec(
            observations, actions, tuple(hidden), tuple(hidden), activation, factored,
            None if conv is None else Conv(**conv.meta()), value_outputs,
        )  # fmt: skip
        self._build(spec, layout, conv)

    @classmethod
    def of_spec(
        cls, spec: NetworkSpec, layout: ActionLayout | None = None, graph: BoardGraph | None = None,
        move_terms: bool = False,
    ) -> Network:  # fmt: skip
        """The module of ``spec``; a factored head needs the game's action ``layout``, a convolution its ``graph``.
        ``move_terms``: a factored head with the moves from the position also gets PPO's term per move
        (:class:`FactoredHead`; its :attr:`spec` and file then hold a head of one rank more)."""
        net = cls.__new__(cls)
        nn.Module.__init__(net)
        conv = None
        if spec.conv is not None:
            if graph is None:
                raise ValueError("a network with a board convolution needs the game's board graph")
            conv = BoardConv(graph, spec.conv.layers, spec.conv.channels)
        if spec.factored is not None and layout is None:
            raise ValueError("a network with a factored head needs the game's action layout")
        net._build(spec, layout, conv, move_terms)
        return net

    def _build(
        self, spec: NetworkSpec, layout: ActionLayout | None, conv: BoardConv | None, move_terms: bool = False
    ) -> None:
        if layout is not None and layout.num_actions != spec.actions:
            raise ValueError(f"an action layout of {layout.num_actions} actions for a game with {spec.actions}")
        act = TORCH_ACTIVATIONS[spec.activation]
        self.observations, self.conv, self.activation = spec.observations, conv, spec.activation

        def tower(widths: tuple[int, ...]) -> nn.Sequential:
            layers: list[nn.Module] = []
            width = spec.inputs
            for h in widths:
                layers += [nn.Linear(width, h), act()]
                width = h
            return nn.Sequential(*layers)

        self.policy_net, self.value_net = tower(spec.policy_widths), tower(spec.value_widths)
        last = spec.policy_widths[-1] if spec.policy_widths else spec.inputs
        f = spec.factored
        self.action_head = (
            nn.Linear(last, spec.actions)
            if f is None
            else FactoredHead(last, layout, f.rank, f.moves_from_position, move_terms)
        )
        top = spec.value_widths[-1] if spec.value_widths else spec.inputs
        self.value_head = nn.Linear(top, spec.value_outputs)
        self.members = nn.ModuleList(
            nn.Sequential(tower(widths), nn.Linear(widths[-1] if widths else spec.inputs, spec.value_outputs))
            for widths in spec.member_widths
        )

    @property
    def spec(self) -> NetworkSpec:
        """The shape of this network."""

        def widths(tower: nn.Module) -> tuple[int, ...]:
            return tuple(m.out_features for m in tower if isinstance(m, nn.Linear))

        head = self.action_head
        factored = head.spec if isinstance(head, FactoredHead) else None
        return NetworkSpec(
            self.observations, head.out_features, widths(self.policy_net), widths(self.value_net), self.activation,
            factored, None if self.conv is None else Conv(**self.conv.meta()), self.value_head.out_features,
            tuple(widths(member[0]) for member in self.members),
        )  # fmt: skip

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Every action's logit (k, A) and the values (k, ``value_outputs``), column 0 the mover's."""
        if self.conv is not None:
            x = torch.cat([x, self.conv(x)], dim=1)
        values = self.value_head(self.value_net(x))
        if len(self.members):
            values = torch.stack([values, *(member(x) for member in self.members)]).mean(dim=0)
        return self.action_head(self.policy_net(x)), values


def write_network(net: Network, path: Path, name: str, params: dict[str, Any], search: dict[str, Any]) -> Path:
    """``net`` as a policy file (numpy arrays and JSON meta, no pickle) that names its ``search``."""
    linears = {t: [m for m in getattr(net, t) if isinstance(m, nn.Linear)] for t in ("policy_net", "value_net")}
    meta = {"format": FORMAT_VERSION, "game": name, "params": params, **net.spec.meta(), "search": search}
    arrays: dict[str, np.ndarray] = {}
    for prefix, tower in (("pi", "policy_net"), ("vf", "value_net")):
        for i, layer in enumerate(linears[tower]):
            arrays[f"{prefix}_w{i}"] = layer.weight.detach().numpy().T.astype(np.float32)
            arrays[f"{prefix}_b{i}"] = layer.bias.detach().numpy().astype(np.float32)
    if net.conv is not None:
        arrays |= net.conv.arrays()
    heads = [("value", net.value_head)]
    if isinstance(net.action_head, FactoredHead):
        arrays |= net.action_head.arrays()
    else:
        heads.append(("action", net.action_head))
    for k, member in enumerate(net.members, start=1):
        linears = [m for m in member.modules() if isinstance(m, nn.Linear)]
        for i, layer in enumerate(linears[:-1]):
            arrays[f"m{k}_vf_w{i}"] = layer.weight.detach().numpy().T.astype(np.float32)
            arrays[f"m{k}_vf_b{i}"] = layer.bias.detach().numpy().astype(np.float32)
        heads.append((f"m{k}_value", linears[-1]))
    for key, layer in heads:
        arrays[f"{key}_w"] = layer.weight.detach().numpy().T.astype(np.float32)
        arrays[f"{key}_b"] = layer.bias.detach().numpy().astype(np.float32)
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_policy_file(path, meta, arrays)


def network_from_file(path: Path, name: str, params: dict[str, Any], conv: BoardConv | None = None) -> Network:
    """A network with the shape and weights of the policy file at ``path`` (``name``'s, under ``params``): its
    board convolution, towers, plain or factored action head and first value tower, so that a run starts from it.

    ``conv``: a board convolution to add to a file without one. Its features enter the towers through zero
    weights, so the network plays exactly as the file's until it learns to use them."""
    policy = NumpyPolicy(path, name=name, params=params)  # refuses another game's file, or other rules'
    widths = tuple(w.shape[1] for w, _ in policy.pi_layers)
    value_layers, (value_w, value_b) = policy.value_members[0]
    if tuple(w.shape[1] for w, _ in value_layers) != widths:
        raise ValueError(f"{path}: its policy and value towers differ in shape; a run's network has one shape")
    if policy.conv is not None:
        if conv is not None and conv.meta() != policy.meta["conv"]:
            raise ValueError(
                f"{path}: its board convolution is {policy.meta['conv']}, the settings ask for {conv.meta()}; "
                "a run starts from the file's shape (or set conv_layers 0 to take it as it is)"
            )
        conv = BoardConv(policy.conv.graph, policy.conv.layers, policy.conv.channels)
    head = policy.head
    plain = isinstance(head, PlainHead)
    layout, rank = (None, 8) if plain else (head.layout, head.rank)  # a factored head's layout: the game's, checked
    if not plain and head.moves_from_position:
        raise ValueError(
            f"{path}: its factored head takes the moves from the position (PPO's head); a run starts only from a "
            "factored head without them"
        )
    activation = policy.meta.get("activation", "tanh")
    net = Network(policy.obs_size, policy.num_actions, widths, activation, layout, rank, policy.value_outputs, conv)
    pairs = [(net.value_head, value_w, value_b)]
    for tower, layers in (("policy_net", policy.pi_layers), ("value_net", value_layers)):
        linears = [m for m in getattr(net, tower) if isinstance(m, nn.Linear)]
        pairs += [(linear, w, b) for linear, (w, b) in zip(linears, layers, strict=True)]
    if plain:
        pairs.append((net.action_head, head.w, head.b))
    else:
        pairs += [
            (net.action_head.cell_net, head.u_w, head.u_b),
            (net.action_head.other_head, head.other_w, head.other_b),
        ]
    if policy.conv is not None:
        pairs += [(linear, w, b) for linear, (w, b) in zip(net.conv.layers, policy.conv.weights, strict=True)]
    with torch.no_grad():
        for linear, w, b in pairs:  # files keep weights as (in, out), torch as (out, in)
            w = torch.tensor(np.asarray(w).T)
            if w.shape[1] < linear.weight.shape[1]:  # a tower's first layer, grown a convolution's inputs
                w = torch.cat([w, w.new_zeros(w.shape[0], linear.weight.shape[1] - w.shape[1])], dim=1)
            linear.weight.copy_(w)
            linear.bias.copy_(torch.tensor(np.asarray(b)))
        if not plain:
            net.action_head.move_vectors.copy_(torch.tensor(head.v))
            net.action_head.move_bias.copy_(torch.tensor(head.move_b))
    return net


def sb3_policy_kwargs(spec: NetworkSpec) -> dict[str, Any]:
    """MaskablePPO's ``policy_kwargs`` for ``spec``: SB3 builds the towers and the plain heads from them, and
    ``training.export`` writes them back as a file of that spec. SB3's policy has no factored head, board
    convolution, value ensemble or value a seat: a ``ValueError`` names the one asked for."""
    unsupported = {
        "a factored head": spec.factored is not None,
        "a board convolution": spec.conv is not None,
        "a value ensemble": bool(spec.member_widths),
        "a value a seat": spec.value_outputs != 1,
    }
    named = [what for what, asked in unsupported.items() if asked]
    if named:
        raise ValueError(f"MaskablePPO's policy cannot hold {', '.join(named)}: give a spec of plain towers and heads")
    return {
        "net_arch": {"pi": list(spec.policy_widths), "vf": list(spec.value_widths)},
        "activation_fn": TORCH_ACTIVATIONS[spec.activation],
    }


__all__ = [
    "ACTIVATION_NAMES", "TORCH_ACTIVATIONS", "BoardConv", "FactoredHead", "Network", "network_from_file",
    "sb3_policy_kwargs", "write_network",
]  # fmt: skip
