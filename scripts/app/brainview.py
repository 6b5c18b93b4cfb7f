"""Drawing what a player weighs (the "brain"): top moves with bars, and the value when there is one."""

from __future__ import annotations

from typing import Any

from envs.core import rendering


def brain_lines(brain: dict[str, Any] | None) -> list[str]:
    """The brain as text lines (for the terminal)."""
    if brain is None:
        return []
    kind = brain["kind"]
    parts = [f"{name} {w:.3g}" if kind == "scores" else f"{name} {w:.0%}" for name, w in brain["moves"]]
    value = "" if brain.get("value") is None else f"; value {brain['value']:+.2f}"
    return [f"player_{brain['seat']} weighs: " + ", ".join(parts) + value]


def draw_brain(surface, x: int, top: int, width: int, brain: dict[str, Any] | None, title: str = "Brain") -> int:
    """Draw ``brain`` in a column at (x, top) of ``width`` pixels; returns the bottom y."""
    import pygame

    rendering.text(surface, title, (x, top), size=24, bold=True)
    y = top + 22
    if brain is None:
        rendering.text(surface, "(shown at the computer's next move)", (x, y), size=18)
        return y + 18
    kind = {"scores": "scores", "uniform": "no preference"}.get(brain["kind"], "probabilities")
    rendering.text(surface, f"player_{brain['seat']} weighs ({kind}):", (x, y), size=18)
    y += 19
    weights = [w for _, w in brain["moves"]]
    hi = max([abs(v) for v in weights] + [1e-9])
    for name, weight in brain["moves"][:6]:
        frac = abs(weight) / hi if brain["kind"] == "scores" else min(1.0, max(0.0, weight))
        bar = pygame.Rect(x, y + 2, int((width - 70) * frac), 14)
        pygame.draw.rect(surface, (120, 170, 220) if weight >= 0 else (220, 140, 120), bar)
        rendering.text(surface, name[:24], (x + 2, y), size=18)
        shown = f"{weight:.3g}" if brain["kind"] == "scores" else f"{weight:.0%}"
        rendering.text(surface, shown, (x + width, y), size=18, anchor="topright")
        y += 19
    if brain.get("value") is not None:
        rendering.text(surface, f"value {brain['value']:+.2f}", (x, y + 4), size=20)
        y += 24
    return y
