"""Exact win/draw/loss values of Swival positions, from a small C solver.

``solve(mine, theirs)`` gives the value for the side to move (1 win, 0 draw,
-1 loss) of the position where ``mine`` is to move; boards are the 24-bit ints
of ``envs/swival/rules.py``. The search (``_solver.c``, next to this file)
is compiled with gcc on first use into ``$XDG_CACHE_HOME/swgym`` (or
``~/.cache/swgym``), a writable place even when the package is installed
read-only. ``brute_force`` is a pure-Python minimax over the project's own
rules functions, to check the solver on small positions.

It is product code, not research: the tests check it against brute force, and
the hard opponent's evaluation is to use its exact values. Solving the empty board is
``python -m research.swival_solve`` (see ``research/README.md``).
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from envs.swival.rules import FULL, has_line, placements, play

SOURCE = Path(__file__).resolve().with_name("_solver.c")
LIBRARY_NAME = "swival_solver.so"
DEFAULT_TT_LOG2 = 24  # 2**24 entries of 16 bytes: 256 MB (allocated lazily by the OS)
_ABORT = 9
_NO_TABLE = -2

_lib: ctypes.CDLL | None = None
_tt_log2: int | None = None


def cache_dir() -> Path:
    """``$XDG_CACHE_HOME/swgym``, or ``~/.cache/swgym`` when XDG_CACHE_HOME is unset."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "swgym"


def build() -> Path:
    """Compile the solver into the cache directory unless the library is newer than the source.

    Returns the library's path; raises RuntimeError when gcc is missing or the compilation fails.
    """
    target = cache_dir() / LIBRARY_NAME
    if target.exists() and target.stat().st_mtime >= SOURCE.stat().st_mtime:
        return target
    gcc = shutil.which("gcc")
    if gcc is None:
        raise RuntimeError(f"gcc was not found on PATH; it is needed to compile {SOURCE.name}")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        # compile to a temporary name, then rename: parallel test workers never load half a file
        fd, tmp = tempfile.mkstemp(suffix=".so", dir=target.parent)
        os.close(fd)
    except OSError as err:
        raise RuntimeError(f"cannot write the compiled solver to {target.parent}: {err}") from None
    try:
        done = subprocess.run([gcc, "-O2", "-shared", "-fPIC", "-o", tmp, str(SOURCE)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            detail = (done.stderr or done.stdout).strip().splitlines()
            raise RuntimeError(f"gcc failed to compile {SOURCE} (exit {done.returncode}): "
                               + " | ".join(detail[-5:]))
        os.replace(tmp, target)
    except OSError as err:
        raise RuntimeError(f"could not run gcc on {SOURCE}: {err}") from None
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return target


def init(tt_log2: int = DEFAULT_TT_LOG2) -> None:
    """Build and load the solver, with a transposition table of ``2**tt_log2`` entries (16 bytes each)."""
    global _lib, _tt_log2
    if not 4 <= tt_log2 <= 32:
        raise ValueError(f"tt_log2 must be between 4 and 32, got {tt_log2}")
    if _lib is None:
        path = build()
        try:
            lib = ctypes.CDLL(str(path))
        except OSError as err:
            raise RuntimeError(f"cannot load the compiled solver {path}: {err}") from None
        lib.sw_init.argtypes = [ctypes.c_int]
        lib.sw_init.restype = ctypes.c_int
        lib.sw_new_generation.argtypes = []
        lib.sw_new_generation.restype = None
        lib.sw_solve.argtypes = [ctypes.c_uint32, ctypes.c_uint32, ctypes.c_double]
        lib.sw_solve.restype = ctypes.c_int
        lib.sw_nodes.argtypes = []
        lib.sw_nodes.restype = ctypes.c_uint64
        _lib = lib
    if _tt_log2 != tt_log2:
        if _lib.sw_init(tt_log2) != 0:
            _tt_log2 = None
            raise MemoryError(f"cannot allocate a solver table of 2**{tt_log2} entries")
        _tt_log2 = tt_log2


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
    check_position(mine, theirs)
    if not seconds > 0:
        raise ValueError(f"seconds must be positive, got {seconds}")
    if _lib is None:
        init()
    _lib.sw_new_generation()
    value = _lib.sw_solve(mine, theirs, float(seconds))
    if value == _ABORT:
        raise TimeoutError(f"the Swival solve ran out of its {seconds:g} s time limit "
                           f"after {nodes():,} nodes")
    if value == _NO_TABLE:
        raise MemoryError("the solver has no transposition table")
    return value


def nodes() -> int:
    """Nodes the last ``solve`` visited (0 before any)."""
    return 0 if _lib is None else _lib.sw_nodes()


# -- the numba port of _solver.c (same search, same table, same node counts) ----------------------------
_CHUNK = 1 << 16  # nodes per compiled call: the clock and Ctrl-C are checked between calls (a few ms)
_nb_table: np.ndarray | None = None
_nb_gen = 0
_nb_nodes = 0


def init_numba(tt_log2: int = DEFAULT_TT_LOG2) -> None:
    """Compile (or load from numba's cache) the numba search and give it a table of ``2**tt_log2`` entries."""
    global _nb_table, _nb_gen
    if not 4 <= tt_log2 <= 32:
        raise ValueError(f"tt_log2 must be between 4 and 32, got {tt_log2}")
    if _nb_table is None or _nb_table.shape[0] != 1 << tt_log2:
        _nb_table = None
        try:
            _nb_table = np.zeros((1 << tt_log2, 2), dtype=np.uint64)  # 16 bytes an entry, pages taken lazily
        except MemoryError:
            raise MemoryError(f"cannot allocate a solver table of 2**{tt_log2} entries") from None
        _nb_gen = 0


def solve_numba(mine: int, theirs: int, seconds: float = 60.0) -> int:
    """``solve`` with the numba search."""
    global _nb_gen, _nb_nodes
    check_position(mine, theirs)
    if not seconds > 0:
        raise ValueError(f"seconds must be positive, got {seconds}")
    if _nb_table is None:
        init_numba()
    from envs.swival import _solver_kernel as kernel

    _nb_gen += 1
    if _nb_gen > 255:  # the generation is 8 bits: start again on a cleared table
        _nb_table[:] = 0
        _nb_gen = 1
    status, frames, moves = kernel.new_stack()
    deadline = time.monotonic() + seconds
    try:
        while not kernel.run(mine, theirs, _CHUNK, _nb_table, _nb_gen, status, frames, moves):
            if time.monotonic() > deadline:
                raise TimeoutError(f"the Swival solve ran out of its {seconds:g} s time limit "
                                   f"after {int(status[kernel.ST_NODES]):,} nodes")
    finally:
        _nb_nodes = int(status[kernel.ST_NODES])
    return int(status[kernel.ST_RESULT])


def nodes_numba() -> int:
    """Nodes the last ``solve_numba`` visited (0 before any)."""
    return _nb_nodes


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
