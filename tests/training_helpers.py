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


def game_against_random(game, policy_path, **params):
    """One seeded game of the policy file (seat 0) against random: (its record, (seat, move was legal) per move)."""
    from envs.opponents import make_opponent
    from envs.play import play_game

    moves = []
    record = play_game(
        game,
        [make_opponent(game, str(policy_path), seed=0, **params), make_opponent(game, "random", seed=1, **params)],
        seed=0,
        observer=lambda seat, obs, mask, action: moves.append((seat, bool(mask[action]))),
        **params,
    )
    return record, moves
