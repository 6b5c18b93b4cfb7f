"""Gumbel Expert Iteration: self-play with the engine's tree search makes the targets, a network learns them.

One iteration: the generator plays ``boards`` games at once on the batched
engine, every move searched by :class:`policies.search.tree.TreeSearch` with
the current network (``simulations``; a share ``1 - full_share`` of the moves
gets only ``cheap_simulations`` and is not recorded: playout-cap
randomisation), and writes each recorded position (observation, the search's
improved policy as its ``target_width`` largest entries, the game's result and
the search's root value for the mover; seen through a random symmetry of the rules where the game declares
them) to ``games/chunk_<k>.npz``. The learner reads the newest chunks (the
replay buffer, ``buffer_positions``), fits the network (cross-entropy to the
improved policy, squared error to the result mixed with the root value by
``root_value_weight``) and writes ``network.npz`` (a
policy file, numpy only), which the next iteration's generator plays.
Generators and learner exchange only files, or Ray objects: with ``generators``
above 1 each plays its share of the games with a seed of its own, one after
another here, or as Ray tasks on a cluster (``train(..., address=...)``,
:class:`RayGenerators`) whose positions the learner writes as the chunk files.
A checkpoint (network, optimizer, iteration, curve) is written after every
iteration; ``resume`` goes on from it. Each evaluated network is kept as
``networks/iteration_<k>.npz``, so the best of a run can be shipped. Every
progress line goes to the terminal and, after its time, to ``train.log``.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch

from envs.core.action_layout import ActionLayout
from envs.core.checks import as_int, as_number
from envs.core.opponents import PAST_PREFIX
from envs.play import check_duplicate_games, play_series
from envs.registry import game_module, make_batched
from policies import load, past_hard_file
from policies.numpy_policy import NumpyPolicy, read_policy_file, write_policy_file
from policies.provenance import sha256
from policies.report import score_share
from policies.search.evaluators import evaluator, flat_evaluator
from policies.search.tree import TreeSearch, seats_from_mover
from training.network import TORCH_ACTIVATIONS, BoardConv, Network, network_from_file, write_network
from training.ray_cluster import start_ray

HEADS = ("plain", "factored")


@dataclass(frozen=True)
class Settings:
    """A run's settings (the ``"gumbel"`` section of a training config; every key optional)."""

    iterations: int = 10
    boards: int = 256  # games played at once by the generator
    games: int = 256  # finished games an iteration records
    simulations: int = 16
    cheap_simulations: int = 4
    full_share: float = 0.25  # moves searched with ``simulations`` (recorded); the others cheap, not recorded
    considered: int = 16
    leaf_wins: int = 0  # 1: the search values a position whose mover can win at once as that win (its leaf_wins)
    target_width: int = 16  # largest entries of the improved policy kept per position
    value_weight: float = 1.0  # the value loss's weight; 0 leaves the value network as it starts (its own tower)
    policy_weight: float = 1.0  # the policy loss's weight; 0 leaves the policy network as it starts (its own tower)
    root_value_weight: float = 0.0  # value target: this share the search's root value, the rest the game's result
    start: str = ""  # a policy file to start from (its network's shape and weights), or "hard@REV"; "": fresh
    legal_only: int = 0  # 1: the policy loss's softmax over each position's legal moves alone; 0: over every action
    seat_values: int = 0  # 1: the value head gives every seat's value (seat order from the mover's); 0: the mover's
    symmetries: int = 1  # 1: each recorded position is seen through a random symmetry the game declares; 0: as is
    buffer_positions: int = 200_000
    hidden: tuple[int, ...] = (128, 128)
    activation: str = "tanh"
    head: str = "plain"  # "plain": a logit per action from the last layer; "factored": per (cell, move) pair
    rank: int = 8  # the factored head's vector per cell and per move
    conv_layers: int = 0  # layers of a convolution over the game's board graph, whose features the towers take; 0: none
    conv_channels: int = 16  # the board convolution's features per cell
    learning_rate: float = 1e-3
    batch_size: int = 1024
    epochs: int = 2  # passes over the buffer an iteration
    eval_every: int = 0  # iterations between evaluations (0: none)
    eval_games: int = 40  # games a side of the evaluation: the network alone, and with its search
    eval_opponents: tuple[str, ...] = ("medium",)  # opponent names ("hard": the game's shipped hard)
    #: random plies each evaluation game begins with, each opening in every seating (envs.play.play_game): in a game
    #: without chance the network and its search never vary, nor does a searching hard, so without them a series
    #: against the hard is one game per seating
    eval_opening_plies: int = 0
    generators: int = 1  # self-play generators an iteration, each with its seed and share of the games
    seed: int = 0

    @classmethod
    def from_config(cls, section: dict[str, Any] | None, where: str = "gumbel") -> Settings:
        """The settings of ``section``, every value checked by name."""
        section = dict(section or {})
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(set(section) - set(known))
        if unknown:
            raise ValueError(f"{where}: unknown setting(s) {unknown}; known: {sorted(known)}")
        for key, value in section.items():
            default = known[key].default
            if key == "hidden":
                widths = [as_int(width) for width in value] if isinstance(value, list) else []
                if not widths or not all(width is not None and width >= 1 for width in widths):
                    raise ValueError(f"{where}: hidden must be a list of layer widths >= 1, got {value!r}")
                section[key] = tuple(widths)
            elif key == "eval_opponents":
                if not (isinstance(value, list) and value and all(isinstance(v, str) and v for v in value)):
                    raise ValueError(f"{where}: eval_opponents must be a list of opponent names, got {value!r}")
                section[key] = tuple(value)
            elif key == "activation":
                if value not in TORCH_ACTIVATIONS:
                    raise ValueError(f"{where}: activation must be one of {sorted(TORCH_ACTIVATIONS)}, got {value!r}")
            elif key == "head":
                if value not in HEADS:
                    raise ValueError(f"{where}: head must be one of {list(HEADS)}, got {value!r}")
            elif key == "start":
                if not isinstance(value, str):
                    raise ValueError(f"{where}: start must be the path of a policy file, got {value!r}")
            elif key in ("value_weight", "policy_weight"):
                if (number := as_number(value)) is None or not 0 <= number <= 1e6:
                    raise ValueError(f"{where}: {key} must be a number >= 0, got {value!r}")
            elif key == "root_value_weight":
                if (number := as_number(value)) is None or not 0 <= number <= 1:
                    raise ValueError(f"{where}: root_value_weight must be a number in [0, 1], got {value!r}")
            elif isinstance(default, int) and ((whole := as_int(value)) is None or whole < 0):
                raise ValueError(f"{where}: {key} must be a whole number >= 0, got {value!r}")
            elif isinstance(default, float) and ((number := as_number(value)) is None or not 0 < number <= 1e6):
                raise ValueError(f"{where}: {key} must be a number above 0, got {value!r}")
        settings = cls(**section)
        if not 0 < settings.full_share <= 1:
            raise ValueError(f"{where}: full_share must be in (0, 1], got {settings.full_share!r}")
        at_least_one = ("iterations", "boards", "games", "simulations", "cheap_simulations", "considered")
        for key in (*at_least_one, "batch_size", "rank", "generators", "conv_channels"):
            if getattr(settings, key) < 1:
                raise ValueError(f"{where}: {key} must be a whole number >= 1, got {getattr(settings, key)!r}")
        if settings.generators > settings.games:
            raise ValueError(f"{where}: generators ({settings.generators}) must not exceed games ({settings.games})")
        if settings.policy_weight == 0 and settings.value_weight == 0:
            raise ValueError(f"{where}: policy_weight and value_weight are both 0: the network would learn nothing")
        return settings


