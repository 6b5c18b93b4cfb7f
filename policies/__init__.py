"""Shipped opponents: learned policies played with numpy only.

``policies.load("swival", "hard")`` returns the opponent behind
``policies/swival_hard.npz``; a path to any ``.npz`` policy file works too,
and an SB3 ``.zip`` model when the training extras (torch) are installed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from policies.numpy_policy import NumpyPolicy, PolicyFileError

POLICY_DIR = Path(__file__).resolve().parent


def shipped_path(game: str) -> Path:
    """Where the hard policy of ``game`` is shipped."""
    return POLICY_DIR / f"{game}_hard.npz"


def load(game: str, name: str = "hard", seed: int | None = None, temperature: float = 0.0,
         **params: Any):
    """The opponent named ``name`` ("hard" or a policy file path) for ``game`` with rule ``params``."""
    if name == "hard":
        path = shipped_path(game)
        if not path.exists():
            raise FileNotFoundError(f"no hard opponent is shipped for {game} yet ({path} is missing); "
                                    f"train one with `swgym train {game}`")
    else:
        path = Path(name)
    if path.suffix == ".zip":
        try:
            from training.sb3_opponent import SB3Opponent
        except ImportError as err:
            raise ImportError(f"{path}: SB3 .zip models need the training extras (torch): {err}") from None
        return SB3Opponent(path, game=game, seed=seed, **params)
    policy = NumpyPolicy(path, game=game, temperature=temperature, seed=seed, params=params)
    search = policy.meta.get("search")
    if search:
        from policies.search import PolicySearch

        return PolicySearch(policy, game, params, **search)
    return policy


__all__ = ["NumpyPolicy", "PolicyFileError", "load", "shipped_path"]
