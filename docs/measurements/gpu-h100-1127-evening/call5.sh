#!/bin/bash
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
R=$OUT/c5; mkdir -p $R
(nvidia-smi --query-gpu=name --format=csv,noheader; date -u) | tee $R/card.txt
timeout 560 python3 -m pytest -q -n 16 -p no:benchmark -p no:cacheprovider tests/test_apsp_gpu.py tests/test_sssp_gpu.py tests/test_mst_gpu.py tests/test_mst_gpu_fast.py tests/test_variant_warmup.py tests/test_shared_buffers.py tests/test_kernel_types.py tests/test_gpu_probe.py 2>&1 | tail -15 | tee $R/tests.txt
date -u
