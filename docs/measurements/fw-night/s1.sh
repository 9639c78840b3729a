#!/bin/bash
# Session 2026-11-27 night, call 1: branch fwnext (main + fwtile's wide phase 3, rebased) against main (BASE = this root).
set -o pipefail
ROOT=$PWD
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl || exit 3
export SITE=/tmp/site PYTHONUNBUFFERED=1
R=$OUT/c1; mkdir -p $R
(nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader; nproc; date -u) > $R/card.txt
cat $R/card.txt
cd .xfer/fwnext
export PYTHONPATH=/tmp/site:$PWD
timeout 220 python3 -m pytest -q -n 16 -p no:benchmark -p no:cacheprovider tests/test_apsp_gpu.py tests/test_kernel_types.py tests/test_variant_warmup.py 2>&1 | tail -5 > $R/tests.txt
cat $R/tests.txt; date -u
RESULTS=$R BASE=$ROOT REPS=1 bash benchmarks/lanes_h100.sh steps > /dev/null
date -u
RESULTS=$R TUNINGS="lanes_phase2_tiles=2 -" bash benchmarks/lanes_h100.sh schedules > /dev/null
date -u
grep -E "^==|steps of|phase 3 by|phases 1.2 by|registers|total" $R/log.txt | cut -c1-400
date -u >> $R/card.txt
