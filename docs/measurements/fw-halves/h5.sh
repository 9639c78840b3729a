#!/bin/bash
# Session 2026-11-28, call 5: main after the merge of fwhalves (mark16 and quad_store refactors on top of call 2's code): GPU tests and steps.
set -o pipefail
ROOT=$PWD
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl || exit 3
export SITE=/tmp/site PYTHONUNBUFFERED=1
R=$OUT/h5; mkdir -p $R
(nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader; nproc; date -u) > $R/card.txt
cat $R/card.txt
cd $ROOT/.xfer/main
export PYTHONPATH=/tmp/site:$PWD
timeout 260 python3 -m pytest -q -n 16 -p no:benchmark -p no:cacheprovider tests/test_apsp_gpu.py tests/test_kernel_types.py tests/test_variant_warmup.py 2>&1 | tail -4 > $R/tests.txt
cat $R/tests.txt; date -u
LIMIT=100 RESULTS=$R TUNINGS="-" bash benchmarks/lanes_h100.sh schedules > /dev/null
timeout 100 python3 -m benchmarks.probe_lanes16 16384 >> $R/log.txt 2>&1
grep -E "^==|steps of|phase 3 by|registers|distances|routes|exact" $R/log.txt | cut -c1-600
python3 -m benchmarks.lanes_tables $R 2>&1 | tail -4
date -u >> $R/card.txt
