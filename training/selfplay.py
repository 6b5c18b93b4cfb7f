"""Self-play training with sb3-contrib MaskablePPO, on the batched vector env where the game has an engine.

A game with a batched engine (``envs.GAMES[name].batched``) trains on
``config["vector"]["num_envs"]`` boards at once (:mod:`training.sb3_vec`),
with the ``vector`` section's PPO settings over the config's; the others on
``n_envs`` single-agent envs (``"env": "single"`` forces that path, the one
the shipped networks were trained on). The learner's seat is drawn each episode (by the env). Its opponents come
from a pool: random and the medium bot early on, then frozen snapshots of the
learner itself, refreshed by :class:`SelfPlayCallback`. A config with an
``imitation`` section first has the network imitate a teacher bot
(:mod:`training.imitation`), the warm start for games whose random play
gives no signal. Every ``eval.every``
steps the current network plays the evaluation opponent; the curve is kept as
CSV and drawn as a PNG. The final network is exported to a numpy policy file.
Every ``checkpoint.every`` steps the run folder gets a checkpoint (weights and
optimizer, pool, curve); ``train(..., resume=True)`` goes on from it.
"""

from __future__ import annotations

import csv
import json
import os
import pickle  # only for its error type: checkpoints load with weights_only=True
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

from envs.play import play_series
from envs.registry import GAMES, entry, make_raw
from envs.single_agent import SingleAgentEnv
from policies.network import NetworkSpec
from training.buffers import buffer_kwargs
from training.config import CONFIG_DIR, DEFAULTS, ENV_PATHS, load_config  # noqa: F401 (its names here too)
from training.export import add_value_members, export_policy, to_numpy_policy
from training.factored_policy import ppo_policy
from training.imitation import Recording, collect, collect_batched, pretrain
from training.network import TORCH_ACTIVATIONS, sb3_policy_kwargs
from training.pool import BatchPool, PoolOpponent, cap_bot_share
from training.progress import Progress, tee_log
from training.shaping import BATCH_POTENTIALS, ShapedReward, ShapedVecEnv, check_potential
from training.value_fit import fit_value_towers, replace_value


