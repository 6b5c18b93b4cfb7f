"""The ``mcts`` opponents: the library's tree search (:mod:`policies.search.tree`) with UCT or PUCT selection.

A reference player written for no game in particular, to measure how far a
learned player stands above plain search with a real budget, in every game
alike: medium is not the only yardstick.

* Unguided (``"mcts"``, ``"mcts:N"``): UCT (every legal move tried once, in
  a random order, then Q scaled to [0, 1] plus ``exploration * sqrt(log(visits)
  / child visits)``), and a new position is valued by one uniformly random
  play-out of at most ``playout_plies`` plies
  (:class:`policies.search.evaluators.Playouts`). The move played is the
  root's most visited (ties: the better Q, then a finished game; over several worlds
  their visits added up, ties to the lower action).
* Values are per seat (2 to 6 players: each node is judged by its mover's own
  value), summed rewards, so games that pay coins explore as win / loss games do.
* Hidden information: a game whose rules hide something (Swimming's cards) is
  searched on :data:`WORLDS` worlds at once, each ``determinize(state, seat,
  rng)`` (a full state that agrees with all the searching seat may see), with
  the simulations shared among them; their visits are added up. The search
  never reads the hidden cards of the real game.
* The budget is a number of simulations, counted, not timed, and all
  randomness comes from the player's generator (seeded by ``reset``), so the
  same seed and position give the same move.

Guided by a network (a policy file's search ``{"kind": "mcts", ...}``,
:class:`PolicyMCTS`): PUCT (mctx's ``muzero_policy``: Q scaled to [0, 1], a
move not tried yet counting its node's mean value, plus ``exploration * prior
* sqrt(visits) / (1 + child visits)``); the network's policy gives the priors, with
``uniform_share`` of each spread evenly over the legal moves (a pure
policy-head prior all but never visits a move the network rules out), and a
new position's value is ``value_weight`` times the value head's plus the rest
times a random play-out's.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from envs.core.batched import BatchedGame
from envs.core.bots import Bot
from envs.core.checks import as_int, as_number
from envs.core.game import Game
from envs.core.opponents import MCTS_NAME
from envs.registry import batched_engine, game_module
from policies.numpy_policy import masked_softmax
from policies.search.evaluators import Playouts, evaluator
from policies.search.player import NetworkSearch
from policies.search.tree import Evaluate, TreeSearch

# "mcts": 300 simulations with play-outs cut at 150 plies keep a move of the slowest games near a second here.
DEFAULT_SIMULATIONS = 300
DEFAULT_PLAYOUT_PLIES = 150
DEFAULT_EXPLORATION = 1.0  # UCT's, on values scaled to [0, 1] over a node's children
NAME = MCTS_NAME
WORLDS = 8  # worlds a search of a game with hidden information samples at its root


def _share(key: str, value: Any, meaning: str) -> float:
    """``value`` as a float, or a ValueError naming ``key`` unless it is a number from 0 to 1."""
    if (number := as_number(value)) is None or not 0 <= number <= 1:
        raise ValueError(f"mcts {key} must be a number from 0 to 1{meaning}, got {value!r}")
    return number


@dataclass(frozen=True)
class MCTSSettings:
    """What an ``mcts`` player searches, checked once: ``simulations`` a move, play-outs of at most
    ``playout_plies`` plies (0: none, the value head alone), PUCT's ``exploration``, and with a network its
    ``value_weight`` (the value head's share of a leaf's value) and ``uniform_share`` (of each prior)."""

    simulations: int = DEFAULT_SIMULATIONS
    playout_plies: int = DEFAULT_PLAYOUT_PLIES
    exploration: float = DEFAULT_EXPLORATION
    value_weight: float = 0.0
    uniform_share: float = 0.0

    def __post_init__(self) -> None:
        for key, least in (("simulations", 1), ("playout_plies", 0)):
            value = getattr(self, key)
            if (plain := as_int(value)) is None or plain < least:
                raise ValueError(f"mcts {key} must be an integer >= {least}, got {value!r}")
            object.__setattr__(self, key, plain)
        if (exploration := as_number(self.exploration)) is None or not exploration >= 0:
            raise ValueError(f"mcts exploration must be a number >= 0, got {self.exploration!r}")
        object.__setattr__(self, "exploration", exploration)
        weight = _share("value_weight", self.value_weight, " (0: play-outs only, 1: the value alone)")
        object.__setattr__(self, "value_weight", weight)
        object.__setattr__(self, "uniform_share", _share("uniform_share", self.uniform_share, ""))
        if weight < 1 and self.playout_plies == 0:
            raise ValueError("mcts playout_plies 0 leaves no value to a leaf: give value_weight 1 with a network")


def guided(network: Evaluate, playouts: Playouts | None, settings: MCTSSettings) -> Evaluate:
    """The evaluator of a guided search: ``network``'s priors mixed with ``uniform_share``, its value mixed with
    ``playouts``' by ``value_weight``."""
    share, weight = settings.uniform_share, settings.value_weight

    def evaluate(batch: BatchedGame, rows: np.ndarray, moves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logits, values = network(batch, rows, moves)
        legal = moves >= 0
        logits = np.where(legal, logits, -np.inf).astype(np.float64)
        if share:
            probs = (1.0 - share) * masked_softmax(logits, legal) + share * legal / legal.sum(axis=1, keepdims=True)
            with np.errstate(divide="ignore"):
                logits = np.log(probs)
        values = weight * np.clip(values, -1.0, 1.0)
        if playouts is not None and weight < 1:
            values = values + (1.0 - weight) * playouts(batch, rows, moves)[1]
        return logits.astype(np.float32), values.astype(np.float32)

    return evaluate


def _most_legal(batch: BatchedGame) -> int:
    """The most legal moves a position of ``batch``'s engine can have (the width of its list, else its actions)."""
    if batch.engine.legal_list is None:
        return batch.engine.num_actions
    return int(batch.arrays[batch.engine.legal_list[0]].shape[1])


class MCTS(Bot):
    """UCT (PUCT with a network) over ``game``'s batched engine, ``settings.simulations`` a move (see the module
    docstring).

    ``settings``: an :class:`MCTSSettings`, or its fields as keywords. ``policy``: a numpy policy whose network
    guides the search (else equal priors and play-outs).
    """

    def __init__(
        self, game: Game, settings: MCTSSettings | None = None, seed: int | None = None, policy: Any = None, **kw: Any
    ) -> None:
        settings = settings or MCTSSettings(**kw)
        if settings.value_weight and policy is None:
            raise ValueError("mcts value_weight > 0 needs a network (a policy file's search) for the leaf values")
        super().__init__(game, seed=seed)
        self.settings = settings
        self.simulations = settings.simulations
        self.hidden = type(game).determinize is not Game.determinize
        self.worlds = min(WORLDS, settings.simulations) if self.hidden else 1
        self.batch = BatchedGame(batched_engine(game.name, **game.params), self.worlds, seed=0)
        plies = settings.playout_plies
        self.playouts = Playouts(self.batch.engine, plies, seed) if plies else None
        players = game.num_players
        evaluate = self.playouts if policy is None else guided(evaluator(policy, players), self.playouts, settings)
        width, rule = _most_legal(self.batch), "uct" if policy is None else "puct"
        self.search = TreeSearch(
            self.batch, evaluate, trees=self.worlds, simulations=math.ceil(settings.simulations / self.worlds),
            considered=width, candidates=width, root=rule, interior=rule, exploration=settings.exploration,
            seed=seed,
        )  # fmt: skip
        self.last_scores: dict[int, float] = {}

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v}" for k, v in asdict(self.settings).items())
        return f"MCTS({self.game.name}, {fields})"

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        if seed is not None:
            self.search.rng = np.random.default_rng(seed)
            if self.playouts is not None:
                self.playouts.reset(seed)

    def choose(self, state: Any, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError(f"mcts ({self.game.name}): the action mask has no legal action")
        if legal.size == 1:
            self.last_scores = {int(legal[0]): 1.0}
            return int(legal[0])
        me = self.game.to_move(state)
        for world in range(self.worlds):
            self.batch.set_board(world, self.game.determinize(state, me, self.rng) if self.hidden else state)
        result = self.search.run(self.batch, np.arange(self.worlds), gumbel=False)
        shares = result.policy.sum(axis=0) / self.worlds
        self.last_scores = {int(a): float(shares[a]) for a in legal if shares[a] > 0}
        if self.worlds == 1:
            return int(result.action[0])
        return int(legal[np.argmax(shares[legal])])  # the most visited over the worlds (ties: the lower action)


class PolicyMCTS(NetworkSearch, MCTS):
    """A policy file's network guiding the search (its search ``{"kind": "mcts", ...}``; see the module
    docstring). Without the rules state it plays the bare network, as the other play-time searches do."""

    def __init__(self, policy: Any, name: str, params: dict[str, Any] | None = None, **settings: Any) -> None:
        seed = settings.pop("seed", None)
        self._attach(policy, name, params)
        MCTS.__init__(self, self.game, MCTSSettings(**settings), seed=seed, policy=policy)
        self.value_weight = self.settings.value_weight

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


__all__ = ["DEFAULT_SIMULATIONS", "MCTS", "MCTSSettings", "PolicyMCTS", "make_mcts", "parse_name"]
