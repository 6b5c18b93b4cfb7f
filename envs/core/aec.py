"""The one PettingZoo AEC adapter shared by every game.

A game's ``env.py`` subclasses :class:`TurnBasedEnv` and supplies only:

* ``game_cls``: its :class:`~envs.core.game.Game` subclass;
* ``metadata`` (``name``, ``render_modes``, ``render_fps``);
* ``observation(game)`` (the vector's named pieces) and ``observe_state(game, state, seat)``;
* ``renderer``: an object with ``ansi(game, state, last)``, ``size(game)`` and
  ``draw(surface, game, state, last)`` (see :mod:`envs.core.rendering`).

Everything about agents, rewards, terminations, seeding, illegal actions,
snapshots (undo) and render dispatch lives here, once.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any, ClassVar, NamedTuple

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv

from envs.core import wrappers
from envs.core.action_layout import ActionLayout
from envs.core.board_graph import BoardGraph
from envs.core.checks import as_int, as_seed, none_for_live_agent
from envs.core.game import Game, RuleError
from envs.core.observation import Observation
from envs.core.rendering import Canvas


def turn_based_metadata(name: str, render_fps: int = 2) -> dict[str, Any]:
    """The PettingZoo ``metadata`` of a game env named ``name`` (e.g. ``"swival_v0"``)."""
    return {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": name,
        "is_parallelizable": False,
        "render_fps": render_fps,
    }


class TurnBasedEnv(AECEnv, EzPickle):
    """A turn-based game as a PettingZoo AEC environment.

    Keyword arguments other than ``render_mode`` are the game's rule
    parameters (see the game's docstring); unknown ones raise ``TypeError``.
    """

    game_cls: ClassVar[type[Game]]
    renderer: ClassVar[Any]
    metadata: ClassVar[dict[str, Any]] = turn_based_metadata("turn_based")

    def __init__(self, render_mode: str | None = None, **params: Any) -> None:
        EzPickle.__init__(self, render_mode=render_mode, **params)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"{self.metadata['name']}: render_mode must be one of "
                f"{self.metadata['render_modes']} or None, got {render_mode!r}"
            )
        self.render_mode = render_mode
        self.game = self.game_cls(**params)
        self.possible_agents = [f"player_{i}" for i in range(self.game.num_players)]
        self.agent_seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        obs_box = spaces.Box(0.0, 1.0, shape=self.observation_shape(self.game), dtype=np.float32)
        mask_box = spaces.Box(0, 1, shape=(self.game.num_actions,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": obs_box, "action_mask": mask_box}) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.game.num_actions) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self._canvas = None
        # the rules' position (named so as not to hide PettingZoo's global-state method state())
        self.game_state = None
        self.last_move: tuple[int, int] | None = None
        self._mask_cache: np.ndarray | None = None
        self._returns = np.zeros(self.game.num_players)  # each seat's rewards since the game began

    # -- what a game supplies ------------------------------------------------
    @staticmethod
    def observation(game: Game) -> Observation:
        """The observation vector's named pieces (:mod:`envs.core.observation`), under ``game``'s rule values."""
        raise NotImplementedError

    @classmethod
    def observation_shape(cls, game: Game) -> tuple[int, ...]:
        return (cls.observation(game).size,)

    @staticmethod
    def observe_state(game: Game, state: Any, seat: int) -> np.ndarray:
        raise NotImplementedError

    @staticmethod
    def symmetries(game: Game) -> list[Symmetry]:
        """The transformations under which the rules play the same (none unless a game declares them)."""
        return []

    @staticmethod
    def action_layout(game: Game) -> ActionLayout | None:
        """The actions as (cell, move) pairs for a factored action head (:mod:`envs.core.action_layout`); None
        (the default) for a game whose actions do not factor so."""
        return None

    @staticmethod
    def board_graph(game: Game) -> BoardGraph | None:
        """The observation's planes of one value per cell and each cell's neighbours, for a network's convolution
        over the board (:mod:`envs.core.board_graph`); None (the default) for a game without such planes."""
        return None

    # -- PettingZoo API ------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game; ``options={"position": text}`` starts from that position in the game's notation instead
        (a seat's view has its hidden parts dealt from the env's generator)."""
        seed = as_seed(seed, self.metadata["name"])
        position = reset_position(self.metadata["name"], options)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        if position is None:
            self._start(self.game.new_state(self._rng))
        else:
            self._start(self.game.from_text(position, self._rng))
        if self.render_mode == "human":
            self.render()

    def _start(self, state: Any) -> None:
        """Play on from ``state``: agents, rewards and terminations as the position has them, nothing cached."""
        self.game_state = state
        self.last_move = None
        self._mask_cache = None
        self._returns = np.zeros(self.game.num_players)
        # seats that have left the game in this position (Swimming's sunk players) are not agents any more
        self.agents = [a for a in self.possible_agents if self.game.seat_active(state, self.agent_seat[a])]
        over = self.game.is_over(state)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, over)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self.game.to_move(state)]

    def legal_mask(self) -> np.ndarray:
        """Boolean legality of every action for the agent to move (cached per position).

        Read-only: the env checks moves against this very array, so a
        caller who wants to edit a mask takes a copy.
        """
        if self._mask_cache is None:
            mask = self.game.legal_mask(self.game_state)  # a new array each call (the Game contract)
            mask.setflags(write=False)
            self._mask_cache = mask
        return self._mask_cache

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.agent_seat[agent]
        observation = self.observe_state(self.game, self.game_state, seat)
        if agent == self.agent_selection and not self.terminations.get(agent, True):
            mask = self.legal_mask().astype(np.int8)
        else:
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": observation, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise none_for_live_agent(self.metadata["name"], agent)
        seat = self.agent_seat[agent]
        action = self.game.check_action(self.game_state, action, self.legal_mask())
        self._cumulative_rewards[agent] = 0.0
        step_rewards = self.game.apply(self.game_state, action, self._rng)
        self._mask_cache = None
        self.last_move = (seat, action)
        self._returns += step_rewards
        for a in self.agents:
            self.rewards[a] = float(step_rewards[self.agent_seat[a]])
        if self.game.is_over(self.game_state):
            for a in self.agents:
                self.terminations[a] = True
            self.agent_selection = agent
        else:
            for a in self.agents:
                if not self.game.seat_active(self.game_state, self.agent_seat[a]):
                    self.terminations[a] = True
            self.agent_selection = self.possible_agents[self.game.to_move(self.game_state)]
        self._accumulate_rewards()
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    # -- snapshots (undo in the play apps) -----------------------------------
    def snapshot(self) -> dict[str, Any]:
        """Everything needed to put the env back exactly as it is now."""
        return {
            "state": self.game.copy_state(self.game_state),
            "last_move": self.last_move,
            "rng": self._rng.bit_generator.state,
            "returns": self._returns.copy(),
            "agents": self.agents[:],
            "rewards": dict(self.rewards),
            "cumulative": dict(self._cumulative_rewards),
            "terminations": dict(self.terminations),
            "truncations": dict(self.truncations),
            "infos": {a: dict(i) for a, i in self.infos.items()},
            "selection": self.agent_selection,
            "skip": getattr(self, "_skip_agent_selection", None),
        }

    # -- copies (deepcopy, pickle): the constructor's arguments plus the live game --
    def __getstate__(self) -> dict[str, Any]:
        """Rebuilt from the constructor's arguments (EzPickle), then put back with :meth:`snapshot`.

        A pygame canvas is never copied: the copy opens its own on its first render.
        """
        state = EzPickle.__getstate__(self)
        state["snapshot"] = None if self.game_state is None else self.snapshot()
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        EzPickle.__setstate__(self, state)
        if state.get("snapshot") is not None:
            self.restore(state["snapshot"])

    def restore(self, snap: dict[str, Any]) -> None:
        """Undo back to a :meth:`snapshot`."""
        self.game_state = self.game.copy_state(snap["state"])
        self.last_move = snap["last_move"]
        self._rng.bit_generator.state = snap["rng"]
        self._returns = snap["returns"].copy()
        self.agents = snap["agents"][:]
        self.rewards = dict(snap["rewards"])
        self._cumulative_rewards = dict(snap["cumulative"])
        self.terminations = dict(snap["terminations"])
        self.truncations = dict(snap["truncations"])
        self.infos = {a: dict(i) for a, i in snap["infos"].items()}
        self.agent_selection = snap["selection"]
        self._skip_agent_selection = snap["skip"]
        self._mask_cache = None

    def action_name(self, action: int) -> str:
        """Readable name of ``action`` in the current position."""
        return self.game.action_name(self.game_state, int(action))

    # -- positions and the state API (as OpenSpiel's State; see docs/positions.md) ----------------
    def position(self, seat: int | str | None = None) -> str:
        """The current position in the game's notation: the whole of it, or what ``seat`` (a seat number or
        an agent's name) knows, hidden parts written ``?``. ``reset(options={"position": text})`` reads it."""
        return self.game.to_text(self._live_state(), None if seat is None else self._seat(seat))

    def clone(self, keep_chance: bool = False, seed: int | np.random.Generator | None = None) -> TurnBasedEnv:
        """An independent copy of this env (unwrapped, no window, no rendering) to search in.

        Its future chance (the next deal, the order of the stock) is drawn
        afresh from ``seed`` (an int, a Generator, or None for fresh entropy),
        so a clone never holds the original's next deal; ``keep_chance=True``
        keeps the original's generator and stock instead, as ``copy.deepcopy``
        and pickle do (exact copies, for checkpoints).
        """
        if keep_chance and seed is not None:
            raise ValueError(
                f"{self.metadata['name']}: clone(keep_chance=True) keeps the original's chance; "
                "a seed would draw it afresh: give one or the other"
            )
        copied = self._light_copy()
        if keep_chance:
            copied._rng = np.random.default_rng()
            copied._rng.bit_generator.state = self._rng.bit_generator.state
        else:
            copied._rng = fresh_generator(seed, self.metadata["name"])
            copied.game_state = self.game.fresh_chance(copied.game_state, copied._rng)
        return copied

    def _light_copy(self, state: Any = None) -> TurnBasedEnv:
        """A copy sharing what never changes in play (the rules, the spaces, the read-only mask) with its own
        position (a copy of this one, or ``state``, taken as it is) and bookkeeping, and no window; the caller
        gives it a generator."""
        copied = object.__new__(type(self))  # not copy.copy: EzPickle would build the env again
        copied.__dict__.update(self.__dict__)
        copied.game_state = self.game.copy_state(self._live_state()) if state is None else state
        if state is not None:
            copied._mask_cache = None  # another position: its own mask
        copied._returns = self._returns.copy()
        copied.agents = self.agents[:]
        for name in ("rewards", "_cumulative_rewards", "terminations", "truncations"):
            setattr(copied, name, dict(getattr(self, name)))
        copied.infos = {a: dict(i) for a, i in self.infos.items()}
        copied._canvas = None
        copied.render_mode = None
        return copied

    def current_player(self) -> int:
        """The seat to move (meaningless once the game is over: see :meth:`is_terminal`)."""
        return self.game.to_move(self._live_state())

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to move, ascending ([] once the game is over)."""
        return np.flatnonzero(self.legal_mask()).tolist() if not self.is_terminal() else []

    def apply(self, action: Any) -> None:
        """Play ``action`` for the seat to move (an illegal one raises :class:`RuleError`); seats that have left
        the game are stepped past, so the next call is always for a seat in the game or a finished game."""
        if self.is_terminal():
            raise RuleError(f"{self.metadata['name']}: the game is over; no action can be applied")
        self.step(action)
        while self.agents and not self.is_terminal() and self.terminations[self.agent_selection]:
            self.step(None)  # PettingZoo's dead step of a seat that just left the game

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.game.is_over(self._live_state())

    def is_chance(self) -> bool:
        """Always False: chance (deals, draws) is resolved inside :meth:`apply` from the env's generator, so no
        position waits for a chance outcome. :meth:`clone` decides whose chance a copy gets."""
        return False

    def returns(self) -> list[float]:
        """Every seat's rewards summed since reset (from the start or the position given), by seat."""
        self._live_state()
        return [float(r) for r in self._returns]

    def action_to_string(self, action: int) -> str:
        """The readable name of ``action`` in the current position (as ``swgym play`` shows it)."""
        return self.game.action_name(self._live_state(), int(action))

    def string_to_action(self, text: str) -> int:
        """The legal action named ``text`` (see :meth:`action_to_string`) in the current position."""
        names = {self.action_to_string(a): a for a in self.legal_actions()}
        if text not in names:
            shown = ", ".join(list(names)[:12]) + (", ..." if len(names) > 12 else "")
            raise RuleError(f"{self.metadata['name']}: no legal action is named {text!r} here; legal: {shown}")
        return names[text]

    def sample_world(
        self, seat: int | str, rng: np.random.Generator, model: Callable | None = None, candidates: int = 16
    ) -> TurnBasedEnv:
        """A clone in a full position consistent with all ``seat`` has observed, hidden parts drawn from ``rng``
        (the position itself in a game without hidden information), its future chance fresh from ``rng``.

        With ``model`` (``model(observation, mask) -> probabilities over actions``),
        ``candidates`` worlds are drawn and one is picked with weight the
        probability of the others' past moves this round under the model.
        """
        seat = self._seat(seat)
        worlds = [
            self.game.determinize(self._live_state(), seat, rng) for _ in range(1 if model is None else candidates)
        ]
        pick = 0 if model is None else int(rng.choice(len(worlds), p=self._world_weights(worlds, seat, model)))
        world = self._light_copy(worlds[pick])
        world._rng = fresh_generator(rng, self.metadata["name"])
        world.game_state = self.game.fresh_chance(world.game_state, world._rng)
        return world

    def _world_weights(self, worlds: list[Any], seat: int, model: Callable) -> np.ndarray:
        """How likely each world made the others' past moves under ``model``, normalised (uniform if none can)."""
        weights = np.ones(len(worlds))
        for k, world in enumerate(worlds):
            for past, move in self.game.past_decisions(world, seat):
                mover = self.game.to_move(past)
                mask = self.game.legal_mask(past)
                weights[k] *= float(np.asarray(model(self.observe_state(self.game, past, mover), mask))[move])
        total = weights.sum()
        return weights / total if total > 0 else np.full(len(worlds), 1.0 / len(worlds))

    def state(self) -> np.ndarray:
        """The whole position as one vector, for centralised critics: every hand, the stock, all of it.

        Never part of any seat's observation: a seat's own view is :meth:`observe`.
        """
        return self.state_vector(self.game, self._live_state())

    @functools.cached_property
    def state_space(self) -> spaces.Box:
        """The space of :meth:`state`'s vectors (made once: its size is the variant's)."""
        size = int(self.state_vector(self.game, self.game.new_state(np.random.default_rng(0))).size)
        return spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32)

    @classmethod
    def state_vector(cls, game: Game, state: Any) -> np.ndarray:
        """The whole position as a vector: by default every seat's observation in turn, which is the whole
        position in a game without hidden information; games with hidden cards add what no seat sees."""
        return np.concatenate([cls.observe_state(game, state, seat) for seat in range(game.num_players)])

    def decode_observation(self, observation: np.ndarray) -> dict[str, np.ndarray]:
        """An observation vector cut into its declared named pieces (see the game's docs page)."""
        return self.observation(self.game).split(np.asarray(observation))

    def describe_observation(self, observation: np.ndarray) -> str:
        """A short readable text of an observation's pieces, one line each, for debugging a network's inputs."""
        return self.observation(self.game).describe(np.asarray(observation))

    def _seat(self, seat: int | str) -> int:
        if isinstance(seat, str) and seat in self.agent_seat:
            return self.agent_seat[seat]
        if as_int(seat) is not None and 0 <= seat < self.game.num_players:
            return int(seat)
        raise ValueError(
            f"{self.metadata['name']}: seat must be 0..{self.game.num_players - 1} or one of "
            f"{self.possible_agents}, got {seat!r}"
        )

    def _live_state(self) -> Any:
        if self.game_state is None:
            raise RuntimeError(f"{self.metadata['name']}: call reset() first")
        return self.game_state

    # -- rendering -------------------------------------------------------------
    def render(self) -> Any:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode= to the env")
            return None
        if self.game_state is None:
            raise RuntimeError(f"{self.metadata['name']}: call reset() before render()")
        if self.render_mode == "ansi":
            return self.renderer.ansi(self.game, self.game_state, self.last_move)
        if self._canvas is None:
            self._canvas = Canvas(
                self.renderer.size(self.game),
                self.render_mode,
                title=self.metadata["name"],
                fps=self.metadata["render_fps"],
            )
        self.renderer.draw(self._canvas.surface, self.game, self.game_state, self.last_move)
        return self._canvas.show()

    def close(self) -> None:
        if self._canvas is not None:
            self._canvas.close()
            self._canvas = None


