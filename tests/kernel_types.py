"""Type the persistent kernels (those compiled for one signature) for a real GPU, sm_90, on a
machine without one: the simulator runs Python, so it takes what Numba's CUDA compiler refuses
(a shared array sized by an expression, not a constant, ran there and failed on the H100).

    python -m tests.kernel_types      # NUMBA_ENABLE_CUDASIM unset; prints one line per kernel

A kernel that types and lowers passes even where this machine lacks the toolkit's libraries
(NVVM, NVRTC) to finish the PTX; exit status 1 when a kernel does not type."""

import sys
from dataclasses import replace
from types import SimpleNamespace

import numba.cuda.dispatcher
from numba import cuda
from numba.core.errors import NumbaError

from engine.gpu_device import simulated

# Device functions are compiled for the current device's compute capability: pretend an H100's.
numba.cuda.dispatcher.get_current_device = lambda: SimpleNamespace(compute_capability=(9, 0))


MISSING_LIBRARY = {"DynamicLibNotFoundError", "NvvmSupportError", "NvrtcSupportError"}  # after lowering


def kernels():
    from engine.apsp import gpu_fast as apsp_fast
    from engine.mst import gpu_fast as mst_fast
    from engine.sssp import gpu_fast as sssp_fast
    lanes = apsp_fast.kernels(apsp_fast.default_tuning())  # generated: only a GPU build checks its shapes
    plain = apsp_fast.kernels(replace(apsp_fast.default_tuning(), lanes_lookahead=False, lanes_marks16=False,
                                      lanes_vias16=False))
    return {"gpu-fast-sssp persistent": (sssp_fast.persistent_rounds, sssp_fast.PERSISTENT_SIGNATURE),
            "gpu-fast-mst rounds": (mst_fast._all_rounds, mst_fast._ROUNDS_SIGNATURE),
            **{f"gpu-fast {name}": (getattr(lanes, name).function, getattr(lanes, name).signature)
               for name in LANES_KERNELS},
            **{f"gpu-fast {name} (switches off)": (getattr(plain, name).function, getattr(plain, name).signature)
               for name in SWITCHED_KERNELS}}


# gpu-fast's kernels of the 16-bit lanes path (generated source, taken beyond padded 3,072 only).
LANES_KERNELS = ("pack", "phase2_lanes", "phase2_lanes_closed", "phase3_lanes", "phase3_lanes_wide", "widen",
                 "widen_marks", "transpose_lanes", "recover_lanes", "recover_lanes_rows", "recover_lanes16",
                 "recover_lanes16_rows")
# Those whose text lanes_lookahead, lanes_marks16 and lanes_vias16 (on by default) change.
SWITCHED_KERNELS = ("pack", "phase2_lanes", "phase3_lanes", "phase3_lanes_wide", "widen")


def main() -> int:
    if simulated():
        print("NUMBA_ENABLE_CUDASIM is set: nothing to type", file=sys.stderr)
        return 2
    failed = 0
    for name, (function, signature) in kernels().items():
        try:
            cuda.compile_ptx(function, signature, cc=(9, 0))
            print(f"{name}: PTX for sm_90")
        except NumbaError as exc:
            failed += 1
            print(f"{name}: does not compile for a GPU: {exc}")
        except Exception as exc:  # noqa: BLE001 — a missing library passes, anything else fails
            if type(exc).__name__ not in MISSING_LIBRARY:
                raise
            print(f"{name}: typed and lowered (PTX not finished here: {type(exc).__name__})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
