"""``swgym watch --brain`` / ``--mp4``: a game between opponents with what the player to move weighs.

Each frame is the game's picture with a strip below it: the brain of the
player about to move (bots: scored moves; policies: probabilities and value).
Frames go to a window, a GIF, an MP4 (through imageio-ffmpeg, whose wheel
ships the ffmpeg binary), or as text to the terminal.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np

from envs.core.match import turns
from envs.core.rendering import BACKGROUND, save_gif, surface_to_array
from envs.opponents import make_opponent
from envs.registry import make_raw
from scripts.app.brainview import brain_lines, draw_brain
from scripts.app.session import explain

STRIP_H = 170


class MissingWriter(ValueError):
    """The MP4 writer (imageio-ffmpeg) is not installed."""


def _mp4_module():
    try:
        import imageio_ffmpeg
    except ImportError:
        raise MissingWriter(
            "--mp4 needs the imageio-ffmpeg package (its wheel ships ffmpeg): "
            "pip install imageio-ffmpeg, or write a GIF with --gif"
        ) from None
    return imageio_ffmpeg


def write_mp4(frames: list[np.ndarray], path: str | Path, fps: float = 2.0, hold_last: int = 3) -> Path:
    """Write RGB frames as an H.264 MP4 (sizes padded to a multiple of 16)."""
    imageio_ffmpeg = _mp4_module()
    if not frames:
        raise ValueError("write_mp4: no frames to write")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    h, w = frames[0].shape[:2]
    H, W = -(-h // 16) * 16, -(-w // 16) * 16
    writer = imageio_ffmpeg.write_frames(str(path), (W, H), fps=fps, macro_block_size=16)
    writer.send(None)
    for frame in list(frames) + [frames[-1]] * hold_last:
        padded = np.zeros((H, W, 3), dtype=np.uint8)
        padded[:h, :w] = frame
        writer.send(np.ascontiguousarray(padded).tobytes())
    writer.close()
    return path


def _frame(pygame, env, brain, canvas):
    w, h = env.renderer.size(env.game)
    canvas.fill(BACKGROUND)
    env.renderer.draw(canvas.subsurface((0, 0, w, h)), env.game, env.game_state, env.last_move)
    pygame.draw.line(canvas, (150, 130, 100), (0, h), (w, h), 2)
    if brain is not None:
        draw_brain(canvas, 12, h + 8, w - 24, brain)


def watch_brain(
    name: str,
    players: list[Any],
    seed: int | None = None,
    gif: str | None = None,
    fps: float = 2.0,
    text: bool = False,
    brain: bool = True,
    mp4: str | None = None,
    *,
    position: str | None = None,
    **params: Any,
) -> str:
    """Play one game between ``players`` showing each mover's brain, from ``position`` if given (the game's
    notation); returns the result line."""
    from scripts.app import display

    if mp4:
        _mp4_module()  # before playing: a missing writer is said at once
    opponents = [
        make_opponent(name, p, seed=None if seed is None else seed + i, **params) for i, p in enumerate(players)
    ]
    names = [p if isinstance(p, str) else type(p).__name__ for p in players]
    env = make_raw(name, **params)
    env.reset(seed=seed, options=None if position is None else {"position": position})
    to_files = bool(gif or mp4)
    window = not to_files and not text and display.has_display()
    pygame = canvas = screen = None
    if to_files or window:
        import pygame

        w, h = env.renderer.size(env.game)
        size = (w, h + (STRIP_H if brain else 0))
        if window:
            pygame.display.init()
            pygame.display.set_caption(f"swgym watch: {name}")
            screen = pygame.display.set_mode(size)
            canvas = screen
        else:
            canvas = pygame.Surface(size)
    frames: list[np.ndarray] = []
    plies = 0
    returns = np.zeros(env.game.num_players)

    def show(info):
        if canvas is not None:
            _frame(pygame, env, info, canvas)
            if window:
                pygame.event.pump()
                pygame.display.flip()
                time.sleep(1.0 / fps)
            else:
                frames.append(surface_to_array(canvas))
        if text:
            print(env.renderer.ansi(env.game, env.game_state, env.last_move))
            for line in brain_lines(info):
                print(line)
            print()

    for agent in turns(env, stop=lambda: env.game.is_over(env.game_state)):  # the final position stays shown
        seat = env.agent_seat[agent]
        obs = env.observe(agent)
        info = explain(env, opponents[seat], seat, obs) if brain else None
        show(info)
        action = opponents[seat].act(obs["observation"], obs["action_mask"], env.game_state)
        env.step(int(action))
        plies += 1
        for a, r in env.rewards.items():
            returns[env.agent_seat[a]] += r
    show(None)
    if window:
        time.sleep(1.0)
        pygame.display.quit()
    written = []
    if gif:
        save_gif(frames, gif, fps=fps)
        written.append(f"GIF written to {gif}")
    if mp4:
        write_mp4(frames, mp4, fps=fps)
        written.append(f"MP4 written to {mp4}")
    return _result_line(env, name, names, plies, returns) + "".join(f"; {w}" for w in written)


def _result_line(env: Any, name: str, names: list[str], plies: int, returns: np.ndarray) -> str:
    """``swival: player_0 (hard) won after 17 moves; returns player_0=+1  player_1=-1``."""
    winners = env.game.winners(env.game_state)
    agents = env.possible_agents
    if winners:
        result = f"{name}: " + ", ".join(f"{agents[s]} ({names[s]})" for s in winners) + f" won after {plies} moves"
    else:
        result = f"{name}: draw after {plies} moves"
    return result + "; returns " + "  ".join(f"{a}={r:+g}" for a, r in zip(agents, returns))
