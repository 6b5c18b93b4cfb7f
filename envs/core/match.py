"""The one drive loop of an AEC game (:func:`turns`, :func:`next_turn`), knowing no game."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any


def next_turn(env: Any, stop: Callable[[], bool] | None = None, returns: dict[str, float] | None = None) -> str | None:
    """The agent to decide next in the AEC ``env``, after stepping out the agents that are done (PettingZoo's
    ``step(None)``); None once the game has no agents left or ``stop()`` is true (asked before each step).

    ``returns`` (by agent), if given, gains each selected agent's cumulative reward as it comes up, so at the
    end it holds every agent's return. The app, which steps one move per event, calls this directly.
    """
    while env.agents:
        if stop is not None and stop():
            return None
        agent = env.agent_selection
        if returns is not None:
            returns[agent] += env._cumulative_rewards[agent]
        if not (env.terminations[agent] or env.truncations[agent]):
            return agent
        env.step(None)
    return None


def turns(env: Any, stop: Callable[[], bool] | None = None, returns: dict[str, float] | None = None) -> Iterator[str]:
    """The one drive loop of an AEC game: yields each agent to decide (see :func:`next_turn`); the caller steps
    ``env`` with that agent's action before asking for the next one.

    Used by :func:`play_game`, golden playthroughs, the single-agent env (``stop``: the learner is to move or
    done), ``swgym watch`` and the tests.
    """
    while (agent := next_turn(env, stop, returns)) is not None:
        yield agent
