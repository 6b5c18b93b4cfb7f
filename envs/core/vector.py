"""The learner's Gymnasium ``VectorEnv`` over a batched engine: one learner seat per board, the others played inside.

``envs.make_vec("swival", 4096, opponent="random")`` (also what
``gymnasium.make_vec("swgym/Swival-v0", num_envs=N, vectorization_mode="vector_entry_point")``
returns). Each board's learner seat is drawn per episode from the board's
stream (or fixed by ``seat=``); the other seats move inside :meth:`step`,
batched, until the learner is to move again or the game is over. The reward
of a step is everything the learner's seat received since its previous move.

Opponents (one spec for every other seat, or a list with one per other seat):

* ``"random"``: a uniform legal move, chosen inside the compiled kernel;
* a numpy policy (a policy file path, ``"hard"`` when it ships without a
  search, or a ``NumpyPolicy``): one forward pass for all boards to move;
* any callable ``f(observations (k, obs), masks (k, A) bool) -> actions (k,)``:
  a frozen snapshot, a torch model, ...;
* a built-in bot the game's engine plays itself (``Engine.bots``: Swish's and
  Squeeze's ``"medium"``): all boards to move in one compiled call;
* the other built-in bots (``"easy"``, ``"medium"``, a searching ``"hard"``) and any
  object with ``act(observation, mask, state)``: per board, through the
  board's rules state (one instance shared by all boards).

Autoreset is Gymnasium's default, ``NEXT_STEP``: the step after a board's game
ended resets that board (its action is ignored, reward 0). ``SAME_STEP``
(the SB3 VecEnv uses it) resets at once and puts the final observation in
``infos["final_obs"]`` (rows where ``infos["_final_obs"]``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from envs.core.batched import BatchedGame, draw_seats
from envs.core.opponents import DIFFICULTIES
from envs.registry import batched_engine, make_batched

MAX_RESTARTS = 100  # games that end before the learner's first move are started again


class RandomBatch:
    """A uniform legal move per board, from the boards' own streams."""

    def reset(self, seed: int | None = None) -> None:
        pass

    def actions(self, batch: BatchedGame, boards: np.ndarray) -> np.ndarray:
        active = np.zeros(batch.num_envs, dtype=bool)
        active[boards] = True
        return batch.random_actions(active)[boards]


class CallableBatch:
    """``fn(observations, masks) -> actions`` on the boards to move, each seen by its mover."""

    def __init__(self, fn: Any) -> None:
        self.fn = fn

    def reset(self, seed: int | None = None) -> None:
        if hasattr(self.fn, "reset"):
            self.fn.reset(seed)

    def actions(self, batch: BatchedGame, boards: np.ndarray) -> np.ndarray:
        obs = batch.observe(batch.to_move)[boards]
        masks = batch.legal_mask()[boards]
        actions = np.asarray(self.fn(obs, masks))
        if actions.shape != (boards.size,) or actions.dtype.kind not in "iu":
            raise ValueError(
                f"opponent {self.fn!r} must return ints of shape ({boards.size},) for "
                f"{boards.size} boards, got {actions.dtype} {actions.shape}"
            )
        return actions


class PolicyBatch:
    """A numpy policy (``logits`` on a batch): its most probable legal move, or sampled at its temperature."""

    def __init__(self, policy: Any, seed: int | None = None) -> None:
        self.policy = policy
        self.temperature = float(getattr(policy, "temperature", 0.0))
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def actions(self, batch: BatchedGame, boards: np.ndarray) -> np.ndarray:
        obs = batch.observe(batch.to_move)[boards]
        masks = batch.legal_mask()[boards]
        logits = np.asarray(self.policy.logits(obs), dtype=np.float64)
        if self.temperature > 0:  # Gumbel-max: one sample per row from softmax(logits / T) over the mask
            logits = logits / self.temperature - np.log(-np.log(self.rng.random(logits.shape)))
        return np.where(masks, logits, -np.inf).argmax(axis=1)


