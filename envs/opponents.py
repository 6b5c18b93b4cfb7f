"""Opponents by name: the one place that turns a spec into an opponent for a game.

The built-in bots (``"random"``, ``"easy"``, ``"medium"``) are the games' own.
Every other name is resolved by the packages registered under the
``swgym.opponents`` entry point group, the extension point for third-party
opponents (docs: Conventions): a function ``(name, spec, seed=..., trusted=...,
search=..., **params)`` returning an opponent, or None for a spec that is not its
own. This project's learned players (``"hard"``, ``"network"``, ``"hard@REV"``,
``"mcts:N"``, ``"network:PATH"``, policy file paths) come the same way
(``policies:opponent_by_name`` in ``pyproject.toml``), so envs import no package
above them and users' names (in ``gymnasium.make`` keywords, configs, the
command line) stay plain strings.
"""

from __future__ import annotations

import importlib
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from envs.core.opponents import DIFFICULTIES, REFERENCE_NAMES, Opponent, RandomOpponent
from envs.registry import entry, game_module

PLUGIN_GROUP = "swgym.opponents"


def make_opponent(
    name: str, spec: Any, seed: int | None = None, trusted: bool = False, search: bool = True, **params: Any
) -> Opponent:
    """Turn ``spec`` (a difficulty name, a policy file path or an opponent) into an opponent for game ``name``.

    ``params`` are the rule parameters of the env the opponent will play in
    (bots that search need the same rules). ``trusted``: a policy file may run
    code when loaded (an SB3 ``.zip`` through SB3's own loader); see
    :func:`policies.load`. ``search=False``: a policy file's network alone,
    without the play-time search its file names.
    """
    if not isinstance(spec, (str, Path)):
        if isinstance(spec, Opponent):
            return spec
        raise TypeError(
            f"opponent must be a name {DIFFICULTIES + REFERENCE_NAMES}, a policy file path, or an object "
            f"with act(observation, action_mask, state=None) and reset(seed); got {spec!r}"
        )
    text = str(spec)
    if text == "random":
        return RandomOpponent(seed)
    if text in ("easy", "medium"):
        bots = importlib.import_module(entry(name).bots_module)
        game = game_module(name).raw_env.game_cls(**params)
        return bots.BOTS[text](game, seed=seed)
    for resolve in _resolvers():
        opponent = resolve(name, text, seed=seed, trusted=trusted, search=search, **params)
        if opponent is not None:
            return opponent
    if not _resolvers():
        raise ValueError(
            f"opponent {text!r} for {name}: no package that resolves learned players is registered under the "
            f"{PLUGIN_GROUP!r} entry points; install this project (pip install -e .) so that policies is"
        )
    raise ValueError(
        f"unknown opponent {text!r} for {name}: use one of {', '.join(DIFFICULTIES + REFERENCE_NAMES)} "
        "or the path of a policy file (.npz or SB3 .zip)"
    )


@cache
def _resolvers() -> tuple[Any, ...]:
    """The registered resolvers of opponent names, loaded once."""
    return tuple(point.load() for point in sorted(entry_points(group=PLUGIN_GROUP), key=lambda p: p.name))


__all__ = ["PLUGIN_GROUP", "make_opponent"]
