"""Swish's move and capture rule, on the hex-rook engine (:mod:`envs.hexrook.board`).

A rook slides over empty cells; or slides, then leaps one unbroken row of
beads or of enemy rooks and lands on any empty cell beyond, before the next
piece. Never a mixed row, never over own rooks. Its twin is Squeeze
(:mod:`envs.squeeze.rules`).
"""

from __future__ import annotations

from envs.hexrook.board import BEAD, EMPTY, HexRookGame


class SwishGame(HexRookGame):
    """Swish: slides and leaps; the leapt row is captured."""

    name = "swish"
    capture_rule = "leap"

    def rook_actions(self, board, cell: int, own: int, enemy: int, out: list[int]) -> list[int]:
        append = out.append
        for ray in self.ray_actions[cell]:
            kind = EMPTY
            steps = iter(ray)
            for c, a in steps:  # slide
                kind = board[c]
                if kind:
                    break
                append(a)
            if kind != BEAD and kind != enemy:
                continue  # the ray's end, or an own rook: no leap
            for c, a in steps:  # the row, then the landing cells
                k = board[c]
                if k == kind:
                    continue
                if k == EMPTY:  # a mixed row has no empty cell right after it
                    append(a)
                    for c2, a2 in steps:
                        if board[c2]:
                            break
                        append(a2)
                break
        return out

    def captures(self, board: list[int], cell: int, direction: int, distance: int, own: int, enemy: int) -> list[int]:
        return [c for c in self.hex.rays[cell][direction][: distance - 1] if board[c] != EMPTY]
