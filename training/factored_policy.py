"""MaskablePPO's actor-critic with a factored action head, for the games of thousands of actions.

In Twirls (2593 actions) and Swish and Squeeze (3114) a plain head is one
linear layer from the last hidden layer to every action, and it sets the pace
of PPO: most of each forward and backward pass is spent there. The factored
head (:class:`training.network.FactoredHead`, from the game's action layout,
:mod:`envs.core.action_layout`) scores the pair (cell, move) of an action as
``<U[cell], V[move]> + s[cell] + b[move]`` and every other action with a
weight of its own: the same masked categorical over the same actions, at a
fraction of the work.

>>> from sb3_contrib import MaskablePPO
>>> from training.factored_policy import FactoredMaskablePolicy
>>> from training.sb3_vec import make_sb3_vec
>>> vec = make_sb3_vec("twirls", 256, opponent="random", seed=0)
>>> model = MaskablePPO(FactoredMaskablePolicy, vec, n_steps=16, policy_kwargs={"name": "twirls", "rank": 8})

:func:`training.export.export_policy` writes it as a policy file with a
factored head, which :class:`policies.numpy_policy.NumpyPolicy` plays with
numpy alone.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from envs.core.action_layout import ActionLayout
from envs.registry import game_module, make_raw
from training.network import FactoredHead

HEADS = ("plain", "factored")  # the action heads a PPO run may ask for (config "head")


def game_layout(name: str, params: dict[str, Any] | None = None) -> ActionLayout:
    """Game ``name``'s action layout under ``params``; a ValueError if the game declares none."""
    raw = make_raw(name, **(params or {}))
    layout = game_module(name).raw_env.action_layout(raw.game)
    if layout is None:
        raise ValueError(f"{name} declares no action layout: PPO on it has the plain head only")
    return layout


class FactoredMaskablePolicy(MaskableActorCriticPolicy):
    """:class:`~sb3_contrib.common.maskable.policies.MaskableActorCriticPolicy` whose ``action_net`` is a
    :class:`~training.network.FactoredHead` over game ``name``'s action layout (under ``params``) at ``rank``.

    Everything else (towers, value head, masking, the optimizer) is SB3's. Give ``name`` (and ``params``,
    ``rank``) in MaskablePPO's ``policy_kwargs``.
    """

    def __init__(
        self, observation_space: Any, action_space: Any, lr_schedule: Any, *, name: str,
        params: dict[str, Any] | None = None, rank: int = 8, **kwargs: Any,
    ) -> None:  # fmt: skip
        self.layout = game_layout(name, params)
        if self.layout.num_actions != action_space.n:
            raise ValueError(
                f"{name}: its action layout has {self.layout.num_actions} actions, the env {action_space.n}"
            )
        if int(rank) < 1:
            raise ValueError(f"{name}: a factored head's rank must be an int >= 1, got {rank!r}")
        self.game_name, self.game_params, self.rank = name, dict(params or {}), int(rank)
        super().__init__(observation_space, action_space, lr_schedule, **kwargs)

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        self.action_net = FactoredHead(self.mlp_extractor.latent_dim_pi, self.layout, self.rank)
        if self.ortho_init:  # as SB3 starts its plain head: small output weights, a near-uniform policy
            self.action_net.apply(partial(self.init_weights, gain=0.01))
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        return {**super()._get_constructor_parameters(), "name": self.game_name, "params": self.game_params,
                "rank": self.rank}  # fmt: skip


def ppo_policy(name: str, params: dict[str, Any], head: str, rank: int = 8) -> tuple[Any, dict[str, Any]]:
    """MaskablePPO's ``policy`` and the ``policy_kwargs`` it adds, for the action ``head`` a run asks for."""
    if head not in HEADS:
        raise ValueError(f"{name}: the PPO action head must be one of {', '.join(HEADS)}, got {head!r}")
    if head == "plain":
        return "MlpPolicy", {}
    game_layout(name, params)  # refused here, before SB3 builds anything
    return FactoredMaskablePolicy, {"name": name, "params": dict(params), "rank": rank}


__all__ = ["HEADS", "FactoredMaskablePolicy", "game_layout", "ppo_policy"]
