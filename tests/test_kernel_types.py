"""The persistent kernels type for a real GPU (tests/kernel_types.py), run in a process of its
own: this one may be running Numba's CUDA simulator, which never types a kernel for a GPU."""

import os
import subprocess
import sys
from pathlib import Path


def test_the_persistent_kernels_type_for_a_real_gpu():
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    run = subprocess.run([sys.executable, "-m", "tests.kernel_types"], env=env, capture_output=True,
                         text=True, timeout=600, cwd=Path(__file__).resolve().parent.parent)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count("gpu-fast-sssp persistent: ") == run.stdout.count("gpu-fast-mst rounds: ") == 1
