"""Swival drawn as text (ansi) and as concentric rings (pygame)."""

from __future__ import annotations

import math

from envs.core import rendering
from envs.swival.rules import SEAT_SYMBOLS as SYMBOLS
from envs.swival.rules import WIN_ACTION, SwivalGame, SwivalState, cell_name, has_line

COLOUR_NAMES = ("Red", "Black")
RING_LABELS = ("outer ", "middle", "inner ")
SIZE = (480, 540)
CENTRE = (240, 250)
RING_RADII = (200, 140, 80)
SPOT_RADIUS = 20


def _occupant(state: SwivalState, cell: int) -> int | None:
    for seat in (0, 1):
        if state.boards[seat] >> cell & 1:
            return seat
    return None


def _status(game: SwivalGame, state: SwivalState) -> str:
    if state.over:
        if state.winner is None:
            return "Draw: the board is full."
        return f"{COLOUR_NAMES[state.winner]} (player_{state.winner}) wins."
    me = state.to_move
    line = " and has a line: may win" if has_line(state.boards[me]) else ""
    return f"{COLOUR_NAMES[me]} (player_{me}) to move{line}."


def _last_move_text(state: SwivalState, last: tuple[int, int] | None) -> str:
    if last is None:
        return ""
    seat, action = last
    if action == WIN_ACTION:
        return f"last: {SYMBOLS[seat]} centre"
    cell, direction = divmod(action, 3)
    turn = ("", ", swivel left", ", swivel right")[direction]
    return f"last: {SYMBOLS[seat]} on {cell_name(cell)}{turn}"


def ansi(game: SwivalGame, state: SwivalState, last: tuple[int, int] | None) -> str:
    """Rings as rows, spokes as columns: a line of three is a full column."""
    rows = ["spoke   " + " ".join(str(k) for k in range(8))]
    for ring in range(3):
        cells = []
        for k in range(8):
            who = _occupant(state, ring * 8 + k)
            cells.append("." if who is None else SYMBOLS[who])
        rows.append(f"{RING_LABELS[ring]}  " + " ".join(cells))
    centre = "-" if state.winner is None else SYMBOLS[state.winner]
    rows.append(f"centre: {centre}   left: R {game.counters_left(state, 0)}  B {game.counters_left(state, 1)}")
    rows.append(_status(game, state) + ("  " + _last_move_text(state, last) if last else ""))
    return "\n".join(rows)


def size(game: SwivalGame) -> tuple[int, int]:
    return SIZE


def spot_position(cell: int) -> tuple[float, float]:
    """Pixel centre of a ring cell (k = 0 just right of 12 o'clock, clockwise)."""
    ring, k = divmod(cell, 8)
    angle = math.radians((k + 0.5) * 45.0)
    r = RING_RADII[ring]
    return CENTRE[0] + r * math.sin(angle), CENTRE[1] - r * math.cos(angle)


def draw(surface, game: SwivalGame, state: SwivalState, last: tuple[int, int] | None) -> None:
    import pygame  # pygame loads on the first drawing only

    surface.fill(rendering.BACKGROUND)
    for ring, radius in enumerate(RING_RADII):
        colour = (170, 120, 60) if ring == 1 else (120, 100, 80)
        pygame.draw.circle(surface, colour, CENTRE, radius, width=6 if ring == 1 else 3)
    for k in range(8):
        pygame.draw.line(surface, (200, 185, 160), spot_position(k), spot_position(16 + k), 1)
    last_cell = None
    if last is not None and last[1] != WIN_ACTION:
        last_cell = last[1] // 3
    for cell in range(24):
        x, y = spot_position(cell)
        who = _occupant(state, cell)
        if who is None:
            pygame.draw.circle(surface, (250, 245, 235), (x, y), SPOT_RADIUS)
            pygame.draw.circle(surface, (150, 140, 120), (x, y), SPOT_RADIUS, width=1)
        else:
            pygame.draw.circle(surface, rendering.SEAT_COLOURS[who], (x, y), SPOT_RADIUS)
        if cell == last_cell:
            pygame.draw.circle(surface, rendering.HIGHLIGHT, (x, y), SPOT_RADIUS + 3, width=3)
    centre_colour = (250, 245, 235) if state.winner is None else rendering.SEAT_COLOURS[state.winner]
    pygame.draw.circle(surface, centre_colour, CENTRE, 30)
    pygame.draw.circle(surface, rendering.INK, CENTRE, 30, width=2)
    rendering.text(surface, _status(game, state), (SIZE[0] / 2, SIZE[1] - 38), size=24, anchor="center")
    rendering.text(surface, _last_move_text(state, last), (SIZE[0] / 2, SIZE[1] - 14), size=20, anchor="center")
    rendering.text(surface, f"Red left {game.counters_left(state, 0)}", (10, 8), colour=rendering.SEAT_COLOURS[0])
    rendering.text(
        surface,
        f"Black left {game.counters_left(state, 1)}",
        (SIZE[0] - 10, 8),
        colour=rendering.SEAT_COLOURS[1],
        anchor="topright",
    )
