"""Exact win/draw/loss values of Swival positions, from an alpha-beta search compiled with numba.

``solve(mine, theirs)`` gives the value for the side to move (1 win, 0 draw,
-1 loss) of the position where ``mine`` is to move; boards are the 24-bit ints
of ``envs/swival/rules.py``. The search is ``_solver_kernel.py`` (next to this
file): numba is imported and the search compiled (or loaded from numba's
cache, see :mod:`envs.core.batched`) on the first ``solve``, never at
``import envs``. ``brute_force`` is a pure-Python minimax over the project's
own rules functions, to check the solver on small positions.

It is product code, not research: the tests check it against brute force.
Solving the empty board is ``python -m research.swival_solve`` (see
``research/README.md``).
"""

from __future__ import annotations

import time

import numpy as np

from envs.swival.rules import FULL, has_line, placements, play

DEFAULT_TT_LOG2 = 24  # 2**24 entries of 16 bytes: 256 MB (pages taken lazily by the OS)
_CHUNK = 1 << 16  # nodes per compiled call: the clock and Ctrl-C are checked between calls (a few ms)

_table: np.ndarray | None = None
_generation = 0
_nodes = 0
_compiled = False


def init(tt_log2: int = DEFAULT_TT_LOG2) -> None:
    """Give the solver a transposition table of ``2**tt_log2`` entries (16 bytes each)."""
    global _table, _generation
    if not isinstance(tt_log2, int) or not 4 <= tt_log2 <= 32:
        raise ValueError(f"tt_log2 must be an int between 4 and 32, got {tt_log2!r}")
    if _table is None or _table.shape[0] != 1 << tt_log2:
        _table = None
        try:
            _table = np.zeros((1 << tt_log2, 2), dtype=np.uint64)
        except MemoryError:
            raise MemoryError(f"cannot allocate a solver table of 2**{tt_log2} entries") from None
        _generation = 0


def check_position(mine: int, theirs: int) -> None:
    """ValueError unless both boards are 24-bit ints that do not overlap."""
    for name, board in (("mine", mine), ("theirs", theirs)):
        if not isinstance(board, int) or isinstance(board, bool):
            raise ValueError(f"{name} must be an int bitboard, got {type(board).__name__}")
        if board < 0 or board & ~FULL:
            raise ValueError(f"{name} has bits outside the 24 cells: {board:#x} (allowed: 0..{FULL:#x})")
    if mine & theirs:
        cells = [c for c in range(24) if (mine & theirs) >> c & 1]
        raise ValueError(f"mine and theirs overlap on cells {cells}")


def solve(mine: int, theirs: int, seconds: float = 60.0) -> int:
    """Value for the side to move (``mine``): 1 win, 0 draw, -1 loss.

    Each call starts from an empty table. Raises TimeoutError when ``seconds`` run out.
    """
    global _generation, _nodes
    check_position(mine, theirs)
    if not seconds > 0:
        raise ValueError(f"seconds must be positive, got {seconds}")
    if _table is None:
        init()
    kernel = _kernel()
    _generation += 1
    if _generation > 255:  # the generation is 8 bits: start again on a cleared table
        _table[:] = 0
        _generation = 1
    status, frames, moves = kernel.new_stack()
    deadline = time.monotonic() + seconds
    try:
        while not kernel.run(mine, theirs, _CHUNK, _table, _generation, status, frames, moves):
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"the Swival solve ran out of its {seconds:g} s time limit "
                    f"after {int(status[kernel.ST_NODES]):,} nodes"
                )
    finally:
        _nodes = int(status[kernel.ST_NODES])
    return int(status[kernel.ST_RESULT])


def _kernel():
    """The compiled search module: numba is imported, and the search compiled or loaded from the cache, on the
    first call, before any solve starts its clock (so a cold compile never counts against ``seconds``)."""
    global _compiled
    from envs.swival import _solver_kernel as kernel

    if not _compiled:
        status, frames, moves = kernel.new_stack()
        kernel.run(0x10101, 0, 1, np.zeros((16, 2), dtype=np.uint64), 1, status, frames, moves)  # a won position
        _compiled = True
    return kernel


def nodes() -> int:
    """Nodes the last ``solve`` visited (0 before any)."""
    return _nodes


def brute_force(mine: int, theirs: int) -> int:
    """``solve``'s value by plain memoized minimax over ``placements``/``play``/``has_line`` (small positions only)."""
    check_position(mine, theirs)
    memo: dict[tuple[int, int], int] = {}

    def value(me: int, op: int) -> int:
        if has_line(me):
            return 1  # the win action
        if me | op == FULL:
            return 0  # full board, no line for the mover: draw
        key = (me, op)
        if key not in memo:
            best = -1
            for cell, direction in placements(me, op):
                m2, o2 = play(me, op, cell, direction)
                best = max(best, -value(o2, m2))
                if best == 1:
                    break
            memo[key] = best
        return memo[key]

    return value(mine, theirs)
