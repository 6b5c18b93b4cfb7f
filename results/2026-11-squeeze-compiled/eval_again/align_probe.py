"""Do the compiled search's values depend on where numpy put its arrays? The shipped Squeeze hard's moves of
GAMES games against medium, searched again with its towers' arrays at each offset from a cache line (no cache):
how many moves and values differ from offset 0. From the repository's root:

    OPENBLAS_NUM_THREADS=1 PYTHONPATH=$PWD python results/2026-11-squeeze-compiled/eval_again/align_probe.py GAMES
"""

import importlib.util
import sys

import numpy as np

spec = importlib.util.spec_from_file_location("lp", "results/2026-11-squeeze-compiled/pass_cache/layout_probe.py")
lp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lp)

from envs.opponents import make_opponent  # noqa: E402
from envs.play import play_series  # noqa: E402


def main():
    games = int(sys.argv[1])
    for seed in range(games):
        hard = make_opponent("squeeze", "hard", seed=seed, setup="random")
        keeper = lp.Keeper(hard)
        play_series(
            "squeeze",
            [keeper, make_opponent("squeeze", "medium", seed=seed, setup="random")],
            1,
            seed=seed,
            setup="random",
        )
        compiled, towers = hard.compiled, hard.compiled.towers
        sizes = compiled._space_sizes
        results = {}
        for offset in (0, 16, 32, 48, 8, 4):
            lp.place(compiled, towers, sizes, offset, slots=0, values=1)
            results[offset] = [hard.best_move(s) for s in keeper.states]
        base = results[0]
        for offset, r in results.items():
            moves = sum(a[0] != b[0] for a, b in zip(base, r))
            values = sum(np.float32(a[1]).tobytes() != np.float32(b[1]).tobytes() for a, b in zip(base, r))
            print(
                f"game {seed}: offset {offset}: {len(r)} moves, {moves} other moves, {values} other values", flush=True
            )


if __name__ == "__main__":
    main()
