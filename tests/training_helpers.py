"""Shared by the training tests: a config small enough to train in a second."""

import json

from training.selfplay import DEFAULTS


def tiny_config(game, **over):
    config = json.loads(json.dumps(DEFAULTS))
    config.update(
        {
            "game": game,
            "total_timesteps": 256,
            "n_envs": 2,
            "net_arch": [16],
            "pool": {
                "snapshot_every": 128,
                "max_snapshots": 2,
                "start": {"random": 1.0},
                "later": {"random": 0.5, "snapshots": 0.5},
            },
            "eval": {"every": 128, "games": 2, "opponent": "random"},
            "vector": {"num_envs": 8, "ppo": {"n_steps": 8, "batch_size": 64}},
        }
    )
    config["ppo"] = {**DEFAULTS["ppo"], "n_steps": 64, "batch_size": 64, "n_epochs": 1}
    config.update(over)
    return config
