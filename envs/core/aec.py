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
from envs.core.checks import as_seed, none_for_live_agent
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
        seed = as_seed(seed, self.metadata["name"])
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game_state = self.game.new_state(self._rng)
        self.last_move = None
        self._mask_cache = None
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self.game.to_move(self.game_state)]
        if self.render_mode == "human":
            self.render()

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


__all__ = ["RuleError", "Symmetry", "TurnBasedEnv", "turn_based_metadata", "wrap"]
