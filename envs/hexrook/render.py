"""Swish and Squeeze drawn as text (ansi) and as a hex board (pygame).

Both show the rooks of the two colours, the beads, the stores, and the last
move's path and captures.
"""

from __future__ import annotations

import math

from envs.core import rendering
from envs.hexrook.board import (
    BEAD,
    BLACK_ROOK,
    CHOICE_NAMES,
    COLOUR_NAMES,
    EMPTY,
    KIND_NAMES,
    PHASE_CHOICE,
    PHASE_COLOUR,
    PHASE_SETUP,
    WHITE_ROOK,
    HexRookGame,
    HexState,
)

SYMBOLS = {EMPTY: ".", WHITE_ROOK: "W", BLACK_ROOK: "B", BEAD: "o"}
HEX_SIZE = 30
MARGIN = 20
TOP, BOTTOM = 64, 56
SQRT3 = math.sqrt(3.0)
CELL_INNER, CELL_EDGE, CELL_LINE = (226, 208, 166), (196, 168, 120), (120, 100, 70)
ROOK_FILL = {WHITE_ROOK: (248, 248, 242), BLACK_ROOK: (28, 28, 28)}
ROOK_LINE = {WHITE_ROOK: (40, 40, 40), BLACK_ROOK: (230, 230, 230)}
BEAD_FILL, BEAD_LINE = (40, 120, 200), (20, 60, 110)
CAPTURE = (210, 30, 30)


def _who(state: HexState, seat: int) -> str:
    c = state.colour[seat]
    return f"player_{seat}" + (f" ({COLOUR_NAMES[c]})" if c >= 0 else "")


def status(game: HexRookGame, state: HexState) -> str:
    """One line: who is to act and how, or how the game ended."""
    if state.over:
        if state.winner is None:
            return f"Draw: {game.params['max_plies']} rook moves played."
        loser = 1 - state.winner
        why = (
            "reached the bead target"
            if state.stores[state.winner] >= game.params["beads_to_win"]
            else f"{_who(state, loser)} cannot move"
        )
        return f"{_who(state, state.winner)} wins: {why}."
    if state.phase == PHASE_SETUP:
        w, b, beads = state.to_place()
        return f"player_0 sets up: to place {w} white, {b} black rooks, {beads} beads."
    if state.phase == PHASE_CHOICE:
        return "player_1 chooses: move first, white or black."
    if state.phase == PHASE_COLOUR:
        return "player_0 picks a colour; player_1 moves first."
    return f"{_who(state, state.to_move)} to move."


def last_text(game: HexRookGame, state: HexState, last: tuple[int, int] | None) -> str:
    """The last action in words (moves name their path and captures)."""
    if last is None:
        return ""
    seat, action = last
    names = game.hex.names
    if action >= game.choice_base:
        return f"last: player_{seat} chose {CHOICE_NAMES[action - game.choice_base]}"
    if action >= game.place_base:
        cell, kind = divmod(action - game.place_base, 3)
        return f"last: {KIND_NAMES[kind]} on {names[cell]}"
    path = state.last_path
    text = f"last: {_who(state, seat)} {names[path[0]]}-{names[path[-1]]}"
    if state.last_captures:
        text += " took " + " ".join(names[c] for c in state.last_captures)
    return text


def ansi(game: HexRookGame, state: HexState, last: tuple[int, int] | None) -> str:
    """Rows of the hex board (W, B rooks, o beads), stores, status and the last move."""
    radius, hexb = game.radius, game.hex
    taken = set(state.last_captures)
    landing = state.last_path[-1] if state.last_path and last is not None and last[1] < game.place_base else None
    rows = []
    for r in range(-radius, radius + 1):
        cells = [i for i, (q, rr) in enumerate(hexb.coords) if rr == r]
        marks = []
        for i in cells:
            sym = SYMBOLS[state.board[i]]
            if last is not None and i in taken:
                sym = "x"
            marks.append(sym)
        line = " " * abs(r) + chr(ord("a") + r + radius) + " " + " ".join(marks)
        if landing is not None and landing in cells:
            line += "   <- " + hexb.names[landing]
        rows.append(line)
    rows.append(
        f"stores: {_who(state, 0)} {state.stores[0]}, {_who(state, 1)} {state.stores[1]}"
        f" (target {game.params['beads_to_win']}); rook moves {state.plies}/{game.params['max_plies']}"
    )
    rows.append(status(game, state))
    if last is not None:
        rows.append(last_text(game, state, last))
    return "\n".join(rows)


def size(game: HexRookGame) -> tuple[int, int]:
    width = SQRT3 * HEX_SIZE * (2 * game.radius + 1) + 2 * MARGIN
    height = 1.5 * HEX_SIZE * 2 * game.radius + 2 * HEX_SIZE + TOP + BOTTOM
    return int(max(width, 480)), int(height)


