#!/bin/bash
# Session 2026-11-27 night, call 2: branch fwfuse (fwnext + lanes_fused) — steps per tuning, exactness at 8,192/16,384, GPU tests of the lanes switches.
set -o pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl || exit 3
export SITE=/tmp/site PYTHONUNBUFFERED=1
R=$OUT/c2; mkdir -p $R
(nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader; nproc; date -u) > $R/card.txt
cat $R/card.txt
cd .xfer/fwfuse
export PYTHONPATH=/tmp/site:$PWD
LIMIT=200 RESULTS=$R TUNINGS="lanes_fused=1 - lanes_fused=1,lanes_phase2_tiles=2 lanes_fused=1" bash benchmarks/lanes_h100.sh schedules > /dev/null
date -u
LANES_TUNING="lanes_fused=1" timeout 150 python3 -m benchmarks.probe_lanes16 8192 16384 >> $R/log.txt 2>&1
date -u
timeout 200 python3 -m pytest -q -n 16 -p no:benchmark -p no:cacheprovider tests/test_apsp_gpu.py tests/test_kernel_types.py -k "lanes or switches or copied" 2>&1 | tail -3 > $R/tests.txt
cat $R/tests.txt
grep -E "^==|steps of|phase 3 by|phases 1.2 by|registers|distances|routes|exact" $R/log.txt | cut -c1-600
date -u >> $R/card.txt