def start_file(name: str, params: dict[str, Any], start: str, out: Path) -> Path:
    """The policy file a run starts from: ``start`` itself, or for ``"hard@REV"`` the game's hard as git revision
    REV held it, written into ``out`` (so a config names the file it started from even after a new one ships)."""
    if start.startswith(PAST_PREFIX):
        return past_hard_file(name, start[len(PAST_PREFIX) :], out, **params)
    return Path(start)


def shipped_search(search: Any) -> dict[str, Any]:
    """The config's ``search`` settings, checked to be the engine's Gumbel search (what ``--ship`` writes into
    the shipped file with the run's network)."""
    if not isinstance(search, dict) or search.get("kind") != "gumbel":
        raise ValueError(
            f"--ship with --backend gumbel needs the config's \"search\" to be the engine's Gumbel search "
            f'({{"kind": "gumbel", "simulations": N, "considered": M}}), got {search!r}'
        )
    return search


def ship(network: Path, to: Path, search: Any) -> Path:
    """Write the run's ``network`` to ``to`` (the game's shipped hard) with the config's ``search`` settings
    (:func:`shipped_search`): the file then plays as its config says."""
    meta, arrays = read_policy_file(network)
    return write_policy_file(to, {**meta, "search": shipped_search(search)}, arrays)


