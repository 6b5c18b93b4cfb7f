"""The quick path: ``swgym train GAME --minutes M``, a policy file that plays easy well, within ``M`` minutes.

The full recipes (``training/configs``) take an hour or more; this one fits four phases into a wall-clock
budget, each given a share of it (:data:`PHASES`, or the game's :data:`SHARES`; at its start, each phase takes
its share of the time left among itself and the phases after it, so time a phase leaves or overruns is shared
by those that follow):

* ``record``: games of the teacher bot (``medium``) against a mix of bots, played on the game's batched
  engine in chunks until the phase's time is up or the positions fill :attr:`QuickSettings.max_bytes`;
* ``imitate``: the network (the game's config's ``net_arch``) fits the teacher's moves and the games'
  outcomes (behaviour cloning, as :func:`training.imitation.pretrain`) in minibatches until its time is up;
* ``ppo``: MaskablePPO on the batched vector env against ``easy`` from the imitated network;
* ``evaluate``: the imitated and the PPO network (each as a policy file, with the play-time search of
  :data:`SEARCH` where the game has one) play ``easy``, seats rotated; the better score is written as
  ``<game>_quick.npz`` in the run folder.

Every phase prints what it has done and the seconds it has left; the same lines go to ``log.txt`` in the
run folder. A budget that leaves a phase less than :data:`MIN_SECONDS` is refused, naming the phase.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from envs.play import merge_series, play_series
from envs.registry import make_raw
from training.buffers import buffer_kwargs
from training.export import export_policy
from training.imitation import Demonstrations, Recording, collect_batched, fit_minibatch, teacher_agreement
from training.network import sb3_policy_kwargs
from training.selfplay import log_nowhere, spec_of

PHASES: dict[str, float] = {"record": 0.35, "imitate": 0.25, "ppo": 0.25, "evaluate": 0.15}  # shares of the budget
# the games of thousands of actions, whose PPO runs at a few hundred env steps/s: the time goes to imitation
LARGE_ACTIONS: dict[str, float] = {"record": 0.25, "imitate": 0.5, "ppo": 0.1, "evaluate": 0.15}
SHARES: dict[str, dict[str, float]] = {"twirls": LARGE_ACTIONS, "swish": LARGE_ACTIONS, "squeeze": LARGE_ACTIONS}
MIN_SECONDS = 2.0  # the least time a phase can do anything in
RESERVE = 10.0  # seconds kept after the last phase (at most 2% of the budget) to write the files and the summary
ROUND_MARGIN = 2.0  # the evaluate phase starts a round only if the time left holds this many of the last
# game name -> the play-time search its quick file names (policies/search; results/2026-12-quick-path.md): Swival's
# proves wins and losses two plies deep, else plays the network's move; Swish's and Squeeze's deepen (to 4 plies,
# captures followed) within a work budget, the leaves scored by the value head
SEARCH: dict[str, dict[str, Any]] = {
    "swival": {"depth": 2, "width": 73, "leaf_wins": True, "leaf_value": "none"},
    "swish": {"depth": 4, "root_width": 16, "width": 8, "quiescence": 2, "quiescence_width": 3, "total_work": 20000},
}
SEARCH["squeeze"] = SEARCH["swish"]  # the twin game: the same rooks, the same search
# Twirls' network alone draws most games against easy: the shipped hard's tree search, with an eighth of its
# simulations, finds the connecting moves
SEARCH["twirls"] = {"kind": "gumbel", "considered": 16, "simulations": 32, "leaf_wins": True}
# Swimming's network alone loses to easy (its imitated medium itself wins only 28.5% against three easies): the
# shipped hard's play-outs (easy players, 24 deals) over the network's 10 favourite moves and pass and knock
SEARCH["swimming"] = {
    "kind": "rollouts", "samples": 24, "width": 10, "always": [10, 11], "playout": "easy", "margin_weight": 0.002,
}  # fmt: skip


@dataclass(frozen=True)
class QuickSettings:
    """What the quick path does within its budget (the defaults are the ``swgym train --minutes`` recipe)."""

    teacher: str = "medium"
    opponents: dict[str, float] = field(default_factory=lambda: {"easy": 0.5, "medium": 0.3, "random": 0.2})
    boards: int = 256  # recording: games at a time on the batched engine
    max_bytes: int = 600_000_000  # recording: the most bytes of observations and masks kept
    batch_size: int = 512  # imitation minibatch
    learning_rate: float = 1e-3  # imitation
    value_weight: float = 1.0
    ppo_envs: int = 256
    ppo: dict[str, Any] = field(
        default_factory=lambda: {
            "n_steps": 16, "batch_size": 1024, "n_epochs": 2, "learning_rate": 1e-4, "gamma": 0.99,
            "ent_coef": 0.001, "clip_range": 0.1,
        }
    )  # fmt: skip
    ppo_steps: int | None = None  # the most PPO env steps (None: as many as the phase's time allows)
    eval_games: int = 400  # the most evaluation games per candidate (the phase may end sooner)
    seed: int = 0


# the games of thousands of actions: fewer positions kept (their masks are large), for a run under 2 GB resident
LARGE = QuickSettings(max_bytes=400_000_000)
RECIPES: dict[str, QuickSettings] = {"twirls": LARGE, "swish": LARGE, "squeeze": LARGE}  # by game, else the defaults


def phase_budgets(seconds: float, shares: dict[str, float] = PHASES) -> dict[str, float]:
    """Each phase's share of ``seconds``; refuses a budget that leaves a phase less than :data:`MIN_SECONDS`."""
    budgets = {phase: seconds * share for phase, share in shares.items()}
    short = [f"{phase} {s:.1f} s" for phase, s in budgets.items() if s < MIN_SECONDS]
    if short:
        least = MIN_SECONDS / min(shares.values()) / 60
        raise ValueError(
            f"--minutes {seconds / 60:g} leaves the {', '.join(short)} (each phase needs {MIN_SECONDS:g} s; "
            f"give at least --minutes {least:.2f})"
        )
    return budgets


