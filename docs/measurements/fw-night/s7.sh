#!/bin/bash
# Session 2026-11-27 night, call 7: fwint's final defaults: solve and end to end at n = 34,816 and 35,840 (beyond call 6's 33,792, within 2 s).
set -o pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl || exit 3
export PYTHONUNBUFFERED=1
R=$OUT/c7; mkdir -p $R
(nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader; nproc; date -u) > $R/card.txt
cat $R/card.txt
cd .xfer/fwint
export PYTHONPATH=/tmp/site:$PWD
timeout 330 python3 main.py bench --out /tmp/bench-largest --variants gpu-fast --density 15 --sizes 34816 35840 --bisect 0 --no-airports > $R/bench-largest.txt 2>&1
echo "rc $?"; cp /tmp/bench-largest/bench.json $R/bench-largest.json 2>/dev/null
tr '\r' '\n' < $R/bench-largest.txt | grep -v "^\s*$" | tail -12
date -u >> $R/card.txt