def board_conv(name: str, batch: Any, s: Settings) -> BoardConv | None:
    """The board convolution ``s.conv_layers`` asks of the game (None: none); a ValueError if it declares no
    board graph."""
    if not s.conv_layers:
        return None
    graph = game_module(name).raw_env.board_graph(batch.engine.game)
    if graph is None:
        raise ValueError(f"{name} declares no board graph: its networks have no board convolution (conv_layers 0)")
    return BoardConv(graph, s.conv_layers, s.conv_channels)


def head_layout(name: str, batch: Any, s: Settings) -> ActionLayout | None:
    """The action layout ``s.head`` asks of the game (None: the plain head); a ValueError if it declares none."""
    if s.head == "plain":
        return None
    layout = game_module(name).raw_env.action_layout(batch.engine.game)
    if layout is None:
        raise ValueError(f"{name} declares no action layout: its networks have the plain head (gumbel head 'plain')")
    return layout


# -- the generator -----------------------------------------------------------------------------------------------
def generate(name: str, params: dict[str, Any], network: Path | None, s: Settings, seed: int, out: Path) -> dict:
    """Self-play of ``s.games`` games with the tree search (the ``network`` file's; None: a network that rates
    every move alike and every position a draw), the fully searched positions written to ``out``."""
    return write_chunk(*self_play(name, params, network, s, seed), out)


def self_play(
    name: str, params: dict[str, Any], network: Path | tuple[dict, dict] | None, s: Settings, seed: int
) -> tuple[dict[str, np.ndarray], int]:
    """:func:`generate`'s games, kept in memory: the recorded positions' arrays and the games finished.
    ``network``: a policy file, its (meta, arrays) as :func:`policies.numpy_policy.read_policy_file` reads
    them (what a generator on another machine is sent), or None."""
    batch = make_batched(name, s.boards, seed=seed, **params)
    players = batch.num_players
    if network is None:
        evaluate = flat_evaluator(players)
    else:
        evaluate = evaluator(NumpyPolicy(network, name=name, params=params), players, compiled_head=True)
    rng = np.random.default_rng(seed)
    wins = bool(s.leaf_wins)
    full = TreeSearch(batch, evaluate, s.boards, s.simulations, s.considered, leaf_wins=wins, seed=seed + 1)
    cheap = TreeSearch(batch, evaluate, s.boards, s.cheap_simulations, s.considered, leaf_wins=wins, seed=seed + 2)
    symmetries = game_module(name).raw_env.symmetries(batch.engine.game) if s.symmetries else []
    record = _Record(s.games, s.boards, players, s.target_width, symmetries, np.random.default_rng([seed, 1]))
    while record.finished < s.games:
        live = np.flatnonzero(~batch.over & (record.game_of >= 0))
        chosen = rng.random(live.size) < s.full_share
        actions = np.full(s.boards, -1, dtype=np.int64)
        for search, rows, keep in ((full, live[chosen], True), (cheap, live[~chosen], False)):
            if rows.size:
                result = search.run(batch, rows)
                actions[rows] = result.action
                if keep:
                    record.add(batch, rows, result.policy, result.value)
        rewards, done = batch.step(actions)
        record.end_step(batch, rewards, done)
    return record.arrays(), record.finished


def write_chunk(data: dict[str, np.ndarray], games: int, out: Path) -> dict[str, Any]:
    """A generator's positions as the chunk file ``out`` (written whole, then renamed: a reader never sees half
    of one); what the run's curve says of it."""
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out.with_suffix(".tmp.npz"), **data)
    os.replace(out.with_suffix(".tmp.npz"), out)
    return {"positions": int(len(data["value"])), "games": games, "path": str(out)}


