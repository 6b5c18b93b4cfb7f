"""The numba search behind :mod:`envs.swival.solver` (imported by it on the first solve only).

Same rules as ``envs/swival/rules.py`` on the same 24-bit boards (bit
``ring*8 + k``; a line is one spoke, bits k, 8+k, 16+k). A position is
(me, op), me to move: me wins if it has a line (the win action), else a full
board is a draw, else me places on an empty cell and may then swivel the
middle ring (only with a counter already down and a middle counter after the
placement); a swivel turns both players' middle counters.

Search: negamax alpha-beta over {-1, 0, 1}. The transposition table holds
lower/upper bounds in 2-entry buckets (depth-preferred + always-replace);
a generation number gives each solve a fresh table without clearing it.
Move generation skips a move that hands the opponent a line, returns a win at
once for a line the opponent cannot break (unless it fills the board: a
draw), and tries line-making moves first.

The search is iterative over an explicit stack held in arrays, so that it can
stop after a budget of nodes and resume where it stopped: the caller checks
its clock and Ctrl-C between calls (numba has neither) and nothing is
allocated per node.

Table entry ``i`` is ``table[i, 0]`` (the key, ``me << 24 | op``) and
``table[i, 1]`` (bits 0-7 generation, 8-15 depth, 16-23 lower bound + 1,
24-31 upper bound + 1); an all-zero entry belongs to no generation.
"""

from __future__ import annotations

import numpy as np

from envs.core.batched import CALLED_ONLY
from envs.core.jit import njit
from envs.swival import rules
from envs.swival.rules import FULL, MIDDLE

MAX_MOVES = 72  # 24 cells x 3 swivels
STACK = 25  # one frame per ply, 24 plies at most below the root

# status array: what survives between calls of run(); the root's window (alpha, beta) is set by new_stack()
ST_SP, ST_NODES, ST_RESULT, ST_PHASE, ST_ALPHA, ST_BETA = range(6)
STATUS_SIZE = 6
PHASE_START, PHASE_RUNNING, PHASE_DONE = 0, 1, 2

# frame arrays, one row per ply: the node's key, (alpha, beta, alpha0, best, next move, number of moves, depth)
F_KEY, F_ALPHA, F_BETA, F_ALPHA0, F_BEST, F_NEXT, F_COUNT, F_DEPTH = range(8)
FRAME_SIZE = 8

_EXPANDED = 2  # enter(): the node's moves are on the stack, its value comes from its children
_HASH_MULT = np.uint64(0x9E3779B97F4A7C15)


def new_stack(alpha: int = -1, beta: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Empty search state for :func:`run`: status, frames, and each ply's moves (the children's keys).

    The root is searched in the window (``alpha``, ``beta``): a result at or below ``alpha`` is an upper
    bound of the value, one at or above ``beta`` a lower bound (-1, 1: the exact value)."""
    status = np.zeros(STATUS_SIZE, dtype=np.int64)
    status[ST_ALPHA], status[ST_BETA] = alpha, beta
    frames = np.zeros((STACK, FRAME_SIZE), dtype=np.int64)
    moves = np.zeros(STACK * MAX_MOVES, dtype=np.int64)
    return status, frames, moves


#: The helpers of :func:`run`: compiled once each and inlined by LLVM (``forceinline``), not by numba
#: (``inline="always"``), which copies and types a helper's IR again at each call site (its helpers' too): more
#: than half of the kernel's first compile. Only :func:`run` calls them: no Python entry points.
helper = njit(forceinline=True, **CALLED_ONLY)
has_line = helper(rules.has_line)  # the rules' own functions, compiled
swivel = helper(rules.swivel)


@helper
def _slot(key, mask):
    """First entry of the key's bucket."""
    k = np.uint64(key)
    k ^= k >> np.uint64(31)
    k *= _HASH_MULT
    k ^= k >> np.uint64(29)
    return np.int64(k & np.uint64(mask))


