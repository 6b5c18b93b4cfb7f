"""A trained actor-critic network run with numpy only (no torch, no pickle): the numpy forward of
:class:`policies.network.NetworkSpec`.

Policy files are ``.npz`` archives written by ``training.export``:

* ``meta``: a JSON string: format version, game, rule params, observation
  shape, number of actions, activation, and optional play-time search settings;
* ``pi_w{i}``, ``pi_b{i}`` / ``vf_w{i}``, ``vf_b{i}``: hidden layers of the
  policy and value towers (weights stored as (in, out));
* ``action_w``, ``action_b``, ``value_w``, ``value_b``: the two heads;
* or, with ``meta["head"] = {"kind": "factored", "rank": k, "cells": C, "moves": M}``, a factored action head
  (:class:`FactoredHead`) in place of ``action_w`` / ``action_b``: ``head_cell``, ``head_move`` (the game's
  action layout, :mod:`envs.core.action_layout`), ``head_u_w`` (hidden, C*(k+1)), ``head_u_b``, ``head_v``
  (M, k), ``head_move_b`` (M,), ``head_other_w`` (hidden, actions of their own), ``head_other_b``;
* with ``meta["conv"] = {"layers": L, "channels": C, "cells": n, "planes": p, "directions": k}``, a board
  convolution (:class:`BoardConv`) whose cells' features both towers take after the observation:
  ``conv_planes`` (p*n), ``conv_neighbours`` (n*k; the game's board graph, :mod:`envs.core.board_graph`),
  ``conv_w{i}``, ``conv_b{i}`` for its L layers;
* with ``meta["value_outputs"] = P`` (default 1), a value head of ``P`` outputs: every seat's value in seat
  order from the mover's (column 0: the mover), for games of more than two players; :meth:`NumpyPolicy.values`
  is the mover's column, :meth:`NumpyPolicy.seat_values` all of them;
* optionally more value networks trained apart (a value ensemble), member
  ``k`` = 1, 2, ... as ``m{k}_vf_w{i}``, ``m{k}_vf_b{i}``, ``m{k}_value_w``,
  ``m{k}_value_b``: the value is then the mean of every member's.
"""

from __future__ import annotations

import json
import zipfile
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from envs.core.action_layout import ActionLayout, layout_problem
from envs.core.board_graph import BoardGraph, board_graph_problem
from envs.core.checks import as_int
from policies.flops import board_conv, factored_head
from policies.network import ACTIVATIONS, Factored, NetworkSpec

FORMAT_VERSION = 1
MAX_ARRAY_BYTES = 1 << 30  # refuse, before allocating, any array declared bigger than this
_ZIP_MAGIC, _NPY_MAGIC = b"PK\x03\x04", b"\x93NUMPY"


def split_value_towers(arrays: dict[str, np.ndarray]) -> tuple[dict[str, np.ndarray], list[dict[str, np.ndarray]]]:
    """A policy file's arrays as (all but its value, its value towers in order, each under the
    unprefixed names ``vf_*`` / ``value_*``); :func:`join_value_towers` puts them back."""
    rest: dict[str, np.ndarray] = dict(arrays)
    towers: list[dict[str, np.ndarray]] = []
    while not towers or f"m{len(towers)}_value_w" in rest:
        prefix = f"m{len(towers)}_" if towers else ""
        names = [name for name in rest if name.startswith((prefix + "vf_", prefix + "value_"))]
        towers.append({name[len(prefix) :]: rest.pop(name) for name in names})
    return rest, towers


