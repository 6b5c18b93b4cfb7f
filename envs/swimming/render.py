"""Swimming drawn as text (ansi) and as a card table (pygame).

Hands are face down unless ``open_hands``; the middle is face up. The last
showdown (all hands face up, as at the table) is shown under the table.
"""

from __future__ import annotations

import math

from envs.core import rendering
from envs.swimming.rules import CHOICE, OVER, SwimmingGame, SwimmingState, card_name

SIZE = (760, 600)
CENTRE = (380, 255)
CARD_W, CARD_H = 46, 66
SUIT_COLOURS = {"D": (200, 40, 40), "H": (200, 40, 40), "S": (30, 30, 30), "C": (30, 30, 30)}
FACE_DOWN = "##"


def _hand_text(game: SwimmingGame, state: SwimmingState, seat: int) -> str:
    hand = state.hands[seat]
    if not state.active[seat]:
        return "(sunk)"
    if game.open_hands or state.phase == OVER:  # the last showdown laid every hand open
        return " ".join(card_name(c) for c in hand)
    return " ".join(card_name(c) if state.public[seat] >> c & 1 else FACE_DOWN for c in hand)


def _seat_tags(game: SwimmingGame, state: SwimmingState, seat: int) -> str:
    tags = []
    if state.dealer == seat and state.phase != OVER:
        tags.append("dealer")
    if state.knocker == seat:
        tags.append("KNOCKED")
    if game.swimming(state, seat) and state.phase != OVER:
        tags.append("swimming")
    if state.to_move == seat and state.phase != OVER:
        tags.append("to move")
    if state.winner == seat:
        tags.append("WINNER")
    return ", ".join(tags)


def _last_move_text(game: SwimmingGame, state: SwimmingState, last) -> str:
    if last is None:
        return ""
    seat, action = last
    names = {9: "swapped all", 10: "passed", 11: "knocked", 12: "kept his lot", 13: "took the other lot"}
    return f"last: player_{seat} " + names.get(action, f"swapped hand#{action // 3} for middle#{action % 3}")


def _showdown_lines(state: SwimmingState) -> list[str]:
    sd = state.last
    if sd is None:
        return []
    lines = [f"last showdown ({sd.reason}):"]
    for s, hand in sd.hands.items():
        score = sd.scores[s]
        mark = " sinks" if s in sd.sunk else " pays" if s in sd.paid else ""
        lines.append(f"  player_{s}: {' '.join(card_name(c) for c in hand)} = {score:g}{mark}")
    if sd.reason == "void":
        lines.append("  everyone left would sink: void, dealt again")
    return lines


def _status(game: SwimmingGame, state: SwimmingState) -> str:
    if state.phase == OVER:
        return f"player_{state.winner} wins the pot of {state.pot}."
    if state.phase == CHOICE:
        return f"Round {state.round}: player_{state.dealer} (dealer) chooses a lot."
    return f"Round {state.round}: player_{state.to_move} to move."


def ansi(game: SwimmingGame, state: SwimmingState, last) -> str:
    """One line per seat, the middle, the pot and the last showdown."""
    rows = [_status(game, state) + ("  " + _last_move_text(game, state, last) if last else "")]
    for s in range(game.num_players):
        tags = _seat_tags(game, state, s)
        rows.append(
            f"player_{s}: coins {state.coins[s]}  {_hand_text(game, state, s):<12}" + (f"  [{tags}]" if tags else "")
        )
    middle = " ".join(card_name(c) for c in state.middle) or "(not laid out yet)"
    rows.append(f"middle: {middle}   stock: {len(state.deck)}   pot: {state.pot}")
    rows.extend(_showdown_lines(state))
    return "\n".join(rows)


def size(game: SwimmingGame) -> tuple[int, int]:
    return SIZE


def _seat_position(game: SwimmingGame, seat: int) -> tuple[float, float]:
    angle = 2 * math.pi * seat / game.num_players
    return CENTRE[0] - 270 * math.sin(angle), CENTRE[1] + 175 * math.cos(angle)


