"""The shipped Squeeze and Swish hards' move and value (its float32's bytes) at the first 12 positions of seat 0
in GAMES seeded medium-against-medium games each, as JSON: run under several numba CPU targets (run.sh) to see
whether the compiled towers round alike."""

import importlib.util
import json
import sys

import numpy as np

from envs.opponents import make_opponent
from envs.play import play_series

_spec = importlib.util.spec_from_file_location(
    "layout_probe", "results/2026-11-squeeze-compiled/pass_cache/layout_probe.py"
)
layout_probe = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(layout_probe)
Keeper = layout_probe.Keeper  # plays as a player and keeps a copy of every position it moved from


def main():
    games, out = int(sys.argv[1]), {}
    for name in ("squeeze", "swish"):
        rows = []
        for seed in range(games):
            keeper = Keeper(make_opponent(name, "medium", seed=seed, setup="random"))
            play_series(
                name,
                [keeper, make_opponent(name, "medium", seed=seed + 100, setup="random")],
                1,
                seed=seed,
                setup="random",
            )
            hard = make_opponent(name, "hard", seed=seed, setup="random")
            for state in keeper.states[:12]:
                move, value = hard.best_move(state)
                rows.append([int(move), np.float32(value).tobytes().hex()])
        out[name] = rows
    print(json.dumps(out))


if __name__ == "__main__":
    main()
