# The budget probe of 2026-11-28: the shipped Squeeze hard (80000 units of work) and copies at 60000 and 50000,
# 10 games each against medium, seed 5, two rounds in turn, one process, one BLAS thread. Run from the repository.
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 PYTHONPATH=$PWD
out=results/2026-11-squeeze-compiled/budget_probe
for work in 60000 50000; do
  python -m research.search_settings policies/squeeze_hard.npz runs/exp/squeeze_total$work/total$work.npz --set total_work=$work
done
for round in 1 2; do
  for player in hard runs/exp/squeeze_total60000/total60000.npz runs/exp/squeeze_total50000/total50000.npz; do
    echo "== round $round $player $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
    python -m research.search_think_time squeeze --player $player --opponent medium --games 10 --seed 5 \
      --rule setup=random --json $out/r${round}_$(basename $player .npz).json | tail -4
  done
done
