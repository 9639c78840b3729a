#!/bin/bash
# Session 2026-11-28, call 2: fwhalves (int16 marks by 16-bit stores, the only int16 path) against main: GPU tests, steps, bench.
set -o pipefail
ROOT=$PWD
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl || exit 3
export SITE=/tmp/site PYTHONUNBUFFERED=1
R=$OUT/h2; mkdir -p $R
(nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader; nproc; date -u) > $R/card.txt
cat $R/card.txt
cd $ROOT/.xfer/fwhalves
export PYTHONPATH=/tmp/site:$PWD
timeout 250 python3 -m pytest -q -n 16 -p no:benchmark -p no:cacheprovider tests/test_apsp_gpu.py tests/test_kernel_types.py tests/test_variant_warmup.py 2>&1 | tail -4 > $R/tests.txt
cat $R/tests.txt; date -u
LIMIT=100 RESULTS=$R BASE=$ROOT/.xfer/base REPS=1 bash benchmarks/lanes_h100.sh steps > /dev/null
date -u
LIMIT=120 RESULTS=$R BASE=$ROOT/.xfer/base REPS=1 bash benchmarks/lanes_h100.sh bench > /dev/null
date -u
grep -E "^==|steps of|phase 3 by|registers" $R/log.txt | cut -c1-600
python3 -m benchmarks.lanes_tables $R 2>&1 | tail -14
date -u >> $R/card.txt
