# The plain action head of the shipped Swish network (256 x 3114) on 1024 rows of the bench's search positions:
# every logit (one matrix product, what the tree search's evaluator computes) against the legal moves' logits alone
# (a numpy gather and batched product; a numba loop of dot products). The rows are random hidden layers.
# OPENBLAS_NUM_THREADS=1 PYTHONPATH=$PWD python results/2026-11-tree-search/legal_logits_bench.py
import time

import numba
import numpy as np

from policies import shipped_path
from policies.numpy_policy import NumpyPolicy
from scripts.bench import search_positions

batch = search_positions("swish", {}, 1024)
policy = NumpyPolicy(shipped_path("swish"), game="swish", params={})
w, b = policy.head.w.astype(np.float32), policy.head.b.astype(np.float32)
wt = np.ascontiguousarray(w.T)
batch.ensure_legal()
moves = batch.arrays["moves"].astype(np.int64)
count = batch.arrays["nmoves"].astype(np.int64)
L = moves.shape[1]
valid = np.arange(L) < count[:, None]
safe = np.where(valid, moves, 0)
rng = np.random.default_rng(0)
h = rng.standard_normal((1024, 256)).astype(np.float32)
print("legal moves a row: median", int(np.median(count)), "max", int(count.max()), "width", L)


@numba.njit(cache=False, fastmath=True)
def legal_logits(h, wt, b, moves, count, out):
    for r in range(h.shape[0]):
        x = h[r]
        for j in range(count[r]):
            a = moves[r, j]
            row = wt[a]
            acc = np.float32(0.0)
            for i in range(x.shape[0]):
                acc += x[i] * row[i]
            out[r, j] = acc + b[a]


def full():
    return h @ w + b


def gather():
    g = wt[safe]  # (k, L, 256)
    return np.matmul(g, h[:, :, None])[..., 0] + b[safe]


out = np.zeros((1024, L), np.float32)
legal_logits(h, wt, b, moves, count, out)
ref = full()
for r in range(5):
    assert np.allclose(out[r, : count[r]], ref[r, moves[r, : count[r]]], atol=1e-3)
    assert np.allclose(gather()[r, : count[r]], ref[r, moves[r, : count[r]]], atol=1e-3)
for name, f in (("full", full), ("gather", gather), ("numba", lambda: legal_logits(h, wt, b, moves, count, out))):
    f()
    times = []
    for _ in range(7):
        t = time.perf_counter()
        for _ in range(5):
            f()
        times.append((time.perf_counter() - t) / 5 * 1e3)
    print(name, "ms a call of 1024 rows: median", round(sorted(times)[3], 2), [round(x, 2) for x in times])
