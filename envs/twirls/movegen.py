"""Twirls' compiled legal-twirl generator: numba over two-word bitboards.

One generator serves both the batched engine (:mod:`envs.twirls.batched`,
board by board) and the rules (:data:`envs.twirls.rules.twirl_mask`, one
position given as the rules' bitboards, through :func:`compiled_twirl_mask`).
:func:`envs.twirls.rules.python_twirl_mask` stays the reference it is checked
against (``tests/games/twirls/test_twirls_movegen.py``). A bitboard is two uint64 words
(cells 0-63, 64-80), so the first stone along a ray is one bit scan.

Importing this module imports numba; the rules import it on their first
legal-move query only.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable
from functools import cache

import numpy as np
from numba import typeof, types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from envs.core.batched import called
from envs.core.checks import as_int
from envs.core.jit import njit
from envs.twirls.board import tables

_WORD = (1 << 64) - 1
_LOW48 = (1 << 48) - 1

#: The geometry of one board size the generator reads (read-only arrays): ``rays[c*8 + u]`` the cells from ``c``
#: to the edge along direction u (two words), ``edge_run[c*8 + u]`` their number, ``ascending[u]`` the cell index
#: grows along u, ``file_of``/``rank_of`` per cell; twirl ``t`` goes ``dest_len[t]`` steps along ``dest_dir[t]``
#: per unit of pivot distance. Bound at module level so that numba's cache finds the same type in every process.
RayTables = namedtuple(
    "RayTables", ("rays", "edge_run", "ascending", "file_of", "rank_of", "dest_dir", "dest_len"), module=__name__
)
#: What a stone sees along each of its 8 directions (scratch, 8 entries each): ``enemy[u]`` the first stone is
#: the other colour's (a pivot), ``run[u]`` the empty cells before that stone or the edge.
Sight = namedtuple("Sight", ("enemy", "run"), module=__name__)


@cache
def ray_tables(size: int) -> RayTables:
    """The :data:`RayTables` of the ``size`` x ``size`` board, from :func:`envs.twirls.board.tables`."""
    t = tables(size)
    dest_dir = np.zeros(32, dtype=np.int16)
    dest_len = np.zeros(32, dtype=np.int16)
    for d in range(8):
        for k, u, steps in t.turn_to[d][1]:  # pivot distance 1: direction u origin -> destination, its length
            dest_dir[k] = u
            dest_len[k] = steps
    found = RayTables(
        np.array([[r & _WORD, r >> 64] for r in t.rays], dtype=np.uint64),
        np.array([r.bit_count() for r in t.rays], dtype=np.int16),
        np.array(t.ascending, dtype=np.bool_),
        np.array(t.file_of, dtype=np.int16),
        np.array(t.rank_of, dtype=np.int16),
        dest_dir,
        dest_len,
    )
    for array in found:
        array.setflags(write=False)
    return found


@njit(cache=True, inline="always")
def first_stone(occ_lo, occ_hi, ray, ascending):
    """The first stone along a ray (``ray``: its two words) from ``occ``, or -1."""
    lo = occ_lo & ray[0]
    hi = occ_hi & ray[1]
    if ascending:
        if lo:
            return np.int64(trailing_zeros(lo))
        if hi:
            return 64 + np.int64(trailing_zeros(hi))
    else:
        if hi:
            return 127 - np.int64(leading_zeros(hi))
        if lo:
            return 63 - np.int64(leading_zeros(lo))
    return -1


@njit(cache=True, inline="always")
def _look(bits, colour, c, geo, sight):
    """What the stone of ``colour`` on cell ``c`` sees, into ``sight`` (:data:`Sight`). A twirl's pivot is at
    distance ``run[d] + 1``; its path to the destination, ``length`` cells along u, is clear iff
    ``run[u] >= length``."""
    # bound once, outside the loop: numba counts a reference at every read of an array from a tuple
    rays, edge_run, ascending, file_of, rank_of = geo.rays, geo.edge_run, geo.ascending, geo.file_of, geo.rank_of
    enemy, run = sight.enemy, sight.run
    occ_lo = bits[0, 0] | bits[1, 0]
    occ_hi = bits[0, 1] | bits[1, 1]
    them = 1 - colour
    for u in range(8):
        k = c * 8 + u
        q = first_stone(occ_lo, occ_hi, rays[k], ascending[u])
        if q < 0:
            enemy[u] = False
            run[u] = edge_run[k]
        else:
            enemy[u] = ((bits[them, q >> 6] >> np.uint64(q & 63)) & np.uint64(1)) != 0
            run[u] = max(abs(file_of[q] - file_of[c]), abs(rank_of[q] - rank_of[c])) - 1


@called
def write_twirls(bits, stones, count, colour, geo, sight, row, moves):
    """Set ``row[origin*32 + t]`` for every legal twirl of ``colour`` (``row``: a mask row, all False) and list
    them in ``moves`` (room for 32 per stone); returns how many.

    A board: ``bits`` (2, 2) each colour's bitboard, ``stones[colour, :count[colour]]`` its cells.
    """
    run, enemy, dest_dir, dest_len = sight.run, sight.enemy, geo.dest_dir, geo.dest_len
    found = 0
    for s in range(count[colour]):
        c = np.int64(stones[colour, s])
        _look(bits, colour, c, geo, sight)
        for d in range(8):
            if not enemy[d]:  # no pivot this way: the 4 twirls around it stay False
                continue
            j = run[d] + 1
            for t in range(4 * d, 4 * d + 4):  # branch-free: the entry written, the list written and kept if legal
                ok = run[dest_dir[t]] >= j * dest_len[t]
                row[c * 32 + t] = ok
                moves[found] = c * 32 + t
                found += ok
    return found


@called
def has_twirl(bits, stones, count, colour, geo, sight):
    """``colour`` has at least one legal twirl (the board as for :func:`write_twirls`)."""
    run, enemy, dest_dir, dest_len = sight.run, sight.enemy, geo.dest_dir, geo.dest_len
    for s in range(count[colour]):
        _look(bits, colour, np.int64(stones[colour, s]), geo, sight)
        for d in range(8):
            if not enemy[d]:
                continue
            j = run[d] + 1
            for t in range(4 * d, 4 * d + 4):
                if run[dest_dir[t]] >= j * dest_len[t]:
                    return True
    return False


@njit(cache=True)
def _mask_of_bitboards(mine_a, mine_b, theirs_a, theirs_b, geo, out):
    """Legal twirls of the side owning ``mine`` into ``out`` (1-D); returns how many. A bitboard comes as
    ``(bits & (2**48 - 1), bits >> 48)``: two ints that numba takes as int64 without a conversion."""
    n = geo.file_of.shape[0]
    bits = np.empty((2, 2), dtype=np.uint64)
    for colour, a, b in ((0, mine_a, mine_b), (1, theirs_a, theirs_b)):
        bits[colour, 0] = np.uint64(a) | (np.uint64(b) << np.uint64(48))
        bits[colour, 1] = np.uint64(b) >> np.uint64(16)
    stones = np.empty((1, n), dtype=np.uint8)
    count = np.zeros(1, dtype=np.int8)  # the engine's dtype (at most 81 stones): one compile of write_twirls
    for word in range(2):
        w = bits[0, word]
        while w:
            stones[0, count[0]] = word * 64 + trailing_zeros(w)
            count[0] += 1
            w &= w - np.uint64(1)
    out[: n * 32] = False
    sight = Sight(np.empty(8, dtype=np.bool_), np.empty(8, dtype=np.int64))
    # colour an int64, as the engine's: one compile of write_twirls for both
    return write_twirls(bits, stones, count, np.int64(0), geo, sight, out, np.empty(n * 32, dtype=np.int16))


@cache
def _entry_point() -> Callable:
    """:func:`_mask_of_bitboards` compiled for the rules' types, called without numba's type dispatch."""
    return _mask_of_bitboards.compile((*[types.int64] * 4, typeof(ray_tables(9)), types.Array(types.bool_, 1, "C")))


@cache
def compiled_twirl_mask(size: int) -> Callable[[int, int, np.ndarray], int]:
    """The generator of the ``size`` x ``size`` board as ``twirl_mask(mine, theirs, out) -> count``, inputs
    unchecked (:func:`twirl_mask` checks them): ``mine``/``theirs`` disjoint bitboards of the board, ``out`` a
    writable C-contiguous bool array of ``size*size*32`` (or one more) entries."""
    generate, geo = _entry_point(), ray_tables(size)

    def twirl_mask_of_size(mine: int, theirs: int, out: np.ndarray) -> int:
        return generate(mine & _LOW48, mine >> 48, theirs & _LOW48, theirs >> 48, geo, out)

    return twirl_mask_of_size


def twirl_mask(mine: int, theirs: int, size: int, out: np.ndarray) -> int:
    """The rules' ``twirl_mask`` with its input checked: legal twirls of ``mine`` into ``out[:size*size*32]``.

    ``mine``/``theirs`` are the rules' bitboards; ``out`` a writable, contiguous
    bool array of ``size*size*32`` (or one more: the swap entry is left alone)
    entries. Returns the number of legal twirls.
    """
    if as_int(size) not in (8, 9):
        raise ValueError(f"twirl_mask: size must be 8 or 9, got {size!r}")
    size = int(size)
    cells = size * size
    for bits in (mine, theirs):
        if (plain := as_int(bits)) is None or not 0 <= plain < 1 << cells:
            raise ValueError(
                f"twirl_mask: mine and theirs must be disjoint bitboards of the {size}x{size} board "
                f"(ints from 0 to 2**{cells} - 1), got {bits!r}"
            )
    mine, theirs = int(mine), int(theirs)
    if mine & theirs:
        cell = (mine & theirs).bit_length() - 1
        raise ValueError(f"twirl_mask: mine and theirs must be disjoint bitboards; both hold cell {cell}")
    if (
        not isinstance(out, np.ndarray)
        or out.dtype != np.bool_
        or out.shape not in ((cells * 32,), (cells * 32 + 1,))
        or not (out.flags.c_contiguous and out.flags.writeable)
    ):
        raise ValueError(
            f"twirl_mask: out must be a bool array of {cells * 32} (or {cells * 32 + 1}) entries, "
            "writable and contiguous"
        )
    return compiled_twirl_mask(size)(mine, theirs, out)


__all__ = [
    "RayTables",
    "Sight",
    "compiled_twirl_mask",
    "first_stone",
    "has_twirl",
    "ray_tables",
    "twirl_mask",
    "write_twirls",
]
