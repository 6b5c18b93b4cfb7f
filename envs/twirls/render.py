"""Twirls of Action drawn as text (ansi) and as a Go board (pygame).

The last twirl is shown as origin -> destination with its pivot marked: in
text the origin is ``*``, the moved stone ``[X]`` and the pivot ``<O>``; in
the picture an arrow runs from the origin to the destination and the pivot
wears a ring.
"""

from __future__ import annotations

from envs.core import rendering
from envs.twirls.board import FILES
from envs.twirls.rules import COLOUR_NAMES, TwirlsGame, TwirlsState

SYMBOLS = ("X", "O")  # Black, White
CELL = 52
MARGIN = 44
FOOTER = 64
WOOD = (220, 179, 92)
STONE_FILL = ((25, 25, 25), (245, 245, 240))
STONE_EDGE = ((0, 0, 0), (90, 90, 90))


def _status(game: TwirlsGame, state: TwirlsState) -> str:
    if state.over:
        if state.winner is None:
            return f"Draw: {game.max_plies} plies played."
        return f"player_{state.winner} ({game.seat_to_colour_name(state, state.winner)}) wins."
    seat = game.to_move(state)
    swap = " (may swap)" if game.swap_available(state) else ""
    return f"player_{seat} ({COLOUR_NAMES[state.colour_to_move]}) to move{swap}."


def _last_text(game: TwirlsGame, state: TwirlsState, last: tuple[int, int] | None) -> str:
    if last is None:
        return ""
    seat, action = last
    if action == game.swap_action:
        return f"last: player_{seat} swapped (now {game.seat_to_colour_name(state, seat)})"
    if state.last is None:
        return ""
    names = game.tables.names
    origin, pivot, dest = state.last
    return f"last: {names[origin]} -> {names[dest]} pivot {names[pivot]}"


def ansi(game: TwirlsGame, state: TwirlsState, last: tuple[int, int] | None) -> str:
    """The board, top rank first, with file letters below and the last twirl marked."""
    size = game.size
    origin = pivot = dest = -1
    if last is not None and last[1] != game.swap_action and state.last is not None:
        origin, pivot, dest = state.last
    rows = []
    for rank in range(size - 1, -1, -1):
        cells = []
        for file in range(size):
            c = rank * size + file
            sym = "."
            for colour in (0, 1):
                if state.stones[colour] >> c & 1:
                    sym = SYMBOLS[colour]
            if c == dest:
                cells.append(f"[{sym}]")
            elif c == pivot:
                cells.append(f"<{sym}>")
            elif c == origin:
                cells.append(" * ")
            else:
                cells.append(f" {sym} ")
        rows.append(f"{rank + 1:>2} " + "".join(cells))
    rows.append("   " + "".join(f" {FILES[f]} " for f in range(size)))
    rows.append(
        f"X = Black (player_{int(state.swapped)}), O = White (player_{int(not state.swapped)}); "
        f"ply {state.plies}/{game.max_plies}"
    )
    text = _last_text(game, state, last)
    rows.append(_status(game, state) + (f"  {text}" if text else ""))
    return "\n".join(rows)


def size(game: TwirlsGame) -> tuple[int, int]:
    side = 2 * MARGIN + (game.size - 1) * CELL
    return side, side + FOOTER


def point(game: TwirlsGame, cell: int) -> tuple[int, int]:
    """Pixel centre of a cell (rank 1 at the bottom)."""
    file, rank = cell % game.size, cell // game.size
    return MARGIN + file * CELL, MARGIN + (game.size - 1 - rank) * CELL


def draw(surface, game: TwirlsGame, state: TwirlsState, last: tuple[int, int] | None) -> None:
    import pygame  # pygame loads on the first drawing only

    n = game.size
    width, height = size(game)
    surface.fill(rendering.BACKGROUND)
    board = pygame.Rect(MARGIN // 2, MARGIN // 2, width - MARGIN, width - MARGIN)
    pygame.draw.rect(surface, WOOD, board, border_radius=6)
    for i in range(n):
        x0, y0 = point(game, i)  # rank 1, file i
        x1, y1 = point(game, (n - 1) * n + i)
        pygame.draw.line(surface, rendering.INK, (x0, y0), (x1, y1), 1)
        a, b = point(game, i * n), point(game, i * n + n - 1)
        pygame.draw.line(surface, rendering.INK, a, b, 1)
        rendering.text(surface, FILES[i], (x0, width - 10), size=20, anchor="midbottom")
        rendering.text(surface, FILES[i], (x0, 6), size=20, anchor="midtop")
        rendering.text(surface, str(i + 1), (8, a[1]), size=20, anchor="midleft")
        rendering.text(surface, str(i + 1), (width - 8, a[1]), size=20, anchor="midright")
    radius = CELL // 2 - 4
    for c in range(n * n):
        for colour in (0, 1):
            if state.stones[colour] >> c & 1:
                pygame.draw.circle(surface, STONE_FILL[colour], point(game, c), radius)
                pygame.draw.circle(surface, STONE_EDGE[colour], point(game, c), radius, width=2)
    if last is not None and last[1] != game.swap_action and state.last is not None:
        origin, pivot, dest = state.last
        (ox, oy), (dx, dy) = point(game, origin), point(game, dest)
        pygame.draw.circle(surface, rendering.HIGHLIGHT, (ox, oy), 7)
        pygame.draw.line(surface, rendering.HIGHLIGHT, (ox, oy), (dx, dy), 4)
        length = max(1.0, ((dx - ox) ** 2 + (dy - oy) ** 2) ** 0.5)
        ux, uy = (dx - ox) / length, (dy - oy) / length
        tip = (dx - ux * radius, dy - uy * radius)
        back = (tip[0] - ux * 14, tip[1] - uy * 14)
        pygame.draw.polygon(
            surface,
            rendering.HIGHLIGHT,
            [tip, (back[0] - uy * 8, back[1] + ux * 8), (back[0] + uy * 8, back[1] - ux * 8)],
        )
        pygame.draw.circle(surface, rendering.HIGHLIGHT, point(game, dest), radius + 3, width=3)
        pygame.draw.circle(surface, (200, 40, 40), point(game, pivot), radius + 4, width=3)
        rendering.text(surface, "P", point(game, pivot), size=22, colour=(200, 40, 40), anchor="center", bold=True)
    rendering.text(surface, _status(game, state), (width / 2, height - 40), size=24, anchor="center")
    rendering.text(surface, _last_text(game, state, last), (width / 2, height - 16), size=20, anchor="center")