class PerBoard:
    """An opponent with ``act(observation, mask, state)`` (the bots), asked board by board."""

    def __init__(self, opponent: Any) -> None:
        self.opponent = opponent

    def reset(self, seed: int | None = None) -> None:
        self.opponent.reset(seed)

    def actions(self, batch: BatchedGame, boards: np.ndarray) -> np.ndarray:
        obs = batch.observe(batch.to_move)
        masks = batch.legal_mask()
        return np.array(
            [self.opponent.act(obs[b], masks[b], batch.board_state(int(b))) for b in boards], dtype=np.int64
        )


class EngineBot:
    """A built-in bot the engine plays itself (``Engine.bots``): all its boards in one call."""

    def __init__(self, name: str, bot: Any) -> None:
        self.name, self.bot = name, bot

    def reset(self, seed: int | None = None) -> None:
        pass  # its chance comes from the boards' streams, seeded with the batch

    def actions(self, batch: BatchedGame, boards: np.ndarray) -> np.ndarray:
        return self.bot(batch, boards)


def batch_opponent(game: str, spec: Any, seed: int | None = None, **rules: Any):
    """Turn an opponent spec (see the module docstring) into a batched opponent."""
    if isinstance(spec, str) and spec == "random":
        return RandomBatch()
    if isinstance(spec, str) and spec in DIFFICULTIES:
        bot = batched_engine(game, **rules).bots.get(spec)
        if bot is not None:
            return EngineBot(spec, bot)
    if isinstance(spec, (str, Path)):
        from envs.core.opponents import (
            make_opponent,  # the one place that resolves names (lazily: policies)
        )

        spec = make_opponent(game, spec, seed=seed, **rules)
    if hasattr(spec, "logits"):
        return PolicyBatch(spec, seed)
    if hasattr(spec, "act"):
        return PerBoard(spec)
    if callable(spec):
        return CallableBatch(spec)
    raise TypeError(
        f"{game}: an opponent must be 'random', 'easy', 'medium', 'hard', a policy file path, "
        f"a numpy policy, a callable on (observations, masks) or an object with act(); got {spec!r}"
    )


