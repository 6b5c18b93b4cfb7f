"""Warm start before self-play: the network first imitates a teacher bot.

Where self-play from scratch gets no signal (random play almost never ends a
game of Twirls or Squeeze), the config's ``imitation`` section has the
network learn from recorded games first (behaviour cloning):

* :func:`collect` plays seeded games between the teacher (say ``"medium"``)
  and a weighted mix of opponents, seats rotated, and records every position:
  the observation and mask of the player to move, the move played, whether
  the teacher played it, and the game's outcome for that player;
* :func:`pretrain` fits the policy head to the teacher's moves (cross-entropy
  over the legal moves) and the value head to the outcomes (mean squared
  error), in minibatch epochs, printing loss and move agreement per epoch.

Config keys (all but ``teacher`` optional): ``teacher``, ``games``,
``opponents`` (name -> weight), ``epochs``, ``batch_size``,
``learning_rate``, ``value_weight``, ``eval_every_epochs`` (the bare
network plays the config's evaluation opponent every so many epochs and
after the last; 0 never).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from envs.core.match import play_game
from envs.core.opponents import make_opponent
from envs.registry import make_raw
from training.export import torch_probabilities

DEFAULTS: dict[str, Any] = {
    "teacher": "medium",
    "games": 1000,
    "opponents": {"medium": 1.0},
    "epochs": 10,
    "batch_size": 256,
    "learning_rate": 1e-3,
    "value_weight": 0.5,
    "eval_every_epochs": 5,
}


@dataclass
class Demonstrations:
    """Recorded positions: one row each (observation, mask, move, teacher's move?, outcome)."""

    observations: np.ndarray  # float32 (N, obs)
    masks: np.ndarray  # bool (N, actions)
    actions: np.ndarray  # int64 (N,)
    by_teacher: np.ndarray  # bool (N,): the teacher chose this move
    outcomes: np.ndarray  # float32 (N,): the mover's discounted final return

    def __len__(self) -> int:
        return len(self.actions)


def imitation_settings(section: dict[str, Any]) -> dict[str, Any]:
    """The config's ``imitation`` section over :data:`DEFAULTS`, with unknown keys refused."""
    unknown = set(section) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"imitation: unknown key(s) {sorted(unknown)}; known: {sorted(DEFAULTS)}")
    return {**DEFAULTS, **section}


