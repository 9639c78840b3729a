#!/usr/bin/env bash
# A small hub study (benchmarks/sweep_scaling.py --parts study) in another checkout and in this
# tree, alternated: other, this, other, this; each run's days per minute and its CPU (user, sys:
# /usr/bin/time, the workers included), then whether both gave the same runs.csv. From the root:
#   bash benchmarks/sweep_study_ab.sh OTHER_TREE OUT [ROUNDS] [sweep_scaling.py options...]
# Default options: --workers 1,2 --study-seeds 2 --study-fleets 300,600 --study-hours 6
set -uo pipefail
other=$(cd "${1:?usage: sweep_study_ab.sh OTHER_TREE OUT [ROUNDS] [options...]}" && pwd)
out=${2:?} rounds=${3:-2}
shift $(($# < 3 ? $# : 3))
opts=("$@")
[ ${#opts[@]} -gt 0 ] || opts=(--workers 1,2 --study-seeds 2 --study-fleets 300,600 --study-hours 6)
here=$PWD python=${PYTHON:-python3}
nproc; date -u; uptime
for r in $(seq "$rounds"); do
    for side in other this; do
        tree=$here; [ $side = other ] && tree=$other
        echo "== $side, round $r ($tree, $(git -C "$tree" rev-parse --short HEAD 2>/dev/null || echo 'no git'); $(date -u +%T))"
        (cd "$tree" && PYTHONPATH=$tree /usr/bin/time -f "$side: %e s wall, %U s user CPU, %S s sys" \
            "$python" benchmarks/sweep_scaling.py "$out/$side-$r" --runner pool --parts study "${opts[@]}" 2>&1 \
            | grep -E "warm-up|study: .* in |wall")
    done
done
uptime
for r in $(seq "$rounds"); do
    cmp "$out/other-$r/hub-study/runs.csv" "$out/this-$r/hub-study/runs.csv" && echo "round $r: runs.csv identical"
done
