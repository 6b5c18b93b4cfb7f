"""Swahili's batched engine: N games as numba kernels over small count arrays (see :mod:`envs.core.batched`).

Per board, the rules' :class:`~envs.swahili.rules.SwahiliState` as arrays:
``rows`` (n, 11) int8 (seat p's pieces in rows 1-11), ``centre`` (n,) int8,
``compound`` (n,) int8, ``pending`` int8 (-1: no stop / continue choice) and
``plies`` int32, for n = ``num_players``. The kernels read n from the arrays'
shape and the variant from ``Engine.consts`` (the reward mode; the observation's
compound and score values, c / scale for every c, computed as ``env.py`` does), so
one compiled kernel serves every variant. ``_sow`` and ``_points`` are the rules'
``sow`` / ``sow_own`` and ``points`` in numba. Actions, observations and
rewards are exactly those of ``envs/swahili/env.py`` (observations: the same
float64 expressions, stored as float32); ``tests/conformance/test_every_variant.py`` plays both
side by side to keep it so.
"""

from __future__ import annotations

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
)
from envs.core.jit import njit
from envs.swahili.env import BLOCK, observation_size
from envs.swahili.rules import (
    CAPTURE_POINTS,
    CENTRE,
    CENTRE_POINTS,
    FIRST_CAPTURE_ROW,
    NUM_ACTIONS,
    NUM_ROWS,
    PIECES,
    START_ROWS,
    STOP,
    SwahiliGame,
    SwahiliState,
)

_START_ROWS = np.array(START_ROWS, dtype=np.int8)  # a constant of the compiled kernels
# c / PIECES for every count c a seat's row or centre can hold, as env.py computes it (float64, then float32)
_COUNT_VALUE = np.array([c / PIECES for c in range(PIECES + 1)], dtype=np.float32)
_REWARD_SCORE = 0  # consts[0][_REWARD_SCORE]: 1 for reward="score", 0 for reward="win"


Boards = board_state(__name__, ("rows", "centre", "compound", "pending", "plies"))
Consts = variant_consts(__name__, ("params", "compound_value", "score_value"))


@njit(cache=True, inline="always")
def _points(compound, centre, i, p):
    """Points of seat ``p`` on board ``i`` (the rules' ``points``)."""
    return CAPTURE_POINTS * np.int64(compound[i, p]) + CENTRE_POINTS * np.int64(centre[i, p])


@called
def _sow(rows, centre, compound, i, me, row):
    """Seat ``me`` sows its pieces of ``row`` on board ``i`` and captures (the rules' ``sow``); the landing position."""
    k = rows[i, me, row]
    rows[i, me, row] = 0
    pos = row
    for _ in range(k):
        pos += 1
        if pos == CENTRE:
            centre[i, me] += 1
        else:
            if pos > CENTRE:
                pos = 0
            rows[i, me, pos] += 1
    if pos != CENTRE and rows[i, me, pos] == 1 and pos >= FIRST_CAPTURE_ROW:
        for q in range(rows.shape[1]):
            if q != me and rows[i, q, pos] == 1:
                rows[i, q, pos] = 0
                compound[i, me] += 1
    return pos


# -- kernels: reset, legal and step map per-board functions over the batch (envs.core.batched) ------------
@called_per_board
def _reset_one(i, s, c, scratch):
    rows, centre, compound = s.rows, s.centre, s.compound
    for p in range(rows.shape[1]):
        for r in range(NUM_ROWS):
            rows[i, p, r] = _START_ROWS[r]
        centre[i, p] = 0
        compound[i, p] = 0
    s.pending[i] = -1
    s.plies[i] = 0
    s.to_move[i] = 0
    s.over[i] = False


@called_per_board
def _legal_one(i, out, s, c, scratch):
    over, to_move, pending, rows = s.over, s.to_move, s.pending, s.rows
    for a in range(NUM_ACTIONS):
        out[i, a] = False
    if over[i]:
        return
    if pending[i] >= 0:
        out[i, pending[i]] = True
        out[i, STOP] = True
        return
    me = to_move[i]
    for r in range(NUM_ROWS):
        out[i, r] = rows[i, me, r] > 0


@njit(cache=True, inline="always")
def _someone_empty(i, rows):
    """Some seat of board ``i`` has no piece left in its rows (the game is over)."""
    for p in range(rows.shape[1]):
        empty = True
        for r in range(NUM_ROWS):
            if rows[i, p, r] != 0:
                empty = False
                break
        if empty:
            return True
    return False


@njit(cache=True, inline="always")
def _win_rewards(i, rewards, compound, centre):
    """The game's end under reward="win": the top scorers share +1, the others -1 (all tied: a draw, zeros)."""
    n = compound.shape[1]
    top = -1
    for p in range(n):
        top = max(top, _points(compound, centre, i, p))
    won = 0
    for p in range(n):
        won += _points(compound, centre, i, p) == top
    if won < n:
        win = 1.0 / won
        lose = -1.0 / (n - won)
        for p in range(n):
            rewards[i, p] = win if _points(compound, centre, i, p) == top else lose


@called_per_board
def _step_one(i, action, rewards, s, c, scratch):
    (before,) = scratch  # reward="score": every seat's points before the move
    rows, pending, centre, compound, over = s.rows, s.pending, s.centre, s.compound, s.over
    n = rows.shape[1]
    score_rewards = c.params[_REWARD_SCORE] != 0
    me = s.to_move[i]
    s.plies[i] += 1
    if score_rewards:
        for p in range(n):
            before[p] = _points(compound, centre, i, p)
    if action == STOP:
        pending[i] = -1
    else:
        pos = _sow(rows, centre, compound, i, me, action)
        pending[i] = pos if pos != CENTRE and rows[i, me, pos] > 1 else -1
    if pending[i] < 0:  # the move is over
        if _someone_empty(i, rows):
            over[i] = True
        if not over[i]:
            s.to_move[i] = (me + 1) % n
    if score_rewards:
        total = 0
        for p in range(n):
            before[p] = _points(compound, centre, i, p) - before[p]  # the gain
            total += before[p]
        mean = total / n
        for p in range(n):
            rewards[i, p] = before[p] - mean
    elif over[i]:
        _win_rewards(i, rewards, compound, centre)