def collect(
    game: str,
    params: dict[str, Any],
    teacher: str,
    opponents: dict[str, float],
    games: int,
    seed: int = 0,
    gamma: float = 1.0,
    progress: bool = True,
) -> Demonstrations:
    """Record ``games`` seeded games: the teacher in one seat (rotated), the others drawn from ``opponents``.

    Outcomes are discounted by ``gamma`` per later move of the same player,
    as the value head learns them under PPO.
    """
    names = list(opponents)
    weights = np.asarray([opponents[n] for n in names], dtype=float)
    if not names or (weights < 0).any() or weights.sum() <= 0:
        raise ValueError(f"imitation: opponents must map names to weights >= 0, not all 0; got {opponents}")
    rng = np.random.default_rng(seed)
    built: dict[str, Any] = {}

    def player(name: str):
        if name not in built:
            built[name] = make_opponent(game, name, seed=int(rng.integers(2**31)), **params)
        return built[name]

    rows: dict[str, list] = {"obs": [], "mask": [], "action": [], "teacher": [], "seat": []}
    outcomes: list[np.ndarray] = []
    num_players = make_raw(game, **params).game.num_players
    started = time.time()
    for g in range(games):
        seats = [str(rng.choice(names, p=weights / weights.sum())) for _ in range(num_players)]
        teacher_seat = g % num_players
        seats[teacher_seat] = teacher
        start = len(rows["action"])

        def record(seat: int, observation: np.ndarray, mask: np.ndarray, action: int) -> None:
            rows["obs"].append(np.array(observation, dtype=np.float32))
            rows["mask"].append(mask.astype(bool))
            rows["action"].append(action)
            rows["teacher"].append(seats[seat] == teacher)  # noqa: B023 (runs within this game only)
            rows["seat"].append(seat)

        result = play_game(game, [player(n) for n in seats], seed=int(rng.integers(2**31)), observer=record, **params)
        seat_of = np.asarray(rows["seat"][start:], dtype=np.int64)
        values = np.empty(len(seat_of), dtype=np.float32)
        later = np.zeros(num_players, dtype=np.int64)  # moves the seat still makes after this one
        for i in range(len(seat_of) - 1, -1, -1):
            s = seat_of[i]
            values[i] = result.returns[s] * gamma ** later[s]
            later[s] += 1
        outcomes.append(values)
        if progress and (g + 1) % max(1, games // 10) == 0:
            print(
                f"[imitation] {game}: {g + 1}/{games} games recorded, {len(rows['action'])} positions, "
                f"{time.time() - started:.0f} s",
                flush=True,
            )
    return Demonstrations(
        np.asarray(rows["obs"], dtype=np.float32),
        np.asarray(rows["mask"], dtype=bool),
        np.asarray(rows["action"], dtype=np.int64),
        np.asarray(rows["teacher"], dtype=bool),
        np.concatenate(outcomes) if outcomes else np.zeros(0, np.float32),
    )


def pretrain(
    policy,
    demos: Demonstrations,
    epochs: int = 10,
    batch_size: int = 256,
    learning_rate: float = 1e-3,
    value_weight: float = 0.5,
    seed: int = 0,
    progress: bool = True,
    on_epoch: Callable[[int], dict[str, float]] | None = None,
) -> list[dict[str, float]]:
    """Fit an SB3 ``MaskableActorCriticPolicy`` to ``demos``; returns per-epoch loss and teacher agreement.

    ``on_epoch(epoch)``, if given, runs after each epoch (network in eval mode);
    what it returns is added to that epoch's entry.
    """
    if len(demos) == 0:
        raise ValueError("imitation: no positions recorded (games=0?)")
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    generator = np.random.default_rng(seed)
    obs = torch.as_tensor(demos.observations)
    masks = demos.masks
    actions = torch.as_tensor(demos.actions)
    taught = torch.as_tensor(demos.by_teacher)
    targets = torch.as_tensor(demos.outcomes)
    history = []
    policy.set_training_mode(True)
    for epoch in range(epochs):
        order = generator.permutation(len(demos))
        totals = np.zeros(3)
        for lo in range(0, len(order), batch_size):
            idx = torch.as_tensor(order[lo : lo + batch_size])
            values, log_prob, _ = policy.evaluate_actions(obs[idx], actions[idx], action_masks=masks[idx.numpy()])
            weight = taught[idx].float()
            policy_loss = -(log_prob * weight).sum() / weight.sum().clamp(min=1.0)
            value_loss = torch.mean((values.flatten() - targets[idx]) ** 2)
            loss = policy_loss + value_weight * value_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            totals += [policy_loss.item() * len(idx), value_loss.item() * len(idx), len(idx)]
        agreement = teacher_agreement(policy, demos)
        history.append(
            {
                "epoch": epoch + 1,
                "policy_loss": totals[0] / totals[2],
                "value_loss": totals[1] / totals[2],
                "agreement": agreement,
            }
        )
        if progress:
            print(
                f"[imitation] epoch {epoch + 1}/{epochs}: policy loss {history[-1]['policy_loss']:.3f}, "
                f"value loss {history[-1]['value_loss']:.3f}, picks the teacher's move {agreement:.1%}",
                flush=True,
            )
        if on_epoch is not None:
            policy.set_training_mode(False)
            history[-1].update(on_epoch(epoch + 1) or {})
            policy.set_training_mode(True)
    policy.set_training_mode(False)
    return history


def teacher_agreement(policy, demos: Demonstrations, limit: int = 20_000) -> float:
    """Share of the teacher's recorded moves that the policy's most probable legal move matches."""
    rows = np.flatnonzero(demos.by_teacher)[:limit]
    if rows.size == 0:
        return float("nan")
    probs, _ = torch_probabilities(policy, demos.observations[rows], demos.masks[rows])
    return float(np.mean(probs.argmax(axis=1) == demos.actions[rows]))
