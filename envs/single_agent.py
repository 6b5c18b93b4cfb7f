"""Single-agent Gymnasium view of any game: the learner holds one seat.

The other seats are played inside :meth:`SingleAgentEnv.step` by opponents
given by name ("random", "easy", "medium", "hard"), policy file or object.
The learner's reward is everything it received since its previous action,
opponents' moves included; what it received before its first action (an
opponent's move or a round ended on the deal, inside ``reset()``) comes with
its first step's reward. An opponent that fails (raises, or picks a move that
cannot be played) ends the episode with an :class:`~envs.core.opponents.OpponentError`.
``action_masks()`` is a method of the env itself, so sb3-contrib's
MaskablePPO finds it through any VecEnv, SubprocVecEnv too.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from envs.core.aec import reset_position
from envs.core.checks import as_action, as_seed
from envs.core.game import RuleError
from envs.core.learner import learner_seat, opponent_index, start_until_learner_moves
from envs.core.match import turns
from envs.core.opponents import OpponentError, opponent_specs
from envs.opponents import make_opponent
from envs.registry import make_raw


class SingleAgentEnv(gymnasium.Env):
    """``SingleAgentEnv("swival", opponent="medium")``: learner against built-in or given opponents.

    Args:
        name: registry name of the game.
        opponent: one spec for every other seat, or a sequence with one spec
            per other seat (in seat order, the learner's seat skipped).
        seat: the learner's seat, or None to draw it each episode.
        render_mode: as the game's PettingZoo env.
        illegal_action: "lose" (PettingZoo's convention: the episode ends with
            reward -1 and ``info["illegal_action"]`` says why) or "raise"
            (a ``RuleError`` naming the action and the legal ones).
        dict_observation: observations as ``{"observation", "action_mask"}``
            (the AEC env's layout, mask int8) instead of the bare array, so that
            libraries and wrappers that know nothing of ``action_masks()`` keep it.
        **params: the game's rule parameters.

    Every ``info`` (from ``reset`` and ``step``) carries the learner's mask as
    int8 under ``"action_mask"`` (all ones once the episode is over).
    """

    metadata = {"render_modes": ["human", "ansi", "rgb_array"]}

    def __init__(
        self,
        name: str,
        opponent: Any = "random",
        seat: int | None = None,
        render_mode: str | None = None,
        illegal_action: str = "lose",
        dict_observation: bool = False,
        **params: Any,
    ) -> None:
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        self.illegal_action = illegal_action
        self.name = name
        self.aec = make_raw(name, render_mode=render_mode, **params)
        self.params = params
        self.metadata = {**self.aec.metadata, "render_modes": list(self.aec.metadata["render_modes"])}
        self.render_mode = render_mode
        self.fixed_seat = seat = learner_seat(seat, self.aec.game.num_players, name)
        agent0 = self.aec.possible_agents[0]
        self.dict_observation = bool(dict_observation)
        aec_space = self.aec.observation_space(agent0)
        self.observation_space = aec_space if self.dict_observation else aec_space["observation"]
        self.action_space = spaces.Discrete(self.aec.game.num_actions)
        self.set_opponents(opponent)
        self.seat = 0 if seat is None else seat
        self._done = True
        self._position: str | None = None  # the position reset() starts from (None: a new game)

    # -- opponents ---------------------------------------------------------
    def set_opponents(self, opponent: Any) -> None:
        """Replace the opponents (one spec, or one per other seat); used by self-play pools."""
        specs = opponent_specs(opponent, self.aec.game.num_players - 1, self.name)
        self.opponents = [make_opponent(self.name, s, **self.params) for s in specs]

    @property
    def learner(self) -> str:
        return self.aec.possible_agents[self.seat]

    # -- gymnasium API -----------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        seed = as_seed(seed, self.name)
        self._done = True  # until the learner is to move: an opponent failing here leaves the env done
        super().reset(seed=seed)
        self._position = reset_position(self.name, options)
        start_until_learner_moves(self._start, self.name)
        self._done = False
        return self._observation(), self._info()

    def step(self, action: Any):
        """Play the learner's ``action`` (int, numpy integer or 0-d integer array), then the opponents'.

        Not an integer: ``TypeError`` (nothing is played). An illegal or
        out-of-range integer: reward -1 and the episode ends, or ``RuleError``
        with ``illegal_action="raise"``.
        """
        if self._done:
            raise RuntimeError(f"{self.name}: the episode is over; call reset()")
        aec, learner = self.aec, self.learner
        action = as_action(action, self.action_space.n, self.name)
        # paid to the learner before this move (during reset(): an opponent's move, a round ended on the deal);
        # the AEC env clears it when the learner acts, so it is handed on here
        carried = aec._cumulative_rewards[learner]
        try:
            action = aec.game.check_action(aec.game_state, action, aec.legal_mask())
        except RuleError as err:
            if self.illegal_action == "raise":
                raise
            self._done = True
            return self._observation(), carried - 1.0, True, False, self._info(illegal_action=str(err))
        aec.step(action)
        self._play_others()
        reward = carried + float(aec._cumulative_rewards.get(learner, 0.0))
        aec._cumulative_rewards[learner] = 0.0
        self._done = self._learner_done()
        if self._done:
            info = self._info(winners=aec.game.winners(aec.game_state) if aec.game.is_over(aec.game_state) else [])
        else:
            info = self._info()
        return self._observation(), reward, self._done, False, info

    def position(self, seat: int | None = None) -> str:
        """The game's position in its notation (see the AEC env's ``position``); ``reset(options={"position":
        text})`` starts an episode there, the learner in its seat (``seat=`` fixes it)."""
        return self.aec.position(seat)

    def action_masks(self, dtype: Any = bool) -> np.ndarray:
        """Legal actions of the learner now (all True once the episode is over, never all False).

        Bool (what MaskablePPO reads) by default; ``action_masks(np.int8)``
        for ``action_space.sample(mask=...)``, which wants int8. A copy: editing
        it changes nothing.
        """
        if self._done or self._learner_done() or self.aec.agent_selection != self.learner:
            return np.ones(self.action_space.n, dtype=dtype)
        return self.aec.legal_mask().astype(dtype)

    def render(self):
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    # -- internals ---------------------------------------------------------
    def _start(self) -> bool:
        """A new game played on to the learner's first move; False if it ended first."""
        self.seat = (
            self.fixed_seat if self.fixed_seat is not None else int(self.np_random.integers(self.aec.game.num_players))
        )
        options = None if self._position is None else {"position": self._position}
        self.aec.reset(seed=int(self.np_random.integers(2**31)), options=options)
        for opp in self.opponents:
            opp.reset(seed=int(self.np_random.integers(2**31)))
        self._play_others()
        if self._position is not None and self._learner_done():
            raise RuntimeError(
                f"{self.name}: the position given to reset() ends before the learner (seat "
                f"{self.seat}) moves: {self._position!r}"
            )
        return not self._learner_done()

    def _learner_done(self) -> bool:
        return self.aec.terminations.get(self.learner, True) or self.aec.truncations.get(self.learner, True)

    def _observation(self) -> np.ndarray | dict[str, np.ndarray]:
        observation = self.aec.observe_state(self.aec.game, self.aec.game_state, self.seat)
        if self.dict_observation:
            return {"observation": observation, "action_mask": self.action_masks(np.int8)}
        return observation

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"seat": self.seat, "action_mask": self.action_masks(np.int8), **extra}

    def _play_others(self) -> None:
        aec, learner = self.aec, self.learner
        for agent in turns(aec, stop=self._learner_done):
            if agent == learner:
                return
            seat = aec.agent_seat[agent]
            opponent = self.opponents[opponent_index(seat, self.seat)]
            obs = aec.observe(agent)
            try:
                move = opponent.act(obs["observation"], obs["action_mask"], aec.game_state)
            except Exception as err:
                self._done = True
                raise OpponentError(
                    f"{self.name}: opponent {opponent!r} in seat {seat} ({agent}) failed: {type(err).__name__}: {err}"
                ) from err
            try:
                move = aec.game.check_action(aec.game_state, move, aec.legal_mask())
            except (RuleError, TypeError) as err:
                self._done = True
                raise OpponentError(
                    f"{self.name}: opponent {opponent!r} in seat {seat} ({agent}) "
                    f"chose {move!r}, which cannot be played: {err}"
                ) from err
            aec.step(move)
