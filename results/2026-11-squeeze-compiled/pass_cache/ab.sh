#!/bin/sh
# Interleaved A/B of the shipped compiled hards' CPU time a move: A = a checkout of 69a55ea (before the pass
# cache and the aligned arrays), B = this checkout. Each run is a fresh process of research.search_think_time
# (10 games against medium, seed 5, one process, one BLAS thread), from its own checkout's directory.
# Usage: ab.sh <checkout of 69a55ea> <this checkout> <out dir> [rounds]
set -e
A=$(cd "$1" && pwd); B=$(cd "$2" && pwd); OUT=$(mkdir -p "$3" && cd "$3" && pwd); ROUNDS=${4:-3}
PY=${PYTHON:-$B/.venv/bin/python}
for r in $(seq 1 "$ROUNDS"); do
  for game in squeeze swish; do
    rule=""; [ "$game" = squeeze ] && rule="--rule setup=random"
    for side in A B; do
      dir=$A; [ "$side" = B ] && dir=$B
      (cd "$dir" && OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 PYTHONPATH="$dir" "$PY" -m research.search_think_time \
        "$game" --player hard --opponent medium --games 10 --seed 5 $rule --json "$OUT/${game}_${side}_r$r.json" \
        > "$OUT/${game}_${side}_r$r.txt")
      echo "round $r $game $side done $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"
    done
  done
done
