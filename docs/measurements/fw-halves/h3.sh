#!/bin/bash
# Session 2026-11-28, call 3: the lanes' via recovery alone by chunk of columns (a chunk's TL rows shared in L2 by the rows in flight?), fwhalves.
set -o pipefail
ROOT=$PWD
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl || exit 3
export SITE=/tmp/site PYTHONUNBUFFERED=1
R=$OUT/h3; mkdir -p $R
(nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader; nproc; date -u) > $R/card.txt
cat $R/card.txt
cd $ROOT/.xfer/fwhalves
export PYTHONPATH=/tmp/site:$PWD
LIMIT=200 RESULTS=$R RECOVERY="- lanes_recover_chunk=512 lanes_recover_chunk=1024 lanes_recover_chunk=2048 lanes_recover_chunk=4096 lanes_recover_chunk=1024,lanes_recover_staged=0 lanes_recover_chunk=2048,lanes_recover_staged=0 lanes_recover_staged=0 -" bash benchmarks/lanes_h100.sh recovery > /dev/null
grep -E "^==|recovery" $R/log.txt | cut -c1-300
date -u >> $R/card.txt
