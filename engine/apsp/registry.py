"""Every Floyd–Warshall variant by its stable name, with the reason it cannot run here, if any."""

import importlib
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .routes import RouteMatrix

# run(w) takes the validated int32 matrix and returns (dist32, routes, kernel_seconds).
Runner = Callable[[np.ndarray], tuple[np.ndarray, RouteMatrix, float]]


@dataclass(frozen=True)
class Variant:
    name: str
    description: str
    family: str   # "cpu" or "gpu"
    runner: str   # "module:function" inside engine.apsp, imported on first use
    # "module:function" giving, for n, the n×n int32 array run() reads its input from fastest
    # (None: any array will do)
    input_buffer: str | None = None

    @property
    def reason(self) -> str | None:
        """Why this variant cannot run on this machine, or None when it can."""
        if self.family == "gpu":
            from .gpu_device import gpu_unavailable_reason
            return gpu_unavailable_reason()
        return None

    @property
    def available(self) -> bool:
        return self.reason is None

    def run(self, w: np.ndarray) -> tuple[np.ndarray, RouteMatrix, float]:
        run: Runner = _function(self.runner)
        return run(w)

    def input_array(self, n: int) -> np.ndarray | None:
        """Where the validated n×n int32 input is best written for ``run``, or None: anywhere."""
        return _function(self.input_buffer)(n) if self.input_buffer and self.available else None


def _function(name: str) -> Callable:
    module, function = name.split(":")
    return getattr(importlib.import_module(f"engine.apsp.{module}"), function)


_VARIANTS = (
    Variant("cpu-linear", "CPU linear: the paper's triple loop (Fig. 3) with its Path matrix, "
            "Numba-compiled, one thread", "cpu", "cpu_linear:run"),
    Variant("cpu-blocked", "CPU blocked-parallel: tiles relaxed by all cores with the reordered "
            "block schedule of Karasik & Prihozhy (seed 002)", "cpu", "cpu_blocked:run"),
    Variant("gpu-linear", "GPU GPGPU linear: one thread per block, an n×n grid, one launch per k "
            "(the paper's first CUDA kernel)", "gpu", "gpu_linear:run_linear"),
    Variant("gpu-coalesced", "GPU coalesced: 32×32 thread blocks reading rows contiguously, one "
            "launch per k", "gpu", "gpu_linear:run_coalesced"),
    Variant("gpu-shared", "GPU shared: the paper's shared-memory kernel, row k tiled 256 wide in "
            "shared memory, one launch per k", "gpu", "gpu_shared:run"),
    Variant("gpu-blocked", "GPU blocked: Venkataraman's 3-phase algorithm with 32×32 shared-memory "
            "tiles (the paper's and seed 001's)", "gpu", "gpu_blocked:run"),
    Variant("gpu-fast", "GPU fast: blocked, 64×64 tiles with 4×4 cells per thread in registers, "
            "fused int32 add-min, via routes; one persistent launch for small graphs", "gpu",
            "gpu_fast:run", "gpu_fast:input_array"),
)


def variants() -> list[Variant]:
    """Every variant, available on this machine or not, in the order the paper presents them."""
    return list(_VARIANTS)


def get_variant(name: str) -> Variant:
    """The variant called ``name``; ``ValueError`` listing the names when there is none."""
    for v in _VARIANTS:
        if v.name == name:
            return v
    raise ValueError(f"unknown Floyd–Warshall variant {name!r}; choose auto or one of: "
                     + ", ".join(v.name for v in _VARIANTS))
