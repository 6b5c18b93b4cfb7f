"""Twirls of Action's batched engine: N games as numba kernels (see :mod:`envs.core.batched`).

Per board: ``bits`` (2, 2) uint64, each colour's stones as the rules'
bitboard in two words (cells 0-63, 64-80), for the move generator
(:mod:`envs.twirls.movegen`, the one the rules use too); ``board``
((size+2)**2,) uint8, the same stones on a board with a one-cell border (0
empty, 1 Black, 2 White, 3 off the board), for neighbour counts, the
connection flood fill and the observation; ``stones`` (2, size*size) uint8,
each colour's cells (the first ``count[colour]`` entries: twirls never
capture, stones only move); ``swapped`` (the pie rule taken: seat s plays
colour ``s ^ swapped``), ``plies``, ``winner`` (-1: none) and ``last``
(origin, pivot, destination of the last twirl; -1: none); ``moves``/``nmoves``,
the legal actions of the last ``legal`` call (the random pick draws from them,
not from the mask row).

The variant lives in the consts (``params``: size, padded width, cells, both
seats' ``max_neighbors``, ``max_plies``; the generator's ray tables and the
padded board's; the start position), so one compiled kernel serves 9x9, 8x8
and every handicap. Actions, observations and rewards are exactly those of
``envs/twirls/env.py``; ``tests/conformance/test_every_variant.py`` and
``tests/games/twirls/test_twirls_batched.py`` play both side by side to keep it so.
"""

from __future__ import annotations

from collections import namedtuple
from functools import cache

import numpy as np

from envs.core.batched import (
    BatchedGame,
    Engine,
    board_state,
    called,
    called_per_board,
    each_legal,
    each_reset,
    each_step,
    random_others_loop,
    variant_consts,
    won_by,
)
from envs.core.jit import njit
from envs.twirls.board import VECTORS, tables
from envs.twirls.movegen import RayTables, Sight, first_stone, has_twirl, ray_tables, twirl_mask, write_twirls
from envs.twirls.rules import TwirlsGame, TwirlsState

EMPTY, BORDER = 0, 3
# params: the variant's rule parameters and sizes, one int64 vector
SIZE, WIDTH, CELLS, LIMIT0, LIMIT1, MAX_PLIES = range(6)
# the rest of the variant's tables (see geometry)
BOARD_TABLES = ("cell_of", "delta", "dir_step", "start_bits", "start_board", "start_stones", "start_count")

ARRAYS = ("bits", "board", "stones", "count", "swapped", "plies", "winner", "last", "moves", "nmoves")
Boards = board_state(__name__, ARRAYS)
Consts = variant_consts(__name__, ("params", *RayTables._fields, *BOARD_TABLES))
#: The connection test's scratch: ``seen`` a padded board (all False, left so), ``stack`` the flood fill's cells.
Flood = namedtuple("Flood", ("seen", "stack"), module=__name__)


@called
def _has_won(board, stones, count, colour, limit, cell_of, dir_step, flood):
    """``colour``'s stones are one 8-connected group and none has more than ``limit`` friendly neighbours."""
    seen, stack = flood.seen, flood.stack
    me = colour + 1
    n = count[colour]
    if n == 0:
        return False
    for s in range(n):
        p = cell_of[stones[colour, s]]
        friends = 0
        for d in range(8):
            friends += board[p + dir_step[d]] == me
        if friends > limit:
            return False
    # flood fill from the first stone
    stack[0] = cell_of[stones[colour, 0]]
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
        seen[cell_of[stones[colour, s]]] = False
    return reached == n


# -- kernels: reset, legal, step and observe map per-board functions over the batch (envs.core.batched) --------
@called_per_board
def _reset_one(i, s, c, scratch):
    """Board ``i`` back to the variant's start position."""
    bits, board, stones, count = s.bits, s.board, s.stones, s.count
    start_bits, start_board, start_stones, start_count = c.start_bits, c.start_board, c.start_stones, c.start_count
    for colour in range(2):
        bits[i, colour, 0] = start_bits[colour, 0]
        bits[i, colour, 1] = start_bits[colour, 1]
        count[i, colour] = start_count[colour]
        for k in range(stones.shape[2]):
            stones[i, colour, k] = start_stones[colour, k]
    for p in range(board.shape[1]):
        board[i, p] = start_board[p]
    s.swapped[i] = False
    s.plies[i] = 0
    s.winner[i] = -1
    s.last[i] = -1
    s.to_move[i] = 0
    s.over[i] = False


@called_per_board
def _legal_one(i, out, s, c, scratch):
    """``out[i]``: board ``i``'s legal twirls and swap, also listed in ``moves[i, :nmoves[i]]`` for the random pick."""
    (sight,) = scratch
    moves, swapped = s.moves, s.swapped
    row = out[i]
    row[:] = False
    s.nmoves[i] = 0
    if s.over[i]:
        return
    geo = RayTables(c.rays, c.edge_run, c.ascending, c.file_of, c.rank_of, c.dest_dir, c.dest_len)
    colour = s.to_move[i] ^ swapped[i]
    m = write_twirls(s.bits[i], s.stones[i], s.count[i], np.int64(colour), geo, sight, row, moves[i])
    if s.plies[i] == 1 and not swapped[i]:
        swap = out.shape[1] - 1
        row[swap] = True
        moves[i, m] = swap
        m += 1
    s.nmoves[i] = m


