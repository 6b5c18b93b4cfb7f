"""A generic Monte-Carlo tree search opponent: a reference player written for no game in particular.

It knows a game only through the rules contract every game fulfils
(:class:`envs.core.game.Game`): ``determinize``, ``to_move``, ``legal_mask``,
``apply`` (with its per-seat rewards), ``is_over``. So it measures how far a
learned player stands above plain search with a real budget, in every game
alike: medium is not the only yardstick.

* UCT (UCB1 on each node's children) with uniformly random play-outs; a
  play-out stops at the game's end or after ``playout_plies`` plies.
* A simulation's result is the vector of every seat's rewards summed from
  the root on (the rewards ``apply`` returns): a finished game gives its
  win / loss / draw rewards; a play-out cut short gives whatever the game paid
  out so far (Swimming's coins; 0 in the board games, a draw).
* 2 to 6 players (max^n): each node sums the result vectors of the
  simulations through it, and a player choosing among the children of a
  node reads the component of its own seat, so each child is judged from
  the point of view of the player who moves into it. The mean results are
  scaled to [0, 1] by the lowest and highest result seen in this search,
  so games that pay coins explore as the win / loss games do.
* Hidden information: each simulation starts from ``determinize(state,
  seat, rng)``, a full state that agrees with all the searching seat may
  see, the rest (Swimming: the others' hidden cards, the dealer's unseen
  lot, the stock) drawn again at random. The search never reads the state
  otherwise, so it only uses what its seat may see. The tree is keyed by
  moves; at each node only the moves legal in the simulation's own state
  are chosen from.
* The budget is a number of simulations, counted, not timed, and all
  randomness comes from the opponent's generator (seeded by ``reset``), so
  the same seed and position give the same move. The move played is the
  root's most visited child (ties: the better mean for the mover, then the
  lower action).

Names: ``"mcts"`` (:data:`DEFAULT_SIMULATIONS`) and ``"mcts:N"`` (N
simulations), wherever an opponent name is taken (:func:`make_mcts`).

Guided by a network (``guide``, a :class:`NetworkGuide`; a policy file's
search ``{"kind": "mcts", ...}``, :func:`policy_mcts`), the same search is
PUCT: a node is evaluated the first time a simulation reaches it (the
network's policy head gives its children's priors) and the simulation stops
there; a node's children are chosen by their scaled mean plus
``exploration * prior * sqrt(node visits) / (1 + child visits)``, a child not
visited yet counting its parent's mean. ``uniform_share`` of each prior is
spread evenly over the legal moves: a pure policy-head prior all but never
visits a move the network rules out, winning or not. The leaf's result is
``value_weight`` times the value head's plus the rest times a random
play-out's (0: play-outs only, 1: the value alone). The value head gives the
expected reward of the seat to move; the games pay zero-sum rewards, so the
other seats get an equal share of its negative (for 2 players: exactly its
negative; for more, a guess that does not tell the others apart).
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from envs.core.bots import Bot
from envs.core.checks import as_int
from envs.core.game import Game
from envs.registry import game_module
from policies.search.player import NetworkSearch

# "mcts": 300 simulations with play-outs cut at 150 plies keep a move of the slowest game (Squeeze, then Twirls)
# under about 1 s on this machine; the exploration constant applies to results scaled to [0, 1]
# (results/2026-11-mcts-reference.md).
DEFAULT_SIMULATIONS = 300
DEFAULT_PLAYOUT_PLIES = 150
DEFAULT_EXPLORATION = 0.5
NAME = "mcts"


class _Node:
    """The statistics of one move sequence from the root: visits, summed results by seat, children by move."""

    __slots__ = ("visits", "totals", "children", "priors")

    def __init__(self, players: int) -> None:
        self.visits = 0
        self.totals = [0.0] * players
        self.children: dict[int, _Node] = {}
        self.priors: list[float] | None = None  # guided search: the policy head's, once the node is evaluated


def _check_share(key: str, value: Any, meaning: str) -> None:
    """ValueError naming ``key`` unless ``value`` is a number from 0 to 1."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise ValueError(f"mcts {key} must be a number from 0 to 1{meaning}, got {value!r}")


class NetworkGuide:
    """A policy file's network as seen by the search: priors (policy head) and value (value head) of a state.

    ``uniform_share`` of every prior is spread evenly over the legal moves, so a move the policy head all but rules
    out (a win it never learned to see) still gets simulations.
    """

    def __init__(self, policy: Any, game: Game, observe: Any, uniform_share: float = 0.0) -> None:
        _check_share("uniform_share", uniform_share, "")
        self.policy, self.game, self.observe = policy, game, observe
        self.uniform_share = float(uniform_share)

    def evaluate(self, state: Any, mask: np.ndarray, value: bool) -> tuple[list[float], float]:
        """(the priors of every action, zero off ``mask``; the value for the seat to move, in [-1, 1], if asked)."""
        from policies.numpy_policy import masked_softmax

        x = self.observe(self.game, state, self.game.to_move(state))
        if value:
            logits, values = self.policy.forward(x)
            v = min(1.0, max(-1.0, float(values[0])))
        else:
            logits, v = self.policy.logits(x), 0.0
        priors = masked_softmax(logits[0].astype(np.float64), mask)
        if self.uniform_share:
            priors = (1.0 - self.uniform_share) * priors + self.uniform_share * mask / mask.sum()
        return priors.tolist(), v


