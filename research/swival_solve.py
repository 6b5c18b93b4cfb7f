"""Solve Swival's empty board exactly: a draw with perfect play.

Runs the product's solver (:mod:`envs.swival.solver`) on the empty board;
the time it took and the nodes it visited are in
``results/2026-11-swival-solve.md``::

    python -m research.swival_solve [--seconds 3600] [--tt-log2 24]
"""

from __future__ import annotations

import argparse
import time

from envs.swival import solver

VALUE_NAMES = {1: "win", 0: "draw", -1: "loss"}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Solve Swival's empty board exactly (win/draw/loss).")
    parser.add_argument("--seconds", type=float, default=3600.0, help="time limit (default 3600)")
    parser.add_argument(
        "--tt-log2",
        type=int,
        default=solver.DEFAULT_TT_LOG2,
        help=f"table of 2**N entries, 16 bytes each (default {solver.DEFAULT_TT_LOG2}: 256 MB)",
    )
    args = parser.parse_args(argv)
    try:
        solver.init(args.tt_log2)
        print(
            f"Solving the empty board (time limit {args.seconds:g} s); "
            "it takes minutes (results/2026-11-swival-solve.md)...",
            flush=True,
        )
        start = time.perf_counter()
        value = solver.solve(0, 0, args.seconds)
    except (RuntimeError, ValueError, TimeoutError, MemoryError) as err:
        raise SystemExit(f"swival_solve: {err}") from None
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    print(
        f"empty board: {VALUE_NAMES[value]} for the first player (value {value}), "
        f"{time.perf_counter() - start:.1f} s, {solver.nodes():,} nodes"
    )


if __name__ == "__main__":
    main()
