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
import resource
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
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


def warmup(cases: list[tuple[str, dict[str, Any]]], out=sys.stderr, jobs: int = 1) -> float:
    """Compile every part of every (name, params) case into the cache, a progress line each; returns seconds.

    With ``jobs`` above 1, that many parts compile at once, each in a process of its own (numba compiles on one
    core), the hards' searches (the longest) first; the cache they fill is the one every process reads."""
    from envs.core.jit import stamp_dir

    parts = [(name, params, part) for name, params in cases for part in PARTS]
    if jobs > 1:
        parts.sort(key=lambda job: job[2] != "hard")  # stable: the hards first, in the cases' order
    print(f"swgym warmup: compiling {len(parts)} parts into {stamp_dir()}", file=out, flush=True)
    start = time.perf_counter()
    progress = _Progress(len(parts), out)
    if jobs <= 1:
        for name, params, part in parts:
            progress.began(name, params, part)
            first_use(name, params=params, part=part)
            progress.ended(name, params, part)
    else:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(_in_a_process, progress, *job) for job in parts]
            try:
                for done in as_completed(futures):
                    done.result()
            except BaseException:
                pool.shutdown(cancel_futures=True)  # the parts not begun; the running ones end first
                raise
    total = time.perf_counter() - start
    print(f"swgym warmup: done in {total:.0f} s", file=out, flush=True)
    return total


class _Progress:
    """The warm-up's progress lines: a bar of the parts done, then what began or ended (and its seconds)."""

    def __init__(self, total: int, out) -> None:
        self.total, self.done, self.out, self.began_at, self.lock = total, 0, out, {}, threading.Lock()

    def began(self, name: str, params: dict[str, Any], part: str) -> None:
        with self.lock:
            self.began_at[(name, repr(params), part)] = time.perf_counter()
            print(f"{_bar(self.done, self.total)} {_label(name, params)}: {part} ...", file=self.out, flush=True)

    def ended(self, name: str, params: dict[str, Any], part: str) -> None:
        with self.lock:
            self.done += 1
            seconds = time.perf_counter() - self.began_at[(name, repr(params), part)]
            line = f"{_bar(self.done, self.total)} {_label(name, params)}: {part} {seconds:.1f} s"
            print(line, file=self.out, flush=True)


def _label(name: str, params: dict[str, Any]) -> str:
    return name + "".join(f" {key}={value}" for key, value in params.items())


def _in_a_process(progress: _Progress, name: str, params: dict[str, Any], part: str) -> None:
    """:func:`first_use` of one part in a new process (its compile notices kept back: the bar says it)."""
    progress.began(name, params, part)
    done = subprocess.run(_first_use_argv(name, part, params), capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"swgym warmup: {_label(name, params)}: {part} failed:\n{done.stderr.strip()}")
    progress.ended(name, params, part)


def _first_use_argv(name: str, part: str, params: dict[str, Any]) -> list[str]:
    """The command of a new Python process that runs :func:`first_use` of ``part`` once."""
    return [sys.executable, "-c", f"from scripts.warmup import first_use; first_use({name!r}, {part!r}, {params!r})"]


def _timed_process(name: str, part: str, params: dict[str, Any], cache: str) -> float:
    """Wall-clock seconds of a new Python process that imports the package and runs ``part`` once."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    began = time.perf_counter()
    done = subprocess.run(_first_use_argv(name, part, params), env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - began
    if done.returncode != 0:
        raise RuntimeError(f"{name} {part}: the timed process failed:\n{done.stderr.strip()}")
    return seconds


def _children_cpu() -> float:
    """CPU seconds (user and system) of this process's finished child processes."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _measured(name: str, part: str, params: dict[str, Any], cache: str) -> tuple[float, float]:
    """(wall-clock, CPU) seconds of :func:`_timed_process`: the CPU seconds hold under another process's load,
    the wall clock does not."""
    before = _children_cpu()
    wall = _timed_process(name, part, params, cache)
    return wall, _children_cpu() - before


def cold_run(
    cases: list[tuple[str, dict[str, Any]]], out=sys.stderr, parts: tuple[str, ...] = PARTS
) -> list[dict[str, Any]]:
    """Per case and part (of ``parts``): the seconds (wall clock and CPU) of a first use in a new empty cache
    (cold), then again in it (warm), with the load average (1 minute) before the cold one."""
    rows = []
    for name, params in cases:
        for part in parts:
            load = os.getloadavg()[0]
            with tempfile.TemporaryDirectory(prefix="swgym-cold-") as cache:
                print(f"swgym bench --cold: {name} {part}, cold ...", file=out, flush=True)
                cold, cold_cpu = _measured(name, part, params, cache)
                warm, warm_cpu = _measured(name, part, params, cache)
            print(f"  cold {cold:.1f} s ({cold_cpu:.1f} s CPU), warm {warm:.1f} s", file=out, flush=True)
            times = {"cold_s": cold, "warm_s": warm, "cold_cpu_s": cold_cpu, "warm_cpu_s": warm_cpu}
            rows.append({"game": name, "params": params, "part": part, **times, "load": load})
    return rows


def format_cold_table(rows: list[dict[str, Any]]) -> str:
    """The cold and warm seconds as a table: wall clock, then CPU, and the load average."""
    lines = [
        "| game | first use | cold (s) | warm (s) | cold CPU (s) | warm CPU (s) | load |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        label = r["game"] + "".join(f" {k}={v}" for k, v in r["params"].items())
        what = "make_vec's first step" if r["part"] == "engine" else "the hard's first move"
        seconds = f"{r['cold_s']:.1f} | {r['warm_s']:.1f} | {r['cold_cpu_s']:.1f} | {r['warm_cpu_s']:.1f}"
        lines.append(f"| {label} | {what} | {seconds} | {r['load']:.1f} |")
    return "\n".join(lines)


def save_cold(rows: list[dict[str, Any]], path: str) -> None:
    with open(path, "w") as f:
        json.dump(rows, f, indent=2)