def join_value_towers(rest: dict[str, np.ndarray], towers: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """``rest`` with ``towers`` as its value: the first under ``vf_*`` / ``value_*``, tower k under ``m{k}_``."""
    joined = dict(rest)
    for k, tower in enumerate(towers):
        joined |= {(f"m{k}_{name}" if k else name): array for name, array in tower.items()}
    return joined


class PolicyFileError(ValueError):
    """A policy file that is missing, corrupt, or made for another game or shape."""


def write_policy_file(path: str | Path, meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> Path:
    """Write ``meta`` (as JSON) and ``arrays`` as a policy file that :func:`read_policy_file` reads back."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, meta=np.array(json.dumps(meta, sort_keys=True)), **arrays)
    return path


def read_policy_file(path: str | Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """(meta, arrays) of a policy file, with clear errors for every way it can be wrong.

    Each array's header is read before its data, so a declared shape bigger
    than the data the archive holds is refused without allocating it; nothing
    is unpickled.
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"policy file {path} does not exist")
    if not path.is_file():
        raise PolicyFileError(f"policy file {path} is not a file")
    with open(path, "rb") as f:
        head = f.read(len(_NPY_MAGIC))
    if not head:
        raise PolicyFileError(f"policy file {path} is empty: not a policy file")
    if head.startswith(_NPY_MAGIC):
        raise PolicyFileError(
            f"policy file {path} is a single .npy array, not a policy file (an .npz archive written by training.export)"
        )
    if not head.startswith(_ZIP_MAGIC):
        raise PolicyFileError(f"{path} is not a policy file (not a readable .npz archive)")
    arrays: dict[str, np.ndarray] = {}
    try:
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                if not info.filename.endswith(".npy"):
                    raise PolicyFileError(
                        f"{path} is not a policy file: its entry {info.filename!r} is not a numpy array"
                    )
                with archive.open(info) as member:
                    arrays[info.filename[:-4]] = _read_member(path, info, member)
    except PolicyFileError:
        raise
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        ValueError,
        OSError,
        EOFError,
        zlib.error,
        NotImplementedError,
        RuntimeError,
    ) as err:
        raise PolicyFileError(
            f"policy file {path} is truncated or corrupt: not a readable .npz archive ({type(err).__name__}: {err})"
        ) from None
    if "meta" not in arrays:
        raise PolicyFileError(f"policy file {path} has no 'meta' entry: not a swgym policy")
    meta_array = arrays.pop("meta")
    if meta_array.dtype.kind != "U" or meta_array.shape != ():
        raise PolicyFileError(
            f"policy file {path}: its meta is a {meta_array.dtype} array of shape "
            f"{meta_array.shape}, expected one JSON string"
        )
    try:
        meta = json.loads(str(meta_array))
    except json.JSONDecodeError as err:
        raise PolicyFileError(f"policy file {path}: its meta is not valid JSON ({err})") from None
    check_meta(meta, path)
    return meta, arrays


def _read_member(path: Path, info: zipfile.ZipInfo, member: Any) -> np.ndarray:
    """One array of the archive, its header checked before any data is read."""
    name = info.filename[:-4]
    fmt = np.lib.format
    version = fmt.read_magic(member)
    if version == (1, 0):
        shape, fortran, dtype = fmt.read_array_header_1_0(member)
    elif version == (2, 0):
        shape, fortran, dtype = fmt.read_array_header_2_0(member)
    else:
        raise PolicyFileError(f"policy file {path}: array {name!r} has .npy format {version}, expected 1.0 or 2.0")
    if dtype.hasobject:
        raise PolicyFileError(
            f"policy file {path}: array {name!r} holds Python objects ({dtype}); "
            "policy files hold numbers only and are never unpickled"
        )
    count = 1
    for n in shape:
        count *= int(n)
    nbytes = count * dtype.itemsize
    if nbytes > MAX_ARRAY_BYTES or nbytes > info.file_size:
        raise PolicyFileError(
            f"policy file {path}: array {name!r} declares shape {shape} ({nbytes} bytes) "
            f"but the archive holds {info.file_size} bytes for it: corrupt"
        )
    data = member.read(nbytes)
    if len(data) != nbytes:
        raise PolicyFileError(f"policy file {path}: array {name!r} is truncated ({len(data)} of {nbytes} bytes)")
    return np.frombuffer(data, dtype=dtype).reshape(shape, order="F" if fortran else "C")


def check_meta(meta: Any, where: str | Path) -> None:
    """Raise :class:`PolicyFileError` unless ``meta`` is a policy file's meta object (keys and their types)."""
    if not isinstance(meta, dict):
        raise PolicyFileError(
            f"policy file {where}: its meta is {type(meta).__name__} {meta!r:.60}, expected a JSON object"
        )
    if meta.get("format") != FORMAT_VERSION:
        raise PolicyFileError(f"policy file {where}: format {meta.get('format')!r}, expected {FORMAT_VERSION}")
    shape = meta.get("observation_shape")
    problems = {
        "game": isinstance(meta.get("game"), str),
        "params": isinstance(meta.get("params", {}), dict),
        "observation_shape": isinstance(shape, list) and bool(shape) and all(_int_at_least(n, 1) for n in shape),
        "num_actions": _int_at_least(meta.get("num_actions"), 1),
        "activation": meta.get("activation", "tanh") in ACTIVATIONS,
        "search": meta.get("search") is None or isinstance(meta.get("search"), dict),
        "layers": meta.get("layers") is None
        or isinstance(meta.get("layers"), dict)
        and all(_int_at_least(n, 0) for n in meta["layers"].values()),
        "head": _head_meta_ok(meta.get("head")),
        "conv": _conv_meta_ok(meta.get("conv")),
        "value_outputs": _int_at_least(meta.get("value_outputs", 1), 1),
    }
    expected = {
        "game": "a game name",
        "params": "an object of rule parameters",
        "observation_shape": "a list of positive ints",
        "num_actions": "a positive int",
        "activation": f"one of {', '.join(ACTIVATIONS)}",
        "search": "an object of search settings or null",
        "layers": "an object of hidden-layer counts per tower",
        "head": '{"kind": "plain"}, {"kind": "factored", "rank": k, "cells": c, "moves": m} (ints >= 1; '
        'optionally "moves_from_position": true) or null',
        "conv": f"null or an object of ints >= 1 with the keys {', '.join(CONV_KEYS)}",
        "value_outputs": "an int >= 1 (the value head's outputs: 1, or one a seat)",
    }
    for key, ok in problems.items():
        if not ok:
            raise PolicyFileError(
                f"policy file {where}: its meta has {key} = {meta.get(key)!r}, expected {expected[key]}"
            )


