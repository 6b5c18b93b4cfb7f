"""Drawing support shared by every game: a pygame canvas, fonts, colours, GIFs.

pygame is imported here only, and only when something is first drawn, so that
importing an env never loads it. ``rgb_array`` drawing needs no display.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

BACKGROUND = (238, 226, 200)
INK = (40, 36, 30)
SEAT_COLOURS = [(200, 40, 40), (30, 30, 30), (40, 90, 200), (40, 150, 70), (200, 140, 20), (140, 60, 170)]
HIGHLIGHT = (255, 200, 0)


def _pygame():
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame  # pygame loads on the first drawing only

    return pygame


@lru_cache(maxsize=16)
def font(size: int, bold: bool = False):
    """pygame's bundled default font at ``size`` pixels (cached)."""
    pygame = _pygame()
    if not pygame.font.get_init():
        pygame.font.init()
    f = pygame.font.Font(None, size)
    f.set_bold(bold)
    return f


def text(
    surface,
    message: str,
    pos: tuple[float, float],
    size: int = 22,
    colour=INK,
    anchor: str = "topleft",
    bold: bool = False,
) -> None:
    """Blit ``message`` with its ``anchor`` point (a pygame Rect attribute) at ``pos``."""
    image = font(size, bold).render(message, True, colour)
    rect = image.get_rect(**{anchor: (int(pos[0]), int(pos[1]))})
    surface.blit(image, rect)


class Canvas:
    """An off-screen surface (``rgb_array``) or a window (``human``)."""

    def __init__(self, size: tuple[int, int], mode: str, title: str = "swgym", fps: int = 2) -> None:
        pygame = _pygame()
        self.mode = mode
        self.fps = fps
        if mode == "human":
            pygame.display.init()
            pygame.display.set_caption(title)
            self.surface = pygame.display.set_mode(size)
            self.clock = pygame.time.Clock()
        else:
            self.surface = pygame.Surface(size)

    def show(self) -> np.ndarray | None:
        """Present the drawn frame: an (H, W, 3) uint8 array, or None for a window."""
        pygame = _pygame()
        if self.mode == "human":
            pygame.event.pump()
            pygame.display.flip()
            if pygame.display.get_driver() != "dummy":  # pace frames only where someone watches
                self.clock.tick(self.fps)
            return None
        return surface_to_array(self.surface)

    def close(self) -> None:
        if self.mode == "human":
            _pygame().display.quit()


def surface_to_array(surface) -> np.ndarray:
    """(H, W, 3) uint8 copy of a pygame surface."""
    pygame = _pygame()
    return np.ascontiguousarray(np.transpose(pygame.surfarray.array3d(surface), (1, 0, 2)))


def save_gif(frames: Sequence[np.ndarray], path: str | Path, fps: float = 2.0, hold_last: int = 3) -> Path:
    """Write RGB frames as an animated GIF (the last frame held a little longer)."""
    from PIL import Image  # Pillow loads for GIFs only

    if not frames:
        raise ValueError("save_gif: no frames to write")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    images = [Image.fromarray(f) for f in frames] + [Image.fromarray(frames[-1])] * hold_last
    images[0].save(path, save_all=True, append_images=images[1:], duration=int(1000 / fps), loop=0)
    return path
