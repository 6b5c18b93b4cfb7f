"""A player wrapper that times each move in CPU seconds (this process's time: other work on the machine does not
count, unlike the wall clock), and in wall-clock seconds beside them (what a match's think-time column shows), for
the research scripts that measure a searching player's think time."""

from __future__ import annotations

import time
from typing import Any

import numpy as np


class CpuTimedPlayer:
    """Plays as ``player`` and keeps each move's CPU and wall-clock seconds; subclasses keep more of a move in
    :meth:`on_move`."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.cpu_seconds: list[float] = []
        self.wall_seconds: list[float] = []

    def reset(self, seed: int | None = None) -> None:
        self.player.reset(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int:
        start, wall_start = time.process_time(), time.perf_counter()
        action = int(self.player.act(observation, action_mask, state))
        self.cpu_seconds.append(time.process_time() - start)
        self.wall_seconds.append(time.perf_counter() - wall_start)
        self.on_move(state, action)
        return action

    def on_move(self, state: Any, action: int) -> None:
        """Called after each move with the position it was played from."""
