"""MaskablePPO's actor-critic with a factored action head, for the games of thousands of actions.

In Twirls (2593 actions) and Swish and Squeeze (3114) a plain head is one
linear layer from the last hidden layer to every action, and it sets the pace
of PPO: most of each forward and backward pass is spent there. The factored
head (:class:`training.network.FactoredHead`, from the game's action layout,
:mod:`envs.core.action_layout`) scores the pair (cell, move) of an action as
``<U[cell], V[move]> + s[cell] + b[move]`` and every other action with a
weight of its own: the same masked categorical over the same actions, at a
fraction of the work. PPO's head also takes each move's vector from the position (``V[move]`` plus a linear map
of the last hidden layer), a bias for every action (``moves_from_position``) and a term per move linear in the
position (``move_terms``), both on by default: without them it learns less per step than the plain head
(``results/2026-12-factored-head.md``).

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

import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from envs.core.action_layout import ActionLayout
from envs.registry import action_layout
from training.network import FactoredHead

HEADS = ("plain", "factored")  # the action heads a PPO run may ask for (config "head")


def game_layout(name: str, params: dict[str, Any] | None = None) -> ActionLayout:
    """Game ``name``'s action layout under ``params``; a ValueError if the game declares none."""
    layout = action_layout(name, **(params or {}))
    if layout is None:
        raise ValueError(f"{name} declares no action layout: PPO on it has the plain head only")
    return layout


class LegalCategorical:
    """The masked categorical of a factored head over each row's legal actions only.

    SB3's masked categorical computes every action's logit, then masks, normalises, and takes entropies over all
    of them: with thousands of actions and a few dozen legal ones that work (and its backward pass) is most of a
    PPO update. Here only the legal (row, action) pairs get a logit (:meth:`FactoredHead.logits_of`), and the
    normalisation, entropy and sampling run over them; the distribution is the same. Without a mask
    (:meth:`apply_masking` never called) it is SB3's over every action.
    """

    def __init__(self, head: FactoredHead, latent: torch.Tensor, dense: Any) -> None:
        self.head, self.latent, self.dense = head, latent, dense
        self.rows: torch.Tensor | None = None
        self.dense_ready = False  # the dense distribution (SB3's, shared by the policy) set from this latent

    def apply_masking(self, masks: Any) -> None:
        """Keep the legal actions of ``masks`` ((rows, actions) bool, or flat) and normalise over them."""
        if masks is None:
            return
        n = len(self.latent)
        if isinstance(masks, torch.Tensor):  # the rollout buffer's, as floats
            legal = masks.reshape(n, -1).bool()
        else:
            legal = torch.as_tensor(np.asarray(masks, dtype=bool)).reshape(n, -1)
        self.rows, self.actions = legal.nonzero(as_tuple=True)
        self.pair_keys = self.rows * self.head.out_features + self.actions  # ascending: nonzero lists row by row
        logits = self.head.logits_of(self.latent, self.rows, self.actions)
        top = torch.full((n,), -torch.inf).scatter_reduce(0, self.rows, logits.detach(), "amax")
        total = torch.zeros(n).index_add(0, self.rows, (logits - top[self.rows]).exp())
        self.log_norm = top + total.log()  # (rows,): log of each row's sum of exp(logit) over its legal actions
        self.log_probs = logits - self.log_norm[self.rows]  # (P,)

    def _dense(self) -> Any:
        if not self.dense_ready:
            self.dense.proba_distribution(action_logits=self.head(self.latent))
            self.dense_ready = True
        return self.dense

    def log_prob(self, actions: torch.Tensor) -> torch.Tensor:
        if self.rows is None:
            return self._dense().log_prob(actions)
        actions = actions.long().reshape(-1)  # each row's log-probability, read from its legal pairs' (no new pass)
        wanted = torch.arange(len(actions)) * self.head.out_features + actions
        at = torch.searchsorted(self.pair_keys, wanted).clamp(max=len(self.pair_keys) - 1)
        legal = self.pair_keys[at] == wanted
        return torch.where(legal, self.log_probs[at], torch.tensor(-torch.inf))

    def entropy(self) -> torch.Tensor:
        if self.rows is None:
            return self._dense().entropy()
        p_log_p = self.log_probs.exp() * self.log_probs
        return -torch.zeros(len(self.latent)).index_add(0, self.rows, p_log_p)

    def _argmax(self, keys: torch.Tensor) -> torch.Tensor:
        """Per row, the legal action of the largest key (the first of equals)."""
        n = len(self.latent)
        top = torch.full((n,), -torch.inf).scatter_reduce(0, self.rows, keys, "amax")
        best = (keys == top[self.rows]).nonzero(as_tuple=True)[0]
        first = torch.ones(len(best), dtype=torch.bool)
        first[1:] = self.rows[best[1:]] != self.rows[best[:-1]]
        return self.actions[best[first]]

    def sample(self) -> torch.Tensor:
        if self.rows is None:
            return self._dense().sample()
        gumbel = -torch.log(-torch.log(torch.rand(len(self.log_probs)).clamp(min=1e-20)))
        return self._argmax(self.log_probs.detach() + gumbel)  # Gumbel-max: a draw from the masked softmax

    def mode(self) -> torch.Tensor:
        return self._dense().mode() if self.rows is None else self._argmax(self.log_probs.detach())

    def get_actions(self, deterministic: bool = False) -> torch.Tensor:
        return self.mode() if deterministic else self.sample()

    @property
    def distribution(self) -> Any:
        """A torch ``Categorical`` over every action (the illegal ones at probability 0), for reading."""
        if self.rows is None:
            return self._dense().distribution
        logits = torch.full((len(self.latent), self.head.out_features), -torch.inf)
        logits[self.rows, self.actions] = self.log_probs
        return torch.distributions.Categorical(logits=logits, validate_args=False)


