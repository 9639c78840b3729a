#!/bin/bash
# Session 2026-11-27 night, call 3: fwint (wide + lanes_lookahead with phase2_lanes_closed) and fwmark (wide + lanes_marks16) — steps per tuning at 16,384, exactness.
set -o pipefail
ROOT=$PWD
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl || exit 3
export SITE=/tmp/site PYTHONUNBUFFERED=1
R=$OUT/c3; mkdir -p $R/int $R/mark
(nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader; nproc; date -u) > $R/card.txt
cat $R/card.txt
cd $ROOT/.xfer/fwint && PYTHONPATH=/tmp/site:$PWD LIMIT=150 RESULTS=$R/int TUNINGS="- lanes_lookahead=1 lanes_lookahead=1,lanes_phase2_tiles=2 lanes_phase2_tiles=2" bash benchmarks/lanes_h100.sh schedules > /dev/null
date -u
cd $ROOT/.xfer/fwmark && PYTHONPATH=/tmp/site:$PWD LIMIT=150 RESULTS=$R/mark TUNINGS="lanes_marks16=1 - lanes_marks16=1,lanes_phase2_tiles=2" bash benchmarks/lanes_h100.sh schedules > /dev/null
date -u
cd $ROOT/.xfer/fwint && PYTHONPATH=/tmp/site:$PWD LANES_TUNING="lanes_lookahead=1" timeout 150 python3 -m benchmarks.probe_lanes16 8192 16384 >> $R/int/log.txt 2>&1
cd $ROOT/.xfer/fwmark && PYTHONPATH=/tmp/site:$PWD LANES_TUNING="lanes_marks16=1" timeout 150 python3 -m benchmarks.probe_lanes16 16384 >> $R/mark/log.txt 2>&1
date -u
for f in int mark; do echo "#### $f"; grep -E "^==|steps of|phase 3 by|phases 1.2 by|registers|distances|routes|exact" $R/$f/log.txt | cut -c1-600; done
date -u >> $R/card.txt
