"""Every Floyd–Warshall variant by its stable name, with the reason it cannot run here, if any."""

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..registry import Registry, Variant as _Variant, load_function
from .routes import RouteMatrix

# run(w) takes the validated int32 matrix and returns (dist, routes, kernel_seconds): dist int32
# with the INF sentinel, or float64 with np.inf.
Runner = Callable[[np.ndarray], tuple[np.ndarray, RouteMatrix, float]]


@dataclass(frozen=True)
class Variant(_Variant):
    # "package.module:function" giving, for n, the n×n int32 array run() reads its input from
    # fastest (None: any array will do)
    input_buffer: str | None = None
    distances_only: bool = False  # run(w, routes=False) may skip the route matrix (then None)

    def run(self, w: np.ndarray, routes: bool = True) -> tuple[np.ndarray, RouteMatrix | None, float]:
        run: Runner = self.runner_function()
        return run(w) if routes or not self.distances_only else run(w, routes=False)

    def input_array(self, n: int) -> np.ndarray | None:
        """Where the validated n×n int32 input is best written for ``run``, or None: anywhere."""
        return load_function(self.input_buffer)(n) if self.input_buffer and self.available else None


_P = "engine.apsp."
REGISTRY = Registry("Floyd–Warshall", (
    Variant("cpu-linear", "CPU linear: the paper's triple loop (Fig. 3) with its Path matrix, "
            "Numba-compiled, one thread", "cpu", _P + "cpu_linear:run", one_thread=True),
    Variant("cpu-blocked", "CPU blocked-parallel: tiles relaxed by all cores with the reordered "
            "block schedule of Karasik & Prihozhy (seed 002)", "cpu", _P + "cpu_blocked:run",
            distances_only=True),
    Variant("gpu-linear", "GPU GPGPU linear: one thread per block, an n×n grid, one launch per k "
            "(the paper's first CUDA kernel)", "gpu", _P + "gpu_linear:run_linear"),
    Variant("gpu-coalesced", "GPU coalesced: 32×32 thread blocks reading rows contiguously, one "
            "launch per k", "gpu", _P + "gpu_linear:run_coalesced"),
    Variant("gpu-shared", "GPU shared: the paper's shared-memory kernel, row k tiled 256 wide in "
            "shared memory, one launch per k", "gpu", _P + "gpu_shared:run"),
    Variant("gpu-blocked", "GPU blocked: Venkataraman's 3-phase algorithm with 32×32 shared-memory "
            "tiles (the paper's and seed 001's)", "gpu", _P + "gpu_blocked:run"),
    Variant("gpu-fast", "GPU fast: blocked, 64×64 tiles with 4×4 cells per thread in registers, "
            "fused int32 add-min, via routes; one persistent launch for small graphs; large "
            "ones in 16-bit lanes, two relaxations an instruction, where distances fit", "gpu",
            _P + "gpu_fast:run", _P + "gpu_fast:input_array"),
))


def variants() -> list[Variant]:
    """Every variant, available on this machine or not, in the order the paper presents them."""
    return REGISTRY.variants()


def get_variant(name: str) -> Variant:
    """The variant called ``name``; ``ValueError`` listing the names when there is none."""
    return REGISTRY.get(name)
