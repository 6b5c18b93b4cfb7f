"""Swahili drawn as a table (ansi) and as the stepped pyramid seen from above (pygame).

The picture: eleven concentric squares around the centre hole. Each player
sits at one side (player_0 at the bottom, then clockwise: left, top, right;
with 2 players bottom and top). Rows 1-6 of a player are the six outer bands
of their side; rows 7-11 are whole square rings, shaded lighter as they step
up. A player's pieces in a row sit in that band on the player's side, drawn
as a disk of the player's colour holding the count; singles on rows 7-11 (the
capturable ones) get a white rim. Compounds are the corner holes, each on its
owner's right; the centre shows every player's pieces in it.
"""

from __future__ import annotations

from envs.core import rendering
from envs.swahili.rules import FIRST_CAPTURE_ROW, NUM_ROWS, STOP, SwahiliGame, SwahiliState, scores
from envs.swahili.rules import SEAT_SYMBOLS as SYMBOLS

COLOUR_NAMES = ("Red", "Black", "Blue", "Green")
SIZE = (780, 850)
CX, CY = 390, 392
OUTER = 330  # half-width of the board square
INNER = 40  # half-width of the centre hole
BAND = (OUTER - INNER) / NUM_ROWS
COMPOUND_OFFSET = 362
# side of the board (0 bottom, 1 left, 2 top, 3 right) of each seat, by player count
SIDES = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}
# unit vector from the centre to each side, and the corner on that side's right
SIDE_DIR = ((0, 1), (-1, 0), (0, -1), (1, 0))
RIGHT_CORNER = ((1, 1), (-1, 1), (-1, -1), (1, -1))


def _name(seat: int) -> str:
    return f"{COLOUR_NAMES[seat]} (player_{seat})"


def _status(game: SwahiliGame, state: SwahiliState) -> str:
    if state.over:
        best = game.winners(state)
        if not best:
            return "Game over: everyone ties."
        return "Game over: " + " and ".join(_name(s) for s in best) + (" win." if len(best) > 1 else " wins.")
    me = state.to_move
    if state.pending >= 0:
        return f"{_name(me)}: stop, or go on from row {state.pending + 1}?"
    return f"{_name(me)} to move."


def _last_text(state: SwahiliState, last: tuple[int, int] | None) -> str:
    if last is None:
        return ""
    seat, action = last
    what = "stop" if action == STOP else f"row {action + 1}"
    return f"last: {SYMBOLS[seat]} {what}"


def ansi(game: SwahiliGame, state: SwahiliState, last: tuple[int, int] | None) -> str:
    """One line per player: rows 1-6 (own), 7-11 (shared rings), centre, compound, score."""
    head = (
        "row     "
        + " ".join(f"{r:>2}" for r in range(1, 7))
        + " |"
        + " ".join(f"{r:>2}" for r in range(7, 12))
        + " |  C cmp pts"
    )
    lines = [head]
    points = scores(state)
    for seat in range(game.num_players):
        cells = [f"{c:>2}" if c else " ." for c in state.rows[seat]]
        mark = ">" if seat == state.to_move and not state.over else " "
        lines.append(
            f"{mark}{SYMBOLS[seat]} p{seat}   "
            + " ".join(cells[:6])
            + " |"
            + " ".join(cells[6:])
            + f" | {state.centre[seat]:>2} {state.compound[seat]:>3} {points[seat]:>3}"
        )
    status = _status(game, state)
    if last is not None:
        status += "  " + _last_text(state, last)
    lines.append(status)
    return "\n".join(lines)


def size(game: SwahiliGame) -> tuple[int, int]:
    return SIZE


def spot(side: int, row: int) -> tuple[float, float]:
    """Pixel centre of a seat's spot in ``row`` (index 0..10) on board side ``side``."""
    d = OUTER - (row + 0.5) * BAND
    dx, dy = SIDE_DIR[side]
    return CX + dx * d, CY + dy * d


def _band_polygon(side: int, row: int) -> list[tuple[float, float]]:
    """The trapezoid of ``row`` on one side (rows 1-6 belong to one player)."""
    outer, inner = OUTER - row * BAND, OUTER - (row + 1) * BAND
    corners = {0: ((-1, 1), (1, 1)), 1: ((-1, -1), (-1, 1)), 2: ((1, -1), (-1, -1)), 3: ((1, 1), (1, -1))}[side]
    (ax, ay), (bx, by) = corners
    return [
        (CX + ax * outer, CY + ay * outer),
        (CX + bx * outer, CY + by * outer),
        (CX + bx * inner, CY + by * inner),
        (CX + ax * inner, CY + ay * inner),
    ]


