"""The opponent protocol and the one place that turns a name into an opponent.

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
``policies/mcts.py``). ``"hard@REV"`` is the hard policy file as git revision
REV held it (a past hard, :func:`policies.past_hard_file`). A path to a policy
file also works.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

DIFFICULTIES = ("random", "easy", "medium", "hard")
SHIPPED_NAMES = ("hard", "network")  # the shipped policy file: with its search, and its network alone
PAST_PREFIX = "hard@"  # "hard@REV": the shipped policy file as git revision REV held it
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
    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int: ...

    def reset(self, seed: int | None = None) -> None: ...


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


def make_opponent(
    game: str, spec: Any, seed: int | None = None, trusted: bool = False, search: bool = True, **game_params: Any
) -> Opponent:
    """Turn ``spec`` (a difficulty name, a policy file path or an opponent) into an opponent.

    ``game_params`` are the rule parameters of the env the opponent will play
    in (bots that search need the same rules). ``trusted``: a policy file may
    run code when loaded (an SB3 ``.zip`` through SB3's own loader); see
    :func:`policies.load`. ``search=False``: a policy file's network alone,
    without the play-time search its file names.
    """
    if not isinstance(spec, (str, Path)):
        if isinstance(spec, Opponent) or hasattr(spec, "act"):
            return spec
        raise TypeError(
            f"opponent must be a name {DIFFICULTIES + REFERENCE_NAMES}, a policy file path, or an object "
            f"with act(observation, action_mask, state=None); got {spec!r}"
        )
    name = str(spec)
    if name == "random":
        return RandomOpponent(seed)
    if name in ("easy", "medium"):
        from envs.registry import entry, game_module

        bots = importlib.import_module(entry(game).bots_module)
        rules = game_module(game).raw_env.game_cls(**game_params)
        return bots.BOTS[name](rules, seed=seed)
    if name in SHIPPED_NAMES or name.startswith(PAST_PREFIX) or name.endswith((".npz", ".zip")):
        from policies import load  # lazy: policies sits above envs

        return load(game, name, seed=seed, trusted=trusted, search=search, **game_params)
    if name == "mcts" or name.startswith("mcts:"):
        from policies import make_mcts  # lazy, as above; it checks N

        return make_mcts(game, name, seed=seed, **game_params)
    raise ValueError(
        f"unknown opponent {name!r} for {game}: use one of {', '.join(DIFFICULTIES + REFERENCE_NAMES)} "
        "or the path of a policy file (.npz or SB3 .zip)"
    )
