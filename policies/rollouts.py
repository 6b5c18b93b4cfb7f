"""Play-time search guided by a learned network, for card games with hidden hands and many rounds.

For each of its candidate moves (the ``width`` legal moves the policy head
likes best, plus the ``always`` moves where legal), the searcher plays the
rest of the round out from ``samples`` deals of the cards it cannot see
(the rules' ``determinize``: every card it saw stays where it saw it). All
candidates are played out from the same deals, so their results differ by
the move, not by the luck of the draw.

A candidate's score is the share of play-outs in which the searcher loses
the round, less ``margin_weight`` times its mean margin (in points) over the
lowest other player at the showdown: a small weight mostly decides between
moves that lose equally often, for the one that ends further from the
bottom. The lowest score is played, equal scores going to the network's
favourite.

``playout``: who plays the play-outs, every seat the searcher's own included:

* ``"network"``: the network's favourite legal move (batched over the deals);
* a bot level of the game (``"easy"``): the game's bot of that level, from
  the state (cheap bots only: it moves thousands of times a move).

This is what the rules must offer (see :class:`envs.core.game.Game`):
``determinize(state, seat, rng)``, ``round_key(state)`` (a play-out ends
when it changes or the game ends), ``round_loser(state, seat)`` and
``round_margin(state, seat)``.

Deals come from the searcher's own generator, seeded by ``reset``, so the
same seed gives the same moves. Nothing here imports torch.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from envs.registry import entry, game_module
from policies.numpy_policy import NumpyPolicy


class RolloutSearch:
    """An opponent that plays each candidate move out over ``samples`` deals of the hidden cards."""

    def __init__(self, policy: NumpyPolicy, game: str, params: dict[str, Any] | None = None,
                 samples: int = 24, width: int = 4, always: Sequence[int] = (), playout: str = "network",
                 margin_weight: float = 0.0, seed: int | None = None) -> None:
        if samples < 1 or width < 1:
            raise ValueError(f"rollout search samples and width must be >= 1, got samples={samples}, width={width}")
        if not margin_weight >= 0:
            raise ValueError(f"rollout search margin_weight must be >= 0, got {margin_weight}")
        raw = game_module(game).raw_env
        self.rules = raw.game_cls(**(params or {}))
        bad = [a for a in always if isinstance(a, bool) or not isinstance(a, int)
               or not 0 <= a < self.rules.num_actions]
        if bad:
            raise ValueError(f"rollout search always: {bad} are not actions of {game} "
                             f"(0..{self.rules.num_actions - 1})")
        self.playout_bot = None
        if playout != "network":
            bots = importlib.import_module(entry(game).bots_module).BOTS
            if playout not in bots:
                raise ValueError(f"rollout search playout must be 'network' or a bot level of {game} "
                                 f"({', '.join(map(repr, bots))}), got {playout!r}")
            self.playout_bot = bots[playout](self.rules, seed=seed)
        self.policy = policy
        self.meta = policy.meta
        self.observe = raw.observe_state
        self.samples, self.width, self.always = samples, width, tuple(always)
        self.margin_weight = margin_weight
        self.rng = np.random.default_rng(seed)
        self.scores: dict[int, float] = {}  # candidate -> its score at the last move (lower is better)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        self.policy.reset(seed)
        if self.playout_bot is not None:
            self.playout_bot.reset(None if seed is None else seed + 1)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int:
        if state is None:  # no rules state: the bare network
            return self.policy.act(observation, action_mask)
        return self.best_move(state, observation, action_mask)

    def explain(self, observation: np.ndarray, action_mask: np.ndarray, top: int = 5) -> dict[str, Any]:
        return self.policy.explain(observation, action_mask, top)

    def candidates(self, observation: np.ndarray, action_mask: np.ndarray) -> tuple[list[int], np.ndarray]:
        """(the moves to play out: the network's ``width`` favourites, then ``always``; the network's probabilities)."""
        mask = np.asarray(action_mask).astype(bool)
        probs = self.policy.probabilities(observation, mask)
        legal = np.flatnonzero(mask)
        favourites = legal[np.argsort(-probs[legal], kind="stable")][:self.width].tolist()
        return favourites + [a for a in self.always if mask[a] and a not in favourites], probs

    def best_move(self, state: Any, observation: np.ndarray | None = None,
                  action_mask: np.ndarray | None = None) -> int:
        """The candidate with the lowest play-out score (ties: the network's favourite)."""
        me = self.rules.to_move(state)
        if observation is None or action_mask is None:
            observation, action_mask = self.observe(self.rules, state, me), self.rules.legal_mask(state)
        moves, probs = self.candidates(observation, action_mask)
        self.scores = {}
        if len(moves) == 1:
            return moves[0]
        deals = [self.rules.determinize(state, me, self.rng) for _ in range(self.samples)]
        for move in moves:
            self.scores[move] = self.play_out(deals, move, me)
        return min(moves, key=lambda a: (self.scores[a], -probs[a]))

    def play_out(self, deals: list[Any], move: int, me: int) -> float:
        """Mean over ``deals`` of (``me`` lost the round) - ``margin_weight`` * margin, after ``move``."""
        rules = self.rules
        start = rules.round_key(deals[0])
        total = 0.0
        live = []
        for deal in deals:
            state = rules.copy_state(deal)
            rules.apply(state, move, self.rng)
            live.append(state)
        while live:
            running = []
            for state in live:
                if rules.is_over(state) or rules.round_key(state) != start:
                    total += rules.round_loser(state, me)
                    if self.margin_weight:
                        total -= self.margin_weight * rules.round_margin(state, me)
                else:
                    running.append(state)
            if running:
                self._advance(running)
            live = running
        return total / len(deals)

    def _advance(self, states: list[Any]) -> None:
        """One move in each of ``states`` by the play-out policy."""
        rules = self.rules
        if self.playout_bot is not None:
            for state in states:
                rules.apply(state, self.playout_bot.choose(state, rules.legal_mask(state)), self.rng)
            return
        masks = np.stack([rules.legal_mask(s) for s in states])
        observations = np.stack([self.observe(rules, s, rules.to_move(s)) for s in states])
        logits = np.where(masks, self.policy.logits(observations), -np.inf)
        for state, action in zip(states, logits.argmax(axis=1)):
            rules.apply(state, int(action), self.rng)


__all__ = ["RolloutSearch"]
