"""Twirls of Action's batched engine: N games as numba kernels (see :mod:`envs.core.batched`).

Per board: ``bits`` (2, 2) uint64, each colour's stones as the rules'
bitboard in two words (cells 0-63, 64-80), for the move generator (the first
stone along a ray is one bit scan); ``board`` ((size+2)**2,) uint8, the same
stones on a board with a one-cell border (0 empty, 1 Black, 2 White, 3 off
the board), for neighbour counts, the connection flood fill and the
observation; ``stones`` (2, size*size) uint8, each colour's cells (the first
``count[colour]`` entries: twirls never capture, stones only move);
``swapped`` (the pie rule taken: seat s plays colour ``s ^ swapped``),
``plies``, ``winner`` (-1: none) and ``last`` (origin, pivot, destination of
the last twirl; -1: none); ``moves``/``nmoves``, the legal actions of the
last ``legal`` call (the random pick draws from them, not from the mask row).

The variant lives in the consts (``params``: size, padded width, cells, both
seats' ``max_neighbors``, ``max_plies``; the geometry tables; the start
position), so one compiled kernel serves 9x9, 8x8 and every handicap.
Actions, observations and rewards are exactly those of ``envs/twirls/env.py``;
``tests/test_batched.py`` and ``tests/test_twirls_batched.py`` play both side
by side to keep it so.

:func:`twirl_mask` is the legal-twirl generator for one position given as
the rules' bitboards (the signature of :data:`envs.twirls.rules.twirl_mask`),
on the same compiled code as the batch.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from envs.core.batched import BatchedGame, Engine, board_state, random_others_loop, won_by
from envs.core.jit import njit
from envs.twirls.rules import SETUPS, VECTORS, TwirlsGame, TwirlsState, parse_setup, tables

EMPTY, BORDER = 0, 3
# params: the variant's rule parameters and sizes, one int64 vector
SIZE, WIDTH, CELLS, LIMIT0, LIMIT1, MAX_PLIES = range(6)
GEOMETRY = (
    "rays",
    "edge_run",
    "ascending",
    "file_of",
    "rank_of",
    "cell_of",
    "delta",
    "dir_step",
    "dest_dir",
    "dest_len",
)


ARRAYS = ("bits", "board", "stones", "count", "swapped", "plies", "winner", "last", "moves", "nmoves")
Boards = board_state(
    __name__, ARRAYS, ("params", *GEOMETRY, "start_bits", "start_board", "start_stones", "start_count")
)


# -- move generation on bitboards -------------------------------------------------------------
@njit(cache=True, inline="always")
def _first_stone(occ_lo, occ_hi, ray, ascending):
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
def _rays(bits, colour, c, rays, edge_run, ascending, file_of, rank_of, enemy, run):
    """Per direction u from cell ``c``: ``enemy[u]`` the first stone is the other colour's (the pivot),
    ``run[u]`` the number of empty cells before that stone or the edge. A twirl's pivot is at distance
    ``run[d] + 1``; its path to the destination, ``length`` cells along u, is clear iff ``run[u] >= length``."""
    occ_lo = bits[0, 0] | bits[1, 0]
    occ_hi = bits[0, 1] | bits[1, 1]
    them = 1 - colour
    for u in range(8):
        k = c * 8 + u
        q = _first_stone(occ_lo, occ_hi, rays[k], ascending[u])
        if q < 0:
            enemy[u] = False
            run[u] = edge_run[k]
        else:
            enemy[u] = ((bits[them, q >> 6] >> np.uint64(q & 63)) & np.uint64(1)) != 0
            run[u] = max(abs(file_of[q] - file_of[c]), abs(rank_of[q] - rank_of[c])) - 1


@njit(cache=True)
def _write_twirls(
    bits,
    stones,
    count,
    colour,
    rays,
    edge_run,
    ascending,
    file_of,
    rank_of,
    dest_dir,
    dest_len,
    out,
    row,
    enemy,
    run,
    moves,
):
    """Set ``out[row, origin*32 + t]`` for every legal twirl of ``colour`` (the row must be all False) and list
    them in ``moves`` (room for 32 per stone); returns how many (``enemy``, ``run``: scratch, 8 entries each)."""
    found = 0
    for s in range(count[colour]):
        c = np.int64(stones[colour, s])
        _rays(bits, colour, c, rays, edge_run, ascending, file_of, rank_of, enemy, run)
        for d in range(8):
            if not enemy[d]:  # no pivot this way: the 4 twirls around it stay False
                continue
            j = run[d] + 1
            for t in range(4 * d, 4 * d + 4):  # branch-free: the entry written, the list written and kept if legal
                ok = run[dest_dir[t]] >= j * dest_len[t]
                out[row, c * 32 + t] = ok
                moves[found] = c * 32 + t
                found += ok
    return found


@njit(cache=True)
def _has_twirl(
    bits, stones, count, colour, rays, edge_run, ascending, file_of, rank_of, dest_dir, dest_len, enemy, run
):
    """``colour`` has at least one legal twirl (``enemy``, ``run``: scratch)."""
    for s in range(count[colour]):
        _rays(bits, colour, np.int64(stones[colour, s]), rays, edge_run, ascending, file_of, rank_of, enemy, run)
        for d in range(8):
            if not enemy[d]:
                continue
            j = run[d] + 1
            for t in range(4 * d, 4 * d + 4):
                if run[dest_dir[t]] >= j * dest_len[t]:
                    return True
    return False


@njit(cache=True)
def _has_won(board, stones, count, colour, limit, cell_of, dir_step, seen, stack):
    """``colour``'s stones are one 8-connected group and none has more than ``limit`` friendly neighbours.

    ``seen`` (a scratch padded board, all False, left so) and ``stack`` are scratch space.
    """
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


# -- the kernels ---------------------------------------------------------------------------
@njit(cache=True)
def reset(where, s):
    start_bits, start_board, start_stones = s.start_bits, s.start_board, s.start_stones
    start_count, bits, board, stones, count = s.start_count, s.bits, s.board, s.stones, s.count
    swapped, plies, winner, last, to_move, over = s.swapped, s.plies, s.winner, s.last, s.to_move, s.over
    for i in range(where.shape[0]):
        if where[i]:
            bits[i] = start_bits
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
def legal(out, s):
    """``out[i]``: board ``i``'s legal twirls and swap, also listed in ``moves[i, :nmoves[i]]`` for the random pick."""
    nmoves, over, rays, edge_run, ascending = s.nmoves, s.over, s.rays, s.edge_run, s.ascending
    file_of, rank_of, dest_dir, dest_len, to_move = s.file_of, s.rank_of, s.dest_dir, s.dest_len, s.to_move
    swapped, bits, stones, count, moves, plies = s.swapped, s.bits, s.stones, s.count, s.moves, s.plies
    swap = out.shape[1] - 1
    enemy = np.empty(8, dtype=np.bool_)
    run = np.empty(8, dtype=np.int64)
    for i in range(out.shape[0]):
        out[i] = False
        nmoves[i] = 0
        if over[i]:
            continue
        colour = to_move[i] ^ swapped[i]
        m = _write_twirls(
            bits[i],
            stones[i],
            count[i],
            colour,
            rays,
            edge_run,
            ascending,
            file_of,
            rank_of,
            dest_dir,
            dest_len,
            out,
            i,
            enemy,
            run,
            moves[i],
        )
        if plies[i] == 1 and not swapped[i]:
            out[i, swap] = True
            moves[i, m] = swap
            m += 1
        nmoves[i] = m


