"""swgym games as PettingZoo environments.

>>> import envs
>>> env = envs.make("swival", render_mode="ansi")   # PettingZoo AEC env
>>> import gymnasium; single = gymnasium.make("swgym/Swival-v0", opponent="medium")
>>> vec = envs.make_vec("swival", 4096, opponent="random")  # batched: a Gymnasium VectorEnv
>>> batch = envs.make_batched("swival", 4096, seed=0)        # batched: every seat from the caller
"""

from typing import Any

from envs.registry import (
    GAMES,
    list_games,
    make,
    make_batched,
    make_raw,
    register_gymnasium,
)

register_gymnasium()


def __getattr__(attribute: str) -> Any:
    """``envs.make_vec`` (:func:`envs.vector.make_vec`), imported when first asked: numba loads with the first
    batched engine only, so ``import envs`` stays fast."""
    if attribute == "make_vec":
        from envs.vector import make_vec

        return make_vec
    raise AttributeError(f"module 'envs' has no attribute {attribute!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), "make_vec"])


__all__ = ["GAMES", "list_games", "make", "make_batched", "make_raw", "make_vec"]
