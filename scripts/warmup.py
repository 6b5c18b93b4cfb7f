"""Compile ahead (``swgym warmup``) and measure what a first use waits for (``swgym bench --cold``).

Every engine and the shipped hards' searches are numba kernels, compiled on
first use and cached on disk (``envs.core.jit``: one cache for every clone of
the same source). ``warmup`` pays that once, with progress, so that the first
game, evaluation or training run starts at once. ``cold`` times the first use
in fresh processes, in an empty temporary cache and then warm in the same
cache, as a new user meets it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

#: What a first use runs, by part: the batched engine's first reset and step (``make_vec``), and the shipped hard
#: opponent's first move from the initial position (``make_opponent(...).act``).
PARTS = ("engine", "hard")


def shipped_cases(names: list[str] | None = None) -> list[tuple[str, dict[str, Any]]]:
    """(name, params) of every game in ``names`` (default all): its default rules and each variant that ships a
    hard opponent."""
    from pathlib import Path

    import policies
    from envs.registry import GAMES, policy_file

    shipped = Path(policies.__file__).parent
    cases = []
    for name in names or list(GAMES):
        for k, params in enumerate(GAMES[name].variants):
            if k == 0 or (shipped / policy_file(name, **params)).exists():
                cases.append((name, dict(params) if k else {}))
    return cases


def first_use(name: str, part: str, params: dict[str, Any] | None = None) -> None:
    """Run ``part`` of game ``name`` once: the engine's first reset and step, or the hard's first move."""
    import numpy as np

    import envs
    from envs.opponents import make_opponent

    params = params or {}
    if part == "engine":
        vec = envs.make_vec(name, 8, opponent="random", seed=0, **params)
        vec.reset(seed=0)
        vec.step(np.array([np.flatnonzero(row)[0] for row in vec.action_masks()]))
        vec.close()
    elif part == "hard":
        env = envs.make(name, **params)
        env.reset(seed=0)
        observation = env.last()[0]
        hard = make_opponent(name, "hard", seed=0, **params)
        hard.act(observation["observation"], observation["action_mask"], env.unwrapped.game_state)
    else:
        raise ValueError(f"unknown part {part!r}: one of {', '.join(PARTS)}")


def _bar(done: int, total: int, width: int = 24) -> str:
    filled = round(width * done / total) if total else width
    return "[" + "#" * filled + "-" * (width - filled) + f"] {done}/{total}"


def warmup(cases: list[tuple[str, dict[str, Any]]], out=sys.stderr) -> float:
    """Compile every part of every (name, params) case into the cache, a progress line each; returns seconds."""
    from envs.core.jit import stamp_dir

    jobs = [(name, params, part) for name, params in cases for part in PARTS]
    print(f"swgym warmup: compiling {len(jobs)} parts into {stamp_dir()}", file=out, flush=True)
    start = time.perf_counter()
    for k, (name, params, part) in enumerate(jobs):
        label = name + "".join(f" {key}={value}" for key, value in params.items())
        print(f"{_bar(k, len(jobs))} {label}: {part} ...", file=out, flush=True)
        began = time.perf_counter()
        first_use(name, part, params)
        print(f"{_bar(k + 1, len(jobs))} {label}: {part} {time.perf_counter() - began:.1f} s", file=out, flush=True)
    total = time.perf_counter() - start
    print(f"swgym warmup: done in {total:.0f} s", file=out, flush=True)
    return total


def _timed_process(name: str, part: str, params: dict[str, Any], cache: str) -> float:
    """Wall-clock seconds of a new Python process that imports the package and runs ``part`` once."""
    code = f"from scripts.warmup import first_use; first_use({name!r}, {part!r}, {params!r})"
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - began
    if done.returncode != 0:
        raise RuntimeError(f"{name} {part}: the timed process failed:\n{done.stderr.strip()}")
    return seconds


def cold_run(
    cases: list[tuple[str, dict[str, Any]]], out=sys.stderr, parts: tuple[str, ...] = PARTS
) -> list[dict[str, Any]]:
    """Per case and part (of ``parts``): the seconds of a first use in a new empty cache (cold), then again in it
    (warm)."""
    rows = []
    load = os.getloadavg()[0]
    for name, params in cases:
        for part in parts:
            with tempfile.TemporaryDirectory(prefix="swgym-cold-") as cache:
                print(f"swgym bench --cold: {name} {part}, cold ...", file=out, flush=True)
                cold = _timed_process(name, part, params, cache)
                warm = _timed_process(name, part, params, cache)
            print(f"  cold {cold:.1f} s, warm {warm:.1f} s", file=out, flush=True)
            rows.append({"game": name, "params": params, "part": part, "cold_s": cold, "warm_s": warm, "load": load})
    return rows


def format_cold_table(rows: list[dict[str, Any]]) -> str:
    """The cold and warm seconds as a table."""
    lines = ["| game | first use | cold (s) | warm (s) |", "|---|---|---:|---:|"]
    for r in rows:
        label = r["game"] + "".join(f" {k}={v}" for k, v in r["params"].items())
        what = "make_vec's first step" if r["part"] == "engine" else "the hard's first move"
        lines.append(f"| {label} | {what} | {r['cold_s']:.1f} | {r['warm_s']:.1f} |")
    return "\n".join(lines)


def save_cold(rows: list[dict[str, Any]], path: str) -> None:
    with open(path, "w") as f:
        json.dump(rows, f, indent=2)
