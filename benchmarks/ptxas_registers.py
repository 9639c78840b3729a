"""Registers, spills and shared memory of gpu-fast's generated kernels for sm_90, from the CUDA
toolkit's ``ptxas -v`` on a machine without a GPU: no device time. Numba's NVVM makes the PTX
(with the kernel's launch bounds); the development machine has the toolkit's ptxas, libnvvm and
libdevice but neither a driver nor NVRTC, which Numba asks only for the closest architecture and
libdevice's path: both are given here. Occupancy follows: 65,536 registers an SM, so a kernel of
256 threads at ≤ 80 registers fits three blocks, at 81–128 two.

    NUMBA_FORCE_CUDA_CC=9.0 python -m benchmarks.ptxas_registers phase3_lanes phase3_pairs

``LANES_TUNING`` (as probe_lanes16) builds another tuning's kernels; ``UNBOUNDED=1`` leaves the
kernels' launch bounds out (what ptxas takes unasked); ``NVDISASM`` (the path of the toolkit's
nvdisasm, e.g. from PyPI's nvidia-cuda-nvdisasm wheel, unpacked) adds static SASS counts.
"""

import glob
import os
import re
import subprocess
import sys
import tempfile

from numba import cuda
from numba.cuda import dispatcher
from numba.cuda.cudadrv import nvrtc, nvvm

from benchmarks.probe_lanes16 import TUNING
from engine.apsp import gpu_fast

UNBOUNDED = os.environ.get("UNBOUNDED") == "1"  # the kernels' launch bounds left out
LIBDEVICE = (glob.glob("/usr/local/cuda*/nvvm/libdevice/libdevice.10.bc") + [None])[0]


def report(name: str, folder: str) -> str:
    kernel = getattr(gpu_fast.kernels(TUNING), name)
    ptx, _ = cuda.compile_ptx(kernel.function, kernel.signature, cc=(9, 0),
                              launch_bounds=None if UNBOUNDED else kernel.options.get("launch_bounds"))
    path = os.path.join(folder, f"{name}.ptx")
    with open(path, "w") as f:
        f.write(ptx)
    out = subprocess.run(["ptxas", "-arch=sm_90", "-v", path, "-o", path + ".cubin"],
                         capture_output=True, text=True, check=True).stderr
    line = f"{name}: " + "; ".join(line.split(":", 1)[-1].strip() for line in out.splitlines()
                                   if "registers" in line or "spill" in line)
    return line + (sass_counts(path + ".cubin") if os.environ.get("NVDISASM") else "")


def sass_counts(cubin: str) -> str:
    """Static SASS counts (the toolkit's nvdisasm at $NVDISASM): instructions in all, those of
    the product's k-loop (the block of add-mins that branches back to itself), and those before
    the first loop (the tile's set-up: indices, the cells' and operand tiles' loads)."""
    sass = subprocess.run([os.environ["NVDISASM"], cubin], capture_output=True, text=True, check=True).stdout
    blocks, label = {"": []}, ""
    for line in sass.splitlines():
        if re.match(r"^\.L_x_\d+:", line.strip()):
            label = line.strip().rstrip(":")
            blocks[label] = []
        elif (op := re.search(r"/\*[0-9a-f]{4}\*/\s+(@!?U?P\w+\s+)?([A-Z][\w.]*)(.*)", line)):
            blocks[label].append((op.group(2), op.group(3)))
    loop = next((ops[:[i for i, (o, rest) in enumerate(ops) if o == "BRA" and f"({name})" in rest][0] + 1]
                 for name, ops in blocks.items() if name and any(o == "BRA" and f"({name})" in rest for o, rest in ops)
                 and any(o.startswith("VIADDMNMX") for o, _ in ops)), [])
    total = sum(len(ops) for ops in blocks.values())
    adds = sum(o.startswith("VIADDMNMX") for o, _ in loop)
    return f"; SASS {total} instructions, k-loop {len(loop)} ({adds} add-min), before the loops {len(blocks[''])}"


if __name__ == "__main__":
    if not os.environ.get("NUMBA_FORCE_CUDA_CC"):
        sys.exit("set NUMBA_FORCE_CUDA_CC=9.0 (no GPU to ask for its compute capability)")
    nvrtc.get_supported_ccs = lambda: ((9, 0),)
    nvvm.get_libdevice = lambda: LIBDEVICE
    nvvm.open_libdevice = lambda: open(LIBDEVICE, "rb").read()
    # device functions ask the current device for its compute capability when first typed
    dispatcher.get_current_device = lambda: type("Device", (), {"compute_capability": (9, 0)})()
    with tempfile.TemporaryDirectory() as folder:
        for kernel_name in sys.argv[1:]:
            print(report(kernel_name, folder), flush=True)
