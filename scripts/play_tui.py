"""A person against the computer in the terminal, for any game.

At your turn type an action's number or its name (as listed), ``?`` to list the
legal moves again, or ``quit`` to resign. After your move, before the computer
answers, you may type ``u`` to take it back (within ``think`` seconds when a
think time is set; Enter lets the computer answer at once).
"""

from __future__ import annotations

import select
import sys
from collections.abc import Callable
from typing import Any, TextIO

import numpy as np

from envs.core.opponents import make_opponent
from envs.registry import make_raw


def _timed_input(prompt: str, timeout: float | None, stdin: TextIO, out: TextIO) -> str | None:
    """A line from ``stdin``; None when ``timeout`` seconds pass first (or input ends)."""
    out.write(prompt)
    out.flush()
    if timeout is not None and hasattr(stdin, "fileno"):
        try:
            ready, _, _ = select.select([stdin], [], [], timeout)
        except (OSError, ValueError):
            ready = [stdin]
        if not ready:
            out.write("\n")
            return None
    line = stdin.readline()
    return None if line == "" else line.strip()


def parse_action(text: str, legal: list[int], name_of: Callable[[int], str]) -> int | None:
    """An action number or a legal action's name (case-insensitive) -> action, or None."""
    if text.isdigit() and int(text) in legal:
        return int(text)
    matches = [a for a in legal if name_of(a).lower() == text.lower()]
    return matches[0] if len(matches) == 1 else None


def play(game: str, vs: str = "medium", seat: int = 0, seed: int | None = None, think: float | None = None,
         stdin: TextIO = sys.stdin, out: TextIO = sys.stdout, **params: Any) -> dict[str, Any]:
    """Play one game in the terminal; returns {"winners": seats, "resigned": bool}."""
    env = make_raw(game, render_mode="ansi", **params)
    n = env.game.num_players
    if not 0 <= seat < n:
        raise ValueError(f"{game}: seat must be in [0, {n}), got {seat}")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    computers = {s: make_opponent(game, vs, seed=int(rng.integers(2**31)), **params) for s in range(n) if s != seat}
    me = env.possible_agents[seat]
    before_my_move = None
    resigned = False
    out.write(f"You are {me}. Type a move's number or name, '?' for the list, 'quit' to resign.\n")
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        if agent != me:
            if before_my_move is not None:
                answer = _timed_input("Enter: let the computer answer, u: undo your move > ", think, stdin, out)
                if answer is not None and answer.lower() == "u":
                    env.restore(before_my_move)
                    before_my_move = None
                    out.write("Move taken back.\n")
                    continue
                before_my_move = None
            obs = env.observe(agent)
            action = computers[env.agent_seat[agent]].act(obs["observation"], obs["action_mask"], env.game_state)
            out.write(f"{agent} plays {env.action_name(action)}\n")
            env.step(action)
            continue
        out.write("\n" + env.render() + "\n")
        legal = np.flatnonzero(env.legal_mask()).tolist()
        listing = ", ".join(f"{a}={env.action_name(a)}" for a in legal)
        out.write(f"legal: {listing}\n")
        while True:
            text = _timed_input(f"{me} > ", None, stdin, out)
            if text is None or text.lower() in ("quit", "q", "resign"):
                resigned = True
                break
            if text == "?":
                out.write(f"legal: {listing}\n")
                continue
            action = parse_action(text, legal, env.action_name)
            if action is not None:
                break
            out.write(f"'{text}' is not a legal move here; type '?' for the list.\n")
        if resigned:
            out.write(f"{me} resigns.\n")
            break
        before_my_move = env.snapshot()
        env.step(action)
    out.write("\n" + env.render() + "\n")
    winners = [s for s in range(n) if s != seat] if resigned else env.game.winners(env.game_state)
    out.write(("You resigned." if resigned else
               "You win!" if winners == [seat] else
               "Draw." if not winners else
               f"Winner: {', '.join(env.possible_agents[w] for w in winners)}.") + "\n")
    return {"winners": winners, "resigned": resigned}