def _head_meta_ok(head: Any) -> bool:
    if head is None:
        return True
    if not isinstance(head, dict) or head.get("kind") not in ("plain", "factored"):
        return False
    if head["kind"] == "plain":
        return set(head) == {"kind"}
    sizes = [head.get(key) for key in ("rank", "cells", "moves")]
    keys_ok = set(head) - {"moves_from_position"} == {"kind", "rank", "cells", "moves"}
    flag_ok = isinstance(head.get("moves_from_position", False), bool)
    return keys_ok and flag_ok and all(_int_at_least(n, 1) for n in sizes)


CONV_KEYS = ("layers", "channels", "cells", "planes", "directions")


def _conv_meta_ok(conv: Any) -> bool:
    return (
        conv is None
        or isinstance(conv, dict)
        and set(conv) == set(CONV_KEYS)
        and all(_int_at_least(conv[key], 1) for key in CONV_KEYS)
    )


def _int_at_least(n: Any, least: int) -> bool:
    """``n`` is an int (not a bool: :func:`envs.core.checks.as_int`) of at least ``least``."""
    return (plain := as_int(n)) is not None and plain >= least


def _weights(arrays: dict[str, np.ndarray], name: str, where: str | Path, used: set[str]) -> np.ndarray:
    if name not in arrays:
        raise PolicyFileError(f"policy file {where} lacks the array {name!r}")
    a = arrays[name]
    if not isinstance(a, np.ndarray) or a.dtype.kind != "f":
        raise PolicyFileError(
            f"policy file {where}: array {name!r} has dtype "
            f"{getattr(a, 'dtype', type(a).__name__)}, expected floating point numbers"
        )
    if not np.isfinite(a).all():
        raise PolicyFileError(f"policy file {where}: array {name!r} holds NaN or infinite numbers")
    used.add(name)
    return a


def _tower(
    arrays: dict[str, np.ndarray], prefix: str, where: str | Path, used: set[str]
) -> list[tuple[np.ndarray, np.ndarray]]:
    layers = []
    while f"{prefix}_w{len(layers)}" in arrays:
        i = len(layers)
        if f"{prefix}_b{i}" not in arrays:
            raise PolicyFileError(f"policy file {where} has the weights {prefix}_w{i} but not the bias {prefix}_b{i}")
        layers.append(
            (_weights(arrays, f"{prefix}_w{i}", where, used), _weights(arrays, f"{prefix}_b{i}", where, used))
        )
    return layers


class PlainHead:
    """Every action's logit from the policy tower's last layer: ``h @ action_w + action_b``."""

    def __init__(self, arrays: dict[str, np.ndarray], where: str | Path, used: set[str]) -> None:
        self.w, self.b = _weights(arrays, "action_w", where, used), _weights(arrays, "action_b", where, used)
        self._rows: tuple[np.ndarray, np.ndarray] | None = None  # move_logits' weights, one row an action

    def check(self, width: int, num_actions: int, where: str | Path) -> None:
        """Raise :class:`PolicyFileError` unless the head takes ``width`` values and gives ``num_actions``."""
        w, b = self.w, self.b
        if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
            raise PolicyFileError(
                f"policy file {where}: the action head has weights {w.shape} and bias {b.shape}, "
                f"expected ({width}, n) and (n,)"
            )
        if w.shape[1] != num_actions:
            raise PolicyFileError(
                f"policy file {where}: {w.shape[1]} action logits for a game with {num_actions} actions"
            )

    def logits(self, h: np.ndarray) -> np.ndarray:
        return h @ self.w + self.b

    def multiply_adds(self) -> int:
        return self.w.size

    def logits_of(self, h: np.ndarray, actions: np.ndarray) -> np.ndarray:
        return (h @ self.w[:, actions])[0] + self.b[actions]

    #: the compiled loop computes a column in about three times BLAS's time: it runs only where the moves' list is
    #: at most this share of the actions (Swish's 144 of 3114, Twirls' 449 of 2593; not Swival's 73 of 73)
    LOOP_SHARE = 0.25

    def move_logits(self, h: np.ndarray, moves: np.ndarray) -> np.ndarray:
        """(k, L): each row's logits of its ``moves`` (-1 padding: -inf). Where the list is short beside the
        actions (:data:`LOOP_SHARE`), only those columns are computed, in a compiled loop
        (:mod:`policies.move_logits`) whose sums round differently from :meth:`logits`; else they are read from
        :meth:`logits`."""
        from policies.move_logits import plain_move_logits
        from policies.search.tree import logits_of_moves  # numba: only a search that asks for it loads it

        moves = np.asarray(moves)
        if moves.shape[1] > self.LOOP_SHARE * self.b.size:
            return logits_of_moves(self.logits(h), moves)
        if self._rows is None:
            self._rows = np.ascontiguousarray(self.w.T, dtype=np.float32), self.b.astype(np.float32)
        return plain_move_logits(h, *self._rows, moves)


