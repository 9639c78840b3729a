#!/bin/bash
# The device run of issue 35 (16-bit lanes at n = 16,384): this checkout against BASE (e.g. a
# `git archive` of main) in one call, so before and after share a card. From the repository
# root on the GPU host:
#   RESULTS=$OUT BASE=../fwlanes_base bash benchmarks/lanes_h100.sh steps compare bench
# steps: where a lanes solve's time goes (probe_lanes16 "s"), new then base, twice each;
# compare: lanes against int32 (distances equal, 400 routes walked strictly) and phase 3 alone;
# bench: `main.py bench` of gpu-fast, new and base alternating; largest: the largest n within
# 2 s; schedules: the steps at 16,384 for each LANES_TUNING in TUNINGS ("-": this tree's
# tuning; e.g. TUNINGS="- lanes_wide=0 lanes_lookahead=0,lanes_marks16=0,lanes_vias16=0 -": commas within one); tests: the
# GPU tests; recovery: the via recovery alone for each tuning change in RECOVERY (probe_lanes16
# "r"); noise: n = 500's end to end, measured as the benchmark does, again and again
# (probe_small_noise). Every part appends to RESULTS/log.txt.
set -u
R=${RESULTS:-/tmp/lanes-results}; mkdir -p "$R"; R=$(cd "$R" && pwd)
BASE=${BASE:-../fwlanes_base}
log() { echo "== $*" | tee -a "$R/log.txt"; }
run() { local tree=$1; shift; (cd "$tree" && PYTHONPATH="$PWD:${SITE:-/tmp/site}" timeout "${LIMIT:-300}" "$@") 2>&1 | tee -a "$R/log.txt"; }
bench() { local name=$1 tree=$2; shift 2; log "bench $name ($tree): $*"
  run "$tree" python3 main.py bench --out "/tmp/bench-$name" --variants gpu-fast --density 15 "$@"
  cp "/tmp/bench-$name/bench.json" "$R/bench-$name.json"; }
for part in "$@"; do case $part in
  steps) for rep in $(seq ${REPS:-2}); do
           log "steps new, rep $rep"; run . python3 -m benchmarks.probe_lanes16 16384s 8192s
           log "steps base, rep $rep"; run "$BASE" python3 -m benchmarks.probe_lanes16 16384s 8192s
         done ;;
  compare) log "compare new"; run . python3 -m benchmarks.probe_lanes16 8192 16384 ;;
  bench) for rep in $(seq ${REPS:-2}); do
           bench "new-$rep" . --sizes 500 8192 16384 --bisect 0 --airports hub-atl
           bench "base-$rep" "$BASE" --sizes 500 8192 16384 --bisect 0 --airports hub-atl
         done ;;
  schedules) for tuning in ${TUNINGS:--}; do tuning=${tuning#-}; log "steps new, LANES_TUNING=${tuning//,/ }"
               run . env LANES_TUNING="${tuning//,/ }" python3 -m benchmarks.probe_lanes16 16384s; done ;;
  recovery) log "recovery new"; run . env LANES_RECOVERY="${RECOVERY:--}" python3 -m benchmarks.probe_lanes16 16384r ;;
  noise) log "noise new (n = 500)"; run . python3 -m benchmarks.probe_small_noise ;;
  largest) bench largest . --sizes 32768 36864 --bisect 3 --no-airports ;;
  tests) log "tests"; run . python3 -m pytest -q -n 16 -p no:benchmark -p no:cacheprovider \
           tests/test_apsp_gpu.py tests/test_kernel_types.py tests/test_variant_warmup.py ;;
esac; done
