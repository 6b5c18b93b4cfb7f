"""Golden playthroughs: a whole seeded game written out as text (OpenSpiel's habit).

The text records, for every ply, the player to move, its observation (the
non-zero entries), its legal actions, the action taken with its name and the
rewards; then the returns and the final position. Any unintended change to
rules, observations or encodings changes the text.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from envs.core.match import turns
from envs.core.opponents import RandomOpponent
from envs.registry import make_raw


def _nonzero(obs: np.ndarray) -> str:
    flat = obs.ravel()
    idx = np.flatnonzero(flat)
    return " ".join(f"{i}:{flat[i]:.4g}" for i in idx)


def record(game: str, seed: int = 0, **params: Any) -> str:
    """The playthrough text of one game of random legal moves from ``seed``."""
    env = make_raw(game, render_mode="ansi", **params)
    env.reset(seed=seed)
    chooser = RandomOpponent(seed)
    lines = [f"game: {game}", f"params: {json.dumps(params, sort_keys=True)}", f"seed: {seed}"]
    for ply, agent in enumerate(turns(env)):
        obs = env.observe(agent)
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        action = chooser.act(obs["observation"], obs["action_mask"])
        lines.append(f"--- ply {ply}: {agent}")
        lines.append(f"observation: {_nonzero(obs['observation'])}")
        lines.append(f"legal: {legal}")
        lines.append(f"action: {action} {env.action_name(action)}")
        env.step(action)
        rewards = {a: r for a, r in env.rewards.items() if r}
        if rewards:
            lines.append(f"rewards: {json.dumps(rewards, sort_keys=True)}")
    lines.append(f"winners: {env.game.winners(env.game_state)}")
    lines.append("final position:")
    lines.append(env.render())
    env.close()
    return "\n".join(lines) + "\n"