def _draw_card(surface, card: int | None, x: float, y: float, highlight: bool = False) -> None:
    import pygame  # pygame loads on the first drawing only

    rect = pygame.Rect(int(x), int(y), CARD_W, CARD_H)
    if card is None:
        pygame.draw.rect(surface, (40, 70, 150), rect, border_radius=5)
        pygame.draw.rect(surface, (230, 230, 240), rect.inflate(-10, -10), width=1, border_radius=3)
    else:
        name = card_name(card)
        pygame.draw.rect(surface, (252, 250, 244), rect, border_radius=5)
        rendering.text(
            surface,
            name[:-1],
            (x + CARD_W / 2, y + 20),
            size=26,
            colour=SUIT_COLOURS[name[-1]],
            anchor="center",
            bold=True,
        )
        rendering.text(
            surface, name[-1], (x + CARD_W / 2, y + 46), size=24, colour=SUIT_COLOURS[name[-1]], anchor="center"
        )
    pygame.draw.rect(
        surface, rendering.HIGHLIGHT if highlight else rendering.INK, rect, width=3 if highlight else 1, border_radius=5
    )


def draw(surface, game: SwimmingGame, state: SwimmingState, last) -> None:
    import pygame  # pygame loads on the first drawing only

    surface.fill(rendering.BACKGROUND)
    pygame.draw.ellipse(surface, (40, 110, 60), pygame.Rect(110, 95, 540, 320))
    # the middle
    mx = CENTRE[0] - 1.5 * CARD_W - 8
    for k, card in enumerate(state.middle):
        _draw_card(surface, card, mx + k * (CARD_W + 8), CENTRE[1] - CARD_H / 2)
    if not state.middle:
        rendering.text(surface, "dealer choosing", CENTRE, colour=(240, 240, 240), anchor="center")
    rendering.text(
        surface,
        f"stock {len(state.deck)}",
        (CENTRE[0], CENTRE[1] + 45),
        size=20,
        colour=(240, 240, 240),
        anchor="center",
    )
    for s in range(game.num_players):
        x, y = _seat_position(game, s)
        colour = rendering.SEAT_COLOURS[s % len(rendering.SEAT_COLOURS)]
        to_move = state.to_move == s and state.phase != OVER
        label = f"player_{s}"
        rendering.text(surface, label, (x, y - CARD_H / 2 - 20), size=22, colour=colour, anchor="center", bold=to_move)
        if state.active[s]:
            for k, card in enumerate(state.hands[s]):
                shown = game.open_hands or state.phase == OVER or state.public[s] >> card & 1
                _draw_card(
                    surface,
                    card if shown else None,
                    x - 1.5 * CARD_W - 4 + k * (CARD_W + 4),
                    y - CARD_H / 2,
                    highlight=to_move,
                )
        else:
            rendering.text(surface, "sunk", (x, y), size=26, colour=(120, 120, 120), anchor="center")
        for c in range(state.coins[s]):  # coins as little gold discs
            pygame.draw.circle(surface, (220, 180, 40), (int(x - 40 + c * 14), int(y + CARD_H / 2 + 12)), 6)
        tags = _seat_tags(game, state, s).replace("to move", "").strip(", ")
        rendering.text(
            surface,
            tags,
            (x + 20 if state.coins[s] else x, y + CARD_H / 2 + 12),
            size=18,
            anchor="midleft" if state.coins[s] else "center",
        )
    rendering.text(surface, f"pot: {state.pot}", (12, SIZE[1] - 30), size=26, bold=True)
    rendering.text(surface, _status(game, state), (10, 8), size=22, bold=True)
    rendering.text(surface, _last_move_text(game, state, last), (10, 30), size=18)
    for k, line in enumerate(_showdown_lines(state)[:7]):
        rendering.text(surface, line, (140, SIZE[1] - 118 + k * 16), size=18)