class Log:
    """Progress lines of a quick run: printed and appended to the run folder's ``log.txt``."""

    def __init__(self, name: str, out_dir: Path) -> None:
        self.name, self.path = name, out_dir / "log.txt"
        self.path.write_text("")

    def __call__(self, text: str) -> None:
        line = f"[quick {self.name}] {time.strftime('%H:%M:%S')} {text}"
        print(line, flush=True)
        with open(self.path, "a") as f:
            f.write(line + "\n")


class Clock:
    """A phase's deadline and its progress lines, at most one every ``every`` seconds."""

    def __init__(self, phase: str, deadline: float, log: Log, every: float = 10.0) -> None:
        self.phase, self.deadline, self.log, self.every = phase, deadline, log, every
        self.started = self.last = time.time()
        log(f"{phase}: starts, {self.left():.0f} s for it")

    def left(self) -> float:
        return max(0.0, self.deadline - time.time())

    def over(self) -> bool:
        return time.time() >= self.deadline

    def tick(self, text: str, force: bool = False) -> None:
        if force or time.time() - self.last >= self.every:
            self.last = time.time()
            self.log(f"{self.phase}: {text}, {time.time() - self.started:.0f} s in, {self.left():.0f} s left")


def record(name: str, params: dict[str, Any], settings: QuickSettings, clock: Clock) -> Demonstrations:
    """The ``record`` phase: chunks of teacher games on the batched engine until the time or the bytes run out."""
    parts: list[Demonstrations] = []
    games, rows, row_bytes, chunk, k = 0, 0, 0, 32, 0
    while not clock.over() and (not row_bytes or rows * row_bytes < settings.max_bytes):
        recording = Recording(settings.teacher, settings.opponents, chunk, seed=settings.seed + k, gamma=0.99)
        started = time.time()
        part = collect_batched(name, params, recording, boards=min(settings.boards, chunk), progress=False)
        parts.append(part)
        games, rows, k = games + chunk, rows + len(part), k + 1
        row_bytes = part.observations.shape[1] * 4 + part.packed.shape[1]
        clock.tick(f"{games} games recorded, {rows} positions ({rows * row_bytes / 1e6:.0f} MB)")
        per_game, rows_per_game = (time.time() - started) / chunk, max(1.0, rows / games)
        room = (settings.max_bytes - rows * row_bytes) / row_bytes / rows_per_game  # games that still fit
        chunk = int(np.clip(min(min(10.0, clock.left()) / max(per_game, 1e-6), room), 16, 2048))
    clock.tick(f"{games} games recorded, {rows} positions", force=True)
    return Demonstrations.concatenate(parts)


