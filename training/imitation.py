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
``opponents`` (name -> weight), ``boards`` (0: games one at a time through
the rules, :func:`collect`; N > 0: N at a time on the game's batched engine,
:func:`collect_batched`, where a bot with a batched kernel moves at engine
speed), ``epochs``, ``batch_size``,
``learning_rate``, ``value_weight``, ``eval_every_epochs`` (the bare
network plays the config's evaluation opponent every so many epochs and
after the last; 0 never).

Given a ``folder``, the collectors write the bulk of each row (observation
and packed mask) to files there as games finish (:class:`DiskRows`), and
the fitting reads them back a minibatch at a time: a recipe's recording of
millions of rows stays on disk, not in the process's memory.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from envs.core.checks import as_int
from envs.opponents import make_opponent
from envs.play import play_game
from envs.registry import make_batched, make_raw, observation_shape
from training.export import torch_probabilities
from training.progress import Progress

DEFAULTS: dict[str, Any] = {
    "teacher": "medium",
    "games": 1000,
    "opponents": {"medium": 1.0},
    "epochs": 10,
    "batch_size": 256,
    "learning_rate": 1e-3,
    "value_weight": 0.5,
    "eval_every_epochs": 5,
    "boards": 0,
}


ROW_FIELDS = ("observations", "actions", "by_teacher", "outcomes", "packed")  # a Demonstrations' per-row arrays
ROW_DTYPES = {"observations": np.float32, "actions": np.int64, "by_teacher": bool, "outcomes": np.float32,
              "packed": np.uint8}  # fmt: skip
FLUSH_BYTES = 64_000_000  # collect_batched hands finished games' rows on once the rows it holds reach this size


class Demonstrations:
    """Recorded positions: one row each (observation, mask, move, teacher's move?, outcome).

    The masks are kept packed, a bit an action (``packed``: uint8 (N, ceil(A / 8))): in the games of thousands
    of actions a mask row is otherwise three times an observation's bytes, and a recipe's recording holds
    millions of rows. ``masks`` unpacks them all; :meth:`mask_rows` only the rows asked (a minibatch).
    """

    def __init__(
        self, observations: np.ndarray, masks: np.ndarray | None, actions: np.ndarray, by_teacher: np.ndarray,
        outcomes: np.ndarray, packed: np.ndarray | None = None, num_actions: int | None = None,
    ) -> None:  # fmt: skip
        self.observations = observations  # float32 (N, obs)
        self.actions = actions  # int64 (N,)
        self.by_teacher = by_teacher  # bool (N,): the teacher chose this move
        self.outcomes = outcomes  # float32 (N,): the mover's discounted final return
        if packed is None:
            masks = np.asarray(masks, dtype=bool)
            packed, num_actions = np.packbits(masks, axis=1), masks.shape[1]
        self.packed, self.num_actions = packed, int(num_actions)

    def __len__(self) -> int:
        return len(self.actions)

    @property
    def masks(self) -> np.ndarray:
        """bool (N, actions): every row's legal moves."""
        return self.mask_rows(slice(None))

    def mask_rows(self, rows: Any) -> np.ndarray:
        """bool (k, actions): the legal moves of ``rows``."""
        return np.unpackbits(self.packed[rows], axis=1, count=self.num_actions).astype(bool)

    @classmethod
    def concatenate(cls, parts: list[Demonstrations]) -> Demonstrations:
        """The rows of ``parts`` (recordings of one game variant) one after another."""
        joined = {k: np.concatenate([getattr(p, k) for p in parts]) for k in ROW_FIELDS}
        return cls(masks=None, num_actions=parts[0].num_actions, **joined)


