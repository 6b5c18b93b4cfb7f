"""Swish and Squeeze clicks: a rook, then its landing cell; set-up placements (a cell, then which
rook on an edge cell); the colour / first-move choices are buttons."""

from __future__ import annotations

from envs.hexrook import render
from envs.hexrook.board import COLOUR_NAMES, EMPTY, PHASE_PLAY, PHASE_SETUP
from scripts.app.games.base import Adapter

KIND_BUTTONS = ("white rook", "black rook", "bead")
CHOICE_BUTTONS = ("move first", "play white", "play black")


class HexRookAdapter(Adapter):
    def paths(self, game, state, mask, seat):
        out = {}
        legal = mask.nonzero()[0]
        places: dict[int, list[int]] = {}
        for a in legal:
            a = int(a)
            if a < game.place_base:
                cell, d, dist = game.decode_move(a)
                out[a] = [(("cell", cell), ("cell", game.landing(cell, d, dist)))]
            elif a < game.choice_base:
                cell, kind = divmod(a - game.place_base, 3)
                places.setdefault(cell, []).append(kind)
            else:
                out[a] = [(("button", CHOICE_BUTTONS[a - game.choice_base]),)]
        for cell, kinds in places.items():
            for kind in kinds:
                a = game.place_base + 3 * cell + kind
                out[a] = [(("cell", cell),) if len(kinds) == 1 else (("cell", cell), ("button", KIND_BUTTONS[kind]))]
        return out

    def targets(self, game, state, seat):
        r = render.HEX_SIZE * 0.85
        return [(("cell", c), (*render.cell_centre(game, c), r)) for c in range(game.hex.n)]

    def draw_target(self, surface, game, state, seat, key, colour, width=3):
        import pygame

        x, y = render.cell_centre(game, key[1])
        pygame.draw.polygon(surface, colour, render._hexagon(x, y, render.HEX_SIZE - 3), width=width)

    def reason(self, game, state, seat, selection, key):
        if key is None:
            return "Click on a cell of the board."
        if state.phase == PHASE_SETUP:
            if state.board[key[1]] != EMPTY:
                return "That cell is taken."
            if game.hex.is_edge[key[1]]:
                return "Edge cells take rooks, and every rook is placed: put the beads on inner cells."
            return "Inner cells take beads, and every bead is placed: put the rooks on edge cells."
        if state.phase != PHASE_PLAY:
            return "Choose with the buttons: move first, or the colour you play."
        colour = state.colour[seat]
        piece = state.board[key[1]]
        if not selection:
            if piece == colour + 1:
                return "That rook has no move (it is blocked)."
            if piece in (1, 2):
                return f"That is not your rook: you play {COLOUR_NAMES[colour]}."
            return f"Pick one of your {COLOUR_NAMES[colour]} rooks first."
        what = (
            "slides over empty cells, and leaps one unbroken row of beads or of enemy rooks"
            if game.name == "swish"
            else "slides over empty cells only"
        )
        return f"The rook cannot land there: it {what} (the highlighted cells are its landings)."

    def prompt(self, game, state, seat, selection):
        if state.phase == PHASE_SETUP:
            return "Set up: click an edge cell for a rook, an inner cell for a bead."
        if state.phase != PHASE_PLAY:
            return "Choose with the buttons."
        colour = COLOUR_NAMES[state.colour[seat]]
        return f"You play {colour}: click a rook." if not selection else "Click where the rook lands."
