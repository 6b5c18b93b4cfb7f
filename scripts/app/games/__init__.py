"""Per-game click adapters of the play app: ``scripts/app/games/<game>.py`` for every registry game."""

from __future__ import annotations

import importlib

from envs.registry import entry
from scripts.app.games.base import Adapter


def adapter_for(name: str) -> Adapter:
    """The click adapter of game ``name``: ``ADAPTER`` of ``scripts/app/games/<game>.py``, one module per registry game.

    Unknown games get the registry's error; a game with no adapter yet is named too.
    """
    entry(name)  # a clear error for a game the registry does not know
    try:
        module = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as err:
        if err.name != f"{__name__}.{name}":
            raise
        module = None
    if module is None or not hasattr(module, "ADAPTER"):
        raise ValueError(
            f"the play window does not know {name!r} yet (no ADAPTER in scripts/app/games/{name}.py); "
            "use --tui to play it in the terminal"
        )
    return module.ADAPTER()


__all__ = ["Adapter", "adapter_for"]
