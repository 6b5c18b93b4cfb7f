"""Twirls of Action clicks: the stone to move (origin), then its destination; the pivot is shown.

When two twirls of one stone land on the same cell by different pivots, a
third click picks the pivot. The pie-rule swap is a button.
"""

from __future__ import annotations

from envs.core import rendering
from envs.twirls import render
from envs.twirls.rules import COLOUR_NAMES
from scripts.app.games.base import SELECTED, TARGET, Adapter

PIVOT = (200, 40, 40)


class TwirlsAdapter(Adapter):
    def _moves(self, game, state, mask):
        """(action, origin, pivot, destination) of every legal twirl."""
        occupied = state.stones[0] | state.stones[1]
        out = []
        for a in mask[: game.swap_action].nonzero()[0]:
            found = game.tables.destination(int(a), occupied)
            if found is not None:
                out.append((int(a), int(a) // 32, found[0], found[1]))
        return out

    def paths(self, game, state, mask, seat):
        moves = self._moves(game, state, mask)
        ways: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for a, o, p, d in moves:
            ways.setdefault((o, d), []).append((a, p))
        out = {}
        for (o, d), options in ways.items():
            for a, p in options:
                path = (("cell", o), ("cell", d)) if len(options) == 1 else (("cell", o), ("cell", d), ("cell", p))
                out.setdefault(a, []).append(path)
        if mask[game.swap_action]:
            out[game.swap_action] = [(("button", "swap (pie rule)"),)]
        return out

    def targets(self, game, state, seat):
        r = render.CELL / 2 - 2
        return [(("cell", c), (*render.point(game, c), r)) for c in range(game.size * game.size)]

    def _colour(self, game, state, seat):
        return game.colour_of(state, seat)

    def reason(self, game, state, seat, selection, key):
        names = game.tables.names
        if key is None:
            return "Click on a point of the board."
        cell = key[1]
        mine = state.stones[self._colour(game, state, seat)]
        theirs = state.stones[1 - self._colour(game, state, seat)]
        if not selection:
            if theirs >> cell & 1:
                return f"That is not your stone: you play {COLOUR_NAMES[self._colour(game, state, seat)]}."
            if not mine >> cell & 1:
                return "Pick one of your stones first (the highlighted ones can twirl)."
            return (
                f"The stone on {names[cell]} cannot twirl: it needs an enemy stone first in line as its pivot "
                "and a free landing cell."
            )
        origin = names[selection[0][1]]
        if len(selection) == 2:
            return "Two pivots lead there: click the pivot to use (ringed)."
        return f"The stone on {origin} cannot land on {names[cell]}: the highlighted points are its destinations."

    def prompt(self, game, state, seat, selection):
        colour = COLOUR_NAMES[self._colour(game, state, seat)]
        if not selection:
            swap = " (or swap colours: button)" if game.swap_available(state) else ""
            return f"You play {colour}: click a stone to twirl{swap}."
        if len(selection) == 1:
            return f"Twirl from {game.tables.names[selection[0][1]]}: click its destination (pivots in red)."
        return "Click the pivot to twirl round."

    def draw_selection(self, surface, session):
        import pygame

        game, state = session.game, session.state
        sel = session.selection
        radius = render.CELL // 2 - 4
        if not sel:
            for key in session.next_keys():
                if key[0] == "cell":
                    pygame.draw.circle(surface, TARGET, render.point(game, key[1]), radius + 2, width=2)
            return
        origin = sel[0][1]
        ox, oy = render.point(game, origin)
        pygame.draw.circle(surface, SELECTED, (ox, oy), radius + 3, width=4)
        # each possible destination with its pivot; the hovered one with an arrow and a ringed P
        mask = session.env.legal_mask()
        hover = session.hover[1] if session.hover is not None and session.hover[0] == "cell" else None
        mine = [
            (p, d) for a, o, p, d in self._moves(game, state, mask) if o == origin and (len(sel) == 1 or d == sel[1][1])
        ]
        for p, d in mine:
            pygame.draw.circle(surface, TARGET, render.point(game, d), 9)
            pygame.draw.circle(surface, PIVOT, render.point(game, p), 5)
        for p, d in mine:
            dx, dy = render.point(game, d)
            px, py = render.point(game, p)
            if d == hover or len(sel) == 2:
                pygame.draw.line(surface, TARGET, (ox, oy), (dx, dy), 3)
                pygame.draw.circle(surface, PIVOT, (px, py), radius + 4, width=3)
                rendering.text(surface, "P", (px, py), size=22, colour=PIVOT, anchor="center", bold=True)


ADAPTER = TwirlsAdapter  # found by adapter_for("twirls")