class BatchedVectorEnv(VectorEnv):
    """N boards of ``game`` as a Gymnasium ``VectorEnv`` for one learner seat per board (see the module docstring).

    Args:
        game: registry name of a game with a batched engine.
        num_envs: number of boards.
        opponent: one spec for every other seat, or a sequence with one per other seat
            (in seat order, the learner's skipped).
        seed: seeds every board's stream (and the opponents); ``reset(seed=...)`` re-seeds.
        seat: the learner's seat on every board, or None to draw it per episode.
        autoreset_mode: ``AutoresetMode.NEXT_STEP`` (default) or ``SAME_STEP``.
        **rules: the game's rule parameters.
    """

    def __init__(
        self,
        game: str,
        num_envs: int,
        opponent: Any = "random",
        seed: int | None = None,
        seat: int | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        **rules: Any,
    ) -> None:
        self.batch = make_batched(game, num_envs, seed=seed, **rules)
        self.game = game
        self.rules = rules
        mode = AutoresetMode(autoreset_mode)
        if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
            raise ValueError(f"{game}: autoreset_mode must be NEXT_STEP or SAME_STEP, got {mode}")
        self.metadata = {"autoreset_mode": mode}
        self.autoreset_mode = mode
        n, players = self.batch.num_envs, self.batch.num_players
        if seat is not None and not (isinstance(seat, (int, np.integer)) and 0 <= seat < players):
            raise ValueError(f"{game}: seat must be None or an int in [0, {players}), got {seat!r}")
        self.fixed_seat = seat
        self.num_envs = n
        self.single_observation_space = spaces.Box(0.0, 1.0, shape=(self.batch.obs_size,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.batch.num_actions)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self.seats = np.zeros(n, dtype=np.int8)
        self._pending_reset = np.zeros(n, dtype=bool)
        self._reward = np.zeros(n, dtype=np.float32)
        self._seed = seed
        self._started = False
        self.set_opponents(opponent)

    # -- opponents ---------------------------------------------------------------
    def set_opponents(self, opponent: Any) -> None:
        """Replace the opponents (one spec, or one per other seat); e.g. a self-play pool's snapshot."""
        others = self.batch.num_players - 1
        specs = (
            list(opponent) if isinstance(opponent, Sequence) and not isinstance(opponent, str) else [opponent] * others
        )
        if len(specs) != others:
            raise ValueError(f"{self.game}: {others} opponent(s) needed, got {len(specs)}")
        self.opponents = [batch_opponent(self.game, s, seed=self._seed, **self.rules) for s in specs]

    # -- gymnasium API -----------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """New games on every board (``seed``: re-seed every board's stream and the opponents)."""
        if seed is not None or not self._started:
            seed = self._seed if seed is None else seed
            self.batch.reset(seed)
            for k, opp in enumerate(self.opponents):
                opp.reset(None if seed is None else seed + 1 + k)
        self._started = True
        self._reward[:] = 0.0
        self._start(np.ones(self.num_envs, dtype=bool))
        self._pending_reset[:] = False
        return self.batch.observe(self.seats), {"seat": self.seats.copy()}

    def step(self, actions: Any):
        """The learner's action on every board, then the others' moves.

        Returns (obs, rewards, terminated, truncated, infos) as Gymnasium's VectorEnv.
        """
        if not self._started:
            raise RuntimeError(f"{self.game}: call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or actions.dtype.kind not in "iu":
            raise ValueError(
                f"{self.game}: actions must be ints of shape ({self.num_envs},), got {actions.dtype} {actions.shape}"
            )
        resetting = self._pending_reset.copy()
        self._reward[:] = 0.0
        self._move(np.where(resetting, -1, actions))
        self._play_others()
        done = self.batch.over & ~resetting
        infos: dict[str, Any] = {}
        if self.autoreset_mode is AutoresetMode.SAME_STEP:
            if done.any():
                infos["final_obs"] = self.batch.observe(self.seats)
                infos["_final_obs"] = done.copy()
                self._start(done)
        elif resetting.any():
            self._start(resetting)
        self._pending_reset = done if self.autoreset_mode is AutoresetMode.NEXT_STEP else np.zeros_like(done)
        infos["seat"] = self.seats.copy()
        return (self.batch.observe(self.seats), self._reward.copy(), done, np.zeros(self.num_envs, dtype=bool), infos)

    def action_masks(self) -> np.ndarray:
        """(N, A) bool: the learner's legal actions per board (all True on a board whose episode is over)."""
        masks = self.batch.legal_mask().copy()
        masks[self.batch.over] = True
        return masks

    # -- internals ----------------------------------------------------------------------
    def _move(self, actions: np.ndarray) -> None:
        rewards, _ = self.batch.step(actions)
        self._reward += rewards[np.arange(self.num_envs), self.seats]

    def _start(self, where: np.ndarray) -> None:
        """New games on the boards ``where``, played on until their learner is to move.

        Rewards of the moves before the learner's first one belong to no step:
        the boards keep the reward they had (the last game's, or 0).
        """
        kept = self._reward[where]
        started = where
        for _ in range(MAX_RESTARTS):
            self.batch.reset_where(where)
            if self.fixed_seat is None:
                draw_seats(self.batch.rng, where, self.batch.num_players, self.seats)
            else:
                self.seats[where] = self.fixed_seat
            self._play_others()
            where = where & self.batch.over
            if not where.any():
                self._reward[started] = kept
                return
        raise RuntimeError(f"{self.game}: {MAX_RESTARTS} games in a row ended before the learner moved")

    def _play_others(self) -> None:
        """The other seats move, batched, until every unfinished board's learner is to move."""
        batch = self.batch
        while True:
            waiting = ~batch.over & (batch.to_move != self.seats)
            if not waiting.any():
                return
            actions = np.full(self.num_envs, -1, dtype=np.int64)
            if len(self.opponents) == 1:
                boards = np.flatnonzero(waiting)
                actions[boards] = self.opponents[0].actions(batch, boards)
            else:  # opponent k sits at seat k, or k + 1 from the learner's seat on
                index = batch.to_move - (batch.to_move > self.seats)
                for k, opp in enumerate(self.opponents):
                    boards = np.flatnonzero(waiting & (index == k))
                    if boards.size:
                        actions[boards] = opp.actions(batch, boards)
            self._move(actions)


__all__ = ["BatchedVectorEnv", "EngineBot", "batch_opponent"]
