#!/bin/bash
# Call 4: the largest n within 2 s (main, gpu-fast), then the GPU tests with what time is left.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
R=$OUT/c4; mkdir -p $R
(nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader; date -u) | tee $R/card.txt
echo "== largest" ; timeout 420 python3 main.py bench --out /tmp/b-largest --variants gpu-fast --density 15 --sizes 32768 36864 --bisect 3 --no-airports > $R/largest.txt 2>&1; echo "rc $?"; tr '\r' '\n' < $R/largest.txt | grep -v "^\[" | tail -15; cp /tmp/b-largest/bench.json $R/largest.json 2>/dev/null
date -u
