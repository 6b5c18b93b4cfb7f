"""Play-time search guided by a learned network, for card games with hidden hands and many rounds.

For each of its candidate moves (the ``width`` legal moves the policy head
likes best, plus the ``always`` moves where legal), the searcher plays the
rest of the round out from ``samples`` deals of the cards it cannot see
(the rules' ``determinize``: every card it saw stays where it saw it). All
candidates are played out from the same deals, so their results differ by
the move, not by the luck of the draw.

With ``belief_deals`` > 0 the deals are not all equally likely: the
searcher draws that many, rebuilds for each what the other players saw at
their moves this round if the deal were true (the rules'
``past_decisions``), and weighs the deal by the network's probability of
the moves they made there, raised to ``belief_power`` (below 1 trusts the
network as a model of the others less). The ``samples`` deals played out
are drawn from those, in proportion to the weights.

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

``network_moves`` (with a bot level only): moves whose timing the network
decides in the play-outs. Where one is legal, it is played with the
network's probability for it; otherwise the bot moves, with those moves
taken out of its choice. (Swimming: the easy bot swaps, but knocks when the
network would, which is how the medium players it imitates knock.)

This is what the rules must offer (see :class:`envs.core.game.Game`):
``determinize(state, seat, rng)``, ``round_key(state)`` (a play-out ends
when it changes or the game ends), ``round_loser(state, seat)``,
``round_margin(state, seat)`` and, for ``belief_deals``,
``past_decisions(state, seat)``.

Deals come from the searcher's own generator, seeded by ``reset``, so the
same seed gives the same moves. Nothing here imports torch.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from envs.core.checks import as_int
from envs.registry import entry
from policies.numpy_policy import NumpyPolicy, masked_log_softmax, masked_softmax
from policies.search.player import NetworkSearch


@dataclass(frozen=True)
class RolloutSettings:
    """What a :class:`RolloutSearch` plays out (a policy file's ``search``, ``kind`` rollouts), checked once.

    ``samples`` deals of the hidden cards for each of the network's ``width`` favourite moves and the
    ``always`` moves; ``playout`` ``"network"`` or a bot level of the game (which then leaves the
    ``network_moves`` to the network); ``margin_weight`` of the score margin beside the result;
    ``belief_deals`` (0: none) weigh the deals by how likely the seen play makes them, to ``belief_power``.
    """

    samples: int = 24
    width: int = 4
    always: Sequence[int] = ()
    playout: str = "network"
    margin_weight: float = 0.0
    belief_deals: int = 0
    belief_power: float = 1.0
    network_moves: Sequence[int] = ()

    def __post_init__(self) -> None:
        samples, width, belief_deals = self.samples, self.width, self.belief_deals
        if samples < 1 or width < 1:
            raise ValueError(f"rollout search samples and width must be >= 1, got samples={samples}, width={width}")
        if not self.margin_weight >= 0:
            raise ValueError(f"rollout search margin_weight must be >= 0, got {self.margin_weight}")
        if (plain := as_int(belief_deals)) is None or plain < 0:
            raise ValueError(f"rollout search belief_deals must be an int >= 0 (0: no weighing), got {belief_deals!r}")
        if 0 < plain < samples:
            raise ValueError(f"rollout search belief_deals ({plain}) must be 0 or at least samples ({samples})")
        if not self.belief_power > 0:
            raise ValueError(f"rollout search belief_power must be > 0, got {self.belief_power}")
        object.__setattr__(self, "belief_deals", plain)
        object.__setattr__(self, "always", tuple(self.always))
        object.__setattr__(self, "network_moves", tuple(self.network_moves))


class RolloutSearch(NetworkSearch):
    """An opponent that plays each candidate move out over ``samples`` deals of the hidden cards.

    ``settings``: the keywords of :class:`RolloutSettings` (``samples``, ``width``, ...).
    """

    def __init__(
        self, policy: NumpyPolicy, name: str, params: dict[str, Any] | None = None, seed: int | None = None,
        **settings: Any,
    ) -> None:  # fmt: skip
        self.settings = s = RolloutSettings(**settings)
        always, playout, network_moves = s.always, s.playout, s.network_moves
        self._attach(policy, name, params)
        for key, actions in (("always", always), ("network_moves", network_moves)):
            bad = [a for a in actions if (plain := as_int(a)) is None or not 0 <= plain < self.game.num_actions]
            if bad:
                raise ValueError(
                    f"rollout search {key}: {bad} are not actions of {name} (0..{self.game.num_actions - 1})"
                )
        if network_moves and playout == "network":
            raise ValueError(
                "rollout search network_moves needs a bot level as playout (the network plays every move "
                "with playout='network')"
            )
        self.playout_bot = None
        if playout != "network":
            bots = importlib.import_module(entry(name).bots_module).BOTS
            if playout not in bots:
                raise ValueError(
                    f"rollout search playout must be 'network' or a bot level of {name} "
                    f"({', '.join(map(repr, bots))}), got {playout!r}"
                )
            self.playout_bot = bots[playout](self.game, seed=seed)
        self.samples, self.width, self.always = s.samples, s.width, always
        self.margin_weight = s.margin_weight
        self.belief_deals, self.belief_power = s.belief_deals, s.belief_power
        self.network_moves = np.zeros(self.game.num_actions, dtype=bool)
        self.network_moves[list(network_moves)] = True
        self.rng = np.random.default_rng(seed)
        self.scores: dict[int, float] = {}  # candidate -> its score at the last move (lower is better)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.rng = np.random.default_rng(seed)
        if self.playout_bot is not None:
            self.playout_bot.reset(None if seed is None else seed + 1)

    def searched_move(self, observation: np.ndarray, action_mask: np.ndarray, state: Any) -> int:
        return self.best_move(state, observation, action_mask)

    def candidates(self, observation: np.ndarray, action_mask: np.ndarray) -> tuple[list[int], np.ndarray]:
        """(the moves to play out: the network's ``width`` favourites, then ``always``; the network's probabilities)."""
        mask = np.asarray(action_mask).astype(bool)
        probs = self.policy.probabilities(observation, mask)
        legal = np.flatnonzero(mask)
        favourites = legal[np.argsort(-probs[legal], kind="stable")][: self.width].tolist()
        return favourites + [a for a in self.always if mask[a] and a not in favourites], probs

    def best_move(
        self, state: Any, observation: np.ndarray | None = None, action_mask: np.ndarray | None = None
    ) -> int:
        """The candidate with the lowest play-out score (ties: the network's favourite)."""
        me = self.game.to_move(state)
        if observation is None or action_mask is None:
            observation, action_mask = self.observe(self.game, state, me), self.game.legal_mask(state)
        moves, probs = self.candidates(observation, action_mask)
        self.scores = {}
        if len(moves) == 1:
            return moves[0]
        deals = self.deals(state, me)
        for move in moves:
            self.scores[move] = self.play_out(deals, move, me)
        return min(moves, key=lambda a: (self.scores[a], -probs[a]))

    def deals(self, state: Any, me: int) -> list[Any]:
        """``samples`` deals of what ``me`` cannot see; with ``belief_deals``, drawn by :meth:`belief_weights`."""
        if not self.belief_deals:
            return [self.game.determinize(state, me, self.rng) for _ in range(self.samples)]
        pool = [self.game.determinize(state, me, self.rng) for _ in range(self.belief_deals)]
        weights = self.belief_weights(pool, me)
        if weights is None:  # nobody else has moved this round: every deal is as likely
            return pool[: self.samples]
        return [pool[i] for i in self.rng.choice(len(pool), size=self.samples, p=weights)]

    def belief_weights(self, deals: list[Any], me: int) -> np.ndarray | None:
        """Each deal's share: the network's probability of the others' moves this round were it true, ** power.

        None when the others have made no move this round.
        """
        rules = self.game
        observations, masks, actions, owners = [], [], [], []
        for k, deal in enumerate(deals):
            for past, action in rules.past_decisions(deal, me):
                observations.append(self.observe(rules, past, rules.to_move(past)))
                masks.append(rules.legal_mask(past))
                actions.append(action)
                owners.append(k)
        if not actions:
            return None
        log_probs = masked_log_softmax(self.policy.logits(np.stack(observations)), np.stack(masks))
        chosen = log_probs[np.arange(len(actions)), actions]
        log_weights = self.belief_power * np.bincount(owners, weights=chosen, minlength=len(deals))
        weights = np.exp(log_weights - log_weights.max())
        return weights / weights.sum()

    def play_out(self, deals: list[Any], move: int, me: int) -> float:
        """Mean over ``deals`` of (``me`` lost the round) - ``margin_weight`` * margin, after ``move``."""
        rules = self.game
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
                self.advance(running)
            live = running
        return total / len(deals)

    def advance(self, states: list[Any]) -> None:
        """One move in each of ``states`` (played in place) by the play-out policy: the bot, or the network."""
        rules = self.game
        if self.playout_bot is not None:
            masks = [rules.legal_mask(state) for state in states]
            timed = self._network_timed(states, masks) if self.network_moves.any() else {}
            for k, (state, mask) in enumerate(zip(states, masks)):
                action = timed.get(k)
                if action is None:
                    action = self.playout_bot.choose(state, mask & ~self.network_moves)
                rules.apply(state, action, self.rng)
            return
        masks = np.stack([rules.legal_mask(s) for s in states])
        observations = np.stack([self.observe(rules, s, rules.to_move(s)) for s in states])
        logits = np.where(masks, self.policy.logits(observations), -np.inf)
        for state, action in zip(states, logits.argmax(axis=1)):
            rules.apply(state, int(action), self.rng)

    def _network_timed(self, states: list[Any], masks: list[np.ndarray]) -> dict[int, int]:
        """{index of a state: the ``network_moves`` move played there}, each with the network's probability for it."""
        asked = [k for k, mask in enumerate(masks) if (mask & self.network_moves).any()]
        if not asked:
            return {}
        rules = self.game
        observations = np.stack([self.observe(rules, states[k], rules.to_move(states[k])) for k in asked])
        legal = np.stack([masks[k] for k in asked])
        probs = masked_softmax(self.policy.logits(observations), legal)
        timed = {}
        for k, row, u in zip(asked, probs, self.rng.random(len(asked))):
            for action in np.flatnonzero(self.network_moves & masks[k]):
                u -= row[action]
                if u < 0:
                    timed[k] = int(action)
                    break
        return timed


__all__ = ["RolloutSearch"]
