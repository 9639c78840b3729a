"""What ptxas made of gpu-fast's phase-3 kernels: the most frequent SASS instructions of each
(static counts, from ``inspect_sass``; needs the CUDA toolkit's nvdisasm). The add-min of
``phase3`` should be ``VIADDMNMX``, and the lanes' ``add.u16x2`` + ``min.u16x2`` of
``phase3_lanes`` one ``VIADDMNMX.U16x2``.

    python3 -m benchmarks.probe_sass_mix phase3 phase3_lanes
"""

import collections
import re
import sys

from engine.apsp import gpu_fast


def mix(kernel_name: str, top: int = 8) -> str:
    kernel = getattr(gpu_fast.kernels(gpu_fast.SOLVER.tuning), kernel_name)
    sass = next(iter(kernel.inspect_sass().values()))
    opcode = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][\w.]*)")
    ops = collections.Counter(m.group(1) for m in opcode.finditer(sass))
    return f"{kernel_name}: " + ", ".join(f"{op} {count}" for op, count in ops.most_common(top))


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(mix(name), flush=True)