class DiskRows:
    """Rows of one dtype and width in a file: appended as games finish, read back by index.

    Read with ``pread``, never mapped: a recording larger than memory stays on disk (and in the OS's file cache,
    which the process's resident memory does not count). ``rows[index]`` (an int array or a slice) gives an
    in-memory array, as indexing a numpy array would; a :class:`Demonstrations` holds one where it holds an array.
    """

    READ = 1 << 28  # the most bytes read at once

    def __init__(self, path: str | Path, width: int, dtype: Any) -> None:
        self.path, self.width, self.dtype = Path(path), int(width), np.dtype(dtype)
        self.row_bytes = self.width * self.dtype.itemsize
        self.rows = 0
        self.path.write_bytes(b"")

    @property
    def shape(self) -> tuple[int, int]:
        return self.rows, self.width

    def __len__(self) -> int:
        return self.rows

    def append(self, block: np.ndarray) -> None:
        """Add ``block`` (rows, width) at the end of the file."""
        block = np.ascontiguousarray(block, dtype=self.dtype)
        if block.ndim != 2 or block.shape[1] != self.width:
            raise ValueError(f"{self.path.name}: rows of width {self.width} expected, got shape {block.shape}")
        with open(self.path, "ab") as f:
            f.write(block.tobytes())
        self.rows += len(block)

    def __getitem__(self, index: Any) -> np.ndarray:
        rows = np.arange(self.rows)[index] if isinstance(index, slice) else np.asarray(index, dtype=np.int64).ravel()
        if rows.size and (rows.min() < 0 or rows.max() >= self.rows):
            raise IndexError(f"{self.path.name}: rows 0..{self.rows - 1} only, asked {rows.min()}..{rows.max()}")
        out = np.empty((rows.size, self.width), self.dtype)
        order = np.argsort(rows, kind="stable")
        wanted = rows[order]
        cuts = np.flatnonzero(np.diff(wanted) != 1) + 1  # runs of consecutive rows, each read at once
        per_read = max(1, self.READ // max(1, self.row_bytes))
        with open(self.path, "rb") as f:
            for lo, hi in zip(np.r_[0, cuts], np.r_[cuts, rows.size]):
                for at in range(lo, hi, per_read):
                    n = min(per_read, hi - at)
                    data = os.pread(f.fileno(), n * self.row_bytes, int(wanted[at]) * self.row_bytes)
                    out[order[at : at + n]] = np.frombuffer(data, self.dtype).reshape(n, self.width)
        return out


class _Sink:
    """Where the collectors put finished games' rows: kept in memory, or with ``folder`` the observations and
    packed masks appended to :class:`DiskRows` files there (the small per-row values stay in memory)."""

    def __init__(self, folder: str | Path | None, num_actions: int) -> None:
        self.folder, self.num_actions = None if folder is None else Path(folder), num_actions
        self.parts: dict[str, list[np.ndarray]] = {k: [] for k in ROW_FIELDS}
        self.disk: dict[str, DiskRows] = {}

    def add(self, **rows: np.ndarray) -> None:
        """One block of rows, every field of :data:`ROW_FIELDS`."""
        for key in ROW_FIELDS:
            if self.folder is not None and key in ("observations", "packed"):
                if key not in self.disk:
                    self.folder.mkdir(parents=True, exist_ok=True)
                    self.disk[key] = DiskRows(self.folder / f"{key}.bin", rows[key].shape[1], ROW_DTYPES[key])
                self.disk[key].append(rows[key])
            else:
                self.parts[key].append(rows[key])

    def demonstrations(self, observation_size: int) -> Demonstrations:
        """Every row added, in order (a recording of no rows too)."""
        widths = {"observations": observation_size, "packed": -(-self.num_actions // 8)}
        joined: dict[str, Any] = {}
        for key, parts in self.parts.items():
            if key in self.disk:
                joined[key] = self.disk[key]
            elif parts:
                joined[key] = np.concatenate(parts)
            else:
                joined[key] = np.zeros((0, widths[key]) if key in widths else 0, ROW_DTYPES[key])
        return Demonstrations(masks=None, num_actions=self.num_actions, **joined)


def imitation_settings(section: dict[str, Any]) -> dict[str, Any]:
    """The config's ``imitation`` section over :data:`DEFAULTS`, with unknown keys refused."""
    unknown = set(section) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"imitation: unknown key(s) {sorted(unknown)}; known: {sorted(DEFAULTS)}")
    boards = section.get("boards", 0)
    if (plain := as_int(boards)) is None or plain < 0:
        raise ValueError(f"imitation: boards must be an int >= 0 (0: one game at a time), got {boards!r}")
    return {**DEFAULTS, **section}


def _mix(opponents: dict[str, float]) -> tuple[list[str], np.ndarray]:
    names = list(opponents)
    weights = np.asarray([opponents[n] for n in names], dtype=float)
    if not names or (weights < 0).any() or weights.sum() <= 0:
        raise ValueError(f"imitation: opponents must map names to weights >= 0, not all 0; got {opponents}")
    return names, weights / weights.sum()


def _discounted_outcomes(games: np.ndarray, seats: np.ndarray, returns: np.ndarray, gamma: float) -> np.ndarray:
    """Each recorded move's outcome: its game's return to the mover, discounted per later move of that mover.

    ``games``/``seats``: (rows,) game id and mover of each move, in play order
    within a game; ``returns``: (games, players) final returns.
    """
    key = np.asarray(games, dtype=np.int64) * returns.shape[1] + seats
    order = np.argsort(key, kind="stable")  # each (game, mover) group together, in play order
    first = np.r_[0, np.flatnonzero(np.diff(key[order])) + 1]
    size = np.diff(np.r_[first, len(key)])
    later = np.empty(len(key), dtype=np.int64)  # moves the mover still makes in that game after this one
    later[order] = np.repeat(size, size) - (np.arange(len(key)) - np.repeat(first, size)) - 1
    return (returns[games, seats] * np.power(gamma, later)).astype(np.float32)


@dataclass(frozen=True)
class Recording:
    """Which games :func:`collect` and :func:`collect_batched` record: ``games`` seeded games, the ``teacher``
    in seat ``g % players`` of game ``g``, the other seats drawn from ``opponents`` (name -> weight); outcomes
    discounted by ``gamma`` per later move of the same player, as the value head learns them under PPO."""

    teacher: str
    opponents: dict[str, float]
    games: int
    seed: int = 0
    gamma: float = 1.0


def collect(
    name: str, params: dict[str, Any], recording: Recording, progress: bool = True, folder: str | Path | None = None
) -> Demonstrations:
    """Record the games of ``recording`` one at a time through the rules (``folder``: see :class:`_Sink`)."""
    teacher, games = recording.teacher, recording.games
    names, weights = _mix(recording.opponents)
    rng = np.random.default_rng(recording.seed)
    built: dict[str, Any] = {}

    def player(spec: str):
        if spec not in built:
            built[spec] = make_opponent(name, spec, seed=int(rng.integers(2**31)), **params)
        return built[spec]

    game = make_raw(name, **params).game
    sink, positions = _Sink(folder, game.num_actions), 0
    bar = Progress("recording", name, games, "games") if progress else None
    for g in range(games):
        seats = [str(rng.choice(names, p=weights)) for _ in range(game.num_players)]
        seats[g % game.num_players] = teacher
        rows: dict[str, list] = {"obs": [], "mask": [], "action": [], "seat": []}

        def record(seat: int, observation: np.ndarray, mask: np.ndarray, action: int) -> None:
            values = (observation, np.packbits(mask.astype(bool)), action, seat)
            for key, value in zip(rows, values):  # noqa: B023 (runs within this game only)
                rows[key].append(value)  # noqa: B023

        result = play_game(name, [player(n) for n in seats], seed=int(rng.integers(2**31)), observer=record, **params)
        seat_of = np.asarray(rows["seat"], dtype=np.int64)
        returns = np.asarray(result.returns, dtype=np.float64)[None, :]
        sink.add(
            observations=np.asarray(rows["obs"], dtype=np.float32).reshape(len(seat_of), -1),
            packed=np.asarray(rows["mask"], dtype=np.uint8).reshape(len(seat_of), -(-game.num_actions // 8)),
            actions=np.asarray(rows["action"], dtype=np.int64),
            by_teacher=np.array([seats[k] == teacher for k in seat_of], dtype=bool),
            outcomes=_discounted_outcomes(np.zeros_like(seat_of), seat_of, returns, recording.gamma),
        )
        positions += len(seat_of)
        if bar is not None:
            bar.update(g + 1, f"{positions} positions")
    return sink.demonstrations(observation_shape(name, **params)[0])


def collect_batched(
    name: str, params: dict[str, Any], recording: Recording, boards: int = 256, progress: bool = True,
    folder: str | Path | None = None,
) -> Demonstrations:  # fmt: skip
    """:func:`collect` on the game's batched engine: ``boards`` games at a time, each player batched.

    The same ``recording`` (every move, its mover's discounted outcome),
    played by the batched opponents of :func:`envs.vector.batch_opponent`
    (a bot's batched kernel where its engine has one, else board by board).
    Seeded: the same seed and ``boards`` give the same positions. Only
    finished games are kept: exactly ``recording.games`` of them, handed on
    (to ``folder``, see :class:`_Sink`) as they finish.
    """
    from envs.vector import batch_opponent  # numba loads with the batched engine only

    teacher, games = recording.teacher, recording.games
    names, weights = _mix(recording.opponents)
    if (plain := as_int(boards)) is None or plain < 1:
        raise ValueError(f"imitation: boards must be a positive int, got {boards!r}")
    rng = np.random.default_rng(recording.seed)
    boards = min(plain, games)
    batch = make_batched(name, boards, seed=int(rng.integers(2**31)), **params)
    members = [teacher, *names]  # member 0 plays the teacher's seat; the others by name, each its own object
    is_teacher = np.array([m == teacher for m in members])  # as in collect: any seat the teacher's bot plays
    players = [batch_opponent(name, m, seed=int(rng.integers(2**31)), **params) for m in members]
    seating = _Seating(boards, batch.num_players, games, weights, rng)
    pending = _Pending(games, batch.num_players, _Sink(folder, batch.num_actions), recording.gamma)
    bar = Progress("recording", f"{name} ({boards} boards)", games, "games") if progress else None
    while pending.finished < games:
        live = np.flatnonzero(~batch.over & (seating.game_of >= 0))
        mover = batch.to_move[live].astype(np.int64)
        who = seating.role[live, mover]
        actions = np.full(boards, -1, dtype=np.int64)
        for m in np.unique(who):
            rows = live[who == m]
            actions[rows] = players[int(m)].actions(batch, rows)
        pending.add(
            observations=batch.observe(batch.to_move)[live], packed=np.packbits(batch.legal_mask(live), axis=1),
            actions=actions[live], by_teacher=is_teacher[who], seat=mover, game=seating.game_of[live],
        )  # fmt: skip
        rewards, done = batch.step(actions)
        pending.returns[seating.game_of[live]] += rewards[live]
        ended = done & (seating.game_of >= 0)
        if ended.any():
            pending.end(seating.game_of[ended])
            batch.reset_where(ended)
            seating.start(ended)
            if bar is not None:
                bar.update(min(pending.finished, games), f"{pending.positions} positions")
    pending.flush()
    return pending.sink.demonstrations(observation_shape(name, **params)[0])


class _Pending:
    """The recorded rows of :func:`collect_batched` until their games end: then, once the rows held reach
    :data:`FLUSH_BYTES` (and at the end), the finished games' rows go to the sink, each game's together in
    play order, with their movers' discounted outcomes."""

    def __init__(self, games: int, players: int, sink: _Sink, gamma: float) -> None:
        self.returns = np.zeros((games, players))
        self.ended = np.zeros(games, dtype=bool)
        self.sink, self.gamma = sink, gamma
        self.chunks: list[dict[str, np.ndarray]] = []
        self.held = self.finished = self.positions = 0

    def add(self, **rows: np.ndarray) -> None:
        self.chunks.append(rows)
        self.held += sum(v.nbytes for v in rows.values())
        self.positions += len(rows["game"])

    def end(self, games: np.ndarray) -> None:
        self.ended[games] = True
        self.finished += len(games)
        if self.held >= FLUSH_BYTES:
            self.flush()

    def flush(self) -> None:
        if not self.chunks:
            return
        data = {k: np.concatenate([c[k] for c in self.chunks]) for k in self.chunks[0]}
        done = self.ended[data["game"]]
        kept = {k: v[~done] for k, v in data.items()}
        self.chunks, self.held = ([kept] if len(kept["game"]) else []), sum(v.nbytes for v in kept.values())
        order = np.flatnonzero(done)[np.argsort(data["game"][done], kind="stable")]
        out = {k: v[order] for k, v in data.items()}
        self.sink.add(
            observations=out["observations"].astype(np.float32, copy=False), packed=out["packed"],
            actions=out["actions"].astype(np.int64), by_teacher=out["by_teacher"].astype(bool),
            outcomes=_discounted_outcomes(out["game"], out["seat"], self.returns, self.gamma),
        )  # fmt: skip


class _Seating:
    """Which game each board plays (``game_of``, -1: none left) and which member holds each seat (``role``:
    0 the teacher, in seat ``g % players`` of game ``g``; the others drawn by ``weights``)."""

    def __init__(self, boards: int, players: int, games: int, weights: np.ndarray, rng: np.random.Generator):
        self.role = np.zeros((boards, players), dtype=np.int64)
        self.game_of = np.full(boards, -1, dtype=np.int64)
        self.games, self.weights, self.rng = games, weights, rng
        self.started = 0
        self.start(np.ones(boards, dtype=bool))

    def start(self, where: np.ndarray) -> None:
        """The next games on the boards ``where`` (none once every game has started)."""
        players = self.role.shape[1]
        for b in np.flatnonzero(where):
            if self.started >= self.games:
                self.game_of[b] = -1
                continue
            self.role[b] = 1 + self.rng.choice(len(self.weights), size=players, p=self.weights)
            self.role[b, self.started % players] = 0
            self.game_of[b] = self.started
            self.started += 1


@dataclass(frozen=True)
class FitSettings:
    """How :func:`pretrain` fits: passes over the positions, minibatch size, Adam's step size and the weight of the
    value loss beside the teacher's moves' log-likelihood."""

    epochs: int = 10
    batch_size: int = 256
    learning_rate: float = 1e-3
    value_weight: float = 0.5


def pretrain(
    policy,
    demos: Demonstrations,
    seed: int = 0,
    progress: bool = True,
    on_epoch: Callable[[int], dict[str, float]] | None = None,
    **settings: Any,
) -> list[dict[str, float]]:
    """Fit an SB3 ``MaskableActorCriticPolicy`` to ``demos``; returns per-epoch loss and teacher agreement.

    ``settings``: the keywords of :class:`FitSettings` (``epochs``, ``batch_size``, ``learning_rate``,
    ``value_weight``). ``on_epoch(epoch)``, if given, runs after each epoch (network in eval mode);
    what it returns is added to that epoch's entry.
    """
    fit = FitSettings(**settings)
    epochs, batch_size, value_weight = fit.epochs, fit.batch_size, fit.value_weight
    if len(demos) == 0:
        raise ValueError("imitation: no positions recorded (games=0?)")
    optimizer = torch.optim.Adam(policy.parameters(), lr=fit.learning_rate)
    generator = np.random.default_rng(seed)
    history = []
    policy.set_training_mode(True)
    per_epoch = -(-len(demos) // batch_size)
    bar = Progress("imitation", f"{len(demos)} positions", epochs * per_epoch, "minibatches") if progress else None
    for epoch in range(epochs):
        order = generator.permutation(len(demos))
        totals = np.zeros(3)
        for lo in range(0, len(order), batch_size):
            idx = order[lo : lo + batch_size]
            losses = fit_minibatch(policy, optimizer, demos, idx, value_weight)
            totals += [losses[0] * len(idx), losses[1] * len(idx), len(idx)]
            if bar is not None:
                bar.update(epoch * per_epoch + lo // batch_size + 1, f"epoch {epoch + 1}/{epochs}")
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


def fit_minibatch(policy, optimizer, demos: Demonstrations, rows: np.ndarray, value_weight: float) -> np.ndarray:
    """One Adam step on ``rows`` of ``demos``: the teacher's moves' log-likelihood (the other players' moves
    weigh nothing) and ``value_weight`` times the outcomes' squared error; returns the two losses."""
    rows = np.sort(rows)  # read in file order where the rows are on disk
    values, log_prob, _ = policy.evaluate_actions(
        torch.as_tensor(demos.observations[rows]), torch.as_tensor(demos.actions[rows]),
        action_masks=demos.mask_rows(rows),
    )  # fmt: skip
    weight = torch.as_tensor(demos.by_teacher[rows]).float()
    policy_loss = -(log_prob * weight).sum() / weight.sum().clamp(min=1.0)
    value_loss = torch.mean((values.flatten() - torch.as_tensor(demos.outcomes[rows])) ** 2)
    optimizer.zero_grad()
    (policy_loss + value_weight * value_loss).backward()
    torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
    optimizer.step()
    return np.array([policy_loss.item(), value_loss.item()])


def teacher_agreement(policy, demos: Demonstrations, limit: int = 20_000) -> float:
    """Share of the teacher's recorded moves (the last ``limit``) that the policy's most probable legal move
    matches."""
    rows = np.flatnonzero(demos.by_teacher)[-limit:]
    if rows.size == 0:
        return float("nan")
    matched = 0
    for part in np.array_split(rows, -(-rows.size // 2048)):  # a row of probabilities per action: a part at a time
        probs, _ = torch_probabilities(policy, demos.observations[part], demos.mask_rows(part))
        matched += int(np.sum(probs.argmax(axis=1) == demos.actions[part]))
    return matched / rows.size
