"""Watching a game between opponents: in a window, as text, or written to a GIF or MP4."""

from __future__ import annotations

from typing import Any


def watch(
    name: str,
    players: list[Any],
    seed: int | None = None,
    gif: str | None = None,
    fps: float = 2.0,
    text: bool = False,
    brain: bool = False,
    mp4: str | None = None,
    *,
    position: str | None = None,
    **params: Any,
) -> str:
    """Play one game between ``players`` (specs per seat) and show it; returns the result line.

    A window when there is a display, else text; ``gif`` / ``mp4`` write files
    instead; ``brain`` adds what each mover weighs; ``position`` (the game's notation) is where the game starts.
    """
    from scripts.app import display
    from scripts.app.watch_brain import watch_brain

    if not (gif or mp4 or text) and not display.has_display():
        text = True
    return watch_brain(
        name, players, seed=seed, gif=gif, fps=fps, text=text, brain=brain, mp4=mp4, position=position, **params
    )
