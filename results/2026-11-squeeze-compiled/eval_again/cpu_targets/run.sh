#!/bin/sh
# The hards' moves and values at the same positions, with numba compiling for five CPU targets (each into its own
# cache). From the repository's root: sh results/2026-11-squeeze-compiled/eval_again/cpu_targets/run.sh OUT
set -e
OUT=$1
mkdir -p "$OUT"
P=results/2026-11-squeeze-compiled/eval_again/cpu_targets/probe.py
export OPENBLAS_NUM_THREADS=1 PYTHONPATH=$PWD
PY=${PYTHON:-.venv/bin/python}
"$PY" "$P" 4 > "$OUT/znver4.json"  # this machine's own target
NUMBA_CPU_NAME=haswell NUMBA_CACHE_DIR="$OUT/cache_haswell" "$PY" "$P" 4 > "$OUT/haswell.json"
NUMBA_CPU_NAME=znver3 NUMBA_CACHE_DIR="$OUT/cache_znver3" "$PY" "$P" 4 > "$OUT/znver3.json"
NUMBA_CPU_NAME=znver3 NUMBA_CACHE_DIR="$OUT/cache_avx2" NUMBA_CPU_FEATURES="+64bit,+avx,+avx2,+fma,+sse,+sse2,+sse3,+ssse3,+sse4.1,+sse4.2,+popcnt,+cx16,+f16c,+bmi,+bmi2,+lzcnt,+movbe,+xsave,-avx512f,-avx512bw,-avx512cd,-avx512dq,-avx512vl" \
    "$PY" "$P" 4 > "$OUT/avx2.json"
NUMBA_CPU_NAME=sandybridge NUMBA_CACHE_DIR="$OUT/cache_avx" NUMBA_CPU_FEATURES="+64bit,+avx,+sse,+sse2,+sse3,+ssse3,+sse4.1,+sse4.2,+popcnt,+cx16,-avx2,-fma,-avx512f" \
    "$PY" "$P" 4 > "$OUT/avx.json"
