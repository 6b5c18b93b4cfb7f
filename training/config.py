"""Training configs (``training/configs/<game>.json``): the defaults and :func:`load_config`, which checks one.

Kept apart from :mod:`training.selfplay` so that the backends without SB3 (``--backend gumbel``, in the Ray
virtualenv as well) read the same configs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from envs.registry import GAMES, entry
from training.imitation import imitation_settings
from training.value_fit import value_fit_settings

CONFIG_DIR = Path(__file__).resolve().parent / "configs"
DEFAULTS: dict[str, Any] = {
    "params": {},
    "seed": 0,
    "total_timesteps": 100_000,
    "n_envs": 8,
    "subproc": False,
    "net_arch": [128, 128],
    "activation": "tanh",
    "ppo": {
        "n_steps": 256,
        "batch_size": 512,
        "learning_rate": 3e-4,
        "n_epochs": 4,
        "gamma": 0.99,
        "gae_lambda": 0.95,
        "ent_coef": 0.01,
    },
    "pool": {
        "snapshot_every": 20_000,
        "max_snapshots": 6,
        "start": {"random": 0.5, "medium": 0.5},
        "later": {"random": 0.1, "medium": 0.4, "snapshots": 0.5},
    },
    "eval": {"every": 20_000, "games": 40, "opponent": "medium"},
    "env": "auto",
    # the batched path: boards, PPO settings over "ppo", and the most boards the bots (board by board, mostly) may take
    "vector": {"num_envs": 1024, "ppo": {"n_steps": 16, "batch_size": 8192}, "max_bot_share": None},
    "checkpoint": {"every": 100_000},
    # PPO's action head: "plain", or "factored" over the game's action layout at "rank" (training.factored_policy)
    "head": "plain",
    "rank": 8,
}
HEADS = ("plain", "factored")
ENV_PATHS = ("auto", "single", "vector")


def load_config(game_or_path: str) -> dict[str, Any]:
    """A training config over :data:`DEFAULTS`: a game's default one, a config named in the registry, or a path.

    ``"swahili"`` is the config of Swahili's default rules, ``"swahili_4p"`` one
    of its other configs (:attr:`envs.registry.GameEntry.configs`); a name with a
    suffix is a file path.
    """
    path = Path(game_or_path)
    if not path.suffix:
        names = {config: name for name, e in GAMES.items() for config in e.configs}
        if game_or_path not in names:
            raise FileNotFoundError(
                f"no training config {game_or_path!r}; the registry's configs are: "
                f"{', '.join(names)} (or give a .json path)"
            )
        path = entry(names[game_or_path]).config_path(CONFIG_DIR.parents[1], game_or_path)
    if not path.exists():
        raise FileNotFoundError(f"no training config {path}")
    try:
        user = json.loads(path.read_text())
    except json.JSONDecodeError as err:
        raise ValueError(f"training config {path} is not valid JSON: {err}") from None
    known = set(DEFAULTS) | {
        "game",
        "search",
        "shaping",
        "imitation",
        "value_members",
        "value_fit",
        "gumbel",
    }
    unknown = set(user) - known
    if unknown:
        raise ValueError(f"training config {path}: unknown key(s) {sorted(unknown)}")
    members, overridable = user.get("value_members", []), known - {"game", "value_members"}
    if not isinstance(members, list) or not all(isinstance(m, dict) and set(m) <= overridable for m in members):
        raise ValueError(
            f"training config {path}: value_members must be a list of config overrides "
            f"(objects with keys among {sorted(overridable)}), got {members!r}"
        )
    if "game" not in user:
        raise ValueError(f"training config {path} does not name its game")
    config = {**DEFAULTS, **user}
    for key in ("ppo", "pool", "eval", "vector", "checkpoint"):
        config[key] = {**DEFAULTS[key], **user.get(key, {})}
    config["vector"]["ppo"] = {**DEFAULTS["vector"]["ppo"], **user.get("vector", {}).get("ppo", {})}
    if config["head"] not in HEADS or not (isinstance(config["rank"], int) and config["rank"] >= 1):
        raise ValueError(
            f"training config {path}: head must be one of {HEADS} and rank an int >= 1, "
            f"got {config['head']!r} and {config['rank']!r}"
        )
    if config["env"] not in ENV_PATHS:
        raise ValueError(f"training config {path}: env must be one of {ENV_PATHS}, got {config['env']!r}")
    if "imitation" in user:
        config["imitation"] = imitation_settings(user["imitation"])
    if "value_fit" in user:
        try:
            config["value_fit"] = value_fit_settings(user["value_fit"])
        except ValueError as err:
            raise ValueError(f"training config {path}: {err}") from None
    return config


__all__ = ["CONFIG_DIR", "DEFAULTS", "ENV_PATHS", "HEADS", "load_config"]
