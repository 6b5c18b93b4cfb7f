"""Self-play PPO on Ray RLlib's new API stack (RLModule, Learner, EnvRunner), exported to a numpy policy file.

Out of the box RLlib 2.60 cannot train on these envs (``No default encoder config
for obs space=Dict(...)``): the AEC env is turn-based and its observation is a
Dict with the mask. This module is the adaptation:

* :class:`TurnBasedMultiAgentEnv`: the AEC env as an RLlib ``MultiAgentEnv``;
  only the agent to move gets an observation, ``{"observations", "action_mask"}``
  (the keys RLlib's action-masking example module reads); a seat's reward
  arrives when it next comes up (PettingZoo's ``last()``, through the one drive
  loop ``envs.core.match.next_turn``); at the end every seat gets its last
  observation and reward.
* :class:`MaskedActorCritic`: a small torch RLModule with the towers of
  ``training/export.py`` (policy and value MLPs, one head each), whose logits
  are pushed to the float minimum on illegal actions, so no illegal move is
  ever sampled or learned.
* :func:`train`: one shared policy ``main`` that plays a seat drawn per episode
  against itself and a league of frozen snapshots of itself (slots
  ``snapshot_<k>``, refreshed round robin), evaluated against the built-in
  opponents through its numpy export (:func:`export_arrays`).

Needs the ``rllib`` extra (``ray[rllib]==2.60.0``, which pins gymnasium 1.2.2:
keep it in a virtualenv of its own, see the Makefile's ``.venv-rllib``).
"""

from __future__ import annotations

import json
import time
import zlib
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.utils.torch_utils import FLOAT_MIN
from torch import nn

from envs.core.match import next_turn
from envs.registry import make_raw
from policies.evaluation import evaluate as series
from policies.numpy_policy import FORMAT_VERSION, NumpyPolicy, write_policy_file
from training.network import TORCH_ACTIVATIONS
from training.ray_cluster import start_ray

OBS_KEY, MASK_KEY = "observations", "action_mask"  # what RLlib's action-masking RLModule example reads
CONFIG_DIR = Path(__file__).resolve().parent / "configs"

DEFAULTS: dict[str, Any] = {
    "iterations": 20,
    "net_arch": [128, 128],  # replaced by the game's training config's, so both backends build one network
    "activation": "tanh",
    "train_batch_size": 4000,  # env steps per iteration, over all env runners
    "minibatch_size": 512,
    "num_epochs": 4,
    "lr": 3e-4,
    "gamma": 0.99,
    "entropy_coeff": 0.01,
    "snapshots": 4,  # frozen league slots
    "snapshot_every": 5,  # iterations between copies of main into the next slot
    "self_play_share": 0.5,  # an opponent seat is main itself this often, else a snapshot
    "eval_every": 5,  # iterations; 0: only at the end
    "eval_games": 20,
    "eval_opponents": ["random", "easy"],
    "num_env_runners": None,  # None: one per CPU of the cluster, less the driver's
    "num_envs_per_env_runner": 8,
    "seed": 0,
}


