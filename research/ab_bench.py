"""Interleaved A/B of ``swgym bench --batch`` between two checkouts of the project (e.g. a git worktree of an
older commit beside this one): round 1 of A, round 1 of B, round 2 of A, ... each a fresh process, so both
sides see the same machine over time. Prints every row's median steps/s on each side, B over A, and B's vector
env against its engine (learner steps x players over agent-steps at the same N).

    python -m research.ab_bench --before /path/to/old/checkout --after . [--rounds 3] [--variants] [games ...]

Each side runs with its own sources first on ``PYTHONPATH`` and its own numba cache (beside its sources); one
untimed run per side first, so that no kernel compiles inside a timed round.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def bench_once(checkout: Path, argv: list[str], out: Path) -> list[dict]:
    """One ``swgym bench --batch --rounds 1`` process in ``checkout``; its rows."""
    env = {**os.environ, "PYTHONPATH": str(checkout), "OPENBLAS_NUM_THREADS": "1", "SDL_VIDEODRIVER": "dummy"}
    command = [sys.executable, "-m", "scripts.cli", "bench", "--batch", "--rounds", "1", "--json", str(out), *argv]
    subprocess.run(command, cwd=checkout, env=env, check=True, stdout=subprocess.DEVNULL)
    return json.loads(out.read_text())["batch"]


def players_of(label: str) -> int:
    """The number of players of a bench row's game label (``"swimming num_players=6"``)."""
    import envs

    name, *pairs = label.split()
    params = {k: int(v) if v.isdigit() else v for k, v in (pair.split("=") for pair in pairs)}
    return envs.make_batched(name, 1, seed=0, **params).num_players


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, default=Path("."))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--variants", action="store_true")
    parser.add_argument("games", nargs="*")
    args = parser.parse_args()
    argv = ["--seconds", str(args.seconds), *(["--variants"] if args.variants else []), *args.games]
    sides = {"A": args.before.resolve(), "B": args.after.resolve()}
    samples: dict[str, dict[tuple[str, str], list[float]]] = {side: {} for side in sides}
    with tempfile.TemporaryDirectory() as tmp:
        for checkout in sides.values():  # warm-up: compile or load every kernel
            bench_once(checkout, ["--seconds", "0.05", *argv[2:]], Path(tmp) / "warm.json")
        for r in range(args.rounds):
            for side, checkout in sides.items():
                for row in bench_once(checkout, argv, Path(tmp) / f"{side}{r}.json"):
                    samples[side].setdefault((row["env"], row["engine"]), []).append(row["median_steps_per_s"])
                print(f"round {r + 1}/{args.rounds}: {side} done", file=sys.stderr, flush=True)
    a, b = samples["A"], samples["B"]
    print(f"A: {sides['A']}\nB: {sides['B']}\nmedians of {args.rounds} interleaved rounds, steps/s")
    print(f"{'env':26s} {'engine':>10s} {'A':>12s} {'B':>12s} {'B / A':>6s} {'B vec x players / engine':>25s}")
    for (env, engine), values in b.items():
        if (env, engine) not in a:
            continue
        ma, mb = statistics.median(a[(env, engine)]), statistics.median(values)
        share = ""
        if engine.startswith("vec "):
            share = f"{mb * players_of(env) / statistics.median(b[(env, engine[4:])]):.0%}"
        print(f"{env:26s} {engine:>10s} {ma:12,.0f} {mb:12,.0f} {mb / ma:6.2f} {share:>25s}")


if __name__ == "__main__":
    main()
