"""How fast is the Swival solver? Time and nodes/s on seeded random positions, compile time.

For each number of empty cells, seeded random positions (random placements
from the empty board, neither side holding a line) are solved; the medians are
printed as a markdown table. Compile time of the numba search is measured in
fresh processes, once with an empty cache and once with the cache it left.
Commit 5568cad ran this against the former C solver on the same positions
(``results/2026-11-swival-solver-numba.md``)::

    python -m research.swival_solver_bench [--empties 17 18 19 20] [--positions 5] [--tt-log2 24]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

from envs.swival import solver
from envs.swival.rules import has_line, placements, play

_FIRST_SOLVE = (
    "import time; t = time.perf_counter(); from envs.swival import solver; "
    "solver.init(10); solver.solve(0x10101, 0); print(time.perf_counter() - t)"
)


def random_position(rng: np.random.Generator, empties: int) -> tuple[int, int]:
    """Random placements from the empty board until ``empties`` cells are left, neither side with a line."""
    while True:
        me, op = 0, 0
        for _ in range(24 - empties):
            cell, direction = placements(me, op)[rng.integers(len(placements(me, op)))]
            m2, o2 = play(me, op, cell, direction)
            me, op = o2, m2
        if not has_line(me) and not has_line(op):
            return me, op


def first_solve_seconds(cache: str) -> float:
    """Seconds from importing the solver to the end of a first tiny solve, in a fresh process."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", _FIRST_SOLVE], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Swival solver: solve times, nodes/s, compile time.")
    parser.add_argument("--empties", type=int, nargs="+", default=[17, 18, 19, 20])
    parser.add_argument("--positions", type=int, default=5, help="positions per number of empties")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--tt-log2", type=int, default=solver.DEFAULT_TT_LOG2)
    parser.add_argument("--seconds", type=float, default=1800.0, help="time limit per solve")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as cache:
        cold = first_solve_seconds(cache)
        warm = first_solve_seconds(cache)
    print(f"numba first solve in a fresh process: {cold:.2f} s with an empty cache, {warm:.2f} s with a warm one")

    solver.init(args.tt_log2)
    solver.solve(0x10101, 0)  # compile (or load) before timing
    rng = np.random.default_rng(args.seed)
    print("| empties | position | value | nodes | s | Mnodes/s |")
    print("|---|---|---|---|---|---|")
    summary = []
    for empties in args.empties:
        rows = []
        for _ in range(args.positions):
            me, op = random_position(rng, empties)
            start = time.perf_counter()
            value = solver.solve(me, op, args.seconds)
            seconds, count = time.perf_counter() - start, solver.nodes()
            rows.append((count, seconds))
            print(
                f"| {empties} | {me:#08x} {op:#08x} | {value} | {count:,} | {seconds:.3f} | "
                f"{count / seconds / 1e6:.2f} |",
                flush=True,
            )
        summary.append(
            (
                empties,
                statistics.median(r[0] for r in rows),
                statistics.median(r[1] for r in rows),
                statistics.median(r[0] / r[1] / 1e6 for r in rows),
            )
        )
    print("\n| empties | median nodes | median s | median Mnodes/s |")
    print("|---|---|---|---|")
    for empties, n, seconds, rate in summary:
        print(f"| {empties} | {n:,.0f} | {seconds:.3f} | {rate:.2f} |")


if __name__ == "__main__":
    main()
