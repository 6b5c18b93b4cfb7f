"""Swival clicks: a ring space, then (when a swivel is possible) no swivel / swivel left / right;
the centre for the winning counter."""

from __future__ import annotations

from envs.core import rendering
from envs.swival import render
from envs.swival.rules import WIN_ACTION, has_line
from scripts.app.games.base import Adapter

SWIVEL_BUTTONS = ("no swivel", "swivel left", "swivel right")
CENTRE_KEY = ("centre",)


class SwivalAdapter(Adapter):
    def paths(self, game, state, mask, seat):
        out = {}
        for cell in range(24):
            legal = [s for s in range(3) if mask[cell * 3 + s]]
            for s in legal:
                out[cell * 3 + s] = [
                    (("cell", cell),) if legal == [0] else (("cell", cell), ("button", SWIVEL_BUTTONS[s]))
                ]
        if mask[WIN_ACTION]:
            out[WIN_ACTION] = [(CENTRE_KEY,), (("button", "win: centre"),)]
        return out

    def targets(self, game, state, seat):
        spots = [(("cell", c), (*render.spot_position(c), render.SPOT_RADIUS + 4)) for c in range(24)]
        return spots + [(CENTRE_KEY, (*render.CENTRE, 32))]

    def reason(self, game, state, seat, selection, key):
        if key == CENTRE_KEY:
            return "The centre takes your winning counter only when your turn starts with a line of three."
        if key is not None and key[0] == "cell" and (state.boards[0] | state.boards[1]) >> key[1] & 1:
            return "That space is taken: place on an empty space."
        if selection:
            return "Choose: no swivel, swivel left or swivel right (buttons), or another empty space."
        return super().reason(game, state, seat, selection, key)

    def prompt(self, game, state, seat, selection):
        if selection:
            return "Swivel the middle ring? Choose a button (Esc: another space)."
        if has_line(state.boards[seat]):
            return "You have a line: click the centre to win, or place a counter."
        return "Your move: click an empty space."

    def can_resign(self, game, state, seat):
        if min(12 - game.counters_left(state, s) for s in (0, 1)) < 3:
            return "each side must have placed 3 counters first"
        return None

    def draw_selection(self, surface, session):
        import pygame

        super().draw_selection(surface, session)
        for key in session.selection:
            if key[0] == "cell":  # the counter about to be placed, pale
                x, y = render.spot_position(key[1])
                colour = rendering.SEAT_COLOURS[session.seat]
                pale = tuple((c + 255) // 2 for c in colour)
                pygame.draw.circle(surface, pale, (x, y), render.SPOT_RADIUS - 3)


ADAPTER = SwivalAdapter  # found by adapter_for("swival")
