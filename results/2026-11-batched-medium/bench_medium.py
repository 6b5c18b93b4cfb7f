# OPENBLAS_NUM_THREADS=1 PYTHONPATH=<repo> python results/2026-11-batched-medium/bench_medium.py GAME
# One line: µs a board of medium_kernel on 256 play-phase boards (random games 10 plies in; median of 5
# windows of 50 calls), and learner env steps/s of BatchedVectorEnv(game, 256, opponent="medium") (median of 3
# runs of 40 steps).
import json
import sys
import time

import numpy as np

import envs
from envs.hexrook.batched import medium_scores
from envs.hexrook.board import PHASE_PLAY
from envs.vector import BatchedVectorEnv

game = sys.argv[1]
batch = envs.make_batched(game, 256, seed=1)
for _ in range(200):
    batch.reset_done()
    phase = batch.arrays["phase"]
    if (phase == PHASE_PLAY).all() and (batch.arrays["plies"] >= 10).all():
        break
    actions = batch.random_actions()
    ready = (phase == PHASE_PLAY) & (batch.arrays["plies"] >= 10)
    actions[ready] = -1
    batch.step(actions)
boards = np.flatnonzero((batch.arrays["phase"] == PHASE_PLAY) & ~batch.over)
medium_scores(batch, boards)
per_board = []
for _ in range(5):
    t = time.perf_counter()
    for _ in range(50):
        medium_scores(batch, boards)
    per_board.append((time.perf_counter() - t) / 50 / boards.size * 1e6)

vec = BatchedVectorEnv(game, 256, opponent="medium", seed=0)
vec.reset(seed=0)
for _ in range(3):
    vec.step(vec.action_masks().argmax(axis=1))
rates = []
for _ in range(3):
    t = time.perf_counter()
    for _ in range(40):
        vec.step(vec.action_masks().argmax(axis=1))
    rates.append(256 * 40 / (time.perf_counter() - t))
print(
    json.dumps(
        {
            "game": game,
            "boards": int(boards.size),
            "us_per_board": sorted(per_board)[2],
            "env_steps_per_s": sorted(rates)[1],
            "windows": per_board,
            "runs": rates,
        }
    )
)