class FactoredMaskablePolicy(MaskableActorCriticPolicy):
    """:class:`~sb3_contrib.common.maskable.policies.MaskableActorCriticPolicy` whose ``action_net`` is a
    :class:`~training.network.FactoredHead` over game ``name``'s action layout (under ``params``) at ``rank``, with
    the moves' vectors from the position unless ``moves_from_position`` is False, and a term per move from the
    position with them unless ``move_terms`` is False (None: as ``moves_from_position``; True without them is
    refused).

    Everything else (towers, value head, masking, the optimizer) is SB3's. Give ``name`` (and ``params``,
    ``rank``) in MaskablePPO's ``policy_kwargs``.
    """

    def __init__(
        self, observation_space: Any, action_space: Any, lr_schedule: Any, *, name: str,
        params: dict[str, Any] | None = None, rank: int = 8, moves_from_position: bool = True,
        move_terms: bool | None = None, **kwargs: Any,
    ) -> None:  # fmt: skip
        self.layout = game_layout(name, params)
        if self.layout.num_actions != action_space.n:
            raise ValueError(
                f"{name}: its action layout has {self.layout.num_actions} actions, the env {action_space.n}"
            )
        if int(rank) < 1:
            raise ValueError(f"{name}: a factored head's rank must be an int >= 1, got {rank!r}")
        self.game_name, self.game_params, self.rank = name, dict(params or {}), int(rank)
        self.moves_from_position = bool(moves_from_position)
        self.move_terms = self.moves_from_position if move_terms is None else bool(move_terms)
        if self.move_terms and not self.moves_from_position:
            raise ValueError(f"{name}: a factored head's move_terms need moves_from_position")
        super().__init__(observation_space, action_space, lr_schedule, **kwargs)

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        width = self.mlp_extractor.latent_dim_pi
        self.action_net = FactoredHead(width, self.layout, self.rank, self.moves_from_position, self.move_terms)
        if self.ortho_init:  # as SB3 starts its plain head: small output weights, a near-uniform policy
            self.action_net.apply(partial(self.init_weights, gain=0.01))
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    def _get_action_dist_from_latent(self, latent_pi: torch.Tensor) -> LegalCategorical:
        return LegalCategorical(self.action_net, latent_pi, self.action_dist)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        return {**super()._get_constructor_parameters(), "name": self.game_name, "params": self.game_params,
                "rank": self.rank, "moves_from_position": self.moves_from_position,
                "move_terms": self.move_terms}  # fmt: skip


def ppo_policy(name: str, params: dict[str, Any], head: str, rank: int = 8) -> tuple[Any, dict[str, Any]]:
    """MaskablePPO's ``policy`` and the ``policy_kwargs`` it adds, for the action ``head`` a run asks for."""
    if head not in HEADS:
        raise ValueError(f"{name}: the PPO action head must be one of {', '.join(HEADS)}, got {head!r}")
    if head == "plain":
        return "MlpPolicy", {}
    game_layout(name, params)  # refused here, before SB3 builds anything
    return FactoredMaskablePolicy, {"name": name, "params": dict(params), "rank": rank}


__all__ = ["HEADS", "FactoredMaskablePolicy", "LegalCategorical", "game_layout", "ppo_policy"]
