"""Twirls of Action's batched engine: N games as numba kernels over padded uint8 boards (see :mod:`envs.core.batched`).

Per board: ``board`` ((size+2)**2,) uint8, the board with a one-cell border
(0 empty, 1 Black, 2 White, 3 off the board: a ray or a path stops at the
first non-zero cell, so no bounds checks); ``stones`` (2, size*size) uint8,
each colour's stones as padded indices (the first ``count[colour]`` entries;
twirls never capture, so they only move); ``swapped`` (the pie rule taken:
seat s plays colour ``s ^ swapped``), ``plies``, ``winner`` (-1: none) and
``last`` (origin, pivot, destination of the last twirl; -1: none).

The variant lives in the consts (``params``: size, padded width, cells, both
seats' ``max_neighbors``, ``max_plies``; geometry tables; the start board), so
one compiled kernel serves 9x9, 8x8 and every handicap. Actions, observations
and rewards are exactly those of ``envs/twirls/env.py``; ``tests/test_batched.py``
and ``tests/test_twirls_batched.py`` play both side by side to keep it so.

:func:`twirl_mask` is the legal-twirl generator for one position given as
bitboards (the rules' :data:`envs.twirls.rules.twirl_mask` signature), on the
same compiled code as the batch.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from envs.core.batched import BatchedGame, Engine
from envs.twirls.rules import SETUPS, VECTORS, TwirlsGame, TwirlsState, parse_setup, tables

EMPTY, BORDER = 0, 3
# params: the variant's rule parameters and sizes, one int64 vector
SIZE, WIDTH, CELLS, LIMIT0, LIMIT1, MAX_PLIES = range(6)


# -- move generation on one padded board -------------------------------------------------
@njit(cache=True, inline="always")
def _pivot(board, p, step):
    """(cell of the first stone from ``p`` along ``step``, its distance): a stone or the border."""
    q = p + step
    j = 1
    while board[q] == EMPTY:
        q += step
        j += 1
    return q, j


@njit(cache=True, inline="always")
def _path_clear(board, p, step, length):
    """The ``length`` cells from ``p`` (excluded) along ``step`` are empty (the border stops it)."""
    for _ in range(length):
        p += step
        if board[p] != EMPTY:
            return False
    return True


@njit(cache=True)
def _write_twirls(board, stones, count, colour, cell_at, dir_step, dest_step, dest_len, out, row):
    """Set ``out[row, origin*32 + t]`` for every legal twirl of ``colour``; returns how many."""
    them = 2 - colour
    found = 0
    for s in range(count[colour]):
        p = np.int64(stones[colour, s])
        base = cell_at[p] * 32
        for d in range(8):
            q, j = _pivot(board, p, dir_step[d])
            if board[q] != them:
                continue
            for r in range(4):
                t = d * 4 + r
                if _path_clear(board, p, dest_step[t], j * dest_len[t]):
                    out[row, base + t] = True
                    found += 1
    return found


@njit(cache=True)
def _has_twirl(board, stones, count, colour, dir_step, dest_step, dest_len):
    """``colour`` has at least one legal twirl."""
    them = 2 - colour
    for s in range(count[colour]):
        p = np.int64(stones[colour, s])
        for d in range(8):
            q, j = _pivot(board, p, dir_step[d])
            if board[q] != them:
                continue
            for r in range(4):
                t = d * 4 + r
                if _path_clear(board, p, dest_step[t], j * dest_len[t]):
                    return True
    return False


@njit(cache=True)
def _has_won(board, stones, count, colour, limit, dir_step, seen, stack):
    """``colour``'s stones are one 8-connected group and none has more than ``limit`` friendly neighbours.

    ``seen`` (a scratch board, all False, left so) and ``stack`` are scratch space.
    """
    me = colour + 1
    n = count[colour]
    if n == 0:
        return False
    for s in range(n):
        p = stones[colour, s]
        friends = 0
        for d in range(8):
            friends += board[p + dir_step[d]] == me
        if friends > limit:
            return False
    # flood fill from the first stone
    stack[0] = stones[colour, 0]
    seen[stack[0]] = True
    top, reached = 1, 1
    while top:
        top -= 1
        p = stack[top]
        for d in range(8):
            q = p + dir_step[d]
            if board[q] == me and not seen[q]:
                seen[q] = True
                stack[top] = q
                top += 1
                reached += 1
    for s in range(n):
        seen[stones[colour, s]] = False
    return reached == n


# -- the kernels ---------------------------------------------------------------------------
@njit(cache=True)
def reset(where, rng, to_move, over, board, stones, count, swapped, plies, winner, last,
          params, cell_at, cell_of, dir_step, dest_step, dest_len, start_board, start_stones, start_count):
    for i in range(where.shape[0]):
        if where[i]:
            board[i] = start_board
            stones[i] = start_stones
            count[i] = start_count
            swapped[i] = False
            plies[i] = 0
            winner[i] = -1
            last[i] = -1
            to_move[i] = 0
            over[i] = False


@njit(cache=True)
def legal(out, to_move, over, board, stones, count, swapped, plies, winner, last,
          params, cell_at, cell_of, dir_step, dest_step, dest_len, start_board, start_stones, start_count):
    swap = out.shape[1] - 1
    for i in range(out.shape[0]):
        out[i] = False
        if over[i]:
            continue
        colour = to_move[i] ^ swapped[i]
        _write_twirls(board[i], stones[i], count[i], colour, cell_at, dir_step, dest_step, dest_len, out, i)
        out[i, swap] = plies[i] == 1 and not swapped[i]


@njit(cache=True)
def step(actions, rewards, rng, to_move, over, board, stones, count, swapped, plies, winner, last,
         params, cell_at, cell_of, dir_step, dest_step, dest_len, start_board, start_stones, start_count):
    swap = params[CELLS] * 32
    seen = np.zeros(board.shape[1], dtype=np.bool_)
    stack = np.empty(stones.shape[2], dtype=np.int64)
    for i in range(actions.shape[0]):
        action = actions[i]
        if action < 0:
            continue
        seat = to_move[i]
        b = board[i]
        plies[i] += 1
        if action == swap:
            swapped[i] = not swapped[i]  # the colour to move stays White, now played by seat 0
            last[i] = -1
            to_move[i] = 1 - seat
        else:
            colour = seat ^ swapped[i]
            origin, t = action >> 5, action & 31
            p = np.int64(cell_of[origin])
            q, j = _pivot(b, p, dir_step[t >> 2])
            dest = p + j * dest_len[t] * dest_step[t]
            b[p] = EMPTY
            b[dest] = colour + 1
            for s in range(count[i, colour]):
                if stones[i, colour, s] == p:
                    stones[i, colour, s] = dest
                    break
            last[i, 0] = origin
            last[i, 1] = cell_at[q]
            last[i, 2] = cell_at[dest]
            to_move[i] = 1 - seat
        # the end, in the RULINGS order: the mover has won; the ply limit; the next player has no action
        limit = params[LIMIT0 + seat]
        if _has_won(b, stones[i], count[i], seat ^ swapped[i], limit, dir_step, seen, stack):
            winner[i] = seat
            over[i] = True
            rewards[i, seat] = 1.0
            rewards[i, 1 - seat] = -1.0
        elif plies[i] >= params[MAX_PLIES]:
            over[i] = True
        elif not (plies[i] == 1 and not swapped[i]) and not _has_twirl(
                b, stones[i], count[i], to_move[i] ^ swapped[i], dir_step, dest_step, dest_len):
            winner[i] = seat
            over[i] = True
            rewards[i, seat] = 1.0
            rewards[i, 1 - seat] = -1.0


@njit(cache=True)
def observe(seats, out, to_move, over, board, stones, count, swapped, plies, winner, last,
            params, cell_at, cell_of, dir_step, dest_step, dest_len, start_board, start_stones, start_count):
    n = params[CELLS]
    limits = (params[LIMIT0], params[LIMIT1])
    max_plies = params[MAX_PLIES]
    for i in range(out.shape[0]):
        seat = seats[i]
        colour = seat ^ swapped[i]
        own = colour + 1
        b = board[i]
        for cell in range(n):
            v = b[cell_of[cell]]
            out[i, cell] = v == own
            out[i, n + cell] = v == 3 - own
            out[i, 2 * n + cell] = v == EMPTY
        tail = 3 * n
        out[i, tail] = colour == 0
        out[i, tail + 1] = not over[i] and to_move[i] == seat
        out[i, tail + 2] = not over[i] and plies[i] == 1 and not swapped[i]
        out[i, tail + 3] = limits[seat] / 8.0
        out[i, tail + 4] = limits[1 - seat] / 8.0
        out[i, tail + 5] = plies[i] / max_plies


# -- one position from the rules (bitboards) -----------------------------------------------
@njit(cache=True)
def _mask_of_bitboards(mine_lo, mine_hi, theirs_lo, theirs_hi, cell_of, cell_at, dir_step, dest_step, dest_len,
                       width, out):
    """Legal twirls of the side owning ``mine`` (two 64-bit words each) into ``out`` (1-D); returns how many."""
    n = cell_of.shape[0]
    board = np.full(width * width, BORDER, dtype=np.uint8)
    stones = np.zeros((2, n), dtype=np.uint8)
    count = np.zeros(2, dtype=np.int64)
    for cell in range(n):
        lo = cell < 64
        bit = np.uint64(1) << np.uint64(cell if lo else cell - 64)
        p = cell_of[cell]
        if ((mine_lo if lo else mine_hi) & bit) != 0:
            board[p] = 1
            stones[0, count[0]] = p
            count[0] += 1
        elif ((theirs_lo if lo else theirs_hi) & bit) != 0:
            board[p] = 2
        else:
            board[p] = EMPTY
    out[:n * 32] = False
    return _write_twirls(board, stones, count, 0, cell_at, dir_step, dest_step, dest_len, out.reshape(1, -1), 0)


_WORD = (1 << 64) - 1


def twirl_mask(mine: int, theirs: int, size: int, out: np.ndarray) -> int:
    """The rules' ``twirl_mask`` on the compiled generator: legal twirls of ``mine`` into ``out[:size*size*32]``.

    ``mine``/``theirs`` are the rules' bitboards; ``out`` a bool array of
    ``size*size*32`` (or one more: the swap entry is left alone) entries.
    Returns the number of legal twirls.
    """
    g = geometry(size)
    return int(_mask_of_bitboards(np.uint64(mine & _WORD), np.uint64(mine >> 64), np.uint64(theirs & _WORD),
                                  np.uint64(theirs >> 64), g["cell_of"],
                                  g["cell_at"], g["dir_step"], g["dest_step"], g["dest_len"], size + 2, out))


# -- geometry and conversions ------------------------------------------------------------------
@lru_cache(maxsize=None)
def geometry(size: int) -> dict[str, np.ndarray]:
    """Read-only tables of one board size: padded index of each cell and back, steps of directions and twirls."""
    width = size + 2
    cell_of = np.array([(c // size + 1) * width + c % size + 1 for c in range(size * size)], dtype=np.int16)
    cell_at = np.full(width * width, -1, dtype=np.int16)
    cell_at[cell_of] = np.arange(size * size)
    dir_step = np.array([df + dr * width for df, dr in VECTORS], dtype=np.int16)
    t = tables(size)
    dest_step = np.zeros(32, dtype=np.int16)
    dest_len = np.zeros(32, dtype=np.int16)
    for d in range(8):
        for k, u, steps in t.turn_to[d][1]:  # pivot distance 1: u the unit direction, steps its length
            dest_step[k] = dir_step[u]
            dest_len[k] = steps
    black, white = parse_setup(SETUPS[size], size)
    start_board, start_stones, start_count = pack_stones(black, white, size, cell_of)
    out = {"cell_at": cell_at, "cell_of": cell_of, "dir_step": dir_step, "dest_step": dest_step,
           "dest_len": dest_len, "start_board": start_board, "start_stones": start_stones, "start_count": start_count}
    for array in out.values():
        array.setflags(write=False)
    return out


def pack_stones(black: int, white: int, size: int, cell_of: np.ndarray) -> tuple[np.ndarray, ...]:
    """(padded board, stone lists, counts) of two bitboards."""
    width = size + 2
    board = np.full(width * width, BORDER, dtype=np.uint8)
    board[cell_of] = EMPTY
    stones = np.zeros((2, size * size), dtype=np.uint8)
    count = np.zeros(2, dtype=np.int8)
    for colour, bits in enumerate((black, white)):
        for cell in range(size * size):
            if bits >> cell & 1:
                board[cell_of[cell]] = colour + 1
                stones[colour, count[colour]] = cell_of[cell]
                count[colour] += 1
    return board, stones, count


def to_rules(batch: BatchedGame, i: int) -> TwirlsState:
    """Board ``i`` as the rules' :class:`TwirlsState`."""
    a = batch.arrays
    size = int(batch.engine.params["board_size"])
    cells = a["board"][i][geometry(size)["cell_of"]]
    stones = [sum(1 << int(c) for c in np.flatnonzero(cells == colour + 1)) for colour in (0, 1)]
    swapped = bool(a["swapped"][i])
    w, last = int(a["winner"][i]), tuple(int(x) for x in a["last"][i])
    return TwirlsState(stones=stones, colour_to_move=int(batch.to_move[i]) ^ swapped, swapped=swapped,
                       plies=int(a["plies"][i]), over=bool(batch.over[i]), winner=None if w < 0 else w,
                       last=None if last[0] < 0 else last)