class _Record:
    """The positions a generator keeps and the games they belong to (each board's game id; -1 once all
    ``games`` have started)."""

    def __init__(self, games: int, boards: int, players: int, width: int, symmetries: list, rng: Any) -> None:
        self.games, self.width, self.rng = games, width, rng
        self.symmetries = [(sym.observation, np.argsort(sym.action), sym.action) for sym in symmetries]
        self.game_of = np.where(np.arange(boards) < games, np.arange(boards), -1)
        self.started, self.finished = min(boards, games), 0
        self.returns = np.zeros((games, players))
        keys = ("obs", "actions", "probs", "seat", "game", "root_value", "legal")
        self.chunks: dict[str, list[np.ndarray]] = {k: [] for k in keys}

    def add(self, batch: Any, rows: np.ndarray, policy: np.ndarray, root_value: np.ndarray) -> None:
        """The positions of ``rows`` with the search's improved ``policy`` and root values by seat (kept in
        seat order from the mover's, as the network gives them)."""
        top = np.argsort(-policy, axis=1)[:, : self.width]
        probs = np.take_along_axis(policy, top, axis=1)
        obs, legal = batch.observe(batch.to_move)[rows], batch.legal_mask(rows)
        if self.symmetries:  # each position through a random symmetry: its observation and its moves alike
            pick = self.rng.integers(len(self.symmetries), size=rows.size)
            for g, (observation, back, action) in enumerate(self.symmetries):
                these = pick == g
                obs[these], top[these] = obs[these][:, observation], back[top[these]]
                legal[these] = legal[these][:, action]
        self.chunks["legal"].append(np.packbits(legal, axis=1))  # the legal moves, a bit each
        self.chunks["obs"].append(obs)
        self.chunks["actions"].append(top.astype(np.int16))
        self.chunks["probs"].append((probs / probs.sum(axis=1, keepdims=True)).astype(np.float32))
        self.chunks["seat"].append(batch.to_move[rows].astype(np.int8))
        from_mover = seats_from_mover(batch.to_move[rows], root_value.shape[1])
        self.chunks["root_value"].append(np.take_along_axis(root_value, from_mover, axis=1).astype(np.float32))
        self.chunks["game"].append(self.game_of[rows])

    def end_step(self, batch: Any, rewards: np.ndarray, done: np.ndarray) -> None:
        playing = self.game_of >= 0
        self.returns[self.game_of[playing]] += rewards[playing]
        ended = np.flatnonzero(done & playing)
        self.finished += ended.size
        batch.reset_where(done)
        for b in ended:
            self.game_of[b] = self.started if self.started < self.games else -1
            self.started += self.started < self.games

    def arrays(self) -> dict[str, np.ndarray]:
        data = {k: np.concatenate(v) if v else np.zeros(0) for k, v in self.chunks.items()}
        from_mover = seats_from_mover(data["seat"], self.returns.shape[1])
        data["value"] = self.returns[data["game"][:, None], from_mover].astype(np.float32)  # results, mover's first
        return data


# -- an iteration's generators: here, or Ray tasks on a cluster ------------------------------------------------
GENERATOR_STRIDE = 2**24  # between the seeds of an iteration's generators (a run of more iterations: never)


def generator_parts(s: Settings, k: int) -> list[tuple[int, Settings]]:
    """Iteration ``k``'s generators: each one's seed and settings (its share of ``s.games``, as even as they
    go). A single generator has the seed a run has always had, so its chunks are those of earlier runs."""
    base = s.seed * 1_000_003 + k
    if s.generators == 1:
        return [(base, s)]
    share, extra = divmod(s.games, s.generators)
    return [(base + g * GENERATOR_STRIDE, replace(s, games=share + (g < extra))) for g in range(s.generators)]


def chunk_path(folder: Path, k: int, g: int, generators: int) -> Path:
    """Generator ``g``'s chunk file of iteration ``k`` (named by the iteration alone when it is the only one)."""
    return folder / (f"chunk_{k:05d}.npz" if generators == 1 else f"chunk_{k:05d}_{g:03d}.npz")


