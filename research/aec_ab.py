"""AEC-only A/B between two checkouts: random play through five games' AEC envs (2 seconds each after a
warm-up), and the Twirls AEC env's start-up (import, make, reset, first move), a fresh process per side and
round, rounds interleaved. Prints medians, B over A and every round.

    python -m research.aec_ab /path/to/checkout/A /path/to/checkout/B [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

GAMES = [("twirls", {}), ("swimming", {"num_players": 4}), ("squeeze", {}), ("swish", {"setup": "marquisian"})]
GAMES.append(("swival", {}))

PLAY = """
import json, time
import numpy as np
import envs
out = {}
for name, params in json.loads(%r):
    env = envs.make(name, **params)
    rng = np.random.default_rng(0)
    def play(seconds):
        steps, episode, t0 = 0, 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            env.reset(seed=episode)
            episode += 1
            for agent in env.agent_iter():
                obs, reward, terminated, truncated, info = env.last()
                done = terminated or truncated
                env.step(None if done else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
                steps += 1
        return steps / (time.perf_counter() - t0)
    play(0.3)
    out[name + " " + json.dumps(params)] = play(2.0)
print(json.dumps(out))
"""

STARTUP = """
import time
t0 = time.perf_counter()
import numpy as np
import envs
env = envs.make("twirls")
env.reset(seed=0)
env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
print(time.perf_counter() - t0)
"""


def child(checkout: str, code: str) -> str:
    """What a fresh process with ``checkout``'s sources first on the path prints."""
    env = {**os.environ, "PYTHONPATH": checkout, "OPENBLAS_NUM_THREADS": "1", "SDL_VIDEODRIVER": "dummy"}
    done = subprocess.run([sys.executable, "-c", code], cwd=checkout, env=env, capture_output=True, text=True)
    done.check_returncode()
    return done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    sides = {"A": args.before, "B": args.after}
    speeds: dict[str, dict[str, list[float]]] = {side: {} for side in sides}
    startup: dict[str, list[float]] = {side: [] for side in sides}
    for _ in range(args.rounds):
        for side, checkout in sides.items():
            for label, value in json.loads(child(checkout, PLAY % json.dumps(GAMES))).items():
                speeds[side].setdefault(label, []).append(value)
            startup[side].append(float(child(checkout, STARTUP)))
    for label, a_rounds in speeds["A"].items():
        b_rounds = speeds["B"][label]
        a, b = statistics.median(a_rounds), statistics.median(b_rounds)
        spread = f"A {min(a_rounds):,.0f}-{max(a_rounds):,.0f}, B {min(b_rounds):,.0f}-{max(b_rounds):,.0f}"
        print(f"{label:35s} A {a:9,.0f}  B {b:9,.0f}  B/A {b / a:.3f}  ({spread})")
    a, b = statistics.median(startup["A"]), statistics.median(startup["B"])
    print(f"twirls AEC start-up (import envs, make, reset, first move), s: A {a:.3f}  B {b:.3f}")


if __name__ == "__main__":
    main()
