"""The learner's Gymnasium ``VectorEnv`` over a batched engine: one learner seat per board, the others played inside.

``envs.make_vec("swival", 4096, opponent="random")`` (also what
``gymnasium.make_vec("swgym/Swival-v0", num_envs=N, vectorization_mode="vector_entry_point")``
returns). Each board's learner seat is drawn per episode from the board's
stream (or fixed by ``seat=``); the other seats move inside :meth:`step`,
batched, until the learner is to move again or its episode is over. The reward
of a step is everything the learner's seat received since its previous move;
what it received before its first move of a game (an opponent's move, a round
ended on the deal) comes with that first move's reward, as in the single-agent
env, so an episode's return is the seat's result. The learner's episode ends
when its game is over or its seat has left the game (Swimming: sunk).

Opponents (one spec for every other seat, or a list with one per other seat):

* ``"random"``: a uniform legal move; all the random seats of the batch move in one compiled loop
* a policy file path (``.npz``, SB3 ``.zip``), ``"network"`` (the shipped
  hard's network) or a ``NumpyPolicy``: its network, one forward pass for all
  boards to move; no play-time search;
* any callable ``f(observations (k, obs), masks (k, A) bool) -> actions (k,)``:
  a frozen snapshot, a torch model, ...;
* a built-in bot the game's engine plays itself (``Engine.bots``: Swish's and
  Squeeze's ``"medium"``): all boards to move in one compiled call;
* the players that search, asked board by board through the board's rules
  state (one instance shared by all boards): ``"easy"``, ``"medium"``,
  ``"hard"`` (the shipped network with its search), ``"search:PATH"`` (a
  policy file with the search its file names), ``"mcts:N"`` and any object
  with ``act(observation, mask, state)``.

An opponent that raises, returns something that is not one int per board, or
picks a move that cannot be played raises :class:`~envs.core.opponents.OpponentError`
naming it, its seat, the boards and the actions; the env is then over until
:meth:`BatchedVectorEnv.reset`.

Autoreset is Gymnasium's default, ``NEXT_STEP``: the step after a board's
episode ended resets that board (its action, whatever int it is, ``-1``
included, is ignored; reward 0). On a board whose learner is to move, ``-1``
is refused like any illegal action. ``SAME_STEP``
(the SB3 VecEnv uses it) resets at once and puts the final observation in
``infos["final_obs"]`` and the final infos in ``infos["final_info"]`` (rows
where ``infos["_final_obs"]``). Every ``infos`` carries ``"seat"`` and the
learner's mask as int8 under ``"action_mask"`` (each with its ``_key`` row
mask), so that wrappers which know nothing of :meth:`~BatchedVectorEnv.action_masks`
still pass it on.

Arrays the env hands out (observations, rewards, masks, infos) are the
caller's to keep; the int8 mask in ``infos`` is read-only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from envs.core.batched import BatchedGame, board_streams, describe_actions, draw_seats
from envs.core.checks import as_int, as_seed
from envs.core.learner import learner_seat, opponent_index, start_until_learner_moves
from envs.core.opponents import DIFFICULTIES, BatchOpponent, Opponent, OpponentError, Policy, opponent_specs
from envs.core.rendering import Canvas
from envs.opponents import make_opponent
from envs.registry import batched_engine, game_module, make_batched

SEARCH_PREFIX = "search:"  # "search:PATH": a policy file played with its search, board by board
OPTIONS = ("reset_mask", "position")  # the reset options the env takes


class BuiltIn:
    """What the built-in batch opponents share: nothing to do when games start or on reset."""

    def reset(self, seed: int | None = None) -> None:
        pass

    def new_games(self, where: np.ndarray) -> None:
        pass


class RandomBatch(BuiltIn):
    """A uniform legal move per board, from the boards' own streams."""

    def __repr__(self) -> str:
        return "'random'"

    def actions(self, batch: BatchedGame, boards: np.ndarray) -> np.ndarray:
        active = np.zeros(batch.num_envs, dtype=bool)
        active[boards] = True
        return batch.random_actions(active)[boards]


