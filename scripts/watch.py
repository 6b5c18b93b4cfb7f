"""Watching a game between opponents: in a window, as text, or written to a GIF."""

from __future__ import annotations

import os
from typing import Any

from envs.core.match import play_game
from envs.core.opponents import make_opponent
from envs.core.rendering import save_gif
from envs.registry import make_raw


def has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) \
        and os.environ.get("SDL_VIDEODRIVER") != "dummy"


def watch(game: str, players: list[Any], seed: int | None = None, gif: str | None = None,
          fps: float = 2.0, text: bool = False, **params: Any) -> str:
    """Play one game between ``players`` (specs per seat) and show it; returns the result line."""
    opponents = [make_opponent(game, p, seed=None if seed is None else seed + i, **params)
                 for i, p in enumerate(players)]
    names = [p if isinstance(p, str) else type(p).__name__ for p in players]
    if gif:
        record = play_game(game, opponents, seed=seed, render_mode="rgb_array", **params)
        save_gif(record.frames, gif, fps=fps)
    elif text or not has_display():
        record = play_game(game, opponents, seed=seed, render_mode="ansi",
                           on_step=lambda env: print(env.render() + "\n"), **params)
    else:
        record = play_game(game, opponents, seed=seed, render_mode="human", **params)
    agents = make_raw(game, **params).possible_agents
    if record.winners:
        who = ", ".join(f"{agents[s]} ({names[s]})" for s in record.winners)
        result = f"{game}: {who} won after {record.plies} moves"
    else:
        result = f"{game}: draw after {record.plies} moves"
    returns = "  ".join(f"{a}={r:+g}" for a, r in zip(agents, record.returns))
    return f"{result}; returns {returns}" + (f"; GIF written to {gif}" if gif else "")
