#!/bin/bash
# Session 2026-11-28, call 6: main after the review (store_marks on V's own address): GPU tests, steps and exactness at 16,384, bench 500 and 16,384.
set -o pipefail
ROOT=$PWD
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl || exit 3
export SITE=/tmp/site PYTHONUNBUFFERED=1
R=$OUT/h6; mkdir -p $R
(nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader; nproc; git -C $ROOT log --oneline -1 2>/dev/null; date -u) > $R/card.txt
cat $R/card.txt
cd $ROOT/.xfer/main
export PYTHONPATH=/tmp/site:$PWD
timeout 215 python3 -m pytest -q -n 16 -p no:benchmark -p no:cacheprovider tests/test_apsp_gpu.py tests/test_kernel_types.py tests/test_variant_warmup.py 2>&1 | tail -4 > $R/tests.txt
cat $R/tests.txt; date -u
timeout 45 python3 -m benchmarks.probe_lanes16 16384s > $R/steps.txt 2>&1; cat $R/steps.txt | cut -c1-400
timeout 60 python3 main.py bench --out /tmp/bench-final --variants gpu-fast --density 15 --sizes 500 16384 --bisect 0 --no-airports > $R/bench.txt 2>&1; cp /tmp/bench-final/bench.json $R/bench.json 2>/dev/null
tail -8 $R/bench.txt
date -u >> $R/card.txt