def reset_position(name: str, options: dict | None) -> str | None:
    """The position text of ``reset``'s options (None: a new game); other options are ignored with a warning."""
    if options is None:
        return None
    if not isinstance(options, dict):
        raise TypeError(f"{name}: reset's options must be a dict, got {type(options).__name__}")
    unknown = sorted(set(options) - {"position"}, key=str)
    if unknown:  # PettingZoo's api_test passes options of its own: a warning, not an error
        warnings.warn(f"{name}: reset option(s) {unknown} ignored; the env takes 'position'", stacklevel=3)
    return options.get("position")


def fresh_generator(seed: int | np.random.Generator | None, name: str) -> np.random.Generator:
    """A new generator: from ``seed`` (an int), drawn from ``seed`` (a Generator), or fresh entropy (None)."""
    if isinstance(seed, np.random.Generator):
        return np.random.default_rng(int(seed.integers(2**63)))
    return np.random.default_rng(as_seed(seed, name))


class Symmetry(NamedTuple):
    """A transformation of positions under which the rules play the same, e.g. a rotation of the board.

    ``state(s)``: the transformed rules state (a new object). ``observation`` and ``action``: index arrays such
    that the transformed position's observation is ``obs[observation]`` and its legal mask ``mask[action]``
    (so the transformed position's action ``b`` is the original's ``action[b]``). A test plays every
    declared symmetry against the rules.
    """

    state: Callable[[Any], Any]
    observation: np.ndarray
    action: np.ndarray


def wrap(raw: TurnBasedEnv) -> AECEnv:
    """PettingZoo's usual wrappers: illegal move loses (-1), bounds, call order."""
    env = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


__all__ = ["RuleError", "Symmetry", "TurnBasedEnv", "fresh_generator", "reset_position", "turn_based_metadata", "wrap"]