@helper
def _store(table, mask, gen, key, lo, hi, depth):
    b = _slot(key, mask)
    ukey = np.uint64(key)
    g0 = np.int64(table[b, 1] & np.uint64(0xFF))
    g1 = np.int64(table[b + 1, 1] & np.uint64(0xFF))
    if g0 == gen and table[b, 0] == ukey:
        e = b
    elif g1 == gen and table[b + 1, 0] == ukey:
        e = b + 1
    elif g0 != gen or depth >= np.int64((table[b, 1] >> np.uint64(8)) & np.uint64(0xFF)):
        table[b + 1, 0] = table[b, 0]  # the old first entry moves to the always-replace slot
        table[b + 1, 1] = table[b, 1]
        e = b
    else:
        e = b + 1
    table[e, 0] = ukey
    table[e, 1] = np.uint64(gen | (depth << 8) | ((lo + 1) << 16) | ((hi + 1) << 24))


@helper
def _unbreakable(m2, o2):
    """After my move to (m2, o2), m2 with a line, o2 without, board not full: the opponent cannot break it."""
    empty = ~(m2 | o2) & FULL
    if o2 == 0 or ((o2 & MIDDLE) == 0 and (empty & MIDDLE) == 0):
        return True  # the opponent cannot swivel
    return has_line(swivel(m2, 1)) and has_line(swivel(m2, 2))


@helper
def _gen_moves(me, op, moves, base, rest):
    """Write the moves worth searching from ``moves[base]`` on (line-making first, else cell order), each as
    the child's key (the opponent's board << 24 | mine); return their number, or -1 when a move wins at once."""
    empty = ~(me | op) & FULL
    me_mid = (me & MIDDLE) != 0
    # a swivel turns the whole middle ring whatever the cell: both boards' turned rings once per node
    me1, me2 = swivel(me, 1), swivel(me, 2)
    op1, op2 = swivel(op, 1), swivel(op, 2)
    n = 0
    nrest = 0
    for c in range(24):
        if not (empty >> c) & 1:
            continue
        bit = 1 << c
        nd = 3 if me != 0 and (me_mid or 8 <= c < 16) else 1
        for d in range(nd):
            if d == 0:
                m2, o2 = me | bit, op
            elif d == 1:
                m2, o2 = me1 | swivel(bit, 1), op1
            else:
                m2, o2 = me2 | swivel(bit, 2), op2
            if has_line(o2):
                continue  # the opponent wins at once
            if has_line(m2):
                if (m2 | o2) != FULL and _unbreakable(m2, o2):
                    return -1
                moves[base + n] = (o2 << 24) | m2
                n += 1
            else:
                rest[nrest] = (o2 << 24) | m2
                nrest += 1
    for j in range(nrest):
        moves[base + n + j] = rest[j]
    return n + nrest


@helper
def _evaluate(key, alpha, beta, depth, base, tt, moves, rest):
    """Visit node ``key`` (me << 24 | op, me to move): (value, alpha, beta, 0) when known without children,
    else (_EXPANDED, alpha, beta narrowed by the table, number of moves written from ``moves[base]``).
    ``tt``: the transposition table, its bucket mask and generation."""
    table, mask, gen = tt
    me = key >> 24
    op = key & FULL
    if has_line(me):
        return 1, alpha, beta, 0
    if (me | op) == FULL:
        return 0, alpha, beta, 0
    b = _slot(key, mask)
    ukey = np.uint64(key)
    meta = np.uint64(0)
    if np.int64(table[b, 1] & np.uint64(0xFF)) == gen and table[b, 0] == ukey:
        meta = table[b, 1]
    elif np.int64(table[b + 1, 1] & np.uint64(0xFF)) == gen and table[b + 1, 0] == ukey:
        meta = table[b + 1, 1]
    if meta != 0:
        lo = np.int64((meta >> np.uint64(16)) & np.uint64(0xFF)) - 1
        hi = np.int64((meta >> np.uint64(24)) & np.uint64(0xFF)) - 1
        if lo == hi or lo >= beta:
            return lo, alpha, beta, 0
        if hi <= alpha:
            return hi, alpha, beta, 0
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
    n = _gen_moves(me, op, moves, base, rest)
    if n < 0:
        _store(table, mask, gen, key, 1, 1, depth)
        return 1, alpha, beta, 0
    if n == 0:
        _store(table, mask, gen, key, -1, -1, depth)  # every move hands over a line
        return -1, alpha, beta, 0
    return _EXPANDED, alpha, beta, n


