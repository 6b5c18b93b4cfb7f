"""Swival's rules on bitboards (see the env docstring for the rules in words).

Each player's counters are a 24-bit int: bit ``ring*8 + k``. Ring 0 is the
outer ring, 1 the middle (the one that swivels), 2 the inner; ``k`` runs
clockwise from just right of 12 o'clock. A line of three is one spoke:
bits ``k``, ``8+k``, ``16+k``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from envs.core.game import Game
from envs.core.notation import Fields
from envs.core.rewards import win_loss_rewards

NUM_CELLS = 24
FULL = (1 << NUM_CELLS) - 1
MIDDLE = 0xFF << 8
SPOKES = tuple((1 << k) | (1 << (8 + k)) | (1 << (16 + k)) for k in range(8))
WIN_ACTION = 72
NUM_ACTIONS = 73
SWIVELS = ("", "L", "R")  # 0 none, 1 left (anticlockwise), 2 right (clockwise)
RING_NAMES = ("o", "m", "i")
COUNTERS_ON_RINGS = 12
SEAT_SYMBOLS = ("R", "B")  # red, seat 0, moves first; blue, seat 1: the notation's and the drawings' letters


def has_line(bits: int) -> bool:
    """True when ``bits`` holds a whole spoke (cells k, 8 + k and 16 + k for some k).

    This and :func:`swivel` are the batched engine's and the solver's too, compiled there (envs/core/jit.py).
    """
    return (bits & (bits >> 8) & (bits >> 16) & 0xFF) != 0


def swivel(bits: int, direction: int) -> int:
    """Turn the middle ring of ``bits``: 1 = left (k -> k-1), 2 = right (k -> k+1)."""
    if direction == 0:
        return bits
    mid = (bits >> 8) & 0xFF
    if direction == 1:
        mid = (mid >> 1) | ((mid & 1) << 7)
    else:
        mid = ((mid << 1) & 0xFF) | (mid >> 7)
    return (bits & ~MIDDLE) | (mid << 8)


def swivel_allowed(mover_bits: int, cell: int) -> bool:
    """After placing on ``cell``: at least 2 own counters and one on the middle ring."""
    return mover_bits != 0 and (mover_bits & MIDDLE != 0 or 8 <= cell < 16)


def play(mover: int, other: int, cell: int, direction: int) -> tuple[int, int]:
    """Both bitboards after the mover places on ``cell`` and swivels ``direction``."""
    mover |= 1 << cell
    return swivel(mover, direction), swivel(other, direction)


def placements(mover: int, other: int) -> list[tuple[int, int]]:
    """Every legal (cell, swivel) pair for the mover (no win action)."""
    occupied = mover | other
    moves = []
    for cell in range(NUM_CELLS):
        if not occupied >> cell & 1:
            moves.append((cell, 0))
            if swivel_allowed(mover, cell):
                moves.append((cell, 1))
                moves.append((cell, 2))
    return moves


_BIT_INDEX = np.arange(NUM_CELLS, dtype=np.int64)


def bits_array(bits: int) -> np.ndarray:
    """The 24 bits of ``bits`` as a 0/1 int array indexed by cell."""
    return (bits >> _BIT_INDEX) & 1


def _cell_symbol(state: SwivalState, cell: int) -> str:
    for seat in (0, 1):
        if state.boards[seat] >> cell & 1:
            return SEAT_SYMBOLS[seat]
    return "."


def cell_name(cell: int) -> str:
    return f"{RING_NAMES[cell // 8]}{cell % 8}"


@dataclass
class SwivalState:
    boards: list[int] = field(default_factory=lambda: [0, 0])
    to_move: int = 0
    winner: int | None = None
    over: bool = False
    plies: int = 0


class SwivalGame(Game):
    """Swival: two players, 73 actions, no rule parameters."""

    name = "swival"
    num_players = 2
    num_actions = NUM_ACTIONS

    def new_state(self, rng: np.random.Generator) -> SwivalState:
        return SwivalState()

    def copy_state(self, state: SwivalState) -> SwivalState:
        return SwivalState(state.boards[:], state.to_move, state.winner, state.over, state.plies)

    def to_move(self, state: SwivalState) -> int:
        return state.to_move

    def is_over(self, state: SwivalState) -> bool:
        return state.over

    def winners(self, state: SwivalState) -> list[int]:
        return [] if state.winner is None else [state.winner]

    def legal_mask(self, state: SwivalState) -> np.ndarray:
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        if state.over:
            return mask
        mover, other = state.boards[state.to_move], state.boards[1 - state.to_move]
        mask[WIN_ACTION] = has_line(mover)
        empty = bits_array(~(mover | other) & FULL).astype(bool)
        mask[0:72:3] = empty
        if mover & MIDDLE:  # a swivel is allowed wherever the counter goes
            mask[1:72:3] = empty
            mask[2:72:3] = empty
        elif mover:  # only a counter placed on the middle ring earns the swivel
            mask[25:48:3] = empty[8:16]
            mask[26:48:3] = empty[8:16]
        return mask

    def apply(self, state: SwivalState, action: int, rng: np.random.Generator) -> list[float]:
        me = state.to_move
        state.plies += 1
        if action == WIN_ACTION:
            state.winner, state.over = me, True
            return win_loss_rewards(2, [me])
        cell, direction = divmod(action, 3)
        state.boards[me], state.boards[1 - me] = play(state.boards[me], state.boards[1 - me], cell, direction)
        state.to_move = 1 - me
        if state.boards[0] | state.boards[1] == FULL and not has_line(state.boards[state.to_move]):
            state.over = True  # draw: full board, the player to move has no line
        return [0.0, 0.0]

    def action_name(self, state: SwivalState, action: int) -> str:
        if action == WIN_ACTION:
            return "centre"
        cell, direction = divmod(action, 3)
        return cell_name(cell) + SWIVELS[direction]

    def to_text(self, state: SwivalState, seat: int | None = None) -> str:
        """``rings centre to-move``: the outer, middle and inner rings from spoke 0 clockwise (``R`` seat 0, ``B``
        seat 1, ``.`` empty) joined by ``/``; the winner's counter in the centre (``R``, ``B``) or ``-``; the
        seat to move (``R``, ``B``). Nothing is hidden, so every seat's view is the same text."""
        rings = "/".join("".join(_cell_symbol(state, ring * 8 + k) for k in range(8)) for ring in range(3))
        centre = "-" if state.winner is None else SEAT_SYMBOLS[state.winner]
        return f"{rings} {centre} {SEAT_SYMBOLS[state.to_move]}"

    def from_text(self, text: str, rng: np.random.Generator | None = None) -> SwivalState:
        fields = Fields(self.name, text, ("rings", "centre", "to-move"))
        cells = fields.cells("rings", NUM_CELLS, "RB.")
        boards = [sum(1 << c for c, x in enumerate(cells) if x == symbol) for symbol in SEAT_SYMBOLS]
        to_move = fields.choice("to-move", SEAT_SYMBOLS)
        centre = fields.choice("centre", ("R", "B", "-"))
        state = SwivalState(
            boards, to_move, None if centre == 2 else centre, centre != 2, sum(map(int.bit_count, boards))
        )
        counts = [b.bit_count() for b in boards]
        if max(counts) > COUNTERS_ON_RINGS:
            raise fields.error("rings", f"each player has {COUNTERS_ON_RINGS} ring counters, not {max(counts)}")
        if counts[0] - counts[1] not in (0, 1):
            raise fields.error(
                "rings", f"R moves first, so R has as many counters as B or one more, not {counts[0]} R, {counts[1]} B"
            )
        if counts[0] - counts[1] != to_move:
            mover = SEAT_SYMBOLS[counts[0] - counts[1]]
            raise fields.error("to-move", f"with {counts[0]} R and {counts[1]} B on the rings, {mover} is to move")
        if state.winner is not None:
            if state.winner != to_move or not has_line(boards[to_move]):
                raise fields.error("centre", "only the seat to move, with a line of three, can have won by the centre")
            state.plies += 1
        elif boards[0] | boards[1] == FULL and not has_line(boards[to_move]):
            state.over = True  # a full board with no line for the mover: the game ended drawn
        return state

    def counters_left(self, state: SwivalState, seat: int) -> int:
        """Ring counters not yet placed (the winning counter not counted)."""
        return COUNTERS_ON_RINGS - state.boards[seat].bit_count()
