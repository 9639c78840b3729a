#!/bin/bash
# Session 2026-11-27 night, call 6: fwint's final defaults: solve and end to end at n = 32,768 and 33,792 (the largest n within 2 s).
set -o pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl || exit 3
export PYTHONUNBUFFERED=1
R=$OUT/c6; mkdir -p $R
(nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader; nproc; date -u) > $R/card.txt
cat $R/card.txt
cd .xfer/fwint
export PYTHONPATH=/tmp/site:$PWD
timeout 420 python3 main.py bench --out /tmp/bench-largest --variants gpu-fast --density 15 --sizes 32768 33792 --bisect 0 --no-airports > $R/bench-largest.txt 2>&1
echo "rc $?"; cp /tmp/bench-largest/bench.json $R/bench-largest.json 2>/dev/null
tr '\r' '\n' < $R/bench-largest.txt | grep -v "^\s*$" | tail -12
date -u >> $R/card.txt
