"""Exact win/draw/loss values of Swival positions, from an alpha-beta search compiled with numba.

``solve(mine, theirs)`` gives the value for the side to move (1 win, 0 draw,
-1 loss) of the position where ``mine`` is to move; boards are the 24-bit ints
of ``envs/swival/rules.py``. The search is ``_solver_kernel.py`` (next to this
file): numba is imported and the search compiled (or loaded from numba's
cache, see :mod:`envs.core.batched`) on the first ``solve``, never at
``import envs``. ``brute_force`` is a pure-Python minimax over the project's
own rules functions, to check the solver on small positions.

The tests check it against brute force. The empty board solved with it is a
draw (``results/2026-11-swival-solve.md``).
"""

from __future__ import annotations

import time

import numpy as np

from envs.core.checks import as_int
from envs.swival.rules import FULL, NUM_CELLS, SwivalState, has_line, placements, play

DEFAULT_TT_LOG2 = 24  # 2**24 entries of 16 bytes: 256 MB (pages taken lazily by the OS)
_CHUNK = 1 << 16  # nodes per compiled call: the clock and Ctrl-C are checked between calls (a few ms)

_table: np.ndarray | None = None
_generation = 0
_nodes = 0
_compiled = False


def init(tt_log2: int = DEFAULT_TT_LOG2) -> None:
    """Give the solver a transposition table of ``2**tt_log2`` entries (16 bytes each)."""
    global _table, _generation
    if (plain := as_int(tt_log2)) is None or not 4 <= plain <= 32:
        raise ValueError(f"tt_log2 must be an int between 4 and 32, got {tt_log2!r}")
    tt_log2 = plain
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
        if as_int(board) is None:
            raise ValueError(f"{name} must be an int bitboard, got {type(board).__name__}")
        if board < 0 or board & ~FULL:
            raise ValueError(f"{name} has bits outside the 24 cells: {board:#x} (allowed: 0..{FULL:#x})")
    if mine & theirs:
        cells = [c for c in range(24) if (mine & theirs) >> c & 1]
        raise ValueError(f"mine and theirs overlap on cells {cells}")


class NodeLimitError(RuntimeError):
    """A solve needed more nodes than its ``max_nodes``."""


def solve(mine: int, theirs: int, seconds: float = 60.0, keep_table: bool = False, max_nodes: int = 0) -> int:
    """Value for the side to move (``mine``): 1 win, 0 draw, -1 loss.

    Each call starts from an empty table, unless ``keep_table``: then it goes on
    with the bounds the solves since the last fresh one stored (every entry is an
    exact bound on its position's value, so they stay true; a player that solved a
    position solves its children almost for free). Raises TimeoutError when
    ``seconds`` run out and NodeLimitError after ``max_nodes`` nodes (> 0; 0: no
    limit). Nodes, unlike seconds, give the same outcome on any machine.
    """
    return solve_window(mine, theirs, -1, 1, seconds, keep_table, max_nodes)


def solve_window(
    mine: int,
    theirs: int,
    alpha: int,
    beta: int,
    seconds: float = 60.0,
    keep_table: bool = False,
    max_nodes: int = 0,
) -> int:
    """``solve`` in the window (``alpha``, ``beta``), -1 <= alpha < beta <= 1: a result at or below ``alpha``
    only bounds the value from above, one at or above ``beta`` from below. A narrow window asks less (is the
    value at most 0?) and is answered with fewer nodes than the exact value."""
    global _generation, _nodes
    check_position(mine, theirs)
    if not seconds > 0:
        raise ValueError(f"seconds must be positive, got {seconds}")
    if (plain := as_int(max_nodes)) is None or plain < 0:
        raise ValueError(f"max_nodes must be an int >= 0 (0: no limit), got {max_nodes!r}")
    if alpha not in (-1, 0, 1) or beta not in (-1, 0, 1) or not alpha < beta:
        raise ValueError(f"the window must be -1 <= alpha < beta <= 1, got alpha={alpha!r}, beta={beta!r}")
    if _table is None:
        init()
    kernel = _kernel()
    if not keep_table or _generation == 0:
        _generation += 1
        if _generation > 255:  # the generation is 8 bits: start again on a cleared table
            _table[:] = 0
            _generation = 1
    status, frames, moves = kernel.new_stack(alpha, beta)
    deadline = time.monotonic() + seconds
    try:
        while not kernel.run(mine, theirs, _chunk(status, max_nodes), _table, _generation, status, frames, moves):
            if max_nodes and status[kernel.ST_NODES] >= max_nodes:
                raise NodeLimitError(f"the Swival solve needed more than its {max_nodes:,} nodes")
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"the Swival solve ran out of its {seconds:g} s time limit "
                    f"after {int(status[kernel.ST_NODES]):,} nodes"
                )
    finally:
        _nodes = int(status[kernel.ST_NODES])
    return int(status[kernel.ST_RESULT])


def _chunk(status: np.ndarray, max_nodes: int) -> int:
    """Nodes for the next compiled call: a chunk, or what is left of ``max_nodes``."""
    return min(_CHUNK, max_nodes - int(status[_kernel().ST_NODES])) if max_nodes else _CHUNK


def warm_up() -> None:
    """Compile (or load from numba's cache) the search and give the solver its table now, its memory touched,
    so that the first solve a player makes in a game is not the one that pays for them."""
    if _table is None:
        init()
        _table.fill(0)  # np.zeros maps the pages on first use: take them now
    _kernel()


def _kernel():
    """The compiled search module: numba is imported, and the search compiled or loaded from the cache, on the
    first call, before any solve starts its clock (so a cold compile never counts against ``seconds``)."""
    global _compiled
    from envs.swival import _solver_kernel as kernel  # numba loads with the first solve only

    if not _compiled:
        status, frames, moves = kernel.new_stack()
        kernel.run(0x10101, 0, 1, np.zeros((16, 2), dtype=np.uint64), 1, status, frames, moves)  # a won position
        _compiled = True
    return kernel


def nodes() -> int:
    """Nodes the last ``solve`` visited (0 before any)."""
    return _nodes


def empty_cells(state: SwivalState) -> int:
    """Empty cells of a rules state (how far it is from a full board)."""
    return NUM_CELLS - (state.boards[0] | state.boards[1]).bit_count()


def state_value(
    state: SwivalState, max_nodes: int = 0, keep_table: bool = False, window: tuple[int, int] = (-1, 1)
) -> int | None:
    """``solve_window`` on a live rules state: its value for the player to move (a bound outside the
    ``window``), or None past ``max_nodes``.

    With :func:`empty_cells` and :func:`warm_up`, the exact endgame oracle a play-time search asks
    (``envs.registry.GameEntry.solver``; :mod:`policies.search`).
    """
    if state.over:
        raise ValueError("state_value: the game is over; only a live position has a value to solve")
    me = state.to_move
    try:
        return solve_window(state.boards[me], state.boards[1 - me], *window, keep_table=keep_table, max_nodes=max_nodes)
    except NodeLimitError:
        return None


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