def value_member_config(config: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """The config of one extra value network: ``config`` with ``override`` merged in
    (one level deep for sections such as ``imitation`` and ``ppo``)."""
    member = json.loads(json.dumps({k: v for k, v in config.items() if k not in ("value_members", "value_fit")}))
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(member.get(key), dict):
            member[key] = {**member[key], **value}
        else:
            member[key] = value
    return member


def uses_vector_env(config: dict[str, Any]) -> bool:
    """Whether ``config`` trains on the batched vector env: ``env`` "auto" picks it when the game has an engine.

    Reward shaping exists on the vector env for the potentials it can compute
    from observations (:data:`training.shaping.BATCH_POTENTIALS`, Twirls'), on
    the single-agent env for all: "auto" keeps a config with another potential
    there; "vector" for a game without an engine (or with such shaping) is an
    error that says so.
    """
    name, mode = config["game"], config.get("env", "auto")
    if mode not in ENV_PATHS:
        raise ValueError(f"config env must be one of {ENV_PATHS}, got {mode!r}")
    has_engine = bool(entry(name).batched)
    if mode == "vector" and not has_engine:
        with_engine = ", ".join(n for n, e in GAMES.items() if e.batched)
        raise ValueError(f"config env 'vector': {name} has no batched engine yet (games with one: {with_engine})")
    shaping = config.get("shaping")
    if shaping:
        if not isinstance(shaping, dict):
            raise ValueError(f'config shaping must be {{"potential": NAME, "scale": s}}, got {shaping!r}')
        check_potential(name, shaping.get("potential"))
    single_only = bool(shaping) and shaping.get("potential") not in BATCH_POTENTIALS
    if mode == "vector" and single_only:
        raise ValueError(
            f"config env 'vector': {name}'s config has reward shaping, which only the single-agent env applies "
            f"(the vector env's potentials: {', '.join(BATCH_POTENTIALS)})"
        )
    return mode == "vector" or (mode == "auto" and has_engine and not single_only)


def run_settings(config: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """(number of envs or boards, PPO keywords) of the path ``config`` trains on (:func:`uses_vector_env`)."""
    if uses_vector_env(config):
        return int(config["vector"]["num_envs"]), {**config["ppo"], **config["vector"]["ppo"]}
    return int(config["n_envs"]), dict(config["ppo"])


def _pool_members(name: str, weights: dict[str, float], snapshots: list[Path]) -> tuple[list, list]:
    members, w = [], []
    for bot in ("random", "easy", "medium", "hard"):
        if weights.get(bot, 0) > 0:
            members.append(bot)
            w.append(weights[bot])
    share = weights.get("snapshots", 0)
    if share > 0 and snapshots:
        members += [str(p) for p in snapshots]
        w += [share / len(snapshots)] * len(snapshots)
    return members, w


class SelfPlayCallback(BaseCallback):
    """Snapshots the learner into the opponent pool and records the evaluation curve."""

    def __init__(self, config: dict[str, Any], out_dir: Path, verbose: int = 0) -> None:
        super().__init__(verbose)
        self.config = config
        self.name, self.params = config["game"], config["params"]
        self.out_dir = out_dir
        self.vector = uses_vector_env(config)
        self.snapshots: list[Path] = []
        self.curve: list[dict[str, float]] = []
        self.next_snapshot = config["pool"]["snapshot_every"]
        self.next_eval = config["eval"]["every"]
        self.next_checkpoint = config["checkpoint"]["every"]
        self.phase = "start"
        self.minutes_before = 0.0  # training minutes of the run before it was resumed
        self.started = time.time()
        self.num_players = make_raw(self.name, **self.params).game.num_players
        self.bar: Progress | None = None  # the PPO phase's progress lines, from the start of learn()

    def set_pool(self, weights: dict[str, float]) -> None:
        members, w = _pool_members(self.name, weights, self.snapshots)
        n_opp = self.num_players - 1
        if self.vector:  # one pool per other seat, a member per board and episode; bots on a share of boards
            w = cap_bot_share(members, w, self.config["vector"].get("max_bot_share"))
            pools = [
                BatchPool(self.name, members, w, self.params, seed=[self.config["seed"], s, len(self.snapshots)])
                for s in range(n_opp)
            ]
            self.training_env.env_method("set_opponents", pools)
            return
        for i in range(self.training_env.num_envs):
            pools = [PoolOpponent(self.name, members, w, self.params, seed=1000 * i + s) for s in range(n_opp)]
            self.training_env.env_method("set_opponents", pools, indices=[i])

    def _on_training_start(self) -> None:
        self.set_pool(self.config["pool"][self.phase])
        total = self.config["total_timesteps"]
        self.bar = Progress("ppo", self.name, total, "env steps", start=self.num_timesteps)

    def _on_rollout_start(self) -> None:
        every = self.config["checkpoint"]["every"]
        if every and self.num_timesteps >= self.next_checkpoint:
            self.next_checkpoint = (self.num_timesteps // every + 1) * every
            self.save_checkpoint()

    def _on_step(self) -> bool:
        if self.bar is not None:
            self.bar.update(min(self.num_timesteps, self.bar.total))
        if self.num_timesteps >= self.next_snapshot:
            self.next_snapshot += self.config["pool"]["snapshot_every"]
            path = export_policy(
                self.model.policy, self.out_dir / "snapshots" / f"step_{self.num_timesteps}.npz", self.name, self.params
            )
            self.snapshots = (self.snapshots + [path])[-self.config["pool"]["max_snapshots"] :]
            self.phase = "later"
            self.set_pool(self.config["pool"]["later"])
        if self.num_timesteps >= self.next_eval:
            self.next_eval += self.config["eval"]["every"]
            self.evaluate(self.model.policy, self.num_timesteps)
        return True

    def evaluate(self, policy, timesteps: int) -> float:
        """Win rate of ``policy`` against the evaluation opponent; one point of the learning curve."""
        rate, draws = evaluate_policy(self.config, policy, seed=len(self.curve))
        self.curve.append(
            {
                "timesteps": timesteps,
                "win_rate": rate,
                "draw_rate": draws,
                "minutes": self.minutes_before + (time.time() - self.started) / 60,
            }
        )
        opponent = self.config["eval"]["opponent"]
        if getattr(self, "model", None) is not None and timesteps:
            self.logger.record(f"eval/win_rate_vs_{opponent}", rate)
        write_curve_csv(self.curve, self.out_dir)
        print(
            f"[{self.name}] {timesteps} steps, {self.curve[-1]['minutes']:.1f} min: "
            f"{result_line(rate, draws, self.config['eval']['games'], opponent)} "
            f"({len(self.snapshots)} snapshots in the pool)",
            flush=True,
        )
        return rate

    def save_checkpoint(self) -> Path:
        """Write ``checkpoint/``: the network's and optimizer's weights (torch, no pickle) and the run's state
        (steps, pool, curve); each file replaced whole, so an interruption leaves the previous checkpoint."""
        folder = self.out_dir / "checkpoint"
        folder.mkdir(parents=True, exist_ok=True)
        weights = {"policy": self.model.policy.state_dict(), "optimizer": self.model.policy.optimizer.state_dict()}
        torch.save(weights, folder / "weights.pt.tmp")
        os.replace(folder / "weights.pt.tmp", folder / "weights.pt")
        state = {
            "num_timesteps": int(self.num_timesteps),
            "n_updates": int(self.model._n_updates),
            "snapshots": [str(p.relative_to(self.out_dir)) for p in self.snapshots],  # the run folder may move
            "curve": self.curve,
            "phase": self.phase,
            "next_snapshot": self.next_snapshot,
            "next_eval": self.next_eval,
            "next_checkpoint": self.next_checkpoint,
            "minutes": self.minutes_before + (time.time() - self.started) / 60,
        }
        (folder / "state.json.tmp").write_text(json.dumps(state, indent=2))
        os.replace(folder / "state.json.tmp", folder / "state.json")
        print(f"[{self.name}] checkpoint at {self.num_timesteps} steps: {folder}", flush=True)
        return folder

    def restore(self, model, folder: Path) -> int:
        """Load the checkpoint in ``folder`` into ``model`` and this callback; returns its step count."""
        try:
            state = json.loads((folder / "state.json").read_text())
            weights = torch.load(folder / "weights.pt", map_location="cpu", weights_only=True)
            model.policy.load_state_dict(weights["policy"])
            model.policy.optimizer.load_state_dict(weights["optimizer"])
            model.num_timesteps, model._n_updates = state["num_timesteps"], state["n_updates"]
        except (OSError, ValueError, RuntimeError, KeyError, pickle.UnpicklingError) as err:
            first = str(err).strip().splitlines()[0] if str(err).strip() else ""
            raise ValueError(
                f"cannot resume from {folder}: damaged or not a checkpoint ({type(err).__name__}: {first[:200]})"
            ) from None
        snapshots = [self.out_dir / p for p in state["snapshots"]]
        missing = [str(p) for p in snapshots if not p.exists()]
        if missing:
            raise ValueError(f"cannot resume from {folder}: pool snapshot(s) {missing} are gone")
        self.snapshots = snapshots
        self.curve, self.phase = state["curve"], state["phase"]
        self.next_snapshot, self.next_eval = state["next_snapshot"], state["next_eval"]
        self.next_checkpoint, self.minutes_before = state["next_checkpoint"], state["minutes"]
        return state["num_timesteps"]


def evaluate_policy(config: dict[str, Any], policy, seed: int = 0) -> tuple[float, float]:
    """(win rate, draw rate) of the SB3 ``policy``, as a bare network, against ``config["eval"]``'s opponent."""
    name, params = config["game"], config["params"]
    learner = to_numpy_policy(policy, name, params)
    n = make_raw(name, **params).game.num_players
    opponents = [config["eval"]["opponent"]] * (n - 1)
    games = config["eval"]["games"]
    bar = Progress("evaluation", f"{name} vs {config['eval']['opponent']}", games, "games", announce=False)
    # a probe of the learning curve, any number of games: fresh deals (claims use swgym eval's duplicate deals)
    result = play_series(name, [learner] + opponents, games, seed=seed, progress=bar.update, duplicate=False, **params)
    return result.wins[0] / result.games, result.draws[0] / result.games


def result_line(win_rate: float, draw_rate: float, games: int, opponent: str) -> str:
    """``vs medium: 12 W / 30 D / 8 L of 50 games, score 54%``: a series' outcome, draws shown (score = wins +
    half the draws), so that a game the opponent draws does not read as a loss."""
    wins, draws = round(win_rate * games), round(draw_rate * games)
    return (
        f"vs {opponent}: {wins} W / {draws} D / {games - wins - draws} L of {games} games, "
        f"score {win_rate + draw_rate / 2:.0%}"
    )


def make_vec_env(config: dict[str, Any]):
    """The training VecEnv: the batched vector env (SB3 view) or ``n_envs`` single-agent envs (see the module doc)."""
    name, params = config["game"], config["params"]
    if uses_vector_env(config):
        from training.sb3_vec import make_sb3_vec  # numba loads with the batched engine only

        vec = make_sb3_vec(name, run_settings(config)[0], opponent="random", seed=config["seed"], **params)
        if config.get("shaping"):
            vec = ShapedVecEnv(vec, gamma=config["ppo"]["gamma"], params=params, **config["shaping"])
        return vec

    def factory(i: int):
        def make():
            env = SingleAgentEnv(name, opponent="random", **params)
            if config.get("shaping"):
                env = ShapedReward(env, gamma=config["ppo"]["gamma"], **config["shaping"])
            env.reset(seed=config["seed"] * 1000 + i)
            return env

        return make

    cls = SubprocVecEnv if config["subproc"] and config["n_envs"] > 1 else DummyVecEnv
    return cls([factory(i) for i in range(config["n_envs"])])


def train(
    config: dict[str, Any],
    out_dir: str | Path,
    ship_to: str | Path | None = None,
    progress_bar: bool = True,
    tensorboard: bool = True,
    resume: bool = False,
) -> dict[str, Any]:
    """Train from ``config``; write the policy, curve (CSV, PNG) and summary into ``out_dir``.

    Returns the summary (paths, minutes, final evaluation). ``ship_to`` also
    copies the policy file there (``policies/<game>_hard.npz`` for the shipped one).
    With ``value_members`` (a list of config overrides) one more network is
    trained per entry, into ``out_dir/value_member<k>``, and their value heads
    join the policy file's (the value is their mean; see
    :mod:`policies.numpy_policy`). With ``value_fit``, value towers fitted to
    games recorded on the batched engine then replace the file's value
    (:mod:`training.value_fit`).
    ``resume``: go on from ``out_dir/checkpoint`` (written every
    ``checkpoint.every`` steps) to ``total_timesteps``; without a checkpoint
    there, the run starts afresh.
    """
    out_dir = Path(out_dir)
    with tee_log(out_dir / "train.log"):
        return _train(config, out_dir, ship_to, progress_bar, tensorboard, resume)


def phases(config: dict[str, Any]) -> str:
    """The run's phases and the budget of each, with the ``swgym train`` option that sets it."""
    out = []
    if imitation := config.get("imitation"):
        out.append(f"recording {imitation['games']} games (--imitation-games)")
        out.append(f"imitation {imitation['epochs']} epochs (--imitation-epochs)")
    out.append(f"PPO {config['total_timesteps']} env steps (--steps)")
    evaluation = config["eval"]
    out.append(f"evaluation {evaluation['games']} games vs {evaluation['opponent']} every {evaluation['every']} steps "
               "(--eval-games)")  # fmt: skip
    if config.get("value_members"):
        out.append(f"{len(config['value_members'])} value member run(s) of these phases (their own config overrides)")
    if fit := config.get("value_fit"):
        out.append(f"value fit: {fit['games']} recorded games a tower (the config's value_fit)")
    return "; ".join(out)


def _train(
    config: dict[str, Any], out_dir: Path, ship_to: str | Path | None, progress_bar: bool, tensorboard: bool,
    resume: bool,
) -> dict[str, Any]:  # fmt: skip
    """:func:`train`, its lines copied into the run folder's log."""
    torch.set_num_threads(1)
    resuming = prepare_run_folder(config, out_dir, resume)
    print(f"[{config['game']}] phases: {phases(config)}; log: {out_dir / 'train.log'}", flush=True)
    model, callback, imitation_history, minutes = run_ppo(config, out_dir, resuming, progress_bar, tensorboard)
    extra = {"search": config["search"]} if config.get("search") else None
    policy_path = export_policy(
        model.policy, out_dir / f"{config['game']}_hard.npz", config["game"], config["params"], extra
    )
    summary = {
        "game": config["game"],
        "policy": str(policy_path),
        "timesteps": config["total_timesteps"],
        "trained_timesteps": int(model.num_timesteps),
        "env": "vector" if callback.vector else "single",
        "curve": callback.curve,
    }
    if imitation_history:
        summary["imitation"] = imitation_history
    member_summaries = train_value_members(config, out_dir, policy_path, progress_bar, tensorboard, resume)
    if member_summaries:
        summary["value_members"] = member_summaries
        minutes += sum(m["train_minutes"] for m in member_summaries)
    if config.get("value_fit"):
        summary["value_fit"] = fit_value(config, policy_path, progress_bar)
        minutes += summary["value_fit"]["minutes"]
    if ship_to is not None:
        Path(ship_to).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(policy_path, ship_to)
    write_curve(
        callback.curve,
        out_dir,
        title=f"{config['game']}: win rate of the learner vs {config['eval']['opponent']}",
        imitation=imitation_history,
    )
    summary["train_minutes"] = round(minutes, 2)
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def prepare_run_folder(config: dict[str, Any], out_dir: Path, resume: bool) -> bool:
    """Make ``out_dir`` and write the run's config into it; returns whether the run resumes from its checkpoint
    (an earlier run's checkpoint is removed when it does not; a changed config cannot resume)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    checkpoint = out_dir / "checkpoint"
    resuming = resume and (checkpoint / "state.json").exists()
    if resume and not resuming:
        print(f"[{config['game']}] no checkpoint in {checkpoint}: the run starts afresh", flush=True)
    if not resuming and checkpoint.exists():  # an earlier run's: resuming from it later would mix two runs
        shutil.rmtree(checkpoint)
    if resuming:
        saved = json.loads((out_dir / "config.json").read_text()) if (out_dir / "config.json").exists() else None
        now = json.loads(json.dumps(config))
        if saved is not None and {**saved, "total_timesteps": 0} != {**now, "total_timesteps": 0}:
            changed = sorted(k for k in set(saved) | set(now) if k != "total_timesteps" and saved.get(k) != now.get(k))
            raise ValueError(f"cannot resume {out_dir}: its config.json differs from this run's config in {changed}")
    (out_dir / "config.json").write_text(json.dumps(config, indent=2))
    return resuming


def log_nowhere(model: Any) -> None:
    """Give an SB3 model a logger that writes nothing: with ``verbose=0`` and no tensorboard log, SB3 makes an
    empty folder (``SB3-<date>``) in the system's temporary directory on every ``learn()``."""
    from stable_baselines3.common.logger import Logger

    model.set_logger(Logger(folder=None, output_formats=[]))


def spec_of(config: dict[str, Any], vec: Any) -> NetworkSpec:
    """The network the config's ``net_arch`` and ``activation`` ask for, over ``vec``'s spaces."""
    hidden = tuple(config["net_arch"])
    observations = int(np.prod(vec.observation_space.shape))
    return NetworkSpec(observations, int(vec.action_space.n), hidden, hidden, config["activation"])


def run_ppo(
    config: dict[str, Any], out_dir: Path, resuming: bool, progress_bar: bool, tensorboard: bool
) -> tuple[Any, SelfPlayCallback, list[dict[str, float]] | None, float]:
    """The self-play PPO run (imitation first where the config asks, or on from the checkpoint): the model, its
    callback (curve, pool), the imitation history and the run's minutes."""
    vec = make_vec_env(config)
    n_envs, ppo = run_settings(config)
    policy, head_kwargs = ppo_policy(config["game"], config["params"], config["head"], config["rank"])
    model = MaskablePPO(
        policy,
        vec,
        seed=config["seed"],
        verbose=0,
        tensorboard_log=str(out_dir / "tensorboard") if tensorboard else None,
        policy_kwargs={**sb3_policy_kwargs(spec_of(config, vec)), **head_kwargs},
        **buffer_kwargs(vec),
        **ppo,
    )
    if not tensorboard:
        log_nowhere(model)
    callback = SelfPlayCallback(config, out_dir)
    started = time.time()
    imitation_history = None
    done = 0
    if resuming:
        done = callback.restore(model, out_dir / "checkpoint")
        vec.seed(config["seed"] + done)  # fresh games, not a replay of the run's first ones
        print(f"[{config['game']}] resumed from {out_dir / 'checkpoint'} at {done} steps", flush=True)
    elif config.get("imitation"):
        imitation_history = warm_start(model, config, out_dir)
        callback.evaluate(model.policy, 0)  # the curve's first point: imitation alone
    if config["total_timesteps"] > done:
        model.learn(
            config["total_timesteps"] - done,
            callback=callback,
            progress_bar=progress_bar,
            reset_num_timesteps=not resuming,
        )
        rollout = ppo["n_steps"] * n_envs
        if not callback.curve or model.num_timesteps - callback.curve[-1]["timesteps"] >= rollout:
            callback.evaluate(model.policy, model.num_timesteps)
    vec.close()
    return model, callback, imitation_history, (time.time() - started) / 60 + callback.minutes_before


def train_value_members(
    config: dict[str, Any], out_dir: Path, policy_path: Path, progress_bar: bool, tensorboard: bool, resume: bool
) -> list[dict[str, Any]]:
    """One more network per ``value_members`` entry; their value heads join ``policy_path``'s. Their summaries."""
    summaries = []
    for k, override in enumerate(config.get("value_members", []), 1):
        print(f"[{config['game']}] value member {k}: {override}", flush=True)
        summaries.append(
            train(
                value_member_config(config, override),
                out_dir / f"value_member{k}",
                progress_bar=progress_bar,
                tensorboard=tensorboard,
                resume=resume,
            )
        )
    if summaries:
        add_value_members(policy_path, [m["policy"] for m in summaries])
    return summaries


def fit_value(config: dict[str, Any], policy_path: Path, progress_bar: bool) -> dict[str, Any]:
    """Value towers fitted to games recorded on the batched engine replace ``policy_path``'s value; the fit's
    minutes and histories."""

    clock = time.time()
    towers, histories = fit_value_towers(
        config["game"],
        config["params"],
        config["value_fit"],
        config["net_arch"],
        TORCH_ACTIVATIONS[config["activation"]],
        seed=config["seed"],
        progress=progress_bar,
        folder=policy_path.parent,
    )
    replace_value(policy_path, towers)
    return {"minutes": round((time.time() - clock) / 60, 2), "towers": histories}


def warm_start(model, config: dict[str, Any], out_dir: Path, progress: bool = True) -> list[dict[str, float]]:
    """Behaviour cloning of the config's teacher before self-play (see :mod:`training.imitation`); the recorded
    games wait on disk in the run folder (``recording-*``, deleted after)."""

    settings = config["imitation"]
    batched = {"boards": settings["boards"]} if settings["boards"] else {}
    recording = Recording(
        settings["teacher"], settings["opponents"], settings["games"], seed=config["seed"], gamma=config["ppo"]["gamma"]
    )
    with tempfile.TemporaryDirectory(prefix="recording-", dir=out_dir) as folder:
        demos = (collect_batched if batched else collect)(
            config["game"], config["params"], recording, progress=progress, folder=folder, **batched
        )
        return _imitate(model, config, demos, progress)


def _imitate(model, config: dict[str, Any], demos, progress: bool) -> list[dict[str, float]]:
    """:func:`training.imitation.pretrain` with the config's settings, the bare network evaluated as it asks."""
    settings = config["imitation"]
    every = settings["eval_every_epochs"]

    def evaluate(epoch: int) -> dict[str, float]:
        if not every or (epoch % every and epoch != settings["epochs"]):
            return {}
        win, draw = evaluate_policy(config, model.policy, seed=epoch)
        print(
            f"[imitation] epoch {epoch}: the bare network "
            f"{result_line(win, draw, config['eval']['games'], config['eval']['opponent'])}",
            flush=True,
        )
        return {"win_rate": win, "draw_rate": draw}

    return pretrain(
        model.policy,
        demos,
        epochs=settings["epochs"],
        batch_size=settings["batch_size"],
        learning_rate=settings["learning_rate"],
        value_weight=settings["value_weight"],
        seed=config["seed"],
        progress=progress,
        on_epoch=evaluate,
    )


def write_curve_csv(curve: list[dict[str, float]], out_dir: Path) -> None:
    """learning_curve.csv: the evaluation win rate over training (rewritten after every evaluation)."""
    with open(out_dir / "learning_curve.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["timesteps", "win_rate", "draw_rate", "minutes"])
        writer.writeheader()
        writer.writerows(curve)


def write_curve(
    curve: list[dict[str, float]], out_dir: Path, title: str, imitation: list[dict[str, float]] | None = None
) -> None:
    """learning_curve.csv and learning_curve.png of the evaluation win rate over training.

    With an ``imitation`` history, a first panel shows the warm start by epoch:
    agreement with the teacher and the bare network's win rate where measured.
    """
    write_curve_csv(curve, out_dir)
    import matplotlib  # loaded for the curve's picture only

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = (["imitation"] if imitation else []) + (["ppo"] if any(c["timesteps"] > 0 for c in curve) else [])
    panels = panels or ["ppo"]
    fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 3.5), dpi=100, squeeze=False)
    for ax, panel in zip(axes[0], panels):
        if panel == "imitation":
            epochs = [h["epoch"] for h in imitation]
            ax.plot(epochs, [h["agreement"] for h in imitation], marker=".", label="picks the teacher's move")
            rated = [h for h in imitation if "win_rate" in h]
            ax.plot([h["epoch"] for h in rated], [h["win_rate"] for h in rated], marker="o", label="win")
            ax.plot(
                [h["epoch"] for h in rated], [h["draw_rate"] for h in rated], marker=".", linestyle="--", label="draw"
            )
            ax.set_xlabel("imitation epochs")
        else:
            steps = np.array([c["timesteps"] for c in curve])
            ax.plot(steps, [c["win_rate"] for c in curve], marker="o", label="win")
            ax.plot(steps, [c["draw_rate"] for c in curve], marker=".", linestyle="--", label="draw")
            ax.set_xlabel("training steps (learner moves)")
        ax.set_ylim(0, 1)
        ax.set_ylabel("rate")
        ax.grid(alpha=0.3)
        ax.legend()
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(out_dir / "learning_curve.png")
    plt.close(fig)