def imitate(
    policy, demos: Demonstrations, settings: QuickSettings, clock: Clock, snapshots: Callable | None = None
) -> dict[str, float]:
    """The ``imitate`` phase: minibatch steps of the teacher's moves' log-likelihood and the outcomes' squared
    error until the time is up (a minibatch at least); returns the passes made, last losses, agreement.
    ``snapshots(policy)`` is called after each step (:class:`training.curves.Snapshots`)."""
    optimizer = torch.optim.Adam(policy.parameters(), lr=settings.learning_rate)
    rng = np.random.default_rng(settings.seed)
    policy.set_training_mode(True)
    steps, losses, order, at = 0, np.zeros(2), rng.permutation(len(demos)), 0
    while steps == 0 or not clock.over():
        if at >= len(order):
            order, at = rng.permutation(len(demos)), 0
        idx = order[at : at + settings.batch_size]
        at += len(idx)
        latest = fit_minibatch(policy, optimizer, demos, idx, settings.value_weight)
        steps += 1
        losses = latest if steps == 1 else 0.9 * losses + 0.1 * latest  # a running mean
        if snapshots is not None:
            snapshots(policy)
        passes = steps * settings.batch_size / len(demos)
        clock.tick(f"{passes:.2f} passes over the positions, policy loss {losses[0]:.3f}, value loss {losses[1]:.3f}")
    policy.set_training_mode(False)
    agreement = teacher_agreement(policy, demos, limit=5000)
    clock.tick(f"{passes:.2f} passes, picks the teacher's move {agreement:.1%}", force=True)
    return {"passes": passes, "policy_loss": float(losses[0]), "value_loss": float(losses[1]), "agreement": agreement}


class Deadline(BaseCallback):
    """Stops MaskablePPO's ``learn`` at the phase's deadline (checked every env step) with progress lines."""

    def __init__(self, clock: Clock, snapshots: Callable | None = None) -> None:
        super().__init__()
        self.clock, self.snapshots = clock, snapshots

    def _on_step(self) -> bool:
        rate = self.num_timesteps / max(1e-9, time.time() - self.clock.started)
        self.clock.tick(f"{self.num_timesteps} env steps ({rate:.0f}/s)")
        return not self.clock.over()

    def _on_rollout_start(self) -> None:
        if self.snapshots is not None:  # the network changes only in the update before a rollout
            self.snapshots(self.model.policy)


def ppo(model, settings: QuickSettings, clock: Clock, snapshots: Callable | None = None) -> int:
    """The ``ppo`` phase: MaskablePPO against its opponent until the time (or ``settings.ppo_steps``) is used up;
    ``snapshots(policy)`` before each rollout."""
    model.learn(settings.ppo_steps or 10**12, callback=Deadline(clock, snapshots))
    clock.tick(f"{model.num_timesteps} env steps", force=True)
    return int(model.num_timesteps)


def evaluate(name: str, params: dict[str, Any], files: dict[str, Path], settings: QuickSettings, clock: Clock):
    """The ``evaluate`` phase: each candidate file plays easy in turn, a rotation of seats at a time, while the time
    left holds :data:`ROUND_MARGIN` more rotations as long as the last one (a round under a load that rises runs
    longer than the last); returns each candidate's (score, games)."""
    players = make_raw(name, **params).game.num_players
    parts: dict[str, list] = {label: [] for label in files}
    first, rotation = 0, 0.0
    while first < settings.eval_games and (first == 0 or clock.left() > ROUND_MARGIN * rotation):
        began = time.time()
        for label, path in files.items():
            entrants = [str(path)] + ["easy"] * (players - 1)
            parts[label].append(play_series(name, entrants, players, seed=settings.seed, first_game=first, **params))
        first, rotation = first + players, time.time() - began
        clock.tick(", ".join(f"{label} {_score(merge_series(p)):.1%}" for label, p in parts.items()) + f" of {first}")
    results = {label: (_score(merge_series(p)), merge_series(p).games) for label, p in parts.items()}
    clock.tick(", ".join(f"{label} {s:.1%} of {g} games vs easy" for label, (s, g) in results.items()), force=True)
    return results


def _score(result) -> float:
    return (result.wins[0] + result.draws[0] / 2) / result.games