class CallableBatch(BuiltIn):
    """``fn(observations, masks) -> actions`` on the boards to move, each seen by its mover."""

    def __init__(self, fn: Any) -> None:
        self.fn = fn

    def __repr__(self) -> str:
        return repr(self.fn)

    def reset(self, seed: int | None = None) -> None:
        if hasattr(self.fn, "reset"):
            self.fn.reset(seed)

    def actions(self, batch: BatchedGame, boards: np.ndarray) -> np.ndarray:
        obs = batch.observe(batch.to_move)[boards]
        return self.fn(obs, batch.legal_mask(boards))


class PolicyBatch(BuiltIn):
    """A numpy policy (``logits`` on a batch): its most probable legal move, or sampled at its temperature."""

    def __init__(self, policy: Any, seed: int | None = None) -> None:
        self.policy = policy
        self.temperature = float(getattr(policy, "temperature", 0.0))
        self.rng = np.random.default_rng(seed)

    def __repr__(self) -> str:
        return f"network {getattr(self.policy, 'source', None) or self.policy!r}"

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def actions(self, batch: BatchedGame, boards: np.ndarray) -> np.ndarray:
        obs = batch.observe(batch.to_move)[boards]
        masks = batch.legal_mask(boards)
        logits = np.asarray(self.policy.logits(obs), dtype=np.float64)
        if self.temperature > 0:  # Gumbel-max: one sample per row from softmax(logits / T) over the mask
            logits = logits / self.temperature - np.log(-np.log(self.rng.random(logits.shape)))
        return np.where(masks, logits, -np.inf).argmax(axis=1)


class PerBoard(BuiltIn):
    """An opponent with ``act(observation, mask, state)`` (bots, searches), asked board by board."""

    def __init__(self, opponent: Any) -> None:
        self.opponent = opponent

    def __repr__(self) -> str:
        return repr(self.opponent)

    def reset(self, seed: int | None = None) -> None:
        self.opponent.reset(seed)

    def actions(self, batch: BatchedGame, boards: np.ndarray) -> np.ndarray:
        obs = batch.observe(batch.to_move)
        masks = batch.legal_mask(boards)
        return np.array(
            [self.opponent.act(obs[b], masks[k], batch.board_state(int(b))) for k, b in enumerate(boards)],
            dtype=np.int64,
        )


class EngineBot(BuiltIn):
    """A built-in bot the engine plays itself (``Engine.bots``): all its boards in one call."""

    def __init__(self, name: str, bot: Any) -> None:
        self.name, self.bot = name, bot

    def __repr__(self) -> str:
        return repr(self.name)  # its chance comes from the boards' streams, seeded with the batch

    def actions(self, batch: BatchedGame, boards: np.ndarray) -> np.ndarray:
        return self.bot(batch, boards)


def batch_opponent(name: str, spec: Any, seed: int | None = None, **params: Any) -> BatchOpponent:
    """Turn an opponent spec (see the module docstring) into a batched opponent."""
    if isinstance(spec, BatchOpponent):
        return spec
    if isinstance(spec, str) and spec == "random":
        return RandomBatch()
    if isinstance(spec, str) and spec in DIFFICULTIES:
        bot = batched_engine(name, **params).bots.get(spec)
        if bot is not None:
            return EngineBot(spec, bot)
    if isinstance(spec, str) and spec.startswith(SEARCH_PREFIX):
        return PerBoard(make_opponent(name, spec[len(SEARCH_PREFIX) :], seed=seed, **params))
    if isinstance(spec, Path) or (isinstance(spec, str) and spec.endswith((".npz", ".zip"))):
        spec = make_opponent(name, spec, seed=seed, search=False, **params)
    elif isinstance(spec, str):
        spec = make_opponent(name, spec, seed=seed, **params)
    if isinstance(spec, Policy):
        return PolicyBatch(spec, seed)
    if isinstance(spec, Opponent):
        return PerBoard(spec)
    if callable(spec):
        return CallableBatch(spec)
    raise TypeError(
        f"{name}: an opponent must be 'random', 'easy', 'medium', 'hard', 'network', a policy file path "
        f"('{SEARCH_PREFIX}PATH' with its search), a numpy policy, a callable on (observations, masks), "
        f"an object with act() and reset() or a batch opponent (actions, reset, new_games); got {spec!r}"
    )


