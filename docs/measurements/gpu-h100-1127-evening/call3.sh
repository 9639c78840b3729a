#!/bin/bash
# Call 3: main's figures on this card (n = 500 e2e, 8,192, 16,384, hub; the largest n within 2 s; SSSP goals), then the GPU tests.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl || exit 3
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
R=$OUT/c3; mkdir -p $R
(nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader; date -u) | tee $R/card.txt
b() { local name=$1; shift; echo "== $name: $*" | tee -a $R/log.txt; timeout ${LIM:-150} python3 main.py bench --out /tmp/b-$name "$@" 2>&1 | tee $R/$name.txt | tail -${TAILN:-12}; cp /tmp/b-$name/bench.json $R/$name.json 2>/dev/null; }
b e2e --variants gpu-fast --density 15 --sizes 500 8192 16384 --bisect 0 --airports hub-atl
LIM=120 b largest --variants gpu-fast --density 15 --sizes 32768 36864 --bisect 3 --no-airports
b sssp-grid --problem sssp --families grid --sizes 4194304 --sources 1 --no-airports --variants gpu-fast-sssp
b sssp-uniform --problem sssp --families uniform --degree 6 --sizes 5000000 --sources 1 --no-airports --variants gpu-fast-sssp
b sssp-airports --problem sssp --families --airports hub-atl regional --sources 1 96 all --budget 0.5 --variants gpu-fast-sssp fw-gpu-fast
date -u
timeout ${TESTS_S:-200} python3 -m pytest -q -n 16 -p no:benchmark -p no:cacheprovider tests/test_apsp_gpu.py tests/test_sssp_gpu.py tests/test_mst_gpu.py tests/test_mst_gpu_fast.py tests/test_variant_warmup.py tests/test_shared_buffers.py tests/test_kernel_types.py tests/test_gpu_probe.py 2>&1 | tail -8 | tee $R/tests.txt
date -u
