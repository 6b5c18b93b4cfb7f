"""The shipped Squeeze hard's moves of one game against medium (seed 5), searched again in this process with its
work arrays and weights placed at a given offset from a cache line, or with pass caches of other sizes: CPU
seconds for the whole set, rounds in turn. The moves searched are the same in every variant (the work is
counted), so only the time differs.

    PYTHONPATH=. python results/2026-11-squeeze-compiled/pass_cache/layout_probe.py [--rounds 2]
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from envs.core.alpha_beta import new_space  # noqa: E402
from envs.opponents import make_opponent  # noqa: E402
from envs.play import play_series  # noqa: E402


def at_offset(array: np.ndarray, offset: int) -> np.ndarray:
    """A copy of ``array`` whose data begins ``offset`` bytes after a cache line."""
    buffer = np.zeros(array.nbytes + 128, dtype=np.uint8)
    start = -buffer.ctypes.data % 64 + offset
    out = buffer[start : start + array.nbytes].view(array.dtype).reshape(array.shape)
    out[...] = array
    return out


def place(compiled, towers, sizes, offset: int, slots: int, values: int) -> None:
    """Give the compiled search ``compiled`` the value towers ``towers`` and new work arrays of ``sizes`` with a
    pass cache of ``slots`` / ``values``, the towers' weights and work arrays ``offset`` bytes after a line."""
    compiled.towers = towers._replace(
        first_w=tuple(at_offset(w, offset) for w in towers.first_w),
        rest_w=tuple(at_offset(w, offset) for w in towers.rest_w),
    )
    space = new_space(*sizes, cache_slots=slots, cache_values=values)
    compiled.space = space._replace(
        **{f: at_offset(getattr(space, f), offset) for f in ("first", "hidden", "parent_pre", "tower_out")}
    )


class Keeper:
    """Plays as the hard and keeps a copy of every position it moved from."""

    def __init__(self, player):
        self.player, self.states = player, []

    def reset(self, seed=None):
        self.player.reset(seed)

    def act(self, observation, action_mask, state=None):
        self.states.append(copy.deepcopy(state))
        return self.player.act(observation, action_mask, state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--json")
    args = parser.parse_args()
    hard = make_opponent("squeeze", "hard", seed=5, setup="random")
    keeper = Keeper(hard)
    play_series("squeeze", [keeper, make_opponent("squeeze", "medium", seed=5, setup="random")], 1, seed=5,
                setup="random")  # fmt: skip
    compiled, towers = hard.compiled, hard.compiled.towers
    sizes = compiled._space_sizes
    variants = {  # name: (offset of the arrays from a line, cache slots, cache values)
        "offset 0, no cache": (0, 0, 1),
        "offset 16, no cache": (16, 0, 1),
        "offset 32, no cache": (32, 0, 1),
        "offset 0, cache 2^12 / 2^15": (0, 1 << 12, 1 << 15),
        "offset 0, cache 2^13 / 2^16": (0, 1 << 13, 1 << 16),
        "offset 0, cache 2^15 / 2^18 (shipped)": (0, 1 << 15, 1 << 18),
        "offset 0, cache 2^17 / 2^20": (0, 1 << 17, 1 << 20),
    }
    seconds: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(args.rounds):
        for name, (offset, slots, values) in variants.items():
            place(compiled, towers, sizes, offset, slots, values)
            start = time.process_time()
            for state in keeper.states:
                hard.best_move(state)
            seconds[name].append(time.process_time() - start)
            print(f"{name:<40} {seconds[name][-1]:7.3f} s", flush=True)
    print(f"{len(keeper.states)} moves; CPU seconds, median of {args.rounds} rounds:")
    for name, values in seconds.items():
        print(f"  {name:<40} {np.median(values):7.3f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"moves": len(keeper.states), "seconds": seconds}, f, indent=1)


if __name__ == "__main__":
    main()