class FactoredHead:
    """A logit per (cell, move) pair of the game's action layout, and one per action of its own.

    The policy tower's last layer ``h`` gives each cell ``rank + 1`` values (``head_u_w``, ``head_u_b``): a
    vector ``U[cell]`` and a score ``s[cell]``; a pair's logit is ``<U[cell], V[move]> + s[cell] + b[move]``
    (``head_v``, ``head_move_b``: learned, the same in every position). The actions of their own (choices, a
    swap) have a direct head (``head_other_w``, ``head_other_b``). With C cells, M moves and rank k that is
    ``hidden * C * (k + 1) + C * M * (k + 1)`` multiply-adds (plus ``hidden`` per action of its own) instead
    of the plain head's ``hidden * actions``. With ``moves_from_position`` (:class:`policies.network.Factored`)
    ``V[move]`` also gets ``h @ head_vh_w + head_vh_b`` (M vectors of the position), and every action its own
    bias (``head_action_b``).
    """

    def __init__(self, arrays: dict[str, np.ndarray], head: dict[str, int], where: str | Path, used: set[str]):
        self.rank, self.cells, self.moves = head["rank"], head["cells"], head["moves"]
        cell, move = (_ints(arrays, name, where, used) for name in ("head_cell", "head_move"))
        problem = layout_problem(cell, move, self.cells, self.moves)
        if problem:
            raise PolicyFileError(f"policy file {where}: its factored head's action layout is wrong: {problem}")
        self.layout = ActionLayout(cell.astype(np.int64), move.astype(np.int64), self.cells, self.moves)
        names = ("u_w", "u_b", "v", "move_b", "other_w", "other_b")
        self.u_w, self.u_b, self.v, self.move_b, self.other_w, self.other_b = (
            _weights(arrays, f"head_{name}", where, used) for name in names
        )
        self.moves_from_position = bool(head.get("moves_from_position", False))
        if self.moves_from_position:
            self.vh_w, self.vh_b, self.action_b = (
                _weights(arrays, f"head_{name}", where, used) for name in ("vh_w", "vh_b", "action_b")
            )
        self.source = self.layout.source
        self.other_index = np.cumsum(cell < 0) - 1  # an action of its own: its column of head_other_w

    def check(self, width: int, num_actions: int, where: str | Path) -> None:
        """Raise :class:`PolicyFileError` naming the first array whose shape does not fit (or a layout for another
        number of actions)."""
        if self.layout.num_actions != num_actions:
            raise PolicyFileError(
                f"policy file {where}: its factored head lays out {self.layout.num_actions} actions "
                f"for a game with {num_actions} actions"
            )
        others = self.layout.others.size
        spec = Factored(self.rank, self.cells, self.moves, others, self.moves_from_position)
        for name, shape in spec.shapes(width, num_actions).items():
            found = getattr(self, name[len("head_") :]).shape
            if found != shape:
                raise PolicyFileError(
                    f"policy file {where}: its factored head's {name} has shape {found}, expected {shape} "
                    f"(rank {self.rank}, {self.cells} cells, {self.moves} moves, {others} actions of their own, "
                    f"{width} inputs)"
                )
        self.u_w3 = self.u_w.reshape(width, self.cells, self.rank + 1)
        self.u_b2 = self.u_b.reshape(self.cells, self.rank + 1)
        self.v_aug = np.hstack([self.v, np.ones((self.moves, 1), self.v.dtype)])  # the last column picks s[cell]

    def multiply_adds(self) -> int:
        """Of :meth:`logits` for one observation (:func:`policies.flops.factored_head`)."""
        width = self.u_w.shape[0]
        moving = width * self.moves * self.rank if self.moves_from_position else 0
        return factored_head(width, self.cells, self.moves, self.rank, self.layout.others.size) + moving

    def _position_moves(self, h: np.ndarray) -> np.ndarray:
        """(rows, moves, rank + 1): each row's move vectors (learned plus from the position), then a column of 1."""
        v = self.v + (h @ self.vh_w + self.vh_b).reshape(len(h), self.moves, self.rank)
        return np.concatenate([v, np.ones((*v.shape[:2], 1), v.dtype)], axis=2)

    def logits(self, h: np.ndarray) -> np.ndarray:
        """Every action's logit: all pairs in two matrix products, then one gather into the game's order."""
        if self.moves_from_position:
            u = (h @ self.u_w + self.u_b).reshape(len(h), self.cells, self.rank + 1)
            pairs = u @ self._position_moves(h).transpose(0, 2, 1) + self.move_b
        else:
            u = (h @ self.u_w + self.u_b).reshape(-1, self.rank + 1)  # (rows * cells, rank + 1)
            pairs = u @ self.v_aug.T + self.move_b
        others = h @ self.other_w + self.other_b
        logits = np.concatenate([pairs.reshape(len(h), self.cells * self.moves), others], axis=1)[:, self.source]
        return logits + self.action_b if self.moves_from_position else logits

    def logits_of(self, h: np.ndarray, actions: np.ndarray) -> np.ndarray:
        """The logits of ``actions`` alone (``h``: one row): only their cells' vectors are computed."""
        actions = np.asarray(actions, dtype=np.int64)
        cell, move = self.layout.cell[actions], self.layout.move[actions]
        out = np.empty(actions.size, dtype=np.result_type(h, self.u_w))
        pair = cell >= 0
        if pair.any():
            cells, back = np.unique(cell[pair], return_inverse=True)
            u = (h[0] @ self.u_w3[:, cells].reshape(len(h[0]), -1)).reshape(cells.size, -1) + self.u_b2[cells]
            v_aug = self._position_moves(h[:1])[0] if self.moves_from_position else self.v_aug
            out[pair] = np.einsum("ij,ij->i", u[back], v_aug[move[pair]]) + self.move_b[move[pair]]
        if not pair.all():
            columns = self.other_index[actions[~pair]]
            out[~pair] = h[0] @ self.other_w[:, columns] + self.other_b[columns]
        return out + self.action_b[actions] if self.moves_from_position else out

    def move_logits(self, h: np.ndarray, moves: np.ndarray) -> np.ndarray:
        """(k, L): each row's logits of its ``moves`` (-1 padding: -inf), read from :meth:`logits` (the pairs'
        products are cheap; the same values bit for bit)."""
        from policies.search.tree import logits_of_moves  # numba: only a search that asks for it loads it

        return logits_of_moves(self.logits(h), moves)


