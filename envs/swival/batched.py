"""Swival's batched engine: N games as numba kernels over uint32 bitboards (see :mod:`envs.core.batched`).

Per board: ``boards`` (2,) uint32, each player's counters as the rules'
24-bit ints (bit ``ring*8 + k``); ``plies`` int16; ``winner`` int8 (-1: none).
Actions, observations and rewards are exactly those of ``envs/swival/env.py``;
``tests/conformance/test_every_variant.py`` plays both side by side to keep it so.
"""

from __future__ import annotations

import numpy as np

from envs.core.batched import (
    BatchedGame,
    Engine,
    board_state,
    each_legal,
    each_observe,
    each_reset,
    each_step,
    random_others_loop,
    won_by,
)
from envs.core.jit import njit, per_board
from envs.swival.env import OBSERVATION_SIZE
from envs.swival.rules import MIDDLE, NUM_ACTIONS, NUM_CELLS, WIN_ACTION, SwivalGame, SwivalState, has_line, swivel

Boards = board_state(__name__, ("boards", "plies", "winner"))
_FULL = np.uint32((1 << 24) - 1)
_MIDDLE = np.uint32(MIDDLE)


_has_line = njit(inline="always")(has_line)  # the rules' own functions, compiled
_swivel = njit(inline="always")(swivel)


@njit(cache=True, inline="always")
def _popcount(bits):
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count


@per_board
def _reset_one(i, s, c, scratch):
    s.boards[i, 0] = 0
    s.boards[i, 1] = 0
    s.plies[i] = 0
    s.winner[i] = -1
    s.to_move[i] = 0
    s.over[i] = False


@per_board
def _legal_one(i, out, s, c, scratch):
    if s.over[i]:
        for a in range(NUM_ACTIONS):
            out[i, a] = False
        return
    me = s.to_move[i]
    mover = s.boards[i, me]
    empty = ~(mover | s.boards[i, 1 - me]) & _FULL
    swivel_any = (mover & _MIDDLE) != 0
    swivel_middle = mover != 0
    for cell in range(24):
        e = ((empty >> cell) & 1) != 0
        swivels = e and (swivel_any or (swivel_middle and 8 <= cell < 16))
        out[i, 3 * cell] = e
        out[i, 3 * cell + 1] = swivels
        out[i, 3 * cell + 2] = swivels
    out[i, 72] = _has_line(mover)


@per_board
def _step_one(i, action, rewards, s, c, scratch):
    to_move, boards = s.to_move, s.boards
    me = to_move[i]
    s.plies[i] += 1
    if action == 72:
        won_by(i, me, s.over, s.winner, rewards)
        return
    cell, direction = action // 3, action % 3
    boards[i, me] = _swivel(boards[i, me] | np.uint32(1 << cell), direction)
    boards[i, 1 - me] = _swivel(boards[i, 1 - me], direction)
    to_move[i] = 1 - me
    if (boards[i, 0] | boards[i, 1]) == _FULL and not _has_line(boards[i, 1 - me]):
        s.over[i] = True  # draw: full board, the player to move has no line


@per_board
def _observe_one(i, seat, out, s, c, scratch):
    own = s.boards[i, seat]
    opp = s.boards[i, 1 - seat]
    for cell in range(24):
        o = (own >> cell) & 1
        p = (opp >> cell) & 1
        out[i, cell] = o
        out[i, 24 + cell] = p
        out[i, 48 + cell] = 1 - o - p
    out[i, 72] = own != 0
    out[i, 73] = (own & _MIDDLE) != 0
    out[i, 74] = _has_line(own)
    out[i, 75] = _has_line(opp)
    out[i, 76] = (12 - _popcount(own)) / 12.0
    out[i, 77] = (12 - _popcount(opp)) / 12.0


# -- what the compiled play-time search calls (policies.search.compiled) ---------------------------------------
@per_board
def legal_listed_one(i, out, s, c, listed):
    """Board ``i``'s mask row into ``out[i]``, and its legal actions ascending into ``listed`` = (moves, count):
    ``moves[i, :count[i]]`` (the search reads a list; the engine itself keeps none)."""
    _legal_one(i, out, s, c, ())
    moves, count = listed
    n = 0
    for a in range(NUM_ACTIONS):
        if out[i, a]:
            moves[i, n] = a
            n += 1
    count[i] = n


@per_board
def captures_one(i, out, s, c, scratch):
    """Swival captures nothing: no capturing moves (the rules' ``capturing_moves``)."""
    return 0


@per_board
def may_end_one(i, a, s, c, scratch):
    """False only when the legal action ``a`` cannot end board ``i``'s game: only the winning counter and the
    placement on the last empty cell (a draw unless the next player holds a line) can."""
    return a == WIN_ACTION or _popcount(s.boards[i, 0]) + _popcount(s.boards[i, 1]) == NUM_CELLS - 1


#: The per-board functions of the rules the search also calls, by public names.
step_one, observe_one = _step_one, _observe_one


@njit(cache=True)
def reset(where, s, c):
    each_reset(_reset_one, where, s, c, ())


@njit(cache=True)
def legal(out, s, c):
    each_legal(_legal_one, out, s, c, ())


@njit(cache=True)
def step(actions, rewards, s, c):
    each_step(_step_one, actions, rewards, s, c, ())


@njit(cache=True)
def observe(seats, out, s, c):
    each_observe(_observe_one, seats, out, s, c, ())


@njit(cache=True)
def random_others(seats, alive, received, scratch, s, c):
    """The core's random-opponent loop over this game's kernels (``Engine.random_others``)."""
    random_others_loop(legal, step, seats, alive, received, scratch, s, c)


def to_rules(batch: BatchedGame, i: int) -> SwivalState:
    """Board ``i`` as the rules' :class:`SwivalState`."""
    w = int(batch.arrays["winner"][i])
    return SwivalState(
        boards=[int(b) for b in batch.arrays["boards"][i]],
        to_move=int(batch.to_move[i]),
        winner=None if w < 0 else w,
        over=bool(batch.over[i]),
        plies=int(batch.arrays["plies"][i]),
    )


def from_rules(batch: BatchedGame, i: int, state: SwivalState) -> None:
    """Put the rules' ``state`` on board ``i``."""
    batch.arrays["boards"][i] = state.boards
    batch.arrays["plies"][i] = state.plies
    batch.arrays["winner"][i] = -1 if state.winner is None else state.winner
    batch.set_turn(i, state.to_move, state.over)


def engine(**params) -> Engine:
    """Swival's engine (no rule parameters: any keyword is named in a ``TypeError``)."""
    game = SwivalGame(**params)
    return Engine(
        name="swival",
        num_players=2,
        num_actions=NUM_ACTIONS,
        obs_size=OBSERVATION_SIZE,
        arrays={"boards": ((2,), np.uint32), "plies": ((), np.int16), "winner": ((), np.int8)},
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
    )