def quick_train(
    name: str, params: dict[str, Any], minutes: float, out_dir: Path, config: dict[str, Any],
    settings: QuickSettings | None = None, started: float | None = None, snapshots: Any = None,
) -> dict[str, Any]:  # fmt: skip
    """Run the four phases within ``minutes`` from ``started`` (default now: the caller's clock, so that its
    imports count); writes ``<name>_quick.npz``, ``log.txt``, ``summary.json`` into ``out_dir``. ``snapshots``
    (:class:`training.curves.Snapshots`) keeps the network a minute, and the chosen one at the end."""
    settings = settings or QuickSettings()
    start = started or time.time()
    shares = SHARES.get(name, PHASES)
    seconds = minutes * 60 - min(RESERVE, minutes * 60 * 0.02)
    shares_of_time = np.cumsum(list(phase_budgets(minutes * 60, shares).values())) / (minutes * 60)
    planned = dict(zip(PHASES, start + seconds * shares_of_time, strict=True))
    deadline = _Schedule(start + seconds, shares)
    torch.set_num_threads(1)
    out_dir.mkdir(parents=True, exist_ok=True)
    log = Log(name, out_dir)
    log(f"{minutes:g} minutes, planned: " + ", ".join(f"{p} until {time.strftime('%H:%M:%S', time.localtime(t))}"
                                             for p, t in planned.items()))  # fmt: skip
    demos = record(name, params, settings, Clock("record", deadline("record"), log))
    model = _model(name, params, config, settings)
    if snapshots is not None:
        snapshots(model.policy)
    fit = imitate(model.policy, demos, settings, Clock("imitate", deadline("imitate"), log), snapshots)
    del demos
    extra = {"search": SEARCH[name]} if name in SEARCH else None
    files = {"imitation": export_policy(model.policy, out_dir / "imitation.npz", name, params, extra)}
    steps = ppo(model, settings, Clock("ppo", deadline("ppo"), log), snapshots)
    files["ppo"] = export_policy(model.policy, out_dir / "ppo.npz", name, params, extra)
    model.get_env().close()
    scores = evaluate(name, params, files, settings, Clock("evaluate", deadline("evaluate"), log))
    best = max(scores, key=lambda label: scores[label][0])
    policy = shutil.copyfile(files[best], out_dir / f"{name}_quick.npz")
    if snapshots is not None:
        snapshots.keep(policy)
    summary = {
        "game": name, "params": params, "minutes": minutes, "wall_minutes": round((time.time() - start) / 60, 2),
        "imitation": fit, "ppo_steps": steps, "scores_vs_easy": scores, "chosen": best, "policy": str(policy),
        "settings": asdict(settings),
    }  # fmt: skip
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    log(f"done in {summary['wall_minutes']} min: {policy} ({best}); check it with: swgym eval {name} {policy} easy")
    return summary


class _Schedule:
    """Each phase's deadline when it starts: the time left to the end, shared among it and the phases after it
    as ``shares`` shares it (a phase that ran over, say on a first compile, takes from all that follow)."""

    def __init__(self, end: float, shares: dict[str, float]) -> None:
        self.end, self.shares = end, shares

    def __call__(self, phase: str) -> float:
        rest = list(self.shares)[list(self.shares).index(phase) :]
        left = max(0.0, self.end - time.time())
        return time.time() + left * self.shares[phase] / sum(self.shares[p] for p in rest)


def _model(name: str, params: dict[str, Any], config: dict[str, Any], settings: QuickSettings, opponent: str = "easy"):
    """MaskablePPO over the batched vector env against ``opponent``, with the config's network."""
    from training.sb3_vec import make_sb3_vec  # numba loads with the batched engine only

    vec = make_sb3_vec(name, settings.ppo_envs, opponent=opponent, seed=settings.seed, **params)
    kwargs = sb3_policy_kwargs(spec_of(config, vec))  # the config's net_arch and activation
    model = MaskablePPO(
        "MlpPolicy", vec, seed=settings.seed, verbose=0, policy_kwargs=kwargs, **buffer_kwargs(vec), **settings.ppo
    )
    log_nowhere(model)
    return model


REFUSED = {
    "backend": "--backend (the quick path is MaskablePPO; its record and imitate phases take no backend)",
    "ship": "--ship (a quick file is no shipped hard)", "resume": "--resume (no phase of the quick path resumes)",
    "env": "--env (the ppo phase trains on the batched vector env)", "iterations": "--iterations (no phase has them)",
    "address": "--address (every phase runs here)", "env_runners": "--env-runners (no phase has them)",
    "imitation_games": "--imitation-games (the record phase's games follow from the minutes)",
    "imitation_epochs": "--imitation-epochs (the imitate phase runs until its share of the minutes is spent)",
    "eval_games": "--eval-games (the evaluate phase's games follow from the minutes)",
    "head": "--head (the quick network's head is the recipe's)",
}  # fmt: skip


def cmd_quick(args, started: float | None = None) -> None:
    """``swgym train GAME --minutes M`` (from ``started``): refuses the options no quick phase takes, ``--steps``
    bounds the ppo phase's env steps, ``--seed`` seeds every phase."""
    from training.config import load_config  # on use: swgym starts fast

    given = [text for key, text in REFUSED.items() if getattr(args, key, None) not in (None, False, "sb3")]
    if given:
        raise ValueError(f"--minutes (the quick path) does not take {'; '.join(given)}")
    config = load_config(args.config or args.game)
    if config["game"] != args.game:
        raise ValueError(f"config {args.config} is for {config['game']!r}, not {args.game!r}")
    params = {**config["params"], **(getattr(args, "params", None) or {})}
    settings = replace(RECIPES.get(args.game, QuickSettings()), ppo_steps=args.steps, seed=args.seed or 0)
    out = Path(args.out or f"runs/{args.game}_quick")
    summary = quick_train(args.game, params, args.minutes, out, config, settings, started)
    print(json.dumps({k: v for k, v in summary.items() if k != "settings"}, indent=2))