class RayGenerators:
    """An iteration's generators as Ray tasks, one CPU each, on the Ray at ``address`` (``auto``, ``local`` or
    ``HOST:PORT``: :mod:`training.ray_cluster`).

    Each iteration the network's arrays go into Ray's object store once; every task plays its share of the
    games with them (:func:`self_play`) and returns its recorded positions as a Ray object, which the learner
    (this process) writes as the usual chunk file. Tasks rather than actors: a generator keeps nothing from
    one iteration to the next, and Ray runs a task lost with its node again, where its seed makes it play the
    same games. Every node needs swgym installed (the tasks import this module).
    """

    def __init__(self, address: str) -> None:
        start_ray(address)
        import ray  # deferred: Ray lives in .venv-rllib only, and a run without an address never loads it

        self.ray = ray
        self.task = ray.remote(num_cpus=1, max_retries=2)(self_play)

    def run(
        self, name: str, params: dict[str, Any], network: Path | None, parts: list[tuple[int, Settings]]
    ) -> list[tuple[dict[str, np.ndarray], int]]:
        """Every part's (positions, games finished), in the order of ``parts``."""
        weights = None if network is None else self.ray.put(read_policy_file(network))
        return self.ray.get([self.task.remote(name, params, weights, part, seed) for seed, part in parts])


