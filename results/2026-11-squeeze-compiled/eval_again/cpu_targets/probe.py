"""The shipped Squeeze and Swish hards' move and value at positions of medium-vs-medium games, as JSON lines:
run under two numba CPU targets (NUMBA_CPU_NAME) to see whether the compiled towers round alike."""

import copy
import json
import sys

import numpy as np

from envs.opponents import make_opponent
from envs.play import play_series


class Keeper:
    def __init__(self, player):
        self.player, self.states = player, []

    def reset(self, seed=None):
        self.player.reset(seed)

    def act(self, observation, action_mask, state=None):
        self.states.append(copy.deepcopy(state))
        return self.player.act(observation, action_mask, state)


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
