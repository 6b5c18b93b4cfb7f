"""The batched engine Swish and Squeeze share: N boards as numba kernels (see :mod:`envs.core.batched`).

One set of kernels serves both games and every variant: the capture rule
(``LEAP``: Swish, :mod:`envs.swish.batched`; ``CUSTODY``: Squeeze,
:mod:`envs.squeeze.batched`) and the rule parameters are in the consts, and
each game's rule is written once, below (:func:`_rook_moves`, :func:`_captures`).

Per board (``n`` cells, ``span = 2*radius``), the fields of :data:`Boards`:

    board (n,) int8        EMPTY, WHITE_ROOK, BLACK_ROOK or BEAD per cell (the rules' codes)
    rooks (2, 3) int16     cells of each colour's rooks, in the rules' list order
    nrooks (2,) int8       how many of each colour are on the board
    phase int8, colour (2,) int8 (-1: not chosen), stores (2,) int8, plies int32,
    first_mover int8, winner int8 (-1: none)
    path (span+1,) int16, npath int8    the last move's cells, origin to landing
    capt (24,) int16, ncapt int8        the cells the last move took
    moves (L,) int16, nmoves int16      the legal actions of the last ``legal`` call (the random pick's list)

Consts: ``params`` (int64: see ``P_*``), ``rays`` (n, 6, span) int16 (the
cells met from a cell in a direction, nearest first, -1 past the edge),
``raylen`` (n, 6), ``edge`` (n,) int8, the edge and inner cells, and the
fixed set-up's 3 + 3 + 19 cells. Actions, observations, rewards and ends are
exactly those of ``envs/hexrook/env.py``; ``tests/conformance/test_every_variant.py`` plays both
side by side to keep it so.

The medium bot is here too, written once (:func:`medium_kernel`): the engine's
``bots["medium"]`` plays it on many boards, and :class:`envs.hexrook.bots.MediumBot`
on one position (:func:`medium_scored`); ``tests/games/hexrook/test_hexrook_medium_batched.py``
checks it against a reference read from the rules.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from envs.core.batched import (
    BatchedGame,
    Engine,
    board_state,
    called,
    called_per_board,
    each_legal,
    each_observe,
    each_reset,
    each_step,
    insert_sorted,
    randint,
    random_others_loop,
    variant_consts,
    won_by,
)
from envs.core.jit import copy_into, njit, per_board
from envs.hexrook.board import (
    BEAD,
    CAPTURE_RULES,
    EMPTY,
    NUM_BEADS,
    PHASE_CHOICE,
    PHASE_COLOUR,
    PHASE_PLAY,
    PHASE_SETUP,
    ROOK_VALUE,
    ROOKS_PER_COLOUR,
    SETUPS,
    THREAT_CAP,
    THREAT_WEIGHT,
    WIN,
    HexRookGame,
    HexState,
)
from envs.hexrook.env import HexRookEnv

LEAP, CUSTODY = (CAPTURE_RULES.index(r) for r in ("leap", "custody"))  # Swish's leap, Squeeze's custody
MAX_CAPTURES = 24  # a move takes at most 19 beads and 3 rooks
SETUP_RANDOM, SETUP_FIXED, SETUP_MARQUISIAN = (SETUPS.index(s) for s in ("random", "fixed", "marquisian"))
# params[...]: the variant's rule parameters and sizes
P_CAPTURE, P_CELLS, P_SPAN, P_SETUP, P_MAX_PLIES, P_BEADS_TO_WIN, P_PLACE_BASE, P_CHOICE_BASE = range(8)

#: How a rook moves and captures on this variant, what every move helper reads: the capture rule (``LEAP`` or
#: ``CUSTODY``), ``span`` (actions per cell and direction) and the ray tables (see the consts above). Bound at
#: module level so that numba's cache finds the same type in every process.
MoveRule = namedtuple("MoveRule", ("capture", "span", "rays", "raylen"), module=__name__)


# -- each game's move and capture rule ---------------------------------------------------
@njit(cache=True, inline="always")
def _rook_moves(rule, b, cell, enemy, row, moves, first, write):
    """How many moves the rook on ``cell`` has; with ``write``, sets them True in ``row`` (a mask row) and
    lists them in ``moves`` from index ``first``.

    Both games slide over empty cells; Swish may then leap one unbroken row of
    beads or of enemy rooks and land on any empty cell right after it.
    """
    rays, raylen, span = rule.rays, rule.raylen, rule.span
    count = 0
    for d in range(6):
        n = raylen[cell, d]
        base = (cell * 6 + d) * span
        k = 0
        kind = EMPTY
        while k < n:
            kind = b[rays[cell, d, k]]
            if kind != EMPTY:
                break
            if write:
                row[base + k] = True
                moves[first + count] = base + k
            count += 1
            k += 1
        if rule.capture != LEAP or k == n or (kind != BEAD and kind != enemy):
            continue
        k += 1
        while k < n and b[rays[cell, d, k]] == kind:
            k += 1
        while k < n and b[rays[cell, d, k]] == EMPTY:
            if write:
                row[base + k] = True
                moves[first + count] = base + k
            count += 1
            k += 1
    return count


ARRAYS = (
    "board",
    "rooks",
    "nrooks",
    "phase",
    "colour",
    "stores",
    "plies",
    "first_mover",
    "winner",
    "path",
    "npath",
    "capt",
    "ncapt",
    "moves",
    "nmoves",
)
Boards = board_state(__name__, ARRAYS)
Consts = variant_consts(__name__, ("params", "rays", "raylen", "edge", "edge_cells", "inner_cells", "fixed"))


@njit(cache=True, inline="always")
def _captures(rule, b, cell, d, dist, own, capt):
    """Write into ``capt`` the cells the (legal) move of ``own``'s rook takes, in the rules' order; returns how
    many.

    Swish: the leapt row (the non-empty cells passed). Squeeze: from the
    landing cell, each direction's unbroken row of beads or of enemy rooks
    closed by an own rook (``b`` is the position before the move).
    """
    rays, raylen = rule.rays, rule.raylen
    enemy = 3 - own  # the rooks' codes: 1 and 2
    count = 0
    if rule.capture == LEAP:
        for k in range(dist - 1):
            c = rays[cell, d, k]
            if b[c] != EMPTY:
                capt[count] = c
                count += 1
        return count
    land = rays[cell, d, dist - 1]
    for e in range(6):
        n = raylen[land, e]
        if n == 0:
            continue
        kind = b[rays[land, e, 0]]
        if kind != BEAD and kind != enemy:
            continue
        j = 1
        while j < n and b[rays[land, e, j]] == kind:
            j += 1
        if j < n and b[rays[land, e, j]] == own:
            for k in range(j):
                capt[count] = rays[land, e, k]
                count += 1
    return count


# -- what both games share -------------------------------------------------------------------
@called
def _has_move(rule, b, rooks, nrooks, colour, row):
    """True when a rook of ``colour`` can move (an empty neighbour is enough in both games); ``row``: scratch."""
    rays, raylen = rule.rays, rule.raylen
    enemy = 2 - colour
    for k in range(nrooks[colour]):
        cell = rooks[colour, k]
        for d in range(6):
            if raylen[cell, d] > 0 and b[rays[cell, d, 0]] == EMPTY:
                return True
        if rule.capture == LEAP and _rook_moves(rule, b, cell, enemy, row, row, 0, False) > 0:
            return True
    return False


@njit(cache=True, inline="always")
def _place(i, b, rooks, nrooks, cells, first, count, code):
    for k in range(first, first + count):
        c = cells[k]
        b[c] = code
        if code != BEAD:
            rooks[i, code - 1, nrooks[i, code - 1]] = c
            nrooks[i, code - 1] += 1


@njit(cache=True, inline="always")
def _pick(picked, cells, count, rng, i):
    """The first ``count`` entries of ``picked``: distinct ``cells`` drawn from board ``i``'s stream (a partial
    shuffle of a copy of ``cells``)."""
    for k in range(cells.shape[0]):
        picked[k] = cells[k]
    for k in range(count):
        j = k + randint(rng, i, picked.shape[0] - k)
        picked[k], picked[j] = picked[j], picked[k]


@njit(cache=True, inline="always")
def _remove_rook(i, e, c, rooks, nrooks):
    """The rook of colour ``e`` on cell ``c`` leaves play; the others keep their order."""
    m = nrooks[i, e]
    k = 0
    while rooks[i, e, k] != c:
        k += 1
    for k2 in range(k, m - 1):
        rooks[i, e, k2] = rooks[i, e, k2 + 1]
    rooks[i, e, m - 1] = -1
    nrooks[i, e] = m - 1


@njit(cache=True, inline="always")
def _count_beads(b, n):
    beads = 0
    for c in range(n):
        beads += b[c] == BEAD
    return beads


# -- kernels: reset, legal, step and observe map per-board functions over the batch (envs.core.batched) --------
@called_per_board
def _reset_one(i, s, c, scratch):
    """A new game on board ``i``: the variant's set-up (a random one from the board's stream)."""
    picked_edge, picked_inner = scratch  # the random set-up's shuffled edge and inner cells
    board, rooks, nrooks, colour, stores = s.board, s.rooks, s.nrooks, s.colour, s.stores
    b = board[i]
    b[:] = EMPTY
    rooks[i] = -1
    nrooks[i] = 0
    colour[i] = -1
    stores[i] = 0
    s.plies[i] = 0
    s.first_mover[i] = -1
    s.winner[i] = -1
    s.npath[i] = 0
    s.ncapt[i] = 0
    s.over[i] = False
    setup = c.params[P_SETUP]
    if setup == SETUP_MARQUISIAN:
        s.phase[i] = PHASE_SETUP
        s.to_move[i] = 0
        return
    if setup == SETUP_FIXED:  # the rooks' cells, then the beads' from first_bead on
        rook_cells, bead_cells, first_bead = c.fixed, c.fixed, 2 * ROOKS_PER_COLOUR
    else:  # random: 6 distinct edge cells (the first 3 white), 19 distinct inner cells
        _pick(picked_edge, c.edge_cells, 2 * ROOKS_PER_COLOUR, s.rng, i)
        _pick(picked_inner, c.inner_cells, NUM_BEADS, s.rng, i)
        rook_cells, bead_cells, first_bead = picked_edge, picked_inner, 0
    _place(i, b, rooks, nrooks, rook_cells, 0, ROOKS_PER_COLOUR, 1)  # each call inlined: three, not six
    _place(i, b, rooks, nrooks, rook_cells, ROOKS_PER_COLOUR, ROOKS_PER_COLOUR, 2)
    _place(i, b, rooks, nrooks, bead_cells, first_bead, NUM_BEADS, BEAD)
    s.phase[i] = PHASE_CHOICE
    s.to_move[i] = 1


@called_per_board
def _placements(i, row, listed, s, c):
    """The legal set-up placements of board ``i`` into ``row`` (its mask row) and ``listed``; returns how many."""
    params, nrooks, edge = c.params, s.nrooks, c.edge
    n, place_base = params[P_CELLS], params[P_PLACE_BASE]
    b = s.board[i]
    white = nrooks[i, 0] < ROOKS_PER_COLOUR
    black = nrooks[i, 1] < ROOKS_PER_COLOUR
    bead = _count_beads(b, n) < NUM_BEADS
    m = 0
    for cell in range(n):
        if b[cell] != EMPTY:
            continue
        for kind, ok in ((0, white), (1, black), (2, bead)):
            if ok and (kind == 2) != (edge[cell] != 0):
                a = place_base + 3 * cell + kind
                row[a] = True
                listed[m] = a
                m += 1
    return m


@called_per_board
def _legal_one(i, out, s, c, scratch):
    """``out[i]``: board ``i``'s legal actions (set-up placements, choices or rook moves), also listed in
    ``moves[i, :nmoves[i]]`` for the random pick (``Engine.legal_list``)."""
    params, rooks = c.params, s.rooks
    row = out[i]
    listed = s.moves[i]
    row[:] = False
    m = 0
    if not s.over[i]:
        p = s.phase[i]
        if p == PHASE_PLAY:
            rule = MoveRule(params[P_CAPTURE], params[P_SPAN], c.rays, c.raylen)
            b = s.board[i]
            col = s.colour[i, s.to_move[i]]
            for k in range(s.nrooks[i, col]):
                m += _rook_moves(rule, b, rooks[i, col, k], 2 - col, row, listed, m, True)
        elif p == PHASE_SETUP:
            m = _placements(i, row, listed, s, c)
        else:  # PHASE_CHOICE: player_1 chooses among three; PHASE_COLOUR: player_0 picks its colour
            choice_base = params[P_CHOICE_BASE]
            for a in range(choice_base + (p != PHASE_CHOICE), choice_base + 3):
                row[a] = True
                listed[m] = a
                m += 1
    s.nmoves[i] = m


@called_per_board
def _move_rook(i, me, a, s, c):
    """Seat ``me``'s rook move ``a``: the rook slides (or leaps), what it takes leaves the board (beads into the
    mover's store); the move's path and captures recorded."""
    params, rays, capt, rooks, nrooks, path = c.params, c.rays, s.capt, s.rooks, s.nrooks, s.path
    span = params[P_SPAN]
    rule = MoveRule(params[P_CAPTURE], span, rays, c.raylen)
    b = s.board[i]
    dist, cell, d = a % span + 1, a // span // 6, a // span % 6
    col = s.colour[i, me]
    own = col + 1
    taken = _captures(rule, b, cell, d, dist, own, capt[i])
    s.ncapt[i] = taken
    land = rays[cell, d, dist - 1]
    b[cell] = EMPTY
    b[land] = own
    for k in range(nrooks[i, col]):
        if rooks[i, col, k] == cell:
            rooks[i, col, k] = land
    for t in range(taken):
        taken_cell = capt[i, t]
        if b[taken_cell] == BEAD:
            s.stores[i, me] += 1
        else:  # an enemy rook
            _remove_rook(i, 1 - col, taken_cell, rooks, nrooks)
        b[taken_cell] = EMPTY
    s.plies[i] += 1
    path[i, 0] = cell
    for k in range(dist):
        path[i, k + 1] = rays[cell, d, k]
    s.npath[i] = dist + 1
    s.to_move[i] = 1 - me


@called_per_board
def _place_one(i, placement, s, c):
    """The set-up placement ``placement`` (cell * 3 + kind); once all rooks and beads are down, player_1 chooses."""
    rooks, nrooks = s.rooks, s.nrooks
    b = s.board[i]
    cell, kind = placement // 3, placement % 3
    if kind == 2:
        b[cell] = BEAD
    else:
        b[cell] = kind + 1
        rooks[i, kind, nrooks[i, kind]] = cell
        nrooks[i, kind] += 1
    full = nrooks[i, 0] == ROOKS_PER_COLOUR and nrooks[i, 1] == ROOKS_PER_COLOUR
    if full and _count_beads(b, c.params[P_CELLS]) == NUM_BEADS:
        s.phase[i] = PHASE_CHOICE
        s.to_move[i] = 1


@called_per_board
def _choose(i, choice, s, c):
    """A choice (0 "move first", 1 white, 2 black): player_1's after the set-up, or player_0's colour pick after
    "move first". Returns whether play begins (then the rules' end checks follow)."""
    colour, first_mover, phase = s.colour, s.first_mover, s.phase
    if phase[i] == PHASE_CHOICE:  # player_1 chooses
        if choice == 0:  # "move first": player_0 picks the colours next
            first_mover[i] = 1
            phase[i] = PHASE_COLOUR
            s.to_move[i] = 0
            return False
        colour[i, 0] = 2 - choice
        colour[i, 1] = choice - 1
        first_mover[i] = 0
    else:  # player_0 picks its colour after "move first"
        colour[i, 0] = choice - 1
        colour[i, 1] = 2 - choice
    phase[i] = PHASE_PLAY
    s.to_move[i] = first_mover[i]
    return True


@called_per_board
def _end(i, me, rewards, s, c, row):
    """The rules' end checks after seat ``me``'s move, in the order the rules check them: the mover has won; the
    ply limit (a draw); the next player cannot move (it loses). ``row``: :func:`_has_move`'s scratch."""
    params, to_move = c.params, s.to_move
    if s.stores[i, me] >= params[P_BEADS_TO_WIN]:
        won_by(i, me, s.over, s.winner, rewards)
    elif s.plies[i] >= params[P_MAX_PLIES]:
        s.over[i] = True
    else:
        rule = MoveRule(params[P_CAPTURE], params[P_SPAN], c.rays, c.raylen)
        if not _has_move(rule, s.board[i], s.rooks[i], s.nrooks[i], s.colour[i, to_move[i]], row):
            won_by(i, 1 - to_move[i], s.over, s.winner, rewards)


@called_per_board
def _step_one(i, a, rewards, s, c, scratch):
    """Play ``a`` on board ``i``: a rook move, a set-up placement or a choice; then the rules' end checks."""
    (row,) = scratch
    params = c.params
    me = s.to_move[i]
    if a < params[P_PLACE_BASE]:
        _move_rook(i, me, a, s, c)
    elif a < params[P_CHOICE_BASE]:
        _place_one(i, a - params[P_PLACE_BASE], s, c)
        return  # no end during the set-up
    elif not _choose(i, a - params[P_CHOICE_BASE], s, c):
        return
    _end(i, me, rewards, s, c, row)


@called_per_board
def _observe_one(i, seat, out, s, c, scratch):
    """``out[i]``: board ``i`` seen by ``seat``, the encoding of :meth:`HexRookEnv.observe_state`."""
    params, edge, nrooks = c.params, c.edge, s.nrooks
    n = params[P_CELLS]
    x = 5 * n  # the extra features
    col = s.colour[i, seat]
    own = 1 if col < 0 else col + 1
    opp = 3 - own
    b = s.board[i]
    row = out[i]
    beads = 0
    for cell in range(n):
        k = b[cell]
        row[cell] = k == own
        row[n + cell] = k == opp
        row[2 * n + cell] = k == BEAD
        row[3 * n + cell] = k == EMPTY
        row[4 * n + cell] = edge[cell]
        beads += k == BEAD
    row[x:] = 0.0
    p = s.phase[i]
    row[x + p] = 1.0
    if col >= 0:
        row[x + 4 + col] = 1.0
    if s.first_mover[i] == seat:
        row[x + 6] = 1.0
    target = params[P_BEADS_TO_WIN]
    row[x + 7] = min(1.0, s.stores[i, seat] / target)
    row[x + 8] = min(1.0, s.stores[i, 1 - seat] / target)
    row[x + 9] = min(1.0, s.plies[i] / params[P_MAX_PLIES])
    if p != PHASE_PLAY:
        row[x + 10] = (ROOKS_PER_COLOUR - nrooks[i, 0]) / ROOKS_PER_COLOUR
        row[x + 11] = (ROOKS_PER_COLOUR - nrooks[i, 1]) / ROOKS_PER_COLOUR
        row[x + 12] = (NUM_BEADS - beads) / NUM_BEADS


@njit(cache=True)
def reset(where, s, c):
    """A new game on the boards where ``where``: the variant's set-up (a random one from each board's stream)."""
    scratch = (np.empty(c.edge_cells.shape[0], dtype=np.int16), np.empty(c.inner_cells.shape[0], dtype=np.int16))
    each_reset(_reset_one, where, s, c, scratch)


@njit(cache=True)
def legal(out, s, c):
    """``out[i]``: board ``i``'s legal actions, also listed in ``moves[i, :nmoves[i]]`` for the random pick."""
    each_legal(_legal_one, out, s, c, ())


@njit(cache=True)
def step(actions, rewards, s, c):
    """Play ``actions[i]`` (-1: none) on every board; the rules' end checks; rewards by seat."""
    each_step(_step_one, actions, rewards, s, c, (np.zeros(1, dtype=np.int16),))


@njit(cache=True)
def observe(seats, out, s, c):
    """``out[i]``: board ``i`` seen by ``seats[i]``, the encoding of :meth:`HexRookEnv.observe_state`."""
    each_observe(_observe_one, seats, out, s, c, ())


# -- the medium bot, written once: the engine's bots["medium"] and envs.hexrook.bots.MediumBot ----------
# its constants, as the kernel's ``weights`` argument (passed at call time, so no cached kernel keeps old values)
W_WIN, W_THREAT, W_THREAT_CAP, W_ROOK = range(4)

#: What every helper of the medium kernel gets: the bot's ``weights`` (``W_*``) and its scratch buffers.
Medium = namedtuple(
    "Medium",
    (
        "weights",
        "row",  # a mask row _rook_moves writes (never read)
        "spot_beads",  # Squeeze's spots: the beads ...
        "spot_rooks",  # ... and rooks an own rook arriving on a cell takes
        "spots",  # the spots' cells
        "taken",  # a move's captures
        "after",  # the board after a move
        "mine",  # the mover's rooks after it
        "theirs",  # the opponent's rooks left
        "choice_moves",  # a choice's position: its moves ...
        "choice_scores",  # ... and their scores
    ),
    module=__name__,
)
#: One board's position as the medium bot reads it (the batch's rows of board ``i``).
Position = namedtuple("Position", ("board", "rooks", "nrooks", "stores", "plies"), module=__name__)
#: How far each side is from winning, for the side to move: beads it still needs, beads the opponent still
#: needs, and whether its move reaches the ply limit.
Race = namedtuple("Race", ("need_me", "need_them", "last_ply"), module=__name__)


@njit(cache=True, inline="always")
def _squeeze_spots(rule, bot, b, rooks, nr, enemy):
    """The spots where a Squeeze move captures: each of the ``nr`` rooks closes, in each direction, a row of
    beads or ``enemy`` rooks ending on an empty cell (the spot). Counts into ``bot.spot_beads`` and
    ``bot.spot_rooks`` by cell, the spots listed in ``bot.spots``; returns their number."""
    rays, raylen = rule.rays, rule.raylen
    spot_beads, spot_rooks, spots = bot.spot_beads, bot.spot_rooks, bot.spots
    nspots = 0
    for r in range(nr):
        cell = rooks[r]
        for d in range(6):
            n = raylen[cell, d]
            if n == 0:
                continue
            kind = b[rays[cell, d, 0]]
            if kind != BEAD and kind != enemy:
                continue
            j = 1
            while j < n and b[rays[cell, d, j]] == kind:
                j += 1
            if j == n or b[rays[cell, d, j]] != EMPTY:
                continue
            spot = rays[cell, d, j]
            if spot_beads[spot] == 0 and spot_rooks[spot] == 0:
                spots[nspots] = spot
                nspots += 1
            if kind == BEAD:
                spot_beads[spot] += j
            else:
                spot_rooks[spot] += j
    return nspots


@called
def _best_take(rule, bot, b, rooks, nr, own, beads_needed, enemy_rooks):
    """(value of the best capture, has any move) for the ``nr`` rooks of ``own`` on ``b``, WIN if one wins at
    once (that is: ``beads_needed`` beads or ``enemy_rooks`` rooks).

    What a move takes depends on less than the move: in Swish on its ray only (the row it leaps, wherever it
    lands beyond), in Squeeze on its landing cell only (the rows an own rook closes there: the "spots" of
    :meth:`envs.squeeze.rules.SqueezeGame.squeeze_spots`), so each capture is counted once per ray or spot.
    """
    rays, raylen = rule.rays, rule.raylen
    win, rook_value = bot.weights[W_WIN], bot.weights[W_ROOK]
    enemy = 3 - own
    best = 0.0
    any_move = False
    if rule.capture == LEAP:
        for r in range(nr):
            cell = rooks[r]
            for d in range(6):
                n = raylen[cell, d]
                k = 0
                while k < n and b[rays[cell, d, k]] == EMPTY:
                    k += 1
                any_move = any_move or k > 0
                if k == n:
                    continue
                kind = b[rays[cell, d, k]]
                if kind != BEAD and kind != enemy:
                    continue
                j = k + 1
                while j < n and b[rays[cell, d, j]] == kind:
                    j += 1
                if j == n or b[rays[cell, d, j]] != EMPTY:
                    continue  # no landing cell right after the row: no leap
                any_move = True
                beads = j - k if kind == BEAD else 0
                if beads >= beads_needed or j - k - beads >= enemy_rooks:
                    return win, True
                best = max(best, beads + rook_value * (j - k - beads))
        return best, any_move
    spot_beads, spot_rooks, spots = bot.spot_beads, bot.spot_rooks, bot.spots
    nspots = _squeeze_spots(rule, bot, b, rooks, nr, enemy)
    done = False
    for r in range(nr):  # the moves: slides; a move takes what its landing cell's spot holds
        cell = rooks[r]
        for d in range(6):
            n = raylen[cell, d]
            k = 0
            while k < n and not done:
                land = rays[cell, d, k]
                if b[land] != EMPTY:
                    break
                any_move = True
                beads, rks = spot_beads[land], spot_rooks[land]
                if beads or rks:
                    if beads >= beads_needed or rks >= enemy_rooks:
                        best, done = win, True
                    else:
                        best = max(best, beads + rook_value * rks)
                k += 1
    for s in range(nspots):
        spot_beads[spots[s]] = 0
        spot_rooks[spots[s]] = 0
    return best, any_move


@called
def _move_score(rule, bot, pos, col, a, race):
    """Medium's score of the move ``a`` of colour ``col`` on ``pos`` (one entry of :func:`_scored_moves`)."""
    b, rooks, nrooks, span = pos.board, pos.rooks, pos.nrooks, rule.span
    taken, after, mine, theirs = bot.taken, bot.after, bot.mine, bot.theirs
    win = bot.weights[W_WIN]
    own, enemy = col + 1, 2 - col
    cell, d, dist = a // span // 6, a // span % 6, a % span + 1
    t = _captures(rule, b, cell, d, dist, own, taken)
    beads = 0
    for x in range(t):
        beads += b[taken[x]] == BEAD
    if beads >= race.need_me:
        return win
    value = beads + bot.weights[W_ROOK] * (t - beads)
    if race.last_ply:
        return value
    land = rule.rays[cell, d, dist - 1]
    copy_into(after, b)
    after[cell] = EMPTY
    after[land] = own
    for x in range(t):
        after[taken[x]] = EMPTY
    n_mine, nt = np.int64(nrooks[col]), np.int64(0)
    for r in range(nrooks[1 - col]):
        c = rooks[1 - col, r]
        kept = True
        for x in range(t):
            kept = kept and taken[x] != c
        if kept:
            theirs[nt] = c
            nt += 1
    for r in range(n_mine):
        mine[r] = land if rooks[col, r] == cell else rooks[col, r]
    reply, they_move = _best_take(rule, bot, after, theirs, nt, enemy, race.need_them, n_mine)
    if not they_move:
        return win
    if reply >= win:
        return -win + value
    threat, _ = _best_take(rule, bot, after, mine, n_mine, own, race.need_me - beads, nt)
    return value - reply + bot.weights[W_THREAT] * min(threat, bot.weights[W_THREAT_CAP])


@called
def _scored_moves(rule, bot, pos, col, race, out, scores):
    """Medium's scores of every move of colour ``col`` to move on ``pos``: the moves into ``out``, in the rules'
    order, their scores into ``scores``; returns how many."""
    b, rooks, row = pos.board, pos.rooks, bot.row
    m = 0
    for r in range(pos.nrooks[col]):
        m += _rook_moves(rule, b, rooks[col, r], 2 - col, row, out, m, True)
    for j in range(m):
        scores[j] = _move_score(rule, bot, pos, col, out[j], race)
    return m


@called
def _choice_value(rule, bot, pos, colour0, first, chooser, me, params):
    """Medium's value for seat ``me`` of the position a choice leads to (the best score of the side to move,
    negated if that is not ``me``): seat 0 plays ``colour0``, seat ``first`` moves first, ``chooser`` made the
    choice (the rules' end checks follow it)."""
    target, max_plies = params[P_BEADS_TO_WIN], params[P_MAX_PLIES]
    stores, plies = pos.stores, pos.plies
    win = bot.weights[W_WIN]
    if stores[chooser] >= target:
        return win if chooser == me else -win
    if plies >= max_plies:
        return 0.0
    col = colour0 if first == 0 else 1 - colour0
    race = Race(target - stores[first], target - stores[1 - first], plies + 1 >= max_plies)
    scores = bot.choice_scores
    m = _scored_moves(rule, bot, pos, col, race, bot.choice_moves, scores)
    if m == 0:  # the side to move has no move: it loses (its moves counted, not a separate test: less to compile)
        return win if 1 - first == me else -win
    best = scores[0]
    for j in range(1, m):
        best = max(best, scores[j])
    return best if first == me else -best


def medium_space(consts: tuple, width: int) -> Medium:
    """The medium bot's weights and work arrays for the variant of ``consts`` and score rows of ``width``
    (:func:`medium_kernel`'s ``bot``): made here, so the kernel allocates nothing."""
    n, span = int(consts.params[P_CELLS]), int(consts.params[P_SPAN])
    return Medium(
        medium_weights(),
        np.zeros(n * 6 * span, dtype=np.bool_),
        np.zeros(n, dtype=np.int16),
        np.zeros(n, dtype=np.int16),
        np.empty(6 * ROOKS_PER_COLOUR, dtype=np.int16),
        np.empty(MAX_CAPTURES, dtype=np.int16),
        np.empty(n, dtype=np.int8),
        np.empty(ROOKS_PER_COLOUR, dtype=np.int16),
        np.empty(ROOKS_PER_COLOUR, dtype=np.int16),
        np.empty(width, dtype=np.int16),
        np.empty(width, dtype=np.float64),
    )


@njit(_nrt=False)
def medium_kernel(bot, boards, actions, listed, scores, counts, s, c):
    """The medium bot's move ``actions[k]`` on each board ``boards[k]`` (-1 on a finished one), ties and set-up
    placements drawn from the board's stream.

    Rook moves and the choices are scored: ``listed[k, :counts[k]]`` the actions (the rules' order),
    ``scores[k]`` their scores. A set-up placement is uniform over the legal ones (``counts[k] = 0``; it reads
    the legal list, so ``legal`` must be fresh). ``bot``: the weights and work arrays (:func:`medium_space`).
    Compiled without numba's reference counting, as the compiled search (:func:`_search`): with it, numba
    counts references to every array of the bot's tuples at each helper call, on every legal move.
    """
    params, over, phase, to_move, rng, rays = c.params, s.over, s.phase, s.to_move, s.rng, c.rays
    raylen, nmoves, moves, board, rooks, nrooks = c.raylen, s.nmoves, s.moves, s.board, s.rooks, s.nrooks
    colour, stores, plies, first_mover = s.colour, s.stores, s.plies, s.first_mover
    span = params[P_SPAN]
    target, max_plies, choice_base = params[P_BEADS_TO_WIN], params[P_MAX_PLIES], params[P_CHOICE_BASE]
    rule = MoveRule(params[P_CAPTURE], span, rays, raylen)
    for k in range(boards.shape[0]):
        i = boards[k]
        actions[k] = -1
        counts[k] = 0
        if over[i]:
            continue
        p = phase[i]
        if p == PHASE_SETUP:
            if nmoves[i] > 0:
                actions[k] = moves[i, randint(rng, i, nmoves[i])]
            continue
        me = np.int64(to_move[i])  # int64 seats and colours: each helper compiles for one type
        pos = Position(board[i], rooks[i], nrooks[i], stores[i], plies[i])
        m = 0
        if p == PHASE_PLAY:
            race = Race(target - stores[i, me], target - stores[i, 1 - me], plies[i] + 1 >= max_plies)
            m = _scored_moves(rule, bot, pos, np.int64(colour[i, me]), race, listed[k], scores[k])
        elif p == PHASE_CHOICE:  # "move first" (player_0 then picks the colours), "white", "black"; each valued
            # by the position it leads to, the opponent's colour pick worst for me
            listed[k, 0] = choice_base
            zero, one = np.int64(0), np.int64(1)
            scores[k, 0] = min(
                _choice_value(rule, bot, pos, zero, one, zero, me, params),
                _choice_value(rule, bot, pos, one, one, zero, me, params),
            )
            m = 1
            for ch in range(1, 3):
                listed[k, m] = choice_base + ch
                scores[k, m] = _choice_value(rule, bot, pos, np.int64(2 - ch), np.int64(0), me, me, params)
                m += 1
        else:  # PHASE_COLOUR: player_0 picks its colour, player_1 moves first
            first = np.int64(first_mover[i])
            for ch in range(1, 3):
                listed[k, m] = choice_base + ch
                scores[k, m] = _choice_value(rule, bot, pos, np.int64(ch - 1), first, me, me, params)
                m += 1
        counts[k] = m
        if m == 0:
            continue
        best = scores[k, 0]
        for j in range(1, m):
            best = max(best, scores[k, j])
        ties = 0
        for j in range(m):
            ties += scores[k, j] == best
        pick = randint(rng, i, ties)
        for j in range(m):
            if scores[k, j] == best:
                if pick == 0:
                    actions[k] = listed[k, j]
                    break
                pick -= 1


def medium_weights() -> np.ndarray:
    """The medium bot's constants in the kernel's order (``W_*``), read from :mod:`envs.hexrook.board`."""
    weights = np.empty(4, dtype=np.float64)
    weights[W_WIN], weights[W_THREAT], weights[W_THREAT_CAP] = WIN, THREAT_WEIGHT, THREAT_CAP
    weights[W_ROOK] = ROOK_VALUE
    return weights


def medium_scores(batch: BatchedGame, boards: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(actions, moves, scores, counts) of :func:`medium_kernel` on ``boards``: board ``boards[k]``'s scored
    actions ``moves[k, :counts[k]]`` with medium's scores, and its pick."""
    boards = np.asarray(boards, dtype=np.int64)
    if (batch.arrays["phase"][boards] == PHASE_SETUP).any():
        batch.ensure_legal()  # the set-up placements are drawn from the legal list
    width = max(3, batch.arrays["moves"].shape[1])
    actions = np.empty(boards.size, dtype=np.int64)
    listed = np.empty((boards.size, width), dtype=np.int16)
    scores = np.empty((boards.size, width), dtype=np.float64)
    counts = np.empty(boards.size, dtype=np.int64)
    bot = medium_space(batch.consts, width)
    medium_kernel(bot, boards, actions, listed, scores, counts, batch.state, batch.consts)
    return actions, listed, scores, counts


def medium_scored(engine: Engine, state: HexState) -> tuple[list[int], list[float]]:
    """(actions, scores): medium's score of every move (play phase) or choice (choice and colour phases) of the
    player to move in the rules' ``state``, in the rules' order; :class:`envs.hexrook.bots.MediumBot` picks among
    them. ``engine``: the state's variant. The kernel runs on one board made from ``state``, without a batch."""
    if state.phase not in (PHASE_CHOICE, PHASE_COLOUR, PHASE_PLAY) or state.over:
        raise ValueError(
            f"{engine.name}: medium scores the choices and moves of an unfinished game, got phase {state.phase}"
            + (" (over)" if state.over else "")
        )
    arrays = {name: np.zeros((1, *shape), dtype=dtype) for name, (shape, dtype) in engine.arrays.items()}
    _write_state(arrays, 0, state, engine.name)
    turn = np.array([state.to_move], dtype=np.int8), np.zeros(1, dtype=bool), np.zeros(1, dtype=np.uint64)
    boards = engine.state(*turn, *arrays.values())
    width = max(3, arrays["moves"].shape[1])
    actions, counts = np.empty(1, dtype=np.int64), np.empty(1, dtype=np.int64)
    listed, scores = np.empty((1, width), dtype=np.int16), np.empty((1, width), dtype=np.float64)
    bot = medium_space(engine.consts, width)
    medium_kernel(bot, np.zeros(1, dtype=np.int64), actions, listed, scores, counts, boards, engine.consts)
    return listed[0, : counts[0]].tolist(), scores[0, : counts[0]].tolist()


def medium_actions(batch: BatchedGame, boards: np.ndarray) -> np.ndarray:
    """The medium bot's move on each of ``boards`` (unfinished ones), for all of them in one compiled call:
    ``Engine.bots["medium"]``. Its chance comes from the boards' streams, so the moves follow from the seed."""
    return medium_scores(batch, boards)[0]


# -- what the compiled play-time search calls (policies.search.compiled) ---------------------------------------
#: :func:`captures_one`'s scratch: Squeeze's spots (as :func:`_squeeze_spots` counts them), the moves and their
#: values, a mask row and a move's captures.
CaptureScratch = namedtuple(
    "CaptureScratch",
    ("cells", "spot_beads", "spot_rooks", "spots", "moves", "values", "row", "taken"),
    module=__name__,
)


@per_board
def captures_one(i, out, s, c, scratch):
    """Board ``i``'s capturing moves into ``out``, biggest capture first (a rook counts ``ROOK_VALUE`` beads, ties
    in the rules' order): the rules' ``capturing_moves``. Returns how many."""
    if s.over[i] or s.phase[i] != PHASE_PLAY:
        return 0
    params = c.params
    span = params[P_SPAN]
    rule = MoveRule(params[P_CAPTURE], span, c.rays, c.raylen)
    b = s.board[i]
    col = s.colour[i, s.to_move[i]]
    own, enemy = col + 1, 2 - col
    nr = s.nrooks[i, col]
    moves, values = scratch.moves, scratch.values
    m = 0
    if rule.capture == CUSTODY:  # envs.squeeze.rules.SqueezeGame.capturing_moves: spot by spot
        cells = scratch.cells
        for r in range(nr):  # the own rooks in cell order, as the rules scan the board
            insert_sorted(cells, r, s.rooks[i, col, r])
        nspots = _squeeze_spots(rule, scratch, b, cells, nr, enemy)
        for k in range(nspots):
            land = scratch.spots[k]
            value = scratch.spot_beads[land] + ROOK_VALUE * scratch.spot_rooks[land]
            scratch.spot_beads[land] = 0
            scratch.spot_rooks[land] = 0
            for d in range(6):  # the own rooks that reach the spot: the first piece met on a ray from it
                for dist in range(1, c.raylen[land, d] + 1):
                    other = b[c.rays[land, d, dist - 1]]
                    if other != EMPTY:
                        if other == own:
                            moves[m] = (c.rays[land, d, dist - 1] * 6 + (d + 3) % 6) * span + dist - 1
                            values[m] = value
                            m += 1
                        break
    else:  # HexRookGame.capturing_moves: every move, rook by rook
        listed = 0
        for r in range(nr):
            listed += _rook_moves(rule, b, s.rooks[i, col, r], enemy, scratch.row, out, listed, True)
        for j in range(listed):
            a = out[j]
            taken = _captures(rule, b, a // span // 6, a // span % 6, a % span + 1, own, scratch.taken)
            if taken:
                beads = 0
                for t in range(taken):
                    beads += b[scratch.taken[t]] == BEAD
                moves[m] = a
                values[m] = beads + ROOK_VALUE * (taken - beads)
                m += 1
    for j in range(m):  # biggest first, ties kept in order (a stable insertion sort)
        a, v = moves[j], values[j]
        q = j
        while q > 0 and values[q - 1] < v:
            moves[q], values[q] = moves[q - 1], values[q - 1]
            q -= 1
        moves[q], values[q] = a, v
    for j in range(m):
        out[j] = moves[j]
    return m


@per_board
def may_end_one(i, a, s, c, taken):
    """False only when the legal action ``a`` cannot end board ``i``'s game (the search then need not play it to
    see): a rook move before the ply limit that takes nothing and leaves some enemy rook an empty neighbour (the
    enemy can move; the mover gains no bead). ``taken``: :func:`_captures`' scratch."""
    params = c.params
    if s.phase[i] != PHASE_PLAY or s.plies[i] + 1 >= params[P_MAX_PLIES]:
        return True
    span = params[P_SPAN]
    rays, raylen = c.rays, c.raylen
    rule = MoveRule(params[P_CAPTURE], span, rays, raylen)
    b = s.board[i]
    col = s.colour[i, s.to_move[i]]
    cell, d, dist = a // span // 6, a // span % 6, a % span + 1
    if _captures(rule, b, cell, d, dist, col + 1, taken) > 0:
        return True
    land, enemy = rays[cell, d, dist - 1], 1 - col
    for k in range(s.nrooks[i, enemy]):
        rook = s.rooks[i, enemy, k]
        for e in range(6):
            if raylen[rook, e] > 0:
                near = rays[rook, e, 0]
                if near == cell or (near != land and b[near] == EMPTY):  # empty after the move
                    return False
    return True


#: The per-board functions of the rules the search also calls, by public names.
legal_one, step_one, observe_one = _legal_one, _step_one, _observe_one


# -- one board and the rules' state ---------------------------------------------------------
@njit(cache=True)
def random_others(seats, alive, received, scratch, s, c):
    """The core's random-opponent loop over this game's kernels (``Engine.random_others``)."""
    random_others_loop(legal, step, seats, alive, received, scratch, s, c)


def to_rules(batch: BatchedGame, i: int) -> HexState:
    """Board ``i`` as the rules' :class:`HexState`."""
    a = batch.arrays
    nrooks = a["nrooks"][i]
    w = int(a["winner"][i])
    return HexState(
        board=bytearray(a["board"][i].astype(np.uint8).tobytes()),
        rooks=[[int(c) for c in a["rooks"][i, col, : nrooks[col]]] for col in (0, 1)],
        phase=int(a["phase"][i]),
        to_move=int(batch.to_move[i]),
        colour=[int(c) for c in a["colour"][i]],
        stores=[int(s) for s in a["stores"][i]],
        plies=int(a["plies"][i]),
        first_mover=int(a["first_mover"][i]),
        over=bool(batch.over[i]),
        winner=None if w < 0 else w,
        last_path=tuple(int(c) for c in a["path"][i, : a["npath"][i]]),
        last_captures=tuple(int(c) for c in a["capt"][i, : a["ncapt"][i]]),
    )


def from_rules(batch: BatchedGame, i: int, state: HexState) -> None:
    """Put the rules' ``state`` on board ``i`` (a ``ValueError`` names what does not fit this variant)."""
    _write_state(batch.arrays, i, state, batch.engine.name)
    batch.set_turn(i, state.to_move, state.over)


def _write_state(a: dict[str, np.ndarray], i: int, state: HexState, name: str) -> None:
    """The rules' ``state`` into row ``i`` of the game's arrays ``a`` (the core's to_move and over aside)."""
    if not isinstance(state, HexState):
        raise TypeError(f"{name}: a board's state must be a HexState, got {type(state).__name__}")
    n, path_room = a["board"].shape[1], a["path"].shape[1]
    problems = []
    if len(state.board) != n:
        problems.append(f"{len(state.board)} cells where this variant's board has {n}")
    if any(len(r) > ROOKS_PER_COLOUR for r in state.rooks):
        problems.append(f"more than {ROOKS_PER_COLOUR} rooks of a colour")
    if len(state.last_path) > path_room:
        problems.append(f"a last path of {len(state.last_path)} cells (at most {path_room})")
    if len(state.last_captures) > MAX_CAPTURES:
        problems.append(f"{len(state.last_captures)} last captures (at most {MAX_CAPTURES})")
    if problems:
        raise ValueError(f"{name}: the state does not fit board {i}: " + "; ".join(problems))
    a["board"][i] = np.frombuffer(bytes(state.board), dtype=np.uint8)
    a["rooks"][i] = -1
    for col in (0, 1):
        a["rooks"][i, col, : len(state.rooks[col])] = state.rooks[col]
        a["nrooks"][i, col] = len(state.rooks[col])
    a["phase"][i] = state.phase
    a["colour"][i] = state.colour
    a["stores"][i] = state.stores
    a["plies"][i] = state.plies
    a["first_mover"][i] = state.first_mover
    a["winner"][i] = -1 if state.winner is None else state.winner
    a["path"][i] = -1
    a["path"][i, : len(state.last_path)] = state.last_path
    a["npath"][i] = len(state.last_path)
    a["capt"][i] = -1
    a["capt"][i, : len(state.last_captures)] = state.last_captures
    a["ncapt"][i] = len(state.last_captures)


# -- the engine of one variant --------------------------------------------------------------
def engine_for(game: HexRookGame) -> Engine:
    """The engine of the variant ``game``, with its capture rule (``game.capture_rule``)."""
    if game.capture_rule not in CAPTURE_RULES:
        raise ValueError(f"{game.name}: capture_rule must be one of {CAPTURE_RULES}, got {game.capture_rule!r}")
    capture = CAPTURE_RULES.index(game.capture_rule)
    hx, span = game.hex, game.span
    n = hx.n
    params = np.array(
        [
            capture,
            n,
            span,
            SETUPS.index(game.params["setup"]),
            game.params["max_plies"],
            game.params["beads_to_win"],
            game.place_base,
            game.choice_base,
        ],
        dtype=np.int64,
    )
    rays = np.full((n, 6, span), -1, dtype=np.int16)
    raylen = np.zeros((n, 6), dtype=np.int8)
    for cell in range(n):
        for d, ray in enumerate(hx.rays[cell]):
            rays[cell, d, : len(ray)] = ray
            raylen[cell, d] = len(ray)
    white, black, beads = game.fixed_cells()
    consts = (
        params,
        rays,
        raylen,
        np.array(hx.is_edge, dtype=np.int8),
        np.array(hx.edge_cells, dtype=np.int16),
        np.array(hx.inner_cells, dtype=np.int16),
        np.array(white + black + beads, dtype=np.int16),
    )
    arrays = {
        "board": ((n,), np.int8),
        "rooks": ((2, ROOKS_PER_COLOUR), np.int16),
        "nrooks": ((2,), np.int8),
        "phase": ((), np.int8),
        "colour": ((2,), np.int8),
        "stores": ((2,), np.int8),
        "plies": ((), np.int32),
        "first_mover": ((), np.int8),
        "winner": ((), np.int8),
        "path": ((span + 1,), np.int16),
        "npath": ((), np.int8),
        "capt": ((MAX_CAPTURES,), np.int16),
        "ncapt": ((), np.int8),
        "moves": ((max(3 * ROOKS_PER_COLOUR, ROOKS_PER_COLOUR * 6 * span, 2 * n),), np.int16),
        "nmoves": ((), np.int16),
    }
    return Engine(
        name=game.name,
        num_players=2,
        num_actions=game.num_actions,
        obs_size=HexRookEnv.observation_shape(game)[0],
        arrays=arrays,
        reset=reset,
        legal=legal,
        step=step,
        random_others=random_others,
        observe=observe,
        to_rules=to_rules,
        from_rules=from_rules,
        state=Boards,
        game=game,
        has_chance=game.params["setup"] == "random",
        params=dict(game.params),
        consts=Consts(*consts),
        legal_list=("moves", "nmoves"),
        bots={"medium": medium_actions},
    )


__all__ = [
    "CUSTODY",
    "CaptureScratch",
    "LEAP",
    "captures_one",
    "engine_for",
    "from_rules",
    "legal",
    "legal_one",
    "may_end_one",
    "medium_actions",
    "medium_kernel",
    "medium_scored",
    "medium_scores",
    "medium_space",
    "observe",
    "observe_one",
    "random_others",
    "reset",
    "step",
    "step_one",
    "to_rules",
]
