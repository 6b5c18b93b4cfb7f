# A 256 x 256 layer of k rows: the compiled search's loop (envs.core.alpha_beta._next_layer, weights (out, in))
# against numba's BLAS binding (np.dot with an output, scipy's sgemm; weights (in, out)) in calls of 8 rows.
# Needs scipy (numba's BLAS binding), which the project does not install:
#   pip install --target /tmp/scipy_site scipy   (then remove the numpy it brings along from /tmp/scipy_site)
#   OPENBLAS_NUM_THREADS=1 PYTHONPATH=$PWD:/tmp/scipy_site python results/2026-11-alpha-beta-blas/layer_bench.py
import time

import numba
import numpy as np

from envs.core.alpha_beta import _next_layer


@numba.njit(_nrt=True, cache=False)
def _gemm(inputs, r0, r1, w, out):
    np.dot(inputs[r0:r1], w, out[r0:r1])


@numba.njit(_nrt=False, cache=False, fastmath=True)
def blas_layer(inputs, k, w, b, out):
    n_out = w.shape[1]
    r = 0
    while r < k:
        r1 = min(r + 8, k)
        _gemm(inputs, r, r1, w, out)
        r = r1
    for r in range(k):
        for j in range(n_out):
            out[r, j] += b[j]


@numba.njit(_nrt=False, cache=False)
def many(f, inputs, k, w, b, out, reps):
    for _ in range(reps):
        f(inputs, k, w, b, out)


rng = np.random.default_rng(0)
w = rng.standard_normal((256, 256)).astype(np.float32)
wt = np.ascontiguousarray(w.T)
b = rng.standard_normal(256).astype(np.float32)
x = rng.standard_normal((64, 256)).astype(np.float32)
o1 = np.zeros((64, 256), np.float32)
o2 = np.zeros((64, 256), np.float32)
for k in (1, 2, 4, 8, 12, 16, 24, 30):
    _next_layer(x, k, w, b, o1)
    blas_layer(x, k, wt, b, o2)
    assert np.allclose(o1[:k], o2[:k], atol=1e-3), np.abs(o1[:k] - o2[:k]).max()
    res = {}
    for name, f, ww in (("loop", _next_layer, w), ("blas", blas_layer, wt)):
        many(f, x, k, ww, b, o1, 10)
        best = 1e9
        for _ in range(5):
            t = time.perf_counter()
            many(f, x, k, ww, b, o1, 2000)
            best = min(best, (time.perf_counter() - t) / 2000 / k * 1e6)
        res[name] = best
    print(k, {n: round(v, 2) for n, v in res.items()}, "us/row")
