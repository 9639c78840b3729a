"""GPU "GPGPU" linear and coalesced Floyd–Warshall: the paper's first two CUDA kernels.

Both launch one kernel per k; every thread relaxes one pair (v, u) through k and keeps the
paper's Path matrix (``path[v, u] = path[k, u]`` on a strict improvement). Row k and column k
cannot change during step k (the diagonal is 0), so the threads of one launch never race.
"""

from numba import cuda, int32

from .gpu_common import SIMULATED, ceil_div, device_cost_and_path, empty_result, timed_on_device
from .routes import RouteMatrix

COA_TILE_WIDTH = 4 if SIMULATED else 32  # the paper's 32×32 thread blocks (4×4 in the simulator)

_SIG = "void(int32[:, ::1], int32[:, ::1], int32, int32)"


@cuda.jit(_SIG, cache=not SIMULATED)
def cuda_kernel(matrix, path, size, k):
    """GPGPU: grid (size, size), one thread per block."""
    v = cuda.blockIdx.y
    u = cuda.blockIdx.x
    candidate = int32(matrix[v, k] + matrix[k, u])
    if candidate < matrix[v, u]:
        matrix[v, u] = candidate
        path[v, u] = path[k, u]


@cuda.jit(_SIG, cache=not SIMULATED)
def cuda_kernel_coa(matrix, path, size, k):
    """Coalesced: 32×32 blocks, u runs along threadIdx.x so a warp reads a row contiguously."""
    v = cuda.blockDim.y * cuda.blockIdx.y + cuda.threadIdx.y
    u = cuda.blockDim.x * cuda.blockIdx.x + cuda.threadIdx.x
    if v < size and u < size:
        candidate = int32(matrix[v, k] + matrix[k, u])
        if candidate < matrix[v, u]:
            matrix[v, u] = candidate
            path[v, u] = path[k, u]


def _run(w, kernel, grid, block):
    n = w.shape[0]
    if n == 0:
        return empty_result(w)
    matrix, path = device_cost_and_path(w)

    def all_k():
        for k in range(n):
            kernel[grid, block](matrix, path, n, k)

    seconds = timed_on_device(all_k)
    return matrix.copy_to_host(), RouteMatrix("predecessor", path.copy_to_host()), seconds


def run_linear(w):
    n = w.shape[0]
    return _run(w, cuda_kernel, (n, n), 1)


def run_coalesced(w):
    n = w.shape[0]
    tiles = ceil_div(n, COA_TILE_WIDTH)
    return _run(w, cuda_kernel_coa, (tiles, tiles), (COA_TILE_WIDTH, COA_TILE_WIDTH))
