"""What every play-time search around a policy file's network shares (numpy only).

A hard opponent is a policy file's network wrapped in a search over the
game's rules (:class:`policies.search.alpha_beta.PolicySearch`,
:class:`policies.search.rollouts.RolloutSearch`, :class:`policies.search.mcts.PolicyMCTS`).
All three keep the policy and its meta, build the rules they search from
``(name, params)``, pass ``reset`` on to the network, play the bare network
when no rules state is given (an env-only client) and show the network's view
in ``explain``; this base class holds that once.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.registry import game_module


class NetworkSearch:
    """Base class of the play-time searches: subclasses implement :meth:`searched_move`."""

    def _attach(self, policy: Any, name: str, params: dict[str, Any] | None) -> Any:
        """Keep ``policy`` (and its meta), build game ``name``'s rules (``self.game``) under ``params`` and the
        observation function of its env; returns the env class (for searches that need more of it)."""
        raw = game_module(name).raw_env
        self.policy = policy
        self.meta = policy.meta
        self.game = raw.game_cls(**(params or {}))
        self.observe = raw.observe_state
        return raw

    def reset(self, seed: int | None = None) -> None:
        self.policy.reset(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int:
        """The searched move given the rules ``state``; without it, the bare network's move."""
        if state is None:
            return self.policy.act(observation, action_mask)
        return self.searched_move(observation, action_mask, state)

    def searched_move(self, observation: np.ndarray, action_mask: np.ndarray, state: Any) -> int:
        raise NotImplementedError

    def explain(
        self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None, top: int = 5
    ) -> dict[str, Any]:
        """The network's ``top`` moves and value here (the search's own scores are not shown)."""
        return self.policy.explain(observation, action_mask, top)
