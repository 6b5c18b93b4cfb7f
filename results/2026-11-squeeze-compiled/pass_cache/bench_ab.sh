#!/bin/sh
# Interleaved A/B of `swgym bench --search` (one round a run) for Twirls, Swish and Squeeze: A a checkout of
# 69a55ea, B this one (which, when these files were made, also put the plain action head's rows of the tree
# search on cache lines; not kept: its tree rows did not change). Each run from its own checkout's directory.
# Usage: bench_ab.sh <checkout of 69a55ea> <this checkout> <out dir> [rounds]
set -e
A=$(cd "$1" && pwd); B=$(cd "$2" && pwd); OUT=$(mkdir -p "$3" && cd "$3" && pwd); ROUNDS=${4:-3}
PY=${PYTHON:-$B/.venv/bin/python}
for r in $(seq 1 "$ROUNDS"); do
  for side in A B; do
    dir=$A; [ "$side" = B ] && dir=$B
    (cd "$dir" && OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 PYTHONPATH="$dir" SDL_VIDEODRIVER=dummy "$PY" -m scripts.cli \
      bench --search --rounds 1 --json "$OUT/${side}_r$r.json" twirls swish squeeze > "$OUT/${side}_r$r.txt" 2>&1)
    echo "round $r $side $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"
  done
done
