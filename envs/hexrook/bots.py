"""Easy and medium bots for Swish and Squeeze (one set: the bots read the move rule from the game).

* easy: random set-up placements and choices; in play, the move that takes
  the most (a rook counts as :data:`ROOK_VALUE` beads), ties at random.
* medium: a one-move look-ahead. Every move is scored by what it takes,
  minus the most the opponent can take in reply, plus a little for the
  captures it threatens next; a move that wins (bead target, or the opponent
  left without a move) is taken, a reply that would win for the opponent is
  avoided. At the choice it weighs "move first" against each colour with the
  same look-ahead; set-up placements are random.
"""

from __future__ import annotations

import numpy as np

from envs.core.bots import Bot
from envs.hexrook.board import (
    EMPTY,
    PHASE_CHOICE,
    PHASE_COLOUR,
    PHASE_PLAY,
    ROOK_VALUE,
    HexRookGame,
    HexState,
    gain,
    take_value,
)

WIN = 1000.0  # a move that wins at once (a reply that wins: -WIN)
THREAT_WEIGHT = 0.4  # medium's weight of the best capture a move threatens next
THREAT_CAP = 10.0  # threats count up to this many beads


def best_take(
    game: HexRookGame, board: list[int], rooks: list[int], own: int, enemy: int, beads_needed: int, enemy_rooks: int
) -> tuple[float, bool]:
    """(value of the best capture, has any move) for the side with ``rooks``; WIN if it can win at once."""
    best, any_move = 0.0, False
    for _action, _cell, _land, taken in game.capture_moves(board, rooks, own, enemy):
        any_move = True
        if taken:
            beads, rks = gain(board, taken)
            if beads >= beads_needed or rks >= enemy_rooks:
                return WIN, True
            value = beads + ROOK_VALUE * rks
            if value > best:
                best = value
    return best, any_move


def after_move(
    board: list[int], cell: int, land: int, taken: list[int], own: int, my_rooks: list[int], their_rooks: list[int]
) -> tuple[list[int], list[int], list[int]]:
    """(board, my rooks, their rooks) after my rook (board code ``own``) moves ``cell`` -> ``land`` taking
    ``taken``: the position a one-move look-ahead reads, without the game's own bookkeeping."""
    after = board[:]
    after[cell], after[land] = EMPTY, own
    for c in taken:
        after[c] = EMPTY
    mine = [land if c == cell else c for c in my_rooks]
    theirs = [c for c in their_rooks if c not in taken]
    return after, mine, theirs


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
    """One move ahead: captures made, captures allowed, threats kept."""

    def choose(self, state: HexState, mask: np.ndarray) -> int:
        if state.phase == PHASE_PLAY:
            actions, scores = self.scored_moves(state)
            return self.pick_best(actions, scores)
        if state.phase in (PHASE_CHOICE, PHASE_COLOUR):
            return self._choose_side(state, mask)
        return self.pick_random(mask)

    def scored_moves(self, state: HexState) -> tuple[list[int], list[float]]:
        """Every move of the player to move with its look-ahead score."""
        game = self.game
        me = state.to_move
        colour = state.colour[me]
        own, enemy = colour + 1, 2 - colour
        board = state.board
        my_rooks, their_rooks = state.rooks[colour], state.rooks[1 - colour]
        target = game.params["beads_to_win"]
        need_me, need_them = target - state.stores[me], target - state.stores[1 - me]
        last_ply = state.plies + 1 >= game.params["max_plies"]
        actions, scores = [], []
        for action, cell, land, taken in game.capture_moves(board, my_rooks, own, enemy):
            actions.append(action)
            beads, rks = gain(board, taken)
            if beads >= need_me:
                scores.append(WIN)
                continue
            after, mine, theirs = after_move(board, cell, land, taken, own, my_rooks, their_rooks)
            value = beads + ROOK_VALUE * rks
            if last_ply:
                scores.append(value)
                continue
            reply, they_move = best_take(game, after, theirs, enemy, own, need_them, len(mine))
            if not they_move:
                scores.append(WIN)
                continue
            if reply >= WIN:
                scores.append(-WIN + value)
                continue
            threat, _ = best_take(game, after, mine, own, enemy, need_me - beads, len(theirs))
            scores.append(value - reply + THREAT_WEIGHT * min(threat, THREAT_CAP))
        return actions, scores

    def _value(self, state: HexState, seat: int) -> float:
        """Look-ahead value of a play-phase position for ``seat``."""
        if state.over:
            return 0.0 if state.winner is None else (WIN if state.winner == seat else -WIN)
        _, scores = self.scored_moves(state)
        best = max(scores)
        return best if state.to_move == seat else -best

    def _choose_side(self, state: HexState, mask: np.ndarray) -> int:
        game = self.game
        me = state.to_move
        actions, scores = [], []
        for action in np.flatnonzero(mask).tolist():
            after = game.copy_state(state)
            game.apply(after, action, None)
            if after.phase == PHASE_COLOUR:  # the opponent picks the colour worst for me
                values = []
                for pick in np.flatnonzero(game.legal_mask(after)).tolist():
                    final = game.copy_state(after)
                    game.apply(final, pick, None)
                    values.append(self._value(final, me))
                value = min(values)
            else:
                value = self._value(after, me)
            actions.append(action)
            scores.append(value)
        return self.pick_best(actions, scores)


BOTS = {"easy": EasyBot, "medium": MediumBot}