class BoardConv:
    """A convolution over the game's board graph: each layer gives every cell a ReLU of one linear map of its own
    features and its neighbours' (zeros off the board), the same weights at every cell; layers after the first
    add their output to their input. The first layer reads the graph's planes of the observation; the output is
    every cell's ``channels`` features, cell after cell, which the towers take after the observation."""

    def __init__(self, arrays: dict[str, np.ndarray], conv: dict[str, int], where: str | Path, used: set[str]):
        self.layers, self.channels, cells = conv["layers"], conv["channels"], conv["cells"]
        planes, directions = conv["planes"], conv["directions"]
        flat_planes, flat_neighbours = (_ints(arrays, name, where, used) for name in ("conv_planes", "conv_neighbours"))
        if flat_planes.size != planes * cells or flat_neighbours.size != cells * directions:
            raise PolicyFileError(
                f"policy file {where}: its board graph has {flat_planes.size} plane and {flat_neighbours.size} "
                f"neighbour entries, expected {planes} x {cells} and {cells} x {directions}"
            )
        self.graph = BoardGraph(
            flat_planes.reshape(planes, cells).astype(np.int64),
            flat_neighbours.reshape(cells, directions).astype(np.int64),
        )
        self.weights = [
            (_weights(arrays, f"conv_w{i}", where, used), _weights(arrays, f"conv_b{i}", where, used))
            for i in range(self.layers)
        ]
        if f"conv_w{self.layers}" in arrays:
            raise PolicyFileError(f"policy file {where}: its meta says {self.layers} conv layers, it has more")
        self._plane_index, self._around = self.graph.planes.T, self.graph.around  # the gathers, made once

    @property
    def out_size(self) -> int:
        return self.graph.cells * self.channels

    def check(self, observations: int, where: str | Path) -> None:
        """Raise :class:`PolicyFileError` unless the graph fits an observation of ``observations`` values and
        each layer's weights fit its inputs."""
        problem = board_graph_problem(self.graph.planes, self.graph.neighbours, observations)
        if problem:
            raise PolicyFileError(f"policy file {where}: its board graph is wrong: {problem}")
        width = self.graph.planes.shape[0]
        for i, (w, b) in enumerate(self.weights):
            expected = ((self.graph.directions + 1) * width, self.channels)
            if w.shape != expected or b.shape != (self.channels,):
                raise PolicyFileError(
                    f"policy file {where}: conv layer {i} has weights {w.shape} and bias {b.shape}, expected "
                    f"{expected} and ({self.channels},)"
                )
            width = self.channels

    def multiply_adds(self) -> int:
        return board_conv(self.graph, self.layers, self.channels)

    def features(self, x: np.ndarray) -> np.ndarray:
        """(rows, cells * channels): every cell's features after the last layer, for observations ``x``."""
        rows, cells, around = len(x), self.graph.cells, self._around
        h = x[:, self._plane_index]  # (rows, cells, planes)
        for i, (w, b) in enumerate(self.weights):
            padded = np.concatenate([h, np.zeros((rows, 1, h.shape[2]), h.dtype)], axis=1)
            y = np.maximum(padded[:, around].reshape(rows * cells, -1) @ w + b, 0.0).reshape(rows, cells, -1)
            h = h + y if i else y
        return h.reshape(rows, -1)


