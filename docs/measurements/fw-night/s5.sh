#!/bin/bash
# Session 2026-11-27 night, call 5: fwint's final defaults (wide + look-ahead + int16 marks + int16 vias) against main (this root): GPU tests, steps, bench, n = 32,768.
set -o pipefail
ROOT=$PWD
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl || exit 3
export SITE=/tmp/site PYTHONUNBUFFERED=1
R=$OUT/c5; mkdir -p $R
(nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader; nproc; git -C $ROOT log --oneline -1 2>/dev/null; date -u) > $R/card.txt
cat $R/card.txt
cd $ROOT/.xfer/fwint
export PYTHONPATH=/tmp/site:$PWD
timeout 250 python3 -m pytest -q -n 16 -p no:benchmark -p no:cacheprovider tests/test_apsp_gpu.py tests/test_kernel_types.py tests/test_variant_warmup.py 2>&1 | tail -4 > $R/tests.txt
cat $R/tests.txt; date -u
LIMIT=100 RESULTS=$R BASE=$ROOT REPS=1 bash benchmarks/lanes_h100.sh steps > /dev/null
date -u
LIMIT=120 RESULTS=$R BASE=$ROOT REPS=1 bash benchmarks/lanes_h100.sh bench > /dev/null
date -u
timeout 70 python3 main.py bench --out /tmp/bench-32k --variants gpu-fast --density 15 --sizes 32768 --bisect 0 --no-airports > $R/bench-32768.txt 2>&1; cp /tmp/bench-32k/bench.json $R/bench-32768.json 2>/dev/null
tail -3 $R/bench-32768.txt
grep -E "^==|steps of|registers" $R/log.txt | cut -c1-400
python3 -m benchmarks.lanes_tables $R 2>&1 | tail -12
date -u >> $R/card.txt
