#!/bin/bash
# Session 2026-11-28, call 1: fwhalves (PRMT operands; lanes_mark_halves switch) against main.
set -o pipefail
ROOT=$PWD
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl || exit 3
export SITE=/tmp/site PYTHONUNBUFFERED=1
R=$OUT/h1; mkdir -p $R
(nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader; nproc; date -u) > $R/card.txt
cat $R/card.txt
cd $ROOT/.xfer/fwhalves
export PYTHONPATH=/tmp/site:$PWD
timeout 150 python3 -m pytest -q -n 16 -p no:benchmark -p no:cacheprovider tests/test_kernel_types.py tests/test_apsp_gpu.py -k "lanes or kernel" 2>&1 | tail -4 > $R/tests.txt
cat $R/tests.txt; date -u
LIMIT=100 RESULTS=$R BASE=$ROOT/.xfer/base REPS=1 bash benchmarks/lanes_h100.sh steps > /dev/null
date -u
LIMIT=100 RESULTS=$R TUNINGS="lanes_mark_halves=1 - lanes_mark_halves=1" bash benchmarks/lanes_h100.sh schedules > /dev/null
date -u
LANES_TUNING="lanes_mark_halves=1" timeout 150 python3 -m benchmarks.probe_lanes16 8192 16384 16384u >> $R/log.txt 2>&1
date -u
grep -E "^==|steps of|phase 3 by|phases 1.2 by|registers|distances|routes|exact|int32 " $R/log.txt | cut -c1-600
python3 -m benchmarks.lanes_tables $R 2>&1 | tail -12
date -u >> $R/card.txt
