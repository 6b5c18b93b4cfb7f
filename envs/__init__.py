"""swgym games as PettingZoo environments.

>>> import envs
>>> env = envs.make("swival", render_mode="ansi")   # PettingZoo AEC env
>>> import gymnasium; single = gymnasium.make("swgym/Swival-v0", opponent="medium")
>>> vec = envs.make_vec("swival", 4096, opponent="random")  # batched: a Gymnasium VectorEnv
>>> batch = envs.make_batched("swival", 4096, seed=0)        # batched: every seat from the caller
"""

from envs.registry import (
    GAMES,
    list_games,
    make,
    make_batched,
    make_raw,
    make_vec,
    register_gymnasium,
)

register_gymnasium()

__all__ = ["GAMES", "list_games", "make", "make_batched", "make_raw", "make_vec"]