# -- the env -----------------------------------------------------------------------------------------------------
class TurnBasedMultiAgentEnv(MultiAgentEnv):
    """An AEC game as an RLlib multi-agent env: one observation per step, for the agent to move.

    ``config``: ``{"game": name, "params": {rule: value}}`` (RLlib hands the
    env config in). Observations are ``{"observations": float32 vector,
    "action_mask": float32 0/1}``; the mask of the final observations (no one
    moves) is all ones so that no network ever reads an all-masked row.
    """

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        if "game" not in config:
            raise ValueError("TurnBasedMultiAgentEnv needs config['game'] (a swgym game name)")
        self.game_name, self.params = config["game"], dict(config.get("params") or {})
        self.raw = make_raw(self.game_name, **self.params)
        self.possible_agents = list(self.raw.possible_agents)
        self.agents = list(self.possible_agents)
        first = self.possible_agents[0]
        inner = self.raw.observation_space(first)["observation"]
        self.num_actions = int(self.raw.action_space(first).n)
        space = gym.spaces.Dict(
            {
                OBS_KEY: gym.spaces.Box(0.0, 1.0, inner.shape, np.float32),
                MASK_KEY: gym.spaces.Box(0.0, 1.0, (self.num_actions,), np.float32),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: self.raw.action_space(a) for a in self.possible_agents}

    def _obs(self, agent: str) -> dict[str, np.ndarray]:
        o = self.raw.observe(agent)
        mask = o["action_mask"].astype(np.float32)
        if not mask.any():
            mask[:] = 1.0
        return {OBS_KEY: np.asarray(o["observation"], dtype=np.float32).reshape(-1), MASK_KEY: mask}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self.raw.reset(seed=seed)
        self.agents = list(self.possible_agents)
        agent = self.raw.agent_selection
        return {agent: self._obs(agent)}, {}

    def step(self, action_dict: dict[str, Any]):
        agent = self.raw.agent_selection
        if agent not in action_dict:
            raise ValueError(
                f"{self.game_name}: {agent} is to move, but the actions given are for {sorted(action_dict)}"
            )
        self.raw.step(int(action_dict[agent]))
        before = self.agents
        gained = dict.fromkeys(self.possible_agents, 0.0)
        mover = next_turn(self.raw, returns=gained)  # the one drive loop: steps out seats that are done
        self.agents = list(self.raw.agents)
        obs: dict[str, Any] = {}
        terminated: dict[str, bool] = {}
        for a in before:  # seats out of the game (or all, at its end) get their last observation
            if a not in self.agents:
                obs[a], terminated[a] = self._obs(a), True
        if mover is not None:
            obs[mover] = self._obs(mover)
        rewards = {a: r for a, r in gained.items() if r != 0.0 or a in obs}
        terminated["__all__"] = mover is None
        return obs, rewards, terminated, {"__all__": False}, {}


# -- the RLModule ------------------------------------------------------------------------------------------------
def _tower(sizes: list[int], activation: str) -> nn.Sequential:
    layers: list[nn.Module] = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        layers += [nn.Linear(n_in, n_out), TORCH_ACTIVATIONS[activation]()]
    return nn.Sequential(*layers)


class MaskedActorCritic(TorchRLModule, ValueFunctionAPI):
    """Policy and value MLPs (no shared layers) over ``obs["observations"]``, illegal logits at the float minimum.

    ``model_config``: ``{"net_arch": [hidden sizes], "activation": "tanh" | "relu"}``.
    The layout is ``training/export.py``'s (``pi_net`` + ``action_head``,
    ``vf_net`` + ``value_head``), so :func:`export_arrays` maps it one to one.
    """

    def setup(self) -> None:
        config = dict(self.model_config or {})
        hidden = list(config.get("net_arch", DEFAULTS["net_arch"]))
        activation = config.get("activation", DEFAULTS["activation"])
        if activation not in TORCH_ACTIVATIONS:
            raise ValueError(f"activation must be one of {sorted(TORCH_ACTIVATIONS)}, got {activation!r}")
        if (
            not isinstance(self.observation_space, gym.spaces.Dict)
            or OBS_KEY not in self.observation_space.spaces
            or MASK_KEY not in self.observation_space.spaces
        ):
            raise ValueError(
                f"MaskedActorCritic needs a Dict observation space with {OBS_KEY!r} and {MASK_KEY!r}, "
                f"got {self.observation_space}"
            )
        obs_size = int(np.prod(self.observation_space[OBS_KEY].shape))
        width = hidden[-1] if hidden else obs_size
        self.pi_net = _tower([obs_size, *hidden], activation)
        self.vf_net = _tower([obs_size, *hidden], activation)
        self.action_head = nn.Linear(width, int(self.action_space.n))
        self.value_head = nn.Linear(width, 1)

    def _forward(self, batch: dict[str, Any], **kwargs) -> dict[str, Any]:
        obs = batch[Columns.OBS]
        logits = self.action_head(self.pi_net(obs[OBS_KEY]))
        illegal = torch.clamp(torch.log(obs[MASK_KEY]), min=FLOAT_MIN)
        return {Columns.ACTION_DIST_INPUTS: logits + illegal}

    def _forward_train(self, batch: dict[str, Any], **kwargs) -> dict[str, Any]:
        return self._forward(batch, **kwargs)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        return self.value_head(self.vf_net(batch[Columns.OBS][OBS_KEY])).squeeze(-1)


# -- export ------------------------------------------------------------------------------------------------------
def export_arrays(
    weights: dict[str, Any],
    name: str,
    params: dict[str, Any],
    observation_size: int,
    num_actions: int,
    activation: str = "tanh",
    extra_meta: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """(meta, arrays) of a policy file from a :class:`MaskedActorCritic`'s weights (its ``state_dict``,
    tensors or numpy arrays): ``pi_net.<2i>`` -> ``pi_w<i>`` (transposed to (in, out)), and so on."""
    arrays: dict[str, np.ndarray] = {}
    counts = {}
    for tower, prefix in (("pi_net", "pi"), ("vf_net", "vf")):
        indices = sorted({int(k.split(".")[1]) for k in weights if k.startswith(f"{tower}.")})
        for i, index in enumerate(indices):
            arrays[f"{prefix}_w{i}"] = _array(weights[f"{tower}.{index}.weight"]).T.copy()
            arrays[f"{prefix}_b{i}"] = _array(weights[f"{tower}.{index}.bias"])
        counts[prefix] = len(indices)
    for head, part in (("action_head", "action"), ("value_head", "value")):
        arrays[f"{part}_w"] = _array(weights[f"{head}.weight"]).T.copy()
        arrays[f"{part}_b"] = _array(weights[f"{head}.bias"])
    meta = {
        "format": FORMAT_VERSION,
        "game": name,
        "params": params,
        "observation_shape": [observation_size],
        "num_actions": num_actions,
        "activation": activation,
        "layers": counts,
        "trained_with": "rllib",
        **(extra_meta or {}),
    }
    return meta, arrays


def _array(value: Any) -> np.ndarray:
    if isinstance(value, torch.Tensor):
        value = value.detach().cpu().numpy()
    return np.asarray(value, dtype=np.float32)


# -- training ----------------------------------------------------------------------------------------------------
def settings(name: str, **overrides: Any) -> dict[str, Any]:
    """The run's settings: :data:`DEFAULTS`, the network of the game's SB3 training config, then ``overrides``."""
    unknown = set(overrides) - set(DEFAULTS) - {"params"}
    if unknown:
        raise ValueError(f"unknown RLlib setting(s) {sorted(unknown)}; known: {sorted(DEFAULTS)}")
    out = {**DEFAULTS, "params": {}}
    path = CONFIG_DIR / f"{name}.json"
    if path.exists():
        config = json.loads(path.read_text())
        out["net_arch"] = config.get("net_arch", out["net_arch"])
        out["activation"] = config.get("activation", out["activation"])
        out["params"] = dict(config.get("params", {}))
    out.update({k: v for k, v in overrides.items() if v is not None})
    make_raw(name, **out["params"])  # an unknown game or bad rules are named here, before Ray starts
    return out


def _seat_hash(episode_id: Any, salt: str) -> int:
    return zlib.crc32(f"{episode_id}/{salt}".encode())


def make_mapping(possible_agents: list[str], snapshots: int, self_play_share: float):
    """The agent -> module mapping, drawn per episode from its id: ``main`` holds one seat; each other seat
    is ``main`` (shared policy) with ``self_play_share``, else one of the frozen snapshot slots."""
    n = len(possible_agents)

    def mapping(agent_id: str, episode: Any, **kwargs: Any) -> str:
        eid = getattr(episode, "id_", episode)
        seat = possible_agents.index(agent_id)
        if seat == _seat_hash(eid, "main") % n:
            return "main"
        draw = _seat_hash(eid, agent_id)
        if snapshots == 0 or (draw % 1000) / 1000 < self_play_share:
            return "main"
        return f"snapshot_{(draw // 1000) % snapshots}"

    return mapping


def build_config(name: str, s: dict[str, Any]):
    """The RLlib ``PPOConfig`` of a run with settings ``s`` (see :func:`settings`)."""
    from ray.rllib.algorithms.ppo import PPOConfig  # Ray is in .venv-rllib only: loaded when a run starts
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.tune.registry import register_env

    register_env("swgym_turn_based", TurnBasedMultiAgentEnv)
    probe = TurnBasedMultiAgentEnv({"game": name, "params": s["params"]})
    modules = ["main"] + [f"snapshot_{k}" for k in range(s["snapshots"])]
    model = {"net_arch": list(s["net_arch"]), "activation": s["activation"]}
    spec = MultiRLModuleSpec(
        rl_module_specs={m: RLModuleSpec(module_class=MaskedActorCritic, model_config=model) for m in modules}
    )
    runners = s["num_env_runners"]
    return (
        PPOConfig()
        # RLlib's env check steps random actions, blind to the mask: the env refuses them (RuleError)
        .environment("swgym_turn_based", env_config={"game": name, "params": s["params"]}, disable_env_checking=True)
        .env_runners(
            num_env_runners=runners, num_envs_per_env_runner=s["num_envs_per_env_runner"], num_cpus_per_env_runner=1
        )
        .multi_agent(
            policies=set(modules),
            policies_to_train=["main"],
            policy_mapping_fn=make_mapping(probe.possible_agents, s["snapshots"], s["self_play_share"]),
        )
        .rl_module(rl_module_spec=spec)
        .training(
            train_batch_size_per_learner=s["train_batch_size"],
            minibatch_size=s["minibatch_size"],
            num_epochs=s["num_epochs"],
            lr=s["lr"],
            gamma=s["gamma"],
            entropy_coeff=s["entropy_coeff"],
        )
        .debugging(seed=s["seed"], log_level="ERROR")
        .reporting(metrics_num_episodes_for_smoothing=20)
    ), probe


def copy_module(algo: Any, source: str, target: str) -> None:
    """Put module ``source``'s weights into ``target`` in the learner and every env runner, and wait for it.

    Not ``EnvRunnerGroup.sync_weights``: that is fire-and-forget, and an env
    runner skips a state whose weights sequence number it has already seen
    (the learner's did not change for a frozen module), so the runners would
    keep the old snapshot. A state without that number is always applied.
    """
    from ray.rllib.core import COMPONENT_RL_MODULE  # Ray is in .venv-rllib only: loaded when a run starts

    weights = algo.learner_group.get_weights(module_ids=[source])[source]
    algo.learner_group.set_weights({target: weights})
    state = {COMPONENT_RL_MODULE: {target: weights}}
    algo.env_runner_group.foreach_env_runner(lambda runner: runner.set_state(state), local_env_runner=True)


def main_policy(
    algo: Any, name: str, s: dict[str, Any], probe: TurnBasedMultiAgentEnv, extra_meta: dict[str, Any] | None = None
) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """(meta, arrays) of the policy file of ``main`` as the learner holds it now."""
    weights = algo.learner_group.get_weights(module_ids=["main"])["main"]
    size = int(np.prod(probe.observation_spaces[probe.possible_agents[0]][OBS_KEY].shape))
    return export_arrays(weights, name, s["params"], size, probe.num_actions, s["activation"], extra_meta)


def evaluate(
    name: str, params: dict[str, Any], policy: NumpyPolicy, opponents: list[str], games: int, seed: int = 0
) -> dict[str, dict[str, float]]:
    """Win / draw / loss rates of ``policy`` against each built-in opponent (seats rotated), numpy only."""

    n = make_raw(name, **params).game.num_players
    out = {}
    for opponent in opponents:
        r = series(name, [policy] + [opponent] * (n - 1), games, seed=seed, quiet=True, **params)
        out[opponent] = {"win": r.wins[0] / r.games, "draw": r.draws[0] / r.games, "loss": r.losses[0] / r.games}
    return out


def train(name: str, out_dir: str | Path, address: str | None = None, log=print, **overrides: Any) -> dict[str, Any]:
    """Self-play PPO on RLlib for ``name``; writes ``<out_dir>/<name>_rllib.npz`` and ``summary.json``.

    ``address``: a running Ray cluster (``ray start --head`` / ``auto``); None starts Ray here, with as many
    env runners as the machine has cores less one (at least one).
    """
    s = settings(name, **overrides)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    cpus = start_ray(address)
    if s["num_env_runners"] is None:
        s["num_env_runners"] = max(1, cpus - 1)
    config, probe = build_config(name, s)
    algo = config.build_algo()
    try:
        for k in range(s["snapshots"]):
            copy_module(algo, "main", f"snapshot_{k}")
        curve, started, steps, next_slot = [], time.perf_counter(), 0, 0
        for it in range(1, s["iterations"] + 1):
            result = algo.train()
            steps = int(
                result.get("num_env_steps_sampled_lifetime", 0)
                or result.get("env_runners", {}).get("num_env_steps_sampled_lifetime", 0)
            )
            point = {"iteration": it, "env_steps": steps, "seconds": round(time.perf_counter() - started, 1)}
            if s["snapshots"] and it % s["snapshot_every"] == 0:
                copy_module(algo, "main", f"snapshot_{next_slot}")
                next_slot = (next_slot + 1) % s["snapshots"]
            if (s["eval_every"] and it % s["eval_every"] == 0) or it == s["iterations"]:
                meta, arrays = main_policy(algo, name, s, probe)
                policy = NumpyPolicy((meta, arrays), name=name, params=s["params"])
                point["eval"] = evaluate(name, s["params"], policy, s["eval_opponents"], s["eval_games"], s["seed"])
            curve.append(point)
            log(json.dumps(point))
        meta, arrays = main_policy(algo, name, s, probe, {"env_steps": steps})
        path = write_policy_file(out_dir / f"{name}_rllib.npz", meta, arrays)
    finally:
        algo.stop()
    summary = {
        "game": name,
        "policy": str(path),
        "env_steps": steps,
        "seconds": curve[-1]["seconds"],
        "env_runners": s["num_env_runners"],
        "curve": curve,
        "settings": {k: v for k, v in s.items() if k != "eval_opponents"},
    }
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def throughput(
    name: str, env_runners: int, iterations: int = 6, address: str | None = None, **overrides: Any
) -> dict[str, Any]:
    """Env steps/s (every seat's move is one step) of self-play PPO, sampling and updates together, over
    iterations 2.. (the first warms up); for results/2026-11-rllib.md."""
    s = settings(name, **{"num_env_runners": env_runners, **overrides})
    start_ray(address)
    config, _ = build_config(name, s)
    algo = config.build_algo()
    try:
        algo.train()
        first = algo.metrics.peek(("env_runners", "num_env_steps_sampled_lifetime"), default=0)
        started = time.perf_counter()
        for _ in range(iterations - 1):
            result = algo.train()
        seconds = time.perf_counter() - started
        last = result["env_runners"]["num_env_steps_sampled_lifetime"]
    finally:
        algo.stop()
    return {
        "game": name,
        "env_runners": env_runners,
        "envs_per_runner": s["num_envs_per_env_runner"],
        "batch": s["train_batch_size"],
        "env_steps": int(last - first),
        "seconds": round(seconds, 1),
        "env_steps_per_s": round((last - first) / seconds),
    }