@njit(cache=True)
def step(actions, rewards, s):
    params, to_move, plies, cell_of, dir_step = s.params, s.to_move, s.plies, s.cell_of, s.dir_step
    board, stones, swapped, last, bits, count = s.board, s.stones, s.swapped, s.last, s.bits, s.count
    winner, over, rays, ascending, delta, file_of = s.winner, s.over, s.rays, s.ascending, s.delta, s.file_of
    rank_of, dest_len, dest_dir, edge_run = s.rank_of, s.dest_len, s.dest_dir, s.edge_run
    swap = params[CELLS] * 32
    seen = np.zeros(board.shape[1], dtype=np.bool_)
    stack = np.empty(stones.shape[2], dtype=np.int64)
    enemy = np.empty(8, dtype=np.bool_)
    run = np.empty(8, dtype=np.int64)
    for i in range(actions.shape[0]):
        action = actions[i]
        if action < 0:
            continue
        seat = to_move[i]
        plies[i] += 1
        if action == swap:
            swapped[i] = not swapped[i]  # the colour to move stays White, now played by seat 0
            last[i] = -1
        else:
            colour = seat ^ swapped[i]
            origin, t = action >> 5, action & 31
            d = t >> 2
            pivot = _first_stone(
                bits[i, 0, 0] | bits[i, 1, 0],
                bits[i, 0, 1] | bits[i, 1, 1],
                rays[origin * 8 + d],
                ascending[d],
            )
            j = max(abs(file_of[pivot] - file_of[origin]), abs(rank_of[pivot] - rank_of[origin]))
            dest = origin + j * dest_len[t] * delta[dest_dir[t]]
            bits[i, colour, origin >> 6] ^= np.uint64(1) << np.uint64(origin & 63)
            bits[i, colour, dest >> 6] ^= np.uint64(1) << np.uint64(dest & 63)
            board[i, cell_of[origin]] = EMPTY
            board[i, cell_of[dest]] = colour + 1
            for si in range(count[i, colour]):
                if stones[i, colour, si] == origin:
                    stones[i, colour, si] = dest
                    break
            last[i, 0] = origin
            last[i, 1] = pivot
            last[i, 2] = dest
        to_move[i] = 1 - seat
        # the end, in the RULINGS order: the mover has won; the ply limit; the next player has no action
        if _has_won(
            board[i],
            stones[i],
            count[i],
            seat ^ swapped[i],
            params[LIMIT0 + seat],
            cell_of,
            dir_step,
            seen,
            stack,
        ):
            won_by(i, seat, over, winner, rewards)
        elif plies[i] >= params[MAX_PLIES]:
            over[i] = True
        elif not (plies[i] == 1 and not swapped[i]) and not _has_twirl(
            bits[i],
            stones[i],
            count[i],
            (1 - seat) ^ swapped[i],
            rays,
            edge_run,
            ascending,
            file_of,
            rank_of,
            dest_dir,
            dest_len,
            enemy,
            run,
        ):
            won_by(i, seat, over, winner, rewards)