@called_per_board
def _twirl(i, colour, action, s, c):
    """``colour``'s twirl ``action`` on board ``i``: the stone on the origin turns around the pivot, the first
    stone along the action's direction, to the destination; recorded as the last twirl."""
    bits, file_of, rank_of, cell_of, stones, last = s.bits, c.file_of, c.rank_of, c.cell_of, s.stones, s.last
    origin, t = action >> 5, action & 31
    pivot = first_stone(
        bits[i, 0, 0] | bits[i, 1, 0], bits[i, 0, 1] | bits[i, 1, 1], c.rays[origin * 8 + (t >> 2)], c.ascending[t >> 2]
    )
    j = max(abs(file_of[pivot] - file_of[origin]), abs(rank_of[pivot] - rank_of[origin]))
    dest = origin + j * c.dest_len[t] * c.delta[c.dest_dir[t]]
    bits[i, colour, origin >> 6] ^= np.uint64(1) << np.uint64(origin & 63)
    bits[i, colour, dest >> 6] ^= np.uint64(1) << np.uint64(dest & 63)
    s.board[i, cell_of[origin]] = EMPTY
    s.board[i, cell_of[dest]] = colour + 1
    for si in range(s.count[i, colour]):
        if stones[i, colour, si] == origin:
            stones[i, colour, si] = dest
            break
    last[i, 0] = origin
    last[i, 1] = pivot
    last[i, 2] = dest


@called_per_board
def _end(i, seat, rewards, s, c, scratch):
    """The rules' end checks after ``seat``'s move, in the order the rules check them: the mover has won; the ply
    limit (a draw); the next player has no action (the mover wins)."""
    flood, sight = scratch
    params, swapped, plies = c.params, s.swapped, s.plies
    colour = seat ^ swapped[i]
    if _has_won(s.board[i], s.stones[i], s.count[i], colour, params[LIMIT0 + seat], c.cell_of, c.dir_step, flood):
        won_by(i, seat, s.over, s.winner, rewards)
    elif plies[i] >= params[MAX_PLIES]:
        s.over[i] = True
    elif not (plies[i] == 1 and not swapped[i]):
        geo = RayTables(c.rays, c.edge_run, c.ascending, c.file_of, c.rank_of, c.dest_dir, c.dest_len)
        if not has_twirl(s.bits[i], s.stones[i], s.count[i], 1 - colour, geo, sight):
            won_by(i, seat, s.over, s.winner, rewards)


@called_per_board
def _step_one(i, action, rewards, s, c, scratch):
    """Play ``action`` (a twirl or the swap) on board ``i``; then the rules' end checks."""
    seat = s.to_move[i]
    s.plies[i] += 1
    if action == c.params[CELLS] * 32:  # the swap
        s.swapped[i] = not s.swapped[i]  # the colour to move stays White, now played by seat 0
        s.last[i] = -1
    else:
        _twirl(i, seat ^ s.swapped[i], action, s, c)
    s.to_move[i] = 1 - seat
    _end(i, seat, rewards, s, c, scratch)


@njit(cache=True, inline="always")
def _sight():
    return Sight(np.empty(8, dtype=np.bool_), np.empty(8, dtype=np.int64))


@njit(cache=True)
def reset(where, s, c):
    each_reset(_reset_one, where, s, c, ())


@njit(cache=True)
def legal(out, s, c):
    """``out[i]``: board ``i``'s legal twirls and swap, also listed in ``moves[i, :nmoves[i]]`` for the random pick."""
    each_legal(_legal_one, out, s, c, (_sight(),))


@njit(cache=True)
def step(actions, rewards, s, c):
    flood = Flood(np.zeros(s.board.shape[1], dtype=np.bool_), np.empty(s.stones.shape[2], dtype=np.int64))
    each_step(_step_one, actions, rewards, s, c, (flood, _sight()))


@njit(cache=True)
def observe(seats, out, s, c):  # one loop: written per board (each_observe) it measured 6-7% slower
    params, board, swapped, plies, cell_of, over = c.params, s.board, s.swapped, s.plies, c.cell_of, s.over
    to_move = s.to_move
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


# -- geometry and conversions ------------------------------------------------------------------
_WORD = (1 << 64) - 1


