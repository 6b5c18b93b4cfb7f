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


# -- the batched engines (swgym bench --batch) -------------------------------------------
BATCH_SIZES = (1, 256, 4096)


def batched_steps_per_second(name: str, params: dict, num_envs: int, seconds: float, seed: int = 0) -> float:
    """Random legal play on ``num_envs`` boards for about ``seconds``: agent-steps/s.

    Each step builds every board's mask and its mover's observation, picks a
    random legal action per board (in the kernel) and steps with autoreset, so
    every board makes one agent-step per call.
    """
    import envs

    batch = envs.make_batched(name, num_envs, seed=seed, **params)
    obs = np.empty((num_envs, batch.obs_size), dtype=np.float32)
    calls = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(16):
            batch.legal_mask()
            batch.observe(batch.to_move, out=obs)
            batch.step(batch.random_actions(), autoreset=True)
        calls += 16
        if time.perf_counter() > deadline:
            break
    return calls * num_envs / (time.perf_counter() - start)


def batch_run(games: list[tuple[str, dict]], seconds: float = 1.0, rounds: int = 5,
              sizes: tuple[int, ...] = BATCH_SIZES) -> list[dict[str, Any]]:
    """Median agent-steps/s of each game's batched engine at each N, its AEC env and connect_four_v3, interleaved."""
    from pettingzoo.classic import connect_four_v3

    import envs
    from envs.registry import entry

    cases = [(n, p) for n, p in games if entry(n).batched]
    makers: dict[tuple[str, str], Callable[[int], float]] = {
        ("connect_four_v3", "AEC"): lambda r: agent_steps_per_second(connect_four_v3.env, seconds, seed=r)}
    for name, params in cases:
        label = name + ("" if not params else " " + " ".join(f"{k}={v}" for k, v in params.items()))
        makers[(label, "AEC")] = lambda r, name=name, params=params: agent_steps_per_second(
            lambda: envs.make(name, **params), seconds, seed=r)
        for n in sizes:
            envs.make_batched(name, n, **params)  # load (or compile) the kernels before timing
            makers[(label, f"N={n}")] = lambda r, name=name, params=params, n=n: batched_steps_per_second(
                name, params, n, seconds, seed=r)
    samples: dict[tuple[str, str], list[float]] = {k: [] for k in makers}
    for r in range(rounds):
        for key, measure in makers.items():
            samples[key].append(measure(r))
    base = statistics.median(samples[("connect_four_v3", "AEC")])
    rows = []
    for (label, how), v in samples.items():
        aec = statistics.median(samples[(label, "AEC")])
        rows.append({"env": label, "engine": how, "median_steps_per_s": statistics.median(v),
                     "ratio": statistics.median(v) / base, "x_aec": statistics.median(v) / aec, "samples": v})
    return rows


def format_batch_table(rows: list[dict[str, Any]]) -> str:
    width = max(len(r["env"]) for r in rows)
    out = [(f"{'env':<{width}}  {'engine':>7}  {'agent-steps/s (median)':>22}  {'x connect_four_v3':>17}  "
            f"{'x AEC':>7}")]
    for r in rows:
        out.append(f"{r['env']:<{width}}  {r['engine']:>7}  {r['median_steps_per_s']:>22,.0f}  "
                   f"{r['ratio']:>17.2f}  {r['x_aec']:>7.1f}")
    return "\n".join(out)


# -- MaskablePPO end to end (swgym bench --ppo) ----------------------------------------------
def ppo_run(game: str = "swival", num_envs: int = 256, steps: int = 65_536, n_steps: int = 32,
            single_envs: int = 8, single_steps: int = 4096, seed: int = 0) -> list[dict[str, Any]]:
    """MaskablePPO env steps/s on the batched vector env and on the single-agent env (DummyVecEnv), and where
    the batched run's time goes: the vector env's step (engine + opponent), the rollout's torch forward passes
    and masks, and the updates."""
    import gymnasium
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    from envs.registry import entry
    from training.sb3_vec import make_sb3_vec

    torch.set_num_threads(1)
    rows = []
    vec = make_sb3_vec(game, num_envs, opponent="random", seed=seed)
    env_time = [0.0]
    step = vec.venv.step

    def timed_step(actions):
        t = time.perf_counter()
        out = step(actions)
        env_time[0] += time.perf_counter() - t
        return out

    vec.venv.step = timed_step
    model = MaskablePPO("MlpPolicy", vec, n_steps=n_steps, batch_size=2048, n_epochs=1, seed=seed, verbose=0)
    model.learn(n_steps * num_envs)  # warm-up: kernels, torch
    env_time[0] = 0.0
    train_time = [0.0]
    train = model.train

    def timed_train():
        t = time.perf_counter()
        train()
        train_time[0] += time.perf_counter() - t

    model.train = timed_train
    start = time.perf_counter()
    model.learn(steps, reset_num_timesteps=True)
    total = time.perf_counter() - start
    rows.append({"run": f"batched vector env, N={num_envs}", "env_steps_per_s": model.num_timesteps / total,
                 "env_s": env_time[0], "update_s": train_time[0],
                 "rollout_other_s": total - env_time[0] - train_time[0], "total_s": total})
    single = make_vec_env(lambda: gymnasium.make(entry(game).gym_id, opponent="random"),
                          n_envs=single_envs, seed=seed)
    model = MaskablePPO("MlpPolicy", single, n_steps=n_steps * 8, batch_size=256, n_epochs=1, seed=seed, verbose=0)
    start = time.perf_counter()
    model.learn(single_steps)
    total = time.perf_counter() - start
    rows.append({"run": f"single-agent env, DummyVecEnv x{single_envs}", "env_steps_per_s": model.num_timesteps / total,
                 "env_s": float("nan"), "update_s": float("nan"), "rollout_other_s": float("nan"), "total_s": total})
    return rows


def format_ppo_table(rows: list[dict[str, Any]]) -> str:
    out = [f"{'run':<34}  {'env steps/s':>11}  {'vector env s':>12}  {'rollout torch s':>15}  {'updates s':>9}"]
    for r in rows:
        out.append(f"{r['run']:<34}  {r['env_steps_per_s']:>11,.0f}  {r['env_s']:>12.2f}  "
                   f"{r['rollout_other_s']:>15.2f}  {r['update_s']:>9.2f}")
    return "\n".join(out)


def bench_batched(args: Any) -> None:
    """``swgym bench --batch`` / ``--ppo``: print the tables (``args``: the bench command's arguments)."""
    import json
    from pathlib import Path

    from envs.registry import GAMES

    names = args.games or [n for n, e in GAMES.items() if e.batched]
    unknown = [n for n in names if n not in GAMES]
    if unknown:
        raise SystemExit(f"swgym bench: unknown game(s) {', '.join(unknown)}; the games are {', '.join(GAMES)}")
    without = [n for n in names if not GAMES[n].batched]
    if without:
        print(f"no batched engine yet: {', '.join(without)} (skipped)")
    rows: dict[str, Any] = {}
    if args.batch:
        cases = [(n, p) for n in names if GAMES[n].batched for p in (GAMES[n].variants if args.variants else [{}])]
        rows["batch"] = batch_run(cases, seconds=args.seconds, rounds=args.rounds)
        print(format_batch_table(rows["batch"]))
    if args.ppo:
        rows["ppo"] = [dict(r, game=n) for n in names if GAMES[n].batched for r in ppo_run(n)]
        print(format_ppo_table(rows["ppo"]))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))