def from_rules(batch: BatchedGame, i: int, state: TwirlsState) -> None:
    """Put the rules' ``state`` on board ``i``."""
    a = batch.arrays
    size = int(batch.engine.params["board_size"])
    a["board"][i], a["stones"][i], a["count"][i] = pack_stones(*state.stones, size, geometry(size)["cell_of"])
    a["swapped"][i] = state.swapped
    a["plies"][i] = state.plies
    a["winner"][i] = -1 if state.winner is None else state.winner
    a["last"][i] = (-1, -1, -1) if state.last is None else state.last
    batch.to_move[i] = state.colour_to_move ^ state.swapped
    batch.over[i] = state.over


def engine(**params) -> Engine:
    """Twirls' engine under the rules ``params`` (``board_size``, ``max_neighbors``, ``max_plies``; checked by the rules)."""
    rules = TwirlsGame(**params)
    size = rules.size
    g = geometry(size)
    vector = np.array([size, size + 2, size * size, *rules.limits, rules.max_plies], dtype=np.int64)
    vector.setflags(write=False)
    consts = (vector, g["cell_at"], g["cell_of"], g["dir_step"], g["dest_step"], g["dest_len"],
              g["start_board"], g["start_stones"], g["start_count"])
    n = size * size
    return Engine(name="twirls", num_players=2, num_actions=rules.num_actions, obs_size=3 * n + 6,
                  arrays={"board": (((size + 2) ** 2,), np.uint8), "stones": ((2, n), np.uint8),
                          "count": ((2,), np.int8), "swapped": ((), np.bool_), "plies": ((), np.int32),
                          "winner": ((), np.int8), "last": ((3,), np.int16)},
                  reset=reset, legal=legal, step=step, observe=observe, to_rules=to_rules, from_rules=from_rules,
                  rules=rules, params=dict(rules.params), consts=consts)
