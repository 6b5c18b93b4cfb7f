"""The self-play opponent pool: one member drawn per game, weighted.

:class:`PoolOpponent` plays one seat of one env (the single-agent path);
:class:`BatchPool` plays one seat of every board of a batched vector env with
the same semantics: a member drawn per board when the board's game starts,
and each member asked once per step for all the boards it plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from envs.opponents import make_opponent


def _weights(members: Sequence[Any], weights: Sequence[float]) -> np.ndarray:
    if len(members) != len(weights) or not members:
        raise ValueError("a pool needs one weight per member and at least one member")
    w = np.asarray(weights, dtype=float)
    if (w < 0).any() or w.sum() <= 0:
        raise ValueError(f"pool weights must be >= 0 and not all 0, got {list(weights)}")
    return w / w.sum()


BOTS = ("easy", "medium", "hard")  # the built-in bots: mostly played board by board in a batched vector env


def cap_bot_share(members: Sequence[Any], weights: Sequence[float], cap: float | None) -> list[float]:
    """``weights`` with the bots' total share (members named in :data:`BOTS`) at most ``cap``.

    The bots keep their ratios among themselves and the other members theirs;
    a pool of bots only is left as it is (nothing else could take their boards).
    ``cap`` None: no cap.
    """
    w = np.asarray(_weights(members, weights), dtype=float)
    if cap is None:
        return w.tolist()
    if not 0 <= cap <= 1:
        raise ValueError(f"max_bot_share must be in [0, 1], got {cap!r}")
    bot = np.array([isinstance(m, str) and m in BOTS for m in members])
    share = w[bot].sum()
    if share <= cap or bot.all():
        return w.tolist()
    w[bot] *= cap / share
    w[~bot] *= (1 - cap) / w[~bot].sum()
    return w.tolist()


class PoolOpponent:
    """Plays each game as one member of ``members`` (specs: names or policy paths), drawn by ``weights``."""

    def __init__(
        self,
        name: str,
        members: Sequence[Any],
        weights: Sequence[float],
        params: dict[str, Any],
        seed: int | None = None,
    ) -> None:
        self.weights = _weights(members, weights)
        self.name, self.params = name, params
        self.members = list(members)
        self.rng = np.random.default_rng(seed)
        self._built: dict[int, Any] = {}
        self.current = None

    def _member(self, i: int):
        if i not in self._built:
            self._built[i] = make_opponent(self.name, self.members[i], **self.params)
        return self._built[i]

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        i = int(self.rng.choice(len(self.members), p=self.weights))
        self.current = self._member(i)
        self.current.reset(seed=int(self.rng.integers(2**31)))

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int:
        if self.current is None:
            self.reset()
        return self.current.act(observation, action_mask, state)


class BatchPool:
    """One seat of a batched vector env played by a pool: a member per board, drawn when the board's game starts.

    ``members`` are specs as :func:`envs.vector.batch_opponent` takes them
    (``"random"`` in the kernel, snapshots as numpy policies in one forward pass,
    bots board by board unless the engine plays them: ``Engine.bots``).
    :attr:`choice` holds each board's member index; :meth:`actions` asks each
    member once for all the boards it plays. The vector env calls
    :meth:`new_games` with the boards whose game starts (it is a
    :class:`envs.core.opponents.BatchOpponent`).
    """

    def __init__(
        self, name: str, members: Sequence[Any], weights: Sequence[float], params: dict[str, Any], seed: Any = None
    ) -> None:
        self.weights = _weights(members, weights)
        self.name, self.params = name, params
        self.members = list(members)
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self._built: dict[int, Any] = {}
        self.choice: np.ndarray | None = None  # (N,) member index per board, drawn on first use

    def member(self, i: int):
        """The batched opponent of member ``i`` (built on first use)."""
        if i not in self._built:
            from envs.vector import (
                batch_opponent,  # lazy: numba is imported with the batched engine only
            )

            self._built[i] = batch_opponent(
                self.name, self.members[i], seed=int(self.rng.integers(2**31)), **self.params
            )
        return self._built[i]

    def reset(self, seed: int | None = None) -> None:
        """Re-seed (when ``seed`` is given) and draw every board's member again."""
        if seed is not None:
            self.rng = np.random.default_rng([seed] if self.seed is None else [seed, *np.atleast_1d(self.seed)])
        for member in self._built.values():
            member.reset(int(self.rng.integers(2**31)))
        self.choice = None

    def new_games(self, where: np.ndarray) -> None:
        """Draw the member of every board with ``where[i]`` (its game starts now)."""
        where = np.asarray(where, dtype=bool)
        if self.choice is None or self.choice.shape != where.shape:
            self.choice = np.zeros(where.shape, dtype=np.int64)
            where = np.ones(where.shape, dtype=bool)
        self.choice[where] = self.rng.choice(len(self.members), size=int(where.sum()), p=self.weights)

    def actions(self, batch: Any, boards: np.ndarray) -> np.ndarray:
        """The moves of ``boards`` (all with this seat to move): each member once, on the boards it plays."""
        if self.choice is None or self.choice.shape != (batch.num_envs,):
            self.new_games(np.ones(batch.num_envs, dtype=bool))
        out = np.full(boards.size, -1, dtype=np.int64)
        chosen = self.choice[boards]
        for i in np.unique(chosen):
            rows = np.flatnonzero(chosen == i)
            out[rows] = self.member(int(i)).actions(batch, boards[rows])
        return out

    def shares(self) -> dict[str, float]:
        """The share of boards each member plays now (for logs and tests)."""
        if self.choice is None:
            return {}
        counts = np.bincount(self.choice, minlength=len(self.members)) / self.choice.size
        return {str(m): float(c) for m, c in zip(self.members, counts)}
