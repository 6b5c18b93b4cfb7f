"""Whether a window can be opened here (used by ``swgym play`` and ``swgym watch``)."""

from __future__ import annotations

import os


def has_display() -> bool:
    """True when an X11 or Wayland display is set and SDL is not told to draw off-screen."""
    return (
        bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
        and os.environ.get("SDL_VIDEODRIVER") != "dummy"
    )