@cache
def geometry(size: int) -> dict[str, np.ndarray]:
    """Read-only tables of one board size beside the generator's :func:`ray_tables` (:data:`BOARD_TABLES`):
    ``cell_of[c]`` the cell on the padded board, ``delta[u]``/``dir_step[u]`` the cell step of direction u on the
    board / the padded board, then the start position (:func:`pack_stones`)."""
    width = size + 2
    cell_of = np.array([(c // size + 1) * width + c % size + 1 for c in range(size * size)], dtype=np.int16)
    delta = np.array(tables(size).delta, dtype=np.int16)
    dir_step = np.array([df + dr * width for df, dr in VECTORS], dtype=np.int16)
    start = pack_stones(*TwirlsGame(board_size=size).setup, size, cell_of)
    out = dict(zip(BOARD_TABLES, (cell_of, delta, dir_step, *start)))
    for array in out.values():
        array.setflags(write=False)
    return out


def pack_stones(black: int, white: int, size: int, cell_of: np.ndarray) -> tuple[np.ndarray, ...]:
    """(bits, padded board, stone lists, counts) of two bitboards."""
    width = size + 2
    bits = np.array([[b & _WORD, b >> 64] for b in (black, white)], dtype=np.uint64)
    board = np.full(width * width, BORDER, dtype=np.uint8)
    board[cell_of] = EMPTY
    stones = np.zeros((2, size * size), dtype=np.uint8)
    count = np.zeros(2, dtype=np.int8)
    for colour, stones_of in enumerate((black, white)):
        for cell in range(size * size):
            if stones_of >> cell & 1:
                board[cell_of[cell]] = colour + 1
                stones[colour, count[colour]] = cell
                count[colour] += 1
    return bits, board, stones, count


@njit(cache=True)
def random_others(seats, alive, received, scratch, s, c):
    """The core's random-opponent loop over this game's kernels (``Engine.random_others``)."""
    random_others_loop(legal, step, seats, alive, received, scratch, s, c)


def to_rules(batch: BatchedGame, i: int) -> TwirlsState:
    """Board ``i`` as the rules' :class:`TwirlsState`."""
    a = batch.arrays
    stones = [int(lo) | int(hi) << 64 for lo, hi in a["bits"][i]]
    swapped = bool(a["swapped"][i])
    w, last = int(a["winner"][i]), tuple(int(x) for x in a["last"][i])
    return TwirlsState(
        stones=stones,
        colour_to_move=int(batch.to_move[i]) ^ swapped,
        swapped=swapped,
        plies=int(a["plies"][i]),
        over=bool(batch.over[i]),
        winner=None if w < 0 else w,
        last=None if last[0] < 0 else last,
    )


def stones_per_colour(size: int) -> int:
    """How many stones each colour has (twirls never capture: the start position's count, the same for both)."""
    return int(geometry(size)["start_count"].max())


def from_rules(batch: BatchedGame, i: int, state: TwirlsState) -> None:
    """Put the rules' ``state`` on board ``i`` (a ``ValueError`` if a colour has more stones than the set-up's)."""
    a = batch.arrays
    size = int(batch.engine.params["board_size"])
    most = stones_per_colour(size)
    if any(int(s).bit_count() > most for s in state.stones):
        raise ValueError(
            f"twirls: the state does not fit board {i}: more than {most} stones of a colour "
            f"(the {size}x{size} set-up's count; twirls never add stones)"
        )
    a["bits"][i], a["board"][i], a["stones"][i], a["count"][i] = pack_stones(
        *state.stones, size, geometry(size)["cell_of"]
    )
    a["swapped"][i] = state.swapped
    a["plies"][i] = state.plies
    a["winner"][i] = -1 if state.winner is None else state.winner
    a["last"][i] = (-1, -1, -1) if state.last is None else state.last
    batch.set_turn(i, state.colour_to_move ^ state.swapped, state.over)


def engine(**params) -> Engine:
    """Twirls' engine under the rules ``params`` (``board_size``, ``max_neighbors``, ``max_plies``).

    The rules check the values; one compiled kernel serves every variant through the engine's consts.
    """
    game = TwirlsGame(**params)
    size = game.size
    n = size * size
    g = geometry(size)
    vector = np.array([size, size + 2, n, *game.limits, game.max_plies], dtype=np.int64)
    vector.setflags(write=False)
    consts = (vector, *ray_tables(size), *(g[k] for k in BOARD_TABLES))
    return Engine(
        name="twirls",
        num_players=2,
        num_actions=game.num_actions,
        obs_size=3 * n + 6,
        arrays={
            "bits": ((2, 2), np.uint64),
            "board": (((size + 2) ** 2,), np.uint8),
            "stones": ((2, n), np.uint8),
            "count": ((2,), np.int8),
            "swapped": ((), np.bool_),
            "plies": ((), np.int32),
            "winner": ((), np.int8),
            "last": ((3,), np.int16),
            "moves": ((32 * stones_per_colour(size) + 1,), np.int16),
            "nmoves": ((), np.int16),
        },
        reset=reset,
        legal=legal,
        step=step,
        random_others=random_others,
        observe=observe,
        to_rules=to_rules,
        from_rules=from_rules,
        state=Boards,
        game=game,
        params=dict(game.params),
        consts=Consts(*consts),
        legal_list=("moves", "nmoves"),
    )


__all__ = [
    "engine",
    "from_rules",
    "geometry",
    "legal",
    "observe",
    "pack_stones",
    "random_others",
    "reset",
    "step",
    "stones_per_colour",
    "to_rules",
    "twirl_mask",
]
