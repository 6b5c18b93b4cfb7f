"""The learner's seat among opponents: what the single-agent and the vector envs share.

Both envs give one seat to the learner (fixed, or drawn each episode) and the
others to opponents listed in seat order with the learner's seat skipped; a
game that ends before the learner's first move is started again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from envs.core.checks import as_int

MAX_RESTARTS = 100  # games in a row that may end before the learner's first move


def learner_seat(seat: Any, num_players: int, name: str) -> int | None:
    """``seat`` as the learner's fixed seat (None: drawn each episode), or a ``ValueError`` naming it."""
    if seat is None:
        return None
    plain = as_int(seat)
    if plain is None or not 0 <= plain < num_players:
        raise ValueError(f"{name}: seat must be None or an int in [0, {num_players}), got {seat!r}")
    return plain


def opponent_index(seat: Any, learner: Any) -> Any:
    """Which opponent plays ``seat`` (an int, or an array of seats per board beside the learners' seats).

    Opponent ``k`` sits at seat ``k`` up to the learner's seat and at ``k + 1`` from it on.
    """
    return seat - (seat > learner)


def start_until_learner_moves(start: Callable[[], bool], name: str) -> None:
    """Call ``start`` (new games played on to the learner's move; True when no game ended first) until it
    succeeds, at most :data:`MAX_RESTARTS` times; then a ``RuntimeError``."""
    for _ in range(MAX_RESTARTS):
        if start():
            return
    raise RuntimeError(f"{name}: {MAX_RESTARTS} games in a row ended before the learner moved")


__all__ = ["MAX_RESTARTS", "learner_seat", "opponent_index", "start_until_learner_moves"]
