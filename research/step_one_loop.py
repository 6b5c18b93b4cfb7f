"""Is the loop over boards written once (a per-board ``legal_one`` / ``step_one`` that a core loop maps over the
batch, PufferLib's shape) as fast as a game's own loop kernel? Measured on Swival (a 6-array state) and on
Swimming's legal moves (a 32-array state).

Each per-board function gets the batch's named state ``s`` and is mapped by the core's loop
(``envs.core.batched.each_legal`` / ``each_step``), compiled four ways:

* ``loop``: the same body written inside the kernel's own loop (the shape before);
* ``counted``: a plain ``numba.njit`` function (numba's reference counting on);
* ``inlined``: ``njit(inline="always")``, inlined by numba into the loop (counting on);
* ``per_board``: :func:`envs.core.jit.per_board` (``_nrt=False``: no reference counting; LLVM inlines it).

Same positions for every variant (random play, then restored before each timed call), rounds interleaved.
Prints the median microseconds per call of N boards and the ratio to ``loop``.

    python -m research.step_one_loop [--boards 256] [--rounds 7]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

import envs
from envs.core.batched import each_legal, each_step
from envs.core.jit import per_board
from envs.swimming import batched as sw
from envs.swival import batched as sv
from envs.swival.batched import _FULL, _MIDDLE, _has_line, _swivel

# -- the engines' own per-board functions, as plain Python functions to compile each way --------------------------
swival_legal_one = sv._legal_one.py_func
swival_step_one = sv._step_one.py_func
swimming_legal_one = sw._legal_one.py_func


# -- the shape before: the body inside the kernel's loop, the state's fields bound once at its top ------------------
@njit
def swival_legal_loop(out, s, c):
    over, to_move, boards = s.over, s.to_move, s.boards
    for i in range(out.shape[0]):
        if over[i]:
            for a in range(73):
                out[i, a] = False
            continue
        me = to_move[i]
        mover = boards[i, me]
        empty = ~(mover | boards[i, 1 - me]) & _FULL
        swivel_any = (mover & _MIDDLE) != 0
        swivel_middle = mover != 0
        for cell in range(24):
            e = ((empty >> cell) & 1) != 0
            swivels = e and (swivel_any or (swivel_middle and 8 <= cell < 16))
            out[i, 3 * cell] = e
            out[i, 3 * cell + 1] = swivels
            out[i, 3 * cell + 2] = swivels
        out[i, 72] = _has_line(mover)


@njit
def swival_step_loop(actions, rewards, s, c):
    to_move, plies, boards, winner, over = s.to_move, s.plies, s.boards, s.winner, s.over
    for i in range(actions.shape[0]):
        action = actions[i]
        if action < 0:
            continue
        me = to_move[i]
        plies[i] += 1
        if action == 72:
            over[i] = True
            winner[i] = me
            rewards[i, me] = 1.0
            rewards[i, 1 - me] = -1.0
            continue
        cell, direction = action // 3, action % 3
        boards[i, me] = _swivel(boards[i, me] | np.uint32(1 << cell), direction)
        boards[i, 1 - me] = _swivel(boards[i, 1 - me], direction)
        to_move[i] = 1 - me
        if (boards[i, 0] | boards[i, 1]) == _FULL and not _has_line(boards[i, 1 - me]):
            over[i] = True


@njit
def swimming_legal_loop(out, s, c):
    phase, knocker, turns, active, params, over = s.phase, s.knocker, s.turns, s.active, c.params, s.over
    for i in range(out.shape[0]):
        for a in range(sw.NUM_ACTIONS):
            out[i, a] = False
        if over[i] or phase[i] == sw.OVER:
            continue
        if phase[i] == sw.CHOICE:
            out[i, sw.KEEP_LOT] = True
            out[i, sw.KEEP_LOT + 1] = True
            continue
        for a in range(sw.KNOCK):
            out[i, a] = True
        out[i, sw.KNOCK] = sw._knock_allowed(i, phase, knocker, turns, active, params)


def _mapped_legal(one):
    @njit
    def kernel(out, s, c):  # ``one`` is a free variable: numba takes it as a global and calls it directly
        each_legal(one, out, s, c, ())

    return kernel


def _mapped_step(one):
    @njit
    def kernel(actions, rewards, s, c):
        each_step(one, actions, rewards, s, c, ())

    return kernel


def legal_variants(legal_one):
    return {
        "counted": _mapped_legal(njit(legal_one)),
        "inlined": _mapped_legal(njit(inline="always")(legal_one)),
        "per_board": _mapped_legal(per_board(legal_one)),
    }


def step_variants(step_one):
    return {
        "counted": _mapped_step(njit(step_one)),
        "inlined": _mapped_step(njit(inline="always")(step_one)),
        "per_board": _mapped_step(per_board(step_one)),
    }


def timed(fn, prepare, rounds):
    """Median microseconds of ``fn()`` after ``prepare()``, over ``rounds`` rounds of 20 calls."""
    prepare()
    fn()
    samples = []
    for _ in range(rounds):
        total = 0.0
        for _ in range(20):
            prepare()
            t0 = time.perf_counter()
            fn()
            total += time.perf_counter() - t0
        samples.append(total / 20 * 1e6)
    return float(np.median(samples))


def positions(name, boards, plies, **params):
    """A batch after ``plies`` random moves on every board, and a function that puts it back there."""
    batch = envs.make_batched(name, boards, seed=0, **params)
    for _ in range(plies):
        batch.step(batch.random_actions(), autoreset=True)
    saved = [a.copy() for a in batch.state]

    def restore():
        for array, copy in zip(batch.state, saved):
            if array.flags.writeable:
                array[:] = copy

    return batch, restore


def measure(boards, rounds):
    """Rows of (label, {variant: microseconds}) for Swival's legal and step and Swimming's legal."""
    rows = []
    batch, restore = positions("swival", boards, 9)
    s, c = batch.state, batch.consts
    out = np.zeros((boards, 73), dtype=bool)
    actions = batch.random_actions()
    rewards = np.zeros((boards, 2), dtype=np.float32)
    legal = {"loop": swival_legal_loop, **legal_variants(swival_legal_one)}
    rows.append(("swival legal", {k: timed(lambda f=f: f(out, s, c), restore, rounds) for k, f in legal.items()}))
    step = {"loop": swival_step_loop, **step_variants(swival_step_one)}
    rows.append(
        ("swival step", {k: timed(lambda f=f: f(actions, rewards, s, c), restore, rounds) for k, f in step.items()})
    )
    batch, restore = positions("swimming", boards, 6, num_players=4)
    s, c = batch.state, batch.consts
    out = np.zeros((boards, sw.NUM_ACTIONS), dtype=bool)
    legal = {"loop": swimming_legal_loop, **legal_variants(swimming_legal_one)}
    rows.append(
        (
            f"swimming legal ({len(s)} arrays)",
            {k: timed(lambda f=f: f(out, s, c), restore, rounds) for k, f in legal.items()},
        )
    )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    print(f"N = {args.boards}, median of {args.rounds} rounds of 20 calls: microseconds per call (ratio to loop)")
    for label, results in measure(args.boards, args.rounds):
        base = results["loop"]
        cells = "  ".join(f"{k} {v:7.1f} (x{v / base:4.2f})" for k, v in results.items())
        print(f"{label:28s} {cells}")


if __name__ == "__main__":
    main()