@njit(cache=True)
def reset(where, s, c):
    each_reset(_reset_one, where, s, c, ())


@njit(cache=True)
def legal(out, s, c):
    each_legal(_legal_one, out, s, c, ())


@njit(cache=True)
def step(actions, rewards, s, c):
    each_step(_step_one, actions, rewards, s, c, (np.empty(s.rows.shape[1], dtype=np.int64),))


@njit(cache=True)
def observe(seats, out, s, c):  # one loop: written per board (each_observe) it measured 3-9% slower
    rows, compound_value, score_value, pending = s.rows, c.compound_value, c.score_value, s.pending
    over, centre, compound, to_move = s.over, s.centre, s.compound, s.to_move
    n = rows.shape[1]
    base = BLOCK * n
    for i in range(out.shape[0]):
        seat = seats[i]
        for b in range(n):
            who = (seat + b) % n
            o = BLOCK * b
            for r in range(NUM_ROWS):
                out[i, o + r] = _COUNT_VALUE[rows[i, who, r]]
            for r in range(FIRST_CAPTURE_ROW, NUM_ROWS):
                out[i, o + NUM_ROWS + r - FIRST_CAPTURE_ROW] = 1.0 if rows[i, who, r] == 1 else 0.0
            out[i, o + 16] = _COUNT_VALUE[centre[i, who]]
            out[i, o + 17] = compound_value[compound[i, who]]
            out[i, o + 18] = score_value[_points(compound, centre, i, who)]
        for k in range(base, out.shape[1]):
            out[i, k] = 0.0
        if pending[i] >= 0:
            out[i, base] = 1.0
            out[i, base + 1 + pending[i]] = 1.0
        if not over[i]:
            out[i, base + 1 + NUM_ROWS + (to_move[i] - seat) % n] = 1.0


@njit(cache=True)
def random_others(seats, alive, received, scratch, s, c):
    """The core's random-opponent loop over this game's kernels (``Engine.random_others``)."""
    random_others_loop(legal, step, seats, alive, received, scratch, s, c)


def to_rules(batch: BatchedGame, i: int) -> SwahiliState:
    """Board ``i`` as the rules' :class:`SwahiliState`."""
    a = batch.arrays
    return SwahiliState(
        rows=[[int(c) for c in r] for r in a["rows"][i]],
        centre=[int(c) for c in a["centre"][i]],
        compound=[int(c) for c in a["compound"][i]],
        to_move=int(batch.to_move[i]),
        pending=int(a["pending"][i]),
        over=bool(batch.over[i]),
        plies=int(a["plies"][i]),
    )


def from_rules(batch: BatchedGame, i: int, state: SwahiliState) -> None:
    """Put the rules' ``state`` on board ``i`` (refused by name: another player count, counts out of range)."""
    n = batch.num_players
    if (
        len(state.rows) != n
        or len(state.centre) != n
        or len(state.compound) != n
        or any(len(r) != NUM_ROWS for r in state.rows)
    ):
        raise ValueError(
            f"swahili: a {n}-player board needs {n} seats of {NUM_ROWS} rows, got rows of "
            f"{[len(r) for r in state.rows]}, {len(state.centre)} centre and "
            f"{len(state.compound)} compound counts"
        )
    counts = [c for r in state.rows for c in r] + list(state.centre)
    if (
        min(counts) < 0
        or max(counts) > PIECES
        or not all(0 <= c <= PIECES * (n - 1) for c in state.compound)
        or not -1 <= state.pending < NUM_ROWS
        or not 0 <= state.to_move < n
    ):
        raise ValueError(
            f"swahili: not a position of {n} players with {PIECES} pieces each: rows {state.rows}, "
            f"centre {state.centre}, compound {state.compound}, to_move {state.to_move}, "
            f"pending {state.pending}"
        )
    a = batch.arrays
    a["rows"][i] = state.rows
    a["centre"][i] = state.centre
    a["compound"][i] = state.compound
    a["pending"][i] = state.pending
    a["plies"][i] = state.plies
    batch.set_turn(i, state.to_move, state.over)


def engine(**params) -> Engine:
    """Swahili's engine under rule ``params`` (``num_players``, ``reward``; bad ones are named by the rules)."""
    game = SwahiliGame(**params)
    n = game.num_players
    compound_scale, score_scale = PIECES * (n - 1), 120 + 60 * (n - 1)  # env.py's scales
    consts = (
        np.array([1 if game.score_rewards else 0], dtype=np.int8),
        # c / scale for every compound and score a seat can reach, as env.py computes it
        np.array([c / compound_scale for c in range(PIECES * (n - 1) + 1)], dtype=np.float32),
        np.array(
            [s / score_scale for s in range(CAPTURE_POINTS * PIECES * (n - 1) + CENTRE_POINTS * PIECES + 1)],
            dtype=np.float32,
        ),
    )
    for array in consts:
        array.setflags(write=False)
    return Engine(
        name="swahili",
        num_players=n,
        num_actions=NUM_ACTIONS,
        obs_size=observation_size(n),
        arrays={
            "rows": ((n, NUM_ROWS), np.int8),
            "centre": ((n,), np.int8),
            "compound": ((n,), np.int8),
            "pending": ((), np.int8),
            "plies": ((), np.int32),
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
    )