@helper
def _save(frames, sp, node):
    """Frame ``sp`` := ``node``: (key, alpha, beta, alpha0, best, next move, move count, depth)."""
    for k in range(FRAME_SIZE):
        frames[sp, k] = node[k]


@helper
def _load(frames, sp):
    """Frame ``sp`` as the tuple :func:`_save` takes."""
    f = frames[sp]
    return (f[F_KEY], f[F_ALPHA], f[F_BETA], f[F_ALPHA0], f[F_BEST], f[F_NEXT], f[F_COUNT], f[F_DEPTH])


@helper
def _done(status, nodes, value):
    status[ST_NODES] = nodes
    status[ST_RESULT] = value
    status[ST_PHASE] = PHASE_DONE
    return True


@helper
def _store_node(tt, key, best, alpha0, beta, depth):
    """A searched node's value into the table: an upper bound (fail low), a lower bound (cut-off) or exact."""
    table, mask, gen = tt
    if best <= alpha0:
        _store(table, mask, gen, key, -1, best, depth)
    elif best >= beta:
        _store(table, mask, gen, key, best, 1, depth)
    else:
        _store(table, mask, gen, key, best, best, depth)


@njit(cache=True)
def run(me, op, budget, table, gen, status, frames, moves):
    """Search (me, op) for about ``budget`` more nodes; True when done (value in ``status[ST_RESULT]``).

    The first call (``status[ST_PHASE] == PHASE_START``) starts at the root; later calls resume the
    stopped search from the arrays. ``table`` is (2**k, 2) uint64; ``gen`` in 1..255.
    """
    tt = (table, table.shape[0] - 2, gen)  # buckets of 2 entries
    rest = np.empty(MAX_MOVES, dtype=np.int64)
    if status[ST_PHASE] == PHASE_DONE:
        return True
    nodes = status[ST_NODES]
    limit = nodes + budget
    if status[ST_PHASE] == PHASE_START:
        depth = 24
        for c in range(24):
            depth -= ((me | op) >> c) & 1
        key = (me << 24) | op
        nodes += 1
        # int64 arguments at both calls: one compile of _evaluate (a literal 0 or another width compiles another)
        root = (np.int64(key), status[ST_ALPHA], status[ST_BETA], np.int64(depth), np.int64(0))
        v, alpha, beta, count = _evaluate(*root, tt, moves, rest)
        if v != _EXPANDED:
            return _done(status, nodes, v)
        sp, alpha0, best, nxt = 0, alpha, -1, 0
        status[ST_PHASE] = PHASE_RUNNING
    else:
        sp = status[ST_SP]
        key, alpha, beta, alpha0, best, nxt, count, depth = _load(frames, sp)
    while True:
        if alpha < beta and nxt < count:
            if nodes >= limit:
                _save(frames, sp, (key, alpha, beta, alpha0, best, nxt, count, depth))
                status[ST_SP] = sp
                status[ST_NODES] = nodes
                return False
            child = moves[sp * MAX_MOVES + nxt]
            nxt += 1
            nodes += 1
            base = np.int64((sp + 1) * MAX_MOVES)
            v, calpha, cbeta, ccount = _evaluate(
                np.int64(child), np.int64(-beta), np.int64(-alpha), np.int64(depth - 1), base, tt, moves, rest
            )
            if v == _EXPANDED:
                _save(frames, sp, (key, alpha, beta, alpha0, best, nxt, count, depth))
                sp += 1
                key, alpha, beta, alpha0 = child, calpha, cbeta, calpha
                best, nxt, count, depth = -1, 0, ccount, depth - 1
                continue
        else:
            # every move searched, or a cut-off: store the node's bounds and hand its value to the parent
            _store_node(tt, key, best, alpha0, beta, depth)
            v = best
            if sp == 0:
                return _done(status, nodes, v)
            sp -= 1
            key, alpha, beta, alpha0, best, nxt, count, depth = _load(frames, sp)
        if -v > best:
            best = -v
        if best > alpha:
            alpha = best
