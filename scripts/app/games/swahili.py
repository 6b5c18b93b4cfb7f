"""Swahili clicks: one of your rows (on your side of the pyramid); stop / go on are buttons
(clicking the landing row also goes on)."""

from __future__ import annotations

from envs.swahili import render
from envs.swahili.rules import FIRST_CAPTURE_ROW, NUM_ROWS, STOP
from scripts.app.games.base import Adapter


class SwahiliAdapter(Adapter):
    def paths(self, game, state, mask, seat):
        out = {}
        for a in mask.nonzero()[0]:
            a = int(a)
            if a == STOP:
                out[a] = [(("button", "stop"),)]
            elif state.pending >= 0:
                out[a] = [(("button", f"go on from row {a + 1}"),), (("row", a),)]
            else:
                out[a] = [(("row", a),)]
        return out

    def _side(self, game, seat):
        return render.SIDES[game.num_players][seat]

    def targets(self, game, state, seat):
        side = self._side(game, seat)
        return [(("row", r), (*render.spot(side, r), render.BAND * 0.6)) for r in range(NUM_ROWS)]

    def hit(self, game, state, seat, pos):
        """The band of one of the person's rows under ``pos`` (the whole trapezoid on their side)."""
        dx, dy = render.SIDE_DIR[self._side(game, seat)]
        x, y = pos[0] - render.CX, pos[1] - render.CY
        along = x * dx + y * dy  # distance from the centre towards the person's side
        across = abs(x * dy - y * dx)
        if along <= render.INNER or along > render.OUTER or across > along:
            return super().hit(game, state, seat, pos)
        row = int((render.OUTER - along) // render.BAND)
        return ("row", min(NUM_ROWS - 1, row))

    def reason(self, game, state, seat, selection, key):
        if state.pending >= 0:
            return f"Choose: stop, or go on from row {state.pending + 1} (buttons, or click that row)."
        if key is None:
            return "Click one of your rows (on your side of the board, towards you)."
        row = key[1]
        shared = " (rows 7-11 are shared: your pieces there sit on your side)" if row >= FIRST_CAPTURE_ROW else ""
        return f"You have no pieces in row {row + 1}{shared}."

    def prompt(self, game, state, seat, selection):
        colour = render.COLOUR_NAMES[seat]
        if state.pending >= 0:
            return f"Stop, or go on sowing from row {state.pending + 1}?"
        return f"You are {colour}: click one of your rows to sow its pieces."


ADAPTER = SwahiliAdapter  # found by adapter_for("swahili")