def _disk(surface, pos, colour, count: int, radius: int, rim=None) -> None:
    import pygame  # pygame loads on the first drawing only

    pygame.draw.circle(surface, colour, pos, radius)
    if rim is not None:
        pygame.draw.circle(surface, rim, pos, radius, width=2)
    rendering.text(surface, str(count), pos, size=int(radius * 1.5), colour=(255, 255, 255), anchor="center", bold=True)


def draw(surface, game: SwahiliGame, state: SwahiliState, last: tuple[int, int] | None) -> None:
    import pygame  # pygame loads on the first drawing only

    n = game.num_players
    sides = SIDES[n]
    surface.fill(rendering.BACKGROUND)
    # own rows 1-6: four trapezoids per band, tinted by their owner's colour
    owner_of_side = {side: seat for seat, side in enumerate(sides)}
    for row in range(FIRST_CAPTURE_ROW):
        for side in range(4):
            seat = owner_of_side.get(side)
            if seat is None:
                fill = (205, 200, 190)
            else:
                c = rendering.SEAT_COLOURS[seat]
                shade = 0.80 + 0.03 * row
                fill = tuple(int(255 - (255 - v) * 0.22 * shade) for v in c)
            poly = _band_polygon(side, row)
            pygame.draw.polygon(surface, fill, poly)
            pygame.draw.polygon(surface, (120, 100, 80), poly, width=1)
    # shared rings 7-11: stepped, lighter towards the top
    for row in range(FIRST_CAPTURE_ROW, NUM_ROWS):
        half = OUTER - row * BAND
        step = row - FIRST_CAPTURE_ROW
        fill = (150 + 15 * step, 115 + 14 * step, 75 + 12 * step)
        rect = pygame.Rect(0, 0, 2 * half, 2 * half)
        rect.center = (CX, CY)
        pygame.draw.rect(surface, fill, rect)
        pygame.draw.rect(surface, (90, 60, 35), rect, width=2)
    hole = pygame.Rect(0, 0, 2 * INNER, 2 * INNER)
    hole.center = (CX, CY)
    pygame.draw.rect(surface, (60, 45, 30), hole)
    for ring in (1, 3, 5, 7, 9, 11):  # row labels on the bottom-left diagonal
        d = OUTER - (ring - 0.5) * BAND
        colour = (255, 245, 225) if ring > FIRST_CAPTURE_ROW else rendering.INK
        rendering.text(surface, str(ring), (CX - d + 4, CY + d - 2), size=16, colour=colour, anchor="center")
    # the last pick-up and a pending landing
    if last is not None and last[1] != STOP:
        pygame.draw.circle(surface, rendering.HIGHLIGHT, spot(sides[last[0]], last[1]), BAND / 2, width=3)
    if state.pending >= 0 and not state.over:
        pygame.draw.circle(surface, (255, 255, 255), spot(sides[state.to_move], state.pending), BAND / 2 + 2, width=3)
    radius = int(BAND / 2) - 2
    for seat in range(n):
        colour = rendering.SEAT_COLOURS[seat]
        for row, count in enumerate(state.rows[seat]):
            if count:
                rim = (255, 255, 255) if count == 1 and row >= FIRST_CAPTURE_ROW else None
                _disk(surface, spot(sides[seat], row), colour, count, radius, rim)
        # centre: one small disk per player with pieces there, towards their side
        if state.centre[seat]:
            dx, dy = SIDE_DIR[sides[seat]]
            _disk(surface, (CX + dx * INNER * 0.5, CY + dy * INNER * 0.5), colour, state.centre[seat], 13)
        # compound: the corner hole on the player's right
        kx, ky = RIGHT_CORNER[sides[seat]]
        pos = (CX + kx * COMPOUND_OFFSET, CY + ky * COMPOUND_OFFSET)
        pygame.draw.circle(surface, (150, 120, 90), pos, 27)
        pygame.draw.circle(surface, colour, pos, 27, width=4)
        rendering.text(
            surface, str(state.compound[seat]), pos, size=26, colour=(255, 255, 255), anchor="center", bold=True
        )
    points = scores(state)
    x = 14
    for seat in range(n):
        label = f"{COLOUR_NAMES[seat]} {points[seat]}"
        rendering.text(surface, label, (x, SIZE[1] - 58), size=24, colour=rendering.SEAT_COLOURS[seat], bold=True)
        x += 190
    rendering.text(surface, _status(game, state), (SIZE[0] / 2, SIZE[1] - 30), size=24, anchor="center")
    rendering.text(surface, _last_text(state, last), (SIZE[0] - 10, SIZE[1] - 58), size=20, anchor="topright")
