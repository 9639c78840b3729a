#!/bin/bash
# The H100 run of issue 19: gpu-fast's end to end beside its solve, and the paper's blocked
# kernel, in one call. From the repository root on the GPU host:
#   RESULTS=$OUT BASE=.dev/base bash benchmarks/e2e_h100.sh tests new base blocked
#   RESULTS=$OUT TESTS=copied bash benchmarks/e2e_h100.sh tests table   # the README's table
# base: the same benchmark on another checkout (BASE: e.g. `git archive` of the commit before).
# Each part writes RESULTS/<part>.json (the benchmark's report) and appends its table to
# RESULTS/log.txt.
set -u
R=${RESULTS:-/tmp/e2e-results}; mkdir -p "$R"; R=$(cd "$R" && pwd)
bench() { local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout "${LIMIT:-400}" python3 main.py bench --out "/tmp/bench-$name" \
     --density 15 --bisect 0 "$@") >>"$R/log.txt" 2>"$R/$name.err"
  echo "== $name rc=$?" | tee -a "$R/log.txt"; cp "/tmp/bench-$name/bench.json" "$R/$name.json"; }
for part in "$@"; do case $part in
  tests) timeout -s ABRT 300 python3 -m pytest -q -p no:cacheprovider tests/test_apsp_gpu.py \
           tests/test_buffer_pool.py -k "${TESTS:-not nothing}" >"$R/tests.txt" 2>&1
         tail -3 "$R/tests.txt" ;;
  new) bench new . --variants gpu-fast --sizes 500 8192 16384 25600 27648 --airports hub-atl ;;
  table) bench table . --variants gpu-fast gpu-blocked --sizes 500 8192 16384 25600 27648 \
           --airports hub-atl ;;
  base) bench base "${BASE:-.dev/base}" --variants gpu-fast --sizes 8192 16384 --no-airports ;;
  blocked) bench blocked . --variants gpu-blocked --sizes 8192 16384 --no-airports ;;
esac; done