@njit(cache=True)
def observe(seats, out, s):
    params, board, swapped, plies, cell_of, over = s.params, s.board, s.swapped, s.plies, s.cell_of, s.over
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


# -- one position from the rules (bitboards) -----------------------------------------------
@njit(cache=True)
def _mask_of_bitboards(
    mine_a, mine_b, theirs_a, theirs_b, rays, edge_run, ascending, file_of, rank_of, dest_dir, dest_len, out
):
    """Legal twirls of the side owning ``mine`` into ``out`` (1-D); returns how many. A bitboard comes as
    ``(bits & (2**48 - 1), bits >> 48)``: two ints that numba takes as int64 without a conversion."""
    n = file_of.shape[0]
    bits = np.empty((2, 2), dtype=np.uint64)
    for colour, a, b in ((0, mine_a, mine_b), (1, theirs_a, theirs_b)):
        bits[colour, 0] = np.uint64(a) | (np.uint64(b) << np.uint64(48))
        bits[colour, 1] = np.uint64(b) >> np.uint64(16)
    stones = np.empty((1, n), dtype=np.uint8)
    count = np.zeros(1, dtype=np.int64)
    for word in range(2):
        w = bits[0, word]
        while w:
            stones[0, count[0]] = word * 64 + trailing_zeros(w)
            count[0] += 1
            w &= w - np.uint64(1)
    out[: n * 32] = False
    return _write_twirls(
        bits,
        stones,
        count,
        0,
        rays,
        edge_run,
        ascending,
        file_of,
        rank_of,
        dest_dir,
        dest_len,
        out.reshape(1, -1),
        0,
        np.empty(8, dtype=np.bool_),
        np.empty(8, dtype=np.int64),
        np.empty(n * 32, dtype=np.int16),
    )


_WORD = (1 << 64) - 1
_LOW48 = (1 << 48) - 1


