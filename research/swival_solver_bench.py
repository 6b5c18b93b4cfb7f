"""How fast is the numba Swival solver beside the C one? Time and nodes/s on the same positions.

For each number of empty cells, seeded random positions (random placements
from the empty board, neither side holding a line) are solved by both
searches, alternating which goes first; the medians and the numba/C ratio are
printed as a markdown table. Compile time of the numba search is measured in
fresh processes, once with an empty cache and once with the cache it left::

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

_FIRST_SOLVE = ("import time; t = time.perf_counter(); from envs.swival import solver; "
                "solver.init_numba(10); solver.solve_numba(0x10101, 0); print(time.perf_counter() - t)")


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


def timed(solve, count, me, op, seconds):
    start = time.perf_counter()
    value = solve(me, op, seconds)
    return value, count(), time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Swival solver: numba against C on the same positions.")
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
    solver.init_numba(args.tt_log2)
    engines = {"C": (solver.solve, solver.nodes), "numba": (solver.solve_numba, solver.nodes_numba)}
    rng = np.random.default_rng(args.seed)
    print("| empties | position | value | nodes | C s | numba s | C Mnodes/s | numba Mnodes/s | numba/C time |")
    print("|---|---|---|---|---|---|---|---|---|")
    summary = []
    for empties in args.empties:
        rows = []
        for k in range(args.positions):
            me, op = random_position(rng, empties)
            order = ["C", "numba"] if k % 2 == 0 else ["numba", "C"]
            got = {name: timed(*engines[name], me, op, args.seconds) for name in order}
            (cv, cn, ct), (nv, nn, nt) = got["C"], got["numba"]
            if (cv, cn) != (nv, nn):
                raise SystemExit(f"the searches disagree on {me:#x}, {op:#x}: C {cv} in {cn} nodes, "
                                 f"numba {nv} in {nn} nodes")
            rows.append((cn, ct, nt))
            print(f"| {empties} | {me:#08x} {op:#08x} | {cv} | {cn:,} | {ct:.3f} | {nt:.3f} | "
                  f"{cn / ct / 1e6:.2f} | {nn / nt / 1e6:.2f} | {nt / ct:.2f} |", flush=True)
        summary.append((empties, statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows),
                        statistics.median(r[2] for r in rows), statistics.median(r[2] / r[1] for r in rows)))
    print("\n| empties | median nodes | median C s | median numba s | median numba/C time |")
    print("|---|---|---|---|---|")
    for empties, n, ct, nt, ratio in summary:
        print(f"| {empties} | {n:,.0f} | {ct:.3f} | {nt:.3f} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
