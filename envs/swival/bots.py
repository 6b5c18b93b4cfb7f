"""Swival's easy and medium bots.

* easy: puts the winning counter in the centre when it can, otherwise plays a
  random legal move.
* medium: a two-ply search (its move, every reply). It takes a win, breaks the
  opponent's line with a swivel when it must, and never makes a line the
  opponent can swivel apart while a safer move exists; quiet positions are
  scored by open spokes under each middle-ring turn.
"""

from __future__ import annotations

import numpy as np

from envs.core.bots import Bot
from envs.swival.rules import FULL, SPOKES, WIN_ACTION, SwivalState, has_line, placements, play, swivel

WIN, LOSS = 1000.0, -1000.0


class EasyBot(Bot):
    def choose(self, state: SwivalState, mask: np.ndarray) -> int:
        if mask[WIN_ACTION]:
            return WIN_ACTION
        return self.pick_random(mask)


def open_spokes(mine: int, theirs: int) -> float:
    """Counters in spokes the opponent has not blocked, squared, under each middle turn."""
    score = 0.0
    for direction in (0, 1, 2):
        m, t = swivel(mine, direction), swivel(theirs, direction)
        for spoke in SPOKES:
            if t & spoke == 0:
                n = (m & spoke).bit_count()
                score += n * n
    return score


def evaluate(mine: int, theirs: int) -> float:
    """Quiet-position score for the player about to move with ``mine``."""
    return open_spokes(mine, theirs) - open_spokes(theirs, mine)


class MediumBot(Bot):
    def choose(self, state: SwivalState, mask: np.ndarray) -> int:
        if mask[WIN_ACTION]:
            return WIN_ACTION
        me = state.to_move
        mine, theirs = state.boards[me], state.boards[1 - me]
        actions, scores = [], []
        for cell, direction in placements(mine, theirs):
            actions.append(cell * 3 + direction)
            scores.append(self._after_my_move(*play(mine, theirs, cell, direction)))
        return self.pick_best(actions, scores)

    @staticmethod
    def _after_my_move(mine: int, theirs: int) -> float:
        """Value for me of the position after my move: the opponent replies as badly for me as it can."""
        if has_line(theirs):
            return LOSS  # the opponent starts its turn with a line
        if mine | theirs == FULL:
            return WIN if has_line(mine) else 0.0
        worst = WIN
        for cell, direction in placements(theirs, mine):
            t, m = play(theirs, mine, cell, direction)
            if has_line(m):
                value = WIN
            elif m | t == FULL:
                value = 0.0
            else:
                value = evaluate(m, t)
            if value < worst:
                worst = value
                if worst <= LOSS:
                    break
        return worst


BOTS = {"easy": EasyBot, "medium": MediumBot}