class MCTS(Bot):
    """UCT with random play-outs over ``game``'s rules, ``simulations`` per move (see the module docstring)."""

    def __init__(
        self,
        game: Game,
        simulations: int = DEFAULT_SIMULATIONS,
        playout_plies: int = DEFAULT_PLAYOUT_PLIES,
        exploration: float = DEFAULT_EXPLORATION,
        seed: int | None = None,
        guide: NetworkGuide | None = None,
        value_weight: float = 0.0,
    ) -> None:
        for key, value, low in (("simulations", simulations, 1), ("playout_plies", playout_plies, 0)):
            if (plain := as_int(value)) is None or plain < low:
                raise ValueError(f"mcts {key} must be an integer >= {low}, got {value!r}")
        if isinstance(exploration, bool) or not isinstance(exploration, (int, float)) or not exploration >= 0:
            raise ValueError(f"mcts exploration must be a number >= 0, got {exploration!r}")
        _check_share("value_weight", value_weight, " (0: play-outs only, 1: the value alone)")
        if value_weight and guide is None:
            raise ValueError("mcts value_weight > 0 needs a network (a policy file's search) for the leaf values")
        super().__init__(game, seed=seed)
        self.guide = guide
        self.value_weight = float(value_weight)
        self.simulations = int(simulations)
        self.playout_plies = int(playout_plies)
        self.exploration = float(exploration)
        self.last_scores: dict[int, float] = {}

    def __repr__(self) -> str:
        guided = f", guided, value_weight={self.value_weight}" if self.guide is not None else ""
        return f"MCTS({self.game.name}, simulations={self.simulations}, playout_plies={self.playout_plies}{guided})"

    def choose(self, state: Any, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError(f"mcts ({self.game.name}): the action mask has no legal action")
        if legal.size == 1:
            self.last_scores = {int(legal[0]): 1.0}
            return int(legal[0])
        root = self.search(state)
        played = {a: c for a, c in root.children.items() if mask[a] and c.visits}
        if not played:  # a guided search of one simulation only evaluated the root: its best prior
            priors = root.priors or [0.0] * len(mask)
            return int(min(legal, key=lambda a: (-priors[a], a)))
        me = self.game.to_move(state)
        self.last_scores = {a: c.visits / root.visits for a, c in played.items()}
        return min(played, key=lambda a: (-played[a].visits, -played[a].totals[me] / played[a].visits, a))

    def search(self, state: Any) -> _Node:
        """The tree after ``simulations`` simulations from ``state`` (seen by the seat to move)."""
        rules, rng = self.game, self.rng
        me = rules.to_move(state)
        root = _Node(rules.num_players)
        bounds = [math.inf, -math.inf]  # lowest and highest result of any seat so far
        for _ in range(self.simulations):
            sim = rules.determinize(state, me, rng)
            self._simulate(root, sim, bounds)
        return root

    def _simulate(self, root: _Node, state: Any, bounds: list[float]) -> None:
        rules, rng = self.game, self.rng
        players = rules.num_players
        result = [0.0] * players
        path = [root]
        node = root
        expanded = False
        leaf_value: float | None = None  # guided: the value head's at the evaluated leaf, for the seat to move there
        while not rules.is_over(state):
            mask = rules.legal_mask(state)
            legal = np.flatnonzero(mask).tolist()
            if self.guide is not None:
                if node.priors is None:  # a new leaf: evaluate it and stop here
                    node.priors, value = self.guide.evaluate(state, mask, self.value_weight > 0)
                    leaf_value = value
                    break
                action = self._select_puct(node, legal, rules.to_move(state), bounds)
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = _Node(players)
            else:
                untried = [a for a in legal if a not in node.children]
                if untried:
                    action = untried[int(rng.integers(len(untried)))]
                    child = node.children[action] = _Node(players)
                    expanded = True
                else:
                    action = self._select(node, legal, rules.to_move(state), bounds)
                    child = node.children[action]
            for seat, reward in enumerate(rules.apply(state, action, rng)):
                result[seat] += reward
            path.append(child)
            node = child
            if expanded:
                break
        if leaf_value is not None and self.value_weight > 0:
            self._add_value(result, rules.to_move(state), leaf_value)
        if self.value_weight < 1 or leaf_value is None:
            self._play_out(state, result, 1.0 - self.value_weight if leaf_value is not None else 1.0)
        bounds[0] = min(bounds[0], *result)
        bounds[1] = max(bounds[1], *result)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for seat in range(players):
                totals[seat] += result[seat]

    def _add_value(self, result: list[float], mover: int, value: float) -> None:
        """Add ``value_weight`` times the leaf value: ``value`` to ``mover``, a share of its negative to the rest."""
        others = len(result) - 1
        for seat in range(len(result)):
            result[seat] += self.value_weight * (value if seat == mover else -value / others)

    def _play_out(self, state: Any, result: list[float], weight: float) -> None:
        """Random moves from ``state`` to the end or ``playout_plies``; ``weight`` times their rewards to ``result``."""
        rules, rng = self.game, self.rng
        plies = 0
        while plies < self.playout_plies and not rules.is_over(state):
            legal = np.flatnonzero(rules.legal_mask(state))
            for seat, reward in enumerate(rules.apply(state, int(legal[int(rng.integers(legal.size))]), rng)):
                result[seat] += weight * reward
            plies += 1

    def _select_puct(self, node: _Node, legal: list[int], mover: int, bounds: list[float]) -> int:
        """The legal child with the best PUCT score for ``mover``; an unvisited child counts its parent's mean."""
        low, span = bounds[0], bounds[1] - bounds[0]
        scale = 1.0 / span if span > 0 else 0.0
        priors = node.priors
        c_sqrt_n = self.exploration * math.sqrt(node.visits)
        parent = (node.totals[mover] / node.visits - low) * scale
        best, best_score = legal[0], -math.inf
        for action in legal:
            child = node.children.get(action)
            if child is None or not child.visits:
                score = parent + c_sqrt_n * priors[action]
            else:
                score = (child.totals[mover] / child.visits - low) * scale + c_sqrt_n * priors[action] / (
                    1 + child.visits
                )
            if score > best_score:
                best, best_score = action, score
        return best

    def _select(self, node: _Node, legal: list[int], mover: int, bounds: list[float]) -> int:
        """The legal child with the best UCB1 score for ``mover`` (means scaled to [0, 1] by ``bounds``)."""
        low, span = bounds[0], bounds[1] - bounds[0]
        scale = 1.0 / span if span > 0 else 0.0
        log_n = math.log(node.visits)
        c = self.exploration
        best, best_score = legal[0], -math.inf
        for action in legal:
            child = node.children[action]
            score = (child.totals[mover] / child.visits - low) * scale + c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = action, score
        return best


class PolicyMCTS(NetworkSearch, MCTS):
    """A policy file's network searched by PUCT (its search ``{"kind": "mcts", ...}``): see the module docstring.

    Without the rules state it plays the bare network, as the other play-time searches do.
    """

    def __init__(
        self,
        policy: Any,
        name: str,
        params: dict[str, Any] | None = None,
        uniform_share: float = 0.0,
        **settings: Any,
    ) -> None:
        self._attach(policy, name, params)
        guide = NetworkGuide(policy, self.game, self.observe, uniform_share)
        MCTS.__init__(self, self.game, guide=guide, **settings)

    def reset(self, seed: int | None = None) -> None:
        MCTS.reset(self, seed)
        NetworkSearch.reset(self, seed)

    def searched_move(self, observation: np.ndarray, action_mask: np.ndarray, state: Any) -> int:
        return MCTS.act(self, observation, action_mask, state)


def parse_name(name: str) -> int:
    """The number of simulations named by ``"mcts"`` or ``"mcts:N"`` (N an integer >= 1); ValueError otherwise."""
    if name == NAME:
        return DEFAULT_SIMULATIONS
    match = re.fullmatch(rf"{NAME}:(.*)", name)
    if match is None:
        raise ValueError(f"{name!r} is not an mcts opponent name: use 'mcts' or 'mcts:N' (N simulations, N >= 1)")
    count = match.group(1)
    if not re.fullmatch(r"[0-9]+", count) or int(count) < 1:
        raise ValueError(
            f"opponent {name!r}: the number of simulations {count!r} must be a whole number >= 1 (e.g. mcts:2000)"
        )
    return int(count)


def make_mcts(name: str, opponent: str = NAME, seed: int | None = None, **params: Any) -> MCTS:
    """The opponent named ``opponent`` (``"mcts"`` or ``"mcts:N"``) for game ``name`` with rule ``params``."""
    simulations = parse_name(opponent)
    return MCTS(game_module(name).raw_env.game_cls(**params), simulations=simulations, seed=seed)


__all__ = ["DEFAULT_SIMULATIONS", "MCTS", "NetworkGuide", "PolicyMCTS", "make_mcts", "parse_name"]
