"""Golden playthroughs: a whole seeded game written out as text (OpenSpiel's habit).

The game is random legal play, or a bot match (``match``: seat 0's opponent and the other seats', e.g. hard
against mediums), which pins the bots' and the shipped hard opponent's moves. The text records, for every
ply, the player to move, its observation (the non-zero entries), its legal actions, the action taken with
its name and the rewards; then the returns and the final position. Any unintended change to rules,
observations, encodings or bot play changes the text.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from envs.core.match import turns
from envs.core.opponents import RandomOpponent
from envs.opponents import make_opponent
from envs.registry import make_raw


def _nonzero(obs: np.ndarray) -> str:
    flat = obs.ravel()
    idx = np.flatnonzero(flat)
    return " ".join(f"{i}:{flat[i]:.4g}" for i in idx)


def record(name: str, seed: int = 0, match: tuple[str, str] | None = None, **params: Any) -> str:
    """The playthrough text of one game of ``name`` from ``seed``: random legal moves, or the bot ``match``
    (opponent names for seat 0 and for the other seats; seat ``s`` plays with seed ``seed + s``)."""
    env = make_raw(name, render_mode="ansi", **params)
    env.reset(seed=seed)
    lines = [f"game: {name}", f"params: {json.dumps(params, sort_keys=True)}", f"seed: {seed}"]
    if match is None:
        chooser = RandomOpponent(seed)
        players = [chooser] * env.game.num_players
    else:
        specs = [match[0]] + [match[1]] * (env.game.num_players - 1)
        players = [make_opponent(name, spec, seed=seed + s, **params) for s, spec in enumerate(specs)]
        lines.append(f"players: {', '.join(specs)}")
    for ply, agent in enumerate(turns(env)):
        obs = env.observe(agent)
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        action = int(players[env.agent_seat[agent]].act(obs["observation"], obs["action_mask"], env.game_state))
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
