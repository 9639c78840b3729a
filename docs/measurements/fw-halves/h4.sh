#!/bin/bash
# Session 2026-11-28, call 4: the largest n within 2 s end to end, fwhalves (final).
set -o pipefail
ROOT=$PWD
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl || exit 3
export SITE=/tmp/site PYTHONUNBUFFERED=1
R=$OUT/h4; mkdir -p $R
(nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader; nproc; date -u) > $R/card.txt
cat $R/card.txt
cd $ROOT/.xfer/fwhalves
export PYTHONPATH=/tmp/site:$PWD
timeout 520 python3 main.py bench --out /tmp/bench-largest --variants gpu-fast --density 15 --sizes 35328 35840 36352 --bisect 0 --no-airports > $R/bench-largest.txt 2>&1
cp /tmp/bench-largest/bench.json $R/bench-largest.json 2>/dev/null
cat $R/bench-largest.txt | tail -12
date -u >> $R/card.txt
