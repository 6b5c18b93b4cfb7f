"""What an opponent is: the protocols, the names, the error an env raises when one fails, and the random one.

An opponent is any object with

* ``act(observation, action_mask, state=None) -> int``: choose a legal action.
  ``observation`` is the seat's observation array, ``action_mask`` its int8 or
  bool mask. ``state`` is the game's rules state, given to the built-in bots
  that search with the rules (a bot must read only what its seat may see);
  learned policies ignore it.
* ``reset(seed=None)``: start a new game (re-seed any randomness).

Built-in names: ``"random"``, ``"easy"``, ``"medium"`` (each game's
``bots.py``), ``"hard"`` (the shipped policy in ``policies/``, with its
play-time search), ``"network"`` (hard's network alone: greedy, no search, the
yardstick of what training learned) and ``"mcts"`` / ``"mcts:N"`` (a generic
Monte-Carlo tree search with N simulations a move, the same for every game:
``policies/search/mcts.py``). ``"hard@REV"`` is the hard policy file as git revision
REV held it (a past hard, :func:`policies.past_hard_file`). A path to a policy
file also works. :func:`envs.opponents.make_opponent` turns a name into an opponent.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

DIFFICULTIES = ("random", "easy", "medium", "hard")
SHIPPED_NAMES = ("hard", "network")  # the shipped policy file: with its search, and its network alone
PAST_PREFIX = "hard@"  # "hard@REV": the shipped policy file as git revision REV held it
NETWORK_PREFIX = "network:"  # "network:PATH": a policy file's network alone, without the search it names
MCTS_NAME = "mcts"  # "mcts" / "mcts:N": the generic tree search with N simulations a move
REFERENCE_NAMES = (
    "network",
    "mcts",
    "mcts:N",
    "hard@REV",
)  # hard's bare network; the generic search (N simulations a move); a past hard


class OpponentError(RuntimeError):
    """An opponent failed inside an env: its ``act()`` raised, or it chose a move that cannot be played.

    The message names the opponent, its seat and the move; the episode is over.
    """


@runtime_checkable
class Opponent(Protocol):
    """One board's player: a legal action for the seat to move, seeing what that seat may see."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int: ...

    def reset(self, seed: int | None = None) -> None: ...


@runtime_checkable
class BatchOpponent(Protocol):
    """A player of many boards at once, for a batched engine's vector env (see :mod:`envs.vector`).

    ``actions(batch, boards)``: one legal action for each of ``boards`` (each with this player's seat to
    move); ``new_games(where)``: games start on the boards ``where`` (e.g. a pool draws a member per board).
    """

    def actions(self, batch: Any, boards: np.ndarray) -> np.ndarray: ...

    def reset(self, seed: int | None = None) -> None: ...

    def new_games(self, where: np.ndarray) -> None: ...


@runtime_checkable
class Policy(Protocol):
    """A network that rates every action of a batch of observations (a learned policy without search)."""

    def logits(self, observations: np.ndarray) -> np.ndarray: ...


def opponent_specs(opponent: Any, others: int, where: str) -> list[Any]:
    """One opponent spec per other seat: ``opponent`` for every seat, or a sequence of ``others`` specs."""
    if isinstance(opponent, Sequence) and not isinstance(opponent, str):
        specs = list(opponent)
        if len(specs) != others:
            raise ValueError(f"{where}: {others} opponent(s) needed (one per other seat), got {len(specs)}")
        return specs
    return [opponent] * others


class RandomOpponent:
    """Uniform over the legal actions."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("RandomOpponent: the action mask has no legal action")
        return int(legal[self.rng.integers(legal.size)])
