#!/bin/bash
# Call 1: fwlanes3's switches against main (BASE = this root) + the day loop's compile for the study, in the background.
set -o pipefail
ROOT=$PWD
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl || exit 3
export SITE=/tmp/site PYTHONUNBUFFERED=1
R=$OUT/c1; mkdir -p $R
(nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader; nproc; lscpu | grep "Model name"; date -u) > $R/card.txt
cat $R/card.txt
rm -rf /tmp/br && mkdir /tmp/br && cp -a $ROOT/. /tmp/br/ && rm -rf /tmp/br/.xfer /tmp/br/.whl
(cd /tmp/br && NUMBA_CACHE_DIR=/tmp/nbcache PYTHONPATH=/tmp/site:/tmp/br timeout 560 python3 benchmarks/sweep_scaling.py /tmp/warm --runner pool --parts study --study-seeds 1 --study-fleets 200 --study-hours 0.25 --budget-s 520 > $R/warm.txt 2>&1; echo "warm rc $? $(date -u)" >> $R/warm.txt) &
cd .xfer/fwlanes3/new
export PYTHONPATH=/tmp/site:$PWD
timeout 200 python3 -m pytest -q -n 8 -p no:benchmark -p no:cacheprovider tests/test_apsp_gpu.py tests/test_kernel_types.py 2>&1 | tail -5 > $R/tests.txt
cat $R/tests.txt; date -u
RESULTS=$R BASE=$ROOT REPS=1 bash benchmarks/lanes_h100.sh steps > /dev/null
date -u
RESULTS=$R TUNINGS="lanes_pairs=1,vector_tile_stores=1 vector_tile_stores=1 lanes_pairs=1 - lanes_pairs=1,vector_tile_stores=1" bash benchmarks/lanes_h100.sh schedules > /dev/null
date -u
LANES_TUNING="lanes_pairs=1 vector_tile_stores=1" timeout 120 python3 -m benchmarks.probe_lanes16 3100c 16384 >> $R/log.txt 2>&1
grep -E "^==|steps of|phase 3 by|registers|distances equal" $R/log.txt
wait
tail -4 $R/warm.txt; date -u
