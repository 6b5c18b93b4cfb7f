"""Squeeze's move and capture rule, on the hex-rook engine (:mod:`envs.hexrook.board`).

A rook slides over empty cells only; after it lands, every unbroken row of
beads, or of enemy rooks, running from the landing cell and closed by
another own rook is taken (several directions at once). Its twin is Swish
(:mod:`envs.swish.rules`).
"""

from __future__ import annotations

from envs.hexrook.board import BEAD, EMPTY, PHASE_PLAY, HexRookGame, HexState, biggest_first, take_value


def capturable_run(board: list[int], ray: list[int], enemy: int) -> int:
    """Length of the unbroken row of beads, or of ``enemy`` rooks, at the start of ``ray`` (0 if none)."""
    if not ray:
        return 0
    kind = board[ray[0]]
    if kind != BEAD and kind != enemy:
        return 0
    n, j = len(ray), 1
    while j < n and board[ray[j]] == kind:
        j += 1
    return j


class SqueezeGame(HexRookGame):
    """Squeeze: slides only; custodian captures by the moving rook."""

    name = "squeeze"
    capture_rule = "custody"

    def rook_actions(self, board, cell: int, own: int, enemy: int, out: list[int]) -> list[int]:
        append = out.append
        for ray in self.ray_actions[cell]:
            for c, a in ray:
                if board[c]:
                    break
                append(a)
        return out

    def captures(self, board: list[int], cell: int, direction: int, distance: int, own: int, enemy: int) -> list[int]:
        return self.squeezed(board, self.hex.rays[cell][direction][distance - 1], own, enemy)

    def capture_moves(self, board, rook_cells, own, enemy):
        spots = self.squeeze_spots(board, own, enemy)
        none: list[int] = []
        landing = self.landing_of
        out = []
        for cell in rook_cells:
            for a in self.rook_actions(board, cell, own, enemy, []):
                land = landing[a]
                out.append((a, cell, land, spots.get(land, none)))
        return out

    def capturing_moves(self, state: HexState) -> list[int]:
        """Same answer as :meth:`HexRookGame.capturing_moves`, from the squeeze spots:
        a rook reaches a spot when it is the first piece met on a ray from it."""
        if state.over or state.phase != PHASE_PLAY:
            return []
        board, colour = state.board, state.colour[state.to_move]
        own = colour + 1
        spots = self.squeeze_spots(board, own, 2 - colour)
        scored = []
        for land, taken in spots.items():
            value = take_value(board, taken)
            for direction, ray in enumerate(self.hex.rays[land]):
                for distance, c in enumerate(ray, 1):
                    if board[c]:
                        if board[c] == own:  # it slides back along the ray onto the spot
                            scored.append((value, self.move_action(c, (direction + 3) % 6, distance)))
                        break
        return biggest_first(scored)

    def squeeze_spots(self, board: list[int], own: int, enemy: int) -> dict[int, list[int]]:
        """Empty cell -> the cells an ``own`` rook arriving there would take (only cells that take).

        Found from the closing rooks: own rook, an unbroken row, then the empty
        cell. The closing rook can never be the one that moves there (the row
        lies between them), so this equals :meth:`squeezed` for every move.
        """
        spots: dict[int, list[int]] = {}
        rays = self.hex.rays
        for cell, kind0 in enumerate(board):
            if kind0 != own:
                continue
            for ray in rays[cell]:
                j = capturable_run(board, ray, enemy)
                if j and j < len(ray) and board[ray[j]] == EMPTY:
                    spots.setdefault(ray[j], []).extend(ray[:j])
        return spots

    def squeezed(self, board: list[int], land: int, own: int, enemy: int) -> list[int]:
        """Cells taken by an ``own`` rook arriving on ``land``.

        The cell the rook left never closes a row: it lies behind empty cells
        (or right next to ``land``) on the line of the move.
        """
        taken: list[int] = []
        for ray in self.hex.rays[land]:
            j = capturable_run(board, ray, enemy)
            if j and j < len(ray) and board[ray[j]] == own:
                taken.extend(ray[:j])
        return taken