@dataclass(frozen=True)
class VectorOptions:
    """How a vector env resets and draws (the keywords of :class:`BatchedVectorEnv` beside the rules).

    Args:
        autoreset_mode: ``AutoresetMode.NEXT_STEP`` (default) or ``SAME_STEP`` (or their names).
        render_mode: None, ``"ansi"`` or ``"rgb_array"``; :meth:`BatchedVectorEnv.render` shows the first
            ``render_boards`` boards (a grid of pictures, or their texts one after another).
        render_boards: how many boards ``render`` shows (from board 0).
    """

    autoreset_mode: AutoresetMode = AutoresetMode.NEXT_STEP
    render_mode: str | None = None
    render_boards: int = 1

    @classmethod
    def checked(cls, name: str, num_envs: int, **options: Any) -> VectorOptions:
        """The options given for ``num_envs`` boards of game ``name``, each checked (a ``ValueError`` naming it)."""
        autoreset_mode = options.get("autoreset_mode", AutoresetMode.NEXT_STEP)
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError:
            mode = None
        if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
            raise ValueError(f"{name}: autoreset_mode must be NEXT_STEP or SAME_STEP, got {autoreset_mode!r}")
        render_mode = options.get("render_mode")
        if render_mode not in (None, "ansi", "rgb_array"):
            raise ValueError(f"{name}: render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r}")
        render_boards = options.get("render_boards", 1)
        if (boards := as_int(render_boards)) is None or not 1 <= boards <= num_envs:
            raise ValueError(f"{name}: render_boards must be an int in [1, {num_envs}], got {render_boards!r}")
        return cls(mode, render_mode, boards)


VECTOR_OPTIONS = tuple(f.name for f in fields(VectorOptions))