def _ints(arrays: dict[str, np.ndarray], name: str, where: str | Path, used: set[str]) -> np.ndarray:
    if name not in arrays:
        raise PolicyFileError(f"policy file {where} lacks the array {name!r}")
    a = arrays[name]
    if not isinstance(a, np.ndarray) or a.dtype.kind not in "iu" or a.ndim != 1:
        raise PolicyFileError(
            f"policy file {where}: array {name!r} is {getattr(a, 'dtype', type(a).__name__)} of shape "
            f"{getattr(a, 'shape', '?')}, expected one row of whole numbers"
        )
    used.add(name)
    return a


class NumpyPolicy:
    """The opponent behind a policy file: most probable legal action, or sampled with a temperature.

    Args:
        path: the ``.npz`` policy file (or the ``(meta, arrays)`` pair read from one).
        name: the game's registry name; if given, the file must be for this game,
            its rules (``params``; None: the default rules) and the env's observation and action sizes.
        temperature: 0 picks the most probable legal action; > 0 samples from
            the masked softmax of ``logits / temperature``.
        seed: seed of the sampling generator.
        source: how to name an in-memory policy in errors.
    """

    def __init__(
        self,
        path: str | Path | tuple[dict, dict],
        name: str | None = None,
        temperature: float = 0.0,
        seed: int | None = None,
        params: dict[str, Any] | None = None,
        source: str = "<in memory>",
    ) -> None:
        if isinstance(path, tuple):
            self.path = Path(source)
            self.meta, arrays = path
            check_meta(self.meta, self.path)
        else:
            self.path = Path(path)
            self.meta, arrays = read_policy_file(self.path)
        if name is not None and self.meta.get("game") != name:
            raise PolicyFileError(f"policy file {self.path} is for {self.meta.get('game')!r}, not {name!r}")
        env_rules = self._check_rules(name, params) if name is not None else None
        if temperature < 0:
            raise ValueError(f"temperature must be >= 0, got {temperature}")
        self.activation = ACTIVATIONS[self.meta.get("activation", "tanh")]
        used: set[str] = set()
        where = self.path
        self.pi_layers = _tower(arrays, "pi", where, used)
        head = self.meta.get("head") or {"kind": "plain"}
        factored = head["kind"] == "factored"
        self.head = FactoredHead(arrays, head, where, used) if factored else PlainHead(arrays, where, used)
        conv = self.meta.get("conv")
        self.conv = BoardConv(arrays, conv, where, used) if conv else None
        self.value_members = [
            (
                _tower(arrays, "vf", where, used),
                (_weights(arrays, "value_w", where, used), _weights(arrays, "value_b", where, used)),
            )
        ]
        while f"m{len(self.value_members)}_value_w" in arrays:
            k = len(self.value_members)
            self.value_members.append(
                (
                    _tower(arrays, f"m{k}_vf", where, used),
                    (_weights(arrays, f"m{k}_value_w", where, used), _weights(arrays, f"m{k}_value_b", where, used)),
                )
            )
        for tower, layers in (("pi", self.pi_layers), ("vf", self.value_members[0][0])):
            declared = (self.meta.get("layers") or {}).get(tower)
            if declared is not None and declared != len(layers):
                raise PolicyFileError(
                    f"policy file {where}: its {tower} tower has {len(layers)} hidden layers, its meta says {declared}"
                )
        unused = sorted(set(arrays) - used)
        if unused:
            raise PolicyFileError(
                f"policy file {where} has arrays that are not part of its network: "
                f"{', '.join(unused)} (a layer before them missing?)"
            )
        self.obs_size = int(np.prod(self.meta["observation_shape"]))
        self.input_size = self.obs_size + (self.conv.out_size if self.conv else 0)  # the towers' inputs
        self.num_actions = int(self.meta["num_actions"])
        self.value_outputs = self.meta.get("value_outputs", 1)
        self._check_shapes()
        self.spec = NetworkSpec.of_file(self.meta, arrays)  # the shape every forward of this network follows
        if name is not None:
            self._check_env_sizes(name, env_rules)
        self.temperature = temperature
        self.rng = np.random.default_rng(seed)

    def _check_rules(self, name: str, params: dict[str, Any] | None) -> dict[str, Any]:
        """The env's complete rules; the file's must be the same (both normalised, defaults filled in)."""
        from envs.core.game import RuleError
        from envs.registry import game_module

        game_cls = game_module(name).raw_env.game_cls
        env_rules = game_cls.normalise_params(dict(params or {}))
        try:
            file_rules = game_cls.normalise_params(dict(self.meta.get("params", {})))
        except (RuleError, TypeError) as err:
            raise PolicyFileError(
                f"policy file {self.path}: its rules {self.meta.get('params')} are not valid {name} rules ({err})"
            ) from None
        if file_rules != env_rules:
            differ = ", ".join(
                f"{k}: {file_rules[k]!r} in the file, {env_rules[k]!r} in the env"
                for k in file_rules
                if file_rules[k] != env_rules[k]
            )
            raise PolicyFileError(
                f"policy file {self.path} was trained for {name} with rules {file_rules}, "
                f"but the env's rules are {env_rules} ({differ})"
            )
        return env_rules

    def _check_env_sizes(self, name: str, rules: dict[str, Any]) -> None:
        from envs.registry import make_raw

        raw = make_raw(name, **rules)
        obs_shape = type(raw).observation_shape(raw.game)
        if self.obs_size != int(np.prod(obs_shape)) or self.num_actions != raw.game.num_actions:
            raise PolicyFileError(
                f"policy file {self.path}: its network takes {self.obs_size} observation values "
                f"and gives {self.num_actions} actions; {name} with rules {rules} has "
                f"{int(np.prod(obs_shape))} and {raw.game.num_actions}"
            )
        if isinstance(self.head, FactoredHead):
            self._check_layout(name, type(raw).action_layout(raw.game))
        if self.conv is not None:
            self._check_graph(name, type(raw).board_graph(raw.game))

    def _check_graph(self, name: str, graph: BoardGraph | None) -> None:
        """A board convolution's graph must be the game's own."""
        if graph is None:
            raise PolicyFileError(
                f"policy file {self.path} has a board convolution, but {name} declares no board graph"
            )
        mine = self.conv.graph
        same = all(a.shape == b.shape and (a == b).all() for a, b in zip(mine, graph))
        if not same:
            raise PolicyFileError(
                f"policy file {self.path}: its board graph ({mine.planes.shape[0]} planes of {mine.cells} cells, "
                f"{mine.directions} directions) is not {name}'s ({graph.planes.shape[0]} planes of {graph.cells} "
                f"cells, {graph.directions} directions, or other indices)"
            )

    def _check_layout(self, name: str, layout: ActionLayout | None) -> None:
        """A factored head's layout must be the game's own, action by action."""
        if layout is None:
            raise PolicyFileError(
                f"policy file {self.path} has a factored action head, but {name} declares no action layout"
            )
        mine = self.head.layout
        differ = np.flatnonzero((mine.cell != layout.cell) | (mine.move != layout.move))
        if (mine.cells, mine.moves) != (layout.cells, layout.moves) or differ.size:
            a = int(differ[0]) if differ.size else 0
            raise PolicyFileError(
                f"policy file {self.path}: its factored head's action layout ({mine.cells} cells x {mine.moves} "
                f"moves) is not {name}'s ({layout.cells} x {layout.moves}): {differ.size} actions differ, e.g. "
                f"action {a} is ({mine.cell[a]}, {mine.move[a]}) in the file, ({layout.cell[a]}, {layout.move[a]}) "
                "in the game"
            )

    def _check_shapes(self) -> None:
        towers = [("policy", self.pi_layers)]
        towers += [
            ("value" if k == 0 else f"value member {k}", layers + [head])
            for k, (layers, head) in enumerate(self.value_members)
        ]
        if self.conv is not None:
            self.conv.check(self.obs_size, self.path)
        for name, layers in towers:
            width = self.input_size
            for i, (w, b) in enumerate(layers):
                if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
                    raise PolicyFileError(
                        f"policy file {self.path}: {name} layer {i} has weights {w.shape} and bias {b.shape}, "
                        f"expected ({width}, n) and (n,)"
                    )
                width = w.shape[1]
            if name == "policy":
                self.head.check(width, self.num_actions, self.path)
        for k, (_, (head_w, _)) in enumerate(self.value_members):
            if head_w.shape[1] != self.value_outputs:
                raise PolicyFileError(
                    f"policy file {self.path}: value member {k} gives {head_w.shape[1]} outputs, expected "
                    f"{self.value_outputs}"
                )

    # -- the network ---------------------------------------------------------
    def forward(self, observations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(logits, values) for a batch of observations (any leading shape is flattened per row)."""
        logits, values = self.logits_and_seat_values(observations)
        return logits, values[:, 0]

    def logits_and_seat_values(self, observations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(logits, every seat's value as :meth:`seat_values` gives them), the board convolution run once."""
        x = self._inputs(observations)
        return self.head.logits(self._policy_hidden(x)), self._seat_values_of(x)

    def move_logits_and_seat_values(self, observations: np.ndarray, moves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(each row's logits of its legal ``moves`` (k, L), -1 padding: -inf; every seat's value as
        :meth:`seat_values` gives them): what a search reads. A plain head whose moves' list is short beside its
        actions computes only those columns, in a compiled loop (numba): with thousands of actions and a few dozen
        legal, that is most of the forward pass saved, but its sums round differently from
        :meth:`logits_and_seat_values`' matrix product (:meth:`PlainHead.move_logits`)."""
        moves = np.asarray(moves)
        x = self._inputs(observations)
        if moves.shape[0] != len(x):
            raise ValueError(f"{len(x)} observations but legal moves for {moves.shape[0]} positions")
        return self.head.move_logits(self._policy_hidden(x), moves), self._seat_values_of(x)

    def logits(self, observations: np.ndarray) -> np.ndarray:
        """The policy head alone for a batch of observations (play-outs need no value)."""
        return self.head.logits(self._policy_features(observations))

    def _inputs(self, observations: np.ndarray) -> np.ndarray:
        """The towers' inputs: the observations, then the board convolution's features where the file has one."""
        x = np.asarray(observations, dtype=np.float32).reshape(-1, self.obs_size)
        return x if self.conv is None else np.concatenate([x, self.conv.features(x)], axis=1)

    def logits_of(self, observation: np.ndarray, actions: np.ndarray) -> np.ndarray:
        """The policy head's logits of ``actions`` alone, for one observation.

        A search ordering a position's few legal moves needs only their columns
        of the action head, which is most of the network's work in games with
        thousands of actions (a factored head computes only their cells' vectors).
        """
        return self.head.logits_of(self._policy_features(observation), actions)

    def _policy_features(self, observations: np.ndarray) -> np.ndarray:
        """The policy tower's last hidden layer, one row per observation (the action head's input)."""
        return self._policy_hidden(self._inputs(observations))

    def _policy_hidden(self, h: np.ndarray) -> np.ndarray:
        for w, b in self.pi_layers:
            h = self.activation(h @ w + b)
        return h

    def multiply_adds(self) -> dict[str, int]:
        """Multiply-adds of one forward pass for one observation, by part and in total (see :mod:`policies.flops`;
        a FLOP count is twice this)."""
        parts = {"board conv": self.conv.multiply_adds()} if self.conv else {}
        parts |= {
            "policy tower": sum(w.size for w, _ in self.pi_layers),
            "action head": self.head.multiply_adds(),
            "value tower": sum(w.size for layers, head in self.value_members for w, _ in layers + [head]),
        }
        return parts | {"total": sum(parts.values())}

    def values(self, observations: np.ndarray) -> np.ndarray:
        """The value head alone for a batch of observations (a search's leaves need no policy)."""
        return self.seat_values(observations)[:, 0]

    def member_values(self, observations: np.ndarray) -> list[np.ndarray]:
        """Each value tower's own values (the mover's) for a batch of observations (the value is their mean)."""
        return [v[:, 0] for v in self._member_seat_values(observations)]

    def seat_values(self, observations: np.ndarray) -> np.ndarray:
        """Every seat's value, (k, ``value_outputs``) in seat order from the mover's, for a batch of
        observations (one column, the mover's, unless the file's value head has one a seat)."""
        return self._seat_values_of(self._inputs(observations))

    def _seat_values_of(self, x: np.ndarray) -> np.ndarray:
        members = self._member_values_of(x)
        return sum(members[1:], members[0]) / len(members)

    def _member_seat_values(self, observations: np.ndarray) -> list[np.ndarray]:
        return self._member_values_of(self._inputs(observations))

    def _member_values_of(self, x: np.ndarray) -> list[np.ndarray]:
        values = []
        for layers, (head_w, head_b) in self.value_members:
            v = x
            for w, b in layers:
                v = self.activation(v @ w + b)
            values.append(v @ head_w + head_b)
        return values

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
        return {"moves": [(int(a), float(probs[a])) for a in order if probs[a] > 0], "value": float(values[0])}


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
