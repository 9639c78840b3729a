#!/bin/bash
# Session 2026-11-27 night, call 4: fwint (wide + lanes_lookahead + lanes_marks16 + lanes_vias16 + lanes_batched_stores, all switches) — steps per tuning at 16,384, exactness of all switches, GPU tests.
set -o pipefail
ROOT=$PWD
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl || exit 3
export SITE=/tmp/site PYTHONUNBUFFERED=1
R=$OUT/c4; mkdir -p $R
(nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader; nproc; date -u) > $R/card.txt
cat $R/card.txt
cd $ROOT/.xfer/fwint
export PYTHONPATH=/tmp/site:$PWD
ALL="lanes_lookahead=1,lanes_marks16=1,lanes_vias16=1,lanes_batched_stores=1"
LIMIT=150 RESULTS=$R TUNINGS="$ALL lanes_lookahead=1,lanes_marks16=1,lanes_vias16=1 lanes_marks16=1,lanes_batched_stores=1 - lanes_lookahead=1,lanes_marks16=1,lanes_batched_stores=1 $ALL" bash benchmarks/lanes_h100.sh schedules > /dev/null
date -u
LANES_TUNING="${ALL//,/ }" timeout 200 python3 -m benchmarks.probe_lanes16 8192 16384 16384u >> $R/log.txt 2>&1
date -u
timeout 220 python3 -m pytest -q -n 16 -p no:benchmark -p no:cacheprovider tests/test_apsp_gpu.py tests/test_kernel_types.py 2>&1 | tail -4 > $R/tests.txt
cat $R/tests.txt
grep -E "^==|steps of|phase 3 by|phases 1.2 by|registers|distances|routes|exact|int32 " $R/log.txt | cut -c1-700
date -u >> $R/card.txt