class BatchedVectorEnv(VectorEnv):
    """N boards of game ``name`` as a Gymnasium ``VectorEnv`` for one learner seat per board (see :mod:`envs.vector`).

    Args:
        name: registry name of a game with a batched engine.
        num_envs: number of boards.
        opponent: one spec for every other seat, or a sequence with one per other seat
            (in seat order, the learner's skipped).
        seed: seeds every board's stream (and the opponents); ``reset(seed=...)`` re-seeds.
        seat: the learner's seat on every board, or None to draw it per episode.
        **keywords: ``autoreset_mode``, ``render_mode`` and ``render_boards`` (:class:`VectorOptions`), and the
            game's rule parameters.
    """

    def __init__(
        self,
        name: str,
        num_envs: int,
        opponent: Any = "random",
        seed: int | None = None,
        seat: int | None = None,
        **keywords: Any,
    ) -> None:
        params = {key: value for key, value in keywords.items() if key not in VECTOR_OPTIONS}
        seed = as_seed(seed, name)
        # random opponents (the default) play in one compiled loop, which compiles in a second process meanwhile
        specs = opponent if isinstance(opponent, (list, tuple)) else [opponent]
        random = all(isinstance(spec, str) and spec == "random" for spec in specs)
        self.batch = make_batched(name, num_envs, seed=seed, random_others=random, **params)
        self.name = name
        self.params = params
        n = self.batch.num_envs
        options = VectorOptions.checked(name, n, **{key: keywords[key] for key in VECTOR_OPTIONS if key in keywords})
        self.fixed_seat = learner_seat(seat, self.batch.num_players, name)
        mode = options.autoreset_mode
        self.metadata = {"autoreset_mode": mode, "render_modes": ["ansi", "rgb_array"]}
        self.autoreset_mode = mode
        self.render_mode = options.render_mode
        self.render_boards = options.render_boards
        self.num_envs = n
        self.single_observation_space = spaces.Box(0.0, 1.0, shape=(self.batch.obs_size,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.batch.num_actions)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self.seats = np.zeros(n, dtype=np.int8)
        self._pending_reset = np.zeros(n, dtype=bool)
        self._carried = np.zeros(n, dtype=np.float32)  # paid to the learner before its first move of the game
        self._masks: np.ndarray | None = None  # the learner's masks of this position (read-only)
        self._out: np.ndarray | None = None  # which learners' episodes are over in this position
        self._boards = np.arange(n)
        self._seed = seed
        self._started = False
        self._failed: str | None = None  # an opponent failed: the env is over until reset()
        self._viewer: Any = None
        self.set_opponents(opponent)

    # -- opponents ---------------------------------------------------------------
    def set_opponents(self, opponent: Any) -> None:
        """Replace the opponents (one spec, or one per other seat; batch opponents such as a self-play pool
        are used as they are)."""
        specs = opponent_specs(opponent, self.batch.num_players - 1, self.name)
        self.opponents = [batch_opponent(self.name, s, seed=self._seed, **self.params) for s in specs]

    # -- gymnasium API -----------------------------------------------------------------
    def reset(self, *, seed: Any = None, options: dict | None = None):
        """New games on every board, or on the boards ``options["reset_mask"]`` names (Gymnasium 1.x).

        ``seed``: None (the streams go on; the constructor's seed on the first reset), an int >= 0 for the
        whole batch, or a sequence of ``num_envs`` ints (board ``i`` seeded by ``seed[i]``). Every argument
        is checked before any board changes.
        """
        where = self._reset_mask(options)
        if seed is None and not self._started:
            seed = self._seed
        streams = None if seed is None else board_streams(seed, self.num_envs, self.name)
        if streams is not None:
            self.batch.rng[where] = streams[where]
            if where.all():  # the opponents' own randomness is shared by every board
                for k, opp in enumerate(self.opponents):
                    opp.reset(_opponent_seed(seed, k))
        self._started = True
        self._failed = None
        self._pending_reset[where] = False
        self._start(where, self._positions(options, where))
        return self.batch.observe(self.seats), self._infos(where)

    def position(self, board: int, seat: int | None = None) -> str:
        """Board ``board``'s position in the game's notation (whole, or as ``seat`` knows it)."""
        return self.batch.position(board, seat)

    def step(self, actions: Any):
        """The learner's action on every board, then the others' moves.

        Returns (obs, rewards, terminated, truncated, infos) as Gymnasium's VectorEnv.
        """
        if not self._started:
            raise RuntimeError(f"{self.name}: call reset() before step()")
        if self._failed is not None:
            raise RuntimeError(
                f"{self.name}: the episodes ended when an opponent failed ({self._failed}); call reset()"
            )
        resetting = self._pending_reset.copy()
        actions = self._learner_actions(actions, ~resetting)
        rewards = np.where(resetting, 0.0, self._carried).astype(np.float32)
        self._carried[~resetting] = 0.0
        self._move(actions, rewards, checked=True)
        self._play_others(rewards)
        done = self._learner_out() & ~resetting
        infos: dict[str, Any] = {}
        if self.autoreset_mode is AutoresetMode.SAME_STEP:
            if done.any():
                infos["final_obs"] = self.batch.observe(self.seats)
                infos["_final_obs"] = done.copy()
                infos["final_info"] = {"seat": self.seats.copy(), "_seat": done.copy()}
                infos["_final_info"] = done.copy()
                self._start(done)
        else:
            if resetting.any():
                self._start(resetting)
            self._pending_reset = done
        self._masks = None
        infos.update(self._infos(np.ones(self.num_envs, dtype=bool)))
        return (self.batch.observe(self.seats), rewards, done, np.zeros(self.num_envs, dtype=bool), infos)

    def action_masks(self, dtype: Any = bool) -> np.ndarray:
        """(N, A): the learner's legal actions per board (all True on a board whose episode is over).

        Bool (what MaskablePPO reads) by default; ``action_masks(np.int8)`` for
        ``action_space.sample(mask=...)``. A new array each call.
        """
        return self._learner_masks().astype(dtype)

    def render(self) -> Any:
        """The first ``render_boards`` boards: one text (``"ansi"``) or one picture, a grid (``"rgb_array"``)."""
        if self.render_mode is None:
            raise ValueError(f"{self.name}: render() needs render_mode='ansi' or 'rgb_array' given to make_vec")
        return self.render_board(range(self.render_boards))

    def render_board(self, boards: int | Sequence[int]) -> Any:
        """Board ``boards`` (an int), or several boards together, in the env's ``render_mode``."""
        if self.render_mode is None:
            raise ValueError(f"{self.name}: rendering needs render_mode='ansi' or 'rgb_array' given to make_vec")
        if not self._started:
            raise RuntimeError(f"{self.name}: call reset() before rendering")
        single = isinstance(boards, (int, np.integer))
        frames = [self._frame(b) for b in ([boards] if single else boards)]
        if single:
            return frames[0]
        if self.render_mode == "ansi":
            return "\n\n".join(frames)
        return _grid(frames)

    def call(self, attribute: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Gymnasium's ``call``: the env's method (or attribute) ``attribute`` as one value per board.

        ``action_masks``, ``seats`` and ``render_board`` give each board its own row; anything else is the
        vector env's own attribute, the same for every board.
        """
        if attribute == "action_masks":
            return tuple(self.action_masks(*args, **kwargs))
        if attribute in ("seat", "seats"):
            return tuple(int(s) for s in self.seats)
        if attribute in ("render", "render_board"):
            return tuple(self._frame(i) for i in range(self.num_envs))
        if not hasattr(self, attribute):
            raise AttributeError(f"{self.name}: the vector env has no attribute {attribute!r}")
        value = getattr(self, attribute)
        result = value(*args, **kwargs) if callable(value) else value
        return tuple(result for _ in range(self.num_envs))

    def get_attr(self, attribute: str) -> tuple[Any, ...]:
        """Gymnasium's ``get_attr``: ``attribute`` once per board (see :meth:`call`)."""
        return self.call(attribute)

    def set_attr(self, attribute: str, values: Any) -> None:
        """Gymnasium's ``set_attr``: one value for every board (a list or tuple of ``num_envs`` equal values too).

        The boards share one env, so different values per board are refused with a message.
        """
        if isinstance(values, (list, tuple)):
            if len(values) != self.num_envs:
                raise ValueError(f"{self.name}: set_attr takes one value or {self.num_envs}, got {len(values)}")
            if any(v is not values[0] and v != values[0] for v in values):
                raise ValueError(
                    f"{self.name}: set_attr({attribute!r}) got different values per board; the boards share one env "
                    "(set opponents per seat with set_opponents)"
                )
            values = values[0]
        if attribute == "opponent":
            self.set_opponents(values)
            return
        if not hasattr(self, attribute):
            raise AttributeError(f"{self.name}: the vector env has no attribute {attribute!r} to set")
        setattr(self, attribute, values)

    # -- internals ----------------------------------------------------------------------
    def _reset_mask(self, options: dict | None) -> np.ndarray:
        """The boards a reset renews: ``options["reset_mask"]`` (checked as Gymnasium checks it), else all."""
        options = dict(options or {})
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise ValueError(f"{self.name}: unknown reset option(s) {unknown}; the vector env takes {list(OPTIONS)}")
        if "reset_mask" not in options:
            return np.ones(self.num_envs, dtype=bool)
        mask = options["reset_mask"]
        if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
            raise ValueError(
                f"{self.name}: options['reset_mask'] must be a bool numpy array of shape ({self.num_envs},), "
                f"got {type(mask).__name__} {getattr(mask, 'dtype', '')} {getattr(mask, 'shape', '')}"
            )
        if not mask.any():
            raise ValueError(f"{self.name}: options['reset_mask'] resets no board (all False)")
        if not self._started:
            raise RuntimeError(f"{self.name}: the first reset() renews every board; reset_mask comes after it")
        return mask.copy()

    def _learner_actions(self, actions: Any, moving: np.ndarray) -> np.ndarray:
        """The learner's actions checked: (N,) ints, each in the action space and legal on every board where it
        moves; on the other boards (being reset) any int is ignored, ``-1`` included."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or actions.dtype.kind not in "iu":
            raise ValueError(
                f"{self.name}: actions must be ints of shape ({self.num_envs},), got {actions.dtype} {actions.shape}"
            )
        actions = actions.astype(np.int64)
        width = self.batch.num_actions
        inside = (actions >= 0) & (actions < width)
        legal = np.zeros(self.num_envs, dtype=bool)
        rows = np.flatnonzero(inside & moving)
        legal[rows] = self._learner_masks()[rows, actions[rows]]
        bad = np.flatnonzero(moving & ~(inside & legal))
        if bad.size:
            raise ValueError(
                f"{self.name}: illegal learner action(s) ({describe_actions(bad, actions)}); each must be in "
                f"[0, {width}) and legal for the learner on its board: see action_masks()"
            )
        return np.where(moving, actions, -1)

    def _learner_masks(self) -> np.ndarray:
        """The learner's masks of the current position (computed once; all True where its episode is over)."""
        if self._masks is None:
            masks = self.batch.legal_mask()
            masks[self._learner_out() | self._pending_reset] = True
            masks.flags.writeable = False
            self._masks = masks
        return self._masks

    def _infos(self, where: np.ndarray) -> dict[str, Any]:
        mask = self._learner_masks().view(np.int8)
        return {"seat": self.seats.copy(), "_seat": where.copy(), "action_mask": mask, "_action_mask": where.copy()}

    def _learner_out(self) -> np.ndarray:
        """(N,) bool: the learner's episode is over (its game over, or its seat out of the game); once a position."""
        if self._out is None:
            self._out = ~self.batch.in_game(self.seats)
        return self._out

    def _move(self, actions: np.ndarray, into: np.ndarray, checked: bool = False) -> None:
        """Play ``actions`` (-1: no move; ``checked``: each -1 or legal, see BatchedGame.step) and add what the
        learner's seat received to ``into``."""
        rewards, _ = self.batch.step(actions, checked=checked)
        into += rewards[self._boards, self.seats]
        self._masks = self._out = None

    def _positions(self, options: dict | None, where: np.ndarray) -> dict[int, str]:
        """``options["position"]`` by board: one text for every board reset, or a sequence of one per board
        reset (in board order); the texts are read here, so a bad one changes no board."""
        texts = (options or {}).get("position")
        boards = np.flatnonzero(where).tolist()
        if texts is None:
            return {}
        if isinstance(texts, str):
            texts = [texts] * len(boards)
        if not isinstance(texts, (list, tuple)) or len(texts) != len(boards):
            given = f"{len(texts)} texts" if isinstance(texts, (list, tuple)) else type(texts).__name__
            raise ValueError(
                f"{self.name}: options['position'] must be one position text or a list of {len(boards)} "
                f"(one per board reset), got {given}"
            )
        game = self.batch.engine.game
        for text in set(texts):
            game.from_text(text, np.random.default_rng(0))
        return dict(zip(boards, texts))

    def _start(self, where: np.ndarray, positions: dict[int, str] | None = None) -> None:
        """New games on the boards ``where`` (from ``positions`` where given), played on until their learner is
        to move. A game from a given position that ends before its learner moves raises.

        What the learner receives before its first move is carried into that move's reward. A game that
        ends first is started again (its rewards dropped), at most
        :data:`~envs.core.learner.MAX_RESTARTS` times in a row.
        """
        left = where

        def start() -> bool:
            nonlocal left
            for opponent in self.opponents:
                opponent.new_games(left)
            self.batch.reset_where(left)
            for board, text in (positions or {}).items():
                if left[board]:  # hidden parts of a seat's view dealt from the board's own stream
                    self.batch.set_position(board, text, np.random.default_rng(int(self.batch.rng[board])))
            if self.fixed_seat is None:
                draw_seats(self.batch.rng, left, self.batch.num_players, self.seats)
            else:
                self.seats[left] = self.fixed_seat
            self._masks = self._out = None
            self._carried[left] = 0.0
            self._play_others(self._carried)
            left = left & self._learner_out()
            ended = [b for b in (positions or {}) if left[b]]
            if ended:
                raise RuntimeError(
                    f"{self.name}: the position given to reset() on board {ended[0]} ends before its learner "
                    f"(seat {self.seats[ended[0]]}) moves: {positions[ended[0]]!r}"
                )
            return not left.any()

        start_until_learner_moves(start, self.name)

    def _play_others(self, into: np.ndarray) -> None:
        """The other seats move, batched, until every board's learner is to move or out; what the learner's
        seat receives meanwhile is added to ``into``."""
        batch = self.batch
        if batch.engine.random_others is not None and all(isinstance(o, RandomBatch) for o in self.opponents):
            into += batch.play_random_others(self.seats)  # the whole loop compiled
            self._masks = self._out = None
            return
        while True:
            to_move = batch.to_move
            waiting = ~self._learner_out() & (to_move != self.seats)
            if not waiting.any():
                return
            actions = np.full(self.num_envs, -1, dtype=np.int64)
            if len(self.opponents) == 1:
                index = np.zeros(self.num_envs, dtype=np.int64)
                actions[waiting] = self._opponent_actions(self.opponents[0], np.flatnonzero(waiting), to_move)
            else:
                index = opponent_index(to_move, self.seats)
                for k, opp in enumerate(self.opponents):
                    boards = np.flatnonzero(waiting & (index == k))
                    if boards.size:
                        actions[boards] = self._opponent_actions(opp, boards, to_move)
            try:  # the built-in opponents' moves are legal by construction; the others' the engine checks
                self._move(actions, into, checked=all(isinstance(o, (RandomBatch, EngineBot)) for o in self.opponents))
            except ValueError:  # the engine refused a move: say whose
                raise self._illegal_opponent_moves(actions, index, to_move) from None

    def _illegal_opponent_moves(self, actions: np.ndarray, index: np.ndarray, to_move: np.ndarray) -> OpponentError:
        """The error for opponents' moves the engine refused, naming each opponent with its boards and seats."""
        bad = self.batch.illegal_boards(actions)
        culprits = sorted({int(index[b]) for b in bad})
        self._fail(f"opponent {self.opponents[culprits[0]]!r} chose moves that cannot be played")
        return OpponentError(
            f"{self.name}: "
            + "; ".join(
                f"opponent {self.opponents[k]!r} chose move(s) that cannot be played "
                f"({_boards_seats_actions(bad[index[bad] == k], to_move, actions)})"
                for k in culprits
            )
            + f"; an opponent must pick a legal action in [0, {self.batch.num_actions}) on every board it is asked"
        )

    def _opponent_actions(self, opponent: Any, boards: np.ndarray, to_move: np.ndarray) -> np.ndarray:
        """``opponent``'s moves on ``boards``: one int per board in the action space, else :class:`OpponentError`
        (whether each is legal the engine checks when it plays them)."""
        where = f"{self.name}: opponent {opponent!r}"
        try:
            actions = np.asarray(opponent.actions(self.batch, boards))
        except Exception as err:
            self._fail(f"{where} failed")
            raise OpponentError(
                f"{where} failed on boards {boards[:8].tolist()} (seats {to_move[boards[:8]].tolist()}): "
                f"{type(err).__name__}: {err}"
            ) from err
        if actions.shape != (boards.size,) or actions.dtype.kind not in "iu":
            self._fail(f"{where} returned {actions.dtype} {actions.shape}")
            raise OpponentError(
                f"{where} must return one int per board, shape ({boards.size},), got {actions.dtype} {actions.shape}"
            )
        outside = (actions < 0) | (actions >= self.batch.num_actions)
        if outside.any():
            full = np.full(self.num_envs, -1, dtype=np.int64)
            full[boards] = actions
            self._fail(f"{where} chose moves that cannot be played")
            raise OpponentError(
                f"{where} chose move(s) that cannot be played "
                f"({_boards_seats_actions(boards[outside], to_move, full)}); "
                f"an opponent must pick a legal action in [0, {self.batch.num_actions}) on every board it is asked"
            )
        return actions

    def _fail(self, why: str) -> None:
        self._failed = why

    def _frame(self, board: int) -> Any:
        """Board ``board`` drawn in the env's render mode, as the game's AEC env draws it."""
        if self._viewer is None:
            self._viewer = game_module(self.name).raw_env(render_mode=self.render_mode, **self.params)
        viewer = self._viewer
        state = self.batch.board_state(int(board))
        title = f"board {int(board)}, learner: player_{int(self.seats[board])}"
        if self.render_mode == "ansi":
            return f"{title}\n{viewer.renderer.ansi(viewer.game, state, None)}"
        canvas = Canvas(viewer.renderer.size(viewer.game), "rgb_array")
        viewer.renderer.draw(canvas.surface, viewer.game, state, None)
        return canvas.show()


def _boards_seats_actions(boards: np.ndarray, seats: np.ndarray, actions: np.ndarray, most: int = 8) -> str:
    """``board 3 (seat 1): -1, ...``: the first ``most`` boards with the seat that moved and its action."""
    shown = ", ".join(f"board {int(b)} (seat {int(seats[b])}): {int(actions[b])}" for b in boards[:most])
    return shown + (", ..." if len(boards) > most else "")


def _opponent_seed(seed: Any, k: int) -> int:
    """Opponent ``k``'s seed from a reset seed (an int, or one per board)."""
    if isinstance(seed, (int, np.integer)):
        return int(seed) + 1 + k
    entropy = [int(s) for s in np.asarray(seed).ravel()]
    return int(np.random.SeedSequence(entropy).generate_state(1)[0]) + k


def _grid(frames: list[np.ndarray]) -> np.ndarray:
    """Pictures of one size side by side, ``ceil(sqrt(k))`` a row, 4 pixels apart."""
    cols = math.ceil(math.sqrt(len(frames)))
    rows = math.ceil(len(frames) / cols)
    h, w, _ = frames[0].shape
    gap = 4
    out = np.full((rows * h + (rows - 1) * gap, cols * w + (cols - 1) * gap, 3), 255, dtype=np.uint8)
    for k, frame in enumerate(frames):
        r, c = divmod(k, cols)
        out[r * (h + gap) : r * (h + gap) + h, c * (w + gap) : c * (w + gap) + w] = frame
    return out


def make_vec(name: str, num_envs: int = 1, opponent: Any = "random", seed: int | None = None, **kwargs: Any):
    """A Gymnasium ``VectorEnv`` of N boards: the learner holds one seat per board (:class:`BatchedVectorEnv`).

    Also each gymnasium id's ``vector_entry_point``:
    ``gymnasium.make_vec("swgym/Swival-v0", num_envs=N, vectorization_mode="vector_entry_point")``.
    """
    return BatchedVectorEnv(name, num_envs, opponent=opponent, seed=seed, **kwargs)


__all__ = [
    "SEARCH_PREFIX",
    "VECTOR_OPTIONS",
    "BatchedVectorEnv",
    "EngineBot",
    "VectorOptions",
    "batch_opponent",
    "make_vec",
]
