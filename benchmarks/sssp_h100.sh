#!/bin/bash
# The H100 run of issue 15 (seed 004): every GPU SSSP variant exact on the GPU (no simulator),
# then the benchmark points of the goals. From the repository root on the GPU host:
#   RESULTS=/tmp/sssp bash benchmarks/sssp_h100.sh tests hub grid uniform crossover
# Each part writes RESULTS/<part>.json (the benchmark's report) and appends its table to
# RESULTS/log.txt. A test past its limit (tests/hang_guard.py) or past `timeout` (SIGABRT: pytest's
# faulthandler dumps every thread) leaves its name and stack in RESULTS/tests.txt.
set -u
R=${RESULTS:-/tmp/sssp-results}; mkdir -p "$R"
HUNG="passed|failed|error|still running|Fatal Python error|File .*/tests/test_"
GPU="gpu-fast-sssp gpu-delta-stepping gpu-bellman-ford gpu-spmv-csr gpu-spmv-ell gpu-dijkstra"
bench() { local name=$1; shift
  timeout "${LIMIT:-300}" python3 main.py bench --problem sssp --out "/tmp/bench-$name" "$@" \
    >>"$R/log.txt" 2>"/tmp/bench-$name.err"
  echo "== $name rc=$?" | tee -a "$R/log.txt"; cp "/tmp/bench-$name/bench.json" "$R/$name.json"; }
for part in "$@"; do case $part in
  tests) (timeout -s ABRT 200 python3 -m pytest -q -p no:cacheprovider tests/test_sssp_gpu.py
          timeout -s ABRT 200 python3 -m pytest -q -p no:cacheprovider tests/test_sssp_variants.py -k gpu
         ) >"$R/tests.txt" 2>&1; grep -E "$HUNG" "$R/tests.txt" ;;
  hub) bench hub --families --airports hub-atl regional --sources 1 96 all --budget 0.5 \
         --variants $GPU cpu-dijkstra cpu-bellman-ford scipy networkx fw-gpu-fast ;;
  grid) bench grid --families grid --sizes 4194304 --sources 1 --no-airports \
          --variants gpu-fast-sssp gpu-spmv-csr gpu-spmv-ell cpu-dijkstra cpu-bellman-ford scipy ;;
  uniform) bench uniform --families uniform --degree 6 --sizes 5000000 --sources 1 --no-airports \
             --variants gpu-fast-sssp gpu-spmv-csr gpu-spmv-ell gpu-bellman-ford cpu-dijkstra scipy ;;
  crossover) bench crossover --families grid uniform --degree 2 8 32 128 --sizes 1024 2048 4096 8192 \
               --sources all --no-airports --variants gpu-fast-sssp fw-gpu-fast ;;
  ladders) bench ladders-grid --families grid --sizes 4096 65536 1048576 4194304 --sources 1 96 \
             --no-airports --variants $GPU cpu-dijkstra cpu-bellman-ford scipy networkx
           bench ladders-uniform --families uniform --degree 6 --sizes 16384 262144 5000000 \
             --sources 1 --no-airports --variants $GPU cpu-dijkstra cpu-bellman-ford scipy ;;
esac; done