def self_play_iteration(
    name: str, params: dict[str, Any], s: Settings, k: int, network: Path | None, folder: Path,
    cluster: RayGenerators | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Iteration ``k``'s self-play by every generator, here one after another (``cluster`` None) or as Ray
    tasks, written by this process as chunk files in ``folder``; what the run's curve says of them."""
    parts = generator_parts(s, k)
    if cluster is None:
        results = (self_play(name, params, network, part, seed) for seed, part in parts)
    else:
        results = cluster.run(name, params, network, parts)
    made = [write_chunk(data, games, chunk_path(folder, k, g, len(parts))) for g, (data, games) in enumerate(results)]
    if len(made) == 1:
        return made[0]
    total = {key: sum(m[key] for m in made) for key in ("positions", "games")}
    return {**total, "paths": [m["path"] for m in made]}


# -- the learner -------------------------------------------------------------------------------------------------
def load_buffer(folder: Path, limit: int) -> dict[str, np.ndarray]:
    """The newest chunks of ``folder`` up to ``limit`` positions, oldest first."""
    chunks, total = [], 0
    for path in sorted(folder.glob("chunk_*.npz"), reverse=True):
        with np.load(path, allow_pickle=False) as f:
            chunk = {k: f[k] for k in ("obs", "actions", "probs", "value")}
            if "legal" in f.files:  # the legal moves, packed (older chunks have none)
                chunk["legal"] = f["legal"]
            chunk["root_value"] = f["root_value"] if "root_value" in f.files else chunk["value"]  # older chunks
            for key in ("value", "root_value"):  # by seat from the mover's (older chunks: the mover's alone)
                chunk[key] = chunk[key].reshape(len(chunk[key]), -1)
        chunks.append(chunk)
        total += len(chunk["value"])
        if total >= limit:
            break
    keys = [k for k in chunks[0] if all(k in c for c in chunks)]  # "legal" only when every chunk has it
    return {k: np.concatenate([c[k] for c in reversed(chunks)])[-limit:] for k in keys}


def learn(net: Network, optimizer: torch.optim.Optimizer, data: dict[str, np.ndarray], s: Settings, seed: int):
    """``s.epochs`` passes over ``data`` in shuffled minibatches; the mean policy and value losses."""
    obs, actions = torch.as_tensor(data["obs"]), torch.as_tensor(data["actions"].astype(np.int64))
    w, outputs = s.root_value_weight, net.value_head.out_features
    probs = torch.as_tensor(data["probs"])
    target = (1 - w) * data["value"] + w * data["root_value"]
    if target.shape[1] < outputs:
        raise ValueError(f"the replay buffer holds {target.shape[1]} value(s) a position; the network gives {outputs}")
    value = torch.as_tensor(target[:, :outputs], dtype=torch.float32)
    if s.legal_only and "legal" not in data:
        raise ValueError("legal_only: the replay buffer's chunks do not record the legal moves (made before it)")
    packed = data.get("legal") if s.legal_only else None
    gen = torch.Generator().manual_seed(seed)
    losses = []
    for _ in range(s.epochs):
        for rows in torch.randperm(len(value), generator=gen).split(s.batch_size):
            logits, v = net(obs[rows])
            if packed is not None:  # the softmax over the position's legal moves alone
                legal = np.unpackbits(packed[rows.numpy()], axis=1, count=logits.shape[1]).astype(bool)
                logits = logits.masked_fill(~torch.as_tensor(legal), -1e9)
            log_p = torch.log_softmax(logits, dim=1).gather(1, actions[rows])
            policy_loss = -(probs[rows] * log_p).sum(dim=1).mean()
            value_loss = ((v - value[rows]) ** 2).mean()
            optimizer.zero_grad()
            (s.policy_weight * policy_loss + s.value_weight * value_loss).backward()
            optimizer.step()
            losses.append((policy_loss.item(), value_loss.item()))
    return tuple(float(x) for x in np.mean(losses, axis=0))


# -- the run -----------------------------------------------------------------------------------------------------
def train(
    name: str, params: dict[str, Any], s: Settings, out: Path, resume: bool = False, log=print,
    address: str | None = None,
) -> dict:  # fmt: skip
    """Iterations of generate then learn into ``out`` (see the module docstring); the run's summary.
    ``address``: run the generators as Ray tasks there (:class:`RayGenerators`); None: here, without Ray."""
    cluster = None if address is None else RayGenerators(address)  # first: a bad address stops before any work
    torch.set_num_threads(1)
    out.mkdir(parents=True, exist_ok=True)
    log = _also_logged(log, out / "train.log")
    probe = make_batched(name, 1, **params)
    if s.eval_opening_plies and s.eval_every:  # each opening in every seating: whole sets of games only
        try:
            check_duplicate_games(probe.num_players, s.eval_games)
        except ValueError as err:
            raise ValueError(f"gumbel: eval_games with eval_opening_plies: {err}") from None
    torch.manual_seed(s.seed)  # the first weights: a seeded run repeats its chunks
    conv = board_conv(name, probe, s)
    start = start_file(name, params, s.start, out) if s.start else None
    if start is not None:
        net = network_from_file(start, name, params, conv)
    else:
        value_outputs = probe.num_players if s.seat_values else 1
        layout = head_layout(name, probe, s)
        net = Network(probe.obs_size, probe.num_actions, s.hidden, s.activation, layout, s.rank, value_outputs, conv)
    optimizer = torch.optim.Adam(net.parameters(), lr=s.learning_rate)
    state = {"iteration": 0, "curve": [], "minutes": 0.0, "settings": asdict(s)}
    if start is not None:  # the file a run starts from is part of what it measured
        state["start_sha256"] = sha256(start)
    if resume and (out / "checkpoint.json").exists():
        state = json.loads((out / "checkpoint.json").read_text())
        for point in state["curve"]:  # a run begun with one opponent kept its evaluations unnamed
            if "network" in point.get("eval", {}):
                point["eval"] = {state["settings"].get("eval_opponent", "medium"): point["eval"]}
        weights = torch.load(out / "checkpoint.pt", weights_only=True)
        net.load_state_dict(weights["net"])
        optimizer.load_state_dict(weights["optimizer"])
        log(f"[gumbel {name}] resumed at iteration {state['iteration']}")
    search = {"kind": "gumbel", "simulations": s.simulations, "considered": s.considered}
    if s.leaf_wins:
        search["leaf_wins"] = True
    while state["iteration"] < s.iterations:
        clock, k = time.time(), state["iteration"]
        if k == 0 and s.start:
            write_network(net, out / "network.npz", name, params, search)
        network = out / "network.npz" if k > 0 or s.start else None
        made = self_play_iteration(name, params, s, k, network, out / "games", cluster)
        losses = learn(net, optimizer, load_buffer(out / "games", s.buffer_positions), s, s.seed + k)
        write_network(net, out / "network.npz", name, params, search)
        state["iteration"] = k + 1
        state["minutes"] += (time.time() - clock) / 60
        state["curve"].append({"iteration": k + 1, "minutes": round(state["minutes"], 2), **made, "losses": losses})
        torch.save({"net": net.state_dict(), "optimizer": optimizer.state_dict()}, out / "checkpoint.pt")
        (out / "checkpoint.json").write_text(json.dumps(state, indent=2))
        log(
            f"[gumbel {name}] iteration {k + 1}/{s.iterations}, {state['minutes']:.1f} min: {made['games']} games, "
            f"{made['positions']} positions{_by_generators(s)}, policy loss {losses[0]:.3f}, value loss {losses[1]:.3f}"
        )
        if s.eval_every and (k + 1) % s.eval_every == 0:
            evaluated = out / "networks" / f"iteration_{k + 1:05d}.npz"  # kept: the best one may not be the last
            evaluated.parent.mkdir(exist_ok=True)
            shutil.copyfile(out / "network.npz", evaluated)
            state["curve"][-1]["eval"] = evaluate(name, params, evaluated, s, seed=k, log=log)
            state["curve"][-1]["network"] = str(evaluated.relative_to(out))
            (out / "checkpoint.json").write_text(json.dumps(state, indent=2))
            log(f"[gumbel {name}] iteration {k + 1}: {_eval_line(state['curve'][-1]['eval'])}")
            write_curve(state["curve"], out / "learning_curve.png", f"{name}: score by training hour")
    return {"network": str(out / "network.npz"), **state}


def _also_logged(log, path: Path):
    """``log``, each line also appended to ``path`` after the time: a run's plain log, across its resumes."""

    def both(line: str) -> None:
        log(line)
        with path.open("a") as f:
            f.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {line}\n")

    return both


def _by_generators(s: Settings) -> str:
    return f" from {s.generators} generators" if s.generators > 1 else ""


def write_curve(curve: list[dict[str, Any]], path: Path, title: str) -> Path | None:
    """The evaluations' scores (wins + half the draws) by wall-clock hour against each opponent, the network
    alone and with its search, as a PNG; None when there is no evaluation yet."""
    points = [c for c in curve if "eval" in c]
    if not points:
        return None
    import matplotlib  # loaded for the picture only

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 3.8))
    opponents = sorted({o for c in points for o in c["eval"]}, key=lambda o: (o != "medium", o))
    for opponent in opponents:
        here = [c for c in points if opponent in c["eval"]]
        for label, style in (("network", "--"), ("search", "-")):
            scores = [score_share(*c["eval"][opponent][label]) for c in here]
            who = "network alone" if label == "network" else "network + search"
            ax.plot([c["minutes"] / 60 for c in here], scores, style, marker="o", label=f"{who} vs {opponent}")
    ax.set(xlabel="training hours (this machine)", ylabel="score (wins + draws / 2)", ylim=(0, 1), title=title)
    ax.axhline(0.5, color="grey", lw=0.5)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def evaluate(
    name: str, params: dict[str, Any], network: Path, s: Settings, seed: int, log=lambda line: None
) -> dict[str, dict[str, list[int]]]:
    """Per opponent of ``s.eval_opponents``: wins, draws and losses of the network alone (greedy) and with its
    search, ``s.eval_games`` games each, seats alternated (on random openings: ``s.eval_opening_plies``)."""
    players = (
        ("network", NumpyPolicy(network, name=name, params=params)),
        ("search", load(name, str(network), seed=seed, **params)),
    )  # play_series seeds them again for every game
    out: dict[str, dict[str, list[int]]] = {}
    for opponent in s.eval_opponents:
        out[opponent] = {}
        for label, player in players:
            result = play_series(
                name, [player, opponent], s.eval_games, seed=seed, opening_plies=s.eval_opening_plies, **params
            )
            out[opponent][label] = [result.wins[0], result.draws[0], result.losses[0]]
            log(f"[gumbel {name}] evaluated: {label} vs {opponent} {_wdl(out[opponent][label])}")
    return out


def _wdl(wdl: list[int]) -> str:
    return f"{wdl[0]} W / {wdl[1]} D / {wdl[2]} L (score {score_share(*wdl):.0%})"


def _eval_line(result: dict[str, dict[str, list[int]]]) -> str:
    return "; ".join(
        f"{label} vs {opponent} {_wdl(wdl)}" for opponent, by_label in result.items() for label, wdl in by_label.items()
    )


__all__ = [
    "RayGenerators",
    "Settings",
    "generate",
    "generator_parts",
    "head_layout",
    "learn",
    "load_buffer",
    "self_play",
    "ship",
    "shipped_search",
    "start_file",
    "self_play_iteration",
    "train",
    "write_chunk",
]