def cell_centre(game: HexRookGame, cell: int) -> tuple[float, float]:
    """Pixel centre of a cell (pointy-top hexagons)."""
    q, r = game.hex.coords[cell]
    w, _ = size(game)
    cy = TOP + HEX_SIZE + 1.5 * HEX_SIZE * game.radius
    return w / 2 + HEX_SIZE * SQRT3 * (q + r / 2), cy + 1.5 * HEX_SIZE * r


def _hexagon(x: float, y: float, s: float) -> list[tuple[float, float]]:
    return [
        (x + s * math.cos(math.radians(30 + 60 * k)), y + s * math.sin(math.radians(30 + 60 * k))) for k in range(6)
    ]


def draw(surface, game: HexRookGame, state: HexState, last: tuple[int, int] | None) -> None:
    import pygame  # pygame loads on the first drawing only

    w, h = size(game)
    surface.fill(rendering.BACKGROUND)
    is_move = last is not None and last[1] < game.place_base and state.last_path
    path = state.last_path if is_move else ()
    for cell in range(game.hex.n):
        x, y = cell_centre(game, cell)
        fill = CELL_EDGE if game.hex.is_edge[cell] else CELL_INNER
        pygame.draw.polygon(surface, fill, _hexagon(x, y, HEX_SIZE - 1))
        pygame.draw.polygon(surface, CELL_LINE, _hexagon(x, y, HEX_SIZE - 1), width=1)
    if path:
        points = [cell_centre(game, c) for c in (path[0], path[-1])]
        for c in path:
            pygame.draw.polygon(surface, rendering.HIGHLIGHT, _hexagon(*cell_centre(game, c), HEX_SIZE - 4), width=3)
        pygame.draw.line(surface, rendering.HIGHLIGHT, points[0], points[1], width=5)
        pygame.draw.circle(surface, rendering.HIGHLIGHT, points[0], 6)
    if last is not None and last[1] >= game.place_base and last[1] < game.choice_base:
        placed = (last[1] - game.place_base) // 3
        pygame.draw.polygon(surface, rendering.HIGHLIGHT, _hexagon(*cell_centre(game, placed), HEX_SIZE - 4), width=3)
    for cell, kind in enumerate(state.board):
        x, y = cell_centre(game, cell)
        if kind == BEAD:
            pygame.draw.circle(surface, BEAD_FILL, (x, y), HEX_SIZE * 0.32)
            pygame.draw.circle(surface, BEAD_LINE, (x, y), HEX_SIZE * 0.32, width=2)
        elif kind != EMPTY:
            pygame.draw.circle(surface, ROOK_FILL[kind], (x, y), HEX_SIZE * 0.62)
            pygame.draw.circle(surface, ROOK_LINE[kind], (x, y), HEX_SIZE * 0.62, width=2)
            pygame.draw.polygon(surface, ROOK_LINE[kind], _hexagon(x, y, HEX_SIZE * 0.32), width=2)
    if is_move:
        for cell in state.last_captures:
            x, y = cell_centre(game, cell)
            d = HEX_SIZE * 0.4
            pygame.draw.line(surface, CAPTURE, (x - d, y - d), (x + d, y + d), width=4)
            pygame.draw.line(surface, CAPTURE, (x - d, y + d), (x + d, y - d), width=4)
    _draw_stores(surface, game, state, w)
    rendering.text(surface, status(game, state), (w / 2, h - 38), size=22, anchor="center")
    rendering.text(surface, last_text(game, state, last), (w / 2, h - 14), size=20, anchor="center")


def _draw_stores(surface, game: HexRookGame, state: HexState, width: int) -> None:
    """Each seat's store: its colour, a row of bead marks and the count."""
    import pygame  # pygame loads on the first drawing only

    for seat in (0, 1):
        right = seat == 1
        x = width - 10 if right else 10
        anchor = "topright" if right else "topleft"
        c = state.colour[seat]
        label = f"{_who(state, seat)}: {state.stores[seat]}/{game.params['beads_to_win']}"
        rendering.text(surface, label, (x, 8), size=22, anchor=anchor, bold=state.to_move == seat and not state.over)
        if c >= 0:
            cx = x - 8 if right else x + 8
            kind = c + 1
            pygame.draw.circle(surface, ROOK_FILL[kind], (cx, 40), 8)
            pygame.draw.circle(surface, ROOK_LINE[kind], (cx, 40), 8, width=2)
        for k in range(state.stores[seat]):
            bx = x - 28 - 11 * k if right else x + 28 + 11 * k
            pygame.draw.circle(surface, BEAD_FILL, (bx, 40), 5)
