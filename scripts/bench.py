"""Random-play speed of every game against PettingZoo's connect_four_v3, in one run.

An agent-step is one ``last()`` (observation and mask built) plus one
``step()`` through the wrapped PettingZoo env, exactly as a user's loop does;
the random agent picks from the mask as cheaply as numpy allows, so that the
figures measure the envs rather than the agent.
Rounds are interleaved (connect four, then each game, repeated) so machine
noise hits all alike; the table gives medians and the ratio of medians.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def agent_steps_per_second(make_env: Callable[[], Any], seconds: float, seed: int = 0) -> float:
    """Random legal play through ``env.agent_iter()`` for about ``seconds``; returns agent-steps/s."""
    env = make_env()
    rng = np.random.default_rng(seed)
    steps, games = 0, 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        env.reset(seed=seed + games)
        games += 1
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = obs["action_mask"].view(bool).nonzero()[0]  # the int8 0/1 mask read as bool
                action = int(legal[rng.integers(legal.size)])
            env.step(action)
            steps += 1
            if steps % 256 == 0 and time.perf_counter() > deadline:
                break
    elapsed = time.perf_counter() - start
    env.close()
    return steps / elapsed


def run(games: list[tuple[str, dict]], seconds: float = 1.0, rounds: int = 5) -> list[dict[str, Any]]:
    """Median agent-steps/s per (game, params) and the ratio to connect_four_v3."""
    from pettingzoo.classic import connect_four_v3

    import envs

    makers: dict[str, Callable[[], Any]] = {"connect_four_v3": connect_four_v3.env}
    for name, params in games:
        label = name + ("" if not params else " " + " ".join(f"{k}={v}" for k, v in params.items()))
        makers[label] = lambda name=name, params=params: envs.make(name, **params)
    samples: dict[str, list[float]] = {k: [] for k in makers}
    for r in range(rounds):
        for label, make in makers.items():
            samples[label].append(agent_steps_per_second(make, seconds, seed=r))
    base = statistics.median(samples["connect_four_v3"])
    return [{"env": label, "median_steps_per_s": statistics.median(v), "ratio": statistics.median(v) / base,
             "samples": v} for label, v in samples.items()]


def format_table(rows: list[dict[str, Any]]) -> str:
    width = max(len(r["env"]) for r in rows)
    out = [f"{'env':<{width}}  {'agent-steps/s (median)':>22}  {'x connect_four_v3':>17}"]
    for r in rows:
        out.append(f"{r['env']:<{width}}  {r['median_steps_per_s']:>22,.0f}  {r['ratio']:>17.2f}")
    return "\n".join(out)