def twirl_mask(mine: int, theirs: int, size: int, out: np.ndarray) -> int:
    """The rules' ``twirl_mask`` on the compiled generator: legal twirls of ``mine`` into ``out[:size*size*32]``.

    ``mine``/``theirs`` are the rules' bitboards; ``out`` a bool array of
    ``size*size*32`` (or one more: the swap entry is left alone) entries.
    Returns the number of legal twirls.
    """
    if size not in (8, 9) or isinstance(size, bool):
        raise ValueError(f"twirl_mask: size must be 8 or 9, got {size!r}")
    cells = size * size
    if not (0 <= mine < 1 << cells and 0 <= theirs < 1 << cells) or mine & theirs:
        raise ValueError(f"twirl_mask: mine and theirs must be disjoint bitboards of the {size}x{size} board")
    if not isinstance(out, np.ndarray) or out.dtype != np.bool_ or out.shape not in ((cells * 32,), (cells * 32 + 1,)):
        raise ValueError(f"twirl_mask: out must be a bool array of {cells * 32} (or {cells * 32 + 1}) entries")
    return _mask_of_bitboards(mine & _LOW48, mine >> 48, theirs & _LOW48, theirs >> 48, *geometry(size)["movegen"], out)


# -- geometry and conversions ------------------------------------------------------------------
@cache
def geometry(size: int) -> dict[str, np.ndarray]:
    """Read-only tables of one board size (the order of :data:`GEOMETRY`, then the start position).

    ``rays[c*8 + u]``: the cells from ``c`` to the edge along u (two words); ``edge_run[c*8 + u]``: their
    number; ``delta[u]``/``dir_step[u]``: the cell step of u on the board / the padded board; twirl ``t``
    goes ``dest_len[t]`` steps along ``dest_dir[t]`` per unit of pivot distance.
    """
    n, width, t = size * size, size + 2, tables(size)
    rays = np.array([[r & _WORD, r >> 64] for r in t.rays], dtype=np.uint64)
    edge_run = np.array([r.bit_count() for r in t.rays], dtype=np.int16)
    ascending = np.array(t.ascending, dtype=np.bool_)
    file_of = np.array(t.file_of, dtype=np.int16)
    rank_of = np.array(t.rank_of, dtype=np.int16)
    cell_of = np.array([(c // size + 1) * width + c % size + 1 for c in range(n)], dtype=np.int16)
    delta = np.array(t.delta, dtype=np.int16)
    dir_step = np.array([df + dr * width for df, dr in VECTORS], dtype=np.int16)
    dest_dir = np.zeros(32, dtype=np.int16)
    dest_len = np.zeros(32, dtype=np.int16)
    for d in range(8):
        for k, u, steps in t.turn_to[d][1]:  # pivot distance 1: direction u origin -> destination, its length
            dest_dir[k] = u
            dest_len[k] = steps
    out = dict(
        zip(GEOMETRY, (rays, edge_run, ascending, file_of, rank_of, cell_of, delta, dir_step, dest_dir, dest_len))
    )
    out.update(
        zip(
            ("start_bits", "start_board", "start_stones", "start_count"),
            pack_stones(*parse_setup(SETUPS[size], size), size, cell_of),
        )
    )
    for array in out.values():
        array.setflags(write=False)
    out["movegen"] = tuple(
        out[k] for k in ("rays", "edge_run", "ascending", "file_of", "rank_of", "dest_dir", "dest_len")
    )
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
def random_others(seats, alive, received, scratch, state):
    """The core's random-opponent loop over this game's kernels (``Engine.random_others``)."""
    random_others_loop(legal, step, seats, alive, received, scratch, state)


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
    rules = TwirlsGame(**params)
    size = rules.size
    n = size * size
    g = geometry(size)
    vector = np.array([size, size + 2, n, *rules.limits, rules.max_plies], dtype=np.int64)
    vector.setflags(write=False)
    consts = (vector, *(g[k] for k in GEOMETRY), g["start_bits"], g["start_board"], g["start_stones"], g["start_count"])
    return Engine(
        name="twirls",
        num_players=2,
        num_actions=rules.num_actions,
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
        game=rules,
        params=dict(rules.params),
        consts=consts,
        legal_list=("moves", "nmoves"),
    )
