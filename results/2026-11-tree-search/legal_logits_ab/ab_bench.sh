#!/bin/bash
G="swival twirls swimming swahili swish squeeze"
PY=/work/main/.venv/bin/python
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
cd /work/main && PYTHONPATH=/work/main $PY -m scripts.cli bench --search $G --seconds 0.2 --rounds 1 >/dev/null 2>&1
echo "warmed $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in 1 2 3; do
  for v in before after; do
    d=/tmp/s58/before; [ $v = after ] && d=/work/main
    cd $d
    echo "round $r $v bench start $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg) code $($PY -c 'import scripts.bench as b; print(b.__file__)')"
    PYTHONPATH=$d $PY -m scripts.cli bench --search $G --seconds 1 --rounds 1 --json /tmp/s58/bench3_${v}_r$r.json > /tmp/s58/bench3_${v}_r$r.txt 2>&1
  done
done
echo "done $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
