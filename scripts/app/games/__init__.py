"""Per-game click adapters of the play app, by registry name."""

from __future__ import annotations

import importlib

from scripts.app.games.base import Adapter

ADAPTERS = {
    "swival": "scripts.app.games.swival:SwivalAdapter",
    "twirls": "scripts.app.games.twirls:TwirlsAdapter",
    "swish": "scripts.app.games.swish:HexRookAdapter",
    "squeeze": "scripts.app.games.swish:HexRookAdapter",
    "swahili": "scripts.app.games.swahili:SwahiliAdapter",
    "swimming": "scripts.app.games.swimming:SwimmingAdapter",
}


def adapter_for(game: str) -> Adapter:
    """The click adapter of ``game`` (a clear error for a game the app does not know yet)."""
    try:
        module, cls = ADAPTERS[game].split(":")
    except KeyError:
        raise ValueError(f"the play window does not know {game!r} yet (it knows {', '.join(ADAPTERS)}); "
                         "use --tui to play it in the terminal") from None
    return getattr(importlib.import_module(module), cls)()
