"""Easy and medium bots for Swish and Squeeze (one set: the bots read the move rule from the game).

* easy: random set-up placements and choices; in play, the move that takes
  the most (a rook counts as :data:`ROOK_VALUE` beads), ties at random.
* medium: a one-move look-ahead. Every move is scored by what it takes,
  minus the most the opponent can take in reply, plus a little for the
  captures it threatens next; a move that wins (bead target, or the opponent
  left without a move) is taken, a reply that would win for the opponent is
  avoided. At the choice it weighs "move first" against each colour with the
  same look-ahead; set-up placements are random. The scoring is written once,
  as the batched engine's kernel (:func:`envs.hexrook.batched.medium_kernel`),
  which plays it on many boards; this bot runs it on its one position and
  draws among the best with its own generator.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core.bots import Bot
from envs.hexrook.board import (
    PHASE_CHOICE,
    PHASE_COLOUR,
    PHASE_PLAY,
    ROOK_VALUE,
    THREAT_CAP,
    THREAT_WEIGHT,
    WIN,
    HexRookGame,
    HexState,
    take_value,
)

_ENGINES: dict[tuple, Any] = {}  # the batched engine of each variant medium has played, made once


class EasyBot(Bot):
    """Greedy: the biggest immediate capture, otherwise any move."""

    def choose(self, state: HexState, mask: np.ndarray) -> int:
        if state.phase != PHASE_PLAY:
            return self.pick_random(mask)
        game = self.game
        colour = state.colour[state.to_move]
        own, enemy = colour + 1, 2 - colour
        actions, scores = [], []
        for action, _cell, _land, taken in game.capture_moves(state.board, state.rooks[colour], own, enemy):
            actions.append(action)
            scores.append(take_value(state.board, taken))
        return self.pick_best(actions, scores)


class MediumBot(Bot):
    """One move ahead: captures made, captures allowed, threats kept (the engine's medium kernel)."""

    def choose(self, state: HexState, mask: np.ndarray) -> int:
        if state.phase in (PHASE_PLAY, PHASE_CHOICE, PHASE_COLOUR):
            return self.pick_best(*self.scored_moves(state))
        return self.pick_random(mask)

    def scored_moves(self, state: HexState) -> tuple[list[int], list[float]]:
        """Every move (play phase) or choice (choice and colour phases) of the player to move, in the rules'
        order, with medium's score. The first call compiles the kernel (numba, cached on disk)."""
        from envs.hexrook.batched import medium_scored

        return medium_scored(engine_of(self.game), state)


def engine_of(game: HexRookGame) -> Any:
    """The batched engine of ``game``'s variant (made on first use, then kept: its tables are read-only)."""
    key = (type(game), tuple(sorted(game.params.items())))
    if key not in _ENGINES:
        from envs.hexrook.batched import engine_for

        _ENGINES[key] = engine_for(game)
    return _ENGINES[key]


BOTS = {"easy": EasyBot, "medium": MediumBot}

__all__ = ["BOTS", "THREAT_CAP", "THREAT_WEIGHT", "WIN", "EasyBot", "MediumBot", "ROOK_VALUE", "engine_of"]
