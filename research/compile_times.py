"""Compile time of each game's batched engine with a cold numba cache, and start-up with a warm one.

Each measurement is a fresh Python process that imports ``envs`` and runs one batch of 8 boards through every
kernel a user meets first (mask, observation, random pick, step, reset; then the learner's vector env's reset and
step with random opponents). Cold: an empty cache directory (``NUMBA_CACHE_DIR``); warm: the same directory
again. The core's kernels are compiled in each game's cold run too (nothing is shared between games' cache
directories), so a cold figure is what a user's first use of that game costs.

    python -m research.compile_times [games ...] [--rounds 1]

Prints seconds of wall clock per game (the median of rounds), cold and warm, and the process's import time.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

GAMES = ("swival", "twirls", "swimming", "swahili", "swish", "squeeze")

CHILD = """
import time
t0 = time.perf_counter()
import numpy as np
import envs
t1 = time.perf_counter()
batch = envs.make_batched({name!r}, 8, seed=0)
batch.legal_mask(); batch.observe(batch.to_move); batch.step(batch.random_actions(), autoreset=True)
vec = envs.make_vec({name!r}, 8, opponent="random", seed=0)
vec.reset(); vec.step(vec.action_masks().argmax(axis=1))
print(t1 - t0, time.perf_counter() - t1)
"""


def run(name: str, cache: str) -> tuple[float, float]:
    """(import seconds, engine seconds) of one fresh process using the numba cache directory ``cache``."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, "OPENBLAS_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", CHILD.format(name=name)], capture_output=True, text=True, env=env, check=True
    )
    first, second = done.stdout.split()
    return float(first), float(second)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    print(f"{'game':10s} {'cold s':>8s} {'warm s':>8s} {'import s':>9s}")
    for name in args.games:
        cold, warm, imports = [], [], []
        for _ in range(args.rounds):
            with tempfile.TemporaryDirectory() as cache:
                imp, seconds = run(name, cache)
                cold.append(seconds)
                imp, seconds = run(name, cache)
                warm.append(seconds)
                imports.append(imp)
        mid = len(cold) // 2
        print(f"{name:10s} {sorted(cold)[mid]:8.2f} {sorted(warm)[mid]:8.2f} {sorted(imports)[mid]:9.2f}", flush=True)


if __name__ == "__main__":
    main()
